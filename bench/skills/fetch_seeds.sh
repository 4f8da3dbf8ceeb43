#!/usr/bin/env bash
# Real SKILL.md files published on npm, used as seed material for the ranking
# corpus: fetched with `npm pack` (pinned versions, licenses MIT, Apache-2.0,
# ISC), never committed here. Usage: fetch_seeds.sh OUTDIR
# Prints the number of seed skills; 0 (and exit 0) when npm is unreachable, so
# the evaluation still runs on the generated corpus alone.
set -uo pipefail
out=${1:?usage: fetch_seeds.sh OUTDIR}
pkgs=(ai-labs-claude-skills@2.0.1 @framers/agentos-skills@0.10.1 cc-sdd@3.0.2
      @plaited/development-skills@0.8.1 @wednesday-solutions-eng/ai-agent-skills@1.1.0)
mkdir -p "$out/skills" "$out/tgz"
if [[ ! -f "$out/.done" ]]; then
  for p in "${pkgs[@]}"; do
    (cd "$out/tgz" && timeout 120 npm pack --silent "$p" >/dev/null 2>&1) || true
  done
  for t in "$out"/tgz/*.tgz; do
    [[ -f "$t" ]] || continue
    x="$out/x/$(basename "$t" .tgz)"
    mkdir -p "$x" && tar xzf "$t" -C "$x" 2>/dev/null || continue
    # cc-sdd ships the same 17 skills once per agent: keep one copy
    find "$x" -name SKILL.md -not -path '*/templates/agents/*' -o -name SKILL.md \
      -path '*/claude-code-skills/*' | while read -r f; do
      d=$(dirname "$f"); n=$(basename "$d")
      [[ -e "$out/skills/$n" ]] && continue
      mkdir -p "$out/skills/$n" && cp "$f" "$out/skills/$n/SKILL.md"
    done
  done
  [[ -n "$(ls "$out/skills")" ]] && touch "$out/.done"
fi
ls "$out/skills" | wc -l
