# Sourced by the editor-client tests: cuda_tree DIR makes DIR/proj laid out as NVIDIA's
# cuda-samples are (CMakeLists.txt, inc/heavy.h, src/heavy.cu including ../inc/heavy.h, and
# src/warp.cu with the deprecated __shfl_down on line 3).
cuda_tree() {
  mkdir -p "$1/proj/src" "$1/proj/inc"
  echo 'project(heavy LANGUAGES CUDA)' >"$1/proj/CMakeLists.txt"
  printf '#pragma once\n#define WIDTH 64\n' >"$1/proj/inc/heavy.h"
  cat >"$1/proj/src/heavy.cu" <<'CU'
#include "../inc/heavy.h"
__global__ void heavy(float *y) {
  float acc[WIDTH];
#pragma unroll
  for (int j = 0; j < WIDTH; j++) acc[j] = y[threadIdx.x + j] * j;
  float s = 0;
#pragma unroll
  for (int j = 0; j < WIDTH; j++) s += acc[j] * acc[(j * 7) % WIDTH];
  y[threadIdx.x] = s;
}
CU
  cat >"$1/proj/src/warp.cu" <<'CU'
__global__ void warp(float *y) {
  float s = y[threadIdx.x];
  s += __shfl_down(s, 1);
  y[threadIdx.x] = s;
}
CU
}
