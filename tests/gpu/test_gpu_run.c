/* Real kernels on a real device through upk_kernel_run_json: correct, wrong,
 * input-writing, unwritten output, constant output, out-of-bounds,
 * endless loop, slow, and a launch over the kernel's thread limit. Every
 * case skips with "no CUDA device: ..." where the driver or a device is
 * missing; nothing here is ever faked. Criterion runs each test in its own
 * process, so a sticky error ends only that test's process (as it ends a
 * worker). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudrv.h"
#include "krun.h"

/* Every kernel the cases use; `ref` is the reference for all of them. */
static const char SRC[] =
    "extern \"C\" __global__ void ref(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void good(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = x[i] + x[i];\n"
    "}\n"
    "extern \"C\" __global__ void wrong(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i] + (i == 77 ? 0.5f : 0.0f);\n"
    "}\n"
    "extern \"C\" __global__ void writes_input(float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) { y[i] = 2.0f * x[i]; x[i] = 0.0f; }\n"
    "}\n"
    "extern \"C\" __global__ void half_written(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n / 2) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void tiny_ref(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 1e-6f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void zeros(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 0.0f;\n"
    "}\n"
    "extern \"C\" __global__ void out_of_bounds(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) ((float *)16)[i] = x[i];\n"
    "}\n"
    "extern \"C\" __global__ void endless(const float *x, float *y, int n) {\n"
    "  volatile int spin = 1;\n"
    "  while (spin) {}\n"
    "}\n"
    "extern \"C\" __global__ void slow(const float *x, float *y, int n) {\n"
    "  unsigned long long t0, t;\n"
    "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
    "  do { asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); } while (t - t0 < 2000000);\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void __launch_bounds__(128) bounded(const float *x, float *y, int n) "
    "{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n";

static void need_device(void) {
  upk_cudrv d;
  char why[512];
  int rc = upk_cudrv_open(&d, 0, why, sizeof why);
  if (rc)
    cr_skip_test("no CUDA device: %s", why);
  upk_cudrv_close(&d);
}

/* Run `kernel` on 4096 floats against `reference` (NULL: ref) with extra run fields. */
static json_t *run(const char *kernel, const char *reference, const char *extra) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"kernel\":\"%s\",\"grid\":16,\"block\":256,\"args\":["
           "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"in\"},"
           "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"out\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":4096}],"
           "\"reference\":{\"name\":\"%s\"},\"iterations\":10%s}",
           kernel, reference ? reference : "ref", extra ? extra : "");
  json_t *spec = json_loads(text, 0, NULL);
  cr_assert_not_null(spec);
  json_t *p = json_pack("{s:s,s:s,s:o,s:b}", "source", SRC, "fileName", "cases.cu", "run", spec,
                        "noCache", 1);
  char err[256] = "";
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  char *dump = json_dumps(r, JSON_INDENT(1));
  fprintf(stderr, "%s\n", dump);
  free(dump);
  return r;
}

static json_t *diag(json_t *r, const char *code) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (c && !strcmp(c, code))
      return d;
  }
  return NULL;
}

static bool run_ok(json_t *r) {
  return json_is_true(json_object_get(json_object_get(r, "run"), "ok"));
}

Test(gpu, correct_kernel_passes_and_is_timed) {
  need_device();
  json_t *r = run("good", NULL, NULL), *runj = json_object_get(r, "run");
  cr_assert(run_ok(r));
  cr_assert_eq(json_integer_value(json_object_get(runj, "trials")), 5);
  cr_assert_float_eq(json_number_value(json_object_get(runj, "maxAbsError")), 0, 0);
  cr_assert(json_is_null(json_object_get(runj, "firstMismatch")));
  cr_assert_gt(json_number_value(json_object_get(json_object_get(runj, "timeMs"), "median")), 0);
  cr_assert(json_is_number(json_object_get(runj, "referenceTimeMs")));
  cr_assert(json_is_number(json_object_get(runj, "speedup")));
  json_t *dev = json_object_get(runj, "device");
  cr_assert(!strncmp(json_string_value(json_object_get(dev, "sm")), "sm_", 3));
  cr_assert_null(json_object_get(r, "fatal"));
  json_decref(r);
}

Test(gpu, wrong_kernel_mismatch_is_located) {
  need_device();
  json_t *r = run("wrong", NULL, NULL), *runj = json_object_get(r, "run");
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/mismatch"));
  json_t *m = json_object_get(runj, "firstMismatch");
  cr_assert_eq(json_integer_value(json_object_get(m, "index")), 77);
  cr_assert_float_eq(json_number_value(json_object_get(runj, "maxAbsError")), 0.5, 1e-6);
  json_decref(r);
}

Test(gpu, input_writing_is_caught) {
  need_device();
  json_t *r = run("writes_input", NULL, NULL);
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/input-written"));
  json_decref(r);
}

Test(gpu, unwritten_output_is_caught) {
  need_device();
  json_t *r = run("half_written", NULL, NULL);
  json_t *d = diag(r, "run/unwritten-output");
  cr_assert_not_null(d);
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "2048 of 4096"));
  json_decref(r);
}

Test(gpu, constant_output_passing_tolerance_is_caught) {
  need_device();
  json_t *r = run("zeros", "tiny_ref", NULL);
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/constant-output"));
  cr_assert_not_null(diag(r, "run/reference-near-zero"));
  json_decref(r);
}

Test(gpu, out_of_bounds_is_a_sticky_crash) {
  need_device();
  json_t *r = run("out_of_bounds", NULL, NULL);
  json_t *d = diag(r, "run/crash");
  cr_assert_not_null(d);
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "CUDA_ERROR_"));
  cr_assert(json_is_true(json_object_get(r, "fatal")), "the worker must exit");
  json_decref(r);
}

Test(gpu, endless_loop_times_out, .timeout = 60) {
  need_device();
  json_t *r = run("endless", NULL, ",\"timeoutMs\":1000");
  cr_assert_not_null(diag(r, "run/timeout"));
  cr_assert(json_is_true(json_object_get(r, "fatal")));
  json_decref(r);
  _exit(0); /* a kernel is still running: end the process without CUDA teardown */
}

Test(gpu, slow_kernel_is_slower_than_reference) {
  need_device();
  json_t *r = run("slow", NULL, ",\"warmup\":1,\"iterations\":3");
  json_t *runj = json_object_get(r, "run");
  cr_assert(run_ok(r));
  cr_assert_geq(json_number_value(json_object_get(json_object_get(runj, "timeMs"), "min")), 1.5,
                "the kernel spins 2 ms by the global timer");
  cr_assert_lt(json_number_value(json_object_get(runj, "speedup")), 1);
  json_decref(r);
}

Test(gpu, launch_over_launch_bounds_is_diagnosed) {
  need_device();
  json_t *r = run("bounded", NULL, NULL);
  json_t *d = diag(r, "run/launch-config");
  cr_assert_not_null(d);
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "at most 128 threads"));
  json_decref(r);
}
