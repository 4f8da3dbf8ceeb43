/* What the PyTorch-reference run tests (test_pyref_krun.c, test_pyref_op.c) share: the `twice`
 * kernel, a private directory with the driver forced away and the stand-in python3
 * (pyref_standin.c), the run op on a spec given as JSON text, the one error a result must carry,
 * and the skips (no toolkit; no python3, or one with torch). Header-only, like gpu_test.h. */
#ifndef UPK_TESTS_RUN_TEST_H
#define UPK_TESTS_RUN_TEST_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/worker/run_op.h"

/* y = 2x over n floats, as the stand-in's reference computes it. */
#define RT_TWICE_SRC                                                                               \
  "extern \"C\" __global__ void twice(const float *x, float *y, int n) {\n"                        \
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                             \
  "  if (i < n) y[i] = 2.0f * x[i];\n"                                                             \
  "}\n"

#define RT_NEED_TOOLKIT()                                                                          \
  do {                                                                                             \
    if (access("/usr/local/cuda/include/nvrtc.h", R_OK) != 0)                                      \
      cr_skip_test("no CUDA toolkit");                                                             \
  } while (0)

/* No driver (the answer is the same on a GPU machine), no disk cache, the stand-in as python3;
 * `dir` (a mkdtemp template) becomes the test's private directory. */
static inline void rt_setup(char *dir) {
  setenv("UPSKILLD_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  setenv("XDG_CACHE_HOME", "/nonexistent-cache-dir", 1);
  setenv("UPSKILLD_PYTHON", getenv("PYREF_STANDIN"), 1);
  cr_assert_not_null(mkdtemp(dir));
}

static inline void rt_teardown(const char *dir) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* Writes `text` to `dir`/`rel`; that path (static storage, valid until the next call). */
static inline const char *rt_put(const char *dir, const char *rel, const char *text) {
  static char path[400];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
  return path;
}

/* The run op on the kernel at `path`, or on inline `source` named `file_name` (path NULL), with
 * the run spec `run_text` (JSON); the result (caller owns it). */
static inline json_t *rt_run(const char *path, const char *source, const char *file_name,
                             const char *run_text) {
  json_error_t e;
  json_t *run = json_loads(run_text, 0, &e);
  cr_assert_not_null(run, "%s: %s", e.text, run_text);
  json_t *p = path ? json_pack("{s:s,s:o,s:b}", "path", path, "run", run, "noCache", 1)
                   : json_pack("{s:s,s:s,s:o,s:b}", "source", source, "fileName", file_name, "run",
                               run, "noCache", 1);
  char err[512];
  json_t *res = upk_kernel_run_json(p, err, sizeof err);
  cr_assert_not_null(res, "%s", err);
  json_decref(p);
  return res;
}

/* The only error diagnostic of the result, which must have `code`, with the compile half
 * answered; its message. */
static inline const char *rt_only_error(json_t *res, const char *code) {
  json_t *d, *found = NULL;
  size_t i, n = 0;
  json_array_foreach(json_object_get(res, "diagnostics"), i, d) {
    if (json_integer_value(json_object_get(d, "severity")) == 1)
      found = d, n++;
  }
  cr_assert_eq(n, 1, "one error expected: %s", json_dumps(res, JSON_INDENT(1)));
  cr_assert_str_eq(json_string_value(json_object_get(found, "code")), code, "%s",
                   json_string_value(json_object_get(found, "message")));
  cr_assert(json_is_false(json_object_get(res, "ok")));
  cr_assert_eq(json_array_size(json_object_get(res, "kernels")), 1, "the compile half answered");
  return json_string_value(json_object_get(found, "message"));
}

/* Without a device and without torch: exactly two errors, the missing device first (it names the
 * way to a remote GPU), then the missing torch; the message of the latter. */
static inline const char *rt_no_device_then_no_torch(json_t *res) {
  json_t *errs = json_array(), *d;
  size_t i;
  json_array_foreach(json_object_get(res, "diagnostics"), i, d) {
    if (json_integer_value(json_object_get(d, "severity")) == 1)
      json_array_append(errs, d);
  }
  cr_assert_eq(json_array_size(errs), 2, "two errors expected: %s", json_dumps(res, 0));
  const char *dev = json_string_value(json_object_get(json_array_get(errs, 0), "code"));
  const char *msg = json_string_value(json_object_get(json_array_get(errs, 0), "message"));
  cr_assert_str_eq(dev, "run/no-device", "the device comes first: %s", json_dumps(res, 0));
  cr_assert(strstr(msg, "--worker-command=\"srun") && strstr(msg, "docs/gpu.md"), "%s", msg);
  d = json_array_get(errs, 1);
  cr_assert_str_eq(json_string_value(json_object_get(d, "code")), "run/no-torch");
  const char *m = json_string_value(json_object_get(d, "message"));
  json_decref(errs); /* the diagnostics stay in res */
  return m;
}

/* The real helper's no-torch path needs a python3, and one without torch. */
static inline void rt_need_python_without_torch(void) {
  if (system("python3 -c '' 2>/dev/null") != 0)
    cr_skip_test("no python3");
  if (system("python3 -c 'import torch' 2>/dev/null") == 0)
    cr_skip_test("python3 has torch: the no-torch path cannot be shown here");
}

#endif
