/** The session as the layers below the server see it (jobs, the faces, documents, the
 * services): what it knows, the services' slots, and the way out. The session itself is
 * opaque: server.c owns `struct upk_server`, so no file below the server reads or writes its
 * fields. The functions declared here are defined in session.c, at the bottom of daemon/, and
 * call through the table of operations (upk_session_ops) that server.c installs at the head of
 * every session: nothing below the server calls a function the server defines, so daemon/
 * runs one way at link level as well as in its includes (docs/architecture.md). */
#ifndef UPK_SESSION_H
#define UPK_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "common/json_text.h"
#include "daemon/core/defer.h"
#include "protocol/framing.h"

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
  /* The user's --allow-kernel-option globs: a compiler option matching one is allowed from any
   * origin (gpu/compile/options.h; docs/security.md "Compiler options"). Borrowed from argv. */
  const char *const *allow_kernel_options;
  size_t n_allow_kernel_options;
  /* What agents (MCP sessions) may do beyond their places (daemon/core/guard.h): --agent-allow's
   * powers (UPK_AGENT_ALLOW_*) and --agent-path's directories (borrowed from argv). */
  unsigned agent_allow;
  const char **agent_paths;
  size_t n_agent_paths;
  /* --workspace: the workspace of a session whose client names none (an MCP client); NULL: the
   * working directory, unless an agent's is the user's home or / (guard.h). */
  const char *workspace;
} upk_options;

typedef enum { UPK_S_UNINIT, UPK_S_READY, UPK_S_SHUTDOWN, UPK_S_CLOSING } upk_state;

typedef struct upk_batch upk_batch;
typedef struct upk_server upk_server;

/* ---- the way out: everything below the server answers and notifies through these ---- */

/** Queue one message (stolen) for output. */
void upk_session_send(upk_server *s, json_t *msg);
/** Answer a request (`response` stolen); routes into `batch` when it is not NULL. */
void upk_session_answer(upk_server *s, upk_batch *batch, json_t *response);
/** upk_session_answer for a response with a member of its result dumped ahead (`m`, borrowed;
 * NULL: none): written with that text in its place (upk_rpc_dump_spliced), the big value not
 * dumped on the loop thread; in a batch, or where the text cannot go in, dumped whole. */
void upk_session_answer_dumped(upk_server *s, upk_batch *batch, json_t *response,
                               const upk_json_member *m);
/** A job inside a batch holds a reference; the last release sends the batch's array. */
void upk_session_batch_hold(upk_server *s, upk_batch *batch);
/** Releases a reference taken by upk_session_batch_hold. */
void upk_session_batch_release(upk_server *s, upk_batch *batch);
/** A job finished: a draining server answers shutdown or exits once nothing is in flight. */
void upk_session_job_done(upk_server *s);
/** Write what is queued now, ahead of the idle flush (before a slow spawn). */
void upk_session_flush(upk_server *s);

/* ---- what the session knows ---- */

/** The loop everything runs on. */
uv_loop_t *upk_session_loop(const upk_server *s);
/** The command line's options (borrowed for the session's life). */
const upk_options *upk_session_options(const upk_server *s);
/** The lifecycle state. */
upk_state upk_session_state(const upk_server *s);
/** The framing in use (decided by the first byte in AUTO mode). */
upk_framing upk_session_framing(const upk_server *s);
/** Milliseconds since start-up. */
double upk_session_uptime_ms(const upk_server *s);
/** Requests answered so far. */
uint64_t upk_session_requests(const upk_server *s);
/** The project root (borrowed), NULL before the session is ready. */
const char *upk_session_workspace(const upk_server *s);
/** LSP initializationOptions (borrowed), or NULL. */
json_t *upk_session_init_options(const upk_server *s);
/** The client's clientInfo (borrowed), or NULL. */
json_t *upk_session_client_info(const upk_server *s);
/** The negotiated MCP revision, "" before initialize. */
const char *upk_session_mcp_version(const upk_server *s);
/** Whether the LSP client takes workspace/codeLens/refresh. */
bool upk_session_lens_refresh(const upk_server *s);
/** MCP logging/setLevel: send log lines at RFC 5424 `level` or above (-1: none). */
void upk_session_set_log_level(upk_server *s, int level);
/** The timer kernel_service.c starts the workers with once initialize's answer has left
 * (the server initialises and closes it). */
uv_timer_t *upk_session_warm_timer(upk_server *s);
/** The queue of calls made from the loop later (defer.h): answers known at once (the server
 * initialises and closes it). */
upk_defer_queue *upk_session_defer(upk_server *s);

/** What a face learnt from its client when the session starts. */
typedef struct upk_session_hello {
  bool initialized;        /* an initialize handshake: the session is READY and client_info,
                              even NULL, replaces what an earlier request's _meta said */
  json_t *client_info;     /* borrowed; without a handshake kept only when none is known */
  char *workspace;         /* stolen: the project root; NULL: the current directory */
  json_t *init_options;    /* borrowed: LSP initializationOptions */
  const char *mcp_version; /* the negotiated MCP revision, or NULL */
  bool lens_refresh;       /* the LSP client takes workspace/codeLens/refresh */
} upk_session_hello;

/** Both faces' start-up: an initialize (LSP or MCP) or MCP 2026-07-28's first request,
 * which has no handshake. Records what the client said and, the first time only, sets the
 * workspace and starts the skills service. True when this call started the services (a later
 * call frees `hello->workspace`). */
bool upk_session_ready(upk_server *s, const upk_session_hello *hello);

/* ---- the parts' slots: each is owned by its module, the session only holds it ---- */

/** The services' state, created and freed by each service (NULL while not started). */
typedef struct upk_services {
  struct upk_skills_svc *skills;     /* skills index service, from initialize on */
  struct upk_catalog_cache *catalog; /* the Skills extension's digests (skills queue only) */
  struct upk_catalog_memo *listed;   /* ... its listing's entries (made on the loop; the queue
                                      * builds them, the loop reads kept pages), */
  int64_t listed_at;                 /* built up to this document by a walk's first page, */
  bool listed_warm;                  /* ... to the end of the first index */
  struct upk_kernels *kernels;       /* worker pool and compile cache (kernel_service.h) */
  struct upk_models *models;         /* model completions (models_service.h), on first use */
} upk_services;

/** The services' slots. */
upk_services *upk_session_services(const upk_server *s);
/** The requests in flight (jobs.h; only jobs.c reads its fields). */
struct upk_jobs *upk_session_jobs(const upk_server *s);
/** The open documents (documents.h; only documents.c reads its fields). */
struct upk_docs *upk_session_docs(const upk_server *s);

/* ---- the table behind the functions above (server.c fills it in) ---- */

/** One operation per function above, each with that function's contract. */
typedef struct upk_session_ops {
  void (*send)(upk_server *s, json_t *msg);
  void (*answer)(upk_server *s, upk_batch *batch, json_t *response);
  void (*answer_dumped)(upk_server *s, upk_batch *batch, json_t *response,
                        const upk_json_member *m);
  void (*batch_hold)(upk_server *s, upk_batch *batch);
  void (*batch_release)(upk_server *s, upk_batch *batch);
  void (*job_done)(upk_server *s);
  void (*flush)(upk_server *s);
  uv_loop_t *(*loop)(const upk_server *s);
  const upk_options *(*options)(const upk_server *s);
  upk_state (*state)(const upk_server *s);
  upk_framing (*framing)(const upk_server *s);
  double (*uptime_ms)(const upk_server *s);
  uint64_t (*requests)(const upk_server *s);
  const char *(*workspace)(const upk_server *s);
  json_t *(*init_options)(const upk_server *s);
  json_t *(*client_info)(const upk_server *s);
  const char *(*mcp_version)(const upk_server *s);
  bool (*lens_refresh)(const upk_server *s);
  void (*set_log_level)(upk_server *s, int level);
  uv_timer_t *(*warm_timer)(upk_server *s);
  upk_defer_queue *(*defer)(upk_server *s);
  bool (*ready)(upk_server *s, const upk_session_hello *hello);
  upk_services *(*services)(const upk_server *s);
  struct upk_jobs *(*jobs)(const upk_server *s);
  struct upk_docs *(*docs)(const upk_server *s);
} upk_session_ops;

/** What every session begins with: `struct upk_server`'s first member, so session.c finds the
 * operations from the opaque pointer (as libuv's handles begin with their common fields). */
typedef struct upk_session_head {
  const upk_session_ops *ops;
} upk_session_head;

#endif
