/* Deferred calls (defer.h): one timer due now per call. libuv runs timers due at the same time
 * in the order they were started, so deferred calls keep their order; the timers phase comes
 * before the idle phase that flushes output, so what a deferred call answers leaves in the
 * same loop turn. */
#include "daemon/defer.h"

#include <stdlib.h>

#include "common/xalloc.h"

struct upk_deferred {
  uv_timer_t timer;
  upk_defer_cb cb;
  void *arg;
};

static void on_closed(uv_handle_t *h) {
  free(h->data);
}

static void on_due(uv_timer_t *t) {
  upk_deferred *d = t->data;
  upk_defer_cb cb = d->cb;
  void *arg = d->arg;
  uv_close((uv_handle_t *)&d->timer, on_closed); /* the handle is the caller's no more */
  cb(arg);
}

upk_deferred *upk_defer(uv_loop_t *loop, upk_defer_cb cb, void *arg) {
  upk_deferred *d = upk_xmalloc(sizeof *d);
  d->cb = cb;
  d->arg = arg;
  uv_timer_init(loop, &d->timer);
  d->timer.data = d;
  uv_timer_start(&d->timer, on_due, 0, 0);
  return d;
}

void upk_defer_cancel(upk_deferred *d) {
  if (d)
    uv_close((uv_handle_t *)&d->timer, on_closed); /* closing stops it: on_due never runs */
}
