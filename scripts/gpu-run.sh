#!/usr/bin/env bash
# Run on the GPU machine, from the folder scripts/gpu-pack.sh made (it is copied in as
# gpu-pack/gpu-run.sh): the no-GPU run tests, the GPU suite (tests/gpu: upk_kernel_run_json and
# the daemon), an end-to-end session through upskillctl and the daemon, and bench/gpu. Only the
# pack's lib/ is added (LD_LIBRARY_PATH); the CUDA toolkit is $CUDA_PATH or /usr/local/cuda.
# Where there is no GPU it says so first and last, runs what needs none (the run tests, the
# compile-only checks, the bench's request checks) and skips the rest; nothing is simulated.
# The whole run has PROOF_BUDGET seconds (default 420: the device is lent by the minute); each step
# has a share of it, and a step the time left cannot hold is cut (named, never silently), not the
# run. Results go to $OUT_DIR (default $OUT/gpu-proof where the device tool's $OUT is set, else
# results-<time>/ in the pack): each step's TAP and logs, junit.xml (every case, skips and cuts
# included), figures.json (bench/gpu's rows and the device) and proof.json (device, commit, each
# step's budget and seconds, counts), written by proof_report.py.
# Exit status: 0 nothing failed, 1 a failure, 3 nothing failed but a step was cut.
set -uo pipefail
pack=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT_DIR:-${OUT:+$OUT/gpu-proof}}
out=${out:-$pack/results-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out/steps"
budget=${PROOF_BUDGET:-420}
deadline=$((SECONDS + budget))
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export UPSKILLD=$pack/bin/upskilld UPSKILLCTL=$pack/bin/upskillctl
export UPSKILLD_WORKER=$pack/bin/upskilld-worker
export UPSKILLD_PYREF_HELPER=$pack/share/upskilld-pyref.py UPK_SOURCE_ROOT=$pack/src
export CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
export UPSKILLD_WORKER_SERVER_IDLE=0 # each daemon its own workers: nothing outlives this script
tmp=$(mktemp -d)
export XDG_CACHE_HOME=$tmp/cache HOME=$tmp/home
mkdir -p "$XDG_CACHE_HOME" "$HOME"
failed=0

say() { printf '\n== %s\n' "$*"; }

# step NAME SECONDS FUNCTION: FUNCTION with at most SECONDS (less if less is left of the budget);
# its output also in steps/NAME.log, its budget and time in steps.tsv. Under 10 s left: cut.
step_end=0
step_left() { local l=$((step_end - SECONDS)); echo $((l > 1 ? l : 1)); }
cut=0
step() {
  local name=$1 want=$2 fn=$3 left=$((deadline - SECONDS)) t0=$SECONDS
  if ((left < 10)); then
    say "$name: CUT, ${left} s of the ${budget} s budget left (PROOF_BUDGET=SECONDS to give more)"
    printf '%s\t%s\t0\tcut\n' "$name" "$want" >>"$out/steps.tsv"
    cut=1
    return
  fi
  ((want > left)) && want=$left
  step_end=$((SECONDS + want))
  local before=$failed
  "$fn" 2>&1 | tee "$out/steps/$name.log"
  [[ -f $out/failed ]] && failed=1 && rm -f "$out/failed"
  printf '%s\t%s\t%s\t%s\n' "$name" "$want" $((SECONDS - t0)) \
    "$([[ $failed != "$before" ]] && echo failed || echo ran)" >>"$out/steps.tsv"
}

# glibc: the pack carries none of it.
need=$(sed -n 's/^glibc //p' "$pack/MANIFEST" 2>/dev/null)
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [[ -n $need && -n $have ]] && [[ $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1) != "$need" ]]; then
  echo "gpu-run: this machine has glibc $have; the pack needs $need (build it on an older system)"
  exit 1
fi

gpu=$(python3 - <<'EOF' 2>&1
import ctypes
try:
    cu = ctypes.CDLL("libcuda.so.1")
except OSError as e:
    print(f"none: no NVIDIA driver: {e}")
else:
    n, name = ctypes.c_int(0), ctypes.create_string_buffer(256)
    if cu.cuInit(0) != 0 or cu.cuDeviceGetCount(ctypes.byref(n)) != 0 or n.value == 0:
        print("none: the driver loads but reports no usable device")
    else:
        cu.cuDeviceGetName(name, 256, 0)
        print(name.value.decode())
EOF
)
if [[ $gpu == none:* ]]; then
  banner="NO GPU on this machine (${gpu#none: }): the GPU cases and measurements are SKIPPED"
  has_gpu=0
else
  banner="GPU: $gpu"
  has_gpu=1
fi
echo "gpu-run: $banner"
echo "gpu-run: pack $(head -1 "$pack/MANIFEST" 2>/dev/null), toolkit $CUDA_PATH, logs in $out"
[[ -f $CUDA_PATH/include/nvrtc.h ]] || echo "gpu-run: no CUDA toolkit at $CUDA_PATH (set CUDA_PATH)"
# Every library the programs need must resolve: from lib/ here, or glibc and libstdc++ there.
unresolved=$(for f in "$pack"/bin/* "$pack"/tests/*; do ldd "$f" 2>&1 | grep 'not found'; done | sort -u)
if [[ -n $unresolved ]]; then
  echo "gpu-run: libraries not found (the pack is incomplete for this machine):"
  echo "$unresolved" | sed 's/^/    /'
  exit 1
fi

# The sandbox nvcc needs for options a request wrote (docs/security.md, "Sandbox"): a bare GPU
# machine has no bubblewrap, so the stream adversary's -rdc=true could only be refused there.
# With a GPU, none installed and root, the pack's bwrap (Debian's, sys/) goes to /usr/local/bin for
# this run, with any library of sys/lib the machine lacks in /usr/local/lib; kept only when the
# daemon's own probe (`upskillctl status`) finds a sandbox, removed at exit.
installed=()
trap 'rm -rf "$tmp"; ((${#installed[@]})) && rm -f "${installed[@]}" && ldconfig' EXIT
# "yes|no<TAB>what": the daemon's sandbox line.
sandbox_status() {
  "$UPSKILLCTL" status --json </dev/null 2>&1 | python3 -c '
import json, sys
text = sys.stdin.read()
try:
    box = json.loads(text)["sandbox"]
    print(("yes" if box["available"] else "no") + "\t" + box["what"])
except (ValueError, KeyError, TypeError):
    print("no\tupskillctl status gave no answer: " + " ".join(text.split())[:300])'
}
sandbox_setup() {
  if [[ $has_gpu == 1 && $(id -u) == 0 && -x $pack/sys/bwrap && ! -x /usr/bin/bwrap &&
    ! -x /usr/local/bin/bwrap && ! -x /bin/bwrap ]]; then
    install -m 755 "$pack/sys/bwrap" /usr/local/bin/bwrap && installed+=(/usr/local/bin/bwrap)
    local lib
    for lib in "$pack"/sys/lib/*; do
      ldconfig -p | grep -q "/$(basename "$lib")\$" && continue
      install -m 644 "$lib" /usr/local/lib/ && installed+=("/usr/local/lib/$(basename "$lib")")
    done
    ldconfig
  fi
  local status
  status=$(sandbox_status)
  if [[ $status != yes* ]] && ((${#installed[@]})); then
    rm -f "${installed[@]}" && ldconfig
    installed=()
    status+=" (the pack's bubblewrap, installed for the run, was removed again)"
  fi
  echo "gpu-run: sandbox: ${status#*$'\t'}"
}
sandbox_setup

# A TAP program: its log, its totals; a failure is any 'not ok' or a bad exit status.
tap() {
  tap_start "$@"
  tap_report "$1"
}
# Started in the background (tap_report reads what it left): TEST_JOBS programs at a time.
tap_start() {
  local name=$1
  shift
  # A program that hangs is killed at its step's end so the rest still runs and reports.
  timeout -k 5 "$(step_left)" "$@" >"$out/$name.tap" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}
tap_many() {
  local jobs=${TEST_JOBS:-1} name
  for name in "$@"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
    tap_start "$name" "$pack/tests/$name" --tap=- -j1 &
  done
  wait
  for name in "$@"; do tap_report "$name"; done
}
tap_report() {
  local name=$1
  local rc ok nok skip
  rc=$(cat "$out/$name.rc")
  ok=$(grep -c '^ok ' "$out/$name.tap")
  nok=$(grep -c '^not ok ' "$out/$name.tap")
  skip=$(grep -c '^ok .*# SKIP' "$out/$name.tap")
  printf '%-22s %3d passed, %3d skipped, %3d failed%s\n' "$name" $((ok - skip)) "$skip" "$nok" \
    "$([[ $rc != 0 ]] && echo " (exit status $rc)")"
  grep '^not ok ' "$out/$name.tap" | sed 's/^/    /'
  [[ $nok == 0 && $rc == 0 ]] || fail
}

# A failure inside a step (which runs in a pipe to tee, so in a subshell) is told by a file.
fail() { : >"$out/failed"; }

notgpu() {
  say "run tests that need no GPU (generator, checks, specs; NVRTC compiles)"
  TEST_JOBS=${TEST_JOBS:-4} tap_many test_kgen test_krun_mem test_runcheck test_runspec test_krun
}

suite() {
  say "GPU suite (tests/gpu; compile-only cases run everywhere)"
  # Six at once (runs 2 and 3 on an H100 went green so): the budget has no room for one by one.
  TEST_JOBS=${TEST_JOBS:-6} tap_many test_gpu_run test_gpu_daemon test_gpu_hacks test_kernelbench test_torchop_gpu
}

# Each check turned off in a test build (mutant/, meson -Dgpu_mutants=true): the tests that
# name it must go red, or they prove nothing. "mutant: tests" per line.
MUTANTS='timed-hash: hacks/result_cached_across_calls hacks/launch_counting hacks/writing_into_an_input_while_timed hacks/returning_before_the_work_is_done
poison: gpu/unwritten_output_is_caught kernelbench/result_reuse_is_an_unwritten_output
input-hash: gpu/input_writing_is_caught hacks/output_aliasing_an_input
guard: gpu/write_past_the_end_is_caught_without_a_sanitizer
fresh-inputs: gpu/memoising_kernel_is_caught_on_the_next_trial
value-vary: hacks/skipping_an_init_value_input
odd-sizes: hacks/partial_computation_passing_one_shape
tolerance: hacks/precision_lowered_past_the_tolerance
constant-output: gpu/constant_output_passing_tolerance_is_caught
rotation: gpu/sixty_four_mi_elements_get_a_verdict'
program_of() {
  case ${1%%/*} in
  hacks) echo test_gpu_hacks ;; gpu) echo test_gpu_run ;; kernelbench) echo test_kernelbench ;;
  esac
}
# One mutant and one test: red is what it must be.
seen_failing() {
  local mutant=$1 t=$2 prog log line
  prog=$(program_of "$t")
  log=$out/mutant-$mutant-${t//\//-}.tap
  UPK_GPU_MUTANT=$mutant UPSKILLD_WORKER=$pack/mutant/bin/upskilld-worker \
    timeout -k 5 "$(step_left)" "$pack/mutant/tests/$prog" --tap=- -j1 --filter "$t" >"$log" 2>&1
  # Criterion lists the tests the filter left out as skipped: only t's own line counts.
  line=$(grep -E "^(not )?ok - ${t/\//::} " "$log")
  if [[ $line == "not ok"* ]]; then
    echo "ok - $t goes red with $mutant off"
  elif [[ -z $line || $line == *"# SKIP"* ]]; then
    echo "not ok - $t did not run with $mutant off (see $log)"
  else
    echo "not ok - $t STAYS GREEN with $mutant off: it does not test it"
  fi
}
mutants() {
  say "seen failing: each run check off (UPK_GPU_MUTANT), its tests must fail"
  if [[ $has_gpu == 1 && -d $pack/mutant ]]; then
    while read -r mutant tests; do
      for t in $tests; do
        while (($(jobs -rp | wc -l) >= ${TEST_JOBS:-4})); do wait -n; done
        seen_failing "${mutant%:}" "$t" >"$out/seen-${mutant%:}-${t//\//-}.txt" &
      done
    done <<<"$MUTANTS"
    wait
    cat "$out"/seen-*.txt | tee "$out/mutants.tap"
    grep -q '^not ok' "$out/mutants.tap" && fail
  else
    echo "ok - mutants # SKIP $([[ $has_gpu == 1 ]] && echo 'no mutant/ in this pack' || echo 'no GPU')" |
      tee "$out/mutants.tap"
  fi
}

e2e() {
  say "end-to-end session: upskillctl -> upskilld -> worker"
  local e2e=$pack/bench/gpu/e2e
  {
    timeout -k 5 "$(step_left)" "$UPSKILLCTL" check-kernel "$e2e/softmax.cu" >"$out/e2e-compile.txt" 2>&1
    if grep -q '^softmax_rows ' "$out/e2e-compile.txt"; then
      echo "ok - check-kernel lists softmax_rows (compile only)"
    else
      echo "not ok - check-kernel softmax.cu: $(head -5 "$out/e2e-compile.txt")"
    fi
    if [[ $has_gpu == 1 ]]; then
      timeout -k 5 "$(step_left)" "$UPSKILLCTL" --json check-kernel "$e2e/softmax.cu" --run "$e2e/softmax.json" \
        >"$out/e2e-run.json" 2>"$out/e2e-run.err"
      if python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r['run']['ok'] else 1)" "$out/e2e-run.json"; then
        echo "ok - softmax_rows runs, matches the naive reference and is timed: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['run']; print(r['timeMs']['median'], 'ms on', r['device']['name'])" "$out/e2e-run.json")"
        # What a person sees: the verdict, the timing and the distance to the limits.
        timeout -k 5 "$(step_left)" "$UPSKILLCTL" check-kernel "$e2e/softmax.cu" --run "$e2e/softmax.json" \
          >"$out/e2e-run.txt" 2>&1
      else
        echo "not ok - the softmax run: see $out/e2e-run.json"
      fi
    else
      echo "ok - the softmax run # SKIP no GPU"
    fi
  } | tee "$out/e2e.tap"
  grep -q '^not ok' "$out/e2e.tap" && fail
  [[ -f $out/e2e-run.txt ]] && sed 's/^/    /' "$out/e2e-run.txt"
  return 0
}

bench() {
  say "bench/gpu"
  FIGURES_JSON=$out/figures.json MUTANT_BIN=$pack/mutant/bin timeout -k 5 "$(step_left)" \
    python3 "$pack/bench/gpu/bench.py" 2>&1 | tee "$out/bench.txt"
  [[ ${PIPESTATUS[0]} == 0 ]] || fail
  grep -E '^(not )?ok ' "$out/bench.txt" >"$out/bench.tap"
  return 0
}

pytorch() {
  say "bench/pytorch: upskilld's speedups over eager beside torch.cuda.Event timing"
  if [[ $has_gpu == 1 ]]; then
    UNTIL=$((EPOCHSECONDS + $(step_left) - 5)) timeout -k 5 "$(step_left)" "$pack/bench/pytorch/run.sh" 2>&1 |
      tee "$out/bench-pytorch.txt"
    local rc=${PIPESTATUS[0]}
    grep -E '^(not )?ok ' "$out/bench-pytorch.txt" >"$out/pytorch.tap"
    if [[ $rc != 0 ]]; then
      echo "not ok - bench/pytorch/run.sh exited with status $rc" >>"$out/pytorch.tap"
      fail
    elif [[ ! -s $out/pytorch.tap ]]; then
      echo "ok - bench/pytorch ran (bench-pytorch.txt)" >"$out/pytorch.tap"
    fi
  else
    echo "ok - bench/pytorch # SKIP no GPU" | tee "$out/pytorch.tap"
  fi
}

# The budget's shares (seconds; BUDGET_<STEP> changes one), in the order of what the proof needs
# most. On the H200 (2026-11-28) the five steps before bench/pytorch took 178 s; bench/pytorch
# needs about 4 min for its five problems (two torch.compile builds each) and gets what is left:
# it stops itself before the end (UNTIL) and names the problems it could not reach.
: >"$out/steps.tsv"
step notgpu "${BUDGET_NOTGPU:-30}" notgpu
step suite "${BUDGET_SUITE:-150}" suite
step mutants "${BUDGET_MUTANTS:-60}" mutants
step e2e "${BUDGET_E2E:-15}" e2e
step bench "${BUDGET_BENCH:-75}" bench
step pytorch "${BUDGET_PYTORCH:-$budget}" pytorch # what is left

say "summary"
echo "gpu-run: $banner"
python3 "$pack/proof_report.py" "$out" "$pack/MANIFEST" "$gpu" "$budget" || failed=1
if [[ $failed != 0 ]]; then
  echo "gpu-run: FAILURES above (results in $out)"
  exit 1
elif [[ $cut != 0 ]]; then
  echo "gpu-run: nothing failed, but steps were CUT for time (results in $out)"
  exit 3
fi
echo "gpu-run: nothing failed (results in $out)"
exit 0
