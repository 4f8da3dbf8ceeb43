#!/usr/bin/env bash
set -euo pipefail
origin=${1:?vg/lv}
dest=${2:?destination}
vg=${origin%/*}
snap="${origin#*/}-bk-$(date +%s)"
mnt=$(mktemp -d)

cleanup() {
  umount "$mnt" 2>/dev/null || true
  rmdir "$mnt"
  # remove only our own snapshot, and only if it is a snapshot of the origin
  if [ "$(lvs --noheadings -o origin "$vg/$snap" 2>/dev/null | tr -d ' ')" = "${origin#*/}" ]; then
    lvremove -y "$vg/$snap"
  fi
}
trap cleanup EXIT

lvcreate -s -n "$snap" -L 5G "$origin"
mount -o ro "/dev/$vg/$snap" "$mnt"
tar -C "$mnt" -czf "$dest/${origin#*/}-$(date +%F).tgz" .
