/* The session's functions (session.h), at the bottom of daemon/: each calls the operation
 * server.c installed, so the files below the server link only against this file, never
 * against the server (docs/architecture.md, "Inside daemon/"). */
#include "daemon/core/session.h"

static const upk_session_ops *ops(const upk_server *s) {
  return ((const upk_session_head *)(const void *)s)->ops;
}

void upk_session_send(upk_server *s, json_t *msg) {
  ops(s)->send(s, msg);
}

void upk_session_answer(upk_server *s, upk_batch *batch, json_t *response) {
  ops(s)->answer(s, batch, response);
}

void upk_session_answer_dumped(upk_server *s, upk_batch *batch, json_t *response,
                               const upk_json_member *m) {
  ops(s)->answer_dumped(s, batch, response, m);
}

void upk_session_batch_hold(upk_server *s, upk_batch *batch) {
  ops(s)->batch_hold(s, batch);
}

void upk_session_batch_release(upk_server *s, upk_batch *batch) {
  ops(s)->batch_release(s, batch);
}

void upk_session_job_done(upk_server *s) {
  ops(s)->job_done(s);
}

void upk_session_flush(upk_server *s) {
  ops(s)->flush(s);
}

uv_loop_t *upk_session_loop(const upk_server *s) {
  return ops(s)->loop(s);
}

const upk_options *upk_session_options(const upk_server *s) {
  return ops(s)->options(s);
}

upk_state upk_session_state(const upk_server *s) {
  return ops(s)->state(s);
}

upk_framing upk_session_framing(const upk_server *s) {
  return ops(s)->framing(s);
}

double upk_session_uptime_ms(const upk_server *s) {
  return ops(s)->uptime_ms(s);
}

uint64_t upk_session_requests(const upk_server *s) {
  return ops(s)->requests(s);
}

const char *upk_session_workspace(const upk_server *s) {
  return ops(s)->workspace(s);
}

json_t *upk_session_init_options(const upk_server *s) {
  return ops(s)->init_options(s);
}

json_t *upk_session_client_info(const upk_server *s) {
  return ops(s)->client_info(s);
}

const char *upk_session_mcp_version(const upk_server *s) {
  return ops(s)->mcp_version(s);
}

bool upk_session_lens_refresh(const upk_server *s) {
  return ops(s)->lens_refresh(s);
}

void upk_session_set_log_level(upk_server *s, int level) {
  ops(s)->set_log_level(s, level);
}

uv_timer_t *upk_session_warm_timer(upk_server *s) {
  return ops(s)->warm_timer(s);
}

upk_defer_queue *upk_session_defer(upk_server *s) {
  return ops(s)->defer(s);
}

bool upk_session_ready(upk_server *s, const upk_session_hello *hello) {
  return ops(s)->ready(s, hello);
}

upk_services *upk_session_services(const upk_server *s) {
  return ops(s)->services(s);
}

struct upk_jobs *upk_session_jobs(const upk_server *s) {
  return ops(s)->jobs(s);
}

struct upk_docs *upk_session_docs(const upk_server *s) {
  return ops(s)->docs(s);
}
