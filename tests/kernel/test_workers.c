/* The worker pool on a real libuv loop against the real upskilld-worker ($UPSKILLD_WORKER):
 * round trips, queueing, faults (crash, garbage, exit, hang) each contained, deadlines,
 * cancellation, closing with work in flight, stats, command prefixes, a missing worker,
 * big messages and re-entrant callbacks; and the worker program alone on bad input. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/kernels/workers.h"

static uv_loop_t loop;
static uv_timer_t guard;
static bool guard_expired;
static upk_workers *pool;
static int order_seq;

static const char *const FAULTS[] = {"UPSKILLD_WORKER_FAULTS=1", NULL};

static const char *worker_path(void) {
  const char *p = getenv("UPSKILLD_WORKER");
  cr_assert(p && *p, "UPSKILLD_WORKER is not set");
  return p;
}

static void on_guard(uv_timer_t *t) {
  (void)t;
  guard_expired = true;
}

/* Run the loop until `cond` holds or `ms` pass. */
#define WAIT(cond, ms)                                                                             \
  do {                                                                                             \
    guard_expired = false;                                                                         \
    uv_timer_start(&guard, on_guard, (ms), 0);                                                     \
    while (!(cond) && !guard_expired)                                                              \
      uv_run(&loop, UV_RUN_ONCE);                                                                  \
    uv_timer_stop(&guard);                                                                         \
    cr_assert((cond), "timed out waiting for: %s", #cond);                                         \
  } while (0)

static void start_pool(upk_workers_config cfg) {
  signal(SIGPIPE, SIG_IGN); /* as the daemon does: a dead worker's pipe must not kill us */
  cr_assert_eq(uv_loop_init(&loop), 0);
  uv_timer_init(&loop, &guard);
  if (!cfg.worker_path)
    cfg.worker_path = worker_path();
  cr_assert_eq(upk_workers_init(&pool, &loop, &cfg), 0);
  order_seq = 0;
}

static void on_closed(void *arg) {
  *(bool *)arg = true;
}

static void close_pool(void) {
  bool closed = false;
  upk_workers_close(pool, on_closed, &closed);
  cr_assert(!closed, "done must run from the loop, not inside close");
  WAIT(closed, 10000);
  pool = NULL;
}

/* Close the pool (unless a test did) and check that no handle is left behind. */
static void stop_pool(void) {
  if (pool)
    close_pool();
  uv_close((uv_handle_t *)&guard, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}

typedef struct answer {
  int calls, status, order;
  json_t *result;
  char error[256];
} answer;

static void on_answer(void *arg, int status, json_t *result, const char *error) {
  answer *a = arg;
  a->calls++;
  a->status = status;
  a->order = ++order_seq;
  json_decref(a->result);
  a->result = json_incref(result);
  snprintf(a->error, sizeof a->error, "%s", error ? error : "");
}

static void answers_free(answer *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    json_decref(a[i].result);
}

static upk_wreq *submit(const char *op, json_t *params, unsigned timeout_ms, answer *a) {
  upk_wreq *r = upk_workers_submit(pool, op, params, timeout_ms, on_answer, a);
  cr_assert(r, "submit refused %s", op);
  cr_assert_eq(a->calls, 0, "the callback ran inside submit");
  return r;
}

/* Submit and wait for the answer; the status is returned, the answer kept in `a`. */
static int call(const char *op, json_t *params, unsigned timeout_ms, answer *a) {
  json_decref(a->result);
  *a = (answer){0};
  submit(op, params, timeout_ms, a);
  WAIT(a->calls, 30000);
  cr_assert_eq(a->calls, 1);
  return a->status;
}

static upk_workers_stats stats(void) {
  upk_workers_stats st;
  upk_workers_stats_get(pool, &st);
  return st;
}

static json_int_t hello_pid(void) {
  answer a = {0};
  cr_assert_eq(call("hello", NULL, 0, &a), 0, "hello: %s", a.error);
  json_int_t pid = json_integer_value(json_object_get(a.result, "pid"));
  answers_free(&a, 1);
  return pid;
}

TestSuite(workers, .timeout = 120);

Test(workers, hello_and_echo_round_trip) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("hello", NULL, 0, &a), 0, "%s", a.error);
  cr_assert_gt(json_integer_value(json_object_get(a.result, "pid")), 0);
  json_t *nvrtc = json_object_get(a.result, "nvrtc");
  cr_assert(json_is_boolean(nvrtc));
  if (json_is_false(nvrtc))
    cr_assert(json_is_string(json_object_get(a.result, "reason")), "no reason given");
  json_t *p =
      json_pack("{s:i,s:s,s:[b,n,f]}", "n", 42, "text", "caf\xc3\xa9 \"q\"\n", "list", 1, 0.5);
  cr_assert_eq(call("echo", json_incref(p), 0, &a), 0, "%s", a.error);
  cr_assert(json_equal(a.result, p), "echo changed the params");
  json_decref(p);
  upk_workers_stats st = stats();
  cr_assert_eq(st.started, 1);
  cr_assert_eq(st.idle, 1);
  cr_assert_eq(st.running + st.queued + (int)st.killed + (int)st.crashed, 0);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, unknown_ops_and_fault_ops_without_the_env_are_errors) {
  start_pool((upk_workers_config){.max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("no-such-op", NULL, 0, &a), UV_EINVAL);
  cr_assert(strstr(a.error, "unknown op"), "%s", a.error);
  cr_assert_eq(call("crash", NULL, 0, &a), UV_EINVAL, "a fault op ran without the env");
  cr_assert_eq(stats().started, 1, "an error reply must not cost the worker");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, queue_is_fifo_with_one_worker) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a[5] = {0};
  for (int i = 0; i < 5; i++)
    submit("echo", json_pack("{s:i}", "i", i), 0, &a[i]);
  cr_assert_eq(stats().queued, 5, "nothing runs before the loop does");
  WAIT(a[4].calls, 30000);
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(a[i].calls, 1);
    cr_assert_eq(a[i].status, 0, "%s", a[i].error);
    cr_assert_eq(a[i].order, i + 1, "answered out of order");
    cr_assert_eq(json_integer_value(json_object_get(a[i].result, "i")), i);
  }
  cr_assert_eq(stats().started, 1);
  answers_free(a, 5);
  stop_pool();
}

Test(workers, at_most_max_workers_run_and_all_are_answered) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 2});
  answer a[6] = {0};
  for (int i = 0; i < 6; i++)
    submit("sleep", json_pack("{s:i}", "ms", 50), 0, &a[i]);
  WAIT(stats().running == 2, 10000);
  cr_assert_eq(stats().queued, 4);
  int done = 0;
  guard_expired = false;
  uv_timer_start(&guard, on_guard, 30000, 0);
  while (done < 6 && !guard_expired) {
    uv_run(&loop, UV_RUN_ONCE);
    cr_assert_leq(stats().running, 2);
    done = 0;
    for (int i = 0; i < 6; i++)
      done += a[i].calls;
  }
  cr_assert_eq(done, 6);
  for (int i = 0; i < 6; i++)
    cr_assert_eq(a[i].status, 0, "%d: %s", i, a[i].error);
  upk_workers_stats st = stats();
  cr_assert_eq(st.started, 2, "workers are reused");
  cr_assert_eq(st.idle, 2);
  answers_free(a, 6);
  stop_pool();
}

Test(workers, most_recently_used_worker_is_reused_first) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 2});
  answer a[2] = {0};
  submit("hello", NULL, 0, &a[0]);
  submit("hello", NULL, 0, &a[1]);
  WAIT(a[0].calls && a[1].calls, 30000);
  json_int_t p0 = json_integer_value(json_object_get(a[0].result, "pid"));
  json_int_t p1 = json_integer_value(json_object_get(a[1].result, "pid"));
  cr_assert_neq(p0, p1, "two requests at once need two workers");
  json_int_t last = a[0].order > a[1].order ? p0 : p1;
  cr_assert_eq(hello_pid(), last);
  cr_assert_eq(hello_pid(), last);
  answers_free(a, 2);
  stop_pool();
}

Test(workers, crash_is_contained_and_replaced_to_stay_warm) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 2, .warm = 1});
  upk_workers_stats st = stats();
  cr_assert_eq(st.started, 1, "the warm worker starts at init");
  cr_assert_eq(st.idle, 1);
  answer a = {0};
  cr_assert_eq(call("crash", NULL, 0, &a), UV_EPIPE);
  cr_assert_str_eq(a.error, "killed by signal 11");
  WAIT(stats().idle == 1, 10000);
  st = stats();
  cr_assert_eq(st.started, 2, "the dead worker is replaced");
  cr_assert_eq(st.crashed, 1);
  cr_assert_eq(st.killed, 0);
  cr_assert_gt(hello_pid(), 0);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, exit_without_reply_is_epipe) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("exit", NULL, 0, &a), UV_EPIPE);
  cr_assert_str_eq(a.error, "exited with status 3");
  cr_assert_gt(hello_pid(), 0);
  cr_assert_eq(stats().crashed, 1);
  answers_free(&a, 1);
  stop_pool();
}

/* A fatal run result (sticky CUDA error, a kernel still running at its
 * deadline) is the worker's last word: it exits right after replying. The
 * request queued behind it must get a fresh worker, not the dying one. */
Test(workers, fatal_result_retires_its_worker_before_the_next_request) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a[3] = {0};
  submit("fatal", NULL, 0, &a[0]);
  submit("echo", json_pack("{s:i}", "i", 7), 0, &a[1]);
  submit("fatal", NULL, 0, &a[2]);
  WAIT(a[2].calls, 30000);
  cr_assert_eq(a[0].status, 0, "%s", a[0].error);
  cr_assert(json_is_true(json_object_get(a[0].result, "fatal")));
  cr_assert_eq(a[1].status, 0, "the request after a fatal one failed: %s", a[1].error);
  cr_assert_eq(json_integer_value(json_object_get(a[1].result, "i")), 7);
  cr_assert_eq(a[2].status, 0, "%s", a[2].error);
  cr_assert_gt(hello_pid(), 0, "and the pool still serves");
  upk_workers_stats st = stats();
  cr_assert_eq(st.started, 3, "a fresh worker after each fatal result: %lu", st.started);
  cr_assert_eq(st.crashed, 0, "a worker that said fatal and exited did not crash");
  answers_free(a, 3);
  stop_pool();
}

Test(workers, garbage_is_eproto_and_the_worker_is_killed) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  json_int_t before = hello_pid();
  answer a = {0};
  cr_assert_eq(call("garbage", NULL, 0, &a), UV_EPROTO);
  cr_assert(strstr(a.error, "not a reply"), "%s", a.error);
  cr_assert_eq(stats().killed, 1);
  json_int_t after = hello_pid();
  cr_assert_neq(before, after, "a worker that wrote garbage must not be reused");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, hang_passes_its_deadline) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("hang", NULL, 200, &a), UV_ETIMEDOUT);
  cr_assert(strstr(a.error, "200 ms"), "%s", a.error);
  cr_assert_eq(stats().killed, 1);
  cr_assert_gt(hello_pid(), 0);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, default_deadline_comes_from_the_config) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1, .timeout_ms = 250});
  answer a = {0};
  cr_assert_eq(call("hang", NULL, 0, &a), UV_ETIMEDOUT);
  cr_assert(strstr(a.error, "250 ms"), "%s", a.error);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, cancel_queued_request) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0}, b = {0}, c = {0};
  submit("sleep", json_pack("{s:i}", "ms", 100), 0, &a);
  upk_wreq *rb = submit("echo", json_object(), 0, &b);
  upk_wreq *rc = submit("echo", json_pack("{s:i}", "c", 1), 0, &c);
  WAIT(stats().running == 1, 10000);
  cr_assert_eq(stats().queued, 2);
  upk_wreq_cancel(rb);
  cr_assert_eq(b.calls, 1, "the callback runs before cancel returns");
  cr_assert_eq(b.status, UV_ECANCELED);
  cr_assert_eq(stats().queued, 1);
  WAIT(c.calls, 30000);
  cr_assert_eq(a.status, 0, "%s", a.error);
  cr_assert_eq(c.status, 0, "%s", c.error);
  cr_assert_lt(a.order, c.order);
  cr_assert_eq(b.calls, 1, "called once only");
  cr_assert_eq(stats().killed, 0, "cancelling a queued request kills nothing");
  (void)rc;
  answers_free((answer[]){a, b, c}, 3);
  stop_pool();
}

Test(workers, cancel_running_request_kills_its_worker) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  json_int_t before = hello_pid();
  answer a = {0};
  upk_wreq *r = submit("hang", NULL, 60000, &a);
  WAIT(stats().running == 1, 10000);
  upk_wreq_cancel(r);
  cr_assert_eq(a.calls, 1);
  cr_assert_eq(a.status, UV_ECANCELED);
  upk_workers_stats st = stats();
  cr_assert_eq(st.running, 0);
  cr_assert_eq(st.killed, 1);
  cr_assert_neq(hello_pid(), before, "a fresh worker serves the next request");
  cr_assert_eq(a.calls, 1);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, close_with_requests_in_flight) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0}, b = {0};
  submit("hang", NULL, 60000, &a);
  submit("echo", NULL, 0, &b);
  WAIT(stats().running == 1, 10000);
  bool closed = false;
  upk_workers_close(pool, on_closed, &closed);
  cr_assert_eq(a.calls, 1);
  cr_assert_eq(b.calls, 1);
  cr_assert_eq(a.status, UV_ECANCELED);
  cr_assert_eq(b.status, UV_ECANCELED);
  cr_assert(!closed);
  WAIT(closed, 10000);
  pool = NULL;
  cr_assert_eq(a.calls + b.calls, 2);
  stop_pool();
}

Test(workers, submit_after_close_is_refused) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1, .warm = 1});
  bool closed = false;
  upk_workers_close(pool, on_closed, &closed);
  answer a = {0};
  cr_assert_null(upk_workers_submit(pool, "hello", json_object(), 0, on_answer, &a));
  WAIT(closed, 10000);
  pool = NULL;
  cr_assert_eq(a.calls, 0);
  stop_pool();
}

Test(workers, prefix_command_runs_the_worker) {
  /* env(1) is the prefix and sets the faults flag itself: echo works only through it. */
  static const char *const prefix[] = {"/usr/bin/env", "UPSKILLD_WORKER_FAULTS=1", NULL};
  start_pool((upk_workers_config){.prefix = prefix, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("echo", json_pack("{s:s}", "via", "env"), 0, &a), 0, "%s", a.error);
  cr_assert_str_eq(json_string_value(json_object_get(a.result, "via")), "env");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, shell_wrapper_prefix) {
  static const char *const prefix[] = {"/bin/sh", "-c", "exec \"$0\"", NULL};
  start_pool((upk_workers_config){.prefix = prefix, .extra_env = FAULTS, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("crash", NULL, 0, &a), UV_EPIPE, "%s", a.error);
  cr_assert_gt(hello_pid(), 0);
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, extra_env_overrides_the_inherited_value) {
  setenv("UPSKILLD_WORKER_FAULTS", "0", 1);
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("echo", json_object(), 0, &a), 0, "%s", a.error);
  unsetenv("UPSKILLD_WORKER_FAULTS");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, missing_worker_is_enoent) {
  start_pool((upk_workers_config){.worker_path = "/nonexistent/upskilld-worker", .warm = 1});
  cr_assert_eq(stats().started, 0);
  answer a = {0};
  cr_assert_eq(call("hello", NULL, 0, &a), UV_ENOENT);
  cr_assert(strstr(a.error, "/nonexistent/upskilld-worker"), "%s", a.error);
  cr_assert_eq(call("hello", NULL, 0, &a), UV_ENOENT, "each request reports it");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, big_echo_round_trip) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  size_t n = 8u << 20;
  char *blob = malloc(n);
  cr_assert(blob);
  for (size_t i = 0; i < n; i++)
    blob[i] = (char)('a' + i % 26);
  answer a = {0};
  cr_assert_eq(call("echo", json_pack("{s:s%}", "blob", blob, n), 0, &a), 0, "%s", a.error);
  json_t *got = json_object_get(a.result, "blob");
  cr_assert_eq(json_string_length(got), n);
  cr_assert(!memcmp(json_string_value(got), blob, n));
  free(blob);
  cr_assert_gt(hello_pid(), 0, "the worker serves on after a big message");
  answers_free(&a, 1);
  stop_pool();
}

Test(workers, validate_op_answers_a_result) {
  char cache[] = "/tmp/upk-wcache-XXXXXX";
  cr_assert(mkdtemp(cache));
  char env_cache[64];
  snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", cache);
  const char *const env[] = {env_cache, NULL};
  start_pool((upk_workers_config){.extra_env = env, .max_workers = 1});
  answer a = {0};
  cr_assert_eq(call("validate", json_pack("{s:s,s:b}", "source", "", "noCache", 1), 0, &a), 0, "%s",
               a.error);
  cr_assert(json_is_false(json_object_get(a.result, "ok")));
  cr_assert(json_is_array(json_object_get(a.result, "diagnostics")));
  answers_free(&a, 1);
  stop_pool();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  cr_assert_eq(system(cmd), 0);
}

/* ---- re-entrancy: callbacks that submit, cancel and close ---- */

typedef struct chain {
  answer first, second, victim;
  upk_wreq *victim_req;
  bool closed;
} chain;

static chain ch;

static void first_cb(void *arg, int status, json_t *result, const char *error) {
  on_answer(&ch.first, status, result, error);
  (void)arg;
  upk_wreq_cancel(ch.victim_req); /* queued behind us */
  upk_wreq *r =
      upk_workers_submit(pool, "echo", json_pack("{s:i}", "n", 2), 0, on_answer, &ch.second);
  cr_assert(r);
}

Test(workers, callbacks_may_submit_and_cancel) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 1});
  ch = (chain){0};
  cr_assert(upk_workers_submit(pool, "echo", json_object(), 0, first_cb, NULL));
  ch.victim_req = submit("hang", NULL, 60000, &ch.victim);
  WAIT(ch.second.calls, 30000);
  cr_assert_eq(ch.victim.status, UV_ECANCELED);
  cr_assert_eq(ch.victim.calls, 1);
  cr_assert_eq(ch.second.status, 0, "%s", ch.second.error);
  cr_assert_eq(stats().killed, 0);
  answers_free(&ch.first, 1), answers_free(&ch.second, 1), answers_free(&ch.victim, 1);
  stop_pool();
}

static void closing_cb(void *arg, int status, json_t *result, const char *error) {
  on_answer(arg, status, result, error);
  upk_workers_close(pool, on_closed, &ch.closed);
}

Test(workers, a_callback_may_close_the_pool) {
  start_pool((upk_workers_config){.extra_env = FAULTS, .max_workers = 2});
  ch = (chain){0};
  cr_assert(upk_workers_submit(pool, "echo", json_object(), 0, closing_cb, &ch.first));
  submit("hang", NULL, 60000, &ch.victim);
  WAIT(ch.closed, 30000);
  pool = NULL;
  cr_assert_eq(ch.first.status, 0);
  cr_assert_eq(ch.victim.calls, 1);
  cr_assert_eq(ch.victim.status, UV_ECANCELED);
  answers_free(&ch.first, 1), answers_free(&ch.victim, 1);
  stop_pool();
}

/* A worker command that ignores SIGTERM (a queued srun can miss it): closing the pool sends it
 * SIGTERM, SIGTERM again (5 in all), then SIGKILL from loop timers; the pool's close waits for
 * that, and every handle is closed afterwards (stop_pool: uv_loop_close succeeds). */
Test(workers, close_escalates_to_sigkill_for_a_command_that_ignores_sigterm) {
  char ready[] = "/tmp/upk-stubborn-XXXXXX";
  int fd = mkstemp(ready);
  cr_assert(fd >= 0);
  close(fd);
  char script[256];
  snprintf(script, sizeof script, "trap '' TERM; echo $$ > %s; while :; do sleep 0.1; done", ready);
  const char *const prefix[] = {"/bin/sh", "-c", script, NULL};
  start_pool((upk_workers_config){.prefix = prefix, .max_workers = 1});
  answer a = {0};
  submit("hello", NULL, 60000, &a);
  int pid = 0;
  for (int i = 0; i < 600 && pid <= 0; i++) { /* the trap is set once the pid is written */
    uv_run(&loop, UV_RUN_NOWAIT);
    FILE *f = fopen(ready, "r");
    if (f && fscanf(f, "%d", &pid) != 1)
      pid = 0;
    if (f)
      fclose(f);
    usleep(50000);
  }
  cr_assert_gt(pid, 1, "the command never started");
  bool closed = false;
  upk_workers_close(pool, on_closed, &closed);
  cr_assert_eq(a.status, UV_ECANCELED);
  WAIT(closed, 60000);
  pool = NULL;
  cr_assert(kill(pid, 0) == -1 && errno == ESRCH, "the command %d still runs", pid);
  unlink(ready);
  answers_free(&a, 1);
  stop_pool();
}

/* ---- the worker program alone ---- */

/* Run the worker with `input` on stdin; its reply lines, parsed (NULL for a non-JSON line). */
static size_t run_worker(const char *input, const char *env, json_t **out, size_t max) {
  char in[] = "/tmp/upk-win-XXXXXX";
  int fd = mkstemp(in);
  cr_assert(fd >= 0);
  cr_assert_eq(write(fd, input, strlen(input)), (ssize_t)strlen(input));
  close(fd);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "env -u UPSKILLD_WORKER_FAULTS %s '%s' < '%s'", env, worker_path(), in);
  FILE *f = popen(cmd, "r");
  cr_assert(f);
  char *line = NULL;
  size_t cap = 0, n = 0;
  while (getline(&line, &cap, f) > 0 && n < max)
    out[n++] = json_loads(line, 0, NULL);
  free(line);
  cr_assert_eq(pclose(f), 0, "the worker exits 0 at EOF");
  unlink(in);
  return n;
}

static const char *error_of(json_t *reply) {
  return json_string_value(json_object_get(json_object_get(reply, "error"), "message"));
}

Test(worker_program, bad_lines_get_error_replies) {
  json_t *r[8] = {0};
  size_t n = run_worker("not json\n"
                        "{\"id\":1,\"op\":\"nope\"}\n"
                        "[1,2]\n"
                        "{\"id\":2,\"op\":\"hello\",\"params\":[]}\n"
                        "{\"id\":3,\"op\":\"echo\",\"params\":{}}\n"
                        "\n"
                        "{\"id\":4,\"op\":\"hello\"}\n",
                        "", r, 8);
  cr_assert_eq(n, 6, "one reply per non-empty line");
  cr_assert(json_is_null(json_object_get(r[0], "id")));
  cr_assert(strstr(error_of(r[0]), "malformed"), "%s", error_of(r[0]));
  cr_assert_eq(json_integer_value(json_object_get(r[1], "id")), 1);
  cr_assert(strstr(error_of(r[1]), "unknown op"));
  cr_assert(error_of(r[2]));
  cr_assert(error_of(r[3]), "params must be an object");
  cr_assert(strstr(error_of(r[4]), "unknown op"), "echo needs the faults env");
  cr_assert_eq(json_integer_value(json_object_get(r[5], "id")), 4);
  cr_assert_gt(json_integer_value(json_object_get(json_object_get(r[5], "result"), "pid")), 0);
  for (size_t i = 0; i < n; i++)
    json_decref(r[i]);
}

Test(worker_program, fault_ops_with_the_env) {
  json_t *r[4] = {0};
  size_t n = run_worker("{\"id\":\"a\",\"op\":\"echo\",\"params\":{\"x\":[1]}}\n"
                        "{\"id\":5,\"op\":\"sleep\",\"params\":{\"ms\":-1}}\n"
                        "{\"id\":6,\"op\":\"sleep\",\"params\":{\"ms\":1}}\n",
                        "UPSKILLD_WORKER_FAULTS=1", r, 4);
  cr_assert_eq(n, 3);
  cr_assert_str_eq(json_string_value(json_object_get(r[0], "id")), "a");
  cr_assert_eq(
      json_integer_value(json_array_get(json_object_get(json_object_get(r[0], "result"), "x"), 0)),
      1);
  cr_assert(error_of(r[1]));
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(r[2], "result"), "slept")), 1);
  for (size_t i = 0; i < n; i++)
    json_decref(r[i]);
}
