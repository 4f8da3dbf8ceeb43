/* Internal to the run op (worker/run_op.c): the device engine (trials, checks, timing) that
 * run_op.c drives once the module is loaded. Not a public API. */
#ifndef UPK_GPU_KRUN_DEV_H
#define UPK_GPU_KRUN_DEV_H

#include <stdbool.h>

#include "gpu/run/cudrv.h"
#include "common/diag.h"
#include "gpu/run/devkernels.h"
#include "gpu/run/runcheck.h"
#include "gpu/run/runspec.h"

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
  upk_kgen *gen;      /* the run's own kernels, loaded in this context */
  size_t guard;       /* guard zone bytes each side of a buffer (0 under compute-sanitizer) */
  bool outputs_unset; /* out buffers left as allocated, not poisoned (under initcheck) */
  /* Optional (NULL: none): fills, per trial, every buffer whose init is
   * UPK_INIT_FEED and, when the reference is UPK_REF_PYTORCH, the expected
   * values of each output (`expected`). 0, or -EINVAL after a diagnostic. */
  int (*feed)(void *ctx, unsigned trial, size_t arg, void *dst, size_t bytes, bool expected);
  void *feed_ctx;
  /* Working state. */
  unsigned sets;          /* input sets rotating over the timed launches (runplan.h) */
  unsigned trials;        /* correctness trials: one per set, at least run.trials */
  uint64_t *set_hash;     /* [trial * n_args + arg]: outputs as the checked trial left them, inputs
                             as generated; every timed launch of that set must give the same */
  int64_t mem_wait_until; /* while memory is short, allocation tries until then (0: not yet) */
  /* Out. */
  int64_t mem_waited_ns; /* time spent waiting for device memory other runs held */
  bool fatal;            /* a sticky error or a kernel still running: the process must end */
  unsigned trials_run;
  bool compared;
  upk_cmp worst; /* the largest errors over every trial and output */
  size_t worst_arg;
  bool timed, ref_timed, l2_flushed;
  upk_stats tk, tr;
  double hash_ms; /* device time of the timed launches' hashes; < 0: none ran */
} upk_krun;

/** Device and host state of one execute call; arrays are per argument. */
typedef struct upk_krun_bufs {
  upk_cu_ptr *dev, *rdev; /* the candidate's and the reference's arguments */
  upk_cu_ptr *exp;        /* expected outputs (the reference's, or the file's) */
  upk_cu_ptr *ga;         /* run A's outputs while run B reuses dev */
  upk_cu_ptr res;         /* the check kernel's result slots, then 8 bytes for a hash */
  void **file;            /* host copies of init.file inputs only */
  uint64_t *hash;         /* in buffers' hashes as generated */
  uint64_t *scal;         /* scalar values, little-endian in the low bytes */
  void **kp, **rkp;
  upk_cu_handle ev0, ev1; /* around a launch */
  upk_cu_handle ev2;      /* after a timed launch's hashes */
} upk_krun_bufs;

/** Trials, checks and timing. Returns 0 when everything ran (the checks'
 * verdicts are diagnostics), or a negative errno after a CUDA failure
 * (diagnosed; `fatal` set when sticky) or -ENOMEM. */
int upk_krun_execute(upk_krun *k);

/** Report a failed CUDA call as a diagnostic ("run/crash" and fatal when
 * sticky, "run/cuda-error" otherwise). Returns -EIO. */
int upk_krun_cu_fail(upk_krun *k, upk_cu_result e, const char *what);

size_t upk_krun_arg_bytes(const upk_run_arg *a);
bool upk_krun_is_output(const upk_run_arg *a);
/** The fill of input `a` in trial t (value or counter-based random). */
void upk_krun_gen_of(const upk_krun *k, const upk_run_arg *a, unsigned t, upk_gen *g);

/* device_checks.c: the checks, on the device, and their reports. */

/** Hash every `in` buffer of b->dev into `out`. */
int upk_krun_hash_inputs(upk_krun *k, upk_krun_bufs *b, uint64_t *out);
/** `in` buffers must hash as they did before the launch; a change is
 * reported with its first element (before, after). */
int upk_krun_inputs_intact(upk_krun *k, upk_krun_bufs *b, unsigned t);
/** Output i after runs A (b->ga) and B (b->dev): unwritten, nondeterministic,
 * then against b->exp: mismatch, constant output, near-zero reference. */
int upk_krun_check_output(upk_krun *k, upk_krun_bufs *b, size_t i, unsigned t);
/** Output i (b->dev) against b->exp after the timed launches. */
int upk_krun_compare_after_timing(upk_krun *k, upk_krun_bufs *b, size_t i);
/** The input set timed launch n gets (a trial's). */
unsigned upk_krun_set_of(const upk_krun *k, unsigned n);
/** The candidate's timed launches' hashes: zeroed device slots for all of
 * them (none unless `hashed`); launch n's queued after its stop event with
 * ev2 recorded after them; their device time added to k->hash_ms (before ev1
 * is recorded again); every launch's checked once after the last. */
int upk_krun_hash_slots(upk_krun *k, bool hashed, upk_cu_ptr *slots);
int upk_krun_queue_hashes(upk_krun *k, upk_krun_bufs *b, upk_cu_ptr slots, unsigned n);
int upk_krun_add_hash_time(upk_krun *k, upk_krun_bufs *b);
int upk_krun_timed_as_checked(upk_krun *k, upk_cu_ptr slots);

/* device_mem.c: guarded device buffers. */

/** `bytes` of device memory between two guard zones; waits (up to
 * UPK_RUN_MEM_WAIT_MS, moving the deadline) while other runs hold the memory.
 * Returns 0 with the usable address in `user`, or a diagnosed -errno
 * (run/out-of-memory, run/cuda-error). */
int upk_krun_alloc(upk_krun *k, size_t bytes, const char *name, upk_cu_ptr *user);
/** Wait (as upk_krun_alloc does) until `need` bytes are free on the device. */
int upk_krun_admit(upk_krun *k, size_t need);
/** Free (nothing after a sticky error) and zero `*user`. */
void upk_krun_free(upk_krun *k, upk_cu_ptr *user);
/** Fill both guard zones of a buffer of `bytes` with `sentinel`. */
int upk_krun_guard_fill(upk_krun *k, upk_cu_ptr user, size_t bytes, unsigned char sentinel);
/** Copy both zones back and scan them: 0 intact, 1 a write was found (one
 * run/out-of-bounds-write per side naming `kernel` and `when`), -errno. */
int upk_krun_guard_check(upk_krun *k, upk_cu_ptr user, const upk_run_arg *a, unsigned char sentinel,
                         const char *kernel, const char *when);

#endif
