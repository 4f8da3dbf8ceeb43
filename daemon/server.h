/** The protocol server: one session over stdio.
 *
 * It owns the transport and framer, validates JSON-RPC envelopes, runs the
 * LSP and MCP lifecycles, routes requests through the method table into jobs,
 * and is the only writer of protocol output (clangd's "server" + "binder").
 */
#ifndef UPK_SERVER_H
#define UPK_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "framing.h"
#include "transport.h"

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

typedef struct upk_server {
  uv_loop_t *loop;
  upk_options opts;
  upk_transport tx;
  upk_framer framer;
  upk_state state;
  json_t *inflight;     /* id key -> job (as a pointer-sized integer) */
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
  struct upk_kernels *kernels;   /* worker pool and compile cache (kernel_service.h) */
  struct upk_models *models;     /* model completions (models_methods.h), on first use */
  json_t *docs;                  /* uri -> open document (documents.c) */
  bool lens_refresh;             /* the LSP client takes workspace/codeLens/refresh */
} upk_server;

/** Create the session on stdio (kinds guessed by main). */
int upk_server_init(upk_server *s, uv_loop_t *loop, const upk_options *opts, int in_fd,
                    uv_handle_type in_kind, int out_fd, uv_handle_type out_kind);
/** Begin reading; the loop runs until input ends or `exit` arrives. */
int upk_server_start(upk_server *s);
/** Release everything after uv_run has returned. */
void upk_server_free(upk_server *s);

/** The framing in use (decided by the first byte in AUTO mode). */
upk_framing upk_server_framing(const upk_server *s);
/** Queue one message (stolen) for output. */
void upk_server_send(upk_server *s, json_t *msg);
/** Answer a request on behalf of a job or the server; routes into a batch when one is open. */
void upk_server_answer(upk_server *s, upk_batch *batch, json_t *response);
/** Called by jobs when one finishes: exits after EOF once nothing is in flight. */
void upk_server_job_done(upk_server *s);
/** Begin an orderly exit with `code`. */
void upk_server_close(upk_server *s, int code);
/** Milliseconds since start-up. */
double upk_server_uptime_ms(const upk_server *s);

/* Batches (implemented in server.c): a job inside a batch holds a reference. */
void upk_batch_hold(upk_batch *b);
void upk_batch_release(upk_server *s, upk_batch *b);

/* MCP and LSP protocol methods (mcp_face.c / lsp_face.c). Each returns true
 * when it handled `method`. */
bool upk_mcp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);
bool upk_lsp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);
/** file:///a/b%20c -> "/a/b c" (malloc'd); NULL for other schemes. */
char *upk_file_uri_to_path(const char *uri);

/* Open documents (documents.c): textDocument/did* notifications in, debounced
 * textDocument/publishDiagnostics out. Returns true when it handled `method`. */
bool upk_docs_notification(upk_server *s, const char *method, json_t *params);
/** Forget every document (at exit). */
void upk_docs_close_all(upk_server *s);

#endif
