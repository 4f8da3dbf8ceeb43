/** A serial work queue on libuv's thread pool: items run off the loop, one
 * at a time, in submission order. For state that must be used by one thread
 * at a time (the SQLite skill index) without blocking the loop. */
#ifndef UPK_SERIAL_H
#define UPK_SERIAL_H

#include <stdbool.h>
#include <uv.h>

#include "daemon/core/defer.h"

typedef struct upk_serial_item upk_serial_item;
/** Runs on a pool thread. */
typedef void (*upk_serial_work)(void *arg);
/** Runs on the loop thread afterwards, never from inside upk_serial_submit; `status` is 0, or
 * UV_ECANCELED when the queue was closed before the item ran. */
typedef void (*upk_serial_done)(void *arg, int status);

typedef struct upk_serial {
  uv_loop_t *loop;
  upk_defer_queue *defer; /* a refused item's done is called from there */
  upk_deferred refusal;
  upk_serial_item *head, *tail;
  bool running, closed;
  uv_work_t req;
} upk_serial;

/** An empty queue on `loop`; `defer` (the session's) makes calls the pool refused. */
void upk_serial_init(upk_serial *q, uv_loop_t *loop, upk_defer_queue *defer);
/** Queue an item; `done` is called from the loop, never from inside this call. Returns 0, or
 * UV_ECANCELED (queue closed): then `done` is never called. */
int upk_serial_submit(upk_serial *q, upk_serial_work work, upk_serial_done done, void *arg);
/** Refuse new items and cancel queued ones (their done gets UV_ECANCELED, inside this call: a
 * stop, as upk_wreq_cancel); the running one finishes normally. */
void upk_serial_close(upk_serial *q);
/** True while an item runs or waits. */
bool upk_serial_busy(const upk_serial *q);

#endif
