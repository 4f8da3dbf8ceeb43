/* The checks of a run, done on the device in one pass per buffer (devkernels.h),
 * and their reports: a report copies back only the elements it quotes;
 * only a changed input is searched on the host, chunk by chunk against the
 * generator's values (the failure path). The verdicts and messages are the
 * ones the host-side checks of runcheck.h define. Last, the timed launches'
 * hashes, queued after each launch and checked once after the last. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/run/device.h"
#include "gpu/run/mutant.h"
#include "gpu/run/runplan.h"
#include "common/xalloc.h"

#define CHUNK_ELEMS ((size_t)1 << 22)

static bool has_reference(const upk_krun *k) {
  return k->s->ref.kind != UPK_REF_NONE;
}

static upk_cu_ptr hash_slot(const upk_krun_bufs *b) {
  return b->res + UPK_KG_SLOTS * sizeof(uint64_t);
}

/* One element of a device buffer, as a double; NaN when it cannot be read. */
static double dev_elem(upk_krun *k, upk_cu_ptr p, upk_dtype t, size_t i) {
  uint64_t v = 0;
  size_t sz = upk_dtype_size(t);
  if (k->drv->cu.MemcpyDtoH(&v, p + i * sz, sz))
    return NAN;
  return upk_elem_get(&v, t, 0);
}

int upk_krun_hash_inputs(upk_krun *k, upk_krun_bufs *b, uint64_t *out) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    if (!a->is_buffer || a->role != UPK_ROLE_IN)
      continue;
    upk_cu_result e =
        upk_kgen_hash(k->gen, b->dev[i], upk_krun_arg_bytes(a), hash_slot(b), &out[i]);
    if (e)
      return upk_krun_cu_fail(k, e, "hashing the inputs");
  }
  return 0;
}

/* The first element of input i that differs from what trial t put there:
 * chunks copied back and compared with the file or the generator. */
static int first_changed(upk_krun *k, upk_krun_bufs *b, size_t i, unsigned t, size_t *at,
                         double *was, double *now) {
  const upk_run_arg *a = &k->s->args[i];
  size_t sz = upk_dtype_size(a->dtype), chunk = a->count < CHUNK_ELEMS ? a->count : CHUNK_ELEMS;
  void *cur = upk_xmalloc(chunk * sz), *orig = upk_xmalloc(chunk * sz);
  int rc = cur && orig ? 0 : -ENOMEM;
  upk_gen g;
  upk_krun_gen_of(k, a, t, &g);
  *at = SIZE_MAX;
  for (size_t off = 0; !rc && *at == SIZE_MAX && off < a->count; off += chunk) {
    size_t n = a->count - off < chunk ? a->count - off : chunk;
    upk_cu_result e = k->drv->cu.MemcpyDtoH(cur, b->dev[i] + off * sz, n * sz);
    if (e) {
      rc = upk_krun_cu_fail(k, e, "copying a changed input back");
      break;
    }
    if (b->file[i]) {
      memcpy(orig, (char *)b->file[i] + off * sz, n * sz);
    } else {
      g.first = off;
      upk_gen_fill(orig, a->dtype, n, &g);
    }
    size_t d = upk_first_diff(cur, orig, a->dtype, n);
    if (d != SIZE_MAX) {
      *at = off + d;
      *was = upk_elem_get(orig, a->dtype, d);
      *now = upk_elem_get(cur, a->dtype, d);
    }
  }
  free(cur);
  free(orig);
  return rc;
}

/* Inputs declared `in` must hash as they went in. */
int upk_krun_inputs_intact(upk_krun *k, upk_krun_bufs *b, unsigned t) {
  uint64_t *after = upk_xcalloc(k->s->n_args ? k->s->n_args : 1, sizeof *after);
  int rc = after ? upk_krun_hash_inputs(k, b, after) : -ENOMEM;
  for (size_t i = 0; !rc && i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    size_t at = SIZE_MAX;
    double was = 0, now = 0;
    if (!a->is_buffer || a->role != UPK_ROLE_IN || after[i] == b->hash[i] ||
        upk_mutant("input-hash"))
      continue;
    if ((rc = first_changed(k, b, i, t, &at, &was, &now)))
      break;
    if (at == SIZE_MAX) /* the hash moved, the elements did not: cannot happen */
      upk_diags_add(k->diags, UPK_SEV_ERROR, "run/input-written", "upskilld-run", k->at,
                    "'%s' changed its input run.args[%zu] '%s' (role in) in trial %u; declare "
                    "it inout if that is intended",
                    k->cand.name, i, a->name, t);
    else
      upk_diags_add(k->diags, UPK_SEV_ERROR, "run/input-written", "upskilld-run", k->at,
                    "'%s' wrote to its input run.args[%zu] '%s' (role in) in trial %u: element "
                    "%zu was %g, became %g; declare it inout if that is intended",
                    k->cand.name, i, a->name, t, at, was, now);
  }
  free(after);
  return rc;
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

static double slot_double(const uint64_t *res, int slot) {
  double d;
  memcpy(&d, &res[slot], sizeof d);
  return d;
}

/* The comparison in res as upk_compare would give it; true when it matches. */
static bool compared(upk_krun *k, size_t i, upk_cu_ptr got, upk_cu_ptr exp, const uint64_t *res,
                     const char *when) {
  const upk_run_arg *a = &k->s->args[i];
  double atol, rtol;
  upk_cmp c = {.count = a->count, .mismatches = res[UPK_KG_MISMATCHES], .first = SIZE_MAX};
  upk_runspec_tolerance(k->s, a->dtype, &atol, &rtol);
  c.max_abs = slot_double(res, UPK_KG_MAX_ABS);
  c.max_rel = slot_double(res, UPK_KG_MAX_REL);
  if (c.mismatches) {
    c.first = res[UPK_KG_FIRST_MISMATCH];
    c.first_got = dev_elem(k, got, a->dtype, c.first);
    c.first_expected = dev_elem(k, exp, a->dtype, c.first);
  }
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

static int check(upk_krun *k, upk_krun_bufs *b, size_t i, upk_cu_ptr got, upk_cu_ptr got_b,
                 int flags, uint64_t *res) {
  const upk_run_arg *a = &k->s->args[i];
  double atol, rtol;
  upk_runspec_tolerance(k->s, a->dtype, &atol, &rtol);
  upk_cu_result e = upk_kgen_check(k->gen, got, got_b, has_reference(k) ? b->exp[i] : 0, a->dtype,
                                   a->count, atol, rtol, flags, b->res, res);
  return e ? upk_krun_cu_fail(k, e, "checking the output") : 0;
}

int upk_krun_check_output(upk_krun *k, upk_krun_bufs *b, size_t i, unsigned t) {
  const upk_run_arg *a = &k->s->args[i];
  uint64_t res[UPK_KG_SLOTS];
  int flags = UPK_KG_RUNS_AB | (a->role == UPK_ROLE_OUT ? UPK_KG_UNWRITTEN_CHECK : 0) |
              (has_reference(k) ? UPK_KG_COMPARE : 0);
  int rc = check(k, b, i, b->ga[i], b->dev[i], flags, res);
  if (rc)
    return rc;
  size_t n = res[UPK_KG_UNWRITTEN], d = n ? SIZE_MAX : res[UPK_KG_FIRST_DIFF];
  if (n)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/unwritten-output", "upskilld-run", k->at,
                  "'%s' never wrote %zu of %zu elements of '%s' (first at index %zu): they still "
                  "hold the NaN poison",
                  k->cand.name, n, a->count, a->name, (size_t)res[UPK_KG_FIRST_UNWRITTEN]);
  if (d != SIZE_MAX)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/nondeterministic", "upskilld-run", k->at,
                  "two runs on the same inputs (trial %u) differ at '%s'[%zu]: %g, then %g "
                  "(a race, or a read of uninitialised memory)",
                  t, a->name, d, dev_elem(k, b->ga[i], a->dtype, d),
                  dev_elem(k, b->dev[i], a->dtype, d));
  if (!has_reference(k) || n)
    return 0;
  double atol, rtol;
  upk_runspec_tolerance(k->s, a->dtype, &atol, &rtol);
  /* Reference outputs within atol of zero cannot tell right from zeros. */
  if (t == 0 && a->count > 1 && atol > 0 && slot_double(res, UPK_KG_MAX_ABS_EXP) <= atol)
    upk_diags_add(k->diags, UPK_SEV_WARNING, "run/reference-near-zero", "upskilld-run", k->at,
                  "the expected '%s' lies within atol %g of zero everywhere, so an all-zero "
                  "output would pass; scale the inputs or lower atol",
                  a->name, atol);
  char when[32];
  snprintf(when, sizeof when, "trial %u", t);
  if (compared(k, i, b->ga[i], b->exp[i], res, when) && a->count > 1 &&
      !upk_mutant("constant-output") && res[UPK_KG_FIRST_NOT_GOT0] == UINT64_MAX &&
      res[UPK_KG_FIRST_NOT_EXP0] != UINT64_MAX)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/constant-output", "upskilld-run", k->at,
                  "'%s' is the same value (%g) everywhere while the expected output is not: "
                  "the tolerance passed it, the kernel does not compute the result",
                  a->name, dev_elem(k, b->ga[i], a->dtype, 0));
  return 0;
}

int upk_krun_compare_after_timing(upk_krun *k, upk_krun_bufs *b, size_t i) {
  uint64_t res[UPK_KG_SLOTS];
  int rc = check(k, b, i, b->dev[i], 0, UPK_KG_COMPARE, res);
  if (!rc)
    compared(k, i, b->dev[i], b->exp[i], res, "after timing");
  return rc;
}

/* ---- the timed launches' hashes ------------------------------------------ */

/* Whether timed launch n hashes buffer a: outputs (inout too) always,
 * inputs on each set's last launch (upk_run_inputs_hashed_at). */
static bool hashed_at(const upk_krun *k, const upk_run_arg *a, unsigned n) {
  return a->is_buffer &&
         (a->role != UPK_ROLE_IN || upk_run_inputs_hashed_at(k->s->iterations, k->sets, n));
}

/* After timed launch `n`: its hashed buffers' hashes queued into their slots
 * of `slots` (n_args words a launch, zeroed), read back once after the last
 * launch. The hash runs after the stop event, so it is outside the timed
 * span, and nothing waits for it, so it costs the wall time only the
 * device's read of the buffers; every launch's outputs are looked at, so
 * counting launches to cheat on the others gains nothing. */
int upk_krun_queue_hashes(upk_krun *k, upk_krun_bufs *b, upk_cu_ptr slots, unsigned n) {
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    upk_cu_ptr slot = slots + ((size_t)n * k->s->n_args + i) * sizeof(uint64_t);
    upk_cu_result e =
        hashed_at(k, a, n) ? upk_kgen_hash_into(k->gen, b->dev[i], upk_krun_arg_bytes(a), slot) : 0;
    if (e)
      return upk_krun_cu_fail(k, e, "hashing a timed launch's buffers");
  }
  upk_cu_result e = k->drv->cu.EventRecord(b->ev2, NULL);
  return e ? upk_krun_cu_fail(k, e, "cuEventRecord") : 0;
}

/* Timed launch `n` of set `set`, its hashes `got`: every output must hash as
 * that set's checked trial left it, every hashed input as it was generated. */
static int launch_as_checked(upk_krun *k, const uint64_t *got, unsigned n, unsigned set) {
  const uint64_t *want = &k->set_hash[(size_t)set * k->s->n_args];
  for (size_t i = 0; i < k->s->n_args; i++) {
    const upk_run_arg *a = &k->s->args[i];
    uint64_t h = got[i];
    if (!hashed_at(k, a, n) || h == want[i])
      continue;
    if (a->role == UPK_ROLE_IN)
      upk_diags_add(k->diags, UPK_SEV_ERROR, "run/input-written", "upskilld-run", k->at,
                    "'%s' wrote into input '%s' in timed launch %u (input set %u); inputs are "
                    "read-only",
                    k->cand.name, a->name, n + 1, set);
    else
      upk_diags_add(k->diags, UPK_SEV_ERROR, "run/timed-output-changed", "upskilld-run", k->at,
                    "'%s' left output '%s' different in timed launch %u from what the same inputs "
                    "(set %u) gave in its checked trial: a result cached across calls, work not "
                    "finished when the launch returned, a launch that counts itself, or a race",
                    k->cand.name, a->name, n + 1, set);
    return -EFAULT;
  }
  return 0;
}

/* The device time of the last timed launch's hashes, from its stop event
 * (ev1) to the event queued after them (ev2), into k->hash_ms: what the
 * hashing adds to a run's wall time, measured where no other work mixes in
 * (docs/gpu.md, "timedHashMs"). Called before ev1 is recorded again. */
int upk_krun_add_hash_time(upk_krun *k, upk_krun_bufs *b) {
  float ms = 0;
  upk_cu_result e = upk_cu_wait(k->drv, b->ev2, k->deadline);
  if (!e)
    e = k->drv->cu.EventElapsedTime(&ms, b->ev1, b->ev2);
  if (e)
    return upk_krun_cu_fail(k, e, "timing a timed launch's hashes");
  k->hash_ms += ms;
  return 0;
}

/* Every timed launch's hashes, read back at once and checked in launch order. */
int upk_krun_timed_as_checked(upk_krun *k, upk_cu_ptr slots) {
  size_t words = (size_t)k->s->iterations * k->s->n_args;
  uint64_t *got = upk_xcalloc(words ? words : 1, sizeof *got);
  int rc = got ? 0 : -ENOMEM;
  upk_cu_result e = rc ? 0 : k->drv->cu.MemcpyDtoH(got, slots, words * sizeof *got);
  if (e)
    rc = upk_krun_cu_fail(k, e, "reading the timed launches' hashes");
  for (unsigned n = 0; !rc && n < k->s->iterations; n++)
    rc = launch_as_checked(k, got + (size_t)n * k->s->n_args, n, upk_krun_set_of(k, n));
  free(got);
  return rc;
}

/* Zeroed device words for every timed launch's hashes (hashed: the candidate's). */
int upk_krun_hash_slots(upk_krun *k, bool hashed, upk_cu_ptr *slots) {
  size_t bytes = (size_t)k->s->iterations * k->s->n_args * sizeof(uint64_t);
  *slots = 0;
  if (!hashed || !bytes)
    return 0;
  upk_cu_result e = k->drv->cu.MemAlloc(slots, bytes);
  if (!e && (e = k->drv->cu.MemsetD8(*slots, 0, bytes)))
    k->drv->cu.MemFree(*slots), *slots = 0;
  return e ? upk_krun_cu_fail(k, e, "allocating the timed launches' hash slots") : 0;
}
