/** Kernel facts shared by every stage of kernel validation: what the
 * compiler reported for one `__global__` function, where it is defined, and
 * its theoretical occupancy. Plain C; no JSON, no libuv. */
#ifndef UPK_GPU_KERNEL_H
#define UPK_GPU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

/** Theoretical occupancy of one kernel at one block size (see occupancy.h). */
typedef struct upk_occupancy {
  int block_size;      /* threads per block */
  int blocks_per_sm;   /* resident blocks per SM; 0: the block does not fit */
  int active_warps;    /* resident warps per SM */
  double percent;      /* active_warps / max warps per SM * 100 */
  const char *limiter; /* static string: "warps", "registers", "shared memory", "blocks" */
  bool assumed;        /* block size not given: a default was used */
  const char *from;  /* static: "request", "launch", "launchBounds", "default" (NULL: not judged) */
  int line;          /* from "launch": the launch's zero-based line; else -1 */
  long dynamic_smem; /* dynamic shared memory counted, bytes */
  bool smem_unknown; /* the kernel may use dynamic shared memory of a size not known here */
} upk_occupancy;

/** One distinct launch of a kernel (same block and dynamic shared memory), at its lines. */
typedef struct upk_kernel_launch {
  int lines[8];    /* zero-based, the first 8 */
  size_t n_lines;  /* how many launch sites share these figures */
  int col;         /* of the first */
  const char *via; /* static: "<<<>>>", "cudaLaunchKernel", ... */
  char *written;   /* the kernel as the launch writes it */
  int block[3];    /* when block_known */
  bool block_known, smem_known;
  long smem; /* when smem_known */
  char *block_text, *smem_text, *why;
  int cond_line;     /* under an #if the scan cannot decide: its zero-based line; else -1 */
  upk_occupancy occ; /* at this launch when its block is known (block_size 0: not computed) */
} upk_kernel_launch;

/** One kernel as the compiler and the source describe it. */
typedef struct upk_kernel_info {
  char *name;    /* as a person writes it: "saxpy", "scale<float>" */
  char *mangled; /* the symbol in the cubin */
  int line, col; /* zero-based position of its name in the main file; -1 unknown */
  /* From the ptxas report. */
  int registers, barriers;
  long stack_frame, spill_stores, spill_loads, cumulative_stack;
  long smem_static, cmem0;
  /* From the source. */
  int max_threads, min_blocks; /* __launch_bounds__; 0 when absent */
  int cluster[3];              /* __cluster_dims__; zeros when absent */
  upk_occupancy occupancy;
  upk_kernel_launch *launches; /* distinct launches in the file (launchocc.c) */
  size_t n_launches;
} upk_kernel_info;

void upk_kernel_info_free(upk_kernel_info *k);

#endif
