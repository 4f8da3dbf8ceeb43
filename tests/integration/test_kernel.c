/* kernel/validate through the real daemon, its real worker and the real NVRTC: results,
 * diagnostics, the cache and its invalidation, the include policy, bad input, worker faults
 * (crash, hang, garbage: each contained), cancellation, and editor diagnostics. Tests that need
 * the CUDA toolkit skip with a reason where it is missing. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/integration/harness.h"

TestSuite(kernel, .timeout = 240);

static const char *SAXPY =
    "extern \\\"C\\\" __global__ void saxpy(int n, float a, const float *x, float *y) {\\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\\n"
    "}\\n";

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* kernel/validate with `params` (JSON text); the result (owned by `*resp`). */
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

static int start_line(json_t *diag) {
  return (int)json_integer_value(
      json_object_get(json_object_get(json_object_get(diag, "range"), "start"), "line"));
}

Test(kernel, saxpy_reports_resources_and_occupancy) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r;
  char params[2048];
  snprintf(params, sizeof params, "{\"source\":\"%s\",\"blockSize\":256}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_t *k = json_array_get(json_object_get(r, "kernels"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "saxpy", "%s", hx_dump(r));
  cr_assert_gt(json_integer_value(json_object_get(k, "registers")), 0);
  cr_assert_eq(json_integer_value(json_object_get(k, "spillStores")), 0);
  cr_assert_eq(json_integer_value(json_object_get(k, "line")), 0);
  json_t *occ = json_object_get(k, "occupancy");
  cr_assert_eq(json_integer_value(json_object_get(occ, "blockSize")), 256);
  cr_assert_float_eq(json_real_value(json_object_get(occ, "percent")), 100.0, 1e-9, "%s",
                     hx_dump(occ));
  cr_assert_str_eq(json_string_value(json_object_get(r, "arch")), "sm_90a");
  cr_assert(json_is_false(json_object_get(r, "cached")));
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, identical_revalidation_is_cached) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r;
  char params[2048];
  snprintf(params, sizeof params, "{\"source\":\"%s\"}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(json_is_false(json_object_get(r, "cached")), "%s", hx_dump(r));
  double compiled_ms = json_real_value(json_object_get(r, "elapsedMs"));
  json_decref(resp);
  r = validate(d, &resp, params);
  cr_assert(json_is_true(json_object_get(r, "cached")), "%s", hx_dump(r));
  /* No clock bound (bench/regress times it): cheaper than the compile it saved. */
  cr_assert_lt(json_real_value(json_object_get(r, "elapsedMs")), compiled_ms, "%s", hx_dump(r));
  json_decref(resp);
  snprintf(params, sizeof params, "{\"source\":\"%s\",\"cache\":false}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(json_is_false(json_object_get(r, "cached")), "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, syntax_error_has_line_and_column) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  json_t *r = validate(
      d, &resp,
      "{\"source\":\"__global__ void k(float *y) {\\n  y[0] = undefined_var * 2.0f;\\n}\\n\"}");
  cr_assert(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_t *first = json_array_get(json_object_get(r, "diagnostics"), 0);
  cr_assert_eq(json_integer_value(json_object_get(first, "severity")), 1, "%s", hx_dump(r));
  cr_assert_eq(start_line(first), 1, "%s", hx_dump(first));
  json_int_t col = json_integer_value(
      json_object_get(json_object_get(json_object_get(first, "range"), "start"), "character"));
  cr_assert_eq(col, 9, "%s", hx_dump(first)); /* at undefined_var */
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A workspace with a kernel that includes a header of its own. */
static char *workspace(char *tmpl) {
  cr_assert(mkdtemp(tmpl));
  char p[600];
  snprintf(p, sizeof p, "%s/common.cuh", tmpl);
  FILE *f = fopen(p, "w");
  fputs("#define SCALE 2.0f\n", f);
  fclose(f);
  snprintf(p, sizeof p, "%s/k.cu", tmpl);
  f = fopen(p, "w");
  fputs("#include \"common.cuh\"\n__global__ void k(float *y) { y[threadIdx.x] *= SCALE; }\n", f);
  fclose(f);
  return tmpl;
}

static void rm_tree(const char *dir) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

Test(kernel, editing_a_header_invalidates_the_cache) {
  HX_NEED_TOOLKIT();
  char tmpl[] = "/tmp/upk-kws-XXXXXX";
  const char *ws = workspace(tmpl);
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r;
  char params[700];
  snprintf(params, sizeof params, "{\"path\":\"%s/k.cu\"}", ws);
  r = validate(d, &resp, params);
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  cr_assert_eq(json_array_size(json_object_get(r, "dependencies")), 1, "%s", hx_dump(r));
  json_decref(resp);
  r = validate(d, &resp, params);
  cr_assert(json_is_true(json_object_get(r, "cached")), "%s", hx_dump(r));
  json_decref(resp);
  char p[600];
  snprintf(p, sizeof p, "%s/common.cuh", ws);
  hx_msleep(20);
  FILE *f = fopen(p, "w");
  fputs("#define SCALE undefined_thing\n", f);
  fclose(f);
  r = validate(d, &resp, params);
  cr_assert(json_is_false(json_object_get(r, "cached")), "%s", hx_dump(r));
  cr_assert(json_is_false(json_object_get(r, "ok")), "header error not seen: %s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(ws);
}

Test(kernel, include_outside_the_allowed_dirs_is_refused) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  json_t *r = validate(d, &resp,
                       "{\"source\":\"#include \\\"/etc/passwd\\\"\\n__global__ void k() {}\\n\"}");
  json_t *x = diag_with_code(r, "kernel/include-outside");
  cr_assert(x, "%s", hx_dump(r));
  cr_assert_eq(start_line(x), 0);
  cr_assert(json_is_false(json_object_get(r, "ok")));
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, bad_input_gets_diagnostics_and_the_daemon_stays) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r;
  r = validate(d, &resp, "{\"source\":\"\"}");
  cr_assert(diag_with_code(r, "kernel/empty-source"), "%s", hx_dump(r));
  json_decref(resp);
  r = validate(d, &resp, "{\"source\":\"\\u0001\\u0002\\u0000\\u00ff junk\"}");
  cr_assert(diag_with_code(r, "kernel/binary-source"), "%s", hx_dump(r));
  json_decref(resp);
  char params[2048];
  snprintf(params, sizeof params, "{\"source\":\"%s\",\"names\":[\"nope\"]}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(diag_with_code(r, "kernel/unknown-name"), "%s", hx_dump(r));
  json_decref(resp);
  snprintf(params, sizeof params, "{\"source\":\"%s\",\"arch\":\"sm_42\"}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(diag_with_code(r, "kernel/unknown-arch"), "%s", hx_dump(r));
  json_decref(resp);
  /* An option on the allowlist (docs/security.md) that NVRTC itself does not take: nvcc's -O3. */
  snprintf(params, sizeof params, "{\"source\":\"%s\",\"options\":[\"-O3\"]}", SAXPY);
  r = validate(d, &resp, params);
  cr_assert(diag_with_code(r, "nvrtc/invalid-option"), "%s", hx_dump(r));
  json_decref(resp);
  r = validate(d, &resp, "{\"path\":\"/nonexistent/k.cu\"}");
  cr_assert(diag_with_code(r, "kernel/unreadable"), "%s", hx_dump(r));
  json_decref(resp);
  /* Infinite template recursion: the compiler's own error at the template's line, no hang. */
  r = validate(d, &resp,
               "{\"source\":\"template <int N> struct R { static const int v = R<N + 1>::v; "
               "};\\n__global__ void k(int *o) { *o = R<0>::v; }\\n\"}");
  json_t *rec = diag_with_code(r, "nvrtc/error");
  cr_assert(rec && strstr(json_string_value(json_object_get(rec, "message")),
                          "excessive recursion at instantiation"),
            "%s", hx_dump(r));
  cr_assert_eq(start_line(rec), 0, "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(kernel, huge_source_is_refused_with_a_diagnostic) {
  hx *d = hx_lsp_session(HX_NOARGS);
  size_t n = 50u << 20;
  char *big = malloc(n + 200);
  int off = sprintf(big, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"kernel/validate\","
                         "\"params\":{\"source\":\"");
  memset(big + off, 'x', n);
  strcpy(big + off + n, "\"}}");
  hx_send(d, big);
  free(big);
  json_t *resp = hx_response(d, 60000);
  cr_assert(resp, "no answer to a 50 MB source");
  json_t *r = hx_assert_result(resp, "9");
  cr_assert(diag_with_code(r, "kernel/source-too-large"), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(kernel, params_are_checked) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"kernel/validate\",\"params\":{}}");
  hx_assert_error(resp, "1", -32602);
  json_decref(resp);
  resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"kernel/validate\",\"params\":"
                    "{\"source\":\"x\",\"blockSize\":4096}}");
  hx_assert_error(resp, "2", -32602);
  json_decref(resp);
  resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"kernel/validate\",\"params\":"
                    "{\"source\":\"x\",\"defines\":[1]}}");
  hx_assert_error(resp, "3", -32602);
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, no_toolkit_is_one_clear_diagnostic) {
  hx *d = hx_lsp_session(HX_ARGS("--cuda-path=/nonexistent-cuda"));
  json_t *resp;
  char params[2048];
  snprintf(params, sizeof params, "{\"source\":\"%s\"}", SAXPY);
  json_t *r = validate(d, &resp, params);
  cr_assert(json_is_false(json_object_get(r, "ok")));
  cr_assert_eq(json_array_size(json_object_get(r, "diagnostics")), 1, "%s", hx_dump(r));
  cr_assert(diag_with_code(r, "kernel/no-toolkit"), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* upskilld/worker (test only) sends raw ops, including the worker's fault modes. */
static const char *worker_op(hx *d, int id, const char *op, int timeout_ms) {
  static char status[32];
  json_t *resp = hx_callf(d,
                          "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"upskilld/worker\","
                          "\"params\":{\"op\":\"%s\",\"timeoutMs\":%d}}",
                          id, op, timeout_ms);
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", id);
  json_t *r = hx_assert_result(resp, idtxt);
  snprintf(status, sizeof status, "%s", json_string_value(json_object_get(r, "status")));
  json_decref(resp);
  return status;
}

Test(kernel, worker_faults_are_contained) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  cr_assert_str_eq(worker_op(d, 1, "crash", 0), "EPIPE");
  cr_assert_str_eq(worker_op(d, 2, "garbage", 0), "EPROTO");
  cr_assert_str_eq(worker_op(d, 3, "exit", 0), "EPIPE");
  double t0 = now_ms();
  cr_assert_str_eq(worker_op(d, 4, "hang", 300), "ETIMEDOUT");
  cr_assert_lt(now_ms() - t0, 5000.0);
  cr_assert_str_eq(worker_op(d, 5, "hello", 0), "ok");
  hx_ping(d);
  /* The hung worker was started directly and killed at its deadline: no word of a SIGTERM it
   * never got (the escalation's messages are for worker commands such as srun). */
  char *err = hx_stderr(d);
  cr_assert_null(strstr(err, "ignored SIGTERM"), "%s", err);
  free(err);
  hx_finish(d, 0);
}

Test(kernel, fault_ops_need_test_methods) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/worker\","
                            "\"params\":{\"op\":\"crash\"}}");
  hx_assert_error(resp, "1", -32601);
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, cancelling_kills_the_worker_and_answers) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"upskilld/worker\","
             "\"params\":{\"op\":\"hang\",\"timeoutMs\":60000}}");
  hx_msleep(200);
  double t0 = now_ms();
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":7}}");
  json_t *resp = hx_response(d, HX_TIMEOUT);
  cr_assert(resp);
  hx_assert_error(resp, "7", -32800);
  cr_assert_lt(now_ms() - t0, 3000.0);
  json_decref(resp);
  cr_assert_str_eq(worker_op(d, 8, "hello", 0), "ok");
  hx_finish(d, 0);
}

/* A cancelled kernel/validate answers -32800 at once and releases its job (ASan/valgrind: no
 * leak at exit); the daemon checks the next kernel normally. */
Test(kernel, cancelling_a_validate_answers_and_the_next_one_runs) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  hx_validate_then_cancel(d, 7);
  json_t *resp;
  json_t *r = validate(d, &resp, "{\"source\":\"__global__ void k(float *y) { y[0] = 1.f; }\"}");
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
}

Test(kernel, mcp_tool_validate_kernel) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *resp = hx_callf(d,
                          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                          "{\"name\":\"validate_kernel\",\"arguments\":{\"source\":\"%s\"}}}",
                          SAXPY);
  json_t *r = hx_assert_result(resp, "2");
  json_t *sc = json_object_get(r, "structuredContent");
  cr_assert(json_is_true(json_object_get(sc, "ok")), "%s", hx_dump(r));
  cr_assert(json_is_false(json_object_get(r, "isError")) || !json_object_get(r, "isError"));
  /* the answer a model reads (kernel_brief.h): the summary first, names only, within 2 KB */
  const char *text =
      json_string_value(json_object_get(json_array_get(json_object_get(r, "content"), 0), "text"));
  cr_assert(text && !strncmp(text, "{\"summary\":\"ok: 1 kernel for ", 29), "%s", text);
  cr_assert_leq(strlen(text), 2048, "%s", text);
  json_t *k = json_array_get(json_object_get(sc, "kernels"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "saxpy", "%s", hx_dump(sc));
  cr_assert_null(json_object_get(k, "mangled"), "%s", hx_dump(sc));
  cr_assert(json_is_integer(json_object_get(sc, "dependencyCount")), "%s", hx_dump(sc));
  json_decref(resp);
  hx_finish(d, 0);
}

/* ---- editor diagnostics ---- */

Test(kernel, editor_diagnostics_follow_the_text) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  const char *uri = "file:///tmp/upk-editor-test/k.cu";
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
           "{\"uri\":\"%s\",\"languageId\":\"cuda-cpp\",\"version\":1,\"text\":"
           "\"__global__ void k(float *y) {\\n  y[0] = nope;\\n}\\n\"}}}",
           uri);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "no publishDiagnostics after didOpen");
  json_t *p = json_object_get(m, "params");
  cr_assert_eq(json_integer_value(json_object_get(p, "version")), 1);
  json_t *diags = json_object_get(p, "diagnostics");
  cr_assert_geq(json_array_size(diags), 1, "%s", hx_dump(m));
  cr_assert_eq(start_line(json_array_get(diags, 0)), 1, "%s", hx_dump(m));
  json_decref(m);
  /* Two quick changes: only the last text's diagnostics are published. */
  hx_sendf(
      d,
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
      "{\"uri\":\"%s\",\"version\":2},\"contentChanges\":[{\"text\":\"__global__ void k(float "
      "*y) { y[0] = still_bad; }\\n\"}]}}",
      uri);
  hx_sendf(
      d,
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
      "{\"uri\":\"%s\",\"version\":3},\"contentChanges\":[{\"text\":\"__global__ void k(float "
      "*y) { y[0] = 1.0f; }\\n\"}]}}",
      uri);
  m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m);
  p = json_object_get(m, "params");
  cr_assert_eq(json_integer_value(json_object_get(p, "version")), 3, "%s", hx_dump(m));
  cr_assert_eq(json_array_size(json_object_get(p, "diagnostics")), 0, "%s", hx_dump(m));
  json_decref(m);
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":{\"textDocument\":"
           "{\"uri\":\"%s\"}}}",
           uri);
  m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m);
  cr_assert_eq(json_array_size(json_object_get(json_object_get(m, "params"), "diagnostics")), 0);
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(kernel, editor_diagnostics_for_skill_files) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char *uri = "file:///tmp/upk-editor-test/my-skill/SKILL.md";
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
           "{\"uri\":\"%s\",\"languageId\":\"markdown\",\"version\":4,\"text\":"
           "\"---\\nname: Bad_Name\\n---\\nbody\\n\"}}}",
           uri);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "no publishDiagnostics for SKILL.md");
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  cr_assert_geq(json_array_size(diags), 1, "%s", hx_dump(m));
  json_decref(m);
  hx_finish(d, 0);
}

/* ---- run: kernel/validate with a run spec (issue 5) ---- */

static const char *RUN_SCALE =
    "{\"source\":\"extern \\\"C\\\" __global__ void scale(const float *x, float *y, int n) {\\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\\n"
    "  if (i < n) y[i] = 2.0f * x[i];\\n"
    "}\\n"
    "extern \\\"C\\\" __global__ void scale_ref(const float *x, float *y, int n) {\\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\\n"
    "  if (i < n) y[i] = x[i] + x[i];\\n"
    "}\\n\","
    "\"run\":{\"kernel\":\"scale\",\"grid\":[16],\"block\":[256],\"args\":["
    "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"in\"},"
    "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":4096,\"role\":\"out\"},"
    "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":4096}],"
    "\"reference\":{\"name\":\"scale_ref\"},\"trials\":2,\"iterations\":5}}";

static bool have_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h)
    dlclose(h);
  return h != NULL;
}

Test(kernel, run_spec_errors_are_invalid_params) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp = hx_call(
      d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"kernel/validate\",\"params\":{\"source\":"
         "\"__global__ void k(float *y) {}\",\"run\":{\"grid\":[1],\"block\":[32],\"args\":[{"
         "\"name\":\"y\",\"dtype\":\"f8\",\"count\":32,\"role\":\"out\"}]}}}");
  hx_assert_error(resp, "1", -32602);
  const char *msg = json_string_value(json_object_get(json_object_get(resp, "error"), "message"));
  cr_assert(msg && strstr(msg, "run.args[0].dtype") && strstr(msg, "f8"), "%s", hx_dump(resp));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* Without a driver: the compile still answers, the run is one run/no-device diagnostic. With
 * one (a GPU machine): the kernel matches its reference and is timed. Never faked either way. */
Test(kernel, run_through_the_daemon) {
  HX_NEED_TOOLKIT();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  json_t *r = validate(d, &resp, RUN_SCALE);
  json_t *k = json_array_get(json_object_get(r, "kernels"), 0);
  cr_assert(json_integer_value(json_object_get(k, "registers")) > 0, "%s", hx_dump(r));
  if (!have_driver()) {
    cr_assert(diag_with_code(r, "run/no-device"), "%s", hx_dump(r));
    cr_assert(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  } else {
    json_t *run = json_object_get(r, "run");
    cr_assert(json_is_true(json_object_get(run, "ok")), "%s", hx_dump(r));
    cr_assert(json_object_get(json_object_get(run, "timeMs"), "median"), "%s", hx_dump(r));
  }
  cr_assert(json_is_false(json_object_get(r, "cached")), "%s", hx_dump(r));
  json_decref(resp);
  /* A run is a measurement: the same request runs again, never from the cache. */
  r = validate(d, &resp, RUN_SCALE);
  cr_assert(json_is_false(json_object_get(r, "cached")), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* Issue 50's bad input, answered on the loop before any worker: no shapes, a shape too large
 * (named by its size), a seed that is not a number. The daemon stays responsive. */
Test(kernel, run_sweep_errors_are_invalid_params) {
  static const char *const cases[][2] = {
      {"\"shapes\":[]", "run.shapes: is empty"},
      {"\"shapes\":[{\"args\":{\"y\":5000000000}}]", "its buffers need 20000000000 bytes"},
      {"\"seed\":\"lucky\"", "run.seed: must be a non-negative integer"},
  };
  hx *d = hx_lsp_session(HX_NOARGS);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char req[1024];
    snprintf(
        req, sizeof req,
        "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"kernel/validate\",\"params\":{\"source\":"
        "\"__global__ void k(float *y) {}\",\"run\":{\"grid\":[1],\"block\":[32],\"args\":[{"
        "\"name\":\"y\",\"dtype\":\"f32\",\"count\":32,\"role\":\"out\"}],%s}}}",
        i + 1, cases[i][0]);
    json_t *resp = hx_call(d, req);
    char id[8];
    snprintf(id, sizeof id, "%zu", i + 1);
    hx_assert_error(resp, id, -32602);
    const char *msg = json_string_value(json_object_get(json_object_get(resp, "error"), "message"));
    cr_assert(msg && strstr(msg, cases[i][1]), "wanted '%s': %s", cases[i][1], hx_dump(resp));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* Without a driver the answer says what would have run: the seed (given here, so the inputs
 * are reproducible), every shape with the odd sizes added, the buffer sets of the rotation. */
Test(kernel, run_plan_without_a_device) {
  HX_NEED_TOOLKIT();
  if (have_driver())
    cr_skip_test("a driver is present: the kernel runs (tests/gpu)");
  char req[4096];
  snprintf(req, sizeof req,
           "%.*s,\"seed\":11,\"shapes\":[{\"args\":{\"x\":8192,\"y\":8192,"
           "\"n\":8192}},{\"args\":{\"x\":100,\"y\":100,\"n\":100},\"grid\":1}]}}",
           (int)strlen(RUN_SCALE) - 2, RUN_SCALE);
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp;
  json_t *r = validate(d, &resp, req);
  cr_assert(diag_with_code(r, "run/no-device"), "%s", hx_dump(r));
  json_t *run = json_object_get(r, "run"), *plan = json_object_get(run, "plan");
  cr_assert_eq(json_integer_value(json_object_get(run, "seed")), 11, "%s", hx_dump(r));
  json_t *shapes = json_object_get(plan, "shapes");
  cr_assert_eq(json_array_size(shapes), 6, "2 given, each with 2 odd sizes: %s", hx_dump(r));
  json_t *s0 = json_array_get(shapes, 0), *s2 = json_array_get(shapes, 2);
  cr_assert_eq(json_integer_value(json_array_get(json_object_get(s0, "grid"), 0)), 32,
               "16 blocks for 4096 scale to 32 for 8192: %s", hx_dump(s0));
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(s2, "args"), "n")), 8205, "%s",
               hx_dump(s2));
  cr_assert_eq(json_integer_value(json_object_get(s0, "bufferSets")), 5, "one per timed launch");
  cr_assert_eq(json_integer_value(json_object_get(s0, "hashedLaunches")), 5);
  cr_assert_eq(json_integer_value(json_object_get(s0, "inputsHashedLaunches")), 5);
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* Saving a header (even one not open) rechecks the open kernels that read it (issue 7). */
Test(kernel, saving_a_header_rechecks_its_dependents) {
  HX_NEED_TOOLKIT();
  char tmpl[] = "/tmp/upk-kdep-XXXXXX";
  const char *ws = workspace(tmpl);
  hx *d = hx_lsp_session(HX_NOARGS);
  char uri[600], hdr[600];
  snprintf(uri, sizeof uri, "file://%s/k.cu", ws);
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
           "{\"uri\":\"%s\",\"languageId\":\"cuda-cpp\",\"version\":1,\"text\":\"#include "
           "\\\"common.cuh\\\"\\n__global__ void k(float *y) { y[threadIdx.x] *= SCALE; }\\n\"}}}",
           uri);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "no publishDiagnostics after didOpen");
  cr_assert_eq(json_array_size(json_object_get(json_object_get(m, "params"), "diagnostics")), 0,
               "%s", hx_dump(m));
  json_decref(m);
  snprintf(hdr, sizeof hdr, "%s/common.cuh", ws);
  hx_msleep(20);
  FILE *f = fopen(hdr, "w");
  fputs("#define SCALE undefined_thing\n", f);
  fclose(f);
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didSave\",\"params\":{\"textDocument\":"
           "{\"uri\":\"file://%s\"}}}",
           hdr);
  m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "saving the header did not recheck k.cu");
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  cr_assert_geq(json_array_size(diags), 1, "%s", hx_dump(m));
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(ws);
}

/* An open file of a kernel-builder project is checked with its kernel's cuda-flags and include
 * dirs from build.toml, and saving build.toml rechecks it (issue 7). rmsnorm.cu stops with
 * #error unless build.toml's cuda-flags define RMS_EPS. */
Test(kernel, editor_checks_project_files_as_build_toml_says) {
  HX_NEED_TOOLKIT();
  char tmpl[] = "/tmp/upk-kproj-XXXXXX", cmd[1200], path[700], uri[800];
  cr_assert(mkdtemp(tmpl));
  snprintf(cmd, sizeof cmd, "cp -r '%s/tests/kernel/projects/good/.' '%s'",
           getenv("UPK_SOURCE_ROOT"), tmpl);
  cr_assert_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/kernel_src/rmsnorm.cu", tmpl);
  FILE *f = fopen(path, "rb");
  cr_assert(f);
  static char src[65536];
  size_t n = fread(src, 1, sizeof src - 1, f);
  fclose(f);
  src[n] = '\0';
  json_t *open = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                           "textDocument/didOpen", "params", "textDocument", "uri", "",
                           "languageId", "cuda-cpp", "version", 1, "text", src);
  snprintf(uri, sizeof uri, "file://%s", path);
  json_object_set_new(json_object_get(json_object_get(open, "params"), "textDocument"), "uri",
                      json_string(uri));
  char *msg = json_dumps(open, JSON_COMPACT);
  json_decref(open);
  hx *d = hx_lsp_session(HX_NOARGS);
  hx_send(d, msg);
  free(msg);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "no publishDiagnostics after didOpen");
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  size_t i;
  json_t *x;
  json_array_foreach(diags, i, x) cr_assert_neq(json_integer_value(json_object_get(x, "severity")),
                                                1, "build.toml's flags not used: %s", hx_dump(m));
  json_decref(m);
  /* Drop the define from build.toml and save it: the file is checked again, now failing. */
  snprintf(cmd, sizeof cmd, "sed -i 's/, \"-DRMS_EPS=1e-6f\"//' '%s/build.toml'", tmpl);
  cr_assert_eq(system(cmd), 0);
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didSave\",\"params\":{\"textDocument\":"
           "{\"uri\":\"file://%s/build.toml\"}}}",
           tmpl);
  m = hx_next_publish(d, uri, HX_TIMEOUT);
  cr_assert(m, "saving build.toml did not recheck rmsnorm.cu");
  diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  bool saw_error = false;
  json_array_foreach(diags, i, x) saw_error |=
      strstr(json_string_value(json_object_get(x, "message")) ?: "", "RMS_EPS") != NULL;
  cr_assert(saw_error, "%s", hx_dump(m));
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(tmpl);
}
