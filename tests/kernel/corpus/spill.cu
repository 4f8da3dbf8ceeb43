// 1024 threads x 2 blocks caps ptxas at 32 registers; 48 live accumulators do not fit.
#define NACC 48

extern "C" __global__ void __launch_bounds__(1024, 2)
    spill_heavy(const float *__restrict__ in, float *__restrict__ out, int n) {
  float acc[NACC];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int j = 0; j < NACC; j++)
    acc[j] = in[(tid + j * 977) % n];
  for (int it = 0; it < 8; it++) {
#pragma unroll
    for (int j = 0; j < NACC; j++)
      acc[j] = acc[j] * acc[(j + 7) % NACC] + acc[(j + 13) % NACC];
  }
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < NACC; j++)
    s += acc[j] * (float)(j + 1);
  out[tid] = s;
}

// A local array indexed at run time lives on the stack.
extern "C" __global__ void local_lookup(const int *__restrict__ idx, float *__restrict__ out) {
  float table[64];
  float run = out[threadIdx.x];
  for (int j = 0; j < 64; j++) {
    run = run * 0.5f + out[j];
    table[j] = run;
  }
  int t = threadIdx.x;
  out[t] = table[idx[t] & 63] + table[idx[t + 1] & 63];
}
