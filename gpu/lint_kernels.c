/* H100 lint, resource rules: what ptxas reported for each compiled kernel
 * (spills, stack, shared memory, registers) against H100's limits, the launch
 * bounds and the theoretical occupancy. Each finding sits on the kernel's name. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu/lint.h"
#include "gpu/occupancy.h"

enum { SMEM_STATIC_MAX = 48 * 1024, SMEM_BLOCK_MAX = 227 * 1024, SMEM_PER_SM = 228 * 1024 };
enum { LOW_OCCUPANCY_PERCENT = 25, MAX_REGS = 255 };

static const char SOURCE[] = "upskilld-lint";

typedef struct klint {
  const upk_kernel_info *k;
  const upk_src_facts *f;
  long dynamic_smem;
  upk_range r;
  upk_diags *out;
  int err;
} klint;

static void emit(klint *c, upk_severity sev, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void emit(klint *c, upk_severity sev, const char *code, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (upk_diags_add(c->out, sev, code, SOURCE, c->r, "kernel '%s' %s", c->k->name, msg))
    c->err = -ENOMEM;
}

/* The kernel's name in the main file ("scale" of "scale<float>"), or the whole file. */
static upk_range name_range(const upk_kernel_info *k) {
  if (k->line < 0)
    return (upk_range){-1, 0, -1, 0};
  const char *lt = strchr(k->name, '<');
  int n = lt ? (int)(lt - k->name) : (int)strlen(k->name);
  return upk_range_line(k->line, k->col, k->col + n);
}

/* The most registers per thread with which `min_blocks` blocks of `threads`
 * still fit an SM: what __launch_bounds__ makes ptxas aim for. */
static int register_cap(int threads, int min_blocks) {
  upk_occupancy o;
  for (int r = MAX_REGS; r > 0; r--)
    if (!upk_occupancy_sm90(threads, r, 0, &o) && o.blocks_per_sm >= min_blocks)
      return r;
  return 0;
}

/* Did the launch bounds force the register count down into spills? */
static bool bounds_spill(const upk_kernel_info *k) {
  return k->max_threads > 0 && (k->spill_stores || k->spill_loads) &&
         k->registers >= register_cap(k->max_threads, k->min_blocks > 0 ? k->min_blocks : 1);
}

static void memory_rules(klint *c) {
  const upk_kernel_info *k = c->k;
  if ((k->spill_stores || k->spill_loads) && !bounds_spill(k))
    emit(c, UPK_SEV_WARNING, "h100/spill",
         "spills registers to local memory: %ld bytes stored, %ld bytes loaded per thread, with "
         "%d registers: keep fewer values live (smaller unrolls, recompute instead of keeping), "
         "or allow more registers",
         k->spill_stores, k->spill_loads, k->registers);
  else if (k->stack_frame > 0 && !k->spill_stores && !k->spill_loads)
    emit(c, UPK_SEV_WARNING, "h100/local-memory",
         "uses a %ld-byte stack frame in local memory (an array indexed at run time, or a large "
         "local struct): index local arrays with compile-time constants (fully unrolled loops) "
         "or keep the data in registers or shared memory",
         k->stack_frame);
  if (k->smem_static > SMEM_STATIC_MAX)
    emit(c, UPK_SEV_ERROR, "h100/static-smem-over-48k",
         "has %ld bytes of static shared memory; static __shared__ is limited to 48 KB (49152 "
         "bytes) per block: use extern __shared__ (dynamic) memory and opt in with "
         "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)",
         k->smem_static);
  if (c->dynamic_smem > SMEM_STATIC_MAX && !c->f->has_smem_optin)
    emit(c, c->f->has_host_code ? UPK_SEV_ERROR : UPK_SEV_WARNING, "h100/dynamic-smem-no-optin",
         "is launched with %ld bytes of dynamic shared memory; above 48 KB the launch fails unless "
         "the host first calls cudaFuncSetAttribute(kernel, "
         "cudaFuncAttributeMaxDynamicSharedMemorySize, %ld)%s",
         c->dynamic_smem, c->dynamic_smem,
         c->f->has_host_code ? ", which this file's host code never does"
                             : " (not in this file: make sure the host code does)");
  long total = k->smem_static + c->dynamic_smem;
  if (total > SMEM_BLOCK_MAX)
    emit(c, UPK_SEV_ERROR, "h100/smem-over-227k",
         "needs %ld bytes of shared memory per block (%ld static + %ld dynamic); an H100 block "
         "can have at most 227 KB (232448 bytes)",
         total, k->smem_static, c->dynamic_smem);
}

static void bounds_rules(klint *c) {
  const upk_kernel_info *k = c->k;
  int t = k->max_threads, mb = k->min_blocks > 0 ? k->min_blocks : 1;
  if (t <= 0 || t > 1024)
    return;
  int cap = register_cap(t, mb);
  if (k->registers > cap)
    emit(c, UPK_SEV_WARNING, "h100/launch-bounds-registers",
         "uses %d registers per thread, more than __launch_bounds__(%d, %d) allows (%d: "
         "65536 / (%d x %d) in allocation units): %d blocks of %d threads will not be resident",
         k->registers, t, mb, cap, t, mb, mb, t);
  else if (bounds_spill(k))
    emit(c, UPK_SEV_WARNING, "h100/launch-bounds-registers",
         "is held to %d registers per thread by __launch_bounds__(%d, %d) (65536 / (%d x %d) in "
         "allocation units) and spills %ld bytes stored, %ld loaded: lower the minimum blocks or "
         "the block size, or keep fewer values live",
         cap, t, mb, t, mb, k->spill_stores, k->spill_loads);
  upk_occupancy o;
  if (k->min_blocks > 0 && k->registers <= cap &&
      !upk_occupancy_sm90(t, k->registers, k->smem_static + c->dynamic_smem, &o) &&
      o.blocks_per_sm < k->min_blocks)
    emit(c, UPK_SEV_WARNING, "h100/launch-bounds-min-blocks",
         "asks for %d resident blocks of %d threads per SM with __launch_bounds__, but only %d "
         "fit, limited by %s",
         k->min_blocks, t, o.blocks_per_sm, o.limiter);
}

/* What to change, by limiter, to reach the low-occupancy threshold. */
static void advice(const upk_kernel_info *k, long smem, char *buf, size_t n) {
  const upk_occupancy *o = &k->occupancy;
  int warps = (o->block_size + 31) / 32;
  int blocks = (64 * LOW_OCCUPANCY_PERCENT / 100 + warps - 1) / warps;
  upk_occupancy t;
  int regs = 0;
  for (int r = k->registers; r > 0 && !regs; r--)
    if (!upk_occupancy_sm90(o->block_size, r, smem, &t) && t.blocks_per_sm >= blocks)
      regs = r;
  long most = (SMEM_PER_SM / blocks - 1024) / 128 * 128;
  if (!strcmp(o->limiter, "registers") && regs)
    snprintf(buf, n,
             "it uses %d registers per thread; %d or fewer reach %d%% (__launch_bounds__(%d, %d) "
             "or -maxrregcount=%d)",
             k->registers, regs, LOW_OCCUPANCY_PERCENT, o->block_size, blocks, regs);
  else if (!strcmp(o->limiter, "shared memory") && most > 0)
    snprintf(buf, n,
             "each block uses %ld bytes of shared memory (plus 1 KB reserved); %ld or fewer "
             "reach %d%%",
             smem, most, LOW_OCCUPANCY_PERCENT);
  else
    snprintf(buf, n, "use more threads per block or fewer resources per thread");
}

static void occupancy_rules(klint *c) {
  const upk_kernel_info *k = c->k;
  const upk_occupancy *o = &k->occupancy;
  long smem = k->smem_static + c->dynamic_smem;
  if (o->block_size < 1 || o->block_size > 1024 || !o->limiter || smem > SMEM_BLOCK_MAX)
    return;
  const char *assumed = o->assumed ? " (no block size given: assumed)" : "";
  if (o->blocks_per_sm == 0) {
    emit(c, UPK_SEV_ERROR, "h100/block-does-not-fit",
         "cannot launch with %d threads per block%s: its %s do not fit an SM (%d registers per "
         "thread, %ld bytes of shared memory per block)",
         o->block_size, assumed, o->limiter, k->registers, smem);
    return;
  }
  if (o->percent >= LOW_OCCUPANCY_PERCENT)
    return;
  char fix[300];
  advice(k, smem, fix, sizeof fix);
  /* Launch bounds asking for exactly this residency declare it intended. */
  bool declared = k->min_blocks > 0 && o->blocks_per_sm >= k->min_blocks;
  emit(c, declared ? UPK_SEV_INFO : UPK_SEV_WARNING, "h100/low-occupancy",
       "reaches %.1f%% theoretical occupancy (%d of 64 warps, %d blocks of %d threads%s), "
       "limited by %s: %s",
       o->percent, o->active_warps, o->blocks_per_sm, o->block_size, assumed, o->limiter, fix);
}

int upk_lint_kernels(const upk_kernel_info *k, size_t n, const upk_src_facts *facts,
                     const char *arch, long dynamic_smem, upk_diags *out) {
  static const upk_src_facts none;
  (void)arch; /* the limits checked are H100's (sm_90) whatever the target */
  for (size_t i = 0; i < n; i++) {
    if (!k[i].name)
      continue;
    klint c = {
        &k[i], facts ? facts : &none, dynamic_smem > 0 ? dynamic_smem : 0, name_range(&k[i]), out,
        0};
    memory_rules(&c);
    bounds_rules(&c);
    occupancy_rules(&c);
    if (c.err)
      return c.err;
  }
  return 0;
}
