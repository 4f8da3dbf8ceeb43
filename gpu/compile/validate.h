/** Kernel validation, one request: include policy, NVRTC compile, ptxas
 * report, source facts, occupancy and H100 lint, merged into one result.
 * Blocking (it compiles): runs inside upskilld-worker.
 *
 * upk_kernel_validate_json is the worker's whole job for op "validate": wire
 * params in, the final result JSON out (the shape `kernel/validate` answers,
 * documented in docs/protocol.md). */
#ifndef UPK_GPU_KVALIDATE_H
#define UPK_GPU_KVALIDATE_H

#include <jansson.h>

#include "gpu/compile/compile.h"
#include "gpu/compile/includes.h"
#include "gpu/compile/launches.h"

/** Which compiler runs: NVRTC (device code, in-process, fast) or nvcc (whole
 * files with host code: main, <<<...>>> launches, iostream, torch bindings).
 * AUTO takes nvcc when the source scan finds host code, else NVRTC. */
typedef enum { UPK_BACKEND_AUTO, UPK_BACKEND_NVRTC, UPK_BACKEND_NVCC } upk_backend;

/** "auto", "nvrtc" or "nvcc" -> the enum; -EINVAL for anything else. */
int upk_backend_parse(const char *s, upk_backend *out);

/** A block size or dynamic shared memory the request gives one kernel (`perKernel`). */
typedef struct upk_kernel_given {
  const char *name;  /* "matrixMul" (every instantiation) or "reduce4<int, 256>" */
  int block;         /* threads per block; 0: not given */
  long dynamic_smem; /* bytes; -1: not given */
} upk_kernel_given;

typedef struct upk_kvalidate_req {
  upk_compile_req compile;
  const char *file_dir;     /* the file's directory (searched first, allowed); NULL inline */
  upk_strv allowed;         /* roots includes may come from (workspace, given dirs) */
  const char *project_root; /* the file's project (projroot.h), allowed too; NULL inline */
  const int *block_sizes;   /* occupancy at these sizes; none: __launch_bounds__ or 256 */
  size_t n_block_sizes;
  long dynamic_smem; /* bytes of dynamic shared memory per block (has_dynamic_smem) */
  bool has_dynamic_smem;
  const upk_kernel_given *given; /* per kernel, ahead of the above */
  size_t n_given;
  upk_backend backend; /* AUTO (0) unless asked */
  /* Where compile.options and compile.includes come from (gpu/compile/options.h checks them all):
   * the first n_project_options / n_project_includes are a build.toml's (its cuda-flags, its
   * include dirs), of the project at options_project, trusted or not; the rest are the
   * request's, never trusted. allow_options: the user's own --allow-kernel-option globs. */
  size_t n_project_options, n_project_includes;
  const char *options_project;
  bool project_trusted;
  upk_strv allow_options;
} upk_kvalidate_req;

typedef struct upk_kvalidate_result {
  upk_compile_result c; /* kernels and every diagnostic (compile, include, lint) */
  upk_occupancy *occ;   /* n_kernels * n_block_sizes, row per kernel (when sizes given) */
  upk_include_deps deps;
  const char *backend;   /* static: "nvrtc" or "nvcc", what ran (NULL: nothing ran) */
  upk_launches launches; /* every launch site the file has (launches.h) */
} upk_kvalidate_result;

int upk_kernel_validate(const upk_kvalidate_req *req, upk_kvalidate_result *out);
void upk_kvalidate_result_free(upk_kvalidate_result *r);

/** Wire form: params object (see docs/kernels.md, "Worker wire protocol") -> result object.
 * Returns NULL with `err` filled when the params are malformed. */
json_t *upk_kernel_validate_json(json_t *params, char *err, size_t err_len);

#endif
