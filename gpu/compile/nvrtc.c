/* libnvrtc through dlopen: find it under the toolkit root, resolve the entry
 * points compile.c uses, ask its version and supported architectures. */
#include "gpu/compile/nvrtc.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { MAX_ROOTS = 8 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static upk_nvrtc *loaded[MAX_ROOTS];
static size_t n_loaded;

/* Resolve one symbol into `slot`; false when it is missing. */
static bool bind(void *h, const char *name, void *slot) {
  void *f = dlsym(h, name);
  if (f)
    memcpy(slot, &f, sizeof f); /* object pointer -> function pointer, as POSIX allows */
  return f != NULL;
}

static bool bind_all(void *h, upk_nvrtc *n) {
  return bind(h, "nvrtcGetErrorString", &n->error_string) &&
         bind(h, "nvrtcCreateProgram", &n->create) && bind(h, "nvrtcDestroyProgram", &n->destroy) &&
         bind(h, "nvrtcCompileProgram", &n->compile) &&
         bind(h, "nvrtcGetProgramLogSize", &n->log_size) &&
         bind(h, "nvrtcGetProgramLog", &n->log) && bind(h, "nvrtcGetPTXSize", &n->ptx_size) &&
         bind(h, "nvrtcGetPTX", &n->ptx) && bind(h, "nvrtcGetCUBINSize", &n->cubin_size) &&
         bind(h, "nvrtcGetCUBIN", &n->cubin) && bind(h, "nvrtcAddNameExpression", &n->add_name) &&
         bind(h, "nvrtcGetLoweredName", &n->lowered_name);
}

/* Version and architecture list; both are plain queries that cannot fail on
 * a working library, so a failure means the library is unusable. */
static int query(void *h, upk_nvrtc *n) {
  int (*version)(int *, int *) = NULL, (*num)(int *) = NULL, (*archs)(int *) = NULL;
  if (!bind(h, "nvrtcVersion", &version) || !bind(h, "nvrtcGetNumSupportedArchs", &num) ||
      !bind(h, "nvrtcGetSupportedArchs", &archs))
    return -ENOENT;
  if (version(&n->major, &n->minor) || num(&n->n_archs) || n->n_archs <= 0)
    return -ENOENT;
  n->archs = upk_xcalloc((size_t)n->n_archs, sizeof *n->archs);
  return archs(n->archs) ? -ENOENT : 0;
}

/* dlopen the first candidate that loads; `reason` collects why each failed. */
static void *open_lib(const char *root, char *lib, size_t lib_len, char *reason, size_t len) {
  static const char *const rel[] = {"lib64/libnvrtc.so", "lib/libnvrtc.so",
                                    "targets/x86_64-linux/lib/libnvrtc.so", "lib64/libnvrtc.so.13",
                                    "lib/libnvrtc.so.13"};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    snprintf(lib, lib_len, "%s/%s", root, rel[i]);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (h)
      return h;
    if (i == 0) {
      const char *e = dlerror();
      snprintf(reason, len,
               "no usable NVRTC under %s (tried lib64, lib, targets/x86_64-linux/lib): %s", root,
               e ? e : "not found");
    }
  }
  return NULL;
}

static int load(const char *root, upk_nvrtc **out, char *reason, size_t len) {
  upk_nvrtc *n = upk_xcalloc(1, sizeof *n);
  snprintf(n->root, sizeof n->root, "%s", root);
  void *h = open_lib(root, n->lib, sizeof n->lib, reason, len);
  int rc = h ? 0 : -ENOENT;
  if (h && !bind_all(h, n)) {
    snprintf(reason, len, "%s lacks NVRTC entry points (too old?)", n->lib);
    rc = -ENOENT;
  }
  if (!rc && (rc = query(h, n)) == -ENOENT)
    snprintf(reason, len, "%s does not answer its version or architectures", n->lib);
  if (rc) {
    if (h)
      dlclose(h);
    free(n->archs);
    free(n);
    return rc;
  }
  *out = n;
  return 0;
}

int upk_nvrtc_get(const char *root, const upk_nvrtc **out, char *reason, size_t reason_len) {
  int rc = 0;
  *out = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < n_loaded && !*out; i++)
    if (!strcmp(loaded[i]->root, root))
      *out = loaded[i];
  if (!*out && n_loaded == MAX_ROOTS) {
    /* Each stays loaded for good (see nvrtc.h): bound how many one process holds. */
    snprintf(reason, reason_len, "this process already holds NVRTC from %d toolkits", MAX_ROOTS);
    rc = -ENOENT;
  } else if (!*out && !(rc = load(root, &loaded[n_loaded], reason, reason_len))) {
    *out = loaded[n_loaded++];
  }
  pthread_mutex_unlock(&lock);
  return rc;
}
