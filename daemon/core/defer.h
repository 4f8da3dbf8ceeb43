/** A call made from the loop, later: how an asynchronous API answers what it knows at once
 * (a cache hit, a refusal) without calling back from inside the call that started the work.
 *
 * libuv's rule, kept by every asynchronous API of the daemon: a callback never runs before the
 * starting call has returned, so a caller may store the handle it returns, and need not be
 * re-entrant. A deferred call runs at the loop's next timers phase, in the order the calls were
 * deferred, before that turn's output is flushed. Loop thread only.
 *
 * Nothing is allocated per call (as libuv's uv__io_feed): the caller keeps an upk_deferred in
 * the object the call is for, and a queue links them; the queue's one timer is due now while
 * anything waits. The session owns the daemon's queue (session.h, upk_session_defer). */
#ifndef UPK_DEFER_H
#define UPK_DEFER_H

#include <stdbool.h>
#include <uv.h>

typedef void (*upk_defer_cb)(void *arg);

/** One call to make later, held by the caller. Zeroed (or after its call started, or after a
 * cancel) it is idle; its fields are the queue's. */
typedef struct upk_deferred {
  struct upk_deferred *prev, *next; /* on a queue while pending, NULL when idle */
  upk_defer_cb cb;
  void *arg;
} upk_deferred;

/** The calls waiting on one loop. */
typedef struct upk_defer_queue {
  uv_timer_t timer;     /* due now while anything waits */
  upk_deferred pending; /* the head of a ring, in the order deferred */
  bool closed;
} upk_defer_queue;

/** Makes `q` an empty queue on `loop` (its timer is a handle of that loop). */
void upk_defer_init(uv_loop_t *loop, upk_defer_queue *q);
/** Drops the calls still waiting (they are never made; each is idle again) and closes the
 * timer: `q` must stay valid until the loop has run the close. A call deferred on it afterwards
 * is never made (its `d` stays idle). */
void upk_defer_close(upk_defer_queue *q);
/** Calls `cb(arg)` from the loop after the current callback has returned; deferred calls run
 * in the order they were made. `d` (held by the caller, idle or pending: a pending one moves
 * to the end) must stay valid until `cb` starts or the call is cancelled. */
void upk_defer(upk_defer_queue *q, upk_deferred *d, upk_defer_cb cb, void *arg);
/** Cancels a call that has not started: `cb` is not called. An idle `d`, or NULL, is fine. */
void upk_defer_cancel(upk_deferred *d);
/** True from upk_defer until the call starts or is cancelled. */
bool upk_defer_pending(const upk_deferred *d);

#endif
