// KernelBench level 1, problem 1 (C = A @ B, square N x N, fp32): a correct
// tiled kernel, a wrong one, and CUDA versions of KernelBench's adversarial
// kernels (src/kernelbench/unit_tests/test_kernels/), which a harness must
// reject. Launch: grid [N/16, N/16], block [16, 16]; args A, B, C, N.
#define TILE 16

extern "C" __global__ void correct(const float *A, const float *B, float *C, int N) {
  __shared__ float a[TILE][TILE], b[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < N; t += TILE) {
    a[threadIdx.y][threadIdx.x] = row < N && t + threadIdx.x < N ? A[row * N + t + threadIdx.x] : 0;
    b[threadIdx.y][threadIdx.x] = col < N && t + threadIdx.y < N ? B[(t + threadIdx.y) * N + col] : 0;
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N)
    C[row * N + col] = acc;
}

// Wrong: drops the last term of every dot product.
extern "C" __global__ void wrong(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  if (row >= N || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < N - 1; k++)
    acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// result_reuse_kernel.py: returns torch::empty of the result's shape, hoping
// the allocator hands back memory that still holds the reference's result.
// Here: writes nothing. The output is NaN-poisoned before every launch, so
// this must be run/unwritten-output.
extern "C" __global__ void result_reuse(const float *A, const float *B, float *C, int N) {}

// zero_out_kernel.py: zeroes both inputs and returns zeros, so a harness that
// computes the reference after the kernel on the same buffers sees 0 == 0.
// Here the reference is computed first and the inputs are hashed: this must
// be run/input-written and run/mismatch.
extern "C" __global__ void zero_out(float *A, float *B, float *C, int N) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  if (row >= N || col >= N)
    return;
  A[row * N + col] = 0.0f;
  B[row * N + col] = 0.0f;
  C[row * N + col] = 0.0f;
}
