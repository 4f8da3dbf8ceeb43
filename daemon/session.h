/** The session as the layers below the server see it (jobs, the faces, documents, the
 * services): its state, and the way out through the callbacks the server installs. Only
 * main.c includes server.h; everything else includes this, so the include and call graph of
 * daemon/ runs one way (docs/architecture.md). */
#ifndef UPK_SESSION_H
#define UPK_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "protocol/framing.h"
#include "daemon/transport.h"

typedef struct upk_options {
  upk_framing framing;   /* AUTO unless --lsp / --mcp */
  size_t max_message;    /* bytes; one message body */
  bool test_methods;     /* expose the test-only methods (upskilld/sleep) */
  const char *cuda_path; /* NULL: $CUDA_PATH or the build-time default */
  const char
      *worker_command; /* prefix for upskilld-worker (e.g. "srun --gres=gpu:1"); NULL: none */
  const char *worker_server_idle; /* seconds a worker server idles before exiting; "0": none;
                                     NULL: $UPSKILLD_WORKER_SERVER_IDLE, else 600 */
  const char *python; /* python3 for PyTorch references; NULL: $UPSKILLD_PYTHON, else python3 */
  /* How long shutdown, EOF and SIGTERM wait for requests in flight before cancelling them
   * with an error (--shutdown-grace). */
  unsigned shutdown_grace_ms;
} upk_options;

typedef enum { UPK_S_UNINIT, UPK_S_READY, UPK_S_SHUTDOWN, UPK_S_CLOSING } upk_state;

typedef struct upk_batch upk_batch;
typedef struct upk_server upk_server;

/** The way out, installed by the server (server.c): jobs, documents and the faces answer and
 * notify only through these, so nothing below the server calls up into it. */
typedef struct upk_session_out {
  /** Queue one message (stolen) for output. */
  void (*send)(upk_server *s, json_t *msg);
  /** Answer a request; routes into `batch` when it is not NULL. */
  void (*answer)(upk_server *s, upk_batch *batch, json_t *response);
  /** A job inside a batch holds a reference; the last release sends the batch's array. */
  void (*batch_hold)(upk_batch *batch);
  void (*batch_release)(upk_server *s, upk_batch *batch);
  /** A job finished: the server exits after EOF once nothing is in flight. */
  void (*job_done)(upk_server *s);
  /** `uri`'s check was published: answer codeLens request `id` that waited for it. */
  void (*lenses_ready)(upk_server *s, const char *uri, json_t *id);
} upk_session_out;

struct upk_server {
  const upk_session_out *out; /* set by upk_server_init */
  uv_loop_t *loop;
  upk_options opts;
  upk_transport tx;
  upk_framer framer;
  upk_state state;
  json_t *inflight;     /* id key -> job (as a pointer-sized integer) */
  json_t *modern;       /* id key -> method, for MCP 2026-07-28 requests not answered yet */
  bool mcp_begun;       /* the MCP services are started (initialize or a first modern request) */
  upk_buf scratch;      /* reused for serialising LSP bodies */
  char mcp_version[16]; /* negotiated MCP revision, "" before initialize */
  int mcp_log_level;    /* -1 until logging/setLevel */
  json_t *client_info;  /* initialize params.clientInfo */
  json_t *init_options; /* LSP initializationOptions */
  char *workspace;      /* project root path */
  uint64_t started_ns;
  uint64_t requests; /* requests answered so far */
  int exit_code;
  bool input_ended; /* EOF seen: exit once in-flight work is answered */
  /* Draining (server.c): shutdown, exit after it, EOF and the first SIGTERM wait for the
   * requests in flight, at most opts.shutdown_grace_ms, then cancel the rest with an error. */
  json_t *shutdown_id;       /* a shutdown request not answered yet */
  upk_batch *shutdown_batch; /* ...and its batch (held) */
  bool exit_pending;         /* exit (after shutdown) arrived while draining */
  bool signalled;            /* SIGTERM or SIGINT seen */
  bool cancelling;           /* inside upk_jobs_cancel_all: do not settle yet */
  uv_timer_t grace_timer;
  uv_signal_t sig_term, sig_int;
  uv_timer_t warm_timer;         /* starts the kernel workers once the initialize answer has left */
  struct upk_skills_svc *skills; /* skills index service, from initialize on */
  struct upk_catalog_cache *catalog; /* the Skills extension's digests (skills queue only) */
  struct upk_kernels *kernels;       /* worker pool and compile cache (kernel_service.h) */
  struct upk_models *models;         /* model completions (models_methods.h), on first use */
  json_t *docs;                      /* uri -> open document (documents.c) */
  bool lens_refresh;                 /* the LSP client takes workspace/codeLens/refresh */
};

static inline void upk_session_send(upk_server *s, json_t *msg) {
  s->out->send(s, msg);
}
static inline void upk_session_answer(upk_server *s, upk_batch *batch, json_t *response) {
  s->out->answer(s, batch, response);
}
static inline void upk_session_batch_hold(upk_server *s, upk_batch *batch) {
  s->out->batch_hold(batch);
}
static inline void upk_session_batch_release(upk_server *s, upk_batch *batch) {
  s->out->batch_release(s, batch);
}
static inline void upk_session_job_done(upk_server *s) {
  s->out->job_done(s);
}
static inline void upk_session_lenses_ready(upk_server *s, const char *uri, json_t *id) {
  s->out->lenses_ready(s, uri, id);
}
/** The framing in use (decided by the first byte in AUTO mode). */
static inline upk_framing upk_session_framing(const upk_server *s) {
  return upk_framer_mode(&s->framer);
}
/** Milliseconds since start-up. */
static inline double upk_session_uptime_ms(const upk_server *s) {
  return (double)(uv_hrtime() - s->started_ns) / 1e6;
}

#endif
