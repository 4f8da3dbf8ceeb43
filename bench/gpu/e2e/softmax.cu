// End-to-end sample for gpu-run.sh: a row softmax (one block of 256 threads per row) checked
// against a naive one-thread-per-row reference, through upskillctl and the daemon.
extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  __shared__ float red[256];
  int r = blockIdx.x, t = threadIdx.x;
  if (r >= rows) return;
  const float *xr = x + (size_t)r * cols;
  float m = -__int_as_float(0x7f800000);
  for (int c = t; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  red[t] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) red[t] = fmaxf(red[t], red[t + w]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float s = 0;
  for (int c = t; c < cols; c += blockDim.x) s += __expf(xr[c] - m);
  red[t] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) red[t] += red[t + w];
    __syncthreads();
  }
  s = red[0];
  for (int c = t; c < cols; c += blockDim.x) y[(size_t)r * cols + c] = __expf(xr[c] - m) / s;
}

extern "C" __global__ void softmax_naive(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *xr = x + (size_t)r * cols;
  float m = -__int_as_float(0x7f800000), s = 0;
  for (int c = 0; c < cols; c++) m = fmaxf(m, xr[c]);
  for (int c = 0; c < cols; c++) s += expf(xr[c] - m);
  for (int c = 0; c < cols; c++) y[(size_t)r * cols + c] = expf(xr[c] - m) / s;
}
