/** Independent jobs 0..n-1 run on a few threads, the caller's among them: each thread takes
 * the next job not yet taken (a long job beside short ones does not hold the rest back), and
 * the call returns when all are done. For CPU work on a thread that may block (a queue's, a
 * worker's), not on an event loop. */
#ifndef UPK_COMMON_FANOUT_H
#define UPK_COMMON_FANOUT_H

#include <stddef.h>

/** Threads upk_fan_out starts at most, the caller's included. */
#define UPK_FANOUT_MAX 8

/** Run fn(arg, i) once for each i in [0, n), on up to `threads` threads (0: one a core; never
 * more than UPK_FANOUT_MAX or n), in no set order. Threads that cannot start leave their share
 * to the others; with none, the caller runs every job. fn must be safe to run concurrently. */
void upk_fan_out(size_t n, unsigned threads, void (*fn)(void *arg, size_t i), void *arg);

#endif
