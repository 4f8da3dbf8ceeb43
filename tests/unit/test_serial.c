/* daemon/core/serial.c: items run one at a time, in order, all on the queue's one thread (never
 * the loop's), each `done` on the loop after its work and never inside submit; no thread before
 * the first item; a close cancels the waiting items, lets the running one finish, joins the
 * thread and closes the handle before its callback; an idle queue keeps no loop running. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/core/serial.h"

static uv_loop_t loop;
static upk_defer_queue defer;
static upk_serial q;
static uv_thread_t loop_thread;

/* What each item saw, by its number. */
static uv_thread_t ran_on[64];
static atomic_int in_work, overlap, n_work;
static int done_order[64], done_status[64], n_done, closed;

static void work(void *arg) {
  int i = (int)(intptr_t)arg;
  if (atomic_fetch_add(&in_work, 1))
    atomic_store(&overlap, 1);
  ran_on[i] = uv_thread_self();
  usleep(i % 3 ? 200 : 2000);
  atomic_fetch_sub(&in_work, 1);
  atomic_fetch_add(&n_work, 1);
}

static void done(void *arg, int status) {
  cr_assert(uv_thread_equal(&loop_thread, &(uv_thread_t){uv_thread_self()}),
            "done ran off the loop's thread");
  done_order[n_done] = (int)(intptr_t)arg;
  done_status[n_done++] = status;
}

static void on_closed(uv_handle_t *h) {
  cr_assert_eq(h->data, &closed, "the close callback's handle lacks the caller's data");
  closed++;
}

static void start(void) {
  uv_loop_init(&loop);
  upk_defer_init(&loop, &defer);
  upk_serial_init(&q, &loop, &defer);
  loop_thread = uv_thread_self();
  n_done = closed = 0;
  atomic_store(&n_work, 0);
  atomic_store(&overlap, 0);
}

static void finish(void) {
  upk_defer_close(&defer);
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}

Test(serial, runs_in_order_on_one_thread_of_its_own) {
  start();
  for (intptr_t i = 0; i < 20; i++)
    cr_assert_eq(upk_serial_submit(&q, work, done, (void *)i), 0);
  cr_assert_eq(n_done, 0, "a done ran inside upk_serial_submit");
  cr_assert(upk_serial_busy(&q));
  uv_run(&loop, UV_RUN_DEFAULT); /* returns: a busy queue holds the loop, an idle one does not */
  cr_assert_eq(n_done, 20, "%d of 20 done", n_done);
  cr_assert(!atomic_load(&overlap), "two items ran at once");
  cr_assert(!upk_serial_busy(&q));
  for (int i = 0; i < 20; i++) {
    cr_assert_eq(done_order[i], i, "done %d out of order", i);
    cr_assert_eq(done_status[i], 0);
    cr_assert(uv_thread_equal(&ran_on[i], &ran_on[0]), "item %d ran on another thread", i);
  }
  cr_assert(!uv_thread_equal(&ran_on[0], &loop_thread), "the items ran on the loop's thread");
  cr_assert_eq(upk_serial_submit(&q, work, done, (void *)20), 0, "an idle queue refused an item");
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert(n_done == 21 && uv_thread_equal(&ran_on[20], &ran_on[0]),
            "a later item ran on another thread");
  upk_serial_close(&q, on_closed, &closed);
  cr_assert_eq(closed, 0, "the close callback ran inside upk_serial_close");
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(closed, 1);
  finish();
}

Test(serial, close_cancels_waiting_items_and_lets_the_running_one_finish) {
  start();
  for (intptr_t i = 0; i < 6; i++)
    upk_serial_submit(&q, work, done, (void *)i);
  upk_serial_close(&q, on_closed, &closed);
  cr_assert_eq(n_done, 5, "the five waiting items are not cancelled inside the close");
  for (int i = 0; i < 5; i++)
    cr_assert(done_order[i] == i + 1 && done_status[i] == UV_ECANCELED);
  cr_assert_eq(upk_serial_submit(&q, work, done, (void *)9), UV_ECANCELED,
               "a closed queue took an item");
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(n_done, 6);
  cr_assert(done_order[5] == 0 && done_status[5] == 0, "the running item did not finish");
  cr_assert_eq(atomic_load(&n_work), 1, "a cancelled item ran");
  cr_assert_eq(closed, 1, "the handle was not closed after the running item");
  finish();
}

Test(serial, a_queue_never_used_starts_no_thread_and_closes) {
  start();
  upk_serial_close(&q, on_closed, &closed);
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(closed, 1);
  cr_assert(!q.thread_on, "a thread started with no item");
  finish();
}
