// Streams, events and a struct-of-arrays kernel with constant memory.
#include <cstdio>
#include <cuda_runtime.h>

struct Particles {
  float *x, *y, *vx, *vy;
};

__constant__ float c_dt;
__constant__ float c_gravity[2];

__global__ void step(Particles p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p.vx[i] += c_gravity[0] * c_dt;
  p.vy[i] += c_gravity[1] * c_dt;
  p.x[i] += p.vx[i] * c_dt;
  p.y[i] += p.vy[i] * c_dt;
}

int main() {
  const int n = 1 << 18;
  Particles p;
  float dt = 0.01f, g[2] = {0.0f, -9.81f};
  cudaMemcpyToSymbol(c_dt, &dt, sizeof dt);
  cudaMemcpyToSymbol(c_gravity, g, sizeof g);
  cudaMalloc(&p.x, n * sizeof(float));
  cudaMalloc(&p.y, n * sizeof(float));
  cudaMalloc(&p.vx, n * sizeof(float));
  cudaMalloc(&p.vy, n * sizeof(float));
  cudaStream_t s;
  cudaEvent_t a, b;
  cudaStreamCreate(&s);
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  for (int it = 0; it < 100; it++)
    step<<<(n + 127) / 128, 128, 0, s>>>(p, n);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("%.3f ms\n", ms);
  return 0;
}
