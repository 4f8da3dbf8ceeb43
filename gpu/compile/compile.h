/** NVRTC compilation to a cubin, with every log line turned into diagnostics.
 *
 * libnvrtc is opened with dlopen from the toolkit in use, so a machine
 * without CUDA builds and runs upskilld and gets one clear diagnostic here.
 * Pipeline (see ../shared/reference/cuda-validation.md §3): NVRTC straight
 * to cubin with `-lineinfo --ptxas-options=-v` (plus -warn-spills and
 * -warn-lmem-usage), ptxas report parsed per kernel; a failed compile whose
 * log has no error line is retried without -v; ptxas errors, which cite PTX
 * lines, are mapped back to source lines through the PTX's `.loc`
 * directives. Blocking: call it in a worker process, never on the loop.
 */
#ifndef UPK_GPU_COMPILE_H
#define UPK_GPU_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"
#include "gpu/compile/kernel.h"

/** A string list (borrowed pointers). */
typedef struct upk_strv {
  const char *const *v;
  size_t n;
} upk_strv;

/** A header handed to NVRTC as bytes, not opened by it: the include policy read `text` once,
 * through a descriptor that follows no link, and checked it; NVRTC takes it wherever an
 * `#include` spells `name`. `path` is the file it was read from (diagnostics name it). */
typedef struct upk_src_header {
  const char *name, *path, *text;
} upk_src_header;

typedef struct upk_compile_req {
  const char *source; /* not necessarily NUL-terminated at source_len: use the length */
  size_t source_len;
  const char *file_name; /* the program's name in logs and diagnostics, e.g. "kernel.cu" */
  const char *cuda_path; /* toolkit root; NULL: upk_cuda_default_path(NULL) */
  const char *arch;      /* "sm_90a" when NULL; any NVRTC -arch value ("sm_80", "compute_90") */
  const char *std;       /* "c++17" when NULL */
  upk_strv defines;      /* "NAME" or "NAME=VALUE" */
  upk_strv includes;     /* -I dirs, in order, after the file's own dir */
  upk_strv options;      /* extra NVRTC options, passed as given */
  upk_strv names;        /* kernels to report (template instances such as "scale<float>"
                            are instantiated with nvrtcAddNameExpression); empty: all */
  bool pch;              /* use NVRTC's in-process precompiled headers (-pch) */
  bool detached;         /* the source is not the file `file_name` names (inline source, a
                            name a client chose): its "..." includes are not looked up beside
                            that name nor in the process's directory, where the include policy
                            did not look (NVRTC names the program under /dev/null, nvcc compiles
                            a copy in its private directory) */
  upk_strv readable;     /* nvcc: more directories its sandbox shows read-only (the project);
                            the file's, the include directories and the toolkit are shown anyway */
  const upk_src_header *headers; /* NVRTC: the checked headers, served from memory */
  size_t n_headers;
  bool sandbox_required; /* nvcc: options a project or an agent wrote are on the line: refuse
                            ("kernel/no-sandbox") rather than run nvcc without the sandbox */
} upk_compile_req;

typedef struct upk_compile_result {
  bool ok;                  /* a cubin was produced and no error diagnostic was made */
  upk_diags diags;          /* codes "nvrtc/<n>", "nvrtc/error", "ptxas/error", ... */
  upk_kernel_info *kernels; /* ptxas report per kernel (name, mangled, resources) */
  size_t n_kernels;
  double compile_ms;      /* wall time of the NVRTC calls */
  char nvrtc_version[16]; /* "13.0"; "" when NVRTC is missing */
  char *log;              /* the last raw NVRTC log (for --verbose output) */
  void *cubin;            /* the cubin on success (for the Driver API); NULL otherwise */
  size_t cubin_size;
  bool confined; /* the compiler could open files only in its places (Landlock or bubblewrap) */
} upk_compile_result;

/** Compile; always fills `out` (diagnostics say what went wrong). Returns 0 when
 * the compiler ran (whether or not the source has errors), -ENOENT when NVRTC
 * is missing (one "kernel/no-toolkit" diagnostic), -ENOMEM. */
int upk_compile(const upk_compile_req *req, upk_compile_result *out);
void upk_compile_result_free(upk_compile_result *r);

/** Load libnvrtc now (a worker does this at start so the first request is fast).
 * Returns 0 or -ENOENT with a reason. */
int upk_nvrtc_load(const char *cuda_path, char *reason, size_t reason_len);

#endif
