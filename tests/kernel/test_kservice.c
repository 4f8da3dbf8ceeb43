/* The kernel service (daemon/kernels/kernel_service.c) on a real libuv loop with the real
 * upskilld-worker ($UPSKILLD_WORKER): a check answered at once (a cache hit, a refusal) calls
 * back from the loop after upk_kernels_check has returned, never inside it; such answers keep
 * their order, and cancelling one before it is given means no callback. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/kernels/kernel_service.h"
#include "daemon/server.h"

static uv_loop_t loop;
static upk_server *server;
static int fds[4]; /* the session's stdin pipe (read, write), its stdout pipe (read, write) */
static char cache_dir[] = "/tmp/upk-kservice-XXXXXX";
static int order_seq;

typedef struct answer {
  int calls, order;
  json_t *result;
} answer;

static void on_answer(void *arg, json_t *result) {
  answer *a = arg;
  a->calls++;
  a->order = ++order_seq;
  json_decref(a->result);
  a->result = json_incref(result);
}

/* Run the loop until `cond` holds (at most ~60 s of turns that each wait up to 10 ms). */
#define WAIT(cond)                                                                                 \
  do {                                                                                             \
    for (int i_ = 0; !(cond) && i_ < 6000; i_++) {                                                 \
      uv_run(&loop, UV_RUN_NOWAIT);                                                                \
      if (!(cond))                                                                                 \
        usleep(10000);                                                                             \
    }                                                                                              \
    cr_assert((cond), "timed out waiting for: %s", #cond);                                         \
  } while (0)

static void start(const char *worker_command) {
  signal(SIGPIPE, SIG_IGN);
  cr_assert(mkdtemp(cache_dir), "mkdtemp");
  setenv("XDG_CACHE_HOME", cache_dir, 1); /* the worker's disk cache: this test's own */
  unsetenv("UPSKILLD_WORKER_COMMAND");
  cr_assert_eq(pipe(fds), 0);
  cr_assert_eq(pipe(fds + 2), 0);
  cr_assert_eq(uv_loop_init(&loop), 0);
  upk_options opts = {.framing = UPK_FRAMING_AUTO,
                      .max_message = 1 << 20,
                      .worker_command = worker_command,
                      .worker_server_idle = "0"}; /* workers of its own: no server left behind */
  cr_assert_eq(upk_server_new(&server, &loop, &opts, fds[0], UV_NAMED_PIPE, fds[3], UV_NAMED_PIPE),
               0);
  order_seq = 0;
}

/* Closes every handle, or (arg non-NULL) the session's signal handlers only. */
static void close_walk(uv_handle_t *h, void *arg) {
  if (!uv_is_closing(h) && (!arg || h->type == UV_SIGNAL))
    uv_close(h, NULL);
}

static void stop(void) {
  upk_kernels_stop(server);
  uv_walk(&loop, close_walk, &loop); /* they would keep the loop running */
  uv_run(&loop, UV_RUN_DEFAULT);     /* the pool closes its workers */
  uv_walk(&loop, close_walk, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  upk_server_free(server);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
  close(fds[1]);
  close(fds[2]);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
  cr_assert_eq(system(cmd), 0);
}

/* A request (encoded inside upk_kernels_check, so one static struct serves every call). */
static const upk_kernel_req *params(const char *body) {
  static const char *none[1];
  static upk_kernel_req r;
  r = (upk_kernel_req){.source = body,
                       .file_name = "k.cu",
                       .includes = none,
                       .wire = {.cuda_path = upk_kernels_cuda_path(server), .allowed = none}};
  return &r;
}

static const char KERNEL[] = "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n";

/* The first check (a miss, answered by a worker) fills the cache. */
static void fill_cache(answer *first) {
  upk_kcheck *c = upk_kernels_check(server, params(KERNEL), 0, true, on_answer, first);
  cr_assert(c, "no handle");
  cr_assert_eq(first->calls, 0, "a miss called back inside the call");
  WAIT(first->calls == 1);
  cr_assert(json_is_false(json_object_get(first->result, "cached")));
}

static const char *cache_level(const answer *a) {
  return json_string_value(json_object_get(a->result, "cacheLevel"));
}

TestSuite(kservice, .timeout = 120);

Test(kservice, a_cache_hit_calls_back_after_the_call_returns) {
  start(NULL);
  answer first = {0}, hit = {0};
  fill_cache(&first);
  upk_kcheck *c = upk_kernels_check(server, params(KERNEL), 0, true, on_answer, &hit);
  cr_assert(c, "a cache hit must return a handle");
  cr_assert_eq(hit.calls, 0, "the cache hit called back inside upk_kernels_check");
  uv_run(&loop, UV_RUN_NOWAIT); /* one turn: the answer is given */
  cr_assert_eq(hit.calls, 1, "the cache hit was not answered at the next turn");
  cr_assert(json_is_true(json_object_get(hit.result, "cached")));
  cr_assert_str_eq(cache_level(&hit), "memory");
  json_t *s = upk_kernels_status(server);
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(s, "cache"), "hits")), 1);
  json_decref(s);
  json_decref(first.result);
  json_decref(hit.result);
  stop();
}

Test(kservice, cache_hits_answer_in_the_order_asked) {
  start(NULL);
  answer first = {0}, a[3] = {{0}};
  fill_cache(&first);
  for (int i = 0; i < 3; i++)
    upk_kernels_check(server, params(KERNEL), 0, true, on_answer, &a[i]);
  cr_assert_eq(a[0].calls + a[1].calls + a[2].calls, 0, "called back inside the calls");
  WAIT(a[2].calls == 1);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(a[i].calls, 1);
    cr_assert_eq(a[i].order, first.order + 1 + i, "answer %d out of order", i);
    json_decref(a[i].result);
  }
  json_decref(first.result);
  stop();
}

Test(kservice, a_cancelled_cache_hit_never_calls_back) {
  start(NULL);
  answer first = {0}, hit = {0};
  fill_cache(&first);
  upk_kcheck *c = upk_kernels_check(server, params(KERNEL), 0, true, on_answer, &hit);
  upk_kcheck_cancel(c);
  for (int i = 0; i < 3; i++)
    uv_run(&loop, UV_RUN_NOWAIT);
  cr_assert_eq(hit.calls, 0, "a cancelled check called back");
  json_decref(first.result);
  stop();
}

Test(kservice, a_refusal_calls_back_after_the_call_returns) {
  start("$UPK_KSERVICE_TEST_UNDEFINED"); /* a worker command that cannot be split: no service */
  answer a = {0};
  upk_kcheck *c = upk_kernels_check(server, params(KERNEL), 0, true, on_answer, &a);
  cr_assert(c, "a refusal must return a handle");
  cr_assert_eq(a.calls, 0, "the refusal called back inside upk_kernels_check");
  uv_run(&loop, UV_RUN_NOWAIT);
  cr_assert_eq(a.calls, 1);
  cr_assert(json_is_false(json_object_get(a.result, "ok")));
  json_t *d = json_array_get(json_object_get(a.result, "diagnostics"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(d, "code")), "kernel/no-worker");
  json_decref(a.result);
  stop();
}
