/* Static checks before a run (issue 50, part 4) through the real daemon and worker: a submission
 * refused by reading it gets its run/... diagnostics at their lines and nothing runs: no device is
 * opened (no run/no-device on a machine without a GPU, no timing on one with it), no PyTorch
 * helper is started. The same request without the planted call does reach the device step, so
 * the check is what stopped it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/harness.h"

TestSuite(kernel_static, .timeout = 240);

static json_t *validate(hx *d, json_t **resp, const char *params) {
  static int id = 100;
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", ++id);
  *resp =
      hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":%s}",
               id, params);
  return hx_assert_result(*resp, idtxt);
}

static json_t *diag_with_code(json_t *result, const char *code) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(result, "diagnostics"), i, x) {
    const char *c = json_string_value(json_object_get(x, "code"));
    if (c && !strcmp(c, code))
      return x;
  }
  return NULL;
}

static int start(json_t *diag, const char *key) {
  return (int)json_integer_value(
      json_object_get(json_object_get(json_object_get(diag, "range"), "start"), key));
}

/* Nothing ran: no device step, no timing, no trial. */
static void nothing_ran(json_t *r) {
  json_t *run = json_object_get(r, "run");
  cr_assert(run, "%s", hx_dump(r));
  cr_assert(json_is_false(json_object_get(run, "ok")), "%s", hx_dump(r));
  cr_assert_eq(json_integer_value(json_object_get(run, "trials")), 0, "%s", hx_dump(r));
  cr_assert_null(json_object_get(run, "timeMs"), "%s", hx_dump(r));
  cr_assert_null(diag_with_code(r, "run/no-device"), "the device was opened: %s", hx_dump(r));
  cr_assert_null(diag_with_code(r, "run/no-python"), "%s", hx_dump(r));
  cr_assert_null(diag_with_code(r, "run/pytorch-failed"), "%s", hx_dump(r));
  cr_assert(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
}

static const char *RUN = "\"run\":{\"kernel\":\"%s\",\"grid\":[1],\"block\":[1],\"args\":["
                         "{\"name\":\"A\",\"dtype\":\"f32\",\"count\":256,\"role\":\"in\"},"
                         "{\"name\":\"B\",\"dtype\":\"f32\",\"count\":256,\"role\":\"in\"},"
                         "{\"name\":\"C\",\"dtype\":\"f32\",\"count\":256,\"role\":\"out\"},"
                         "{\"name\":\"N\",\"dtype\":\"i32\",\"value\":16}],"
                         "\"reference\":{\"name\":\"child\"},\"trials\":1,\"iterations\":1}";

/* KernelBench's non-default-stream hack (tests/gpu/kernelbench/adversarial): it compiles with
 * -rdc=true, and is refused before any launch for its fire-and-forget stream. */
Test(kernel_static, a_stream_of_its_own_is_refused_before_the_device) {
  HX_NEED_TOOLKIT();
  const char *root = getenv("UPK_SOURCE_ROOT");
  cr_assert(root, "UPK_SOURCE_ROOT is set by tests/meson.build");
  char params[4096], run[1024];
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  snprintf(run, sizeof run, RUN, "launcher");
  snprintf(params, sizeof params,
           "{\"path\":\"%s/tests/gpu/kernelbench/adversarial/non_default_stream.cu\","
           "\"options\":[\"-rdc=true\"],%s}",
           root, run);
  json_t *r = validate(d, &resp, params);
  json_t *x = diag_with_code(r, "run/stream-api");
  cr_assert(x, "%s", hx_dump(r));
  cr_assert_eq(start(x, "line"), 25, "%s", hx_dump(x)); /* child<<<..., cudaStreamFireAndForget */
  cr_assert_eq(start(x, "character"), 26, "%s", hx_dump(x));
  cr_assert(strstr(json_string_value(json_object_get(x, "message")), "cudaStreamFireAndForget"));
  cr_assert_str_eq(json_string_value(json_object_get(x, "source")), "upskilld-run");
  cr_assert(json_array_size(json_object_get(r, "kernels")) >= 2, "the compile still answered: %s",
            hx_dump(r));
  nothing_ran(r);
  json_decref(resp);
  /* The control: its plain child kernel, the same spec, reaches the device step. */
  snprintf(run, sizeof run, RUN, "child");
  snprintf(params, sizeof params,
           "{\"source\":\"#define TILE 16\\n__global__ void child(const float *A, const float "
           "*B, float *C, int N) { C[threadIdx.x] = A[threadIdx.x] + B[threadIdx.x]; }\\n\",%s}",
           run);
  r = validate(d, &resp, params);
  cr_assert_null(diag_with_code(r, "run/stream-api"), "%s", hx_dump(r));
  cr_assert(diag_with_code(r, "run/no-device") ||
                json_object_get(json_object_get(r, "run"), "timeMs"),
            "neither refused for no device nor timed: %s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* Torch in a kernel for a PyTorch reference is refused by default; the helper is not started
 * (the problem's path does not even exist). run.forbid [] lets the same kernel through to the
 * next step. A bad run.forbid is invalid params naming the element. */
Test(kernel_static, torch_is_forbidden_with_a_pytorch_reference) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  const char *src = "{\"source\":\"#include <torch/extension.h>\\n"
                    "__global__ void k(const float *x, float *y) {\\n"
                    "  y[threadIdx.x] = x[threadIdx.x];\\n"
                    "}\\n"
                    "void host(torch::Tensor t) { auto u = at::relu(t); }\\n\","
                    "\"run\":{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],\"args\":["
                    "{\"name\":\"x\",\"from\":\"input0\"},{\"name\":\"y\",\"from\":\"output\"}],"
                    "\"reference\":{\"pytorch\":{\"path\":\"no-such-problem.py\"}}%s}}";
  char params[2048];
  snprintf(params, sizeof params, src, "");
  json_t *r = validate(d, &resp, params);
  size_t i, lib = 0;
  json_t *x;
  json_array_foreach(json_object_get(r, "diagnostics"), i, x) {
    const char *c = json_string_value(json_object_get(x, "code"));
    if (c && !strcmp(c, "run/forbidden-library")) {
      cr_assert(start(x, "line") == 0 || start(x, "line") == 4, "%s", hx_dump(x));
      lib++;
    }
  }
  cr_assert_eq(lib, 2, "the include and line 4 (one per line): %s", hx_dump(r));
  nothing_ran(r);
  json_decref(resp);
  /* Allowed: the static check passes it on (the compile or the helper then answer). */
  snprintf(params, sizeof params, src, ",\"forbid\":[]");
  r = validate(d, &resp, params);
  cr_assert_null(diag_with_code(r, "run/forbidden-library"), "%s", hx_dump(r));
  json_decref(resp);
  snprintf(params, sizeof params, src, ",\"forbid\":[\"torch\",\"numpy\"]");
  resp = hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"kernel/validate\",\"params\":%s}",
                  params);
  hx_assert_error(resp, "7", -32602);
  const char *msg = json_string_value(json_object_get(json_object_get(resp, "error"), "message"));
  cr_assert(msg && strstr(msg, "run.forbid[1]") && strstr(msg, "numpy"), "%s", hx_dump(resp));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

static void write_file(const char *dir, const char *name, const char *text) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  cr_assert(f, "%s", p);
  fputs(text, f);
  fclose(f);
}

/* The submission's own headers (beside it) are read as it is, with `file` naming the header; a
 * library from an include directory elsewhere is not the submission. */
Test(kernel_static, its_own_headers_are_read_too) {
  HX_NEED_TOOLKIT();
  char ws[] = "/tmp/upk-kstatic-XXXXXX", sub[600], lib[600], params[4096], run[1024];
  cr_assert(mkdtemp(ws));
  snprintf(sub, sizeof sub, "%s/sub", ws);
  snprintf(lib, sizeof lib, "%s/lib", ws);
  cr_assert_eq(mkdir(sub, 0700), 0);
  cr_assert_eq(mkdir(lib, 0700), 0);
  write_file(sub, "launch.cuh",
             "#pragma once\n"
             "__global__ void child(const float *A, const float *B, float *C, int N);\n"
             "__device__ void go(const float *A, const float *B, float *C, int N) {\n"
             "  child<<<1, 32, 0, cudaStreamFireAndForget>>>(A, B, C, N);\n"
             "}\n");
  write_file(lib, "timer.cuh",
             "#pragma once\n__device__ long long stamp() { return clock64(); }\n");
  write_file(sub, "k.cu",
             "#include \"launch.cuh\"\n#include \"timer.cuh\"\n"
             "__global__ void child(const float *A, const float *B, float *C, int N) {\n"
             "  C[threadIdx.x] = A[threadIdx.x] + B[threadIdx.x];\n"
             "}\n"
             "__global__ void launcher(const float *A, const float *B, float *C, int N) {\n"
             "  go(A, B, C, N);\n"
             "}\n");
  snprintf(run, sizeof run, RUN, "launcher");
  snprintf(params, sizeof params,
           "{\"path\":\"%s/k.cu\",\"includes\":[\"%s\"],\"options\":[\"-rdc=true\"],%s}", sub, lib,
           run);
  char root[700];
  snprintf(root, sizeof root, "file://%s", ws); /* the workspace: lib/ is an allowed root */
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_decref(hx_lsp_init(d, root));
  json_t *resp, *r = validate(d, &resp, params);
  cr_assert_null(diag_with_code(r, "kernel/option-refused"), "%s", hx_dump(r));
  cr_assert_eq(json_array_size(json_object_get(r, "kernels")), 2, "it compiled: %s", hx_dump(r));
  json_t *x = diag_with_code(r, "run/stream-api");
  cr_assert(x, "%s", hx_dump(r));
  const char *file = json_string_value(json_object_get(x, "file"));
  cr_assert(file && strstr(file, "/sub/launch.cuh"), "%s", hx_dump(x));
  cr_assert_eq(start(x, "line"), 3, "%s", hx_dump(x));
  cr_assert_eq(start(x, "character"), 20, "%s", hx_dump(x));
  cr_assert_null(diag_with_code(r, "run/device-clock"), "lib/ is not the submission: %s",
                 hx_dump(r));
  nothing_ran(r);
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", ws);
  cr_assert_eq(system(cmd), 0);
}
