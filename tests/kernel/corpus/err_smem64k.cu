// Lint error: 64 KB of static shared memory (ptxas accepts it; static __shared__ is limited to 48 KB).
extern "C" __global__ void too_much_smem(float *out) {
  __shared__ float big[16384];
  big[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % 16384];
}
