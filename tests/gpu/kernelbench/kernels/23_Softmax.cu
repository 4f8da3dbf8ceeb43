// KernelBench level 1, problem 23 (softmax over dim 1 of [rows, dim], fp32).
// One block of 256 threads per row. Launch: grid [rows], block [256]; args
// x, y, dim.
#define THREADS 256

__device__ float block_reduce(float v, bool is_max) {
  __shared__ float s[THREADS];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int w = THREADS / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      s[threadIdx.x] = is_max ? fmaxf(s[threadIdx.x], s[threadIdx.x + w])
                              : s[threadIdx.x] + s[threadIdx.x + w];
    __syncthreads();
  }
  float r = s[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void correct(const float *x, float *y, int dim) {
  const float *in = x + (size_t)blockIdx.x * dim;
  float *out = y + (size_t)blockIdx.x * dim;
  float m = -3.402823466e38f, sum = 0.0f; // -FLT_MAX: NVRTC has no INFINITY macro
  for (int i = threadIdx.x; i < dim; i += THREADS)
    m = fmaxf(m, in[i]);
  m = block_reduce(m, true);
  for (int i = threadIdx.x; i < dim; i += THREADS)
    sum += expf(in[i] - m);
  sum = block_reduce(sum, false);
  for (int i = threadIdx.x; i < dim; i += THREADS)
    out[i] = expf(in[i] - m) / sum;
}

// Wrong: normalises by the first half of the row only.
extern "C" __global__ void wrong(const float *x, float *y, int dim) {
  const float *in = x + (size_t)blockIdx.x * dim;
  float *out = y + (size_t)blockIdx.x * dim;
  float m = -3.402823466e38f, sum = 0.0f; // -FLT_MAX: NVRTC has no INFINITY macro
  for (int i = threadIdx.x; i < dim; i += THREADS)
    m = fmaxf(m, in[i]);
  m = block_reduce(m, true);
  for (int i = threadIdx.x; i < dim / 2; i += THREADS)
    sum += expf(in[i] - m);
  sum = block_reduce(sum, false);
  for (int i = threadIdx.x; i < dim; i += THREADS)
    out[i] = expf(in[i] - m) / sum;
}
