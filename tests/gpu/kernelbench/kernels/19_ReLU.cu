// KernelBench level 1, problem 19 (y = relu(x), fp32). Launch: grid
// [ceil(n/256)], block [256]; args x, y, n.
extern "C" __global__ void correct(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fmaxf(x[i], 0.0f);
}

// Wrong: clips at 0.5 instead of 0 (the problem draws x from [0, 1), so a
// threshold at 0 is invisible; one above it is not).
extern "C" __global__ void wrong(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] > 0.5f ? x[i] : 0.0f;
}
