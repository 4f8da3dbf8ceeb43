#!/usr/bin/env bash
# The checks that stop the creep (scripts/check-creep.py): the tree passes each; in a scratch tree
# a new file over 600 lines, a listed file that grew, a function declared in another file's
# header and a function over a cognitive complexity of 50 each fail, naming the file. TAP.
# Usage: creep.sh BUILD_DIR (for compile_commands.json).
set -uo pipefail
src=${UPK_SOURCE_ROOT:?}
build=${1:?usage: creep.sh BUILD_DIR}
check=$src/scripts/check-creep.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/lib/tap.sh"

name="the tree's C files and declarations are held to scripts/creep/"
if out=$("$check" --length --declarations "$src" 2>&1); then tap_ok "$name"; else
  tap_not_ok "$name"
  tap_diag "$out"
fi
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
name="no function of production code over a cognitive complexity of 50 but those listed"
if [[ -z $tidy ]]; then tap_skip "$name" "no clang-tidy (scripts/setup.sh --test installs it)"
elif out=$("$check" --complexity "$build" "$src" 2>&1); then tap_ok "$name"; else
  tap_not_ok "$name"
  tap_diag "$out"
fi

# A scratch tree: its own lists, one listed file, a header and two .c files.
t=$tmp/t
mkdir -p "$t/scripts/creep" "$t/skills" "$t/common"
printf '%s\n' 'skills/big.c 700' >"$t/scripts/creep/long-files.txt"
: >"$t/scripts/creep/declarations.txt"
: >"$t/scripts/creep/complex-functions.txt"
seq 1 700 | sed 's|^|// |' >"$t/skills/big.c"
printf 'int upk_foo(void);\n' >"$t/skills/foo.h"
printf '#include "foo.h"\nint upk_foo(void) { return 1; }\n' >"$t/skills/foo.c"
name="a scratch tree within its lists passes"
if out=$("$check" --length --declarations "$t" 2>&1); then tap_ok "$name"; else
  tap_not_ok "$name"
  tap_diag "$out"
fi

# Run the check on the scratch tree after CHANGE (a shell command run in it); it must fail
# naming WANT.
refused() {
  local what=$1 change=$2 want=$3
  cp -r "$t" "$tmp/c"
  (cd "$tmp/c" && eval "$change")
  out=$("$check" --length --declarations "$tmp/c" 2>&1)
  local rc=$?
  rm -rf "$tmp/c"
  if ((rc == 1)) && [[ $out == *"$want"* ]]; then tap_ok "refused: $what"; else
    tap_not_ok "refused: $what"
    tap_diag "$out"
  fi
}
refused "a new file over 600 lines" "seq 1 601 | sed 's|^|// |' >common/new.c" "common/new.c: 601 lines"
refused "a listed file that grew" "echo '// more' >>skills/big.c" "skills/big.c: 701 lines"
refused "a function declared in another file's header" \
  "printf '#include \"foo.h\"\nint upk_foo(void) { return 2; }\n' >skills/bar.c && rm skills/foo.c" \
  "skills/foo.h: declares upk_foo, defined in skills/bar.c"

name="refused: a function over a cognitive complexity of 50"
if [[ -z $tidy ]]; then tap_skip "$name" "no clang-tidy"; else
  {
    printf 'int upk_ladder(int a, int b) {\n  int n = 0;\n'
    for i in $(seq 1 9); do printf '  if (a > %d) { if (b > %d) { if (a > b) { n++; } } }\n' "$i" "$i"; done
    printf '  return n;\n}\n'
  } >"$t/skills/ladder.c"
  printf '[{"directory": "%s", "file": "skills/ladder.c", "arguments": ["cc", "-c", "skills/ladder.c"]}]\n' \
    "$t" >"$t/compile_commands.json"
  out=$("$check" --complexity "$t" "$t" 2>&1)
  if (($? == 1)) && [[ $out == *"skills/ladder.c:1: upk_ladder has a cognitive complexity of"* ]]; then
    tap_ok "$name"
  else
    tap_not_ok "$name"
    tap_diag "$out"
  fi
fi
tap_finish
