/** The worker pool: `upskilld-worker` processes kept warm, talking JSON lines
 * over pipes, or over a socket to the worker server (one request at a time per worker).
 *
 * Requests queue until a worker is free; at most `max_workers` run at once
 * (bounded by cores). A worker that crashes, writes something that is not a
 * reply, or passes a request's deadline is killed (SIGKILL) and replaced; its
 * request is answered with a status saying which. Cancelling a running
 * request kills its worker too: that is the only way to stop a compile.
 * Through a worker command (srun ...) the kill is SIGTERM, then SIGTERM again
 * and SIGKILL while the command lives on (docs/daemon.md, "Stopping workers").
 * Loop thread only.
 */
#ifndef UPK_WORKERS_H
#define UPK_WORKERS_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

typedef struct upk_workers upk_workers;
typedef struct upk_wreq upk_wreq;

typedef struct upk_workers_config {
  const char *worker_path; /* the upskilld-worker executable */
  const char *const
      *prefix; /* argv run before it (e.g. {"srun","--gres=gpu:1",NULL}); NULL: none */
  const char *const *extra_env; /* "K=V" added to the worker's environment; NULL: none */
  int max_workers;              /* concurrency; <= 0: number of cores (at most 8) */
  int warm;                     /* workers started at init and kept alive (0 or 1 is sensible) */
  unsigned timeout_ms;          /* default deadline per request (60000) */
  /* The worker server's socket (worker_server.h): workers come from it when it answers, and a
   * missing one is launched. NULL, or with a prefix or extra_env: local workers only. */
  const char *server_path;
  unsigned server_idle_s; /* the idle timeout given to a server this pool launches */
} upk_workers_config;

/** Called once per request on the loop thread. status: 0 with `result` (borrowed;
 * json_incref to keep), or UV_ETIMEDOUT (killed at the deadline), UV_ECANCELED,
 * UV_EPIPE (the worker died: `error` says how, e.g. "killed by signal 11"),
 * UV_EPROTO (it wrote something that is not a reply), UV_ENOENT (cannot be
 * started), UV_EAGAIN (a worker command such as srun had not started the worker by the
 * deadline: `error` says so), or UV_EINVAL with `error` (the worker answered an error). */
typedef void (*upk_wreq_cb)(void *arg, int status, json_t *result, const char *error);

int upk_workers_init(upk_workers **out, uv_loop_t *loop, const upk_workers_config *cfg);
/** Queue `op` with `params` (stolen). timeout_ms 0: the default. The callback is called from
 * the loop, never from inside this call. Returns the request (valid until its callback) or
 * NULL when out of memory or closed (then the callback is never called). */
upk_wreq *upk_workers_submit(upk_workers *w, const char *op, json_t *params, unsigned timeout_ms,
                             upk_wreq_cb cb, void *arg);
/** Cancel: a queued request is dropped, a running one's worker is killed; the
 * callback runs with UV_ECANCELED before this returns. */
void upk_wreq_cancel(upk_wreq *r);

typedef struct upk_workers_stats {
  int running, idle, queued;
  unsigned long started, killed, crashed; /* processes over the pool's life */
  unsigned long from_server;              /* workers taken from the worker server */
  const char *server_path;                /* its socket (borrowed), or NULL: not used */
} upk_workers_stats;
void upk_workers_stats_get(const upk_workers *w, upk_workers_stats *st);

/** Kill every worker, fail queued and running requests with UV_ECANCELED,
 * close all handles; `done` runs once everything is closed. */
void upk_workers_close(upk_workers *w, void (*done)(void *arg), void *arg);

#endif
