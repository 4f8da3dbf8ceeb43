#!/usr/bin/env bash
# The user docs' check (scripts/check-docs.py): passes on the tree's docs/, and on a copy fails,
# naming file and line, for each reference to an issue or a round and each broken link; a code
# span (`warning #177-D`), a folder's name (round1) and a good anchor pass. TAP.
set -uo pipefail
src=${UPK_SOURCE_ROOT:?}
check=$src/scripts/check-docs.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/lib/tap.sh"

if out=$("$check" "$src" 2>&1); then tap_ok "docs/ names no issue or round, its links resolve"; else
  tap_not_ok "docs/ names no issue or round, its links resolve"
  tap_diag "$out"
fi

cp -r "$src/docs" "$tmp/docs"
doc=$tmp/docs/skills.md
cp "$doc" "$tmp/saved"
base=$(wc -l <"$doc")
bad=('Measured in issue 45.' 'Since round 14 the layer reads more.' 'The third round added it.'
  'Fixed by #123.' 'See [the rules](skills.md#no-such-heading).' 'See [it](missing.md).')
printf '%s\n' "${bad[@]}" >>"$doc"
out=$("$check" "$tmp" 2>&1)
rc=$?
for i in "${!bad[@]}"; do
  if ((rc == 1)) && [[ $out == *"docs/skills.md:$((base + i + 1)):"* ]]; then tap_ok "refused: ${bad[i]}"; else
    tap_not_ok "refused: ${bad[i]}"
    tap_diag "$out"
  fi
done

cp "$tmp/saved" "$doc"
printf '%s\n' 'nvcc prints `warning #177-D` here.' 'The set tests/audit/labelled/round1 stays.' \
  'See [install](skills.md#installing-skills).' >>"$doc"
if out=$("$check" "$tmp" 2>&1); then tap_ok "a code span, a folder named round1 and a good anchor pass"; else
  tap_not_ok "a code span, a folder named round1 and a good anchor pass"
  tap_diag "$out"
fi
tap_finish
