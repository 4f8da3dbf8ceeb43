#!/bin/sh
# Runtime checks on a real GPU, one command: builds (in build-gpu, or $1) and runs the 'gpu' suite.
# Each case reports "skip ... no CUDA device: ..." where no driver or device is present; the
# KernelBench runs also need a python3 with CUDA torch (UPSKILLD_PYTHON, else python3).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-gpu}
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
ninja -C "$build" tests/gpu/test_gpu_run tests/gpu/test_kernelbench tests/gpu/test_torchop_gpu
meson test -C "$build" --suite gpu --print-errorlogs --verbose
