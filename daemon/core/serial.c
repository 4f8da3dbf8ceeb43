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

void upk_serial_init(upk_serial *q, uv_loop_t *loop, upk_defer_queue *defer) {
  q->loop = loop;
  q->defer = defer;
  q->refusal = (upk_deferred){0};
  q->head = q->tail = NULL;
  q->running = q->closed = false;
  q->req.data = q;
}

static void run_cb(uv_work_t *req) {
  upk_serial *q = req->data;
  q->head->work(q->head->arg);
}

static void after_cb(uv_work_t *req, int status) {
  upk_serial *q = req->data;
  upk_serial_item *it = q->head;
  q->head = it->next;
  if (!q->head)
    q->tail = NULL;
  q->running = false;
  serial__next(q);
  /* Last: `done` may free the queue's owner once the queue is idle. */
  upk_serial_done done = it->done;
  void *arg = it->arg;
  free(it);
  done(arg, status);
}

static void refused(void *arg) {
  upk_serial *q = arg;
  after_cb(&q->req, UV_ECANCELED);
}

static void serial__next(upk_serial *q) {
  if (q->running || !q->head)
    return;
  q->running = true;
  if (uv_queue_work(q->loop, &q->req, run_cb, after_cb) != 0) /* not with a valid loop */
    upk_defer(q->defer, &q->refusal, refused, q); /* keeps the chain moving, from the loop */
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

void upk_serial_close(upk_serial *q) {
  q->closed = true;
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
}

bool upk_serial_busy(const upk_serial *q) {
  return q->head != NULL;
}
