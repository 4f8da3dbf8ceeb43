/** Theoretical occupancy for sm_90 (H100), computed without a GPU with the
 * formula of cuda_occupancy.h (CUDA 13.0): warps, registers (allocated per
 * warp in units of 256, split over 4 sub-partitions) and shared memory (1 KB
 * reserved per block, carve-out chosen from the sm_90 steps). */
#ifndef UPK_GPU_OCCUPANCY_H
#define UPK_GPU_OCCUPANCY_H

#include "gpu/compile/kernel.h"

/** Fill `out` for a block of `threads` threads using `registers` per thread and
 * `smem_bytes` of shared memory per block (static + dynamic). Returns 0, or
 * -EINVAL for threads outside 1..1024 (out->blocks_per_sm = 0 and limiter says
 * why when the block cannot fit: too many registers or too much shared memory). */
int upk_occupancy_sm90(int threads, int registers, long smem_bytes, upk_occupancy *out);

#endif
