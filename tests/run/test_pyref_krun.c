/* The run op with a PyTorch reference and no usable driver (forced, so the
 * answer is the same on a GPU machine), the reference produced by the
 * stand-in (pyref_standin.c) or by the real helper with a python3 that has
 * no torch: each way it can fail is one clear diagnostic (no torch: the missing device before
 * it, so nobody installs torch to learn there is no GPU), the compile
 * results stay intact, and a good handoff reaches the device step (then
 * "run/no-device") with its tensors resolved. */
#include <string.h>

#include "common/env_options.h"
#include "tests/run/run_test.h"
#include "gpu/run/runcheck.h"

static const char SRC[] = RT_TWICE_SRC;

static char dir[] = "/tmp/upk-pyref-krun-XXXXXX";

static void setup(void) {
  rt_setup(dir);
}

static void teardown(void) {
  rt_teardown(dir);
}

/* A problem file whose text picks the stand-in's behaviour. */
static const char *problem(const char *text) {
  return rt_put(dir, "problem.py", text);
}

static json_t *run(const char *problem_path, const char *x_extra, const char *py_extra) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"kernel\":\"twice\",\"grid\":4,\"block\":256,\"trials\":3,\"args\":["
           "{\"name\":\"x\",\"from\":\"input0\"%s},{\"name\":\"y\",\"from\":\"output\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}],"
           "\"reference\":{\"pytorch\":{\"path\":\"%s\"%s}}}",
           x_extra, problem_path, py_extra);
  return rt_run(NULL, SRC, "twice.cu", text);
}

/* The only error diagnostic of the result, which must have `code`; no trial ran. */
static const char *only_error(json_t *res, const char *code) {
  const char *m = rt_only_error(res, code);
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(res, "run"), "trials")), 0);
  return m;
}

TestSuite(pyref_krun, .init = setup, .fini = teardown);

Test(pyref_krun, good_handoff_reaches_the_device_step) {
  RT_NEED_TOOLKIT();
  json_t *res = run(problem("# a problem that doubles its input\n"), "", "");
  only_error(res, "run/no-device");
  json_t *py = json_object_get(json_object_get(res, "run"), "pytorch");
  json_t *ts = json_object_get(py, "tensors");
  cr_assert_eq(json_array_size(ts), 2);
  json_t *x = json_array_get(ts, 0);
  cr_assert_str_eq(json_string_value(json_object_get(x, "from")), "input0");
  cr_assert_str_eq(json_string_value(json_object_get(x, "dtype")), "f32");
  cr_assert_eq(json_integer_value(json_array_get(json_object_get(x, "shape"), 0)), 1024);
  cr_assert_float_eq(json_number_value(json_object_get(py, "eagerTimeMs")), 1.0, 1e-12);
  json_decref(res);
}

Test(pyref_krun, the_helper_gets_the_runs_seeds) {
  RT_NEED_TOOLKIT();
  json_t *res = run(problem("# standin: args\n"), "", ",\"seed\":7,\"compile\":true");
  const char *m = only_error(res, "run/pytorch-failed");
  char want[256];
  snprintf(want, sizeof want, "--seeds 7,%llu,%llu --model-seed 7 --warmup 3 --iterations 20",
           (unsigned long long)upk_trial_seed(7, 1), (unsigned long long)upk_trial_seed(7, 2));
  cr_assert(strstr(m, want), "'%s' lacks '%s'", m, want);
  cr_assert(strstr(m, "--compile"), "%s", m);
  cr_assert(strstr(m, "upskilld-pyref.py --problem "), "the helper runs the problem: %s", m);
  json_decref(res);
}

Test(pyref_krun, no_torch_no_cuda_and_failures_are_one_diagnostic_each) {
  RT_NEED_TOOLKIT();
  json_t *res = run(problem("# standin: exit 3 torch is not installed for /x/python3\n"), "", "");
  cr_assert(strstr(rt_no_device_then_no_torch(res), "torch is not installed for /x/python3"));
  json_decref(res);
  res = run(problem("# standin: exit 4 torch 2.5 sees no CUDA device\n"), "", "");
  cr_assert(strstr(only_error(res, "run/no-device"), "torch 2.5 sees no CUDA device"));
  json_decref(res);
  res = run(problem("# standin: exit 5 problem.py raised: NameError: N\n"), "", "");
  cr_assert(strstr(only_error(res, "run/pytorch-failed"), "NameError: N"));
  json_decref(res);
  res = run(problem("# standin: garbage\n"), "", "");
  cr_assert(strstr(only_error(res, "run/pytorch-handoff"), "trial 0"));
  json_decref(res);
  res = run(problem("# standin: sleep\n"), "", ",\"timeoutMs\":300");
  cr_assert(strstr(only_error(res, "run/pytorch-timeout"), "300 ms"));
  json_decref(res);
}

Test(pyref_krun, a_spec_that_disagrees_with_the_tensor_names_both) {
  RT_NEED_TOOLKIT();
  json_t *res = run(problem("# standin: f16\n# n: 512\n"), ",\"dtype\":\"f32\"", "");
  const char *m = only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "run.args[0] 'x' (from input0): the run spec says f32, the PyTorch reference "
                      "gives f16 [512]"),
            "%s", m);
  json_decref(res);
}

Test(pyref_krun, no_python_and_no_helper) {
  RT_NEED_TOOLKIT();
  setenv("UPSKILLD_PYTHON", "/nonexistent/python3", 1);
  json_t *res = run(problem("\n"), "", "");
  cr_assert(strstr(only_error(res, "run/no-python"), "cannot run '/nonexistent/python3'"));
  json_decref(res);
  setenv("UPSKILLD_PYREF_HELPER", "/nonexistent/upskilld-pyref.py", 1);
  upk_env_opts_reload(); /* the variables are read once per process */
  res = run(problem("\n"), "", "");
  cr_assert(
      strstr(only_error(res, "run/pytorch-helper-missing"), "/nonexistent/upskilld-pyref.py"));
  json_decref(res);
}

/* The real helper under the real python3: without torch, its own clear error. */
Test(pyref_krun, the_real_helper_without_torch) {
  RT_NEED_TOOLKIT();
  rt_need_python_without_torch();
  setenv("UPSKILLD_PYTHON", "python3", 1);
  json_t *res = run(problem("import torch\n"), "", "");
  const char *m = rt_no_device_then_no_torch(res);
  cr_assert(strstr(m, "torch is not installed for "), "%s", m);
  cr_assert(strstr(m, "UPSKILLD_PYTHON"), "says how to fix it: %s", m);
  json_decref(res);
}

/* A C++ kernel's symbol carries its parameter types: an f16 tensor for a
 * float* parameter is refused before anything is launched. */
Test(pyref_krun, a_tensor_the_kernel_cannot_take_names_both) {
  RT_NEED_TOOLKIT();
  static const char CPP[] = "__global__ void twice(const float *x, float *y, int n) {\n"
                            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "  if (i < n) y[i] = 2.0f * x[i];\n"
                            "}\n";
  char text[1024];
  snprintf(text, sizeof text,
           "{\"kernel\":\"twice\",\"grid\":2,\"block\":256,\"args\":["
           "{\"name\":\"x\",\"from\":\"input0\"},{\"name\":\"y\",\"from\":\"output\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":512}],"
           "\"reference\":{\"pytorch\":{\"path\":\"%s\"}}}",
           problem("# standin: f16\n# n: 512\n"));
  json_t *res = rt_run(NULL, CPP, "twice.cu", text);
  const char *m = only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "run.args[0] 'x' is a f16 [512] buffer (from input0), but the kernel's "
                      "parameter 1 is float const* (f32)"),
            "%s", m);
  json_decref(res);
}

/* Inline problem source: written into the private directory, which is gone afterwards. */
Test(pyref_krun, source_is_handed_over_and_the_directory_removed) {
  RT_NEED_TOOLKIT();
  char tmp[300], cmd[400];
  snprintf(tmp, sizeof tmp, "%s/tmpdir", dir);
  snprintf(cmd, sizeof cmd, "mkdir '%s'", tmp);
  cr_assert_eq(system(cmd), 0);
  setenv("TMPDIR", tmp, 1);
  json_t *res = rt_run(NULL, SRC, "twice.cu",
                       "{\"kernel\":\"twice\",\"grid\":4,\"block\":256,\"args\":["
                       "{\"name\":\"x\",\"from\":\"input0\"},{\"name\":\"y\",\"from\":\"output\"},"
                       "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}],"
                       "\"reference\":{\"pytorch\":{\"source\":\"# standin: ok\\n\"}}}");
  only_error(res, "run/no-device");
  json_t *py = json_object_get(json_object_get(res, "run"), "pytorch");
  cr_assert_str_eq(json_string_value(json_object_get(py, "problem")), "(source)");
  cr_assert_eq(json_array_size(json_object_get(py, "tensors")), 2);
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", tmp);
  cr_assert_eq(system(cmd), 0, "the handoff directory was removed");
  unsetenv("TMPDIR");
  json_decref(res);
}
