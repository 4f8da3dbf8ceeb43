#!/usr/bin/env bash
# The GPU proof rehearsed without a GPU, end to end: scripts/gpu-pack.sh packs this build's
# programs (no mutant build, no archive), the pack's gpu-run.sh runs from a folder of its own with
# $OUT set as the device tool sets it, and must: say NO GPU first and last, run every step within
# its share of the budget, pass what needs no GPU, and leave junit.xml (well-formed, one
# suite per step or program, the GPU cases skipped with their reason) and proof.json (no device,
# not complete, each step's seconds) under $OUT/gpu-proof. With no time left (PROOF_BUDGET=0) every
# step is cut, named in junit.xml as an error, and the exit status is 3. Skips where this machine
# has a GPU (there the real run is the test: scripts/gpu-run.sh).
set -u
root=${UPK_SOURCE_ROOT:?}
build=$(cd "$(dirname "${UPSKILLD:?}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  echo "1..0 # SKIP a CUDA driver is here: run the proof itself (scripts/gpu-pack.sh, gpu-run.sh)"
  exit 0
fi
n=0
check() { # check DESCRIPTION COMMAND...
  local d=$1
  shift
  n=$((n + 1))
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok $n - $d"; else
    echo "not ok $n - $d"
    sed 's/^/# /' "$tmp/check.out" | head -20
  fi
}
PACK_PREBUILT=1 MUTANT_BUILD=none NO_TARBALL=1 "$root/scripts/gpu-pack.sh" "$build" "$tmp/pack" \
  >"$tmp/pack.log" 2>&1
check "gpu-pack.sh packs this build" test -x "$tmp/pack/gpu-run.sh" -a -f "$tmp/pack/MANIFEST"
[[ -x $tmp/pack/gpu-run.sh ]] || { sed 's/^/# /' "$tmp/pack.log"; echo "1..$n"; exit 1; }

mkdir -p "$tmp/out" "$tmp/elsewhere"
# The sanitizers' settings of this test run go along (a sanitized build packs sanitized programs).
san=()
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS MSAN_OPTIONS; do [[ -n ${!v:-} ]] && san+=("$v=${!v}"); done
# From elsewhere, with little in the environment: the device machine has no build tree.
# Shares for this build and machine: a sanitized build on a busy 2-core CI machine runs the no-GPU
# tests several times slower than the release pack on the GPU machine (the default 420 s budget is
# the device's). The budget logic is the same; PROOF_BUDGET=0 below checks the cut.
budgets=(PROOF_BUDGET=1500 BUDGET_NOTGPU=300 BUDGET_SUITE=300 BUDGET_MUTANTS=120 BUDGET_E2E=120
  BUDGET_BENCH=300 BUDGET_PYTORCH=120)
(cd "$tmp/elsewhere" && env -i "${san[@]}" "${budgets[@]}" PATH=/usr/bin:/bin HOME="$tmp/elsewhere" \
  OUT="$tmp/out" CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}" "$tmp/pack/gpu-run.sh") >"$tmp/run.log" 2>&1
rc=$?
res=$tmp/out/gpu-proof
check "gpu-run.sh exits 0 without a GPU (exit $rc)" test "$rc" = 0
check "it names its sandbox, and the pack carries bubblewrap where this machine has it" sh -c \
  "grep -q '^gpu-run: sandbox: ' '$tmp/run.log' && { test ! -x /usr/bin/bwrap || test -x '$tmp/pack/sys/bwrap'; }"
check "it says NO GPU first and last" sh -c "head -1 '$tmp/run.log' | grep -q 'NO GPU' &&
  tail -3 '$tmp/run.log' | grep -q 'NO GPU'"
check "junit.xml, proof.json and figures.json under \$OUT/gpu-proof" \
  test -s "$res/junit.xml" -a -s "$res/proof.json" -a -s "$res/figures.json"
check "proof.json: no device, not complete, six steps run, each within its share of the budget" python3 - "$res" <<'PY'
import json, sys
p = json.load(open(sys.argv[1] + "/proof.json"))
assert p["device"] is None and p["noDevice"] and p["complete"] is False, p
assert [s["step"] for s in p["steps"]] == ["notgpu", "suite", "mutants", "e2e", "bench", "pytorch"], p["steps"]
assert all(s["state"] == "ran" and s["seconds"] <= s["budgetS"] for s in p["steps"]), p["steps"]
assert sum(s["budgetS"] for s in p["steps"]) <= 1500 and p["budgetS"] == 1500, p
assert p["totals"]["failed"] == 0 and p["totals"]["passed"] > 0 and p["totals"]["skipped"] > 0, p["totals"]
assert p["figures"]["device"] is None and "nothing was measured" in p["figures"]["skipped"], p["figures"]
PY
check "junit.xml: a suite per program and step, the GPU cases skipped with why, no failure" python3 - "$res" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/junit.xml").getroot()
suites = {s.get("name"): s for s in root.iter("testsuite")}
need = {"test_gpu_run", "test_gpu_hacks", "test_gpu_daemon", "test_kernelbench", "test_torchop_gpu",
        "test_kgen", "mutants", "e2e", "bench", "pytorch"}
assert need <= set(suites), sorted(set(need) - set(suites))
assert not list(root.iter("failure")) and not list(root.iter("error"))
skipped = [c for c in suites["test_gpu_run"].iter("testcase") if c.find("skipped") is not None]
assert skipped and all("no CUDA device" in c.find("skipped").get("message") for c in skipped)
PY

(cd "$tmp/elsewhere" && env -i "${san[@]}" PATH=/usr/bin:/bin HOME="$tmp/elsewhere" OUT="$tmp/out0" PROOF_BUDGET=0 \
  "$tmp/pack/gpu-run.sh") >"$tmp/run0.log" 2>&1
rc=$?
check "no time left: every step cut, exit status 3 (was $rc)" sh -c "test $rc = 3 &&
  test \$(grep -c ': CUT, ' '$tmp/run0.log') = 6"
check "the cut steps are errors in junit.xml" python3 - "$tmp/out0/gpu-proof" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/junit.xml").getroot()
errors = [c.get("name") for c in root.iter("testcase") if c.find("error") is not None]
assert errors == ["step notgpu", "step suite", "step mutants", "step e2e", "step bench", "step pytorch"], errors
PY
# bench/pytorch with its step's end already here (UNTIL): every problem named as cut, none
# started (upskillctl is `false`: a started problem would read "no answer"), exit status 0.
UNTIL=$EPOCHSECONDS UPSKILLCTL=false UPK_SOURCE_ROOT=$tmp/pack/src "$tmp/pack/bench/pytorch/run.sh" \
  >"$tmp/pytorch.log" 2>&1
rc=$?
check "bench/pytorch at its deadline: each problem cut and named, none started, exit 0 (was $rc)" \
  sh -c "test $rc = 0 && test \$(grep -c '^ok - .* # SKIP cut: ' '$tmp/pytorch.log') = \
    \$(ls '$tmp/pack/src/tests/gpu/kernelbench/problems/'*.py | wc -l) &&
    ! grep -q 'no answer' '$tmp/pytorch.log' && grep -q 'cut for time' '$tmp/pytorch.log'"
echo "1..$n"
