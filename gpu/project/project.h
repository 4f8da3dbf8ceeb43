/** A kernel-builder project as validation work: build.toml (gpu/project/buildtoml.h)
 * turned into one job per (CUDA kernel, .cu source, capability), each with
 * its `cuda-flags` and include directories, and those jobs validated in
 * parallel threads inside the worker (each job is one upk_kernel_validate:
 * NVRTC in-process or nvcc as a guarded child, so the pool's timeout and
 * cancel kill stop all of them at once).
 *
 * Rules, as kernel-builder applies them (../shared/reference/cuda-validation.md §2):
 * - only `backend = "cuda"` kernels are compiled (others get an info
 *   diagnostic); of their `src`, the .cu files (headers are reached through
 *   them);
 * - "9.0" builds sm_90, "9.0a" sm_90a, "+PTX" adds a PTX image (validated as
 *   the same SM); a capability the toolkit cannot build is skipped with a
 *   warning at its place in build.toml, as the builder drops it;
 * - no `cuda-capabilities`: the builder builds every capability it supports;
 *   this validates "9.0" (H100, what upskilld checks for) and says so;
 * - include directories: the kernel's `include` (relative to build.toml's
 *   directory), then the request's; the project root is an allowed include
 *   root.
 */
#ifndef UPK_GPU_PROJECT_H
#define UPK_GPU_PROJECT_H

#include <stddef.h>

#include "gpu/project/buildtoml.h"
#include "gpu/compile/validate.h"

typedef struct upk_project_job {
  const upk_bt_kernel *kernel; /* borrowed from the project's build.toml */
  const char *src;             /* the `src` entry as written ("kernel_src/a.cu") */
  char *file;                  /* its absolute path */
  char arch[16];               /* "sm_90a" */
  const char *capability;      /* "9.0a+PTX" as written; "9.0" when defaulted */
  upk_strv flags;              /* `cuda-flags` */
  upk_strv includes;           /* absolute `include` dirs */
} upk_project_job;

typedef struct upk_project {
  upk_buildtoml bt; /* bt.diags: build.toml problems, then project notes */
  char *root;       /* build.toml's directory, absolute */
  upk_project_job *jobs;
  size_t n_jobs;
  const char **ptrs; /* storage behind every job's flags and includes */
  char **owned;      /* absolute include dirs */
  size_t n_owned;
} upk_project;

/** Read `dir`/build.toml (or the build.toml `dir` names) and list the jobs.
 * `cuda_path` decides which capabilities the toolkit can build. Returns 0
 * (problems are in out->bt.diags) or -ENOMEM. */
int upk_project_load(const char *dir, const char *cuda_path, upk_project *out);
void upk_project_free(upk_project *p);

/** `a` then `b`, in `buf` (room for a.n + b.n pointers); the strings are borrowed. */
upk_strv upk_strv_concat(upk_strv a, upk_strv b, const char **buf);

/** Validate every job, at most `threads` at a time (<= 0: the cores, at most
 * 8). `base` supplies what build.toml does not (std, defines, extra includes
 * and options, names, block sizes, backend, toolkit, allowed roots); each
 * job overrides the source, arch, flags and include dirs. results[i] (the
 * caller provides n_jobs of them) and rcs[i] are job i's. An `auto` backend
 * takes nvcc for a kernel with `cuda-flags` (they are nvcc's flags).
 * Returns 0 or -ENOMEM. */
int upk_project_validate(const upk_project *p, const upk_kvalidate_req *base, int threads,
                         upk_kvalidate_result *results, int *rcs);

#endif
