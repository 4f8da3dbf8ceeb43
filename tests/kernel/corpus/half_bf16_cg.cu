// The header-heavy kernel: fp16 inputs, bf16 weights, a dot product per row reduced
// with cooperative-groups warp tiles.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

extern "C" __global__ void rowdot_half_bf16(const __half2 *__restrict__ x,
                                            const __nv_bfloat162 *__restrict__ w,
                                            __half *__restrict__ out, int cols2) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const __half2 *xr = x + (size_t)blockIdx.x * cols2;
  float acc = 0.0f;
  for (int c = block.thread_rank(); c < cols2; c += block.size()) {
    float2 xf = __half22float2(xr[c]);
    float2 wf = __bfloat1622float2(w[c]);
    acc = fmaf(xf.x, wf.x, fmaf(xf.y, wf.y, acc));
  }
  for (int off = warp.size() / 2; off > 0; off /= 2)
    acc += warp.shfl_down(acc, off);
  __shared__ float partial[32];
  if (warp.thread_rank() == 0)
    partial[warp.meta_group_rank()] = acc;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    acc = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
    for (int off = warp.size() / 2; off > 0; off /= 2)
      acc += warp.shfl_down(acc, off);
    if (warp.thread_rank() == 0)
      out[blockIdx.x] = __float2half_rn(acc);
  }
}
