/* The device engine of the "run" op: per trial, fresh inputs generated on
 * the device (devkernels.h) in fresh guarded buffers (device_mem.c); the reference
 * first, then the candidate twice (outputs poisoned with pattern A, then
 * B; guard zones with sentinel A, then B), inputs hashed before and after;
 * one pass of the check kernel per output; then timing with events,
 * warmup, an L2 flush before every timed launch, and a re-check of the
 * output and the guard zones after timing. No full buffer crosses to the
 * host except data files the request names: a failure report copies back
 * the elements it quotes (device_checks.c). Every launch is waited for by
 * polling against the run's deadline, so a hung kernel cannot hold the
 * worker past it. */
#include "gpu/run/device.h"
#include "gpu/run/mutant.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "gpu/run/runplan.h"

#define L2_FLUSH_BYTES ((size_t)256 << 20)

int upk_krun_cu_fail(upk_krun *k, upk_cu_result e, const char *what) {
  char why[300];
  upk_cu_describe(k->drv, e, why, sizeof why);
  if (upk_cu_is_sticky(e)) {
    k->fatal = true;
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/crash", "upskilld-run", k->at,
                  "%s failed: %s; the CUDA context is now unusable and the worker process ends "
                  "(sanitizer: memcheck finds the faulting access)",
                  what, why);
  } else {
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/cuda-error", "upskilld-run", k->at, "%s failed: %s",
                  what, why);
  }
  return -EIO;
}

size_t upk_krun_arg_bytes(const upk_run_arg *a) {
  return a->is_buffer ? a->count * upk_dtype_size(a->dtype) : 0;
}

bool upk_krun_is_output(const upk_run_arg *a) {
  return a->is_buffer && a->role != UPK_ROLE_IN;
}

static bool has_reference(const upk_krun *k) {
  return k->s->ref.kind != UPK_REF_NONE;
}

/* ---- buffers ------------------------------------------------------------ */

static void *zalloc(size_t n, size_t size, int *rc) {
  void *p = upk_xcalloc(n ? n : 1, size ? size : 1);
  return p;
}

static int host_alloc(upk_krun *k, upk_krun_bufs *b) {
  size_t n = k->s->n_args;
  int rc = 0;
  b->dev = zalloc(n, sizeof *b->dev, &rc), b->rdev = zalloc(n, sizeof *b->rdev, &rc);
  b->exp = zalloc(n, sizeof *b->exp, &rc), b->ga = zalloc(n, sizeof *b->ga, &rc);
  b->file = zalloc(n, sizeof(void *), &rc);
  b->hash = zalloc(n, sizeof *b->hash, &rc), b->scal = zalloc(n, sizeof *b->scal, &rc);
  b->kp = zalloc(n, sizeof(void *), &rc), b->rkp = zalloc(n, sizeof(void *), &rc);
  for (size_t i = 0; !rc && i < n; i++) {
    const upk_run_arg *a = &k->s->args[i];
    b->kp[i] = a->is_buffer ? (void *)&b->dev[i] : (void *)&b->scal[i];
    b->rkp[i] = a->is_buffer ? (void *)&b->rdev[i] : (void *)&b->scal[i];
    if (!a->is_buffer)
      upk_elem_set(&b->scal[i], a->dtype, 0, a->value);
  }
  return rc;
}

static void free_all(upk_krun *k, upk_cu_ptr *dev) {
  for (size_t i = 0; dev && i < k->s->n_args; i++)
    upk_krun_free(k, &dev[i]);
}

static void host_free(upk_krun *k, upk_krun_bufs *b) {
  free_all(k, b->dev), free_all(k, b->rdev), free_all(k, b->exp), free_all(k, b->ga);
  upk_krun_free(k, &b->res);
  for (size_t i = 0; b->file && i < k->s->n_args; i++)
    free(b->file[i]);
  free(b->dev), free(b->rdev), free(b->exp), free(b->ga), free(b->file);
  free(b->hash), free(b->scal), free(b->kp), free(b->rkp);
}

/* Raw little-endian elements from a file that must hold exactly `bytes`. */
static int read_raw(upk_krun *k, const char *path, void *dst, size_t bytes, const char *code,
                    const char *what) {
  /* Never a FIFO, never more than asked for plus one byte (common/fileio.h). */
  size_t got = 0;
  char *data = upk_read_file(path, bytes, &got);
  int err = data ? 0 : errno;
  if (data && got == bytes)
    memcpy(dst, data, bytes);
  free(data);
  if (data && got == bytes)
    return 0;
  upk_diags_add(k->diags, UPK_SEV_ERROR, code, "upskilld-run", k->at,
                data || err == EFBIG
                    ? "%s: %s must hold exactly %zu bytes (raw little-endian elements)"
                    : "%s: cannot read %s",
                what, path, bytes);
  return -EINVAL;
}

/* Data files: input files kept on the host (uploaded per trial), the
 * expected-output file uploaded once into exp. */
static int read_files(upk_krun *k, upk_krun_bufs *b) {
  int rc = 0;
  for (size_t i = 0; !rc && i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    char what[96];
    snprintf(what, sizeof what, "run.args[%zu].init.file", i);
    if (!a->is_buffer || a->role == UPK_ROLE_OUT || a->init.kind != UPK_INIT_FILE)
      continue;
    b->file[i] = zalloc(1, upk_krun_arg_bytes(a), &rc);
    if (!rc)
      rc = read_raw(k, a->init.file, b->file[i], upk_krun_arg_bytes(a), "run/input-file", what);
  }
  for (size_t i = 0; !rc && k->s->ref.kind == UPK_REF_FILE && i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    if (!upk_krun_is_output(a))
      continue;
    size_t bytes = upk_krun_arg_bytes(a);
    void *host = upk_xmalloc(bytes ? bytes : 1);
    rc = host ? read_raw(k, k->s->ref.file, host, bytes, "run/expected-file", "run.reference.file")
              : -ENOMEM;
    upk_cu_result e = 0;
    if (!rc && !(rc = upk_krun_alloc(k, bytes, a->name, &b->exp[i])) &&
        (e = k->drv->cu.MemcpyHtoD(b->exp[i], host, bytes)))
      rc = upk_krun_cu_fail(k, e, "copying the expected output to the device");
    free(host);
    break; /* the one output */
  }
  return rc;
}

/* A PyTorch reference's tensors of trial t, through the run's feed
 * (device.h): its inputs into host copies that prepare() uploads like input
 * files (and first_changed compares with), its expected outputs onto the
 * device as exp, as read_files does for an expected-output file. */
static int feed_trial(upk_krun *k, upk_krun_bufs *b, unsigned t) {
  int rc = 0;
  for (size_t i = 0; !rc && i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t bytes = upk_krun_arg_bytes(a);
    if (!a->is_buffer || a->role == UPK_ROLE_OUT || a->init.kind != UPK_INIT_FEED)
      continue;
    if (!b->file[i])
      b->file[i] = zalloc(1, bytes, &rc);
    if (!rc && (!k->feed || k->feed(k->feed_ctx, t, i, b->file[i], bytes, false)))
      rc = -EINVAL; /* the feed diagnosed it */
  }
  if (rc || k->s->ref.kind != UPK_REF_PYTORCH)
    return rc;
  free_all(k, b->exp);
  for (size_t i = 0; !rc && i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t bytes = upk_krun_arg_bytes(a);
    if (!upk_krun_is_output(a))
      continue;
    void *host = upk_xmalloc(bytes ? bytes : 1);
    rc = !host ? -ENOMEM : !k->feed || k->feed(k->feed_ctx, t, i, host, bytes, true) ? -EINVAL : 0;
    upk_cu_result e = 0;
    if (!rc && !(rc = upk_krun_alloc(k, bytes, a->name, &b->exp[i])) &&
        (e = k->drv->cu.MemcpyHtoD(b->exp[i], host, bytes)))
      rc = upk_krun_cu_fail(k, e, "copying the PyTorch reference's output to the device");
    free(host);
  }
  return rc;
}

/* The fill of input `a` in trial t. With an expected-output file the inputs
 * must be the ones that file was made from, so every trial uses trial 0's. */
void upk_krun_gen_of(const upk_krun *k, const upk_run_arg *a, unsigned t, upk_gen *g) {
  unsigned trial = k->s->ref.kind == UPK_REF_FILE ? 0 : t;
  if (a->init.kind == UPK_INIT_VALUE) /* varied per set: a kernel must read it (runplan.h) */
    upk_gen_value_of(g, upk_run_set_value(a, trial));
  else
    upk_gen_random(g, a->dtype, upk_run_set_seed(k->s, a, trial), a->init.low, a->init.high);
}

static int alloc_all(upk_krun *k, upk_cu_ptr *dev) {
  int rc = 0;
  for (size_t i = 0; !rc && i < k->s->n_args; i++)
    if (k->s->args[i].is_buffer)
      rc = upk_krun_alloc(k, upk_krun_arg_bytes(&k->s->args[i]), k->s->args[i].name, &dev[i]);
  return rc;
}

/* Inputs of trial t in, outputs poisoned with `pattern` (A: a 0xFF memset;
 * B: the fill kernel), every guard zone with the pattern's sentinel. */
static int prepare(upk_krun *k, upk_krun_bufs *b, upk_cu_ptr *dev, int pattern, unsigned t) {
  const upk_cu_api *cu = &k->drv->cu;
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t bytes = upk_krun_arg_bytes(a);
    upk_cu_result e = 0;
    upk_gen g;
    if (!a->is_buffer)
      continue;
    if (b->file[i]) {
      e = cu->MemcpyHtoD(dev[i], b->file[i], bytes);
    } else if (a->role != UPK_ROLE_OUT) {
      upk_krun_gen_of(k, a, t, &g);
      e = upk_kgen_fill_random(k->gen, dev[i], a->dtype, a->count, &g);
    } else if (k->outputs_unset || upk_mutant("poison")) {
      e = 0;
    } else if (pattern == 0) {
      e = cu->MemsetD8(dev[i], 0xFF, bytes);
    } else {
      uint64_t pat = 0;
      upk_poison(&pat, a->dtype, 1, 1);
      e = upk_kgen_fill_pattern(k->gen, dev[i], a->count, upk_dtype_size(a->dtype), pat);
    }
    if (e)
      return upk_krun_cu_fail(k, e, "preparing the arguments on the device");
    int rc = upk_krun_guard_fill(k, dev[i], bytes, pattern ? UPK_GUARD_B : UPK_GUARD_A);
    if (rc)
      return rc;
  }
  return 0;
}

/* Every buffer's guard zones after `l` ran; 1 when a write was found. */
static int guards_intact(upk_krun *k, upk_cu_ptr *dev, const upk_krun_launch *l, int pattern,
                         const char *when) {
  int found = 0;
  for (size_t i = 0; i < k->s->n_args; i++) {
    if (!k->s->args[i].is_buffer)
      continue;
    int rc = upk_krun_guard_check(k, dev[i], &k->s->args[i], pattern ? UPK_GUARD_B : UPK_GUARD_A,
                                  l->name, when);
    if (rc < 0)
      return rc;
    found |= rc;
  }
  return found;
}

/* ---- launching ---------------------------------------------------------- */

static int launch_refused(upk_krun *k, const upk_krun_launch *l, upk_cu_result e) {
  unsigned threads = l->block[0] * l->block[1] * l->block[2];
  char why[300];
  upk_cu_describe(k->drv, e, why, sizeof why);
  if (e == UPK_CU_LAUNCH_OUT_OF_RESOURCES)
    return upk_diags_add(k->diags, UPK_SEV_ERROR, "run/too-many-resources", "upskilld-run", k->at,
                         "'%s' cannot launch: %s; %d registers per thread x %u threads = %lld "
                         "registers per block (an SM has 65536): use smaller blocks or "
                         "__launch_bounds__(%u)",
                         l->name, why, l->regs, threads, (long long)l->regs * threads, threads),
           -EIO;
  if (e == UPK_CU_INVALID_VALUE)
    return upk_diags_add(k->diags, UPK_SEV_ERROR, "run/launch-config", "upskilld-run", k->at,
                         "'%s' launch refused: %s; grid %ux%ux%u, block %ux%ux%u (%u threads), "
                         "%zu bytes of dynamic shared memory",
                         l->name, why, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                         l->block[2], threads, l->smem),
           -EIO;
  char what[160];
  snprintf(what, sizeof what, "launching '%s'", l->name);
  return upk_krun_cu_fail(k, e, what);
}

/* Launch, then wait for it against the deadline; `ms` (may be NULL) gets the
 * event-timed duration. */
static int launch(upk_krun *k, upk_krun_bufs *b, const upk_krun_launch *l, void **kp, float *ms) {
  const upk_cu_api *cu = &k->drv->cu;
  upk_cu_result e = cu->EventRecord(b->ev0, NULL);
  if (!e)
    e = cu->LaunchKernel(l->fn, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                         l->block[2], (unsigned)l->smem, NULL, kp, NULL);
  if (e)
    return launch_refused(k, l, e);
  if ((e = cu->EventRecord(b->ev1, NULL)))
    return upk_krun_cu_fail(k, e, "cuEventRecord");
  e = upk_cu_wait(k->drv, b->ev1, k->deadline);
  if (e == UPK_CU_NOT_READY) {
    k->fatal = true; /* it is still running: only ending the process stops it */
    return upk_diags_add(k->diags, UPK_SEV_ERROR, "run/timeout", "upskilld-run", k->at,
                         "'%s' was still running at the %u ms deadline (an endless loop, a "
                         "deadlock, or too slow); the worker process ends to stop it",
                         l->name, k->s->timeout_ms),
           -ETIMEDOUT;
  }
  char what[160];
  snprintf(what, sizeof what, "running '%s'", l->name);
  if (e)
    return upk_krun_cu_fail(k, e, what);
  if (ms && (e = cu->EventElapsedTime(ms, b->ev0, b->ev1)))
    return upk_krun_cu_fail(k, e, "cuEventElapsedTime");
  return 0;
}

/* Launch and scan the guard zones; a write outside them ends the trial. */
static int launch_checked(upk_krun *k, upk_krun_bufs *b, const upk_krun_launch *l, upk_cu_ptr *dev,
                          void **kp, int pattern, unsigned t) {
  char when[64];
  int rc = launch(k, b, l, kp, NULL);
  snprintf(when, sizeof when, "in trial %u, run %c", t, pattern ? 'B' : 'A');
  if (!rc && (rc = guards_intact(k, dev, l, pattern, when)) > 0)
    rc = -EFAULT;
  return rc;
}

/* ---- trials ------------------------------------------------------------- */

static size_t errors(const upk_krun *k) {
  return upk_diags_count(k->diags, UPK_SEV_ERROR);
}

/* The reference on trial t's inputs; its outputs stay on the device as exp.
 * Another kind of reference (a host program, PyTorch) plugs in here: the
 * inputs of trial t are upk_krun_gen_of + upk_gen_fill on the host (or
 * b->file), and its expected outputs go to b->exp[i] (upk_krun_alloc, then
 * cuMemcpyHtoD), as read_files does for an expected-output file. */
static int reference_run(upk_krun *k, upk_krun_bufs *b, unsigned t) {
  free_all(k, b->exp);
  int rc = alloc_all(k, b->rdev);
  if (!rc && !(rc = prepare(k, b, b->rdev, 0, t)))
    rc = launch_checked(k, b, &k->ref, b->rdev, b->rkp, 0, t);
  for (size_t i = 0; !rc && i < k->s->n_args; i++)
    if (upk_krun_is_output(&k->s->args[i]))
      b->exp[i] = b->rdev[i], b->rdev[i] = 0;
  free_all(k, b->rdev);
  return rc;
}

/* Run A's outputs, kept on the device while run B reuses the buffers. */
static int keep_run_a(upk_krun *k, upk_krun_bufs *b) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    if (!upk_krun_is_output(a))
      continue;
    int rc = upk_krun_alloc(k, upk_krun_arg_bytes(a), a->name, &b->ga[i]);
    upk_cu_result e = rc ? 0 : k->drv->cu.MemcpyDtoD(b->ga[i], b->dev[i], upk_krun_arg_bytes(a));
    if (rc || (rc = e ? upk_krun_cu_fail(k, e, "keeping the first run's output") : 0))
      return rc;
  }
  return 0;
}

static upk_cu_ptr hash_scratch(const upk_krun_bufs *b) {
  return b->res + UPK_KG_SLOTS * sizeof(uint64_t); /* as device_checks.c's */
}

/* Set t's hashes once trial t passed: its inputs (b->hash, as generated) and
 * the outputs run B left, which were just checked against the reference. */
static int keep_set_hashes(upk_krun *k, upk_krun_bufs *b, unsigned t) {
  uint64_t *h = &k->set_hash[(size_t)t * k->s->n_args];
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    upk_cu_result e = 0;
    if (a->is_buffer && a->role == UPK_ROLE_IN)
      h[i] = b->hash[i];
    else if (upk_krun_is_output(a))
      e = upk_kgen_hash(k->gen, b->dev[i], upk_krun_arg_bytes(a), hash_scratch(b), &h[i]);
    if (e)
      return upk_krun_cu_fail(k, e, "hashing a checked output");
  }
  return 0;
}

static int run_trial(upk_krun *k, upk_krun_bufs *b, unsigned t) {
  int rc = feed_trial(k, b, t);
  if (!rc && k->has_ref_kernel)
    rc = reference_run(k, b, t);
  if (!rc && !(rc = alloc_all(k, b->dev)) && !(rc = prepare(k, b, b->dev, 0, t)) &&
      !(rc = upk_krun_hash_inputs(k, b, b->hash)) &&
      !(rc = launch_checked(k, b, &k->cand, b->dev, b->kp, 0, t)) &&
      !(rc = upk_krun_inputs_intact(k, b, t)) && !(rc = keep_run_a(k, b)) &&
      !(rc = prepare(k, b, b->dev, 1, t)) &&
      !(rc = launch_checked(k, b, &k->cand, b->dev, b->kp, 1, t)) &&
      !(rc = upk_krun_inputs_intact(k, b, t))) /* run B may write an input run A left alone */
    for (size_t i = 0; !rc && i < k->s->n_args; i++)
      if (upk_krun_is_output(&k->s->args[i]))
        rc = upk_krun_check_output(k, b, i, t);
  if (!rc)
    rc = keep_set_hashes(k, b, t);
  free_all(k, b->dev);
  free_all(k, b->ga);
  k->trials_run += rc == 0;
  return rc == -EFAULT ? 0 : rc; /* a guard-zone finding is a diagnosed verdict */
}

/* ---- timing ------------------------------------------------------------- */

/* The trial whose inputs timed launch n gets: set n % sets; with a PyTorch
 * reference (one set) the last trial's, whose tensors the feed holds. */
unsigned upk_krun_set_of(const upk_krun *k, unsigned n) {
  return k->s->ref.kind == UPK_REF_PYTORCH ? k->trials - 1 : n % k->sets;
}

/* Launch n's inputs: set n % sets, generated afresh (inout buffers too, so
 * each launch starts from its set's contents), outputs poisoned. Outside the
 * timed span, before the L2 flush. */
static int prepare_launch(upk_krun *k, upk_krun_bufs *b, upk_cu_ptr *dev, unsigned n) {
  return prepare(k, b, dev, 0, upk_krun_set_of(k, n));
}

static int time_kernel(upk_krun *k, upk_krun_bufs *b, const upk_krun_launch *l, upk_cu_ptr *dev,
                       void **kp, upk_cu_ptr flush, size_t flush_bytes, upk_stats *out) {
  const upk_cu_api *cu = &k->drv->cu;
  bool cand = l == &k->cand && !upk_mutant("timed-hash");
  upk_cu_ptr slots = 0;
  double *ms = upk_xcalloc(k->s->iterations, sizeof *ms);
  int rc = ms ? upk_krun_hash_slots(k, cand, &slots) : -ENOMEM;
  for (unsigned w = 0; !rc && w < k->s->warmup; w++)
    if (!(rc = prepare_launch(k, b, dev, w)))
      rc = launch(k, b, l, kp, NULL);
  if (cand)
    k->hash_ms = 0;
  for (unsigned i = 0; !rc && i < k->s->iterations; i++) {
    float t = 0;
    upk_cu_result e = 0;
    if ((rc = prepare_launch(k, b, dev, i)) || (i && cand && (rc = upk_krun_add_hash_time(k, b))))
      break;
    if (flush && (e = cu->MemsetD8Async(flush, (unsigned char)i, flush_bytes, NULL)))
      rc = upk_krun_cu_fail(k, e, "preparing a timed launch");
    else if (!(rc = launch(k, b, l, kp, &t)))
      ms[i] = t;
    if (!rc && cand)
      rc = upk_krun_queue_hashes(k, b, slots, i);
  }
  if (!rc && cand && k->s->iterations && !(rc = upk_krun_add_hash_time(k, b)))
    rc = upk_krun_timed_as_checked(k, slots);
  if (slots && !k->fatal)
    cu->MemFree(slots);
  /* The guard zones once after all timed launches: outside every timed region. */
  if (!rc && (rc = guards_intact(k, dev, l, 0, "while timed")) > 0)
    rc = -EFAULT;
  if (!rc)
    rc = upk_stats_of(ms, k->s->iterations, out);
  free(ms);
  return rc;
}

/* A flush buffer of at least 256 MB and twice the L2; none is a warning. */
static upk_cu_ptr flush_buffer(upk_krun *k, size_t *bytes) {
  upk_cu_ptr p = 0;
  *bytes = L2_FLUSH_BYTES;
  if ((size_t)k->drv->l2_bytes * 2 > *bytes)
    *bytes = (size_t)k->drv->l2_bytes * 2;
  if (k->drv->cu.MemAlloc(&p, *bytes) == UPK_CU_SUCCESS)
    return p;
  upk_diags_add(k->diags, UPK_SEV_WARNING, "run/no-l2-flush", "upskilld-run", k->at,
                "no room for the %zu MB L2-flush buffer: timings are with a warm L2", *bytes >> 20);
  return 0;
}

static int time_all(upk_krun *k, upk_krun_bufs *b) {
  size_t flush_bytes = 0, before = errors(k);
  upk_cu_ptr flush = flush_buffer(k, &flush_bytes);
  k->l2_flushed = flush != 0;
  int rc = alloc_all(k, b->dev);
  if (!rc && !(rc = time_kernel(k, b, &k->cand, b->dev, b->kp, flush, flush_bytes, &k->tk)))
    k->timed = true;
  /* Re-check the last launch with tolerance too, when its set is the last
   * trial's (exp holds that trial's expected outputs); inout buffers included,
   * since each launch started from its set's contents. */
  bool last_set = upk_krun_set_of(k, k->s->iterations - 1) == k->trials - 1;
  for (size_t i = 0; !rc && has_reference(k) && last_set && i < k->s->n_args; i++)
    if (upk_krun_is_output(&k->s->args[i]))
      rc = upk_krun_compare_after_timing(k, b, i);
  free_all(k, b->dev);
  if (!rc && errors(k) == before && k->has_ref_kernel && !(rc = alloc_all(k, b->rdev)) &&
      !(rc = time_kernel(k, b, &k->ref, b->rdev, b->rkp, flush, flush_bytes, &k->tr)))
    k->ref_timed = true;
  free_all(k, b->rdev);
  if (flush && !k->fatal)
    k->drv->cu.MemFree(flush);
  return rc == -EFAULT ? 0 : rc;
}

/* The most device memory a run holds at once: the candidate's arguments
 * with the expected outputs and run A's copies, the flush buffer, and every
 * guard zone. */
static size_t peak_bytes(const upk_krun *k) {
  size_t in = 0, out = 0, n = 0;
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    n += a->is_buffer;
    if (upk_krun_is_output(a))
      out += upk_krun_arg_bytes(a);
    else
      in += upk_krun_arg_bytes(a);
  }
  return in + 3 * out + L2_FLUSH_BYTES + 3 * n * 2 * k->guard;
}

/* The rotation (runplan.h): sets bounded by a quarter of the free device
 * memory, one correctness trial per set. */
static int plan_sets(upk_krun *k) {
  size_t free_b = 0, total_b = 0;
  upk_run_plan p;
  if (k->drv->cu.MemGetInfo(&free_b, &total_b))
    free_b = 0;
  upk_run_plan_of(k->s, free_b / 4, &p);
  k->sets = p.sets, k->trials = p.trials;
  k->set_hash = upk_xcalloc((size_t)p.trials * (k->s->n_args + 1), sizeof *k->set_hash);
  return k->set_hash ? 0 : -ENOMEM;
}

int upk_krun_execute(upk_krun *k) {
  upk_krun_bufs b = {0};
  size_t before = errors(k);
  int rc = upk_krun_admit(k, peak_bytes(k));
  if (!rc)
    rc = host_alloc(k, &b);
  if (!rc)
    rc = read_files(k, &b);
  if (!rc)
    rc = upk_krun_alloc(k, (UPK_KG_SLOTS + 1) * sizeof(uint64_t), "the check results", &b.res);
  upk_cu_result e = 0;
  if (!rc && ((e = k->drv->cu.EventCreate(&b.ev0, 0)) || (e = k->drv->cu.EventCreate(&b.ev1, 0)) ||
              (e = k->drv->cu.EventCreate(&b.ev2, 0))))
    rc = upk_krun_cu_fail(k, e, "cuEventCreate");
  if (!rc)
    rc = plan_sets(k);
  for (unsigned t = 0; !rc && t < k->trials && errors(k) == before; t++)
    rc = run_trial(k, &b, t);
  if (!rc && errors(k) == before)
    rc = time_all(k, &b);
  if (!k->fatal && b.ev0)
    k->drv->cu.EventDestroy(b.ev0);
  if (!k->fatal && b.ev1)
    k->drv->cu.EventDestroy(b.ev1);
  if (!k->fatal && b.ev2)
    k->drv->cu.EventDestroy(b.ev2);
  host_free(k, &b);
  free(k->set_hash);
  k->set_hash = NULL;
  return rc;
}
