#include "daemon/server.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/catalog.h"
#include "daemon/lsp/documents.h"
#include "daemon/mcp/face_jobs.h"
#include "daemon/core/guard.h"
#include "daemon/core/jobs.h"
#include "protocol/jsonrpc.h"
#include "daemon/kernels/kernel_service.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "protocol/lsp.h"
#include "daemon/lsp/lsp_face.h"
#include "protocol/mcp.h"
#include "daemon/mcp/mcp_face.h"
#include "daemon/mcp/mcp_stateless.h"
#include "daemon/methods.h"
#include "daemon/models/models_service.h"
#include "daemon/skills/skills_service.h"
#include "daemon/core/transport.h"

/* The session: only this file reads or writes its fields; the layers below see it through
 * session.h's functions. */
struct upk_server {
  upk_session_head head; /* first: the way out session.c calls through (server__ops) */
  uv_loop_t *loop;
  upk_options opts;
  upk_transport tx;
  upk_framer framer;
  upk_state state;
  upk_jobs jobs;           /* requests in flight (jobs.c) */
  upk_mcp_pending *modern; /* MCP 2026-07-28 requests not answered yet (mcp_stateless.c) */
  bool begun;              /* the services are started (initialize or a first modern request) */
  upk_buf scratch;         /* reused for serialising LSP bodies */
  char mcp_version[16];    /* negotiated MCP revision, "" before initialize */
  int mcp_log_level;       /* -1 until logging/setLevel */
  json_t *client_info;     /* initialize params.clientInfo */
  json_t *init_options;    /* LSP initializationOptions */
  bool lens_refresh;       /* the LSP client takes workspace/codeLens/refresh */
  char *workspace;         /* project root path */
  uint64_t started_ns;
  uint64_t requests; /* requests answered so far */
  int exit_code;
  bool input_ended; /* EOF seen: exit once in-flight work is answered */
  /* Draining: shutdown, exit after it, EOF and the first SIGTERM wait for the requests in
   * flight, at most opts.shutdown_grace_ms, then cancel the rest with an error. */
  json_t *shutdown_id;       /* a shutdown request not answered yet */
  upk_batch *shutdown_batch; /* ...and its batch (held) */
  bool exit_pending;         /* exit (after shutdown) arrived while draining */
  bool signalled;            /* SIGTERM or SIGINT seen */
  uv_timer_t grace_timer;
  uv_signal_t sig_term, sig_int;
  uv_timer_t warm_timer; /* starts the kernel workers once the initialize answer has left */
  upk_defer_queue defer; /* calls made from the loop later (defer.h) */
  upk_services services;
  upk_docs docs; /* open documents (documents.c) */
};

struct upk_batch {
  json_t *responses;
  int refs;
};

static void server__handle_value(upk_server *s, json_t *v, upk_batch *batch);

static void server__close(upk_server *s, int code);

static const upk_session_ops server__ops;

/* ---- the way out (session.h): everything below the server answers through these ---- */

static void session__send(upk_server *s, json_t *msg) {
  if (!msg)
    return;
  if (s->tx.closing) { /* output is closed: nothing more can be delivered */
    json_decref(msg);
    return;
  }
  upk_buf *out = upk_transport_out(&s->tx);
  int rc;
  if (upk_session_framing(s) == UPK_FRAMING_LSP) {
    upk_buf_reset(&s->scratch);
    rc = upk_rpc_dump(msg, &s->scratch);
    if (!rc)
      rc = upk_frame_write(UPK_FRAMING_LSP, s->scratch.data, s->scratch.len, out);
  } else { /* MCP lines: serialise straight into the output buffer */
    rc = upk_rpc_dump(msg, out);
    if (!rc)
      rc = upk_buf_append(out, "\n", 1);
  }
  if (rc)
    upk_error("cannot queue output: out of memory");
  json_decref(msg);
  upk_transport_schedule(&s->tx);
}

static void session__answer(upk_server *s, upk_batch *batch, json_t *response) {
  s->requests++;
  if (!upk_mcp_pending_empty(s->modern))
    upk_mcp_stateless_answer(s->modern, response);
  if (batch)
    json_array_append_new(batch->responses, response);
  else
    upk_session_send(s, response);
}

/* A response with a member of its result dumped off the loop: the rest (the id, what a modern
 * answer adds) is jansson's dump of a few bytes, the member's text is copied in as it is. */
static void session__answer_dumped(upk_server *s, upk_batch *batch, json_t *response,
                                   const upk_json_member *m) {
  if (batch || !m || s->tx.closing) {
    session__answer(s, batch, response);
    return;
  }
  s->requests++;
  if (!upk_mcp_pending_empty(s->modern)) /* members beside m's, m's value untouched */
    upk_mcp_stateless_answer(s->modern, response);
  upk_buf *out = upk_transport_out(&s->tx);
  int rc;
  if (upk_session_framing(s) == UPK_FRAMING_LSP) {
    upk_buf_reset(&s->scratch);
    rc = upk_rpc_dump_spliced(response, m, &s->scratch);
    if (!rc)
      rc = upk_frame_write(UPK_FRAMING_LSP, s->scratch.data, s->scratch.len, out);
  } else {
    rc = upk_rpc_dump_spliced(response, m, out);
    if (!rc)
      rc = upk_buf_append(out, "\n", 1);
  }
  if (rc == -EINVAL) { /* not a plain result: dump it whole */
    session__send(s, response);
    return;
  }
  if (rc)
    upk_error("cannot queue output: out of memory");
  json_decref(response);
  upk_transport_schedule(&s->tx);
}

static void answer_error(upk_server *s, upk_batch *b, json_t *id, int code, const char *msg) {
  upk_session_answer(s, b, upk_rpc_error(id, code, msg, NULL));
}

static void session__batch_hold(upk_server *s, upk_batch *b) {
  b->refs++;
}

static void session__batch_release(upk_server *s, upk_batch *b) {
  if (--b->refs > 0)
    return;
  /* A batch of notifications only gets no answer at all, never []. */
  if (json_array_size(b->responses))
    upk_session_send(s, b->responses);
  else
    json_decref(b->responses);
  free(b);
}

static void server__batch(upk_server *s, json_t *arr) {
  if (upk_session_framing(s) == UPK_FRAMING_LSP || !upk_mcp_allows_batches(s->mcp_version)) {
    char msg[160];
    snprintf(msg, sizeof msg, "JSON-RPC batches are not supported %s",
             upk_session_framing(s) == UPK_FRAMING_LSP ? "over LSP"
             : s->mcp_version[0] ? "by this MCP revision (only 2025-03-26 has them)"
                                 : "before initialize");
    answer_error(s, NULL, NULL, UPK_RPC_INVALID_REQUEST, msg);
    return;
  }
  if (json_array_size(arr) == 0) {
    answer_error(s, NULL, NULL, UPK_RPC_INVALID_REQUEST, "empty batch");
    return;
  }
  upk_batch *b = upk_xcalloc(1, sizeof *b);
  b->responses = json_array();
  b->refs = 1;
  size_t i;
  json_t *v;
  json_array_foreach(arr, i, v) server__handle_value(s, v, b);
  upk_session_batch_release(s, b);
}

static json_t *param(json_t *params, const char *name) {
  return json_is_object(params) ? json_object_get(params, name) : NULL;
}

/* ---- draining -------------------------------------------------------------
 * shutdown, exit after it, EOF and a first SIGTERM/SIGINT all wait for the requests already
 * in flight. Once none is left, a pending shutdown is answered and, if the session is over
 * (exit, EOF, signal), the server closes. The grace timer bounds the wait: when it fires,
 * whatever still runs is cancelled with a -32800 answer, so no request goes unanswered. */

static bool server__over(const upk_server *s) {
  return s->exit_pending || s->input_ended || s->signalled;
}

/* Act on "nothing left in flight": answer shutdown, then close if the session is over. */
static void server__settle(upk_server *s) {
  if (s->state == UPK_S_CLOSING || upk_jobs_cancelling(s) || upk_jobs_inflight(s))
    return;
  uv_timer_stop(&s->grace_timer);
  if (s->shutdown_id) {
    upk_batch *b = s->shutdown_batch;
    json_t *id = s->shutdown_id;
    s->shutdown_id = NULL;
    s->shutdown_batch = NULL;
    upk_session_answer(s, b, upk_rpc_result(id, NULL));
    json_decref(id);
    if (b)
      upk_session_batch_release(s, b);
  }
  if (server__over(s))
    server__close(s, 0);
}

/* Give up on what still runs: each request gets -32800 with `why`, then settle. */
static void server__give_up(upk_server *s, const char *why) {
  if (upk_jobs_inflight(s))
    upk_warn("%s: cancelling %zu request(s) still in flight", why, upk_jobs_inflight(s));
  upk_jobs_cancel_all(s, why);
  server__settle(s);
}

static void on_grace(uv_timer_t *t) {
  upk_server *s = t->data;
  char why[128];
  snprintf(why, sizeof why,
           "cancelled: the server is shutting down and its grace period (%u ms) ran out",
           s->opts.shutdown_grace_ms);
  server__give_up(s, why);
}

/* Wait for the requests in flight, at most the grace period (started once). */
static void server__drain(upk_server *s) {
  if (s->state == UPK_S_CLOSING)
    return;
  if (upk_jobs_inflight(s) && !uv_is_active((uv_handle_t *)&s->grace_timer))
    uv_timer_start(&s->grace_timer, on_grace, s->opts.shutdown_grace_ms, 0);
  server__settle(s);
}

static void server__exit(upk_server *s) {
  if (s->state != UPK_S_SHUTDOWN) {
    upk_info("exit without shutdown");
    upk_jobs_cancel_all(s, "cancelled: exit arrived before shutdown");
    server__close(s, 1);
    return;
  }
  upk_info("exit after shutdown; %zu request(s) still in flight", upk_jobs_inflight(s));
  s->exit_pending = true;
  server__drain(s);
}

static void server__notification(upk_server *s, const char *method, json_t *params) {
  if (!strcmp(method, "exit")) {
    server__exit(s);
  } else if (!strcmp(method, "$/cancelRequest")) {
    upk_jobs_cancel(s, param(params, "id"), true);
  } else if (!strcmp(method, "notifications/cancelled")) {
    json_t *id = param(params, "requestId");
    upk_jobs_cancel(s, id, false);
    upk_mcp_stateless_forget(s->modern, id);
  } else if (upk_lsp_face_notification(s, method, params)) {
    return;
  } else {
    /* initialized, notifications/initialized, $/setTrace and anything unknown:
     * notifications are never answered. */
    upk_debug("notification %s", method);
  }
}

static bool allowed_before_init(const char *method) {
  return !strcmp(method, "ping") || !strcmp(method, "server/discover");
}

static void server__request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                            json_t *params) {
  char key[UPK_RPC_KEY_MAX], msg[256];
  bool modern = false;
  if (s->state != UPK_S_SHUTDOWN &&
      upk_mcp_stateless_request(s, b, s->modern, method, id, params, &modern))
    return;
  if (s->state == UPK_S_UNINIT && !modern && strcmp(method, "initialize") &&
      !allowed_before_init(method)) {
    answer_error(s, b, id, UPK_RPC_SERVER_NOT_INITIALIZED,
                 "server not initialized: send initialize first");
    return;
  }
  if (s->state == UPK_S_SHUTDOWN) {
    answer_error(s, b, id, UPK_RPC_INVALID_REQUEST,
                 "server is shut down: only the exit notification is accepted");
    return;
  }
  if (upk_jobs_inflight(s) && (upk_rpc_id_key(id, key), upk_jobs_find(s, key))) {
    snprintf(msg, sizeof msg, "request id %s is already in use by a request in flight", key + 2);
    answer_error(s, b, id, UPK_RPC_INVALID_REQUEST, msg);
    return;
  }
  if (!strcmp(method, "ping")) {
    upk_session_answer(s, b, upk_rpc_result(id, json_object()));
    return;
  }
  if (!strcmp(method, "shutdown")) {
    /* Answered once every request received before it has been answered. */
    s->state = UPK_S_SHUTDOWN;
    s->shutdown_id = json_incref(id);
    s->shutdown_batch = b;
    if (b)
      upk_session_batch_hold(s, b);
    server__drain(s);
    return;
  }
  if (upk_lsp_face_request(s, b, method, id, params) ||
      upk_mcp_face_request(s, b, method, id, params))
    return;
  const upk_method *m = upk_method_find(method, s->opts.test_methods);
  if (m) {
    upk_job_start(s, b, m, id, params, params, &upk_face_job_plain);
    return;
  }
  snprintf(msg, sizeof msg, "method not found: %.*s", (int)upk_utf8_prefix(method, 200), method);
  answer_error(s, b, id, UPK_RPC_METHOD_NOT_FOUND, msg);
}

static void server__handle_value(upk_server *s, json_t *v, upk_batch *b) {
  if (s->state == UPK_S_CLOSING) /* an exit earlier in this batch ended the session */
    return;
  upk_rpc_msg m;
  upk_rpc_classify(v, &m);
  switch (m.kind) {
  case UPK_RPC_INVALID:
    answer_error(s, b, m.id, UPK_RPC_INVALID_REQUEST, m.why);
    break;
  case UPK_RPC_RESPONSE:
    upk_debug("response from the client ignored"); /* e.g. to window/workDoneProgress/create */
    break;
  case UPK_RPC_NOTIFICATION:
    server__notification(s, m.method, m.params);
    break;
  case UPK_RPC_REQUEST:
    server__request(s, b, m.method, m.id, m.params);
    break;
  }
}

static void on_message(void *ud, const char *body, size_t len) {
  upk_server *s = ud;
  if (s->state == UPK_S_CLOSING)
    return;
  char err[256];
  json_t *v = upk_rpc_parse(body, len, err, sizeof err);
  if (!v) {
    upk_debug("parse error: %s", err);
    answer_error(s, NULL, NULL, UPK_RPC_PARSE_ERROR, err);
    return;
  }
  if (json_is_array(v))
    server__batch(s, v);
  else
    server__handle_value(s, v, NULL);
  json_decref(v);
}

static void on_frame_error(void *ud, int code, const char *message) {
  upk_server *s = ud;
  upk_warn("framing: %s", message);
  answer_error(s, NULL, NULL,
               code == UPK_FRAME_ETOOBIG ? UPK_RPC_INVALID_REQUEST : UPK_RPC_PARSE_ERROR, message);
}

static void on_data(void *ud, const char *data, size_t len) {
  upk_server *s = ud;
  if (s->state == UPK_S_CLOSING)
    return;
  if (upk_framer_feed(&s->framer, data, len))
    upk_error("out of memory buffering input");
}

static void on_end(void *ud, int status) {
  upk_server *s = ud;
  upk_framer_end(&s->framer); /* a last MCP line without its newline still counts */
  uint64_t pending = upk_framer_pending(&s->framer);
  if (status < 0)
    upk_warn("reading stdin failed: %s", uv_strerror(status));
  if (pending)
    upk_warn("input ended inside a message (%llu bytes lost)", (unsigned long long)pending);
  s->input_ended = true;
  upk_info("input ended; exiting after %zu request(s) in flight", upk_jobs_inflight(s));
  server__drain(s);
}

/* The first signal drains like shutdown + exit; a second one stops at once (still
 * answering what is in flight with -32800). */
static void on_signal(uv_signal_t *h, int signum) {
  upk_server *s = h->data;
  if (s->state == UPK_S_CLOSING)
    return;
  if (s->signalled) {
    upk_info("signal %d again; exiting now", signum);
    server__give_up(s, "cancelled: the server was stopped by a signal");
    return;
  }
  upk_info("signal %d; exiting after %zu request(s) in flight", signum, upk_jobs_inflight(s));
  s->signalled = true;
  s->state = UPK_S_SHUTDOWN; /* new requests are refused from now on */
  server__drain(s);
}

static void session__job_done(upk_server *s) {
  server__settle(s);
}

static void session__flush(upk_server *s) {
  upk_transport_flush(&s->tx);
}

static void log_sink(void *ud, upk_log_level level, const char *line) {
  upk_server *s = ud;
  if (s->state == UPK_S_CLOSING)
    return;
  if (upk_session_framing(s) == UPK_FRAMING_LSP) {
    if (level > UPK_LOG_WARN && level > upk_log_get_level())
      return;
    static const int types[] = {UPK_LSP_ERROR, UPK_LSP_WARNING, UPK_LSP_INFO, UPK_LSP_LOG};
    upk_session_send(s, upk_lsp_log_message(types[level], line));
    return;
  }
  static const int rfc5424[] = {4, 3, 1, 0}; /* error, warning, info, debug */
  if (s->mcp_log_level >= 0 && rfc5424[level] >= s->mcp_log_level && s->state == UPK_S_READY)
    upk_session_send(s, upk_mcp_log_message(upk_mcp_level_name(rfc5424[level]), "upskilld", line));
}

int upk_server_new(upk_server **out, uv_loop_t *loop, const upk_options *opts, int in_fd,
                   uv_handle_type in_kind, int out_fd, uv_handle_type out_kind) {
  upk_server *s = upk_xcalloc(1, sizeof *s);
  *out = s;
  s->head.ops = &server__ops;
  s->loop = loop;
  s->opts = *opts;
  s->mcp_log_level = -1;
  s->started_ns = uv_hrtime();
  s->modern = upk_mcp_pending_new();
  upk_buf_init(&s->scratch, SIZE_MAX - 1);
  static const upk_framer_callbacks fcb = {on_message, on_frame_error};
  upk_framer_init(&s->framer, opts->framing, opts->max_message, &fcb, s);
  static const upk_transport_cb tcb = {on_data, on_end};
  int rc = upk_transport_open(&s->tx, loop, in_fd, in_kind, out_fd, out_kind, &tcb, s);
  if (rc)
    return rc;
  uv_signal_init(loop, &s->sig_term);
  uv_signal_init(loop, &s->sig_int);
  s->sig_term.data = s->sig_int.data = s;
  uv_signal_start(&s->sig_term, on_signal, SIGTERM);
  uv_signal_start(&s->sig_int, on_signal, SIGINT);
  uv_timer_init(loop, &s->warm_timer);
  s->warm_timer.data = s;
  uv_timer_init(loop, &s->grace_timer);
  s->grace_timer.data = s;
  upk_defer_init(loop, &s->defer);
  upk_lsp_face_init(s); /* documents report through the LSP face */
  upk_log_set_sink(log_sink, s, UPK_LOG_DEBUG);
  return 0;
}

int upk_server_start(upk_server *s) {
  return upk_transport_start(&s->tx);
}

static void server__close(upk_server *s, int code) {
  if (s->state == UPK_S_CLOSING)
    return;
  /* Mark closing first: cancelled jobs finish synchronously and must not
   * re-enter this function through the job_done callback. */
  s->state = UPK_S_CLOSING;
  s->exit_code = code;
  upk_jobs_cancel_all(s, NULL); /* none is left after a drain */
  if (s->shutdown_id) {         /* closed some other way while shutdown waited */
    upk_session_answer(s, s->shutdown_batch, upk_rpc_result(s->shutdown_id, NULL));
    if (s->shutdown_batch)
      upk_session_batch_release(s, s->shutdown_batch);
    json_decref(s->shutdown_id);
    s->shutdown_id = NULL;
  }
  upk_docs_close_all(s);
  upk_skills_stop(s);
  upk_kernels_stop(s);
  upk_models_stop(s);
  upk_log_set_sink(NULL, NULL, UPK_LOG_ERROR);
  uv_close((uv_handle_t *)&s->sig_term, NULL);
  uv_close((uv_handle_t *)&s->sig_int, NULL);
  uv_close((uv_handle_t *)&s->warm_timer, NULL);
  uv_close((uv_handle_t *)&s->grace_timer, NULL);
  upk_defer_close(&s->defer); /* after the services: they cancel their own calls */
  upk_transport_close(&s->tx);
}

void upk_server_free(upk_server *s) {
  upk_log_set_sink(NULL, NULL, UPK_LOG_ERROR);
  upk_transport_free(&s->tx);
  upk_framer_free(&s->framer);
  upk_buf_free(&s->scratch);
  upk_jobs_free(s);
  upk_mcp_pending_free(s->modern);
  upk_catalog_cache_free(s->services.catalog); /* the skills queue has stopped: nothing uses it */
  upk_catalog_memo_free(s->services.listed);
  json_decref(s->shutdown_id);
  json_decref(s->client_info);
  json_decref(s->init_options);
  free(s->workspace);
  free(s);
}

int upk_server_exit_code(const upk_server *s) {
  return s->exit_code;
}

/* ---- the session as the layers below see it (session.h) ---- */

static uv_loop_t *session__loop(const upk_server *s) {
  return s->loop;
}

static const upk_options *session__options(const upk_server *s) {
  return &s->opts;
}

static upk_state session__state(const upk_server *s) {
  return s->state;
}

static upk_framing session__framing(const upk_server *s) {
  return upk_framer_mode(&s->framer);
}

static double session__uptime_ms(const upk_server *s) {
  return (double)(uv_hrtime() - s->started_ns) / 1e6;
}

static uint64_t session__requests(const upk_server *s) {
  return s->requests;
}

static const char *session__workspace(const upk_server *s) {
  return s->workspace;
}

static json_t *session__init_options(const upk_server *s) {
  return s->init_options;
}

static json_t *session__client_info(const upk_server *s) {
  return s->client_info;
}

static const char *session__mcp_version(const upk_server *s) {
  return s->mcp_version;
}

static bool session__lens_refresh(const upk_server *s) {
  return s->lens_refresh;
}

static void session__set_log_level(upk_server *s, int level) {
  s->mcp_log_level = level;
}

static uv_timer_t *session__warm_timer(upk_server *s) {
  return &s->warm_timer;
}

static upk_defer_queue *session__defer(upk_server *s) {
  return &s->defer;
}

/* The slots are the parts' own: the session only holds them, whatever its constness. */
static upk_services *session__services(const upk_server *s) {
  return (upk_services *)&s->services;
}

static upk_jobs *session__jobs(const upk_server *s) {
  return (upk_jobs *)&s->jobs;
}

static upk_docs *session__docs(const upk_server *s) {
  return (upk_docs *)&s->docs;
}

static bool session__ready(upk_server *s, const upk_session_hello *h) {
  if (h->mcp_version)
    snprintf(s->mcp_version, sizeof s->mcp_version, "%s", h->mcp_version);
  if (h->initialized) {
    json_decref(s->client_info); /* the handshake's own word wins over an earlier _meta */
    s->client_info = json_incref(h->client_info);
    json_decref(s->init_options);
    s->init_options = json_incref(h->init_options);
    s->lens_refresh = h->lens_refresh;
    s->state = UPK_S_READY;
  }
  if (s->begun) {
    free(h->workspace);
    return false;
  }
  s->begun = true;
  if (!h->initialized && !s->client_info && json_is_object(h->client_info))
    s->client_info = json_incref(h->client_info);
  s->workspace =
      h->workspace
          ? h->workspace
          : upk_guard_default_workspace(&s->opts, upk_framer_mode(&s->framer) == UPK_FRAMING_MCP);
  upk_skills_start(s);
  return true;
}

static const upk_session_ops server__ops = {
    .send = session__send,
    .answer = session__answer,
    .answer_dumped = session__answer_dumped,
    .batch_hold = session__batch_hold,
    .batch_release = session__batch_release,
    .job_done = session__job_done,
    .flush = session__flush,
    .loop = session__loop,
    .options = session__options,
    .state = session__state,
    .framing = session__framing,
    .uptime_ms = session__uptime_ms,
    .requests = session__requests,
    .workspace = session__workspace,
    .init_options = session__init_options,
    .client_info = session__client_info,
    .mcp_version = session__mcp_version,
    .lens_refresh = session__lens_refresh,
    .set_log_level = session__set_log_level,
    .warm_timer = session__warm_timer,
    .defer = session__defer,
    .ready = session__ready,
    .services = session__services,
    .jobs = session__jobs,
    .docs = session__docs,
};
