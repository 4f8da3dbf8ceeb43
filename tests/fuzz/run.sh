#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan, tests/fuzz/meson.build) and run each.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]   SECONDS per target, default 15; targets default
#                                             to all (protocol skill_md skill_meta evalcases trigger evals
#                                             runspec buildtoml nvlog torchop provider config)
#   FUZZ_RUNS=N tests/fuzz/run.sh S [T...]    stop each target after N executions or S seconds,
#                                             whichever comes first (the long campaign)
#   FUZZ_PIDFILE=FILE                         write the running fuzzer's PID there as each
#                                             target starts (to pause it: kill -STOP/-CONT)
#   FUZZ_MAX_LEN=N                            one -max_len for all targets instead of the
#                                             per-target lengths below
#   FUZZ_PARALLEL=N                           run N targets side by side (default 1; the
#                                             summary lines still come in target order)
#   FUZZ_TIMEOUT=S                            libFuzzer's -timeout (default 10): it counts
#                                             wall time, so a paused fuzzer reports a timeout
#
# The build (meson, clang) and, per target, the growing corpus, crash artifacts and log go to
# $FUZZ_BUILD_DIR (default build-fuzz/ at the repository root); the committed seeds in
# tests/fuzz/corpus/TARGET/ are only read. Prints one summary line per target; exits non-zero
# when the build fails or any fuzzer finds a crash, leak, timeout or broken invariant.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-15}
shift || true
all=(protocol skill_md skill_meta evalcases trigger evals runspec buildtoml nvlog torchop provider config)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
out=${FUZZ_BUILD_DIR:-$root/build-fuzz}
runs=${FUZZ_RUNS:--1}
# -max_len per target: about twice the largest real input, so long campaigns do not drift to
# inputs far larger (and slower) than anything the parser meets. Largest real files: SKILL.md
# 12,093 B (skills/library), skill_meta.json / test files 3,032 B, build.toml 880 B
# (tests/kernel/projects), config.yaml 268 B, a run spec 435 B, nvcc/ptxas logs 3,523 B,
# torch-ext binding sources a few KB, provider answers and protocol messages < 1 KB (the protocol target goes past its 4,096 B
# message cap so the cap's overflow path stays reachable).
declare -A max_len=([protocol]=8192 [skill_md]=24576 [skill_meta]=8192 [evalcases]=8192
  [trigger]=8192 [evals]=8192
  [runspec]=2048 [buildtoml]=4096 [nvlog]=8192 [torchop]=8192 [provider]=8192 [config]=2048)

fail() { echo "fuzz: FAIL: $*"; exit 1; }

[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || fail "seconds must be a positive integer, not '$seconds'"
command -v "${FUZZ_CC:-clang}" >/dev/null || fail "${FUZZ_CC:-clang} not found (scripts/setup.sh --test)"
for t in "${targets[@]}"; do
  [[ -d $here/corpus/$t ]] || fail "unknown target '$t' (no tests/fuzz/corpus/$t)"
done

flags="-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
flags+=" -Wno-unknown-warning-option"
if [[ ! -f $out/build.ninja ]]; then
  CC=${FUZZ_CC:-clang} CXX=${FUZZ_CXX:-clang++} meson setup "$out" "$root" -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
    -Doptimization=1 -Dc_args="$flags" -Dcpp_args="$flags" >"$root/.fuzz-setup.log" 2>&1 ||
    { cat "$root/.fuzz-setup.log" >&2; rm -f "$root/.fuzz-setup.log"; fail "meson setup failed"; }
  rm -f "$root/.fuzz-setup.log"
fi
out=$(cd "$out" && pwd)
bins=()
for t in "${targets[@]}"; do bins+=("tests/fuzz/fuzz_$t"); done
ninja -C "$out" -j"${FUZZ_JOBS:-2}" "${bins[@]}" >"$out/fuzz-build.log" 2>&1 ||
  { tail -n 40 "$out/fuzz-build.log" >&2; fail "build failed (see $out/fuzz-build.log)"; }

# One target: run it, then write its summary line to $dir/summary and its verdict to $dir/rc
# (targets may run side by side; the lines are printed in order once all are done).
fuzz_one() {
  local t=$1 dir=$out/fuzz/$1 pid rc n cov secs artifact line
  mkdir -p "$dir/corpus" "$dir/artifacts"
  rm -f "$dir/summary" "$dir/rc"
  local log=$dir/fuzz.log
  # The first corpus directory receives new inputs; the committed seeds are read only.
  # A 16 MiB quarantine (ASan's default: 256) is still many times what one input of these
  # sizes allocates, so a use after free inside a run is still caught; the default one makes
  # nearly every allocation fresh, page-faulting memory: 1.5-2x slower.
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=16} \
    "$out/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -runs="$runs" -timeout="${FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-${max_len[$t]}}" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" "$here/corpus/$t" >"$log" 2>&1 </dev/null &
  pid=$!
  [[ -z ${FUZZ_PIDFILE:-} ]] || echo "$pid" >"$FUZZ_PIDFILE"
  wait "$pid"
  rc=$?
  n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n1)
  [[ -n $n ]] || n=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)/\1/p' "$log" | tail -n1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n1)
  if [[ $rc -ne 0 ]]; then
    artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -n1 | sed 's/Test unit written to //')
    line="$(tail -n 60 "$log")"$'\n'"fuzz_$t: FAIL: rc=$rc after ${n:-?} runs; input: ${artifact:-none}; log: $log"
  elif [[ -z $n ]]; then
    rc=1
    line="$(tail -n 30 "$log")"$'\n'"fuzz_$t: FAIL: no run count in $log"
  else
    line="fuzz_$t: ok: $n runs in ${secs:-$seconds}s, coverage ${cov:-?} edges, corpus $(ls "$dir/corpus" | wc -l) + $(ls "$here/corpus/$t" | wc -l) seeds, no crash (log: $log)"
  fi
  printf '%s\n' "$line" >"$dir/summary"
  echo "$rc" >"$dir/rc"
}

# FUZZ_PARALLEL targets at a time (default 1): scripts/test.sh runs two on CI's two cores.
parallel=${FUZZ_PARALLEL:-1}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || fail "FUZZ_PARALLEL must be a positive integer, not '$parallel'"
[[ -z ${FUZZ_PIDFILE:-} || $parallel -eq 1 ]] || fail "FUZZ_PIDFILE names one fuzzer: use FUZZ_PARALLEL=1"
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n; done
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  dir=$out/fuzz/$t
  if [[ -f $dir/summary ]]; then cat "$dir/summary"; else echo "fuzz_$t: FAIL: no summary in $dir"; fi
  [[ $(cat "$dir/rc" 2>/dev/null) == 0 ]] || status=1
done
exit $status
