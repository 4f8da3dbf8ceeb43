#!/usr/bin/env bash
# Speed of the skill index on 10,000 generated skills (10 roots of 1,000):
# full index, rescan, lookup p50/p99 over the eval tasks, one changed skill
# re-indexed, RSS, and `grep -ril` over the same tree per task as a ratio.
#
#   bench/skills/bench.sh [BUILD_DIR] [COUNT]
#
# Runs twice: with the cache file the daemon uses, and in memory.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$root/build}")
count=${2:-10000}
ninja -C "$build" bench/skills/index_bench >/dev/null
work="$build/bench-skills"
mkdir -p "$work"
seeds=$("$here/fetch_seeds.sh" "$work/seeds" || echo 0)
python3 "$here/gen_skills.py" "$work/speed-$count" --count "$count" --seeds "$work/seeds/skills"
bench="$build/bench/skills/index_bench"
"$bench" speed "$work/speed-$count" "$here/eval_pairs.tsv" --db "$work/index.sqlite"
echo
"$bench" speed "$work/speed-$count" "$here/eval_pairs.tsv" --grep 0
