// Templated block reduction instantiated by host launches, with error checking.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));      \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_sum(const T *in, T *out, int n) {
  __shared__ T partial[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}

template <typename T, int BLOCK> int run(int n) {
  T *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(T)));
  CHECK(cudaMalloc(&out, sizeof(T)));
  CHECK(cudaMemset(out, 0, sizeof(T)));
  block_sum<T, BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaFree(in);
  cudaFree(out);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  return run<float, 256>(n) || run<double, 512>(n) || run<int, 128>(n);
}
