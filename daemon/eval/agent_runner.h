/** One agent CLI run on the loop (skills/eval/agent.h): the run's directory
 * prepared on the thread pool, the agent spawned in its own process group
 * with stdout and stderr into files, killed (the whole group) at its
 * timeout, its output read and its workspace inspected on the thread pool,
 * then `cb` on the loop. Loop thread only.
 */
#ifndef UPK_AGENT_RUNNER_H
#define UPK_AGENT_RUNNER_H

#include <stdbool.h>
#include <uv.h>

#include "skills/eval/agent.h"

typedef struct upk_agent_run upk_agent_run;

/** How a run ended. `result` is filled on every path: a run that could not
 * start, crashed, hung or printed no JSON has r->error saying so. */
typedef struct upk_agent_outcome {
  upk_agent_result *result; /* the callee may steal its members; freed after cb */
  int exit_status;          /* the agent's exit status; -1 when it did not run */
  int term_signal;          /* the signal that ended it, 0 if none */
  bool timed_out;
  double wall_ms; /* spawn to exit */
  const char *dir;
} upk_agent_outcome;

typedef void (*upk_agent_run_cb)(void *arg, const upk_agent_outcome *o);

/** Start a run; everything in `t` is copied. `cb` runs exactly once unless the run is
 * cancelled, from the loop, never from inside this call. Returns 0 or a negative errno (then
 * `cb` is never called). */
int upk_agent_run_start(uv_loop_t *loop, const upk_agent_task *t, upk_agent_run_cb cb, void *arg,
                        upk_agent_run **out);
/** Stop: the agent's process group is killed, `cb` is not called. NULL is fine. */
void upk_agent_run_cancel(upk_agent_run *r);
/** Runs whose agent process is alive (for status and the bench). */
unsigned upk_agent_runs_alive(void);

#endif
