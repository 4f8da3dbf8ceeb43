/* daemon/defer.c: deferred calls run from the loop after the deferring call has returned, in the
 * order they were made; a cancelled one never runs; nothing is left open on the loop. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "daemon/defer.h"

static uv_loop_t loop;
static int seq[8], n_seq;

static void record(void *arg) {
  seq[n_seq++] = (int)(intptr_t)arg;
}

static void close_loop(void) {
  uv_run(&loop, UV_RUN_DEFAULT);
  cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}

Test(defer, runs_later_in_order) {
  uv_loop_init(&loop);
  n_seq = 0;
  for (intptr_t i = 1; i <= 4; i++)
    upk_defer(&loop, record, (void *)i);
  cr_assert_eq(n_seq, 0, "a deferred call ran inside upk_defer");
  uv_run(&loop, UV_RUN_NOWAIT);
  cr_assert_eq(n_seq, 4, "not all ran at the next turn");
  for (int i = 0; i < 4; i++)
    cr_assert_eq(seq[i], i + 1, "call %d out of order", i);
  close_loop();
}

Test(defer, a_cancelled_call_never_runs) {
  uv_loop_init(&loop);
  n_seq = 0;
  upk_defer(&loop, record, (void *)1);
  upk_deferred *d = upk_defer(&loop, record, (void *)2);
  upk_defer(&loop, record, (void *)3);
  upk_defer_cancel(d);
  upk_defer_cancel(NULL);
  close_loop();
  cr_assert_eq(n_seq, 2);
  cr_assert_eq(seq[0], 1);
  cr_assert_eq(seq[1], 3);
}

static void defer_again(void *arg) {
  (void)arg;
  upk_defer(&loop, record, (void *)7);
  cr_assert_eq(n_seq, 0, "a call deferred from a deferred call ran inside it");
}

Test(defer, a_call_deferred_from_a_deferred_call_runs_after_it) {
  uv_loop_init(&loop);
  n_seq = 0;
  upk_defer(&loop, defer_again, NULL);
  close_loop();
  cr_assert_eq(n_seq, 1);
  cr_assert_eq(seq[0], 7);
}
