// sm_90a only: a warp-specialised skeleton that fences wgmma and grows the consumer
// warpgroups' register budget. Guarded so other targets get an empty body.
extern "C" __global__ void __launch_bounds__(384, 1)
    warp_specialized(const float *__restrict__ in, float *__restrict__ out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  int wg = threadIdx.x / 128;
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    out[blockIdx.x * blockDim.x + threadIdx.x] = v * 2.0f;
  }
#endif
}
