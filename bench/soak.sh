#!/usr/bin/env bash
# One daemon per framing under >= 1,000,000 mixed requests over >= 10 minutes (bench/soak.c:
# ping, lookup, list, status, kernel/validate cached and uncached, skills/validate, cancel),
# one report line a minute (requests, RSS, fds, p50/p99 of ping and cached lookup), then
# PASS when nothing failed, RSS grew <= 1 MiB after the first minute and the fd count held
# (at the end, once the last compile worker is reaped, no more than the fewest in any report).
#
#   bench/soak.sh [--short] [lsp|mcp ...]     default: mcp then lsp
#   --short: 20 s and 10,000 requests per framing, a report every 5 s, RSS growth <= 16 MiB
#            (not checked under sanitizers: $UPK_SANITIZE, as meson test sets it)
#            (the CI-size run: meson test --suite soak)
# Knobs: SECONDS_EACH, REQUESTS, WINDOW, MAX_SECONDS (stop then even short of REQUESTS; 0: never),
# PARALLEL=1 (run the framings side by side), BUILD (build dir, default build).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD:-$root/build}
short=0
[[ ${1:-} == --short ]] && { short=1; shift; }
modes=("$@")
[[ ${#modes[@]} -gt 0 ]] || modes=(mcp lsp)
if [[ $short == 1 ]]; then
  secs=${SECONDS_EACH:-20} reqs=${REQUESTS:-10000} every=5 growth=16384
else
  secs=${SECONDS_EACH:-600} reqs=${REQUESTS:-1000000} every=60 growth=1024
fi
# Under ASan the quarantine alone holds ~256 MiB of freed memory: RSS says nothing there.
[[ ${UPK_SANITIZE:-none} != none && -n ${UPK_SANITIZE:-} ]] && growth=-1
[[ -x $build/bench/soak && -x $build/daemon/upskilld ]] || ninja -C "$build" bench/soak daemon/upskilld gpu/upskilld-worker >/dev/null
export UPSKILLD_WORKER_SERVER_IDLE=0 # this daemon's own workers: nothing outlives the run
one() {
  "$build/bench/soak" -m "$1" -d "$secs" -n "$reqs" -i "$every" -g "$growth" -w "${WINDOW:-32}" \
    -x "${MAX_SECONDS:-0}" -- "$build/daemon/upskilld" "--$1"
}
status=0
if [[ ${PARALLEL:-0} == 1 ]]; then
  pids=()
  for m in "${modes[@]}"; do one "$m" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  for m in "${modes[@]}"; do one "$m" || status=1; done
fi
exit $status
