/** What CUDA this machine has: the toolkit (NVRTC, nvJitLink, headers) and
 * the driver (libcuda, opened with dlopen, never linked). Plain C structs;
 * safe to call off the loop thread. */
#ifndef UPK_GPU_TOOLKIT_H
#define UPK_GPU_TOOLKIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_cuda_toolkit {
  bool found; /* headers and NVRTC present */
  char path[512];
  int version_major, version_minor; /* from cuda.h's CUDA_VERSION; 0 if unknown */
  bool has_nvrtc, has_nvjitlink;
  char reason[256]; /* why not found */
} upk_cuda_toolkit;

typedef struct upk_cuda_driver {
  bool found; /* libcuda loads and reports a version */
  int version_major, version_minor;
  char reason[256];
} upk_cuda_driver;

/** The toolkit root in use: `override` if given, else $CUDA_PATH, else the build default. */
const char *upk_cuda_default_path(const char *override);
/** Look at the toolkit under `path`. Always fills `out`; returns 0 or -ENOENT. */
int upk_cuda_toolkit_probe(const char *path, upk_cuda_toolkit *out);
/** The toolkit's version under `path` as "13.0" (from cuda.h), or "none" when no toolkit
 * is found there; written to `out`, which is returned. Part of every kernel-cache key. */
const char *upk_cuda_toolkit_version(const char *path, char *out, size_t len);
/** dlopen libcuda and ask its version (no cuInit: that belongs in a worker). */
int upk_cuda_driver_probe(upk_cuda_driver *out);

#endif
