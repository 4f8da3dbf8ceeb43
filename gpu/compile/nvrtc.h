/** libnvrtc opened with dlopen (never linked), so upskilld builds and runs
 * on a machine without CUDA. Internal to gpu/: compile.c is the only user.
 *
 * The types mirror nvrtc.h's without including it (the header may be absent
 * at build time). A library is loaded once per toolkit root and kept for the
 * life of the process: NVRTC keeps its precompiled-header state in-process,
 * and unloading it under a later compile would gain nothing. */
#ifndef UPK_GPU_NVRTC_H
#define UPK_GPU_NVRTC_H

#include <stddef.h>

/* nvrtcResult values upskilld acts on. */
enum {
  UPK_NVRTC_SUCCESS = 0,
  UPK_NVRTC_ERROR_INVALID_OPTION = 5,
  UPK_NVRTC_ERROR_COMPILATION = 6,
};

typedef struct _nvrtcProgram *upk_nvrtc_prog;

/** The entry points used, resolved from one libnvrtc. */
typedef struct upk_nvrtc {
  char root[512];   /* the toolkit root it was loaded for */
  char lib[600];    /* the file actually opened */
  int major, minor; /* nvrtcVersion */
  int *archs;       /* nvrtcGetSupportedArchs: 75, 80, ..., 120, 121 */
  int n_archs;
  const char *(*error_string)(int rc);
  int (*create)(upk_nvrtc_prog *p, const char *src, const char *name, int n_headers,
                const char *const *headers, const char *const *include_names);
  int (*destroy)(upk_nvrtc_prog *p);
  int (*compile)(upk_nvrtc_prog p, int n_options, const char *const *options);
  int (*log_size)(upk_nvrtc_prog p, size_t *n);
  int (*log)(upk_nvrtc_prog p, char *buf);
  int (*ptx_size)(upk_nvrtc_prog p, size_t *n);
  int (*ptx)(upk_nvrtc_prog p, char *buf);
  int (*cubin_size)(upk_nvrtc_prog p, size_t *n);
  int (*cubin)(upk_nvrtc_prog p, char *buf);
  int (*add_name)(upk_nvrtc_prog p, const char *name_expression);
  int (*lowered_name)(upk_nvrtc_prog p, const char *name_expression, const char **lowered);
} upk_nvrtc;

/** The NVRTC of the toolkit at `root` (loaded on first use, then cached).
 * Thread-safe. Returns 0, -ENOENT (no usable libnvrtc there; `reason` says
 * which paths were tried and why) or -ENOMEM. */
int upk_nvrtc_get(const char *root, const upk_nvrtc **out, char *reason, size_t reason_len);

#endif
