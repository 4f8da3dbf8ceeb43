/* The device engine of the "run" op: per trial, fresh inputs and fresh
 * device buffers; the reference first, then the candidate twice (outputs
 * poisoned with pattern A, then B), inputs hashed after; then timing with
 * events, warmup, an L2 flush before every timed launch, and a re-check of
 * the output after timing. Every launch is waited for by polling against
 * the run's deadline, so a hung kernel cannot hold the worker past it. */
#include "krun_dev.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define L2_FLUSH_BYTES ((size_t)256 << 20)

/* Host and device state of one execute call; arrays are per argument. */
typedef struct bufs {
  void **in, **exp, **ga, **gb;
  unsigned char (*hash)[32];
  void *scratch; /* the largest buffer: pattern B source, downloaded inputs */
  upk_cu_ptr *dev, *rdev;
  uint64_t *scal; /* scalar values, little-endian in the low bytes */
  void **kp, **rkp;
  upk_cu_handle ev0, ev1;
} bufs;

static size_t arg_bytes(const upk_run_arg *a) {
  return a->is_buffer ? a->count * upk_dtype_size(a->dtype) : 0;
}

static bool is_output(const upk_run_arg *a) {
  return a->is_buffer && a->role != UPK_ROLE_IN;
}

static bool has_reference(const upk_krun *k) {
  return k->s->ref.kind != UPK_REF_NONE;
}

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

/* ---- buffers ------------------------------------------------------------ */

static void *zalloc(size_t n, size_t size, int *rc) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    *rc = -ENOMEM;
  return p;
}

static int host_alloc(upk_krun *k, bufs *b) {
  size_t n = k->s->n_args, big = 1;
  int rc = 0;
  b->in = zalloc(n, sizeof(void *), &rc), b->exp = zalloc(n, sizeof(void *), &rc);
  b->ga = zalloc(n, sizeof(void *), &rc), b->gb = zalloc(n, sizeof(void *), &rc);
  b->hash = zalloc(n, sizeof *b->hash, &rc), b->scal = zalloc(n, sizeof *b->scal, &rc);
  b->dev = zalloc(n, sizeof *b->dev, &rc), b->rdev = zalloc(n, sizeof *b->rdev, &rc);
  b->kp = zalloc(n, sizeof(void *), &rc), b->rkp = zalloc(n, sizeof(void *), &rc);
  for (size_t i = 0; !rc && i < n; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t bytes = arg_bytes(a);
    big = bytes > big ? bytes : big;
    b->kp[i] = a->is_buffer ? (void *)&b->dev[i] : (void *)&b->scal[i];
    b->rkp[i] = a->is_buffer ? (void *)&b->rdev[i] : (void *)&b->scal[i];
    if (!a->is_buffer)
      upk_elem_set(&b->scal[i], a->dtype, 0, a->value);
    if (a->is_buffer && a->role != UPK_ROLE_OUT)
      b->in[i] = zalloc(1, bytes, &rc);
    if (is_output(a)) {
      b->exp[i] = zalloc(1, bytes, &rc);
      b->ga[i] = zalloc(1, bytes, &rc);
      b->gb[i] = zalloc(1, bytes, &rc);
    }
  }
  if (!rc)
    b->scratch = zalloc(1, big, &rc);
  return rc;
}

static void host_free(const upk_krun *k, bufs *b) {
  for (size_t i = 0; b->in && i < k->s->n_args; i++) {
    free(b->in[i]), free(b->exp[i]), free(b->ga[i]), free(b->gb[i]);
  }
  free(b->in), free(b->exp), free(b->ga), free(b->gb), free(b->hash), free(b->scal);
  free(b->dev), free(b->rdev), free(b->kp), free(b->rkp), free(b->scratch);
}

/* Raw little-endian elements from a file that must hold exactly `bytes`. */
static int read_raw(upk_krun *k, const char *path, void *dst, size_t bytes, const char *code,
                    const char *what) {
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(dst, 1, bytes, f) : 0;
  int extra = f ? fgetc(f) : EOF;
  if (f)
    fclose(f);
  if (f && got == bytes && extra == EOF)
    return 0;
  upk_diags_add(k->diags, UPK_SEV_ERROR, code, "upskilld-run", k->at,
                f ? "%s: %s must hold exactly %zu bytes (raw little-endian elements)"
                  : "%s: cannot read %s",
                what, path, bytes);
  return -EINVAL;
}

static const upk_run_arg *the_output(const upk_krun *k, size_t *index) {
  for (size_t i = 0; i < k->s->n_args; i++)
    if (is_output(&k->s->args[i]))
      return *index = i, &k->s->args[i];
  return NULL;
}

/* Inputs of trial t. With an expected-output file the inputs must be the
 * ones that file was made from, so every trial uses trial 0's. */
static int make_inputs(upk_krun *k, bufs *b, unsigned t) {
  unsigned trial = k->s->ref.kind == UPK_REF_FILE ? 0 : t;
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    char what[96];
    if (!b->in[i])
      continue;
    snprintf(what, sizeof what, "run.args[%zu].init.file", i);
    if (a->init.kind == UPK_INIT_RANDOM)
      upk_fill_random(b->in[i], a->dtype, a->count, upk_trial_seed(a->init.seed, trial),
                      a->init.low, a->init.high);
    else if (a->init.kind == UPK_INIT_VALUE)
      upk_fill_value(b->in[i], a->dtype, a->count, a->init.value);
    else if (a->init.kind == UPK_INIT_FEED) {
      if (!k->feed || k->feed(k->feed_ctx, t, i, b->in[i], arg_bytes(a), false))
        return -EINVAL;
    } else if (t == 0 && read_raw(k, a->init.file, b->in[i], arg_bytes(a), "run/input-file", what))
      return -EINVAL;
    if (a->role == UPK_ROLE_IN && upk_sha256(b->in[i], arg_bytes(a), b->hash[i]))
      return -EIO;
  }
  for (size_t i = 0; k->feed && k->s->ref.kind == UPK_REF_PYTORCH && i < k->s->n_args; i++)
    if (is_output(&k->s->args[i]) &&
        k->feed(k->feed_ctx, t, i, b->exp[i], arg_bytes(&k->s->args[i]), true))
      return -EINVAL;
  return 0;
}

static int dev_alloc(upk_krun *k, upk_cu_ptr *dev) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    upk_cu_result e = a->is_buffer ? k->drv->cu.MemAlloc(&dev[i], arg_bytes(a)) : 0;
    if (e) {
      char what[96];
      snprintf(what, sizeof what, "cuMemAlloc of %zu bytes for '%s'", arg_bytes(a), a->name);
      return upk_krun_cu_fail(k, e, what);
    }
  }
  return 0;
}

static void dev_free(upk_krun *k, upk_cu_ptr *dev) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    if (dev[i] && !k->fatal) /* after a sticky error every call fails: leave it to exit */
      k->drv->cu.MemFree(dev[i]);
    dev[i] = 0;
  }
}

/* Inputs in, outputs poisoned with `pattern` (A: a 0xFF memset; B: a copy). */
static int upload(upk_krun *k, bufs *b, upk_cu_ptr *dev, int pattern) {
  const upk_cu_api *cu = &k->drv->cu;
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t bytes = arg_bytes(a);
    upk_cu_result e = 0;
    if (b->in[i]) {
      e = cu->MemcpyHtoD(dev[i], b->in[i], bytes);
    } else if (a->is_buffer && pattern == 0) {
      e = cu->MemsetD8(dev[i], 0xFF, bytes);
    } else if (a->is_buffer) {
      upk_poison(b->scratch, a->dtype, a->count, 1);
      e = cu->MemcpyHtoD(dev[i], b->scratch, bytes);
    }
    if (e)
      return upk_krun_cu_fail(k, e, "copying the arguments to the device");
  }
  return 0;
}

static int download(upk_krun *k, upk_cu_ptr *dev, void **dst) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    upk_cu_result e = dst[i] ? k->drv->cu.MemcpyDtoH(dst[i], dev[i], arg_bytes(&k->s->args[i])) : 0;
    if (e)
      return upk_krun_cu_fail(k, e, "copying the results back");
  }
  return 0;
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
static int launch(upk_krun *k, bufs *b, const upk_krun_launch *l, void **kp, float *ms) {
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

/* ---- checks ------------------------------------------------------------- */

/* Inputs declared `in` must come back with the hash they went in with. */
static int inputs_intact(upk_krun *k, bufs *b, unsigned t) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    unsigned char h[32];
    if (!a->is_buffer || a->role != UPK_ROLE_IN)
      continue;
    upk_cu_result e = k->drv->cu.MemcpyDtoH(b->scratch, b->dev[i], arg_bytes(a));
    if (e)
      return upk_krun_cu_fail(k, e, "copying the inputs back");
    if (upk_sha256(b->scratch, arg_bytes(a), h))
      return -EIO;
    if (!memcmp(h, b->hash[i], sizeof h))
      continue;
    size_t at = upk_first_diff(b->scratch, b->in[i], a->dtype, a->count);
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/input-written", "upskilld-run", k->at,
                  "'%s' wrote to its input run.args[%zu] '%s' (role in) in trial %u: element %zu "
                  "was %g, became %g; declare it inout if that is intended",
                  k->cand.name, i, a->name, t, at, upk_elem_get(b->in[i], a->dtype, at),
                  upk_elem_get(b->scratch, a->dtype, at));
  }
  return 0;
}

static void note_worst(upk_krun *k, const upk_cmp *c, size_t arg) {
  bool first = !k->compared || (k->worst.first == SIZE_MAX && c->first != SIZE_MAX);
  k->worst.max_abs = k->compared ? fmax(k->worst.max_abs, c->max_abs) : c->max_abs;
  k->worst.max_rel = k->compared ? fmax(k->worst.max_rel, c->max_rel) : c->max_rel;
  k->worst.mismatches += c->mismatches;
  k->worst.count += c->count;
  if (first) {
    k->worst.first = c->first;
    k->worst.first_got = c->first_got;
    k->worst.first_expected = c->first_expected;
    k->worst_arg = arg;
  }
  k->compared = true;
}

/* Compare one output with the expected values; true when it matches. */
static bool compare_output(upk_krun *k, bufs *b, size_t i, const void *got, const char *when) {
  const upk_run_arg *a = &k->s->args[i];
  double atol, rtol;
  upk_cmp c;
  upk_runspec_tolerance(k->s, a->dtype, &atol, &rtol);
  upk_compare(got, b->exp[i], a->dtype, a->count, atol, rtol, &c);
  note_worst(k, &c, i);
  if (!c.mismatches)
    return true;
  upk_diags_add(k->diags, UPK_SEV_ERROR, "run/mismatch", "upskilld-run", k->at,
                "'%s' (%s): %zu of %zu elements beyond atol %g + rtol %g x |expected|; first at "
                "index %zu: got %g, expected %g (max abs error %g, max rel error %g)",
                a->name, when, c.mismatches, c.count, atol, rtol, c.first, c.first_got,
                c.first_expected, c.max_abs, c.max_rel);
  return false;
}

/* Reference outputs that sit within atol of zero cannot tell right from zeros. */
static void check_reference_scale(upk_krun *k, bufs *b, size_t i) {
  const upk_run_arg *a = &k->s->args[i];
  double atol, rtol;
  upk_runspec_tolerance(k->s, a->dtype, &atol, &rtol);
  if (a->count > 1 && atol > 0 && upk_max_abs(b->exp[i], a->dtype, a->count) <= atol)
    upk_diags_add(k->diags, UPK_SEV_WARNING, "run/reference-near-zero", "upskilld-run", k->at,
                  "the expected '%s' lies within atol %g of zero everywhere, so an all-zero "
                  "output would pass; scale the inputs or lower atol",
                  a->name, atol);
}

static void check_output(upk_krun *k, bufs *b, size_t i, unsigned t) {
  const upk_run_arg *a = &k->s->args[i];
  size_t first = SIZE_MAX, n = a->role == UPK_ROLE_OUT
                                   ? upk_unwritten(b->ga[i], b->gb[i], a->dtype, a->count, &first)
                                   : 0;
  if (n)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/unwritten-output", "upskilld-run", k->at,
                  "'%s' never wrote %zu of %zu elements of '%s' (first at index %zu): they still "
                  "hold the NaN poison",
                  k->cand.name, n, a->count, a->name, first);
  size_t d = n ? SIZE_MAX : upk_first_diff(b->ga[i], b->gb[i], a->dtype, a->count);
  if (d != SIZE_MAX)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/nondeterministic", "upskilld-run", k->at,
                  "two runs on the same inputs (trial %u) differ at '%s'[%zu]: %g, then %g "
                  "(a race, or a read of uninitialised memory)",
                  t, a->name, d, upk_elem_get(b->ga[i], a->dtype, d),
                  upk_elem_get(b->gb[i], a->dtype, d));
  if (!has_reference(k) || n)
    return;
  if (t == 0)
    check_reference_scale(k, b, i);
  char when[32];
  snprintf(when, sizeof when, "trial %u", t);
  if (compare_output(k, b, i, b->ga[i], when) && a->count > 1 &&
      upk_is_constant(b->ga[i], a->dtype, a->count) &&
      !upk_is_constant(b->exp[i], a->dtype, a->count))
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/constant-output", "upskilld-run", k->at,
                  "'%s' is the same value (%g) everywhere while the expected output is not: "
                  "the tolerance passed it, the kernel does not compute the result",
                  a->name, upk_elem_get(b->ga[i], a->dtype, 0));
}

static size_t errors(const upk_krun *k) {
  return upk_diags_count(k->diags, UPK_SEV_ERROR);
}

static int run_trial(upk_krun *k, bufs *b, unsigned t) {
  int rc = make_inputs(k, b, t);
  if (!rc && k->has_ref_kernel)
    rc = dev_alloc(k, b->rdev);
  if (!rc && k->has_ref_kernel && !(rc = upload(k, b, b->rdev, 0)) &&
      !(rc = launch(k, b, &k->ref, b->rkp, NULL)))
    rc = download(k, b->rdev, b->exp);
  dev_free(k, b->rdev);
  if (!rc && !(rc = dev_alloc(k, b->dev)) && !(rc = upload(k, b, b->dev, 0)) &&
      !(rc = launch(k, b, &k->cand, b->kp, NULL)) && !(rc = download(k, b->dev, b->ga)) &&
      !(rc = inputs_intact(k, b, t)) && !(rc = upload(k, b, b->dev, 1)) &&
      !(rc = launch(k, b, &k->cand, b->kp, NULL)))
    rc = download(k, b->dev, b->gb);
  dev_free(k, b->dev);
  for (size_t i = 0; !rc && i < k->s->n_args; i++)
    if (is_output(&k->s->args[i]))
      check_output(k, b, i, t);
  k->trials_run += rc == 0;
  return rc;
}

/* ---- timing ------------------------------------------------------------- */

static int time_kernel(upk_krun *k, bufs *b, const upk_krun_launch *l, upk_cu_ptr *dev, void **kp,
                       upk_cu_ptr flush, size_t flush_bytes, upk_stats *out) {
  const upk_cu_api *cu = &k->drv->cu;
  double *ms = calloc(k->s->iterations, sizeof *ms);
  int rc = ms ? 0 : -ENOMEM;
  for (unsigned w = 0; !rc && w < k->s->warmup; w++)
    rc = launch(k, b, l, kp, NULL);
  for (unsigned i = 0; !rc && i < k->s->iterations; i++) {
    float t = 0;
    upk_cu_result e = flush ? cu->MemsetD8Async(flush, (unsigned char)i, flush_bytes, NULL) : 0;
    for (size_t j = 0; !e && j < k->s->n_args; j++) {
      const upk_run_arg *a = &k->s->args[j];
      if (a->role == UPK_ROLE_INOUT && a->is_buffer) /* each launch sees the same inputs */
        e = cu->MemcpyHtoD(dev[j], b->in[j], arg_bytes(a));
      else if (a->role == UPK_ROLE_OUT && a->is_buffer)
        e = cu->MemsetD8Async(dev[j], 0xFF, arg_bytes(a), NULL);
    }
    if (e)
      rc = upk_krun_cu_fail(k, e, "preparing a timed launch");
    else if (!(rc = launch(k, b, l, kp, &t)))
      ms[i] = t;
  }
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

static int time_all(upk_krun *k, bufs *b) {
  size_t flush_bytes = 0, before = errors(k);
  upk_cu_ptr flush = flush_buffer(k, &flush_bytes);
  k->l2_flushed = flush != 0;
  int rc = dev_alloc(k, b->dev);
  if (!rc && !(rc = upload(k, b, b->dev, 0)) &&
      !(rc = time_kernel(k, b, &k->cand, b->dev, b->kp, flush, flush_bytes, &k->tk)))
    k->timed = true;
  /* Re-check after timing (a kernel that caches or races across launches). */
  bool has_inout = false;
  for (size_t i = 0; i < k->s->n_args; i++)
    has_inout |= k->s->args[i].is_buffer && k->s->args[i].role == UPK_ROLE_INOUT;
  if (!rc && has_reference(k) && !has_inout && !(rc = download(k, b->dev, b->ga)))
    for (size_t i = 0; i < k->s->n_args; i++)
      if (is_output(&k->s->args[i]))
        compare_output(k, b, i, b->ga[i], "after timing");
  dev_free(k, b->dev);
  if (!rc && errors(k) == before && k->has_ref_kernel && !(rc = dev_alloc(k, b->rdev)) &&
      !(rc = upload(k, b, b->rdev, 0)) &&
      !(rc = time_kernel(k, b, &k->ref, b->rdev, b->rkp, flush, flush_bytes, &k->tr)))
    k->ref_timed = true;
  dev_free(k, b->rdev);
  if (flush && !k->fatal)
    k->drv->cu.MemFree(flush);
  return rc;
}

int upk_krun_execute(upk_krun *k) {
  bufs b = {0};
  size_t before = errors(k), out = 0;
  int rc = host_alloc(k, &b);
  const upk_run_arg *o = the_output(k, &out);
  if (!rc && k->s->ref.kind == UPK_REF_FILE && o)
    rc = read_raw(k, k->s->ref.file, b.exp[out], arg_bytes(o), "run/expected-file",
                  "run.reference.file");
  upk_cu_result e = 0;
  if (!rc && ((e = k->drv->cu.EventCreate(&b.ev0, 0)) || (e = k->drv->cu.EventCreate(&b.ev1, 0))))
    rc = upk_krun_cu_fail(k, e, "cuEventCreate");
  for (unsigned t = 0; !rc && t < k->s->trials && errors(k) == before; t++)
    rc = run_trial(k, &b, t);
  if (!rc && errors(k) == before)
    rc = time_all(k, &b);
  if (!k->fatal && b.ev0)
    k->drv->cu.EventDestroy(b.ev0);
  if (!k->fatal && b.ev1)
    k->drv->cu.EventDestroy(b.ev1);
  host_free(k, &b);
  return rc;
}
