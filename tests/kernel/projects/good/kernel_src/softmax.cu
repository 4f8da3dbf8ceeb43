// Online softmax, one warp per row, with its launcher.
#include <cfloat>
#include <cuda_runtime.h>

__global__ void softmax_kernel(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const float *x = in + (size_t)row * cols;
  float m = -FLT_MAX, d = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = x[c], nm = fmaxf(m, v);
    d = d * __expf(m - nm) + __expf(v - nm);
    m = nm;
  }
  for (int o = 16; o > 0; o >>= 1) {
    float om = __shfl_xor_sync(0xffffffffu, m, o), od = __shfl_xor_sync(0xffffffffu, d, o);
    float nm = fmaxf(m, om);
    d = d * __expf(m - nm) + od * __expf(om - nm);
    m = nm;
  }
  for (int c = lane; c < cols; c += 32)
    out[(size_t)row * cols + c] = __expf(x[c] - m) / d;
}

void softmax(const float *in, float *out, int rows, int cols, cudaStream_t stream) {
  softmax_kernel<<<(rows + 7) / 8, 256, 0, stream>>>(in, out, rows, cols);
}
