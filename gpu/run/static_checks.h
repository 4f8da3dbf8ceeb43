/** Static checks of a kernel submission before it runs (issue 50, part 4; KernelBench's static
 * checker): what a `run` refuses by reading the source, so a refused kernel never reaches the
 * GPU. Token-level (gpu/compile/srclex.h): never comments, never the text of an unrelated string.
 *
 * - `run/forbidden-library`: a library the task forbids (run.forbid; with a PyTorch reference
 *   torch, cuBLAS and cuDNN by default): its headers or its names (`at::`, `torch::`, `c10::`,
 *   `cublas*`, `cudnn*`, `thrust::`, CUTLASS's device-level launchers).
 * - `run/timing-api`, `run/stream-api`, `run/host-copy`, `run/host-thread`: the submission
 *   times or synchronizes itself, makes its own streams or host callbacks, copies to the host,
 *   or starts threads / exit handlers.
 * - `run/device-clock` (warning): a kernel reads the clock, so it can tell launches apart.
 * - `run/launch-counter` (warning): a file-scope `__device__` variable that device code only
 *   ever increments: a launch counter a kernel can use to behave differently on later launches.
 * - `run/includes-reference`, `run/reads-reference`: an `#include` of the reference's file (the
 *   PyTorch problem, the reference kernel's source), a string naming it, or a name of one of
 *   the reference source's device variables. */
#ifndef UPK_GPU_KSTATIC_H
#define UPK_GPU_KSTATIC_H

#include <jansson.h>
#include <stddef.h>

#include "common/diag.h"

enum {
  UPK_FORBID_TORCH = 1 << 0,   /* torch::, at::, c10::, ATen / torch / c10 headers */
  UPK_FORBID_CUBLAS = 1 << 1,  /* cublas*, cublasLt*, CUBLAS_*, <cublas*.h> */
  UPK_FORBID_CUDNN = 1 << 2,   /* cudnn*, CUDNN_*, <cudnn*.h>, cudnn_frontend */
  UPK_FORBID_CUTLASS = 1 << 3, /* cutlass::{gemm,conv,reduction}::device::, cutlass/library */
  UPK_FORBID_THRUST = 1 << 4,  /* thrust::, <thrust/...> */
};
/** What a run with a PyTorch reference forbids when run.forbid is absent: the point of a
 * KernelBench problem is to write the kernel, not to call the library that already has it. */
#define UPK_FORBID_PYTORCH_DEFAULT (UPK_FORBID_TORCH | UPK_FORBID_CUBLAS | UPK_FORBID_CUDNN)
#define UPK_FORBID_NAMES "torch, cublas, cudnn, cutlass, thrust"

typedef struct upk_kstatic_cfg {
  unsigned forbid;              /* UPK_FORBID_* */
  const char *const *ref_files; /* the reference's files (paths or names); NULLs skipped */
  size_t n_ref_files;
  const char *ref_source; /* a reference kernel in another source, or NULL */
  size_t ref_len;
} upk_kstatic_cfg;

/** run.forbid: an array of names from UPK_FORBID_NAMES into `*mask`. 0, or -EINVAL with `err`
 * naming the element ("run.forbid[1]: unknown library 'x'; ..."). */
int upk_kstatic_forbid_parse(json_t *v, unsigned *mask, char *err, size_t err_len);

/** The checks over `len` bytes of `src`; diagnostics (source "upskilld-run", zero-based byte
 * columns) appended to `out`. Returns 0 or -ENOMEM. */
int upk_kstatic_check(const char *src, size_t len, const upk_kstatic_cfg *cfg, upk_diags *out);

struct upk_run_spec;

/** The checks of a kernel/validate request with a `run` (the worker's params: `source` or
 * `path`), configured from the spec: its forbid mask, its reference's files and source; then of
 * each header in `deps` (validate's `dependencies`) under the file's own directory (`fileDir`
 * for inline source), with `file` set to the header. The file's diagnostics count UTF-16 columns.
 * Returns the number of errors added (a run with any is refused before the device is opened),
 * or -ENOMEM. */
int upk_kstatic_run(json_t *params, const struct upk_run_spec *s, json_t *deps, upk_diags *out);

#endif
