/* The run op with no usable driver (forced with UPSKILLD_LIBCUDA, so the
 * answer is the same on a GPU machine): one clear "run/no-device"
 * diagnostic, the compile results intact; plus the driver layer's error
 * naming and sticky-error classification. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/run/cudrv.h"
#include "gpu/worker/run_op.h"
#include "gpu/run/sanitizer.h"

static const char SRC[] = "extern \"C\" __global__ void scale(const float *x, float *y, int n) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  if (i < n) y[i] = 2.0f * x[i];\n"
                          "}\n";

static const char RUN[] = "{\"kernel\":\"scale\",\"grid\":4,\"block\":256,\"args\":["
                          "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"in\"},"
                          "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"out\"},"
                          "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}]%s}";

static void no_driver(void) {
  setenv("UPSKILLD_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  setenv("XDG_CACHE_HOME", "/nonexistent-cache-dir", 1); /* no disk cache in tests */
}

static bool have_toolkit(void) {
  return access("/usr/local/cuda/include/nvrtc.h", R_OK) == 0;
}

static json_t *params(const char *src, const char *run_extra) {
  char run[2048];
  snprintf(run, sizeof run, RUN, run_extra);
  json_t *r = json_loads(run, 0, NULL);
  cr_assert_not_null(r);
  return json_pack("{s:s,s:s,s:o,s:b}", "source", src, "fileName", "scale.cu", "run", r, "noCache",
                   1);
}

static json_t *find_diag(json_t *result, const char *code) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (c && !strcmp(c, code))
      return d;
  }
  return NULL;
}

static size_t count_prefix(json_t *result, const char *prefix) {
  json_t *d;
  size_t i, n = 0;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    n += c && !strncmp(c, prefix, strlen(prefix));
  }
  return n;
}

Test(cudrv, missing_driver_is_a_clean_error) {
  no_driver();
  upk_cudrv d;
  char err[512];
  cr_assert_eq(upk_cudrv_open(&d, 0, err, sizeof err), -ENOENT);
  cr_assert(strstr(err, "no NVIDIA driver: "), "%s", err);
  cr_assert(strstr(err, "/nonexistent/libcuda.so.1"), "dlopen's own message: %s", err);
  upk_cudrv_close(&d);
}

Test(cudrv, sticky_errors_and_names) {
  static const int sticky[] = {700, 702, 710, 714, 715, 716, 718, 719};
  for (size_t i = 0; i < sizeof sticky / sizeof *sticky; i++)
    cr_assert(upk_cu_is_sticky(sticky[i]), "%d is sticky", sticky[i]);
  cr_assert(!upk_cu_is_sticky(701), "too many resources leaves the context usable");
  cr_assert(!upk_cu_is_sticky(1));
  cr_assert(!upk_cu_is_sticky(2));
  cr_assert_str_eq(upk_cu_error_name(716), "CUDA_ERROR_MISALIGNED_ADDRESS");
  char buf[256];
  upk_cu_describe(NULL, 700, buf, sizeof buf);
  cr_assert_str_eq(buf, "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was "
                        "encountered");
  upk_cu_describe(NULL, 12345, buf, sizeof buf);
  cr_assert(strstr(buf, "(12345)"), "%s", buf);
}

Test(krun, no_device_answer_keeps_compile_results) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit at /usr/local/cuda (include/nvrtc.h missing)");
  no_driver();
  char err[256] = "";
  json_t *p = params(SRC, "");
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  json_t *d = find_diag(r, "run/no-device");
  cr_assert_not_null(d, "%s", json_dumps(r, 0));
  const char *msg = json_string_value(json_object_get(d, "message"));
  cr_assert(!strncmp(msg, "no CUDA device: no NVIDIA driver: ", 34), "%s", msg);
  cr_assert(strstr(msg, "UPSKILLD_WORKER_COMMAND=\"srun ") &&
                strstr(msg, "upskilld --worker-command=\"srun ") &&
                strstr(msg, "docs/gpu.md, \"On a cluster\""),
            "names the ways to a remote GPU and the Slurm setup: %s", msg);
  cr_assert_eq(count_prefix(r, "run/"), 1, "exactly one run diagnostic");
  cr_assert_eq(json_integer_value(json_object_get(d, "severity")), 1);
  json_t *k = json_array_get(json_object_get(r, "kernels"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "scale", "compile kept");
  cr_assert_gt(json_integer_value(json_object_get(k, "registers")), 0);
  json_t *run = json_object_get(r, "run");
  cr_assert(json_is_false(json_object_get(run, "ok")));
  cr_assert_eq(json_integer_value(json_object_get(run, "trials")), 0);
  cr_assert(json_is_false(json_object_get(r, "ok")), "the request as a whole did not pass");
  cr_assert_null(json_object_get(r, "fatal"), "no CUDA context was touched");
  /* What would have run (issue 50): the drawn seed, the spec's size and its two odd sizes. */
  json_t *plan = json_object_get(run, "plan");
  cr_assert(json_is_integer(json_object_get(run, "seed")));
  cr_assert_eq(json_integer_value(json_object_get(plan, "seed")),
               json_integer_value(json_object_get(run, "seed")));
  cr_assert(json_is_false(json_object_get(plan, "seedGiven")));
  cr_assert_eq(json_array_size(json_object_get(plan, "shapes")), 3);
  json_decref(r);
  json_decref(p);
}

Test(krun, compile_errors_skip_the_run) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit at /usr/local/cuda (include/nvrtc.h missing)");
  no_driver();
  char err[256] = "";
  json_t *p =
      params("extern \"C\" __global__ void scale(float *y) { y[0] = undefined_name; }\n", "");
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  cr_assert_not_null(find_diag(r, "run/skipped"));
  cr_assert_null(find_diag(r, "run/no-device"), "nothing was run, so no device was needed");
  cr_assert_gt(count_prefix(r, "nvrtc/"), 0, "the compile error is reported");
  json_decref(r);
  json_decref(p);
}

Test(krun, sanitizer_not_installed_is_said) {
  char tool[1024];
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit at /usr/local/cuda (include/nvrtc.h missing)");
  if (upk_ksan_find("/usr/local/cuda", tool, sizeof tool))
    cr_skip_test("compute-sanitizer is installed at %s: the not-installed answer can't be seen",
                 tool);
  no_driver();
  char err[256] = "";
  json_t *p = params(SRC, ",\"sanitizer\":\"memcheck\"");
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  json_t *d = find_diag(r, "run/no-sanitizer");
  cr_assert_not_null(d);
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "memcheck"));
  cr_assert_not_null(find_diag(r, "run/no-device"), "the run itself still went ahead");
  json_decref(r);
  json_decref(p);
}

Test(krun, malformed_run_is_an_error_naming_the_field) {
  char err[256] = "";
  json_t *p = params(SRC, ",\"trials\":-1");
  cr_assert_null(upk_kernel_run_json(p, err, sizeof err));
  cr_assert(strstr(err, "run.trials"), "%s", err);
  json_decref(p);
  json_t *q = json_pack("{s:s}", "source", SRC);
  cr_assert_null(upk_kernel_run_json(q, err, sizeof err));
  cr_assert(strstr(err, "params.run"), "%s", err);
  json_decref(q);
}
