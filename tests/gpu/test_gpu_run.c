/* Real kernels on a real device through upk_kernel_run_json: correct, wrong,
 * input-writing, unwritten output, constant output, out-of-bounds (sticky),
 * a write past the end caught by the guard zones alone, a kernel that
 * memoises its first answer, a block reduction missing its barrier (with
 * and without racecheck), an endless loop that truly hangs, slow, and a
 * launch over the kernel's thread limit. Each case fails when the behaviour
 * it names is absent (see docs/gpu.md "The GPU test suite"). Every
 * case skips with "no CUDA device: ..." where the driver or a device is
 * missing; nothing here is ever faked. Criterion runs each test in its own
 * process, so a sticky error ends only that test's process (as it ends a
 * worker). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/gpu/gpu_test.h"
#include "gpu/worker/run_op.h"
#include "gpu/compile/validate.h"
#include "gpu/run/sanitizer.h"
#include "gpu/compile/toolkit.h"

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
    /* Spins on volatile loads of an input nobody changes: a local volatile flag
     * was seen to finish on an H100, this cannot. */
    "extern \"C\" __global__ void endless(const float *x, float *y, int n) {\n"
    "  const volatile float *vx = x;\n"
    "  float first = vx[0];\n"
    "  while (vx[0] == first) __nanosleep(1000);\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    /* Right on the inputs it first saw, then replays them. */
    "__device__ float memo_val[4096];\n"
    "__device__ int memo_have[4096];\n"
    "extern \"C\" __global__ void memo(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  if (!memo_have[i]) { memo_val[i] = 2.0f * x[i]; memo_have[i] = 1; }\n"
    "  y[i] = memo_val[i];\n"
    "}\n"
    /* No bounds check: the grid's last block writes past the end. */
    "extern \"C\" __global__ void no_bounds(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  y[i] = 2.0f * x[i];\n"
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

/* A block sum (256 threads a block, one output per block): `racy` misses
 * the barrier between the tree's steps, `fixed` has it. */
static const char SRC_SUM[] =
    "extern \"C\" __global__ void sum_ref(const float *x, float *y, int n) {\n"
    "  if (threadIdx.x != 0) return;\n"
    "  float s = 0;\n"
    "  for (int j = 0; j < 256; j++) s += x[blockIdx.x * 256 + j];\n"
    "  y[blockIdx.x] = s;\n"
    "}\n"
    "extern \"C\" __global__ void racy(const float *x, float *y, int n) {\n"
    "  __shared__ float s[256];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = x[blockIdx.x * 256 + t];\n"
    "  for (int w = 128; w > 0; w /= 2) {\n"
    "    if (t < w) s[t] += s[t + w]; /* RACE */\n"
    "  }\n"
    "  if (t == 0) y[blockIdx.x] = s[0];\n"
    "}\n"
    "extern \"C\" __global__ void fixed(const float *x, float *y, int n) {\n"
    "  __shared__ float s[256];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = x[blockIdx.x * 256 + t];\n"
    "  __syncthreads();\n"
    "  for (int w = 128; w > 0; w /= 2) {\n"
    "    if (t < w) s[t] += s[t + w];\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (t == 0) y[blockIdx.x] = s[0];\n"
    "}\n";

/* Planted for initcheck and synccheck: `accumulates` reads its output before
 * writing it (an out buffer holds nothing the kernel may read); `divergent`
 * reaches a block barrier from half of each warp. Both give right answers
 * here, so only the sanitizer sees them. */
static const char SRC_SAN[] =
    "extern \"C\" __global__ void ref(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void accumulates(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 0.0f * y[i] + 2.0f * x[i]; /* UNINIT */\n"
    "}\n"
    "extern \"C\" __global__ void divergent(const float *x, float *y, int n) {\n"
    "  __shared__ float s[256];\n"
    "  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "  s[t] = i < n ? x[i] : 0.0f;\n"
    "  if ((t & 31) < 16) __syncthreads(); /* DIVERGENT */\n"
    "  if (i < n) y[i] = 2.0f * s[t];\n"
    "}\n";

/* The reductions sum whole blocks of 256 by design: the odd sizes a sweep adds
 * (4109 in, 29 out) would judge a size they never claim (seen failing on an H100
 * before they were pinned off). */
#define SUM_SIZES ",\"oddSizes\":false"

/* Run `kernel` of `src` on `n` floats in, `ny` floats out, against
 * `reference`, with extra run fields. */
static json_t *run_src(const char *src, const char *kernel, const char *reference, size_t n,
                       size_t ny, const char *extra) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"kernel\":\"%s\",\"grid\":%zu,\"block\":256,\"args\":["
           "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":%zu,\"role\":\"in\"},"
           "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":%zu,\"role\":\"out\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":%zu}],"
           "\"reference\":{\"name\":\"%s\"},\"iterations\":10%s}",
           kernel, (n + 255) / 256, n, ny, n, reference, extra ? extra : "");
  json_t *spec = json_loads(text, 0, NULL);
  cr_assert_not_null(spec);
  json_t *p = json_pack("{s:s,s:s,s:o,s:b}", "source", src, "fileName", "cases.cu", "run", spec,
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

/* Run `kernel` on 4096 floats against `reference` (NULL: ref) with extra run fields. */
static json_t *run(const char *kernel, const char *reference, const char *extra) {
  return run_src(SRC, kernel, reference ? reference : "ref", 4096, 4096, extra);
}

Test(gpu, correct_kernel_passes_and_is_timed) {
  need_device();
  json_t *r = run("good", NULL, NULL), *runj = json_object_get(r, "run");
  cr_assert(run_ok(r));
  /* One correctness trial per input set the timed launches rotate (runplan.h). */
  cr_assert_eq(json_integer_value(json_object_get(runj, "trials")), 8);
  cr_assert_float_eq(json_number_value(json_object_get(runj, "maxAbsError")), 0, 0);
  cr_assert(json_is_null(json_object_get(runj, "firstMismatch")));
  cr_assert_gt(json_number_value(json_object_get(json_object_get(runj, "timeMs"), "median")), 0);
  cr_assert(json_is_number(json_object_get(runj, "referenceTimeMs")));
  cr_assert(json_is_number(json_object_get(runj, "speedup")));
  cr_assert_gt(json_number_value(json_object_get(runj, "timedHashMs")), 0, "the hashes timed");
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
  /* By the correctness trial's own input hash, before any timed launch could see it. */
  cr_assert_not_null(diag_saying(r, "run/input-written", "in trial "));
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

Test(gpu, write_past_the_end_is_caught_without_a_sanitizer) {
  need_device();
  /* 1,000,003 elements in blocks of 256: 3907 blocks, 189 threads past the end. */
  json_t *r = run_src(SRC, "no_bounds", "ref", 1000003, 1000003, NULL);
  json_t *d = diag(r, "run/out-of-bounds-write");
  cr_assert_not_null(d, "the guard zone after 'y' must show the overrun");
  const char *m = json_string_value(json_object_get(d, "message"));
  cr_assert(strstr(m, "189 elements") && strstr(m, "y[1000003]") && strstr(m, "y[1000191]"), "%s",
            m);
  cr_assert(!run_ok(r));
  cr_assert_null(json_object_get(r, "fatal"), "a guard-zone finding leaves the context usable");
  cr_assert_null(diag(r, "run/sanitizer"), "no sanitizer ran");
  json_decref(r);
}

Test(gpu, memoising_kernel_is_caught_on_the_next_trial) {
  need_device();
  json_t *r = run("memo", NULL, NULL);
  json_t *d = diag(r, "run/mismatch");
  cr_assert_not_null(d, "fresh inputs per trial must expose a replayed answer");
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "(trial 1)"),
            "trial 0 is right; trial 1's inputs differ");
  cr_assert(!run_ok(r));
  json_decref(r);
}

Test(gpu, missing_barrier_is_caught_without_a_sanitizer) {
  need_device();
  json_t *r = run_src(SRC_SUM, "racy", "sum_ref", 4096, 16, SUM_SIZES);
  cr_assert(!run_ok(r));
  cr_assert(diag(r, "run/nondeterministic") || diag(r, "run/mismatch"),
            "the race shows as two runs differing or a wrong sum");
  json_decref(r);
}

static void need_sanitizer(void) {
  char tool[1024];
  if (!upk_ksan_find(upk_cuda_default_path(NULL), tool, sizeof tool))
    cr_skip_test("compute-sanitizer is not installed under %s", upk_cuda_default_path(NULL));
}

/* The zero-based line of the first source line holding `marker`. */
static int line_of(const char *src, const char *marker) {
  const char *at = strstr(src, marker);
  int line = 0;
  for (const char *p = src; at && p < at; p++)
    line += *p == '\n';
  return at ? line : -1;
}

/* Findings of run/sanitizer at `marker`'s line of `src`. */
static int findings_at(json_t *r, const char *src, const char *marker) {
  int want = line_of(src, marker), n = 0;
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    n += c && !strcmp(c, "run/sanitizer") &&
         json_integer_value(json_object_get(start, "line")) == want;
  }
  return n;
}

/* `kernel` of `src` run under `tool` must be reported at `marker`'s line. */
static void found_at_marker(const char *src, const char *kernel, const char *reference, size_t ny,
                            const char *tool, const char *extra, const char *marker) {
  char fields[256];
  need_device();
  need_sanitizer();
  snprintf(fields, sizeof fields, "%s,\"sanitizer\":\"%s\"", extra, tool);
  json_t *r = run_src(src, kernel, reference, 4096, ny, fields);
  cr_assert_gt(findings_at(r, src, marker), 0, "%s must report '%s' at line %d", tool, kernel,
               line_of(src, marker) + 1);
  json_decref(r);
}

Test(gpu, racecheck_finds_the_missing_barrier_at_its_line, .timeout = 300) {
  found_at_marker(SRC_SUM, "racy", "sum_ref", 16, "racecheck", SUM_SIZES, "/* RACE */");
}

Test(gpu, initcheck_finds_the_output_read_before_written_at_its_line, .timeout = 300) {
  found_at_marker(SRC_SAN, "accumulates", "ref", 4096, "initcheck", "", "/* UNINIT */");
}

Test(gpu, initcheck_is_clean_on_a_kernel_that_only_writes_its_output, .timeout = 300) {
  need_device();
  need_sanitizer();
  json_t *r = run_src(SRC_SAN, "ref", "ref", 4096, 4096, ",\"sanitizer\":\"initcheck\"");
  cr_assert_null(diag(r, "run/sanitizer"), "no false finding");
  cr_assert(run_ok(r));
  json_decref(r);
}

Test(gpu, synccheck_finds_the_divergent_barrier_at_its_line, .timeout = 300) {
  found_at_marker(SRC_SAN, "divergent", "ref", 4096, "synccheck", "", "/* DIVERGENT */");
}

Test(gpu, racecheck_is_clean_on_the_fixed_reduction, .timeout = 300) {
  need_device();
  need_sanitizer();
  json_t *r =
      run_src(SRC_SUM, "fixed", "sum_ref", 4096, 16, SUM_SIZES ",\"sanitizer\":\"racecheck\"");
  cr_assert_null(diag(r, "run/sanitizer"), "no false finding");
  cr_assert(run_ok(r));
  json_decref(r);
}

Test(gpu, fixed_reduction_passes_without_a_sanitizer) {
  need_device();
  json_t *r = run_src(SRC_SUM, "fixed", "sum_ref", 4096, 16, SUM_SIZES);
  cr_assert(run_ok(r), "the reduction with its barriers is right (so the racy case's failure is "
                       "the race's)");
  json_decref(r);
}

Test(gpu, memcheck_is_clean_on_a_correct_kernel, .timeout = 300) {
  need_device();
  need_sanitizer();
  json_t *r = run("good", NULL, ",\"sanitizer\":\"memcheck\"");
  cr_assert_null(diag(r, "run/sanitizer"), "no false finding");
  cr_assert(run_ok(r));
  json_decref(r);
}

/* The 64 Mi-element case the issue times: inputs made and checked on the
 * device, so it must finish well inside its own 10 s default deadline. */
Test(gpu, sixty_four_mi_elements_get_a_verdict, .timeout = 120) {
  need_device();
  size_t n = (size_t)64 << 20;
  json_t *r = run_src(SRC, "good", "ref", n, n, ",\"trials\":2,\"iterations\":50");
  cr_assert(run_ok(r));
  json_t *runj = json_object_get(r, "run");
  cr_assert_eq(json_integer_value(json_object_get(runj, "trials")), 8,
               "one per rotating input set");
  /* 50 timed launches' 256 MiB outputs hashed: more device time than any HBM at 8 TB/s needs,
   * so the events around the hashes saw them run. */
  double hash_ms = json_number_value(json_object_get(runj, "timedHashMs"));
  cr_assert_geq(hash_ms, 50.0 * (double)n * 4 / 8e12 * 1e3, "timedHashMs %.3f", hash_ms);
  json_decref(r);
}

/* Needs no GPU: every kernel the cases run compiles for the H100 and is
 * listed, so a GPU run cannot fail (or pass) on a typo in this file. */
/* The result as text, for a failure message (static buffer). */
static const char *dump_json(json_t *r) {
  static char buf[4096];
  char *d = json_dumps(r, JSON_COMPACT);
  snprintf(buf, sizeof buf, "%s", d ? d : "?");
  free(d);
  return buf;
}

static void compiles_with(const char *src, const char *const *names) {
  json_t *p = json_pack("{s:s,s:s,s:s,s:b}", "source", src, "fileName", "cases.cu", "arch",
                        "sm_90a", "noCache", 1);
  char err[256] = "";
  json_t *r = upk_kernel_validate_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", dump_json(r));
  for (const char *const *n = names; *n; n++) {
    bool found = false;
    json_t *k;
    size_t i;
    json_array_foreach(json_object_get(r, "kernels"), i, k) found |=
        !strcmp(json_string_value(json_object_get(k, "name")), *n);
    cr_assert(found, "kernel '%s' is listed", *n);
  }
  json_decref(r);
}

Test(compile, every_case_kernel_compiles_for_sm_90a) {
  compiles_with(SRC, (const char *const[]){"ref", "good", "wrong", "writes_input", "half_written",
                                           "tiny_ref", "zeros", "out_of_bounds", "endless", "slow",
                                           "bounded", "memo", "no_bounds", NULL});
  compiles_with(SRC_SUM, (const char *const[]){"sum_ref", "racy", "fixed", NULL});
  compiles_with(SRC_SAN, (const char *const[]){"ref", "accumulates", "divergent", NULL});
}
