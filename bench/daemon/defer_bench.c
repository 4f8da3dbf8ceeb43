/* upk_defer against what it replaced (issue 48): N calls deferred in one loop turn and run at
 * the next, by the session's queue (daemon/core/defer.c: the caller holds the upk_deferred, one
 * timer for all) and, as the reference in the same run, one malloc, uv_timer and uv_close per call
 * (the old defer.c, rebuilt here). Prints each one's time per call and their ratio.
 * Usage: defer_bench [N] [ROUNDS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#include "common/xalloc.h"
#include "daemon/core/defer.h"

static size_t ran;

static void count(void *arg) {
  ran++;
}

/* The reference: a timer due now per call, closed (and freed) when it has run. */
typedef struct old_call {
  uv_timer_t timer;
  void (*cb)(void *);
  void *arg;
} old_call;

static void old_closed(uv_handle_t *h) {
  free(h->data);
}

static void old_due(uv_timer_t *t) {
  old_call *c = t->data;
  uv_close((uv_handle_t *)&c->timer, old_closed);
  c->cb(c->arg);
}

static void old_defer(uv_loop_t *loop, void (*cb)(void *), void *arg) {
  old_call *c = upk_xmalloc(sizeof *c);
  c->cb = cb;
  c->arg = arg;
  uv_timer_init(loop, &c->timer);
  c->timer.data = c;
  uv_timer_start(&c->timer, old_due, 0, 0);
}

static double round_old(size_t n) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  uint64_t t0 = uv_hrtime();
  for (size_t i = 0; i < n; i++)
    old_defer(&loop, count, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  uint64_t t1 = uv_hrtime();
  uv_loop_close(&loop);
  return (double)(t1 - t0);
}

static double round_new(size_t n, upk_deferred *d) {
  uv_loop_t loop;
  upk_defer_queue q;
  uv_loop_init(&loop);
  upk_defer_init(&loop, &q);
  uint64_t t0 = uv_hrtime();
  for (size_t i = 0; i < n; i++)
    upk_defer(&q, &d[i], count, NULL);
  uv_run(&loop, UV_RUN_NOWAIT);
  uint64_t t1 = uv_hrtime();
  upk_defer_close(&q);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return (double)(t1 - t0);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
  int rounds = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
  if (!n || rounds < 1)
    return fprintf(stderr, "usage: defer_bench [N>0] [ROUNDS>0]\n"), 2;
  upk_deferred *d = upk_xcalloc(n, sizeof *d);
  double best_old = 0, best_new = 0;
  for (int r = 0; r < rounds; r++) { /* interleaved, best of each: the machine is shared */
    double o = round_old(n), w = round_new(n, d);
    best_old = r == 0 || o < best_old ? o : best_old;
    best_new = r == 0 || w < best_new ? w : best_new;
  }
  free(d);
  if (ran != 2 * n * (size_t)rounds)
    return fprintf(stderr, "defer_bench: %zu calls ran, %zu expected\n", ran, 2 * n * rounds), 1;
  printf("%zu deferred calls in one turn, best of %d rounds\n", n, rounds);
  printf("  timer + malloc + close per call (reference): %8.1f ns/call\n", best_old / n);
  printf("  upk_defer (one queue, caller-held node):     %8.1f ns/call\n", best_new / n);
  printf("  ratio: %.1fx\n", best_old / best_new);
  return 0;
}
