// Device code only: validated with NVRTC.
#include "common.cuh"

extern "C" __global__ void gelu_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = gelu(in[i]);
}

extern "C" __global__ void silu_mul_kernel(const float *gate, const float *up, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float g = gate[i];
    out[i] = g / (1.0f + __expf(-g)) * up[i];
  }
}
