#!/usr/bin/env bash
# Build here and pack everything a GPU machine needs into one folder (default gpu-pack/, ignored
# by git): the daemon, client and worker, the GPU test programs (Criterion), the no-GPU run tests
# worth repeating there, the shared libraries `ldd` lists beyond glibc and libstdc++/libgcc (that
# machine has no libuv, jansson, cmark, libyaml, toml++, Criterion or node), bench/gpu and
# gpu-run.sh. Copy the folder over (or gpu-pack.tar.gz) and run `gpu-pack/gpu-run.sh` there.
#   scripts/gpu-pack.sh [BUILD_DIR] [PACK_DIR]     (defaults: build-gpupack, gpu-pack)
# The build is a release build; the toolkit (NVRTC, compute-sanitizer) is that machine's own,
# found under $CUDA_PATH or /usr/local/cuda at run time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-gpupack}
pack=${2:-$root/gpu-pack}
case $pack in /*) ;; *) pack=$PWD/$pack ;; esac

bins=(daemon/upskilld clients/upskillctl gpu/upskilld-worker)
tests=(tests/gpu/test_gpu_run tests/gpu/test_gpu_daemon tests/gpu/test_gpu_hacks tests/gpu/test_kernelbench
  tests/gpu/test_torchop_gpu tests/run/test_kgen tests/run/test_krun_mem tests/run/test_krun
  tests/run/test_runcheck tests/run/test_runspec)

# PACK_PREBUILT=1: pack BUILD_DIR's programs as they are, building nothing (the rehearsal, run
# by meson test inside that build, must not start ninja in it).
if [[ ${PACK_PREBUILT:-0} != 1 ]]; then
  [[ -f $build/build.ninja ]] || meson setup "$build" "$root" --buildtype=release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" "${bins[@]}" "${tests[@]}" >/dev/null
fi
# The same programs with the run's checks switchable off (meson -Dgpu_mutants=true, never
# released): gpu-run.sh turns each off in turn and expects the tests that name it to go red.
# MUTANT_BUILD=none leaves them out (the rehearsal without a GPU: tests/gpu/proof_rehearsal.sh).
mutant_build=${MUTANT_BUILD:-$build-mutant}
mutant_tests=(tests/gpu/test_gpu_run tests/gpu/test_gpu_hacks tests/gpu/test_kernelbench)
if [[ $mutant_build != none && ${PACK_PREBUILT:-0} != 1 ]]; then
  [[ -f $mutant_build/build.ninja ]] ||
    meson setup "$mutant_build" "$root" --buildtype=release -Dgpu_mutants=true >/dev/null
  ninja -C "$mutant_build" -j"${JOBS:-2}" "${bins[@]}" "${mutant_tests[@]}" >/dev/null
fi

rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/tests" "$pack/lib" "$pack/bench"
for b in "${bins[@]}"; do cp "$build/$b" "$pack/bin/"; done
for t in "${tests[@]}"; do cp "$build/$t" "$pack/tests/"; done
if [[ $mutant_build != none ]]; then
  mkdir -p "$pack/mutant/bin" "$pack/mutant/tests"
  for b in "${bins[@]}"; do cp "$mutant_build/$b" "$pack/mutant/bin/"; done
  for t in "${mutant_tests[@]}"; do cp "$mutant_build/$t" "$pack/mutant/tests/"; done
fi
# The PyTorch reference's helper: gpu-run.sh names it (UPSKILLD_PYREF_HELPER); bin/ holds only ELF.
mkdir -p "$pack/share"
cp "$build/gpu/upskilld-pyref.py" "$pack/share/"
cp -r "$root/bench/gpu" "$root/bench/pytorch" "$pack/bench/"
# The GPU tests' data (KernelBench problems, the torch-op project), read under UPK_SOURCE_ROOT.
mkdir -p "$pack/src/tests/gpu"
cp -r "$root/tests/gpu/kernelbench" "$root/tests/gpu/torchop" "$pack/src/tests/gpu/"
cp "$root/scripts/gpu-run.sh" "$root/scripts/proof_report.py" "$pack/"

# Shared libraries: what ldd resolves, minus glibc's own, the C++ runtime, the dynamic loader
# and the vDSO (the GPU machine has its own; copying glibc would break it).
is_system() {
  case $(basename "$1") in
  libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | \
    libutil.so.* | libanl.so.* | libnsl.so.* | libnss_*.so.* | ld-linux*.so.* | \
    libstdc++.so.* | libgcc_s.so.*) return 0 ;;
  esac
  return 1
}
missing=0
while read -r name arrow path _; do
  [[ $arrow == "=>" ]] || continue
  if [[ $path == "not" ]]; then
    echo "gpu-pack: $name is not found by ldd here" >&2
    missing=1
    continue
  fi
  is_system "$path" || cp -L "$path" "$pack/lib/"
done < <(shopt -s nullglob; for f in "$pack"/bin/* "$pack"/tests/* "$pack"/mutant/*/*; do ldd "$f"; done | sort -u)
[[ $missing == 0 ]] || exit 1
# bubblewrap and what it links beyond glibc (sys/, sys/lib/): gpu-run.sh installs it for the run
# where the GPU machine has none, so nvcc with a request's options runs sandboxed there too.
for at in /usr/bin/bwrap /usr/local/bin/bwrap /bin/bwrap; do
  [[ -x $at ]] || continue
  mkdir -p "$pack/sys/lib"
  cp -L "$at" "$pack/sys/bwrap"
  while read -r _ arrow path _; do
    if [[ $arrow == "=>" && $path == /* ]] && ! is_system "$path"; then
      cp -L "$path" "$pack/sys/lib/"
    fi
  done < <(ldd "$at")
  break
done

# What the binaries need from glibc, so gpu-run.sh can say so before anything fails obscurely.
elf=$(find "$pack/bin" "$pack/tests" "$pack/lib" "$pack/sys" -type f 2>/dev/null || true)
need_glibc=$(echo "$elf" | xargs objdump -T 2>/dev/null |
  grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
{
  echo "commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(
    git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(ldd --version | head -1)"
  echo "glibc $need_glibc"
  parts=(bin tests lib bench share src gpu-run.sh proof_report.py)
  [[ -d $pack/mutant ]] && parts+=(mutant)
  [[ -d $pack/sys ]] && parts+=(sys)
  (cd "$pack" && find "${parts[@]}" -type f | sort | xargs sha256sum)
} >"$pack/MANIFEST"
# NO_TARBALL=1: the folder only (the device tool carries a folder; the rehearsal needs no archive).
[[ ${NO_TARBALL:-0} == 1 ]] || tar -C "$(dirname "$pack")" -czf "$pack.tar.gz" "$(basename "$pack")"
echo "gpu-pack: $pack ($(du -sh "$pack" | cut -f1), $(ls "$pack/lib" | wc -l) libraries;" \
  "needs glibc >= $need_glibc)$([[ ${NO_TARBALL:-0} == 1 ]] || echo " and $pack.tar.gz")"
echo "on the GPU machine: tar xzf $(basename "$pack").tar.gz && $(basename "$pack")/gpu-run.sh"
