/** A light scan of CUDA source text (no compiler): where kernels are defined
 * and with which attributes, and which `#include`s the file has. Comments and
 * string literals are skipped; preprocessor conditionals are recorded so lint
 * can tell whether Hopper-only code is guarded by `__CUDA_ARCH__`. */
#ifndef UPK_GPU_SRCSCAN_H
#define UPK_GPU_SRCSCAN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_src_kernel {
  char *name;                  /* identifier after __global__ ... */
  int line, col;               /* zero-based position of the name */
  int max_threads, min_blocks; /* __launch_bounds__(a, b); 0 when absent or not a literal */
  int cluster[3];              /* __cluster_dims__(x, y, z); zeros when absent */
  bool is_template;
} upk_src_kernel;

typedef struct upk_src_include {
  char *target; /* as written, without the delimiters */
  bool angled;  /* <...> rather than "..." */
  int line, col, end_col; /* zero-based range of the target text */
} upk_src_include;

typedef struct upk_src_facts {
  upk_src_kernel *kernels;
  size_t n_kernels;
  upk_src_include *includes;
  size_t n_includes;
  bool uses_dynamic_smem; /* extern __shared__ */
  bool has_smem_optin;    /* cudaFuncAttributeMaxDynamicSharedMemorySize or the driver's name */
  bool has_host_code;     /* main(), <<<...>>>, cudaMalloc, ... (issue 7 decides backends with it) */
} upk_src_facts;

/** Scan `len` bytes of `src`. Returns 0 or -ENOMEM. */
int upk_src_scan(const char *src, size_t len, upk_src_facts *out);
void upk_src_facts_free(upk_src_facts *f);

/** The zero-based line of `name`'s kernel definition (templates match on the part
 * before '<'), or -1. */
const upk_src_kernel *upk_src_find_kernel(const upk_src_facts *f, const char *name);

#endif
