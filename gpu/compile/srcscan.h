/** A light scan of CUDA source text (no compiler): where kernels are defined
 * and with which attributes, and which `#include`s the file has. Comments and
 * string literals are skipped; preprocessor conditionals are recorded so lint
 * can tell whether Hopper-only code is guarded by `__CUDA_ARCH__`.
 *
 * Positions are zero-based; columns count bytes of the original text (line
 * continuations are spliced for lexing, positions still point at the original). */
#ifndef UPK_GPU_SRCSCAN_H
#define UPK_GPU_SRCSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/compile/srclex.h"

typedef struct upk_src_kernel {
  char *name;                    /* identifier after __global__ ... */
  int line, col;                 /* zero-based position of the name */
  int max_threads, min_blocks;   /* __launch_bounds__(a, b); 0 when absent or not a literal */
  int cluster[3];                /* __cluster_dims__(x, y, z); zeros when absent (omitted y, z: 1;
                                    a component that is not a literal: 0) */
  int cluster_line, cluster_col; /* position of `__cluster_dims__`; -1 when absent */
  bool is_template;
} upk_src_kernel;

typedef struct upk_src_include {
  char *target;           /* as written, without the delimiters (computed: the macro's name) */
  bool angled;            /* <...> rather than "..." */
  int line, col, end_col; /* zero-based range of the target text */
  bool probe;    /* __has_include / __has_include_next in any directive (an #if, or a #define
                    an #if expands): the file is only looked for, and must pass the policy too */
  bool computed; /* `#include MACRO` or a probe of a macro: the name is the compiler's to expand,
                    so it cannot be checked */
} upk_src_include;

/** One branch of a preprocessor conditional whose condition mentions
 * `__CUDA_ARCH` (`__CUDA_ARCH__`, `__CUDA_ARCH_FEAT_SM90_ALL`, ...). The code on
 * lines (line, end_line) exclusive is compiled only when `cond` holds. `cond` is a
 * preprocessor expression built from the chain: `#if A` gives "(A)", a later
 * `#elif B` gives "!(A) && (B)", `#else` "!(A) && !(B)"; `#ifdef X` is
 * "(defined X)". Nested branches are separate entries; entries are in source order. */
typedef struct upk_src_region {
  char *cond;
  int line;     /* the line of the #if / #elif / #else opening the branch */
  int end_line; /* the line of the directive closing it; past the last line if unclosed */
} upk_src_region;

typedef struct upk_src_facts {
  upk_src_kernel *kernels;
  size_t n_kernels;
  upk_src_include *includes;
  size_t n_includes;
  upk_src_region *regions;
  size_t n_regions;
  bool uses_dynamic_smem; /* extern __shared__ */
  bool has_smem_optin;    /* cudaFuncAttributeMaxDynamicSharedMemorySize or the driver's name */
  bool has_host_code; /* main(), <<<...>>>, cudaMalloc, ... (issue 7 decides backends with it) */
} upk_src_facts;

/** Scan `len` bytes of `src` (NUL bytes allowed). Linear in `len`. Returns 0 or -ENOMEM. */
int upk_src_scan(const char *src, size_t len, upk_src_facts *out);
void upk_src_facts_free(upk_src_facts *f);

/** The kernel definition named `name` (templates match on the part before '<'), or NULL. */
const upk_src_kernel *upk_src_find_kernel(const upk_src_facts *f, const char *name);

#endif
