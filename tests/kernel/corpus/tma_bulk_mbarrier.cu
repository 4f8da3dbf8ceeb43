// sm_90: one thread issues a bulk async copy global->shared that completes on an
// mbarrier (expect_tx / complete_tx), every thread waits on the phase, then consumes.
#define TILE_BYTES 4096

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void __launch_bounds__(128) bulk_copy_scale(const float *__restrict__ src,
                                                                  float *__restrict__ dst,
                                                                  float factor) {
  __shared__ alignas(128) float tile[TILE_BYTES / sizeof(float)];
  __shared__ alignas(8) unsigned long long bar;
  unsigned bar_addr = smem_addr(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar_addr), "r"(1) : "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();
  const float *g = src + (size_t)blockIdx.x * (TILE_BYTES / sizeof(float));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar_addr),
                 "r"(TILE_BYTES)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n" ::"r"(smem_addr(tile)),
                 "l"(g), "r"(TILE_BYTES), "r"(bar_addr)
                 : "memory");
  }
  unsigned done = 0;
  while (!done) {
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(bar_addr), "r"(0)
                 : "memory");
  }
  float *d = dst + (size_t)blockIdx.x * (TILE_BYTES / sizeof(float));
  for (int i = threadIdx.x; i < TILE_BYTES / (int)sizeof(float); i += blockDim.x)
    d[i] = tile[i] * factor;
}
