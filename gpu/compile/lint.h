/** H100 lint: rules with stable codes (docs/diagnostics.md, "h100/...").
 *
 * Source rules look at the text: wgmma / setmaxnreg need sm_90a; TMA,
 * cp.async.bulk, mbarrier expect_tx, fence.proxy.async need sm_90 (and an
 * `__CUDA_ARCH__ >= 900` guard in multi-arch code); __cluster_dims__ above 8
 * blocks is non-portable; deprecated non-`_sync` warp intrinsics. Resource
 * rules look at the compiled kernels: spills, local memory, static shared
 * memory over 48 KB, dynamic shared memory over 48 KB without the opt-in,
 * low occupancy naming its limiter. */
#ifndef UPK_GPU_LINT_H
#define UPK_GPU_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"
#include "gpu/compile/kernel.h"
#include "gpu/compile/srcscan.h"

/** Source rules for `arch` (e.g. "sm_90a", "sm_80", "compute_90"). Returns 0 or -ENOMEM. */
int upk_lint_source(const char *src, size_t len, const upk_src_facts *facts, const char *arch,
                    upk_diags *out);

/** Resource rules over compiled kernels (occupancy already filled in).
 * `dynamic_smem` is the launch's dynamic shared memory in bytes (0 when unknown). */
int upk_lint_kernels(const upk_kernel_info *k, size_t n, const upk_src_facts *facts,
                     const char *arch, long dynamic_smem, upk_diags *out);

/** What a resource rule sees of one compiled kernel: the kernel, the file's facts, the launch's
 * dynamic shared memory (lint_kernels.c). */
typedef struct upk_klint upk_klint;

/** One resource rule (docs/kernels.md, "Adding a lint rule"): its stable code, its usual
 * severity, and its check, which returns true when the kernel breaks the rule, with the finding
 * (after "kernel 'NAME' ") in msg; it may change *sev when the weight depends on the file. */
typedef struct upk_lint_rule {
  const char *code;
  upk_severity severity;
  bool (*check)(const upk_klint *c, upk_severity *sev, char *msg, size_t n);
} upk_lint_rule;

/** The resource rules upk_lint_kernels applies, in order; *n gets their number. */
const upk_lint_rule *upk_lint_kernel_rules(size_t *n);

/** The compute capability of an arch string times 10 (sm_90a -> 90), or -1. */
int upk_arch_number(const char *arch);

#endif
