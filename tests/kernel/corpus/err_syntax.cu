// Error: a missing semicolon (front-end error on line 6).
extern "C" __global__ void broken_syntax(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] * 2.0f
  y[0] = 1.0f;
}
