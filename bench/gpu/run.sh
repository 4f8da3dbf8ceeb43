#!/usr/bin/env bash
# bench/gpu in a source tree: builds (BUILD, default build) and runs bench/gpu/bench.py against
# that build's daemon. On a GPU machine without the build tools use the pack instead
# (scripts/gpu-pack.sh here, then gpu-pack/gpu-run.sh there). Without a GPU it says so and
# measures nothing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD:-$root/build}
[[ -f $build/build.ninja ]] || meson setup "$build" "$root" >/dev/null
ninja -C "$build" daemon/upskilld gpu/upskilld-worker >/dev/null
export UPSKILLD=${UPSKILLD:-$build/daemon/upskilld}
export UPSKILLD_WORKER_SERVER_IDLE=${UPSKILLD_WORKER_SERVER_IDLE:-0}
exec python3 "$root/bench/gpu/bench.py"
