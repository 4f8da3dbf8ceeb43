/* Deferred calls (defer.h): an intrusive ring drained by one timer due now. libuv runs the
 * timers phase before the idle phase that flushes output, so what a deferred call answers leaves
 * in the same loop turn, as with a timer per call; a call deferred while the queue drains waits
 * for the timer's next run, as a timer started from a timer callback did. */
#include "daemon/core/defer.h"

#include <stddef.h>

static void unlink_call(upk_deferred *d) {
  d->prev->next = d->next;
  d->next->prev = d->prev;
  d->prev = d->next = NULL;
}

static bool ring_empty(const upk_deferred *head) {
  return head->next == head;
}

/* Runs the calls waiting when the timer fired, in order. They move to a ring of their own
 * first: one a callback defers joins the queue for the next run; one a callback cancels leaves
 * this ring and is never made. */
static void on_due(uv_timer_t *t) {
  upk_defer_queue *q = t->data;
  if (ring_empty(&q->pending)) /* all cancelled since the timer started */
    return;
  upk_deferred now = {q->pending.prev, q->pending.next, NULL, NULL};
  now.next->prev = now.prev->next = &now;
  q->pending.next = q->pending.prev = &q->pending;
  while (!ring_empty(&now)) {
    upk_deferred *d = now.next;
    upk_defer_cb cb = d->cb;
    void *arg = d->arg;
    unlink_call(d); /* idle before its call: the callback may free it, or defer it again */
    cb(arg);
  }
}

void upk_defer_init(uv_loop_t *loop, upk_defer_queue *q) {
  uv_timer_init(loop, &q->timer);
  q->timer.data = q;
  q->pending.next = q->pending.prev = &q->pending;
  q->closed = false;
}

void upk_defer_close(upk_defer_queue *q) {
  while (!ring_empty(&q->pending))
    unlink_call(q->pending.next);
  q->closed = true;
  uv_close((uv_handle_t *)&q->timer, NULL); /* closing stops it */
}

void upk_defer(upk_defer_queue *q, upk_deferred *d, upk_defer_cb cb, void *arg) {
  upk_defer_cancel(d);
  if (q->closed) /* the session is closing: nothing runs any more */
    return;
  d->cb = cb;
  d->arg = arg;
  d->prev = q->pending.prev;
  d->next = &q->pending;
  d->prev->next = d->next->prev = d;
  if (!uv_is_active((uv_handle_t *)&q->timer))
    uv_timer_start(&q->timer, on_due, 0, 0);
}

void upk_defer_cancel(upk_deferred *d) {
  if (d && d->next)
    unlink_call(d);
}

bool upk_defer_pending(const upk_deferred *d) {
  return d->next != NULL;
}
