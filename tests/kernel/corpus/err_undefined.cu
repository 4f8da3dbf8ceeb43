// Error: an identifier that is never declared (front-end error on line 5).
extern "C" __global__ void uses_undefined(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = undefined_scale * y[i];
}
