/* Guarded buffers and waiting for memory (gpu/run/device_mem.c) on host memory:
 * the driver table's memory entry points are pointed at malloc, memset and
 * memcpy, so the real allocation, guard fill, guard scan and report code
 * runs with host addresses standing in for device ones. No kernel runs
 * here and nothing is reported as a GPU result; the GPU suite runs the same
 * code on a device (tests/gpu). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/run/device.h"

static int oom_left;        /* MemAlloc answers OUT_OF_MEMORY this many times first */
static size_t total_memory; /* what MemGetInfo reports */
static size_t free_memory;

static upk_cu_result host_alloc(upk_cu_ptr *p, size_t bytes) {
  if (oom_left > 0 || bytes > free_memory) {
    oom_left--;
    return UPK_CU_OUT_OF_MEMORY;
  }
  void *m = malloc(bytes);
  *p = (upk_cu_ptr)(uintptr_t)m;
  return m ? UPK_CU_SUCCESS : UPK_CU_OUT_OF_MEMORY;
}
static upk_cu_result host_free(upk_cu_ptr p) {
  free((void *)(uintptr_t)p);
  return UPK_CU_SUCCESS;
}
static upk_cu_result host_memset(upk_cu_ptr p, unsigned char v, size_t n) {
  memset((void *)(uintptr_t)p, v, n);
  return UPK_CU_SUCCESS;
}
static upk_cu_result host_dtoh(void *dst, upk_cu_ptr src, size_t n) {
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return UPK_CU_SUCCESS;
}
static upk_cu_result host_info(size_t *f, size_t *t) {
  *f = free_memory, *t = total_memory;
  return UPK_CU_SUCCESS;
}

typedef struct fixture {
  upk_cudrv drv;
  upk_diags diags;
  upk_run_spec spec;
  upk_krun k;
} fixture;

static void setup(fixture *f) {
  memset(f, 0, sizeof *f);
  f->drv.cu.MemAlloc = host_alloc;
  f->drv.cu.MemFree = host_free;
  f->drv.cu.MemsetD8 = host_memset;
  f->drv.cu.MemcpyDtoH = host_dtoh;
  f->drv.cu.MemGetInfo = host_info;
  snprintf(f->drv.name, sizeof f->drv.name, "host memory");
  f->spec.timeout_ms = 1000;
  f->k = (upk_krun){.s = &f->spec, .drv = &f->drv, .diags = &f->diags, .guard = UPK_GUARD_BYTES};
  f->k.deadline = upk_cu_now_ns() + 1000000000;
  oom_left = 0;
  total_memory = free_memory = (size_t)1 << 30;
}

static const char *message_of(const upk_diags *d, const char *code) {
  for (size_t i = 0; i < d->len; i++)
    if (!strcmp(d->items[i].code, code))
      return d->items[i].message;
  return NULL;
}

Test(guarded, a_write_past_the_end_is_reported_with_its_extent) {
  fixture f;
  setup(&f);
  upk_run_arg y = {.is_buffer = true, .name = "y", .dtype = UPK_DT_F32, .count = 1000003};
  upk_cu_ptr p = 0;
  cr_assert_eq(upk_krun_alloc(&f.k, y.count * 4, "y", &p), 0);
  cr_assert_eq(upk_krun_guard_fill(&f.k, p, y.count * 4, UPK_GUARD_A), 0);
  cr_assert_eq(upk_krun_guard_check(&f.k, p, &y, UPK_GUARD_A, "k", "in trial 0, run A"), 0);
  float *v = (float *)(uintptr_t)p;
  for (size_t i = 0; i < 1000192; i++) /* 3907 blocks of 256, no bounds check */
    v[i] = 2.0f;
  cr_assert_eq(upk_krun_guard_check(&f.k, p, &y, UPK_GUARD_A, "k", "in trial 0, run A"), 1);
  const char *m = message_of(&f.diags, "run/out-of-bounds-write");
  cr_assert_not_null(m);
  cr_assert(strstr(m, "'k' wrote past the end of 'y' (1000003 elements of f32) in trial 0, run A"),
            "%s", m);
  cr_assert(strstr(m, "189 elements beyond it changed, y[1000003] .. y[1000191] (1 to 189 past "
                      "the end)"),
            "%s", m);
  upk_krun_free(&f.k, &p);
  cr_assert_eq(p, 0);
  upk_diags_free(&f.diags);
}

Test(guarded, a_write_before_the_start_is_reported) {
  fixture f;
  setup(&f);
  upk_run_arg x = {.is_buffer = true, .name = "x", .dtype = UPK_DT_F64, .count = 10};
  upk_cu_ptr p = 0;
  cr_assert_eq(upk_krun_alloc(&f.k, 80, "x", &p), 0);
  cr_assert_eq(upk_krun_guard_fill(&f.k, p, 80, UPK_GUARD_B), 0);
  ((double *)(uintptr_t)p)[-3] = 1.0;
  cr_assert_eq(upk_krun_guard_check(&f.k, p, &x, UPK_GUARD_B, "k", "while timed"), 1);
  const char *m = message_of(&f.diags, "run/out-of-bounds-write");
  cr_assert(m && strstr(m, "before the start of 'x'") && strstr(m, "x[-3] .. x[-3]"), "%s", m);
  upk_krun_free(&f.k, &p);
  upk_diags_free(&f.diags);
}

Test(guarded, no_zones_under_the_sanitizer) {
  fixture f;
  setup(&f);
  f.k.guard = 0;
  upk_run_arg y = {.is_buffer = true, .name = "y", .dtype = UPK_DT_F32, .count = 4};
  upk_cu_ptr p = 0;
  cr_assert_eq(upk_krun_alloc(&f.k, 16, "y", &p), 0);
  cr_assert_eq(upk_krun_guard_fill(&f.k, p, 16, UPK_GUARD_A), 0);
  cr_assert_eq(upk_krun_guard_check(&f.k, p, &y, UPK_GUARD_A, "k", "run A"), 0);
  upk_krun_free(&f.k, &p);
  cr_assert_eq(f.diags.len, 0);
}

Test(memory, allocation_waits_while_memory_is_short_and_moves_the_deadline) {
  fixture f;
  setup(&f);
  int64_t deadline = f.k.deadline;
  oom_left = 3;
  upk_cu_ptr p = 0;
  cr_assert_eq(upk_krun_alloc(&f.k, 4096, "y", &p), 0);
  cr_assert_neq(p, 0);
  cr_assert_eq(oom_left, 0, "it tried until the memory was there");
  cr_assert_gt(f.k.mem_waited_ns, 0);
  cr_assert_eq(f.k.deadline - deadline, f.k.mem_waited_ns, "queueing is not the kernel's time");
  cr_assert_eq(f.diags.len, 0);
  upk_krun_free(&f.k, &p);
}

Test(memory, more_than_the_device_holds_is_refused_at_once) {
  fixture f;
  setup(&f);
  upk_cu_ptr p = 0;
  cr_assert_eq(upk_krun_alloc(&f.k, (size_t)2 << 30, "big", &p), -ENOMEM);
  cr_assert_eq(f.k.mem_waited_ns, 0, "no waiting for what can never fit");
  const char *m = message_of(&f.diags, "run/out-of-memory");
  cr_assert(m && strstr(m, "'big' needs 2048 MiB") && strstr(m, "1024 MiB in all"), "%s", m);
  upk_diags_free(&f.diags);
  cr_assert_eq(upk_krun_admit(&f.k, (size_t)3 << 30), -ENOMEM);
  m = message_of(&f.diags, "run/out-of-memory");
  cr_assert(m && strstr(m, "the run needs"), "%s", m);
  upk_diags_free(&f.diags);
}

Test(memory, admission_passes_when_the_memory_is_free) {
  fixture f;
  setup(&f);
  cr_assert_eq(upk_krun_admit(&f.k, (size_t)512 << 20), 0);
  cr_assert_eq(f.k.mem_waited_ns, 0);
}

Test(memory, the_wait_is_bounded) {
  fixture f;
  setup(&f);
  free_memory = 1 << 20;                /* held by others for good */
  f.k.mem_wait_until = upk_cu_now_ns(); /* as if the 30 s had passed */
  cr_assert_eq(upk_krun_admit(&f.k, (size_t)512 << 20), -ENOMEM);
  const char *m = message_of(&f.diags, "run/out-of-memory");
  cr_assert(m && strstr(m, "had 1 of 1024 MiB free after waiting 30 s"), "%s", m);
  upk_diags_free(&f.diags);
}
