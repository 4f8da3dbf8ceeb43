// 40 KB of static shared memory (under the 48 KB static limit): a block-wide histogram.
#define BINS 10240

extern "C" __global__ void hist40k(const unsigned *__restrict__ keys, unsigned *__restrict__ bins,
                                   int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[keys[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b])
      atomicAdd(&bins[b], local[b]);
}
