#include "gpu/compile/toolkit.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "upk_config.h"

const char *upk_cuda_default_path(const char *override) {
  if (override && *override)
    return override;
  const char *env = getenv("CUDA_PATH");
  return env && *env ? env : UPK_CUDA_PATH;
}

static bool exists_under(const char *root, const char *const *rels) {
  char p[1024];
  for (; *rels; rels++) {
    snprintf(p, sizeof p, "%s/%s", root, *rels);
    if (access(p, R_OK) == 0)
      return true;
  }
  return false;
}

static void read_version(const char *root, upk_cuda_toolkit *out) {
  char p[1024], line[256];
  snprintf(p, sizeof p, "%s/include/cuda.h", root);
  FILE *f = fopen(p, "r");
  if (!f)
    return;
  int v;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "#define CUDA_VERSION %d", &v) == 1) {
      out->version_major = v / 1000;
      out->version_minor = (v % 1000) / 10;
      break;
    }
  }
  fclose(f);
}

int upk_cuda_toolkit_probe(const char *path, upk_cuda_toolkit *out) {
  static const char *const nvrtc[] = {"lib64/libnvrtc.so", "lib/libnvrtc.so",
                                      "targets/x86_64-linux/lib/libnvrtc.so", NULL};
  static const char *const jitlink[] = {"lib64/libnvJitLink.so", "lib/libnvJitLink.so",
                                        "targets/x86_64-linux/lib/libnvJitLink.so", NULL};
  static const char *const header[] = {"include/nvrtc.h", NULL};
  memset(out, 0, sizeof *out);
  snprintf(out->path, sizeof out->path, "%s", path);
  out->has_nvrtc = exists_under(path, nvrtc);
  out->has_nvjitlink = exists_under(path, jitlink);
  read_version(path, out);
  out->found = out->has_nvrtc && exists_under(path, header);
  if (!out->found)
    snprintf(out->reason, sizeof out->reason,
             "no CUDA toolkit at %s (NVRTC or include/nvrtc.h missing); set CUDA_PATH", path);
  return out->found ? 0 : -ENOENT;
}

typedef int (*cu_driver_get_version_fn)(int *);

int upk_cuda_driver_probe(upk_cuda_driver *out) {
  memset(out, 0, sizeof *out);
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(out->reason, sizeof out->reason, "no NVIDIA driver: %s",
             e ? e : "libcuda.so.1 not found");
    return -ENOENT;
  }
  cu_driver_get_version_fn get = (cu_driver_get_version_fn)dlsym(h, "cuDriverGetVersion");
  int v = 0;
  if (!get || get(&v) != 0) {
    snprintf(out->reason, sizeof out->reason, "libcuda.so.1 loaded but cuDriverGetVersion failed");
    dlclose(h);
    return -EIO;
  }
  out->found = true;
  out->version_major = v / 1000;
  out->version_minor = (v % 1000) / 10;
  dlclose(h);
  return 0;
}

const char *upk_cuda_toolkit_version(const char *path, char *out, size_t len) {
  upk_cuda_toolkit t;
  upk_cuda_toolkit_probe(path, &t);
  if (t.found && t.version_major)
    snprintf(out, len, "%d.%d", t.version_major, t.version_minor);
  else
    snprintf(out, len, "none");
  return out;
}
