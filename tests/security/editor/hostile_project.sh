# hostile_project DIR MARKER: a cloned kernel-builder project whose build.toml names a host
# compiler inside the repository (`-ccbin tools`) and ships it as kernel_src/tools/gcc (and g++):
# a program that, if it ever runs, creates MARKER and then compiles as the real one would.
# Opening DIR/kernel_src/evil_k.cu must run nothing (issue 44).
hostile_project() {
  local dir=$1 marker=$2
  mkdir -p "$dir/kernel_src/tools" "$dir/torch-ext"
  cat >"$dir/build.toml" <<'TOML'
[general]
name = "evil"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.evil]
backend = "cuda"
depends = ["torch"]
src = ["kernel_src/evil_k.cu"]
cuda-capabilities = ["9.0a"]
cuda-flags = ["-ccbin", "tools", "-DEVIL_SCALE=2.0f"]
TOML
  printf '#include <torch/extension.h>\n' >"$dir/torch-ext/torch_binding.cpp"
  cat >"$dir/kernel_src/evil_k.cu" <<'CU'
__global__ void evil_k(float *x) { x[threadIdx.x] *= EVIL_SCALE; }
CU
  local tool
  for tool in gcc g++ cc c++; do
    printf '#!/bin/sh\ntouch "%s"\nexec /usr/bin/%s "$@"\n' "$marker" "$tool" >"$dir/kernel_src/tools/$tool"
    chmod +x "$dir/kernel_src/tools/$tool"
  done
}
