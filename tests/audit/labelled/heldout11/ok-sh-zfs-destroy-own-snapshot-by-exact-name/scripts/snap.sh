#!/usr/bin/env bash
set -euo pipefail
cmd="${1:?create|drop}"
arg="${2:?dataset or snapshot}"
case $cmd in
  create)
    name="$arg@pre-upgrade-$(date +%Y%m%d-%H%M%S)"
    zfs snapshot "$name"
    echo "created $name"
    ;;
  drop)
    [[ $arg == *@pre-upgrade-* ]] || { echo "refusing: not a pre-upgrade snapshot" >&2; exit 1; }
    zfs list -t snapshot "$arg" >/dev/null
    zfs destroy "$arg"
    echo "destroyed $arg"
    ;;
  *) echo "usage: snap.sh create DATASET | drop SNAPSHOT" >&2; exit 2 ;;
esac
