#include "daemon/core/jobs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"

UPK_MAP_TYPED(job_map, upk_job)

static upk_map *inflight(const upk_server *s) {
  return &upk_session_jobs(s)->inflight;
}

/* The client's progress token: LSP `workDoneToken`, or MCP `_meta.progressToken`. */
static json_t *progress_token(json_t *params) {
  if (!json_is_object(params))
    return NULL;
  json_t *t = json_object_get(params, "workDoneToken");
  if (!t)
    t = json_object_get(json_object_get(params, "_meta"), "progressToken");
  return json_is_string(t) || json_is_integer(t) ? t : NULL;
}

static void job__unregister(upk_job *job) {
  if (job_map_get(inflight(job->server), job->key) == job)
    job_map_remove(inflight(job->server), job->key);
}

static void job__end_progress(upk_job *job, const char *message) {
  if (job->progress_begun)
    job->face->progress_end(job, message);
  job->progress_begun = false;
}

static void job__finish_dumped(upk_job *job, json_t *response, const upk_json_member *m) {
  upk_server *s = job->server;
  if (!job->cancelled) {
    job__end_progress(job, NULL);
    job__unregister(job);
    upk_session_answer_dumped(s, job->batch, response, m);
  } else {
    json_decref(response);
  }
  if (job->batch)
    upk_session_batch_release(s, job->batch);
  json_decref(job->id);
  json_decref(job->progress_token);
  free(job);
  upk_session_job_done(s);
}

static void job__finish(upk_job *job, json_t *response) {
  job__finish_dumped(job, response, NULL);
}

void upk_job_start(upk_server *s, upk_batch *batch, const upk_method *method, json_t *id,
                   json_t *envelope, json_t *args, const upk_job_face *face) {
  char err[512];
  if (method->moved[0] && json_object_get(args, method->moved[0])) {
    snprintf(err, sizeof err, "params.%s: %s", method->moved[0], method->moved[1]);
    upk_session_answer(s, batch, face->fail(method, id, UPK_RPC_INVALID_PARAMS, err, NULL));
    return;
  }
  if (upk_params_check(args, method->params, err, sizeof err)) {
    upk_session_answer(s, batch, face->fail(method, id, UPK_RPC_INVALID_PARAMS, err, NULL));
    return;
  }
  upk_job *job = upk_xcalloc(1, sizeof *job);
  job->server = s;
  job->method = method;
  job->id = json_incref(id);
  job->face = face;
  job->progress_token = json_incref(progress_token(envelope));
  job->batch = batch;
  if (batch)
    upk_session_batch_hold(s, batch);
  upk_rpc_id_key(id, job->key);
  job_map_set(inflight(s), job->key, job);
  /* The handler reads its params as given, defaults filled in by the face's rules. */
  json_t *bound = upk_params_defaulted(args, method->params, face->as_tool);
  method->handler(job, bound);
  json_decref(bound);
}

void upk_job_reply(upk_job *job, json_t *result) {
  job__finish(job, job->face->reply(job, result));
}

void upk_job_reply_dumped(upk_job *job, json_t *result, const upk_json_member *m) {
  /* a tool's answer wraps the result: only a plain result holds the member */
  job__finish_dumped(job, job->face->reply(job, result), job->face->as_tool ? NULL : m);
}

static void job__vfail(upk_job *job, int code, json_t *data, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  job__finish(job, job->face->fail(job->method, job->id, code, msg, data));
}

void upk_job_fail(upk_job *job, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  job__vfail(job, code, NULL, fmt, ap);
  va_end(ap);
}

void upk_job_fail_data(upk_job *job, int code, json_t *data, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  job__vfail(job, code, data, fmt, ap);
  va_end(ap);
}

void upk_job_progress(upk_job *job, double done, double total, const char *message) {
  if (job->cancelled || !job->progress_token)
    return;
  job->face->progress(job, done, total, message);
}

void upk_job_on_cancel(upk_job *job, upk_job_cancel_cb cb, void *data) {
  job->on_cancel = cb;
  job->data = data;
}

/* why: NULL answers nothing; "" the client's own cancel; else the server's reason. */
static void job__cancel(upk_job *job, const char *why) {
  upk_server *s = job->server;
  job__unregister(job);
  job__end_progress(job, "cancelled");
  job->cancelled = true;
  if (why)
    upk_session_answer(
        s, job->batch,
        upk_rpc_error(job->id, UPK_RPC_REQUEST_CANCELLED, *why ? why : "request cancelled", NULL));
  if (job->on_cancel)
    job->on_cancel(job);
}

void upk_jobs_cancel(upk_server *s, json_t *id, bool answer) {
  if (!json_is_string(id) && !json_is_integer(id))
    return;
  char key[UPK_RPC_KEY_MAX];
  upk_rpc_id_key(id, key);
  upk_job *job = job_map_get(inflight(s), key);
  if (!job) {
    upk_debug("cancel for %s: not in flight (already answered?)", key);
    return;
  }
  job__cancel(job, answer ? "" : NULL);
}

void upk_jobs_cancel_all(upk_server *s, const char *why) {
  upk_jobs *t = upk_session_jobs(s);
  size_t n = upk_map_size(&t->inflight), i = 0;
  if (!n)
    return;
  /* A snapshot in arrival order: a job's on_cancel may finish other jobs, which leave the
   * table while this runs. */
  upk_job **jobs = upk_xcalloc(n, sizeof *jobs);
  for (UPK_MAP_EACH(it, &t->inflight))
    jobs[i++] = it.value;
  /* A handler may finish its job inside on_cancel: the server must not act
   * on "nothing in flight" before every job here has been cancelled. */
  bool was = t->cancelling;
  t->cancelling = true;
  for (i = 0; i < n; i++)
    job__cancel(jobs[i], why);
  t->cancelling = was;
  free(jobs);
}

size_t upk_jobs_inflight(const upk_server *s) {
  return upk_map_size(inflight(s));
}

upk_job *upk_jobs_find(const upk_server *s, const char *key) {
  return job_map_get(inflight(s), key);
}

bool upk_jobs_cancelling(const upk_server *s) {
  return upk_session_jobs(s)->cancelling;
}

void upk_jobs_free(upk_server *s) {
  upk_map_clear(inflight(s));
}
