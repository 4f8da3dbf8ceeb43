/* H100 lint, resource rules: what ptxas reported for each compiled kernel
 * (spills, stack, shared memory, registers) against H100's limits, the launch
 * bounds and the theoretical occupancy. Each finding sits on the kernel's name. */
#include <stdio.h>
#include <string.h>

#include "gpu/compile/lint.h"
#include "gpu/compile/occupancy.h"

enum { SMEM_STATIC_MAX = 48 * 1024, SMEM_BLOCK_MAX = 227 * 1024, SMEM_PER_SM = 228 * 1024 };
enum { LOW_OCCUPANCY_PERCENT = 25, MAX_REGS = 255 };

static const char SOURCE[] = "upskilld-lint";

typedef struct upk_klint {
  const upk_kernel_info *k;
  const upk_src_facts *f;
  long dynamic_smem; /* the launch's, 0 when unknown */
} klint;

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

/* ---- the rules: each says whether kernel c->k breaks it and, if so, writes its message ---- */

static bool spill(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_kernel_info *k = c->k;
  if (!(k->spill_stores || k->spill_loads) || bounds_spill(k))
    return false;
  snprintf(msg, n,
           "spills registers to local memory: %ld bytes stored, %ld bytes loaded per thread, with "
           "%d registers: keep fewer values live (smaller unrolls, recompute instead of keeping), "
           "or allow more registers",
           k->spill_stores, k->spill_loads, k->registers);
  return true;
}

static bool local_memory(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_kernel_info *k = c->k;
  if (k->stack_frame <= 0 || k->spill_stores || k->spill_loads)
    return false;
  snprintf(msg, n,
           "uses a %ld-byte stack frame in local memory (an array indexed at run time, or a large "
           "local struct): index local arrays with compile-time constants (fully unrolled loops) "
           "or keep the data in registers or shared memory",
           k->stack_frame);
  return true;
}

static bool static_smem(const klint *c, upk_severity *sev, char *msg, size_t n) {
  if (c->k->smem_static <= SMEM_STATIC_MAX)
    return false;
  snprintf(msg, n,
           "has %ld bytes of static shared memory; static __shared__ is limited to 48 KB (49152 "
           "bytes) per block: use extern __shared__ (dynamic) memory and opt in with "
           "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)",
           c->k->smem_static);
  return true;
}

/* An error where the file's own host code is seen to miss the opt-in. */
static bool dynamic_smem_optin(const klint *c, upk_severity *sev, char *msg, size_t n) {
  if (c->dynamic_smem <= SMEM_STATIC_MAX || c->f->has_smem_optin)
    return false;
  *sev = c->f->has_host_code ? UPK_SEV_ERROR : UPK_SEV_WARNING;
  snprintf(msg, n,
           "is launched with %ld bytes of dynamic shared memory; above 48 KB the launch fails "
           "unless the host first calls cudaFuncSetAttribute(kernel, "
           "cudaFuncAttributeMaxDynamicSharedMemorySize, %ld)%s",
           c->dynamic_smem, c->dynamic_smem,
           c->f->has_host_code ? ", which this file's host code never does"
                               : " (not in this file: make sure the host code does)");
  return true;
}

static bool smem_over_block(const klint *c, upk_severity *sev, char *msg, size_t n) {
  long total = c->k->smem_static + c->dynamic_smem;
  if (total <= SMEM_BLOCK_MAX)
    return false;
  snprintf(msg, n,
           "needs %ld bytes of shared memory per block (%ld static + %ld dynamic); an H100 block "
           "can have at most 227 KB (232448 bytes)",
           total, c->k->smem_static, c->dynamic_smem);
  return true;
}

/* __launch_bounds__(t, mb) as the rules read them; false without usable bounds. */
static bool bounds(const upk_kernel_info *k, int *t, int *mb) {
  *t = k->max_threads;
  *mb = k->min_blocks > 0 ? k->min_blocks : 1;
  return *t > 0 && *t <= 1024;
}

static bool bounds_registers(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_kernel_info *k = c->k;
  int t, mb;
  if (!bounds(k, &t, &mb))
    return false;
  int cap = register_cap(t, mb);
  if (k->registers > cap)
    snprintf(msg, n,
             "uses %d registers per thread, more than __launch_bounds__(%d, %d) allows (%d: "
             "65536 / (%d x %d) in allocation units): %d blocks of %d threads will not be resident",
             k->registers, t, mb, cap, t, mb, mb, t);
  else if (bounds_spill(k))
    snprintf(msg, n,
             "is held to %d registers per thread by __launch_bounds__(%d, %d) (65536 / (%d x %d) "
             "in allocation units) and spills %ld bytes stored, %ld loaded: lower the minimum "
             "blocks or the block size, or keep fewer values live",
             cap, t, mb, t, mb, k->spill_stores, k->spill_loads);
  else
    return false;
  return true;
}

static bool bounds_min_blocks(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_kernel_info *k = c->k;
  int t, mb;
  upk_occupancy o;
  if (!bounds(k, &t, &mb) || k->min_blocks <= 0 || k->registers > register_cap(t, mb) ||
      upk_occupancy_sm90(t, k->registers, k->smem_static + c->dynamic_smem, &o) ||
      o.blocks_per_sm >= k->min_blocks)
    return false;
  snprintf(msg, n,
           "asks for %d resident blocks of %d threads per SM with __launch_bounds__, but only %d "
           "fit, limited by %s",
           k->min_blocks, t, o.blocks_per_sm, o.limiter);
  return true;
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

/* Occupancy as the rules judge it: false when there is none to judge (no block size, or a
 * block over the shared-memory limit, which smem-over-227k reports). */
static bool judged(const klint *c) {
  const upk_occupancy *o = &c->k->occupancy;
  return o->block_size >= 1 && o->block_size <= 1024 && o->limiter &&
         c->k->smem_static + c->dynamic_smem <= SMEM_BLOCK_MAX;
}

/* Where the block size came from, for the message: a launch's line, or assumed. */
static const char *judged_where(const upk_occupancy *o, char *buf, size_t n) {
  if (o->from && !strcmp(o->from, "launch") && o->line >= 0)
    snprintf(buf, n, ", as launched on line %d", o->line + 1);
  else if (o->from && !strcmp(o->from, "request"))
    snprintf(buf, n, ", as given");
  else
    snprintf(buf, n, "%s", o->assumed ? " (no block size given: assumed)" : "");
  if (o->smem_unknown && strlen(buf) + 1 < n)
    snprintf(buf + strlen(buf), n - strlen(buf), "%s",
             ", dynamic shared memory unknown: 0 counted");
  return buf;
}

static bool block_fit(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_occupancy *o = &c->k->occupancy;
  if (!judged(c) || o->blocks_per_sm != 0)
    return false;
  char where[128];
  snprintf(msg, n,
           "cannot launch with %d threads per block%s: its %s do not fit an SM (%d registers per "
           "thread, %ld bytes of shared memory per block)",
           o->block_size, judged_where(o, where, sizeof where), o->limiter, c->k->registers,
           c->k->smem_static + c->dynamic_smem);
  return true;
}

/* An info when __launch_bounds__ asks for exactly this residency: declared intended. */
static bool low_occupancy(const klint *c, upk_severity *sev, char *msg, size_t n) {
  const upk_kernel_info *k = c->k;
  const upk_occupancy *o = &k->occupancy;
  if (!judged(c) || o->blocks_per_sm == 0 || o->percent >= LOW_OCCUPANCY_PERCENT)
    return false;
  char fix[300];
  advice(k, k->smem_static + c->dynamic_smem, fix, sizeof fix);
  if (k->min_blocks > 0 && o->blocks_per_sm >= k->min_blocks)
    *sev = UPK_SEV_INFO;
  char where[128];
  snprintf(msg, n,
           "reaches %.1f%% theoretical occupancy (%d of 64 warps, %d blocks of %d threads%s), "
           "limited by %s: %s",
           o->percent, o->active_warps, o->blocks_per_sm, o->block_size,
           judged_where(o, where, sizeof where), o->limiter, fix);
  return true;
}

/* The resource rules, in the order their findings are listed for a kernel. Each code is
 * documented in docs/diagnostics.md ("H100 lint"); adding one: docs/kernels.md. */
static const upk_lint_rule RULES[] = {
    {"h100/spill", UPK_SEV_WARNING, spill},
    {"h100/local-memory", UPK_SEV_WARNING, local_memory},
    {"h100/static-smem-over-48k", UPK_SEV_ERROR, static_smem},
    {"h100/dynamic-smem-no-optin", UPK_SEV_WARNING, dynamic_smem_optin},
    {"h100/smem-over-227k", UPK_SEV_ERROR, smem_over_block},
    {"h100/launch-bounds-registers", UPK_SEV_WARNING, bounds_registers},
    {"h100/launch-bounds-min-blocks", UPK_SEV_WARNING, bounds_min_blocks},
    {"h100/block-does-not-fit", UPK_SEV_ERROR, block_fit},
    {"h100/low-occupancy", UPK_SEV_WARNING, low_occupancy},
};

const upk_lint_rule *upk_lint_kernel_rules(size_t *n) {
  *n = sizeof RULES / sizeof *RULES;
  return RULES;
}

int upk_lint_kernels(const upk_kernel_info *k, size_t n, const upk_src_facts *facts,
                     const char *arch, long dynamic_smem, upk_diags *out) {
  static const upk_src_facts none;
  (void)arch; /* the limits checked are H100's (sm_90) whatever the target */
  for (size_t i = 0; i < n; i++) {
    if (!k[i].name)
      continue;
    long dyn = k[i].occupancy.dynamic_smem > 0 ? k[i].occupancy.dynamic_smem : dynamic_smem;
    klint c = {&k[i], facts ? facts : &none, dyn > 0 ? dyn : 0};
    upk_range r = name_range(&k[i]);
    for (size_t j = 0; j < sizeof RULES / sizeof *RULES; j++) {
      char msg[768];
      upk_severity sev = RULES[j].severity;
      if (RULES[j].check(&c, &sev, msg, sizeof msg))
        upk_diags_add(out, sev, RULES[j].code, SOURCE, r, "kernel '%s' %s", k[i].name, msg);
    }
  }
  return 0;
}
