/* Internal to krun: the device engine (trials, checks, timing) that
 * krun.c drives once the module is loaded. Not a public API. */
#ifndef UPK_GPU_KRUN_DEV_H
#define UPK_GPU_KRUN_DEV_H

#include <stdbool.h>

#include "cudrv.h"
#include "diag.h"
#include "runcheck.h"
#include "runspec.h"

/** One kernel ready to launch. */
typedef struct upk_krun_launch {
  upk_cu_handle fn;
  const char *name;
  unsigned grid[3], block[3];
  size_t smem;
  int regs; /* registers per thread (for resource messages) */
} upk_krun_launch;

typedef struct upk_krun {
  /* In. */
  const upk_run_spec *s;
  upk_cudrv *drv;
  upk_diags *diags;
  upk_range at;     /* where run diagnostics point (the kernel's line) */
  int64_t deadline; /* upk_cu_now_ns clock */
  upk_krun_launch cand, ref;
  bool has_ref_kernel;
  /* Working state. */
  int64_t mem_wait_until; /* while memory is short, allocation tries until then (0: not yet) */
  /* Out. */
  int64_t mem_waited_ns; /* time spent waiting for device memory other runs held */
  bool fatal; /* a sticky error or a kernel still running: the process must end */
  unsigned trials_run;
  bool compared;
  upk_cmp worst; /* the largest errors over every trial and output */
  size_t worst_arg;
  bool timed, ref_timed, l2_flushed;
  upk_stats tk, tr;
} upk_krun;

/** Trials, checks and timing. Returns 0 when everything ran (the checks'
 * verdicts are diagnostics), or a negative errno after a CUDA failure
 * (diagnosed; `fatal` set when sticky) or -ENOMEM. */
int upk_krun_execute(upk_krun *k);

/** Report a failed CUDA call as a diagnostic ("run/crash" and fatal when
 * sticky, "run/cuda-error" otherwise). Returns -EIO. */
int upk_krun_cu_fail(upk_krun *k, upk_cu_result e, const char *what);

/* krun_mem.c: guarded device buffers. */

/** `bytes` of device memory between two guard zones; waits (up to
 * UPK_RUN_MEM_WAIT_MS, moving the deadline) while other runs hold the memory.
 * Returns 0 with the usable address in `user`, or a diagnosed -errno
 * (run/out-of-memory, run/cuda-error). */
int upk_krun_alloc(upk_krun *k, size_t bytes, const char *name, upk_cu_ptr *user);
/** Free (nothing after a sticky error) and zero `*user`. */
void upk_krun_free(upk_krun *k, upk_cu_ptr *user);
/** Fill both guard zones of a buffer of `bytes` with `sentinel`. */
int upk_krun_guard_fill(upk_krun *k, upk_cu_ptr user, size_t bytes, unsigned char sentinel);
/** Copy both zones back and scan them: 0 intact, 1 a write was found (one
 * run/out-of-bounds-write per side naming `kernel` and `when`), -errno. */
int upk_krun_guard_check(upk_krun *k, upk_cu_ptr user, const upk_run_arg *a,
                         unsigned char sentinel, const char *kernel, const char *when);

#endif
