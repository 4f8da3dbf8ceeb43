/* daemon/core/defer.c: deferred calls run from the loop after the deferring call has returned, in
 * the order they were made; a cancelled one never runs; the queue holds one handle however many
 * calls wait (nothing per call); a closed queue makes no call and leaves nothing open. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "daemon/core/defer.h"

static uv_loop_t loop;
static upk_defer_queue q;
static int seq[2048], n_seq;

static void record(void *arg) {
  seq[n_seq++] = (int)(intptr_t)arg;
}

static void start(void) {
  uv_loop_init(&loop);
  upk_defer_init(&loop, &q);
  n_seq = 0;
}

static void close_loop(void) {
  uv_run(&loop, UV_RUN_DEFAULT);
  upk_defer_close(&q);
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}

Test(defer, runs_later_in_order) {
  upk_deferred d[4] = {0};
  start();
  for (intptr_t i = 1; i <= 4; i++)
    upk_defer(&q, &d[i - 1], record, (void *)i);
  cr_assert_eq(n_seq, 0, "a deferred call ran inside upk_defer");
  cr_assert(upk_defer_pending(&d[0]) && upk_defer_pending(&d[3]));
  uv_run(&loop, UV_RUN_NOWAIT);
  cr_assert_eq(n_seq, 4, "not all ran at the next turn");
  for (int i = 0; i < 4; i++)
    cr_assert_eq(seq[i], i + 1, "call %d out of order", i);
  cr_assert(!upk_defer_pending(&d[0]) && !upk_defer_pending(&d[3]), "a call made is still pending");
  close_loop();
}

static void count_handle(uv_handle_t *h, void *arg) {
  (*(int *)arg)++;
}

Test(defer, many_calls_hold_one_handle) {
  static upk_deferred d[2000];
  start();
  for (intptr_t i = 0; i < 2000; i++)
    upk_defer(&q, &d[i], record, (void *)i);
  int handles = 0;
  uv_walk(&loop, count_handle, &handles);
  cr_assert_eq(handles, 1, "%d handles for 2000 deferred calls (one timer each?)", handles);
  uv_run(&loop, UV_RUN_NOWAIT);
  cr_assert_eq(n_seq, 2000);
  for (int i = 0; i < 2000; i++)
    cr_assert_eq(seq[i], i, "call %d out of order", i);
  close_loop();
}

Test(defer, a_cancelled_call_never_runs) {
  upk_deferred d[3] = {0}, idle = {0};
  start();
  upk_defer(&q, &d[0], record, (void *)1);
  upk_defer(&q, &d[1], record, (void *)2);
  upk_defer(&q, &d[2], record, (void *)3);
  upk_defer_cancel(&d[1]);
  upk_defer_cancel(&d[1]); /* twice: idle by then */
  upk_defer_cancel(&idle);
  upk_defer_cancel(NULL);
  cr_assert(!upk_defer_pending(&d[1]));
  close_loop();
  cr_assert_eq(n_seq, 2);
  cr_assert_eq(seq[0], 1);
  cr_assert_eq(seq[1], 3);
}

/* A call that frees its neighbour's object, as a job finishing cancels another's check. */
typedef struct victim {
  upk_deferred d;
  int id;
} victim;
static victim *later;

static void cancel_later(void *arg) {
  record(arg);
  upk_defer_cancel(&later->d);
  free(later);
  later = NULL;
}

Test(defer, a_call_cancelled_by_an_earlier_call_of_the_same_turn_never_runs) {
  upk_deferred first = {0};
  start();
  later = calloc(1, sizeof *later);
  upk_defer(&q, &first, cancel_later, (void *)1);
  upk_defer(&q, &later->d, record, (void *)2);
  close_loop();
  cr_assert_eq(n_seq, 1, "the cancelled call ran (or a freed one: ASan says which)");
  cr_assert_eq(seq[0], 1);
}

Test(defer, all_cancelled_before_the_turn) {
  upk_deferred d = {0};
  start();
  upk_defer(&q, &d, record, (void *)1);
  upk_defer_cancel(&d);
  close_loop();
  cr_assert_eq(n_seq, 0);
}

static upk_deferred again_d, inner_d;

static void defer_again(void *arg) {
  upk_defer(&q, &inner_d, record, (void *)7);
  cr_assert_eq(n_seq, 0, "a call deferred from a deferred call ran inside it");
}

Test(defer, a_call_deferred_from_a_deferred_call_runs_after_it) {
  start();
  upk_defer(&q, &again_d, defer_again, NULL);
  close_loop();
  cr_assert_eq(n_seq, 1);
  cr_assert_eq(seq[0], 7);
}

static void defer_self(void *arg) {
  record(arg);
  if (n_seq < 3)
    upk_defer(&q, &again_d, defer_self, (void *)(intptr_t)(n_seq + 10));
}

Test(defer, a_call_defers_itself_again) {
  start();
  upk_defer(&q, &again_d, defer_self, (void *)10);
  close_loop();
  cr_assert_eq(n_seq, 3);
  cr_assert(seq[0] == 10 && seq[1] == 11 && seq[2] == 12);
}

Test(defer, deferring_a_pending_call_again_moves_it_to_the_end) {
  upk_deferred a = {0}, b = {0};
  start();
  upk_defer(&q, &a, record, (void *)1);
  upk_defer(&q, &b, record, (void *)2);
  upk_defer(&q, &a, record, (void *)3);
  close_loop();
  cr_assert_eq(n_seq, 2);
  cr_assert(seq[0] == 2 && seq[1] == 3, "ran %d, %d", seq[0], seq[1]);
}

Test(defer, a_closed_queue_makes_no_call) {
  upk_deferred a = {0}, b = {0};
  start();
  upk_defer(&q, &a, record, (void *)1);
  upk_defer_close(&q);
  cr_assert(!upk_defer_pending(&a), "a dropped call is still pending");
  upk_defer(&q, &b, record, (void *)2);
  cr_assert(!upk_defer_pending(&b), "a call deferred on a closed queue is pending");
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(n_seq, 0);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}
