#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_PRELOAD="$here/lib/libfastio.so"
exec grep -rn --color=never "$@"
