/** A skills request's trip to the skills queue (skills_methods.c, skills_ext.c): the handler
 * parses params on the loop, a `upk_call_fn` runs on the queue with the index (index.h,
 * install.h and validate.h block and are not thread-safe), and the job is answered from the
 * loop with what the function left in the call: a result, or an error. */
#ifndef UPK_SKILLS_CALL_H
#define UPK_SKILLS_CALL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "skills/index.h"
#include "daemon/core/jobs.h"

typedef struct upk_call upk_call;
typedef void (*upk_call_fn)(upk_call *c, upk_index *ix);
/** Work that waits on the network or a child: runs on a thread of its own, beside the queue.
 * `cancel_fd` becomes readable when the client cancels (stop the child then). */
typedef void (*upk_call_wait_fn)(upk_call *c, int cancel_fd);
typedef struct upk_call_aside upk_call_aside;

struct upk_call {
  upk_job *job;
  upk_server *server;
  json_t *params;
  upk_call_fn fn;
  json_t *result;        /* success */
  upk_json_member ahead; /* a member of result dumped on the queue (text NULL: none) */
  int code;              /* failure: JSON-RPC code, message and optional data */
  char err[512];
  json_t *data;
  uint64_t wait_until;        /* hrtime until which it waits for the first scan (0: no wait) */
  bool parked;                /* ran while the first scan was under way: ask again after a batch */
  bool holds;                 /* parked, it holds the settling work back again (upk_skills_hold) */
  size_t done, total;         /* the first scan's progress when parked */
  void *state;                /* the function's own, kept across upk_call_then */
  void (*state_free)(void *); /* frees state when the call ends (may be NULL) */
  upk_call_wait_fn wait;      /* set by upk_call_then: runs beside the queue next */
  upk_call_fn next;           /* ... and then this, on the queue */
  upk_call_aside *aside;      /* while `wait` runs */
};

/** Leave an error in the call (`data` stolen, may be NULL). */
void upk_call_fail(upk_call *c, int code, json_t *data, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** A string param (NULL when absent). */
const char *upk_call_str(const upk_call *c, const char *key);
/** Queue `fn` for this job; everything it needs is in params (kept alive here). */
void upk_call_start(upk_job *job, json_t *params, upk_call_fn fn);
/** The same, waiting up to `wait_ms` for the first scan: `fn` calls upk_call_wait_scan. */
void upk_call_start_waiting(upk_job *job, json_t *params, upk_call_fn fn, json_int_t wait_ms);
/** In `fn`: true when the first scan is still under way and the call may wait for it; `fn`
 * then returns at once and runs again after the next batch of the scan. */
bool upk_call_wait_scan(upk_call *c, upk_index *ix);
/** In `fn`, as its last act: once `fn` returns, run `wait` on a thread of its own beside the
 * queue (nothing that waits on the network or a child may hold the queue: every other skills
 * request would wait behind it), then `next` on the queue. A cancel of the job makes
 * `cancel_fd` readable for `wait`; `next` does not run after a cancel. Keep what the steps
 * share in c->state. */
void upk_call_then(upk_call *c, upk_call_wait_fn wait, upk_call_fn next);
/** In `fn`: false (with the error left in the call) when the index could not be opened. */
bool upk_call_need_index(upk_call *c, upk_index *ix);
/** A path from a client: relative ones are relative to the workspace (malloc'd). */
char *upk_call_path(const upk_call *c, const char *p);

#endif
