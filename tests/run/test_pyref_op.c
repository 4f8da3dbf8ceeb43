/* The run op with a torch op of a kernel-builder project as the reference
 * (run.reference.pytorch.op), no usable driver (forced): the project found
 * above the kernel's file or named, the op's schema read from its
 * torch-ext/torch_binding.cpp, the spec checked against it before any
 * Python runs (one diagnostic naming both sides), the plan handed to the
 * stand-in producer (pyref_standin.c) and its tensors resolved; an
 * extension that does not import is run/pytorch-op-unavailable. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/run/run_test.h"
#include "gpu/run/runspec.h"

static const char SRC[] = RT_TWICE_SRC;

static char dir[] = "/tmp/upk-pyref-op-XXXXXX";
static char kernel[300];

static void put(const char *rel, const char *text) {
  rt_put(dir, rel, text);
}

/* A kernel-builder project: build.toml, torch-ext/torch_binding.cpp, the
 * kernel under csrc/. */
static void setup(void) {
  char sub[400];
  rt_setup(dir);
  snprintf(sub, sizeof sub, "%s/torch-ext", dir);
  cr_assert_eq(mkdir(sub, 0700), 0);
  snprintf(sub, sizeof sub, "%s/csrc", dir);
  cr_assert_eq(mkdir(sub, 0700), 0);
  put("build.toml", "[general]\nname = \"twice-ops\"\nbackends = [\"cuda\"]\n\n[torch]\n"
                    "src = [\"torch-ext/torch_binding.cpp\"]\n\n[kernel.twice]\n"
                    "backend = \"cuda\"\nsrc = [\"csrc/twice.cu\"]\n");
  put("torch-ext/torch_binding.cpp",
      "#include \"registration.h\"\n\n"
      "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
      "  ops.def(\"twice(Tensor! out, Tensor x, float scale=2.0) -> ()\");\n"
      "  ops.def(\"norm(Tensor x, float eps) -> Tensor\");\n"
      "  ops.def(\"legacy\", &legacy);\n"
      "}\n");
  put("csrc/twice.cu", SRC);
  snprintf(kernel, sizeof kernel, "%s/csrc/twice.cu", dir);
}

static void teardown(void) {
  rt_teardown(dir);
}

/* kernel/validate with a run: the kernel by path (or inline), `args0` the
 * extra fields of the x buffer, `py` the pytorch object's fields. */
static json_t *run_with(bool by_path, const char *x_from, const char *py) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"kernel\":\"twice\",\"grid\":4,\"block\":256,\"trials\":2,\"args\":["
           "{\"name\":\"x\",%s},{\"name\":\"y\",\"from\":\"output\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}],"
           "\"reference\":{\"pytorch\":{%s}}}",
           x_from, py);
  return rt_run(by_path ? kernel : NULL, SRC, "twice.cu", text);
}

static const char OK_ARGS[] = "\"op\":\"twice\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":"
                              "[1024]},\"x\":{\"dtype\":\"f32\",\"shape\":[1024]}}";

TestSuite(pyref_op, .init = setup, .fini = teardown);

Test(pyref_op, the_op_above_the_kernel_is_the_reference) {
  RT_NEED_TOOLKIT();
  json_t *res = run_with(true, "\"from\":\"input0\"", OK_ARGS);
  rt_only_error(res, "run/no-device");
  json_t *py = json_object_get(json_object_get(res, "run"), "pytorch");
  cr_assert_str_eq(json_string_value(json_object_get(py, "op")), "twice");
  cr_assert_str_eq(json_string_value(json_object_get(py, "schema")),
                   "twice(Tensor! out, Tensor x, float scale=2.0) -> ()");
  cr_assert(strstr(json_string_value(json_object_get(py, "project")), "upk-pyref-op-"));
  json_t *ts = json_object_get(py, "tensors");
  cr_assert_eq(json_array_size(ts), 2);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ts, 0), "from")), "input0");
  cr_assert_eq(
      json_integer_value(json_array_get(json_object_get(json_array_get(ts, 1), "shape"), 0)), 1024);
  cr_assert_float_eq(json_number_value(json_object_get(py, "eagerTimeMs")), 1.0, 1e-12);
  json_decref(res);
}

Test(pyref_op, inline_source_names_its_project) {
  RT_NEED_TOOLKIT();
  json_t *res = run_with(false, "\"from\":\"input0\"", OK_ARGS);
  cr_assert(strstr(rt_only_error(res, "run/pytorch-op-project"),
                   "op 'twice': no kernel-builder project (build.toml) above inline source; set "
                   "run.reference.pytorch.project"));
  json_decref(res);
  char py[1024];
  snprintf(py, sizeof py, "%s,\"project\":\"%s\"", OK_ARGS, dir);
  res = run_with(false, "\"from\":\"input0\"", py);
  rt_only_error(res, "run/no-device");
  json_decref(res);
  snprintf(py, sizeof py, "%s,\"project\":\"%s/csrc\"", OK_ARGS, dir);
  res = run_with(false, "\"from\":\"input0\"", py);
  cr_assert(strstr(rt_only_error(res, "run/pytorch-op-project"), "csrc holds no build.toml"));
  json_decref(res);
}

Test(pyref_op, an_op_not_declared_lists_those_that_are) {
  RT_NEED_TOOLKIT();
  json_t *res = run_with(true, "\"from\":\"input0\"", "\"op\":\"thrice\"");
  const char *m = rt_only_error(res, "run/pytorch-op-unknown");
  cr_assert(strstr(m, "op 'thrice' is not declared in "), "%s", m);
  cr_assert(strstr(m, "it declares: twice, norm"), "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\"", "\"op\":\"legacy\"");
  m = rt_only_error(res, "run/pytorch-op-unknown");
  cr_assert(strstr(m, "op 'legacy' of ") && strstr(m, "is declared without a schema"), "%s", m);
  json_decref(res);
}

Test(pyref_op, spec_arguments_against_the_schema) {
  RT_NEED_TOOLKIT();
  json_t *res =
      run_with(true, "\"from\":\"input0\"",
               "\"op\":\"twice\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[1024]}}");
  const char *m = rt_only_error(res, "run/pytorch-op-args");
  cr_assert(strstr(m, "op 'twice' (") && strstr(m, "torch_binding.cpp:4) argument 'x' (Tensor): "
                                                   "needs {\"dtype\", \"shape\"}"),
            "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\"",
                 "\"op\":\"twice\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[4]},\"x\":{"
                 "\"dtype\":\"f32\",\"shape\":[4]},\"alpha\":1}");
  m = rt_only_error(res, "run/pytorch-op-args");
  cr_assert(strstr(m, "run.reference.pytorch.args.alpha: op 'twice' has no argument 'alpha'; its "
                      "schema (") &&
                strstr(m, "is \"twice(Tensor! out, Tensor x, float scale=2.0) -> ()\""),
            "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\"",
                 "\"op\":\"twice\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[4]},\"x\":3,"
                 "\"scale\":true}");
  m = rt_only_error(res, "run/pytorch-op-args");
  cr_assert(strstr(m, "argument 'x' (Tensor): is a tensor: give {\"dtype\", \"shape\"}"), "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\"",
                 "\"op\":\"twice\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[4]},\"x\":{"
                 "\"dtype\":\"f32\",\"shape\":[4]},\"scale\":true}");
  m = rt_only_error(res, "run/pytorch-op-args");
  cr_assert(strstr(m, "argument 'scale' (float): the value given does not fit its type"), "%s", m);
  json_decref(res);
}

Test(pyref_op, from_buffers_against_the_op_name_both_sides) {
  RT_NEED_TOOLKIT();
  json_t *res = run_with(true, "\"from\":\"input1\"", OK_ARGS);
  const char *m = rt_only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "run.args[0] 'x' is {\"from\": \"input1\"}, which op 'twice' (") &&
                strstr(m, "does not have; it reads: input0 = 'x'"),
            "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\",\"dtype\":\"f16\"", OK_ARGS);
  m = rt_only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "run.args[0] 'x' (from input0 = op 'twice' argument 'x'): the run spec says "
                      "f16, run.reference.pytorch.args.x says f32 [1024]"),
            "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"input0\",\"shape\":[512]", OK_ARGS);
  m = rt_only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "the run spec says [512], run.reference.pytorch.args.x says f32 [1024]"),
            "%s", m);
  json_decref(res);
  res = run_with(true, "\"from\":\"param:w\"", OK_ARGS);
  cr_assert(strstr(rt_only_error(res, "run/pytorch-mismatch"), "but op 'twice' has no parameters"));
  json_decref(res);
}

Test(pyref_op, an_extension_that_does_not_import) {
  RT_NEED_TOOLKIT();
  put("torch-ext/torch_binding.cpp", "ops.def(\"unbuilt(Tensor! out, Tensor x) -> ()\");\n");
  json_t *res =
      run_with(true, "\"from\":\"input0\"",
               "\"op\":\"unbuilt\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[1024]},\"x\":{"
               "\"dtype\":\"f32\",\"shape\":[1024]}}");
  const char *m = rt_only_error(res, "run/pytorch-op-unavailable");
  cr_assert(strstr(m, "op 'unbuilt' of ") && strstr(m, "cannot be called: no built variant for "
                                                       "torch 2.8.0 under "),
            "%s", m);
  json_decref(res);
}

/* The real helper under the real python3 without torch: run/no-torch for an op too. */
Test(pyref_op, the_real_helper_without_torch) {
  RT_NEED_TOOLKIT();
  rt_need_python_without_torch();
  setenv("UPSKILLD_PYTHON", "python3", 1);
  json_t *res = run_with(true, "\"from\":\"input0\"", OK_ARGS);
  cr_assert(strstr(rt_no_device_then_no_torch(res), "torch is not installed for "));
  json_decref(res);
}

/* An op that writes a tensor in place: given low and high it is drawn, its contents before the
 * op come as the inout buffer's initial contents, after it as the expected ones. */
static json_t *run_inplace(const char *x_spec) {
  static const char SRC2[] = "extern \"C\" __global__ void dbl(float *x, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) x[i] *= 2.0f;\n"
                             "}\n";
  char text[1024];
  put("torch-ext/torch_binding.cpp", "ops.def(\"double_(Tensor(a!) x) -> ()\");\n");
  snprintf(text, sizeof text,
           "{\"grid\":4,\"block\":256,\"args\":[{\"name\":\"x\",\"from\":\"output0\",\"role\":"
           "\"inout\"},{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}],\"reference\":{"
           "\"pytorch\":{\"op\":\"double_\",\"project\":\"%s\",\"args\":{\"x\":%s}}}}",
           dir, x_spec);
  return rt_run(NULL, SRC2, "dbl.cu", text);
}

Test(pyref_op, an_in_place_op) {
  RT_NEED_TOOLKIT();
  json_t *res = run_inplace("{\"dtype\":\"f32\",\"shape\":[1024],\"low\":-1,\"high\":1}");
  rt_only_error(res, "run/no-device");
  json_t *ts = json_object_get(json_object_get(json_object_get(res, "run"), "pytorch"), "tensors");
  cr_assert_eq(json_array_size(ts), 1);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ts, 0), "from")), "output0");
  json_decref(res);
  res = run_inplace("{\"dtype\":\"f32\",\"shape\":[1024]}");
  const char *m = rt_only_error(res, "run/pytorch-mismatch");
  cr_assert(strstr(m, "run.args[0] 'x' is inout (from output0), but op 'double_' gets it "
                      "preallocated with zeros: give run.reference.pytorch.args.x low and high"),
            "%s", m);
  json_decref(res);
}

Test(pyref_op, role_with_from_is_only_inout_on_an_output) {
  char err[512];
  json_t *run = json_loads("{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"input0\",\"role\":"
                           "\"inout\"},{\"from\":\"output\"}],\"reference\":{\"pytorch\":{\"op\":"
                           "\"x\"}}}",
                           0, NULL);
  cr_assert_eq(upk_runspec_check(run, err, sizeof err), -EINVAL);
  cr_assert_str_eq(err, "run.args[0]: role with 'from' can only be \"inout\" on an output<N> (a "
                        "tensor a torch op writes in place)");
  json_decref(run);
}
