#!/usr/bin/env bash
# Model calls through the daemon against a scripted server that answers in 200 ms (tests/models/
# server.mjs): 60 calls (3 cases x 5 runs x 2 models x baseline+skill) at concurrency 8, beside the
# same 60 one at a time (as upskill's benchmark runs them), as a ratio; plus ping latency while
# the concurrent run is in flight. Knobs: BUILD (build dir, default build), CALLS (60),
# CONCURRENCY (8), DELAY_MS (200). Exit status 0 when the concurrent run takes <= 2 s.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
build=${BUILD:-build}
[[ -f $build/build.ninja ]] || meson setup "$build" >/dev/null
ninja -C "$build" daemon/upskilld >/dev/null
exec node bench/models/bench.mjs "$build/daemon/upskilld"
