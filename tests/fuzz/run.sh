#!/usr/bin/env bash
# Build the protocol fuzzer (libFuzzer + ASan + UBSan, straight from protocol/*.c) and run it.
#
#   tests/fuzz/run.sh [SECONDS]      default 20; works from any directory
#
# Build outputs, the growing corpus, crash artifacts and the log go to $FUZZ_BUILD_DIR
# (default build-fuzz/ at the repository root); the committed seeds in tests/fuzz/corpus/ are
# only read. Ends with one summary line; exits non-zero when the build fails or the fuzzer
# finds a crash, leak, timeout or broken invariant.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-20}
out=${FUZZ_BUILD_DIR:-$root/build-fuzz}
cc=${FUZZ_CC:-clang}

fail() { echo "fuzz_protocol: FAIL: $*"; exit 1; }

[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || fail "seconds must be a positive integer, not '$seconds'"
command -v "$cc" >/dev/null || fail "$cc not found (install clang)"
jansson=$(pkg-config --cflags --libs jansson) || fail "pkg-config cannot find jansson"
mkdir -p "$out/corpus" "$out/artifacts" || fail "cannot create $out"
out=$(cd "$out" && pwd)

bin=$out/fuzz_protocol
# shellcheck disable=SC2086 # $jansson is a list of flags
"$cc" -g -O1 -std=gnu11 -D_GNU_SOURCE -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/protocol" "$here/fuzz_protocol.c" "$root"/protocol/*.c $jansson -o "$bin" \
  >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; fail "build failed (see $out/build.log)"; }

log=$out/fuzz.log
# The first corpus directory receives new inputs; the committed seeds are read only.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
  "$out/corpus" "$here/corpus" >"$log" 2>&1 </dev/null
rc=$?

runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
if [[ $rc -ne 0 ]]; then
  tail -n 60 "$log" >&2
  artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -n1 | sed 's/Test unit written to //')
  fail "rc=$rc after ${runs:-?} runs; input: ${artifact:-none}; log: $log"
fi
[[ -n $runs ]] || { tail -n 30 "$log" >&2; fail "no run count in $log"; }
echo "fuzz_protocol: ok: $runs runs in ${seconds}s, coverage ${cov:-?} edges, no crash (log: $log)"
