/** A serial work queue on a thread of its own: items run off the loop, one at a time, in
 * submission order, always on the same thread. For state that must be used by one thread at a
 * time (the SQLite skill index) without blocking the loop.
 *
 * Why not libuv's thread pool: its four threads take turns, so each item met a thread whose
 * caches, malloc arena and CPU were cold for the index; on the same thread a lookup at 10,000
 * skills took 0.85 ms instead of 0.92 (bench/skills/results/regress-2026-11-29.md). The thread
 * starts with the first item, so a daemon that never queues one has none. */
#ifndef UPK_SERIAL_H
#define UPK_SERIAL_H

#include <stdbool.h>
#include <uv.h>

#include "daemon/core/defer.h"

typedef struct upk_serial_item upk_serial_item;
/** Runs on the queue's thread. */
typedef void (*upk_serial_work)(void *arg);
/** Runs on the loop thread afterwards, never from inside upk_serial_submit; `status` is 0, or
 * UV_ECANCELED when the queue was closed before the item ran (or its thread could not start). */
typedef void (*upk_serial_done)(void *arg, int status);

typedef struct upk_serial {
  upk_defer_queue *defer; /* a refused item's done is called from there */
  upk_deferred refusal;
  upk_serial_item *head, *tail; /* the running item first, then the waiting ones */
  bool running, closed;
  /* The thread and how items pass: `given` and `ran` under `mu`, `async` wakes the loop. */
  uv_thread_t thread;
  bool thread_on; /* started (joined at close) */
  uv_mutex_t mu;
  uv_cond_t cv;
  uv_async_t async; /* referenced only while an item runs: an idle queue keeps no loop alive */
  upk_serial_item *given;
  bool ran, stop;
  uv_close_cb on_closed;
  void *closed_data;
} upk_serial;

/** An empty queue on `loop`; `defer` (the session's) makes calls the thread refused. */
void upk_serial_init(upk_serial *q, uv_loop_t *loop, upk_defer_queue *defer);
/** Queue an item; `done` is called from the loop, never from inside this call. Returns 0, or
 * UV_ECANCELED (queue closed): then `done` is never called. */
int upk_serial_submit(upk_serial *q, upk_serial_work work, upk_serial_done done, void *arg);
/** Refuse new items and cancel queued ones (their done gets UV_ECANCELED, inside this call: a
 * stop, as upk_wreq_cancel); the running one finishes normally. Then the thread is joined and
 * the queue's handle closed: `closed` is its close callback, called from the loop with the
 * handle's data set to `data`. Only after it may `q` go. */
void upk_serial_close(upk_serial *q, uv_close_cb closed, void *data);
/** True while an item runs or waits. */
bool upk_serial_busy(const upk_serial *q);

#endif
