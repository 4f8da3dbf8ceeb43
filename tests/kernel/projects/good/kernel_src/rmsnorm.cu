// Kernel and its host launcher, as kernel-builder sources are written.
#include <cuda_runtime.h>

#include "common.cuh"

#ifndef RMS_EPS
#error "build.toml's cuda-flags define RMS_EPS"
#endif

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) rmsnorm_kernel(const float *in, const float *weight,
                                                        float *out, int cols) {
  __shared__ float partial[BLOCK / 32];
  const float *row = in + (size_t)blockIdx.x * cols;
  float ss = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    ss += row[c] * row[c];
  ss = warp_sum(ss);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = ss;
  __syncthreads();
  if (threadIdx.x < 32) {
    ss = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.0f;
    ss = warp_sum(ss);
    if (threadIdx.x == 0)
      partial[0] = rsqrtf(ss / cols + RMS_EPS);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    out[(size_t)blockIdx.x * cols + c] = row[c] * partial[0] * weight[c];
}

void rmsnorm(const float *in, const float *weight, float *out, int rows, int cols,
             cudaStream_t stream) {
  rmsnorm_kernel<256><<<rows, 256, 0, stream>>>(in, weight, out, cols);
}
