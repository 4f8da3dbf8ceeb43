// KernelBench level 1, problem 47 (sum over dim 1 of [B, D1, D2], keepdim,
// fp32). One thread per (b, j) output. Launch: grid [ceil(B*D2/256)], block
// [256]; args x, out, B, D1, D2.
extern "C" __global__ void correct(const float *x, float *out, int B, int D1, int D2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * D2)
    return;
  int b = t / D2, j = t % D2;
  const float *p = x + (size_t)b * D1 * D2 + j;
  float acc = 0.0f;
  for (int i = 0; i < D1; i++)
    acc += p[(size_t)i * D2];
  out[t] = acc;
}

// Wrong: skips the last row of every reduction.
extern "C" __global__ void wrong(const float *x, float *out, int B, int D1, int D2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * D2)
    return;
  int b = t / D2, j = t % D2;
  const float *p = x + (size_t)b * D1 * D2 + j;
  float acc = 0.0f;
  for (int i = 0; i < D1 - 1; i++)
    acc += p[(size_t)i * D2];
  out[t] = acc;
}
