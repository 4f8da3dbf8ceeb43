#!/usr/bin/env bash
# Key-fact recall, size and time of condensed traces at 2k/4k/8k tokens, beside upskill's
# method (the first 4,000 characters), on the set gen_traces.py writes (13 traces, 5 formats,
# up to ~1 MB). Exit status 0 when the targets are met (>= 95 % recall at 4k, 1 MB <= 100 ms).
#   bench/traces/run.sh [BUILD_DIR] [REPS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$root/build}")
ninja -C "$build" bench/traces/trace_bench >/dev/null
python3 "$here/gen_traces.py" "$build/bench-traces" >/dev/null
"$build/bench/traces/trace_bench" "$build/bench-traces" "${2:-5}"
