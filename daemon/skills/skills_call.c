/* A skills request's trip to the skills queue and back (skills_call.h). */
#include "daemon/skills/skills_call.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "daemon/skills/skills_service.h"
#include "common/xalloc.h"

void upk_call_fail(upk_call *c, int code, json_t *data, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  c->code = code;
  c->data = data;
}

const char *upk_call_str(const upk_call *c, const char *key) {
  return json_string_value(json_object_get(c->params, key));
}

static void call_work(upk_index *ix, void *arg) {
  upk_call *c = arg;
  c->fn(c, ix);
}

static void call_done(void *arg, int status);

/* A lookup that waits for the first scan runs again after the batch queued behind it (the
 * queue is FIFO, so the scan and the lookup take turns: one lookup a batch, ~2 ms in 500). */
static bool requeue_parked(upk_call *c, int status) {
  if (status || !c->parked || c->job->cancelled)
    return false;
  c->parked = false;
  if (c->holds) /* e.g. a walk's first page building its pages: no merge step between slices */
    upk_skills_hold(c->server);
  upk_job_progress(c->job, (double)c->done, (double)c->total, "indexing skills");
  if (upk_skills_submit(c->server, call_work, call_done, c) == 0)
    return true;
  upk_call_fail(c, UPK_RPC_INTERNAL_ERROR, NULL, "the skills service stopped while indexing");
  return false;
}

/* ---- waiting beside the queue (upk_call_then) ---- */

struct upk_call_aside {
  upk_call *c;
  uv_thread_t thread;
  uv_async_t async;
  int cancel[2]; /* the wait reads [0]; a cancel writes [1] */
};

static void call_free(upk_call *c) {
  if (c->state_free)
    c->state_free(c->state);
  json_decref(c->params);
  upk_json_text_unref(c->ahead.text);
  free(c);
}

static void aside_main(void *arg) {
  upk_call_aside *a = arg;
  a->c->wait(a->c, a->cancel[0]);
  uv_async_send(&a->async);
}

static void aside_closed(uv_handle_t *h) {
  upk_call_aside *a = h->data;
  close(a->cancel[0]);
  close(a->cancel[1]);
  free(a);
}

static void aside_cancel(upk_job *job) {
  upk_call *c = job->data;
  if (c && c->aside && write(c->aside->cancel[1], "x", 1) < 0)
    upk_warn("cannot stop a skills request's wait: %s", strerror(errno));
}

/* The wait is over (loop): on to `next` on the queue, or finish a cancelled job. */
static void aside_done(uv_async_t *h) {
  upk_call_aside *a = h->data;
  upk_call *c = a->c;
  uv_thread_join(&a->thread);
  upk_job_on_cancel(c->job, NULL, NULL);
  c->aside = NULL;
  c->wait = NULL;
  c->fn = c->next;
  c->next = NULL;
  a->async.data = a;
  uv_close((uv_handle_t *)&a->async, aside_closed);
  if (c->job->cancelled) {
    upk_job_fail(c->job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
    call_free(c);
    return;
  }
  if (upk_skills_submit(c->server, call_work, call_done, c) == 0)
    return;
  upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "the skills service stopped");
  call_free(c);
}

/* Start `c->wait` on a thread of its own; false (the call failed) when it cannot start. */
static bool aside_start(upk_call *c) {
  upk_call_aside *a = upk_xcalloc(1, sizeof *a);
  a->c = c;
  if (pipe2(a->cancel, O_CLOEXEC | O_NONBLOCK) < 0) {
    upk_call_fail(c, UPK_RPC_INTERNAL_ERROR, NULL, "cannot start a fetch: %s", strerror(errno));
    free(a);
    return false;
  }
  uv_async_init(upk_session_loop(c->server), &a->async, aside_done);
  a->async.data = a;
  c->aside = a;
  upk_job_on_cancel(c->job, aside_cancel, c);
  int rc = uv_thread_create(&a->thread, aside_main, a);
  if (rc == 0)
    return true;
  upk_job_on_cancel(c->job, NULL, NULL);
  c->aside = NULL;
  uv_close((uv_handle_t *)&a->async, aside_closed);
  upk_call_fail(c, UPK_RPC_INTERNAL_ERROR, NULL, "cannot start a fetch: %s", uv_strerror(rc));
  return false;
}

void upk_call_then(upk_call *c, upk_call_wait_fn wait, upk_call_fn next) {
  c->wait = wait;
  c->next = next;
}

static void call_done(void *arg, int status) {
  upk_call *c = arg;
  if (requeue_parked(c, status))
    return;
  if (!status && c->wait && !c->job->cancelled && !c->result && !c->code && aside_start(c))
    return;
  if (status == UV_ECANCELED)
    upk_job_fail(c->job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
  else if (c->result)
    upk_job_reply_dumped(c->job, c->result, c->ahead.text ? &c->ahead : NULL);
  else
    upk_job_fail_data(c->job, c->code ? c->code : UPK_RPC_INTERNAL_ERROR, c->data, "%s", c->err);
  call_free(c);
}

/* Queue `fn` for this job; everything it needs is in params (kept alive here). A lookup may
 * wait up to `wait_ms` for the first scan. */
void upk_call_start_waiting(upk_job *job, json_t *params, upk_call_fn fn, json_int_t wait_ms) {
  upk_call *c = upk_xcalloc(1, sizeof *c);
  c->job = job;
  c->server = job->server;
  c->params = json_incref(params);
  c->fn = fn;
  if (wait_ms > 0)
    c->wait_until = uv_hrtime() + (uint64_t)wait_ms * 1000000u;
  int rc = upk_skills_submit(job->server, call_work, call_done, c);
  if (rc) {
    json_decref(c->params);
    free(c);
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "the skills service is not running: %s",
                 uv_strerror(rc));
  }
}

void upk_call_start(upk_job *job, json_t *params, upk_call_fn fn) {
  upk_call_start_waiting(job, params, fn, 0);
}

bool upk_call_wait_scan(upk_call *c, upk_index *ix) {
  if (c->wait_until && upk_index_scanning(ix, &c->done, &c->total) && uv_hrtime() < c->wait_until)
    return c->parked = true;
  return false;
}

bool upk_call_need_index(upk_call *c, upk_index *ix) {
  if (ix)
    return true;
  upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", upk_skills_open_error(c->server));
  return false;
}

/* A path from a client: relative ones are relative to the workspace. */
char *upk_call_path(const upk_call *c, const char *p) {
  if (p[0] == '/' || !upk_session_workspace(c->server))
    return upk_xstrdup(p);
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s/%s", upk_session_workspace(c->server), p);
  return upk_xstrdup(buf);
}

/* ---- skills/validate ---- */
