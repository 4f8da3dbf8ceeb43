/* The documents service (daemon/lsp/documents.c) never reports a check from inside the call that
 * started it. A session runs in this process on pipes, with the real kernel service made
 * unable to start (a worker command that cannot be parsed), so upk_kernels_check answers
 * "kernel/no-worker" before it returns, as it does for a cache hit. The test wraps
 * upk_kernels_check (-Wl,--wrap) only to know when that call is on the stack: every callback
 * the service makes must come after it has returned, from the loop, in the order the
 * documents were checked. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "daemon/lsp/documents.h"
#include "daemon/kernels/kernel_service.h"
#include "daemon/server.h"
#include "tests/unit/unit.h"

upk_kcheck *__real_upk_kernels_check(upk_server *s, const upk_kernel_req *req, unsigned timeout_ms,
                                     bool use_cache, upk_kcheck_cb cb, void *arg);

static int in_check;   /* upk_kernels_check is on the stack */
static int n_checks;   /* calls to it */
static char seen[512]; /* what the service reported, in order */
static bool synchronous;

upk_kcheck *__wrap_upk_kernels_check(upk_server *s, const upk_kernel_req *req, unsigned timeout_ms,
                                     bool use_cache, upk_kcheck_cb cb, void *arg) {
  in_check++;
  n_checks++;
  upk_kcheck *c = __real_upk_kernels_check(s, req, timeout_ms, use_cache, cb, arg);
  in_check--;
  return c;
}

static void note(const char *what) {
  synchronous |= in_check > 0;
  strncat(seen, what, sizeof seen - strlen(seen) - 1);
}

static void on_diagnostics(upk_server *s, const upk_doc_diagnostics *d) {
  json_t *first = json_array_get(d->kernel, 0);
  char line[128];
  snprintf(line, sizeof line, "diagnostics %s v%d %s; ", strrchr(d->uri, '/') + 1, d->version,
           json_string_value(json_object_get(first, "code")));
  note(line);
}

static void on_lenses_changed(upk_server *s) {
  note("lenses; ");
}

static void on_check_ready(upk_server *s, const char *uri, json_t *waiter) {
  char line[128];
  snprintf(line, sizeof line, "ready %s %lld; ", strrchr(uri, '/') + 1,
           (long long)json_integer_value(waiter));
  note(line);
}

static const upk_docs_callbacks test_callbacks = {on_diagnostics, on_lenses_changed,
                                                  on_check_ready};

typedef struct session {
  uv_loop_t loop;
  upk_server *s;
  int in[2], out[2]; /* its stdin (we write in[1]) and stdout (we hold out[0]) */
} session;

static void session_start(session *t) {
  signal(SIGPIPE, SIG_IGN);
  cr_assert_eq(pipe(t->in), 0);
  cr_assert_eq(pipe(t->out), 0);
  uv_loop_init(&t->loop);
  upk_options opts = {.framing = UPK_FRAMING_LSP,
                      .max_message = 1 << 20,
                      .worker_command = "'", /* unparsable: the kernel service cannot start */
                      .shutdown_grace_ms = 1000};
  cr_assert_eq(
      upk_server_new(&t->s, &t->loop, &opts, t->in[0], UV_NAMED_PIPE, t->out[1], UV_NAMED_PIPE), 0);
  cr_assert_eq(upk_server_start(t->s), 0);
  upk_docs_init(t->s, &test_callbacks); /* listens instead of the face */
}

/* Turns of the loop, never blocking, until the service said `n` things. */
static void session_run(session *t, int n) {
  for (int i = 0; i < 1000; i++) {
    int said = 0;
    for (const char *p = seen; (p = strchr(p, ';')); p++)
      said++;
    if (said >= n)
      return;
    uv_run(&t->loop, UV_RUN_NOWAIT);
    usleep(1000);
  }
}

/* EOF on its stdin ends the session: documents closed, handles closed, everything freed. */
static void session_end(session *t) {
  close(t->in[1]);
  uv_run(&t->loop, UV_RUN_DEFAULT);
  upk_server_free(t->s);
  cr_assert_eq(uv_loop_close(&t->loop), 0);
  close(t->out[0]);
}

static const char kernel[] = "__global__ void k(float *x) { x[0] = 1; }\n";

UTest(documents, a_check_answered_inside_the_kernel_call_is_reported_from_the_loop) {
  session t;
  session_start(&t);
  upk_server *s = t.s;
  upk_docs_open(s, "file:///tmp/upk-docs-test/a.cu", NULL, 1, kernel, strlen(kernel));
  upk_docs_open(s, "file:///tmp/upk-docs-test/b.cu", NULL, 4, kernel, strlen(kernel));
  cr_assert_str_eq(seen, "", "nothing is checked inside didOpen");
  json_t *id = json_integer(7);
  cr_assert(upk_docs_wait_check(s, "file:///tmp/upk-docs-test/a.cu", id),
            "a codeLens request waits for the first check");
  json_decref(id);
  session_run(&t, 5);
  cr_assert_eq(n_checks, 2);
  cr_assert_str_eq(seen, "diagnostics a.cu v1 kernel/no-worker; ready a.cu 7; lenses; "
                         "diagnostics b.cu v4 kernel/no-worker; lenses; ");
  cr_assert(!synchronous, "a callback ran inside upk_kernels_check: %s", seen);
  upk_doc_view v;
  cr_assert(upk_docs_view(s, "file:///tmp/upk-docs-test/a.cu", &v) && v.checked);
  session_end(&t);
}

UTest(documents, a_document_closed_before_its_check_is_reported_reports_nothing) {
  session t;
  session_start(&t);
  upk_server *s = t.s;
  upk_docs_open(s, "file:///tmp/upk-docs-test/a.cu", NULL, 1, kernel, strlen(kernel));
  json_t *id = json_integer(9);
  cr_assert(upk_docs_wait_check(s, "file:///tmp/upk-docs-test/a.cu", id));
  json_decref(id);
  cr_assert(upk_docs_close(s, "file:///tmp/upk-docs-test/a.cu"));
  cr_assert(!upk_docs_close(s, "file:///tmp/upk-docs-test/a.cu"), "closed once");
  cr_assert_str_eq(seen, "ready a.cu 9; ", "the waiting request is let go at close");
  for (int i = 0; i < 20; i++) /* the debounce timer would have fired */
    uv_run(&t.loop, UV_RUN_NOWAIT);
  cr_assert_eq(n_checks, 0);
  cr_assert_str_eq(seen, "ready a.cu 9; ");
  session_end(&t);
}
