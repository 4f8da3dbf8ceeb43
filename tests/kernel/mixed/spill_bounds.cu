// __launch_bounds__(1024, 2) leaves 32 registers a thread: this kernel spills.
#include <cstdio>

__global__ void __launch_bounds__(1024, 2) heavy(const float *in, float *out, int n) {
  float acc[48];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 48; k++)
    acc[k] = in[(i + k * 977) % n] * (k + 1);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 48; k++)
    s += acc[k] * acc[(k * 7) % 48];
  out[i] = s;
}

__global__ void light(float *out) {
  out[threadIdx.x] = threadIdx.x;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  heavy<<<256, 1024>>>(in, out, 1 << 20);
  light<<<1, 32>>>(out);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
