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
  /* Optional (NULL: none): fills, per trial, every buffer whose init is
   * UPK_INIT_FEED and, when the reference is UPK_REF_PYTORCH, the expected
   * values of each output (`expected`). 0, or -EINVAL after a diagnostic. */
  int (*feed)(void *ctx, unsigned trial, size_t arg, void *dst, size_t bytes, bool expected);
  void *feed_ctx;
  /* Out. */
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

#endif
