/* Device buffers of a run (device.h): every one sits between two guard
 * zones of UPK_GUARD_BYTES holding a sentinel byte, re-poisoned before each
 * checked launch and scanned after it (outside any timed region), so a
 * write past either end is reported as run/out-of-bounds-write without a
 * sanitizer (none under compute-sanitizer: memcheck must see every stray
 * access, and a zone would make its first 64 KiB valid memory). Allocation waits while other runs
 * hold the memory it needs (bounded by UPK_RUN_MEM_WAIT_MS), so many runs at once queue on the
 * device instead of failing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/run/device.h"
#include "common/xalloc.h"

#define MEM_POLL_NS 20000000LL /* 20 ms between tries while memory is short */

static int out_of_memory(upk_krun *k, size_t bytes, const char *name, size_t free_b, size_t total,
                         bool never) {
  upk_diags_add(k->diags, UPK_SEV_ERROR, "run/out-of-memory", "upskilld-run", k->at,
                never ? "%s needs %zu MiB of device memory (with its guard zones); %s has %zu "
                        "MiB in all"
                      : "%s needs %zu MiB of device memory; %s had %zu of %zu MiB free after "
                        "waiting %d s for other runs to release theirs",
                name, (bytes + 2 * k->guard) >> 20, k->drv->name,
                never ? total >> 20 : free_b >> 20, total >> 20,
                never ? 0 : UPK_RUN_MEM_WAIT_MS / 1000);
  return -ENOMEM;
}

/* One try of cuMemAlloc; on OUT_OF_MEMORY wait and try again while the
 * device could ever hold it and the wait budget lasts. The run's kernel
 * deadline moves by the time waited: queueing is not the kernel's time. */
static int alloc_waiting(upk_krun *k, size_t bytes, const char *name, upk_cu_ptr *base) {
  const upk_cu_api *cu = &k->drv->cu;
  char quoted[160];
  snprintf(quoted, sizeof quoted, "'%s'", name);
  for (;;) {
    upk_cu_result e = cu->MemAlloc(base, bytes);
    if (e != UPK_CU_OUT_OF_MEMORY) {
      if (!e)
        return 0;
      char what[160];
      snprintf(what, sizeof what, "cuMemAlloc of %zu bytes for '%s'", bytes, name);
      return upk_krun_cu_fail(k, e, what);
    }
    size_t free_b = 0, total = 0;
    cu->MemGetInfo(&free_b, &total);
    int64_t now = upk_cu_now_ns();
    if (!k->mem_wait_until)
      k->mem_wait_until = now + (int64_t)UPK_RUN_MEM_WAIT_MS * 1000000;
    if (total && bytes > total)
      return out_of_memory(k, bytes - 2 * k->guard, quoted, free_b, total, true);
    if (now >= k->mem_wait_until)
      return out_of_memory(k, bytes - 2 * k->guard, quoted, free_b, total, false);
    struct timespec ts = {0, MEM_POLL_NS};
    nanosleep(&ts, NULL);
    int64_t waited = upk_cu_now_ns() - now;
    k->mem_waited_ns += waited;
    k->deadline += waited;
  }
}

/* Admission: wait until the device has `need` bytes free, so runs that
 * cannot all fit at once take turns instead of each holding part of what
 * it needs while waiting for the rest. Allocations still wait on their own
 * when another run took the memory in between. */
int upk_krun_admit(upk_krun *k, size_t need) {
  const upk_cu_api *cu = &k->drv->cu;
  for (;;) {
    size_t free_b = 0, total = 0;
    if (cu->MemGetInfo(&free_b, &total) != UPK_CU_SUCCESS || free_b >= need)
      return 0; /* no answer: let the allocations find out */
    int64_t now = upk_cu_now_ns();
    if (!k->mem_wait_until)
      k->mem_wait_until = now + (int64_t)UPK_RUN_MEM_WAIT_MS * 1000000;
    if (need > total)
      return out_of_memory(k, need, "the run", free_b, total, true);
    if (now >= k->mem_wait_until)
      return out_of_memory(k, need, "the run", free_b, total, false);
    struct timespec ts = {0, MEM_POLL_NS};
    nanosleep(&ts, NULL);
    int64_t waited = upk_cu_now_ns() - now;
    k->mem_waited_ns += waited;
    k->deadline += waited;
  }
}

int upk_krun_alloc(upk_krun *k, size_t bytes, const char *name, upk_cu_ptr *user) {
  upk_cu_ptr base = 0;
  int rc = alloc_waiting(k, bytes + 2 * k->guard, name, &base);
  *user = rc ? 0 : base + k->guard;
  return rc;
}

void upk_krun_free(upk_krun *k, upk_cu_ptr *user) {
  if (*user && !k->fatal) /* after a sticky error every call fails: leave it to exit */
    k->drv->cu.MemFree(*user - k->guard);
  *user = 0;
}

int upk_krun_guard_fill(upk_krun *k, upk_cu_ptr user, size_t bytes, unsigned char sentinel) {
  const upk_cu_api *cu = &k->drv->cu;
  size_t g = k->guard;
  upk_cu_result e = g ? cu->MemsetD8(user - g, sentinel, g) : 0;
  if (!e && g)
    e = cu->MemsetD8(user + bytes, sentinel, g);
  return e ? upk_krun_cu_fail(k, e, "poisoning the guard zones") : 0;
}

/* "12 elements past the end of 'y' were written (y[4096] .. y[4107], 1 to
 * 12 past it)" or the same before its start. */
static void report(upk_krun *k, const upk_run_arg *a, const char *kernel, const char *when,
                   bool after, const upk_guard_hit *h) {
  unsigned long long n = a->count;
  if (after)
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/out-of-bounds-write", "upskilld-run", k->at,
                  "'%s' wrote past the end of '%s' (%llu elements of %s) %s: %zu element%s "
                  "beyond it changed, %s[%llu] .. %s[%llu] (%zu to %zu past the end); the guard "
                  "zone is %zu KiB, writes further out are not seen (sanitizer: memcheck)",
                  kernel, a->name, n, upk_dtype_name(a->dtype), when, h->elems,
                  h->elems == 1 ? "" : "s", a->name, n + h->near - 1, a->name, n + h->far - 1,
                  h->near, h->far, k->guard >> 10);
  else
    upk_diags_add(k->diags, UPK_SEV_ERROR, "run/out-of-bounds-write", "upskilld-run", k->at,
                  "'%s' wrote before the start of '%s' (%llu elements of %s) %s: %zu element%s "
                  "changed, %s[-%zu] .. %s[-%zu]; the guard zone is %zu KiB, writes further out "
                  "are not seen (sanitizer: memcheck)",
                  kernel, a->name, n, upk_dtype_name(a->dtype), when, h->elems,
                  h->elems == 1 ? "" : "s", a->name, h->near, a->name, h->far, k->guard >> 10);
}

int upk_krun_guard_check(upk_krun *k, upk_cu_ptr user, const upk_run_arg *a, unsigned char sentinel,
                         const char *kernel, const char *when) {
  size_t g = k->guard, bytes = a->count * upk_dtype_size(a->dtype), esz = upk_dtype_size(a->dtype);
  if (!g)
    return 0;
  unsigned char *zone = upk_xmalloc(2 * g);
  upk_cu_result e = k->drv->cu.MemcpyDtoH(zone, user - g, g);
  if (!e)
    e = k->drv->cu.MemcpyDtoH(zone + g, user + bytes, g);
  int rc = e ? upk_krun_cu_fail(k, e, "copying the guard zones back") : 0;
  upk_guard_hit h;
  if (!rc && upk_guard_scan(zone, g, sentinel, esz, false, &h))
    report(k, a, kernel, when, false, &h), rc = 1;
  if (rc >= 0 && upk_guard_scan(zone + g, g, sentinel, esz, true, &h))
    report(k, a, kernel, when, true, &h), rc = 1;
  free(zone);
  return rc;
}
