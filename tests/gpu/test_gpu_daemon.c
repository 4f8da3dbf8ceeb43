/* The GPU through the real daemon (LSP framing, its real workers): an
 * end-to-end run, the request after a fatal one (timeout, sticky crash)
 * passes on the same daemon, a write past the end is caught with no
 * sanitizer, many requests at once all pass, and compiles of one source in
 * fresh daemons keep their kernels (NVRTC's driver cache, seen only where
 * libcuda loads). Cases that need a device skip with the driver's reason;
 * the compile case runs wherever the toolkit is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/gpu/gpu_test.h"
#include "tests/integration/harness.h"

TestSuite(gpud, .timeout = 600);

static const char SRC[] =
    "extern \"C\" __global__ void ref(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "extern \"C\" __global__ void good(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = x[i] + x[i];\n"
    "}\n"
    "extern \"C\" __global__ void endless(const float *x, float *y, int n) {\n"
    "  const volatile float *vx = x;\n"
    "  float first = vx[0];\n"
    "  while (vx[0] == first) __nanosleep(1000);\n"
    "}\n"
    "extern \"C\" __global__ void crash(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) ((float *)16)[i] = x[i];\n"
    "}\n"
    "extern \"C\" __global__ void no_bounds(const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  y[i] = 2.0f * x[i];\n"
    "}\n"
    /* A planted hack that also crashes (issue 50): once its own launch count says the checked
     * trials are over, it writes into its input and faults in the same launch. */
    "__device__ unsigned g_tickets;\n"
    "extern \"C\" __global__ void hack_then_crash(float *x, float *y, int n) {\n"
    "  __shared__ unsigned l;\n"
    "  if (threadIdx.x == 0) l = atomicAdd(&g_tickets, 1u) / gridDim.x;\n"
    "  __syncthreads();\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  y[i] = 2.0f * x[i];\n"
    "  if (l >= 16) { x[i] = 0.0f; ((float *)16)[i] = y[i]; }\n"
    "}\n";

static bool have_toolkit(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[512];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", cuda && *cuda ? cuda : "/usr/local/cuda");
  return access(p, R_OK) == 0;
}

/* kernel/validate params running `kernel` on n floats (extra: more run fields). */
static char *params(const char *kernel, size_t n, const char *extra) {
  char run[1024];
  snprintf(run, sizeof run,
           "{\"kernel\":\"%s\",\"grid\":%zu,\"block\":256,\"args\":["
           "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":%zu,\"role\":\"in\"},"
           "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":%zu,\"role\":\"out\"},"
           "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":%zu}],"
           "\"reference\":{\"name\":\"ref\"}%s}",
           kernel, (n + 255) / 256, n, n, n, extra ? extra : "");
  json_t *r = json_loads(run, 0, NULL);
  cr_assert_not_null(r, "%s", run);
  json_t *p = json_pack("{s:s,s:s,s:o}", "source", SRC, "fileName", "cases.cu", "run", r);
  char *t = json_dumps(p, JSON_COMPACT);
  json_decref(p);
  return t;
}

static int next_id = 1;

static void send_run(hx *d, int id, const char *kernel, size_t n, const char *extra) {
  char *p = params(kernel, n, extra);
  hx_sendf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":%s}", id,
           p);
  free(p);
}

/* One run request and its result (owned by *resp). */
static json_t *run(hx *d, json_t **resp, const char *kernel, size_t n, const char *extra) {
  int id = next_id++;
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", id);
  send_run(d, id, kernel, n, extra);
  *resp = hx_response(d, 300000);
  cr_assert_not_null(*resp, "no answer to the '%s' run", kernel);
  return hx_assert_result(*resp, idtxt);
}

Test(gpud, end_to_end_run_passes_and_is_timed) {
  need_device();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r = run(d, &resp, "good", 4096, NULL);
  cr_assert(run_ok(r), "%s", hx_dump(r));
  cr_assert_gt(json_number_value(
                   json_object_get(json_object_get(json_object_get(r, "run"), "timeMs"), "median")),
               0);
  json_decref(resp);
  hx_finish(d, 0);
}

/* A fatal result retires its worker: the next request gets a fresh one. */
static void fatal_then_good(const char *kernel, const char *code, const char *extra) {
  need_device();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r = run(d, &resp, kernel, 4096, extra);
  cr_assert_not_null(diag(r, code), "%s", hx_dump(r));
  json_decref(resp);
  for (int i = 0; i < 3; i++) {
    r = run(d, &resp, "good", 4096, NULL);
    cr_assert(run_ok(r), "request %d after the fatal one: %s", i + 1, hx_dump(r));
    json_decref(resp);
  }
  hx_finish(d, 0);
}

Test(gpud, request_after_a_timeout_passes) {
  fatal_then_good("endless", "run/timeout", ",\"timeoutMs\":1000");
}

Test(gpud, request_after_a_sticky_crash_passes) {
  fatal_then_good("crash", "run/crash", NULL);
}

/* The crash is what the run meets first (the hack's write never gets hashed): one clear
 * diagnostic, fatal, and the request after it gets a fresh worker. (8 sets, two correctness
 * launches each: launches 0..15 are the checked trials; see test_gpu_hacks.c.) */
Test(gpud, request_after_a_crashing_hack_passes) {
  fatal_then_good("hack_then_crash", "run/crash",
                  ",\"trials\":2,\"warmup\":0,\"iterations\":10,\"oddSizes\":false");
}

Test(gpud, write_past_the_end_is_caught_through_the_daemon) {
  need_device();
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp, *r = run(d, &resp, "no_bounds", 1000003, NULL);
  json_t *x = diag(r, "run/out-of-bounds-write");
  cr_assert_not_null(x, "%s", hx_dump(r));
  cr_assert(strstr(json_string_value(json_object_get(x, "message")), "189 elements"));
  json_decref(resp);
  hx_finish(d, 0);
}

/* Requests pipelined on one daemon: each passes (or waits for memory). */
static void many_at_once(int n, size_t elems, const char *extra) {
  need_device();
  hx *d = hx_lsp_session(HX_NOARGS);
  int first = next_id;
  for (int i = 0; i < n; i++)
    send_run(d, next_id++, "good", elems, extra);
  for (int i = 0; i < n; i++) {
    json_t *resp = hx_response(d, 600000);
    cr_assert_not_null(resp, "answer %d of %d", i + 1, n);
    json_t *r = json_object_get(resp, "result"), *id = json_object_get(resp, "id");
    cr_assert(r && run_ok(r), "request %lld: %s", (long long)json_integer_value(id), hx_dump(resp));
    cr_assert(json_integer_value(id) >= first);
    json_decref(resp);
  }
  hx_finish(d, 0);
}

Test(gpud, thirty_two_requests_at_once_all_pass) {
  many_at_once(32, 1 << 20, NULL);
}

Test(gpud, eight_64Mi_requests_at_once_all_pass) {
  many_at_once(8, (size_t)64 << 20, ",\"trials\":2,\"iterations\":50");
}

/* NVRTC 13 serves repeated compiles from the driver's cache where libcuda
 * loads, with an empty ptxas report: every fresh daemon must still list the
 * kernels with the same figures. On a machine with no driver there is no
 * such cache and this passes for that reason alone; the GPU run is the test. */
Test(gpud, repeated_compiles_in_fresh_daemons_keep_their_kernels) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit (NVRTC) on this machine");
  json_t *p = json_pack("{s:s,s:s,s:s}", "source", SRC, "fileName", "cases.cu", "arch", "sm_90a");
  char *pt = json_dumps(p, JSON_COMPACT);
  json_decref(p);
  long regs = -1;
  for (int round = 0; round < 3; round++) {
    hx *d = hx_lsp_session(HX_NOARGS);
    json_t *resp =
        hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":%s}",
                 round + 1, pt);
    char idtxt[8];
    snprintf(idtxt, sizeof idtxt, "%d", round + 1);
    json_t *r = hx_assert_result(resp, idtxt), *ks = json_object_get(r, "kernels"), *k;
    cr_assert_eq(json_array_size(ks), 6, "daemon %d lists every kernel: %s", round + 1, hx_dump(r));
    size_t i;
    json_array_foreach(ks, i,
                       k) if (!strcmp(json_string_value(json_object_get(k, "name")), "good")) {
      long g = (long)json_integer_value(json_object_get(k, "registers"));
      cr_assert_gt(g, 0, "daemon %d: registers of 'good'", round + 1);
      cr_assert(regs < 0 || g == regs, "the same figures in every daemon");
      regs = g;
    }
    json_decref(resp);
    hx_finish(d, 0);
  }
  free(pt);
}
