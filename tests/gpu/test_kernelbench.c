/* Five KernelBench level-1 problems (tests/gpu/kernelbench/, see its README)
 * checked against their PyTorch reference through upk_kernel_run_json: a
 * correct kernel passes and is timed against eager PyTorch, a wrong one is a
 * mismatch, and CUDA versions of KernelBench's adversarial kernels are
 * caught. Everywhere: every run spec parses and every kernel compiles
 * (NVRTC). On a GPU with a python3 that has torch (UPSKILLD_PYTHON, else
 * python3): the runs; elsewhere they skip, saying why. Nothing is faked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/run/cudrv.h"
#include "tests/gpu/gpu_test.h"
#include "gpu/worker/run_op.h"
#include "gpu/compile/validate.h"
#include "gpu/run/runspec.h"

static const char *const PROBLEMS[] = {"1_Square_matrix_multiplication_", "19_ReLU", "23_Softmax",
                                       "47_Sum_reduction_over_a_dimension",
                                       "63_conv_standard_2D__square_input__square_kernel"};
enum { N_PROBLEMS = sizeof PROBLEMS / sizeof *PROBLEMS };

static void kb_path(char *buf, size_t len, const char *sub, const char *name, const char *ext) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(buf, len, "%s/tests/gpu/kernelbench/%s/%s%s", root ? root : ".", sub, name, ext);
}

/* kernels/P.json's run with `kernel` and the problem's path filled in. */
static json_t *spec_of(const char *problem, const char *kernel) {
  char path[1024], py[1024];
  json_error_t e;
  kb_path(path, sizeof path, "kernels", problem, ".json");
  kb_path(py, sizeof py, "problems", problem, ".py");
  json_t *doc = json_load_file(path, 0, &e);
  cr_assert_not_null(doc, "%s: %s", path, e.text);
  json_t *run = json_incref(json_object_get(doc, "run"));
  json_decref(doc);
  json_object_set_new(run, "kernel", json_string(kernel));
  json_t *ref = json_object_get(json_object_get(run, "reference"), "pytorch");
  json_object_set_new(ref, "path", json_string(py));
  return run;
}

static bool have_toolkit(void) {
  return access("/usr/local/cuda/include/nvrtc.h", R_OK) == 0;
}

Test(kernelbench, specs_parse_and_kernels_compile) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit");
  setenv("XDG_CACHE_HOME", "/nonexistent-cache-dir", 1);
  for (size_t i = 0; i < N_PROBLEMS; i++) {
    char err[512], cu[1024], py[1024];
    kb_path(py, sizeof py, "problems", PROBLEMS[i], ".py");
    cr_assert_eq(access(py, R_OK), 0, "%s", py);
    json_t *run = spec_of(PROBLEMS[i], "correct");
    cr_assert_eq(upk_runspec_check(run, err, sizeof err), 0, "%s: %s", PROBLEMS[i], err);
    json_decref(run);
    kb_path(cu, sizeof cu, "kernels", PROBLEMS[i], ".cu");
    json_t *p = json_pack("{s:s,s:b}", "path", cu, "noCache", 1);
    json_t *r = upk_kernel_validate_json(p, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    cr_assert(json_is_true(json_object_get(r, "ok")), "%s: %s", PROBLEMS[i],
              json_dumps(json_object_get(r, "diagnostics"), 0));
    cr_assert_geq(json_array_size(json_object_get(r, "kernels")), 2, "correct and wrong");
    json_decref(r);
    json_decref(p);
  }
}

/* The non-default-stream kernel launches from the device: without -rdc=true
 * the compile refuses it, with it the module compiles (what the GPU test runs). */
Test(kernelbench, the_stream_adversary_needs_separate_compilation) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit");
  setenv("XDG_CACHE_HOME", "/nonexistent-cache-dir", 1);
  char cu[1024], err[512];
  kb_path(cu, sizeof cu, "adversarial", "non_default_stream", ".cu");
  for (int rdc = 0; rdc < 2; rdc++) {
    json_t *p = json_pack("{s:s,s:b,s:[]}", "path", cu, "noCache", 1, "options");
    if (rdc)
      json_array_append_new(json_object_get(p, "options"), json_string("-rdc=true"));
    json_t *r = upk_kernel_validate_json(p, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    char *d = json_dumps(json_object_get(r, "diagnostics"), 0);
    /* An agent's options go to nvcc only inside a sandbox; with none here the answer must be
     * that refusal, naming how to get one (a GPU machine without bubblewrap, as H200 run 1). */
    if (rdc && strstr(d, "\"kernel/no-sandbox\"")) {
      cr_assert(strstr(d, "apt-get install bubblewrap"), "%s", d);
      free(d);
      json_decref(r);
      json_decref(p);
      cr_skip_test("no sandbox on this machine: -rdc=true from a request is refused "
                   "(kernel/no-sandbox), as it must be");
    }
    cr_assert_eq(json_is_true(json_object_get(r, "ok")), rdc == 1, "rdc %d: %s", rdc, d);
    cr_assert(rdc || strstr(d, "separate compilation"), "%s", d);
    free(d);
    json_decref(r);
    json_decref(p);
  }
}

/* ---- on a GPU with torch --------------------------------------------------- */

static json_t *run_kernel(const char *problem, const char *kernel, const char *source_path,
                          json_t *extra_run, const char *option) {
  char cu[1024], err[512] = "";
  kb_path(cu, sizeof cu, "kernels", problem, ".cu");
  json_t *run = spec_of(problem, kernel);
  if (extra_run)
    json_object_update(run, extra_run);
  json_t *p =
      json_pack("{s:s,s:o,s:b}", "path", source_path ? source_path : cu, "run", run, "noCache", 1);
  if (option)
    json_object_set_new(p, "options", json_pack("[s]", option));
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  char *dump = json_dumps(r, JSON_INDENT(1));
  fprintf(stderr, "%s %s: %s\n", problem, kernel, dump);
  free(dump);
  return r;
}

Test(kernelbench, correct_kernels_pass_and_are_timed_against_eager, .timeout = 900) {
  need_gpu_and_torch();
  for (size_t i = 0; i < N_PROBLEMS; i++) {
    json_t *r = run_kernel(PROBLEMS[i], "correct", NULL, NULL, NULL),
           *run = json_object_get(r, "run");
    cr_assert(run_ok(r), "%s", PROBLEMS[i]);
    cr_assert_eq(json_integer_value(json_object_get(run, "trials")), 5);
    cr_assert(json_is_number(json_object_get(run, "referenceTimeMs")), "eager was timed");
    cr_assert(json_number_value(json_object_get(run, "speedup")) > 0);
    cr_assert(json_is_number(json_object_get(json_object_get(run, "pytorch"), "eagerTimeMs")));
    json_decref(r);
  }
}

Test(kernelbench, wrong_kernels_are_mismatches, .timeout = 900) {
  need_gpu_and_torch();
  for (size_t i = 0; i < N_PROBLEMS; i++) {
    json_t *r = run_kernel(PROBLEMS[i], "wrong", NULL, NULL, NULL);
    cr_assert(!run_ok(r), "%s", PROBLEMS[i]);
    cr_assert_not_null(diag(r, "run/mismatch"), "%s", PROBLEMS[i]);
    json_decref(r);
  }
}

Test(kernelbench, result_reuse_is_an_unwritten_output, .timeout = 300) {
  need_gpu_and_torch();
  json_t *r = run_kernel(PROBLEMS[0], "result_reuse", NULL, NULL, NULL);
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/unwritten-output"));
  json_decref(r);
}

Test(kernelbench, zeroing_the_inputs_is_caught, .timeout = 300) {
  need_gpu_and_torch();
  json_t *r = run_kernel(PROBLEMS[0], "zero_out", NULL, NULL, NULL);
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/input-written"));
  json_decref(r);
}

/* Work moved to another stream: refused, or timed with the work included. */
Test(kernelbench, a_non_default_stream_does_not_fake_a_speedup, .timeout = 300) {
  need_gpu_and_torch();
  char cu[1024];
  kb_path(cu, sizeof cu, "adversarial", "non_default_stream", ".cu");
  json_t *extra = json_pack("{s:i,s:i}", "grid", 1, "block", 1);
  json_t *r = run_kernel(PROBLEMS[0], "launcher", cu, extra, "-rdc=true");
  json_decref(extra);
  if (diag(r, "kernel/no-sandbox")) { /* refused unrun: a pass here would prove nothing */
    json_decref(r);
    cr_skip_test("no sandbox on this machine: the adversary's -rdc=true compile is refused "
                 "(kernel/no-sandbox), so it never ran");
  }
  json_t *run = json_object_get(r, "run");
  double speedup = json_number_value(json_object_get(run, "speedup"));
  cr_assert(!run_ok(r) || (speedup < 10 && !diag(r, "run/excessive-speedup")),
            "passed with speedup %g", speedup);
  json_decref(r);
}
