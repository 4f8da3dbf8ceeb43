// KernelBench level 1, problem 63 (Conv2d, stride 1, no padding, no bias,
// fp32): one thread per output element. The weight is the model's parameter
// conv2d.weight [Co, Ci, K, K]. Launch: grid [ceil(N*Co*Ho*Wo/256)], block
// [256]; args x, w, y, N, Ci, H, W, Co, K.
extern "C" __global__ void correct(const float *x, const float *w, float *y, int N, int Ci,
                                   int H, int W, int Co, int K) {
  int Ho = H - K + 1, Wo = W - K + 1;
  long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long)N * Co * Ho * Wo)
    return;
  int ox = t % Wo, oy = (t / Wo) % Ho, co = (t / ((long)Wo * Ho)) % Co, n = t / ((long)Wo * Ho * Co);
  float acc = 0.0f;
  for (int ci = 0; ci < Ci; ci++)
    for (int ky = 0; ky < K; ky++)
      for (int kx = 0; kx < K; kx++)
        acc += x[(((long)n * Ci + ci) * H + oy + ky) * W + ox + kx] *
               w[((co * Ci + ci) * K + ky) * K + kx];
  y[t] = acc;
}

// Wrong: a correlation with the kernel flipped horizontally.
extern "C" __global__ void wrong(const float *x, const float *w, float *y, int N, int Ci, int H,
                                 int W, int Co, int K) {
  int Ho = H - K + 1, Wo = W - K + 1;
  long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long)N * Co * Ho * Wo)
    return;
  int ox = t % Wo, oy = (t / Wo) % Ho, co = (t / ((long)Wo * Ho)) % Co, n = t / ((long)Wo * Ho * Co);
  float acc = 0.0f;
  for (int ci = 0; ci < Ci; ci++)
    for (int ky = 0; ky < K; ky++)
      for (int kx = 0; kx < K; kx++)
        acc += x[(((long)n * Ci + ci) * H + oy + ky) * W + ox + kx] *
               w[((co * Ci + ci) * K + ky) * K + (K - 1 - kx)];
  y[t] = acc;
}
