#!/usr/bin/env bash
# The banned-calls check (scripts/checksrc.py): passes on the tree, and on a copy fails,
# naming file, line, column and the replacement, for each banned call planted in a
# production file; a name in a comment or a string, a member and a longer identifier pass. TAP.
set -uo pipefail
src=${UPK_SOURCE_ROOT:?}
check=$src/scripts/checksrc.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/lib/tap.sh"

if out=$("$check" --long "$src" 2>&1); then tap_ok "the tree calls no banned function, daemon/ has no function over 60 lines"; else
  tap_not_ok "the tree calls no banned function, daemon/ has no function over 60 lines"
  tap_diag "$out"
fi
if [[ $out =~ checksrc:\ ([0-9]+)\ files ]] && ((BASH_REMATCH[1] > 100)); then
  tap_ok "it read the tree's sources (${BASH_REMATCH[1]} files)"
else
  tap_not_ok "it read the tree's sources"
  tap_diag "$out"
fi

mkdir -p "$tmp/t"
(cd "$src" && tar cf - --exclude=node_modules common protocol gpu models skills report daemon clients) |
  (cd "$tmp/t" && tar xf -)

# Append LINE to FILE in the copy, run the check, restore FILE. Sets $line, $out and $rc.
planted() {
  local file=$1 text=$2
  cp "$tmp/t/$file" "$tmp/saved"
  line=$(($(wc -l <"$tmp/t/$file") + 1))
  printf '%s\n' "$text" >>"$tmp/t/$file"
  out=$("$check" "$tmp/t" 2>&1)
  rc=$?
  cp "$tmp/saved" "$tmp/t/$file"
}
# file, planted text, banned name, its column, a word of the replacement the message names
refused() {
  local file=$1 text=$2 name=$3 col=$4 instead=$5
  planted "$file" "$text"
  local want="$file:$line:$col: $name() is banned: "
  if ((rc == 1)) && [[ $out == *"$want"*"use "*"$instead"* && $out == *"1 banned call"* ]]; then
    tap_ok "$name() in $file is refused at $line:$col"
  else
    tap_not_ok "$name() in $file is refused at $line:$col (rc $rc)"
    tap_diag "$out"
  fi
}
# file, planted text, what it is
passed() {
  local file=$1 text=$2 what=$3
  planted "$file" "$text"
  if ((rc == 0)); then tap_ok "$what passes"; else
    tap_not_ok "$what passes (rc $rc)"
    tap_diag "$out"
  fi
}
refused common/fileio.c 'static void f(char *d) { sprintf(d, "%d", 1); }' sprintf 26 snprintf
refused protocol/framing.c 'static void f(char *d, va_list a) { vsprintf(d, "x", a); }' vsprintf 37 vsnprintf
refused gpu/compile/occupancy.c 'static void f(char *d) { strcpy(d, "x"); }' strcpy 26 memcpy
refused models/http.c 'static void f(char *d) { strcat (d, "x"); }' strcat 26 upk_buf_puts
refused skills/skill.c 'static void f(char *d) { strncat(d, "x", 1); }' strncat 26 upk_buf_append
refused skills/eval/runs.c 'static void f(char *d) { strncpy(d, "x", 1); }' strncpy 26 memcpy
refused report/html.c 'static int f(const char *s) { return atoi(s); }' atoi 38 strtol
refused daemon/core/jobs.c 'static long f(const char *s) { return atol(s); }' atol 39 strtol
refused clients/upskillctl.c 'static double f(const char *s) { return atof(s); }' atof 41 strtod
refused daemon/server.c 'static char *f(char *s) { return strtok(s, ","); }' strtok 34 strtok_r
refused common/trust.c 'static void *f(const long *t) { return gmtime(t); }' gmtime 40 gmtime_r
refused common/log.c 'static void *f(const long *t) { return localtime(t); }' localtime 40 localtime_r
refused gpu/compile/compile.h 'static inline char *f(char *s) { return gets(s); }' gets 41 fgets
refused daemon/main.c 'static char *f(char *s) { return mktemp(s); }' mktemp 34 mkdtemp
passed common/fileio.c '/* sprintf(d, "x") and strcpy(d, s) are banned */' "a banned name in a comment"
passed common/fileio.c '// strcat(d, s)' "a banned name in a line comment"
passed common/fileio.c 'static const char *m = "atoi(s) \" strtok(s, x)";' "a banned name in a string"
passed common/fileio.c "static const char c = '('; static int atoi_like(void);" "a longer identifier"
passed common/fileio.c 'struct g { int (*gets)(void); }; static int f(struct g *p) { return p->gets() + (*p).gets(); }' \
  "a member called through -> and ."
# A function of N lines from its `{` to its `}`.
function_of() {
  local n=$1 i
  printf 'static int long_one(int x) {\n'
  for ((i = 3; i < n; i++)); do printf '  x += %d;\n' "$i"; done
  printf '  return x;\n}\n'
}
# Append a function of N lines to daemon/core/jobs.c in the copy, run the check with --long,
# restore the file. Sets $line (the function's `{`), $out and $rc.
planted_long() {
  local f=daemon/core/jobs.c
  cp "$tmp/t/$f" "$tmp/saved"
  line=$(($(wc -l <"$tmp/t/$f") + 1))
  function_of "$1" >>"$tmp/t/$f"
  out=$("$check" --long "$tmp/t" 2>&1)
  rc=$?
  cp "$tmp/saved" "$tmp/t/$f"
}
# --long fails on a function over 60 lines in daemon/ (LONG_ENFORCED), at its `{`; 60 pass.
planted_long 61
if ((rc == 1)) && [[ $out == *"daemon/core/jobs.c:$line: long_one() is 61 lines (at most 60)"* ]]; then
  tap_ok "a 61-line function in daemon/ fails --long"
else
  tap_not_ok "a 61-line function in daemon/ fails --long (rc $rc)"
  tap_diag "$out"
fi
planted_long 60
if ((rc == 0)) && [[ $out != *"long_one()"* ]]; then tap_ok "a 60-line function in daemon/ passes --long"; else
  tap_not_ok "a 60-line function in daemon/ passes --long (rc $rc)"
  tap_diag "$out"
fi
# The 60-line rule (--long): a function of 63 lines fails in a directory of LONG_ENFORCED and is
# only listed elsewhere; without --long it is not looked at.
if out=$("$check" --long "$src" 2>&1); then tap_ok "the enforced parts have no function over 60 lines"; else
  tap_not_ok "the enforced parts have no function over 60 lines"
  tap_diag "$out"
fi
body=$(printf 'static int planted_long(int x) {\n'; for i in $(seq 60); do printf '  x += %d;\n' "$i"; done
  printf '  return x;\n}')
# file, the exit status --long must give
long_fn() {
  local file=$1 want=$2
  cp "$tmp/t/$file" "$tmp/saved"
  line=$(($(wc -l <"$tmp/t/$file") + 1))
  printf '%s\n' "$body" >>"$tmp/t/$file"
  out=$("$check" --long "$tmp/t" 2>&1)
  rc=$?
  plain=$("$check" "$tmp/t" 2>&1)
  prc=$?
  cp "$tmp/saved" "$tmp/t/$file"
  local what="a 63-line function in $file $( ((want)) && echo fails || echo is only listed)"
  if ((rc == want && prc == 0)) && [[ $out == *"$file:$line: planted_long() is 63 lines (at most 60)"* ]]; then
    tap_ok "$what"
  else
    tap_not_ok "$what (rc $rc, without --long $prc)"
    tap_diag "$out"
  fi
}
long_fn daemon/core/jobs.c 1
long_fn gpu/compile/occupancy.c 1
long_fn clients/upskillctl.c 1
long_fn common/fileio.c 1
long_fn protocol/framing.c 1
long_fn models/http.c 1
long_fn report/html.c 1
long_fn skills/skill.c 1
# A check that reads nothing finds nothing: an empty tree (a wrong ROOT) is refused.
mkdir -p "$tmp/empty"
out=$("$check" "$tmp/empty" 2>&1)
rc=$?
if ((rc == 1)) && [[ $out == *"checksrc: 0 files"* ]]; then tap_ok "a root without sources is refused"; else
  tap_not_ok "a root without sources is refused (rc $rc)"
  tap_diag "$out"
fi
tap_finish
