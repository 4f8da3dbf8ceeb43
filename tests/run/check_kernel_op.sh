#!/usr/bin/env bash
# A torch op of a kernel-builder project as the reference, through upskillctl and the real daemon
# (torch stood in for by pyref_standin, the driver forced away so a GPU machine answers the same):
# the daemon's loop refuses a malformed op spec naming the field; the worker reads the op's schema
# from torch-ext/torch_binding.cpp, finds the project above the kernel (or a relative project
# against the workspace), and reports an unknown op or a missing argument as one diagnostic
# while the compile half still answers. TAP.
set -eu
ctl=${UPSKILLCTL:?set UPSKILLCTL}
standin=${PYREF_STANDIN:?set PYREF_STANDIN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UPSKILLD_LIBCUDA=/nonexistent/libcuda.so.1 XDG_CACHE_HOME="$tmp/cache" UPSKILLD_PYTHON=$standin
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"

p=$tmp/proj
mkdir -p "$p/torch-ext" "$p/csrc" "$tmp/k"
cat >"$p/build.toml" <<'TOML'
[general]
name = "twice-ops"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.twice]
backend = "cuda"
src = ["csrc/twice.cu"]
TOML
cat >"$p/torch-ext/torch_binding.cpp" <<'CPP'
#include "registration.h"

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("twice(Tensor! out, Tensor x) -> ()");
}
CPP
cat >"$p/csrc/twice.cu" <<'CU'
extern "C" __global__ void twice(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
CU
cp "$p/csrc/twice.cu" "$tmp/k/twice.cu"
spec() { # spec FILE PYTORCH-OBJECT
  cat >"$1" <<JSON
{"run": {"kernel": "twice", "grid": 4, "block": 256, "args": [
  {"name": "x", "from": "input0"}, {"name": "y", "from": "output"},
  {"name": "n", "dtype": "i32", "value": 1024}],
  "reference": {"pytorch": $2}}}
JSON
}
args='"args": {"out": {"dtype": "f32", "shape": [1024]}, "x": {"dtype": "f32", "shape": [1024]}}'
spec "$tmp/ok.json" "{\"op\": \"twice\", $args}"
spec "$tmp/rel.json" "{\"op\": \"twice\", \"project\": \"proj\", $args}"
spec "$tmp/unknown.json" "{\"op\": \"thrice\"}"
spec "$tmp/missing.json" '{"op": "twice", "args": {"out": {"dtype": "f32", "shape": [1024]}}}'
spec "$tmp/form.json" '{"op": "twice", "args": {"x": {"shape": [1024]}}}'

tap_plan 6
ctl_need_toolkit

run --json check-kernel "$p/csrc/twice.cu" --run "$tmp/ok.json"
tap_check "the op above the kernel: schema read, tensors handed over, then no device" eval 'python3 -c "
import json; r=json.load(open(\"$tmp/o\"))
d=r[\"run\"][\"pytorch\"]; codes=[x[\"code\"] for x in r[\"diagnostics\"] if x[\"severity\"]==1]
assert codes == [\"run/no-device\"], codes
assert d[\"op\"] == \"twice\" and d[\"schema\"] == \"twice(Tensor! out, Tensor x) -> ()\", d
assert [t[\"from\"] for t in d[\"tensors\"]] == [\"input0\", \"output0\"], d"'
run check-kernel "$p/csrc/twice.cu" --run "$tmp/form.json"
tap_check "a malformed op argument: the daemon refuses it, naming the field" eval \
  'rc 1 && has "run.reference.pytorch.args.x: dtype is required" e'
run check-kernel "$p/csrc/twice.cu" --run "$tmp/unknown.json"
tap_check "an unknown op: one diagnostic listing the declared ones, the compile half printed" eval \
  'rc 1 && has "op .thrice. is not declared in .*it declares: twice \[run/pytorch-op-unknown\]" o &&
   has "^twice " o && [ "$(grep -c ": error: " "$tmp/o")" = 1 ]'
run check-kernel "$p/csrc/twice.cu" --run "$tmp/missing.json"
tap_check "a schema argument the spec lacks is named with the schema" eval \
  'rc 1 && has "argument .x. (Tensor): needs {\"dtype\", \"shape\"}.*\[run/pytorch-op-args\]" o'
run check-kernel "$tmp/k/twice.cu" --run "$tmp/ok.json"
tap_check "a kernel outside any project: run.reference.pytorch.project is asked for" eval \
  'rc 1 && has "no kernel-builder project (build.toml) above $tmp/k/twice.cu.*\[run/pytorch-op-project\]" o'
(cd "$tmp" && run check-kernel k/twice.cu --run rel.json)
tap_check "a relative project is the workspace's" eval 'rc 1 && has "\[run/no-device\]" o'
tap_finish
