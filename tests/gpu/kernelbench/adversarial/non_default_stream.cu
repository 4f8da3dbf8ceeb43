// non_default_stream_kernel.py in CUDA: the KernelBench kernel moves its
// cuBLAS GEMM onto a non-blocking stream so a harness that waits on the
// default stream only times nothing. A kernel launched by the worker cannot
// pick its own stream except through dynamic parallelism: `launcher` starts
// the real work as a fire-and-forget child grid and returns at once. The
// worker waits on the launch's completion event, which (CUDA's rule for child
// grids) fires only when the child has finished too, so the time includes
// the work; or, where the module cannot use device-side launches (they need
// relocatable device code and cudadevrt), the run refuses it with a
// diagnostic. Either way it must not pass with an excessive speedup.
// Launch: grid 1, block 1; args A, B, C, N.
#define TILE 16

__global__ void child(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  if (row >= N || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < N; k++)
    acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

extern "C" __global__ void launcher(const float *A, const float *B, float *C, int N) {
  dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE), block(TILE, TILE);
  child<<<grid, block, 0, cudaStreamFireAndForget>>>(A, B, C, N);
}
