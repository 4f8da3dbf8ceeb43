#!/usr/bin/env bash
# upskillctl check-kernel through its real interface against the real daemon and NVRTC, on
# tests/kernel/corpus. Emits TAP; the compiling cases skip when the daemon sees no CUDA toolkit.
set -eu
ctl=${UPSKILLCTL:?set UPSKILLCTL}
daemon=${UPSKILLD:?set UPSKILLD}
corpus=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/kernel/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UPSKILLD=$daemon
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"
TAP_CAPTURE=$tmp/check

tap_plan 25
ctl_need_toolkit

# Usage errors need no toolkit (TAP_SKIP= runs them regardless).
run check-kernel
TAP_SKIP= tap_check "no file: usage error, status 2" eval 'rc 2 && has "expected one FILE.cu" e'
run check-kernel "$corpus/saxpy.cu" --block 0
TAP_SKIP= tap_check "--block 0: usage error, status 2" eval 'rc 2 && has "\-\-block takes .*1 to 1024" e'
run check-kernel "$tmp/missing.cu"
TAP_SKIP= tap_check "a missing file: status 2, and why" eval 'rc 2 && has "cannot open .*missing.cu: No such file or directory" e'
run check-kernel "$corpus/saxpy.cu" -I "$tmp/nodir"
TAP_SKIP= tap_check "-I of a missing directory: status 2, and why" eval 'rc 2 && has "\-I .*nodir: No such file or directory" e'

[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/saxpy.cu"
tap_check "saxpy: status 0, a table row, no errors" eval 'rc 0 && has "^KERNEL  *REGS  *SPILL ST/LD  *STACK  *SMEM  *CMEM  *OCCUPANCY" o &&
  has "^saxpy  *[0-9][0-9]*  *0/0  *0  *0  *[0-9][0-9]*  *[0-9]*% (.*) at block" o && has "^0 errors, 0 warnings$" o'
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/saxpy.cu" --block 128 --arch sm_90
tap_check "--block and --arch reach the daemon" eval 'rc 0 && has "^sm_90, nvrtc" o && has "at block 128" o'
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/err_syntax.cu"
tap_check "syntax error: gcc-style line, status 1" \
  eval "rc 1 && has '^$corpus/err_syntax.cu:6:3: error: expected a \";\"' o && has '^1 error' o"
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/err_undefined.cu"
tap_check "undefined identifier on line 5" \
  eval "rc 1 && has '^$corpus/err_undefined.cu:5:[0-9]*: error: identifier \"undefined_scale\" is undefined' o"
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/err_smem64k.cu" --arch sm_90
tap_check "64 KB of static shared memory on sm_90: an error, status 1" eval 'rc 1 && has ": error: " o'
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/spill.cu"
tap_check "spills show in the table" eval 'rc 0 && has "^spill_heavy  *32  *[1-9][0-9]*/[1-9][0-9]* " o'
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/scale_template.cu" --name 'scale<float>' --name 'scale<double>'
tap_check "--name instantiates templates" eval 'rc 0 && has "^scale<float> " o && has "^scale<double> " o'
[ -z "$TAP_SKIP" ] && run --json check-kernel "$corpus/saxpy.cu"
tap_check "--json before the verb: the raw result" eval 'rc 0 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert d[\"ok\"] is True and d[\"backend\"] == \"nvrtc\" and d[\"kernels\"][0][\"name\"] == \"saxpy\", d"'
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/err_syntax.cu" --json
tap_check "--json after the verb, errors still exit 1" eval 'rc 1 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert d[\"ok\"] is False and d[\"diagnostics\"][0][\"severity\"] == 1, d"'
mkdir -p "$tmp/inc" "$tmp/cus"
printf '#define SCALE 2.0f\n' >"$tmp/inc/myhdr.h"
printf '#include "myhdr.h"\n#ifndef FACTOR\n#error FACTOR is not defined\n#endif\n__global__ void k(float *x) { x[threadIdx.x] *= SCALE * FACTOR; }\n' >"$tmp/kern.cu"
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/kern.cu"
tap_check "without -I the header is not found, and the fix is -I DIR" \
  eval 'rc 1 && has "cannot open source file \"myhdr.h\" (add the directory that holds it with -I DIR)" o'
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/kern.cu" -I "$tmp/inc" --define FACTOR=3
tap_check "-I DIR and -D NAME=V reach kernel/validate" eval 'rc 0 && has "^k  *[0-9]" o && has "^0 errors" o'
# What the person types is the user's: a header directory outside the file's and the current
# one (its name a glob: unescaped it would not match itself), and --python, reach the daemon as its own arguments.
mkdir -p "$tmp/proj" "$tmp/common [1]*"
printf '#define SCALE 2.0f\n' >"$tmp/common [1]*/gain.h"
printf '#include "gain.h"\n__global__ void g(float *x) { x[threadIdx.x] *= SCALE; }\n' >"$tmp/proj/gain.cu"
[ -z "$TAP_SKIP" ] && (cd "$tmp/proj" && run check-kernel gain.cu -I "../common [1]*" --python /bin/false)
tap_check "-I DIR outside the project, typed by the user: compiled, not refused" \
  eval 'rc 0 && has "^g  *[0-9]" o && ! has refused o e'
printf '__global__ void a(float *x) { x[0] = 1; }\n' >"$tmp/cus/a.cu"
printf '__global__ void b(float *x) { x[0] = 1 }\n' >"$tmp/cus/b.cu"
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/cus"
tap_check "a directory of .cu files without build.toml: each file checked" eval 'rc 1 && has "^== .*cus/a.cu$" o && has "^== .*cus/b.cu$" o &&
  has "cus/b.cu:1:[0-9]*: error: expected a \";\"" o && has "^2 files checked, 1 with errors$" o && ! has build.toml o e &&
  has "^a.cu  *ok$" o && has "^b.cu  *errors$" o'
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/cus" --json
tap_check "... and with --json, one array" eval 'rc 1 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert [x[\"result\"][\"ok\"] for x in d] == [True, False], d"'
# check-kernel DIR walks the tree: subdirectories, not build output, .git, .gitignore'd files or
# links (a loop is not followed); a tree with no .cu says so; the walk is bounded.
mkdir -p "$tmp/repo/src/deep" "$tmp/repo/build" "$tmp/repo/gen" "$tmp/repo/.git" "$tmp/nocu/docs"
cp "$tmp/cus/a.cu" "$tmp/repo/src/deep/a.cu"
cp "$tmp/cus/a.cu" "$tmp/repo/build/out.cu"
cp "$tmp/cus/b.cu" "$tmp/repo/gen/made.cu"
cp "$tmp/cus/b.cu" "$tmp/repo/.git/hook.cu"
echo 'gen/' >"$tmp/repo/.gitignore"
ln -s .. "$tmp/repo/src/loop"
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/repo"
tap_check "a repository: .cu files in subdirectories, one row each, what was skipped said" eval 'rc 0 &&
  has "^== .*repo/src/deep/a.cu$" o && has "^src/deep/a.cu  *ok$" o && has "^1 file checked, 0 with errors$" o &&
  has "^skipped: 1 build output directory, 1 .cu file .gitignore ignores, 1 link not followed$" o && ! has "out.cu\|made.cu\|hook.cu" o'
# The same tree as a git work tree whose config names an fsmonitor hook: git check-ignore
# decides what is ignored, and the hook never runs.
rm -rf "$tmp/repo/.git" && git -C "$tmp/repo" init -q && git -C "$tmp/repo" config core.fsmonitor "touch $tmp/pwned"
printf '/src/deep/skip.cu\n' >>"$tmp/repo/.gitignore" && cp "$tmp/cus/b.cu" "$tmp/repo/src/deep/skip.cu"
[ -z "$TAP_SKIP" ] && run check-kernel "$tmp/repo"
tap_check "a git work tree: .gitignore as git reads it (anchored paths too), no hook run" eval 'rc 0 &&
  has "^src/deep/a.cu  *ok$" o && ! has "skip.cu\|made.cu" o && has "2 .cu files .gitignore ignores" o && [ ! -e "$tmp/pwned" ]'
echo '# no kernels' >"$tmp/nocu/docs/README.md"
ln -s "$tmp/nocu" "$tmp/nocu/docs/loop"
run check-kernel "$tmp/nocu"
TAP_SKIP= tap_check "a tree with no .cu (and a link loop): says so, status 2" eval 'rc 2 &&
  has "nocu has no build.toml and no .cu file in its tree (3 entries looked at): nothing to check" e && has "1 link not followed" o'
mkdir -p "$tmp/big/d"
(cd "$tmp/big/d" && seq 1 10050 | xargs touch)
run check-kernel "$tmp/big"
TAP_SKIP= tap_check "10,050 files: stops at 10,000 entries and says so" eval 'rc 2 && has "stopped after 10000 entries" e'
rm -rf "$tmp/big"
if [ "$(id -u)" = 0 ]; then
  TAP_SKIP="root reads every directory" tap_check "an unreadable directory is reported" true
else
  mkdir -p "$tmp/shut/locked" && cp "$tmp/cus/a.cu" "$tmp/shut/" && chmod 000 "$tmp/shut/locked"
  [ -z "$TAP_SKIP" ] && run check-kernel "$tmp/shut"
  tap_check "an unreadable directory is reported, the rest checked, status 1" eval 'rc 1 && has "cannot read locked: Permission denied" e && has "^a.cu  *ok$" o'
  chmod 755 "$tmp/shut/locked"
fi
printf '{bad' >"$tmp/bad.json"
run check-kernel "$corpus/saxpy.cu" --run "$tmp/bad.json"
TAP_SKIP= tap_check "--run with a bad spec file: status 2, where it broke" eval 'rc 2 && has "bad.json:1:" e'
cat >"$tmp/spec.json" <<'SPEC'
{"run": {"kernel": "saxpy", "grid": [4], "block": [256], "args": [
  {"name": "n", "dtype": "i32", "value": 1024}, {"name": "a", "dtype": "f32", "value": 2},
  {"name": "x", "dtype": "f32", "count": 1024, "role": "in"},
  {"name": "y", "dtype": "f32", "count": 1024, "role": "inout"}]}}
SPEC
[ -z "$TAP_SKIP" ] && run check-kernel "$corpus/saxpy.cu" --run "$tmp/spec.json"
if python3 -c "import ctypes; ctypes.CDLL('libcuda.so.1')" 2>/dev/null; then
  tap_check "--run on a GPU: a PASS verdict and a timing table" eval 'rc 0 && has "^run on .*: PASS" o && has "^  kernel  *[0-9]" o'
else
  tap_check "--run without a driver: compiled, not run, one clear diagnostic" \
    eval 'rc 1 && has "error: no CUDA device" o && has "did not run" o && has "^saxpy " o'
fi
tap_finish
