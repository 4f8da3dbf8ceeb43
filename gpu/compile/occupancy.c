/* Theoretical occupancy on sm_90, the cudaOccMaxActiveBlocksPerMultiprocessor
 * arithmetic of CUDA 13.0's cuda_occupancy.h with H100's properties and the
 * default cache state (carve-out preference: all 228 KB), partitioned global
 * caching off and the opt-in per-block limit (227 KB). */
#include "gpu/compile/occupancy.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

enum {
  WARP = 32,
  MAX_THREADS_PER_BLOCK = 1024,
  MAX_WARPS_PER_SM = 64,     /* 2048 threads */
  MAX_BLOCKS_PER_SM = 32,    /* cudaOccMaxBlocksPerMultiprocessor, major 9 */
  REGS_PER_SM = 65536,       /* also the per-block limit */
  REG_GRANULARITY = 256,     /* registers are allocated per warp in these units */
  SUB_PARTITIONS = 4,        /* each holds a quarter of the register file */
  MAX_REGS_PER_THREAD = 256, /* the header's table (ptxas itself stops at 255) */
  SMEM_GRANULARITY = 128,
  SMEM_RESERVED = 1024,              /* per block, by the driver (sm_80+) */
  SMEM_PER_SM = 228 * 1024,          /* the default carve-out preference */
  SMEM_PER_BLOCK_OPTIN = 227 * 1024, /* cudaDevAttrMaxSharedMemoryPerBlockOptin */
};

static int round_up(int x, int y) {
  return (x + y - 1) / y * y;
}

/* The sm_90 carve-out steps (cudaOccAlignUpShmemSizeVoltaPlus): the smallest
 * step holding `bytes`, or -1 past the largest. */
static long carveout_step(long bytes) {
  static const int kb[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  for (size_t i = 0; i < sizeof kb / sizeof *kb; i++)
    if (bytes <= kb[i] * 1024L)
      return kb[i] * 1024L;
  return -1;
}

static int warp_limit(int warps) {
  return MAX_WARPS_PER_SM / warps;
}

/* cudaOccMaxBlocksPerSMRegsLimit with partitioned caching off. */
static int register_limit(int registers, int warps) {
  int per_warp = round_up(registers * WARP, REG_GRANULARITY);
  if (registers > MAX_REGS_PER_THREAD || per_warp * round_up(warps, SUB_PARTITIONS) > REGS_PER_SM ||
      per_warp * warps > REGS_PER_SM)
    return 0;
  if (per_warp == 0)
    return INT_MAX;
  int warps_per_partition = REGS_PER_SM / SUB_PARTITIONS / per_warp;
  return warps_per_partition * SUB_PARTITIONS / warps;
}

/* cudaOccMaxBlocksPerSMSmemLimit with the default carve-out preference. */
static int smem_limit(long smem_bytes) {
  long per_block = smem_bytes + SMEM_RESERVED;
  per_block = (per_block + SMEM_GRANULARITY - 1) / SMEM_GRANULARITY * SMEM_GRANULARITY;
  if (per_block > SMEM_PER_BLOCK_OPTIN + SMEM_RESERVED)
    return 0;
  /* The preference is used when a block fits in it; otherwise the carve-out
   * grows to the step that holds one block. */
  long per_sm = SMEM_PER_SM >= per_block ? SMEM_PER_SM : carveout_step(per_block);
  return per_sm > 0 ? (int)(per_sm / per_block) : 0;
}

int upk_occupancy_sm90(int threads, int registers, long smem_bytes, upk_occupancy *out) {
  memset(out, 0, sizeof *out);
  out->block_size = threads;
  out->limiter = "warps";
  if (threads < 1 || threads > MAX_THREADS_PER_BLOCK || registers < 0 || smem_bytes < 0 ||
      smem_bytes > (long)INT_MAX)
    return -EINVAL;
  int warps = (threads + WARP - 1) / WARP;
  struct {
    int blocks;
    const char *name;
  } lim[] = {{warp_limit(warps), "warps"},
             {register_limit(registers, warps), "registers"},
             {smem_limit(smem_bytes), "shared memory"},
             {MAX_BLOCKS_PER_SM, "blocks"}};
  int best = 0; /* ties name the first: warps, registers, shared memory, blocks */
  for (int i = 1; i < 4; i++)
    if (lim[i].blocks < lim[best].blocks)
      best = i;
  out->blocks_per_sm = lim[best].blocks;
  out->limiter = lim[best].name;
  out->active_warps = out->blocks_per_sm * warps;
  out->percent = 100.0 * out->active_warps / MAX_WARPS_PER_SM;
  return 0;
}
