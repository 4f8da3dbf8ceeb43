#include "daemon/core/serial.h"

#include <stdlib.h>

#include "common/xalloc.h"
#include "daemon/core/defer.h"

struct upk_serial_item {
  upk_serial_item *next;
  upk_serial_work work;
  upk_serial_done done;
  void *arg;
};

static void serial__next(upk_serial *q);
static void on_ran(uv_async_t *a);

void upk_serial_init(upk_serial *q, uv_loop_t *loop, upk_defer_queue *defer) {
  *q = (upk_serial){.defer = defer};
  uv_mutex_init(&q->mu);
  uv_cond_init(&q->cv);
  uv_async_init(loop, &q->async, on_ran);
  q->async.data = q;
  uv_unref((uv_handle_t *)&q->async);
}

/* The queue's thread: each item given, run, then handed back to the loop (on_ran). */
static void thread_main(void *arg) {
  upk_serial *q = arg;
  uv_mutex_lock(&q->mu);
  for (;;) {
    while (!q->given && !q->stop)
      uv_cond_wait(&q->cv, &q->mu);
    if (q->stop)
      break;
    upk_serial_item *it = q->given;
    uv_mutex_unlock(&q->mu);
    it->work(it->arg);
    uv_mutex_lock(&q->mu);
    q->given = NULL;
    q->ran = true;
    uv_async_send(&q->async);
  }
  uv_mutex_unlock(&q->mu);
}

static void closed_cb(uv_handle_t *h) {
  upk_serial *q = h->data;
  uv_cond_destroy(&q->cv);
  uv_mutex_destroy(&q->mu);
  h->data = q->closed_data;
  q->on_closed(h);
}

/* A closed queue with nothing left to run: the thread (idle) returns, the handle closes. */
static void release(upk_serial *q) {
  if (q->thread_on) {
    uv_mutex_lock(&q->mu);
    q->stop = true;
    uv_cond_signal(&q->cv);
    uv_mutex_unlock(&q->mu);
    uv_thread_join(&q->thread);
    q->thread_on = false;
  }
  uv_close((uv_handle_t *)&q->async, closed_cb);
}

static void finish(upk_serial *q, int status) {
  upk_serial_item *it = q->head;
  q->head = it->next;
  if (!q->head)
    q->tail = NULL;
  q->running = false;
  serial__next(q);
  if (!q->running)
    uv_unref((uv_handle_t *)&q->async);
  if (q->closed && !q->head)
    release(q); /* before `done`: q stays valid until closed_cb */
  upk_serial_done done = it->done;
  void *arg = it->arg;
  free(it);
  done(arg, status);
}

static void on_ran(uv_async_t *a) {
  upk_serial *q = a->data;
  uv_mutex_lock(&q->mu);
  bool ran = q->ran;
  q->ran = false;
  uv_mutex_unlock(&q->mu);
  if (ran)
    finish(q, 0);
}

static void refused(void *arg) {
  finish(arg, UV_ECANCELED);
}

static void serial__next(upk_serial *q) {
  if (q->running || !q->head)
    return;
  q->running = true;
  uv_ref((uv_handle_t *)&q->async);
  if (!q->thread_on && uv_thread_create(&q->thread, thread_main, q) != 0) {
    upk_defer(q->defer, &q->refusal, refused, q); /* keeps the chain moving, from the loop */
    return;
  }
  q->thread_on = true;
  uv_mutex_lock(&q->mu);
  q->given = q->head;
  uv_cond_signal(&q->cv);
  uv_mutex_unlock(&q->mu);
}

int upk_serial_submit(upk_serial *q, upk_serial_work work, upk_serial_done done, void *arg) {
  if (q->closed)
    return UV_ECANCELED;
  upk_serial_item *it = upk_xcalloc(1, sizeof *it);
  it->work = work;
  it->done = done;
  it->arg = arg;
  if (q->tail)
    q->tail->next = it;
  else
    q->head = it;
  q->tail = it;
  serial__next(q);
  return 0;
}

void upk_serial_close(upk_serial *q, uv_close_cb closed, void *data) {
  q->closed = true;
  q->on_closed = closed;
  q->closed_data = data;
  /* Everything behind the running item is cancelled now. */
  upk_serial_item *keep = q->running ? q->head : NULL;
  upk_serial_item *it = keep ? keep->next : q->head;
  if (keep) {
    keep->next = NULL;
    q->tail = keep;
  } else {
    q->head = q->tail = NULL;
  }
  while (it) {
    upk_serial_item *next = it->next;
    it->done(it->arg, UV_ECANCELED);
    free(it);
    it = next;
  }
  if (!keep)
    release(q); /* else once the running item is done (finish) */
}

bool upk_serial_busy(const upk_serial *q) {
  return q->head != NULL;
}
