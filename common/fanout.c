/* Jobs on a few threads (fanout.h). */
#include "common/fanout.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct fanout {
  void (*fn)(void *, size_t);
  void *arg;
  size_t n;
  atomic_size_t next;
} fanout;

static void *take(void *p) {
  fanout *f = p;
  size_t i;
  while ((i = atomic_fetch_add(&f->next, 1)) < f->n)
    f->fn(f->arg, i);
  return NULL;
}

void upk_fan_out(size_t n, unsigned threads, void (*fn)(void *arg, size_t i), void *arg) {
  fanout f = {.fn = fn, .arg = arg, .n = n};
  atomic_init(&f.next, 0);
  if (!threads) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores > 0 ? (unsigned)cores : 1;
  }
  if (threads > UPK_FANOUT_MAX)
    threads = UPK_FANOUT_MAX;
  if (threads > n)
    threads = (unsigned)n;
  pthread_t tid[UPK_FANOUT_MAX];
  unsigned started = 0;
  while (started + 1 < threads && pthread_create(&tid[started], NULL, take, &f) == 0)
    started++;
  take(&f); /* the caller works too */
  for (unsigned t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
}
