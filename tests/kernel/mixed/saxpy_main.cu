// A complete program: kernel, allocation, launch, check, report.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n)
    y[i] = a * tile[threadIdx.x] + y[i];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::cout << "y[0] = " << hy[0] << std::endl;
  cudaFree(x);
  cudaFree(y);
  return hy[0] == 4.0f ? EXIT_SUCCESS : EXIT_FAILURE;
}
