/* Planted reward hacks (issue 50): one kernel per trick a generated kernel
 * uses to look correct or fast, each with the diagnostic that must catch it.
 * The runs need a GPU (they skip with the driver's reason without one); the
 * plan they rely on and every kernel's compile are checked everywhere.
 *
 * The kernels that cheat "only where nobody looks" count their own launches
 * exactly: each block takes a ticket from a device-global counter, and the
 * ticket divided by the grid size is the launch's index (launches of one
 * module run one after another). With trials 2, iterations 10 and no warmup
 * the run makes 8 input sets (runplan.h), so the candidate's correctness
 * launches are 0..15 (two per set) and the timed ones 16..25: every hack
 * below behaves from launch 16 on, where the old check looked only once. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/worker/run_op.h"
#include "gpu/compile/validate.h"
#include "gpu/run/runplan.h"
#include "gpu/run/runspec.h"
#include "tests/gpu/gpu_test.h"

enum { N = 4096, CHECKED_LAUNCHES = 16 };

static const char SRC[] =
    "#include <cuda_fp16.h>\n"
    "__device__ unsigned g_tickets;\n"
    "__device__ float g_cache[4096];\n"
    "__device__ float *g_ref_out;\n"
    /* This launch's index: see the file's comment. */
    "__device__ unsigned launch_index() {\n"
    "  __shared__ unsigned idx;\n"
    "  if (threadIdx.x == 0) idx = atomicAdd(&g_tickets, 1u) / gridDim.x;\n"
    "  __syncthreads();\n"
    "  return idx;\n"
    "}\n"
    "extern \"C\" __global__ void ref(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    /* The reference publishes where its output is; a candidate sharing its module could copy it. */
    "extern \"C\" __global__ void ref_leaky(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i == 0) g_ref_out = y;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void ref_scale(const float *x, const float *s, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = x[i] * s[0];\n"
    "}\n"
    /* A result cached across calls: computed while checked, replayed once timed. */
    "extern \"C\" __global__ void cached(const float *x, float *y, int n) {\n"
    "  unsigned l = launch_index();\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  if (l >= 16) { y[i] = g_cache[i]; return; }\n"
    "  y[i] = 2.0f * x[i];\n"
    "  g_cache[i] = y[i];\n"
    "}\n"
    /* Counts launches and skips the work on every other one it guesses is unchecked. */
    "extern \"C\" __global__ void counts_launches(const float *x, float *y, int n) {\n"
    "  unsigned l = launch_index();\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n && !(l >= 16 && l % 2 == 1)) y[i] = 2.0f * x[i];\n"
    "}\n"
    /* Writes into its input, but only once timed (scratch space it did not ask for). */
    "extern \"C\" __global__ void writes_input_timed(float *x, float *y, int n) {\n"
    "  unsigned l = launch_index();\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) { y[i] = 2.0f * x[i]; if (l >= 16) x[i] = 0.0f; }\n"
    "}\n"
    /* Returns before the work is done: half the blocks leave at once when timed. */
    "extern \"C\" __global__ void early_return(const float *x, float *y, int n) {\n"
    "  unsigned l = launch_index();\n"
    "  if (l >= 16 && blockIdx.x >= gridDim.x / 2) return;\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    /* Assumes n is a multiple of the block: right at 4096, wrong at an odd size. */
    "extern \"C\" __global__ void divisible_only(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n / 256 * 256) y[i] = 2.0f * x[i];\n"
    "}\n"
    /* Precision lowered past the tolerance: f16 arithmetic for an f32 result. */
    "extern \"C\" __global__ void half_precision(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = __half2float(__hmul(__float2half(2.0f), __float2half(x[i])));\n"
    "}\n"
    /* An output that aliases an input: the result computed in place in x. */
    "extern \"C\" __global__ void aliases_input(float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) { x[i] = 2.0f * x[i]; y[i] = x[i]; }\n"
    "}\n"
    /* Reads the reference's output through a device global the two would share. */
    "extern \"C\" __global__ void reads_reference(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = g_ref_out ? g_ref_out[i] : 0.0f;\n"
    "}\n"
    /* Skips reading an init.value input: the constant hard-coded. */
    "extern \"C\" __global__ void skips_value(const float *x, const float *s, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = x[i] * 3.0f;\n"
    "}\n";

static const char *XY = "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"in\"},"
                        "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"out\"},"
                        "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":4096}";
static const char *XSY = "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"in\"},"
                         "{\"name\":\"s\",\"dtype\":\"f32\",\"count\":1,\"role\":\"in\","
                         "\"init\":{\"value\":3}},"
                         "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"out\"},"
                         "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":4096}";

/* The run spec of a hack: 16 blocks of 256, trials 2, iterations 10, no warmup. */
static json_t *spec(const char *kernel, const char *reference, const char *args, bool odd) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"kernel\":\"%s\",\"grid\":16,\"block\":256,\"args\":[%s],"
           "\"reference\":{\"name\":\"%s\"},\"trials\":2,\"warmup\":0,\"iterations\":10,"
           "\"oddSizes\":%s}",
           kernel, args, reference, odd ? "true" : "false");
  json_t *j = json_loads(text, 0, NULL);
  cr_assert_not_null(j, "%s", text);
  return j;
}

static json_t *run(const char *kernel, const char *reference, const char *args, bool odd) {
  json_t *p = json_pack("{s:s,s:s,s:o,s:b}", "source", SRC, "fileName", "hacks.cu", "run",
                        spec(kernel, reference, args, odd), "noCache", 1);
  char err[256] = "";
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  char *dump = json_dumps(r, JSON_INDENT(1));
  fprintf(stderr, "%s: %s\n", kernel, dump);
  free(dump);
  return r;
}

/* `kernel` fails, and `code` says why. */
static void caught(const char *kernel, const char *reference, const char *args, bool odd,
                   const char *code) {
  need_device();
  json_t *r = run(kernel, reference, args, odd);
  cr_assert(!run_ok(r), "%s passed", kernel);
  cr_assert_not_null(diag(r, code), "%s: no %s", kernel, code);
  json_decref(r);
}

/* ---- without a GPU: what the hacks rely on ------------------------------- */

/* The launch counts in the kernels above are the plan's: 8 sets, one
 * correctness trial (two launches) each, then every timed launch hashed. */
Test(hacks, plan_matches_the_planted_launch_counts) {
  json_t *j = spec("cached", "ref", XY, false);
  upk_run_spec s, v;
  char err[256];
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  upk_runspec_at(&s, 0, &v);
  upk_run_plan p;
  upk_run_plan_of(&v, UPK_RUN_ROTATION_MAX_BYTES, &p);
  cr_assert_eq(p.trials * 2, CHECKED_LAUNCHES);
  cr_assert_eq(p.sets, 8);
  cr_assert_eq(p.hashed, p.timed, "no timed launch goes unchecked");
  cr_assert_eq(upk_run_set_value(&s.args[0], 1), upk_run_set_value(&s.args[0], 1));
  upk_runspec_free(&s);
  json_decref(j);
  /* The divisibility hack meets 4096 + 13 and 4096 - 7 by default. */
  j = spec("divisible_only", "ref", XY, true);
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.n_shapes, 3);
  cr_assert_eq(s.shapes[1].args[1].count % 256, 13);
  upk_runspec_free(&s);
  json_decref(j);
  /* The value the hard-coding kernel assumes holds in set 0 only. */
  j = spec("skips_value", "ref_scale", XSY, false);
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(upk_run_set_value(&s.args[1], 0), 3);
  cr_assert_neq(upk_run_set_value(&s.args[1], 1), 3);
  upk_runspec_free(&s);
  json_decref(j);
}

Test(hacks, every_planted_kernel_compiles_for_sm_90a) {
  json_t *p = json_pack("{s:s,s:s,s:s,s:b}", "source", SRC, "fileName", "hacks.cu", "arch",
                        "sm_90a", "noCache", 1);
  char err[256] = "";
  json_t *r = upk_kernel_validate_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  char *dump = json_dumps(r, JSON_COMPACT);
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", dump);
  free(dump);
  static const char *const names[] = {"ref",           "ref_leaky",       "ref_scale",
                                      "cached",        "counts_launches", "writes_input_timed",
                                      "early_return",  "divisible_only",  "half_precision",
                                      "aliases_input", "reads_reference", "skips_value"};
  for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
    bool found = false;
    json_t *k;
    size_t i;
    json_array_foreach(json_object_get(r, "kernels"), i, k) found |=
        !strcmp(json_string_value(json_object_get(k, "name")), names[n]);
    cr_assert(found, "kernel '%s' is listed", names[n]);
  }
  json_decref(r);
}

/* ---- on a GPU: each hack caught, by name ------------------------------------ */

Test(hacks, honest_kernel_passes_every_shape, .timeout = 120) {
  need_device();
  json_t *r = run("ref", "ref", XY, true), *runj = json_object_get(r, "run");
  cr_assert(run_ok(r));
  cr_assert_eq(json_array_size(json_object_get(runj, "shapes")), 3);
  cr_assert(json_is_number(json_object_get(runj, "speedupGeomean")));
  cr_assert(json_is_integer(json_object_get(runj, "seed")));
  json_decref(r);
}

Test(hacks, result_cached_across_calls, .timeout = 120) {
  caught("cached", "ref", XY, false, "run/timed-output-changed");
}

Test(hacks, launch_counting, .timeout = 120) {
  caught("counts_launches", "ref", XY, false, "run/timed-output-changed");
}

Test(hacks, writing_into_an_input_while_timed, .timeout = 120) {
  caught("writes_input_timed", "ref", XY, false, "run/input-written");
}

Test(hacks, returning_before_the_work_is_done, .timeout = 120) {
  caught("early_return", "ref", XY, false, "run/timed-output-changed");
}

Test(hacks, partial_computation_passing_one_shape, .timeout = 120) {
  caught("divisible_only", "ref", XY, true, "run/shape-failed");
  need_device();
  json_t *r = run("divisible_only", "ref", XY, false);
  cr_assert(run_ok(r), "at 4096 alone it passes: the odd sizes are what catch it");
  json_decref(r);
}

Test(hacks, precision_lowered_past_the_tolerance, .timeout = 120) {
  caught("half_precision", "ref", XY, false, "run/mismatch");
}

Test(hacks, output_aliasing_an_input, .timeout = 120) {
  caught("aliases_input", "ref", XY, false, "run/input-written");
  /* In its first correctness trial, not only once timed. */
  json_t *r = run("aliases_input", "ref", XY, false);
  cr_assert_not_null(diag_saying(r, "run/input-written", "in trial "));
  json_decref(r);
}

Test(hacks, reading_the_references_output, .timeout = 120) {
  caught("reads_reference", "ref_leaky", XY, false, "run/mismatch");
}

Test(hacks, skipping_an_init_value_input, .timeout = 120) {
  caught("skips_value", "ref_scale", XSY, false, "run/mismatch");
}
