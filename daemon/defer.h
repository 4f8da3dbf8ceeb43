/** A call made from the loop, later: how an asynchronous API answers what it knows at once
 * (a cache hit, a refusal) without calling back from inside the call that started the work.
 *
 * libuv's rule, kept by every asynchronous API of the daemon: a callback never runs before the
 * starting call has returned, so a caller may store the handle it returns, and need not be
 * re-entrant. A deferred call runs at the loop's next timers phase (a timer due now), in the
 * order the calls were deferred, before that turn's output is flushed. Loop thread only. */
#ifndef UPK_DEFER_H
#define UPK_DEFER_H

#include <uv.h>

typedef struct upk_deferred upk_deferred;
typedef void (*upk_defer_cb)(void *arg);

/** Calls `cb(arg)` from `loop`, after the current callback has returned; deferred calls run in
 * the order they were made. Returns the pending call, valid until `cb` starts (forget it
 * there) or until cancelled. Never NULL (aborts when out of memory). */
upk_deferred *upk_defer(uv_loop_t *loop, upk_defer_cb cb, void *arg);
/** Cancels a call that has not started: `cb` is not called. NULL is fine. */
void upk_defer_cancel(upk_deferred *d);

#endif
