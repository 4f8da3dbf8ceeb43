/* common/fanout.c: every job runs exactly once, on more than one thread when asked, whatever
 * the count of jobs against the count of threads. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "common/fanout.h"

typedef struct {
  atomic_int *runs;
  pthread_t *by;
} seen;

static void count(void *arg, size_t i) {
  seen *s = arg;
  atomic_fetch_add(&s->runs[i], 1);
  s->by[i] = pthread_self();
  struct timespec pause = {0, 200000}; /* long enough that one thread cannot take them all */
  nanosleep(&pause, NULL);
}

static size_t threads_used(const pthread_t *by, size_t n) {
  size_t used = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < i && !pthread_equal(by[k], by[i]))
      k++;
    used += k == i;
  }
  return used;
}

Test(fanout, each_job_once_on_several_threads) {
  static const struct {
    size_t n;
    unsigned threads;
  } cases[] = {{0, 4}, {1, 4}, {3, 8}, {100, 4}, {100, 0}, {64, 1}, {50, 100}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    size_t n = cases[c].n;
    seen s = {calloc(n + 1, sizeof *s.runs), calloc(n + 1, sizeof *s.by)};
    upk_fan_out(n, cases[c].threads, count, &s);
    for (size_t i = 0; i < n; i++)
      cr_assert_eq(atomic_load(&s.runs[i]), 1, "case %zu: job %zu ran %d times", c, i,
                   atomic_load(&s.runs[i]));
    size_t used = threads_used(s.by, n);
    cr_assert_leq(used, UPK_FANOUT_MAX, "case %zu", c);
    if (cases[c].threads == 1 || n <= 1)
      cr_assert_leq(used, 1, "case %zu: %zu threads", c, used);
    else if (cases[c].threads >= 4 && n >= 50)
      cr_assert_geq(used, 2, "case %zu: one thread took every job", c);
    free(s.runs);
    free(s.by);
  }
}
