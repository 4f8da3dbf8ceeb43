#!/usr/bin/env bash
# upskillctl check-kernel --against through the real daemon, without torch or a GPU (forced with
# UPSKILLD_LIBCUDA, so a GPU machine answers the same): the stand-in python3 (pyref_standin)
# hands over the tensors and the run stops at the device step; the real helper under the real
# python3 says the device is missing, then torch; a directory prints a row per problem and fast_0/1/2. TAP.
set -eu
ctl=${UPSKILLCTL:?set UPSKILLCTL}
standin=${PYREF_STANDIN:?set PYREF_STANDIN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UPSKILLD_LIBCUDA=/nonexistent/libcuda.so.1 XDG_CACHE_HOME="$tmp/cache"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"

mkdir -p "$tmp/p" "$tmp/k"
cat >"$tmp/k/twice.cu" <<'CU'
extern "C" __global__ void twice(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
CU
cat >"$tmp/k/twice.json" <<'SPEC'
{"run": {"kernel": "twice", "grid": 4, "block": 256, "args": [
  {"name": "x", "from": "input0"}, {"name": "y", "from": "output"},
  {"name": "n", "dtype": "i32", "value": 1024}]}}
SPEC
printf 'import torch\n' >"$tmp/p/twice.py"
printf '# standin: f16\n' >"$tmp/p/half.py"
cp "$tmp/k/twice.cu" "$tmp/k/half.cu"
sed 's/"from": "input0"}/"from": "input0", "dtype": "f32"}/' "$tmp/k/twice.json" >"$tmp/k/half.json"
printf 'import torch\n' >"$tmp/p/nokernel.py"

tap_plan 12
ctl_need_toolkit

export UPSKILLD_PYTHON=$standin
run check-kernel "$tmp/k/twice.cu" --against "$tmp/p/twice.py" --run "$tmp/k/twice.json"
tap_check "--against a problem: compiled, the tensors handed over, then no device" eval \
  'rc 1 && has "error: no CUDA device" o && has "^twice " o && has "did not run" o &&
   [ "$(grep -c ": error: " "$tmp/o")" = 1 ]'
run --json check-kernel "$tmp/k/twice.cu" --against "$tmp/p/twice.py" --run "$tmp/k/twice.json"
tap_check "--json: the run names the tensors of the reference" eval 'python3 -c "
import json; d=json.load(open(\"$tmp/o\"))[\"run\"][\"pytorch\"]
assert [t[\"from\"] for t in d[\"tensors\"]] == [\"input0\", \"output0\"], d
assert d[\"tensors\"][0][\"shape\"] == [1024] and d[\"problem\"].endswith(\"twice.py\"), d"'
# Issue 50: torch in the kernel file is refused by reading it (KernelBench's rule, the default
# with a PyTorch reference): the stand-in is never started, the device never asked.
{ printf '#define CHEAT(t) at::relu(t)\n'; cat "$tmp/k/twice.cu"; } >"$tmp/k/cheat.cu"
run check-kernel "$tmp/k/cheat.cu" --against "$tmp/p/twice.py" --run "$tmp/k/twice.json"
tap_check "--against: torch in the kernel is refused before the reference or the device" eval \
  'rc 1 && has "cheat.cu:1:18: error: .at. is a namespace of PyTorch.*\[run/forbidden-library\]" o &&
   has "did not run" o && ! has "no CUDA device" o'
sed 's/"args"/"forbid": [], "args"/' "$tmp/k/twice.json" >"$tmp/k/allow.json"
run check-kernel "$tmp/k/cheat.cu" --against "$tmp/p/twice.py" --run "$tmp/k/allow.json"
tap_check "run.forbid [] allows it: the run goes on to the device step" eval \
  'rc 1 && ! has "forbidden-library" o && has "error: no CUDA device" o'
run check-kernel "$tmp/k/twice.cu" --against "$tmp/p/twice.py"
tap_check "--against without --run: usage error naming what is missing" eval \
  'rc 2 && has "needs --run SPEC.json" e'
printf '{"run": {"grid": 1, "block": 1, "args": [{"from": "inputX"}, {"from": "output"}]}}' >"$tmp/bad.json"
run check-kernel "$tmp/k/twice.cu" --against "$tmp/p/twice.py" --run "$tmp/bad.json"
tap_check "a bad tensor name: the daemon refuses it, naming the field" eval \
  'rc 1 && has "run.args\[0\].from: .inputX. names no tensor" e'
run check-kernel --against "$tmp/p" "$tmp/k"
tap_check "--against DIR: a row per problem, each error its own, then fast_p" eval \
  'rc 1 && has "^PROBLEM  *VERDICT  *KERNEL MS  *EAGER MS  *SPEEDUP  *NOTE" o &&
   has "^half  *ERROR .*run/pytorch-mismatch: run.args\[0\] .x. (from input0): the run spec says f32, the PyTorch reference gives f16 \[1024\]" o &&
   has "^nokernel  *ERROR .*no kernel nokernel.cu" o && has "^twice  *ERROR .*run/no-device: no CUDA device" o &&
   has "^3 problems:  fast_0 0.00 (0/3)  fast_1 0.00 (0/3)  fast_2 0.00 (0/3)$" o'

export UPSKILLD_PYTHON=/nonexistent/python3
run check-kernel --against "$tmp/p" "$tmp/k"
tap_check "no python: each row says so" eval 'rc 1 && has "^twice  *ERROR .*run/no-python: cannot run ./nonexistent/python3." o'

sed 's|"args"|"reference": {"pytorch": {"path": "p/twice.py"}}, "args"|' "$tmp/k/twice.json" >"$tmp/rel.json"
(cd "$tmp" && UPSKILLD_PYTHON=$standin run check-kernel k/twice.cu --run rel.json)
tap_check "a relative problem path is the workspace's" eval 'rc 1 && has "\[run/no-device\]" o'
(cd "$tmp/k" && UPSKILLD_PYTHON=$standin run check-kernel twice.cu --run ../rel.json)
tap_check "... so from another workspace it is not found" eval \
  'rc 1 && has "cannot open $tmp/k/p/twice.py.*\[run/pytorch-failed\]" o'

unset UPSKILLD_PYTHON
run --server "${UPSKILLD:?set UPSKILLD} --lsp --python=/nonexistent/py3" check-kernel \
  "$tmp/k/twice.cu" --against "$tmp/p/twice.py" --run "$tmp/k/twice.json"
tap_check "the daemon's --python reaches the worker" eval \
  'rc 1 && has "cannot run ./nonexistent/py3." o && has "\[run/no-python\]" o'

if python3 -c 'import torch' 2>/dev/null || ! command -v python3 >/dev/null; then
  tap_skip "the real helper without torch" "python3 has torch (or no python3)"
else
  run check-kernel "$tmp/k/twice.cu" --against "$tmp/p/twice.py" --run "$tmp/k/twice.json"
  tap_check "the real helper without torch: the missing device first, then the missing torch" eval \
    'rc 1 && [ "$(grep -o "\[run/no-[a-z]*\]" "$tmp/o" | tr -d "\n")" = "[run/no-device][run/no-torch]" ] &&
     has "UPSKILLD_WORKER_COMMAND=.srun .*upskillctl check-kernel.* or --worker-command=.srun .* where an editor or agent starts its daemon; docs/gpu.md" o && has "torch is not installed for " o'
fi
tap_finish
