// Hopper features beside their host launcher: thread-block clusters and
// dynamic shared memory above 48 KB (opted in with cudaFuncSetAttribute).
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_scale(float *data, float k) {
  cg::cluster_group cluster = cg::this_cluster();
  extern __shared__ float buf[];
  unsigned rank = cluster.block_rank();
  buf[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x] * k + rank;
  cluster.sync();
  data[blockIdx.x * blockDim.x + threadIdx.x] = buf[threadIdx.x];
}

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float halo[34 * 34];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  halo[(threadIdx.y + 1) * 34 + threadIdx.x + 1] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = 0.25f * (halo[threadIdx.y * 34 + threadIdx.x + 1] +
                            halo[(threadIdx.y + 2) * 34 + threadIdx.x + 1] +
                            halo[(threadIdx.y + 1) * 34 + threadIdx.x] +
                            halo[(threadIdx.y + 1) * 34 + threadIdx.x + 2]);
}

int main() {
  float *d;
  size_t smem = 64 * 1024;
  cudaMalloc(&d, 1 << 24);
  cudaFuncSetAttribute(cluster_scale, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cluster_scale<<<8, 256, smem>>>(d, 2.0f);
  stencil<<<dim3(16, 16), dim3(32, 32)>>>(d, d + (1 << 20), 512);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
