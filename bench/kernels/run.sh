#!/usr/bin/env bash
# Kernel validation speed beside nvcc in one run: `nvcc -cubin -Xptxas -v`, a fresh daemon
# (spawn + initialize + first kernel/validate), a warm one (cache:false), and an identical
# re-validation (cache hit), on the small, GEMM and header-heavy corpus kernels, with the
# targets printed beside (small >= 5x fresh and >= 15x warm, header-heavy >= 4x warm,
# identical <= 1 ms). Knobs: BUILD (build dir, default build), ARCH (sm_90a), and the run
# counts NVCC (5), FRESH (5), WARM (10), IDENTICAL (50). Exit status 0 when every target is met.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
build=${BUILD:-build}

[[ -f $build/build.ninja ]] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
corpus=tests/kernel/corpus
status=0
# Worker servers the benches start live in a private runtime dir and are stopped at the end.
XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_RUNTIME_DIR
trap 'pkill -f -- "--serve $XDG_RUNTIME_DIR/" || true; rm -rf "$XDG_RUNTIME_DIR"' EXIT
node bench/kernels/bench.mjs "$build/daemon/upskilld" \
  "$corpus/saxpy.cu" "$corpus/sgemm_tiled.cu" "$corpus/half_bf16_cg.cu" || status=1
echo
# Issue 7: whole files with host code (nvcc backend) and a kernel-builder project.
mixed=tests/kernel/mixed
node bench/kernels/whole.mjs "$build/daemon/upskilld" tests/kernel/projects/good \
  "$mixed/saxpy_main.cu" "$mixed/reduce_templates.cu" "$mixed/streams_events.cu" || status=1
exit $status
