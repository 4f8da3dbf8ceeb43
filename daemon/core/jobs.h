/** Jobs: one per request in flight.
 *
 * A job carries the request id, a cancel flag, and the face that started it
 * (upk_job_face): the face shapes the answer (plain JSON-RPC result, or an MCP
 * tool result) and speaks progress in its protocol (LSP `$/progress` or MCP
 * `notifications/progress`); jobs.c builds no protocol message itself. A
 * handler must finish every job exactly once with upk_job_reply or
 * upk_job_fail, now or later; after a cancellation those calls only release
 * the job.
 */
#ifndef UPK_JOBS_H
#define UPK_JOBS_H

#include <jansson.h>
#include <stdbool.h>

#include "common/map.h"
#include "protocol/binder.h"
#include "protocol/jsonrpc.h"
#include "daemon/core/session.h"

typedef struct upk_job upk_job;
typedef struct upk_method upk_method;
typedef void (*upk_job_cancel_cb)(upk_job *job);

/* One method as the table declares it (methods.c and the *_methods.c files); a job runs it. */
typedef void (*upk_handler)(upk_job *job, json_t *params);

enum {
  UPK_METHOD_TEST_ONLY = 1, /* listed and callable only with --test-methods */
  /* MCP tool annotations (issue 44: they say what a call may do at its worst, so a client
   * knows what to confirm). Each is emitted explicitly by upk_method_tool_json. */
  UPK_METHOD_READ_ONLY = 2,   /* readOnlyHint: changes nothing (the daemon's own caches aside) */
  UPK_METHOD_DESTRUCTIVE = 4, /* destructiveHint: may delete or overwrite, or run code that may */
  UPK_METHOD_IDEMPOTENT = 8,  /* idempotentHint: the same call again adds no further effect */
  UPK_METHOD_OPEN_WORLD = 16, /* openWorldHint: reaches beyond this machine (a model, a git host) */
  UPK_METHOD_NEEDS_MODEL = 32, /* a tool listed only when a model provider is configured */
};

struct upk_method {
  const char *name;
  const char *tool;
  const char *title;
  const char *description;
  const upk_param *params;
  upk_handler handler;
  unsigned flags;
  /* Tools: what a result holds (MCP outputSchema, tool_results.h), and the data a failure
   * carries where that differs (both are structuredContent that clients validate). */
  const upk_param *result;
  const upk_param *refusal;
  /* A parameter this tool does not take that another does: {name, what to call instead}. */
  const char *moved[2];
};

/** What the face that starts a job hands it (face_jobs.h has the faces' tables): how its
 * answers are shaped and how progress is spoken. */
typedef struct upk_job_face {
  bool as_tool; /* an MCP tool: answers are tool results, params take the tool defaults */
  /** The response to send for `result` (stolen, may be NULL). */
  json_t *(*reply)(const upk_job *job, json_t *result);
  /** The response to send for a failure of method `m` (`data` stolen, may be NULL). */
  json_t *(*fail)(const upk_method *m, json_t *id, int code, const char *msg, json_t *data);
  /** Report progress (the job has a token and is not cancelled). */
  void (*progress)(upk_job *job, double done, double total, const char *message);
  /** End the progress that began (`message` may be NULL). */
  void (*progress_end)(upk_job *job, const char *message);
} upk_job_face;

struct upk_job {
  upk_server *server;
  const upk_method *method;
  const upk_job_face *face;
  json_t *id;
  char key[UPK_RPC_KEY_MAX];
  json_t *progress_token; /* NULL when the client asked for none */
  upk_batch *batch;
  bool cancelled;
  bool progress_begun;
  double progress_last;
  upk_job_cancel_cb on_cancel;
  void *data; /* the handler's own state */
};

/** The requests in flight; the session embeds one (upk_session_jobs) and only jobs.c reads
 * its fields. */
typedef struct upk_jobs {
  upk_map inflight; /* id key (upk_rpc_id_key) -> upk_job, in the order they arrived */
  bool cancelling;  /* inside upk_jobs_cancel_all: the server does not settle yet */
} upk_jobs;

/** Start `method` for request `id` with `args`, answered the way `face` says; the handler runs
 * before this returns. `envelope` holds the request's params, where progress tokens live. */
void upk_job_start(upk_server *s, upk_batch *batch, const upk_method *method, json_t *id,
                   json_t *envelope, json_t *args, const upk_job_face *face);
/** Finish with a result (stolen). */
void upk_job_reply(upk_job *job, json_t *result);
/** upk_job_reply with a member of `result` dumped ahead (`m`, borrowed; NULL: none): the loop
 * thread splices its text into the response instead of dumping that value. */
void upk_job_reply_dumped(upk_job *job, json_t *result, const upk_json_member *m);
/** Finish with an error: a JSON-RPC error, or an isError tool result for MCP tools. */
void upk_job_fail(upk_job *job, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** Like upk_job_fail with `data` (stolen) in the JSON-RPC error, or in the
 * tool result's structuredContent for MCP tools. */
void upk_job_fail_data(upk_job *job, int code, json_t *data, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** Report progress: `done` of `total` (total <= 0: unknown), with an optional message. */
void upk_job_progress(upk_job *job, double done, double total, const char *message);
/** Register what to do when the client cancels (stop timers, kill workers). */
void upk_job_on_cancel(upk_job *job, upk_job_cancel_cb cb, void *data);

/** Cancel the request with this id: LSP answers -32800, MCP answers nothing. */
void upk_jobs_cancel(upk_server *s, json_t *id, bool answer);
/** Cancel everything in flight: `why` NULL answers nothing, else each request gets -32800
 * with `why` as its message (the server gave up on it: grace period over, exit). */
void upk_jobs_cancel_all(upk_server *s, const char *why);
/** Number of requests in flight. */
size_t upk_jobs_inflight(const upk_server *s);
/** The request in flight under id key `key` (upk_rpc_id_key), or NULL. */
upk_job *upk_jobs_find(const upk_server *s, const char *key);
/** Whether upk_jobs_cancel_all is running (a job it cancels may finish inside it). */
bool upk_jobs_cancelling(const upk_server *s);
/** Release the table (everything in flight has been cancelled). */
void upk_jobs_free(upk_server *s);

#endif
