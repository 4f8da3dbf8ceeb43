/** Running a helper program to the end: `git` for skill sources. Blocking: call it off the
 * loop (a worker thread). The child gets its own process group, stdin from /dev/null, and
 * stdout + stderr into one pipe; what it prints is kept, its last `cap` bytes. */
#ifndef UPK_RUN_H
#define UPK_RUN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_run_result {
  int exit_code; /* the exit status, or 128 + the signal that ended it */
  int timed_out; /* killed (its whole group) at the deadline */
  int cancelled; /* killed (its whole group) because cancel_fd became readable */
  char *output;  /* what it printed, NUL-terminated, at most cap bytes (its tail); malloc'd */
  size_t len;
} upk_run_result;

/** Run argv[0] (looked up on PATH) with argv in `cwd` (NULL: ours), `env` added to ours
 * ("NAME=value" strings, NULL-terminated; may be NULL), for at most `timeout_ms`. Returns 0
 * when it ran (whatever its exit status), -ENOENT when there is no such program, another
 * negative errno when it could not be started. upk_run_result_free() after 0. */
int upk_run_program(const char *const *argv, const char *cwd, const char *const *env,
                    int timeout_ms, size_t cap, upk_run_result *res);
/** The same, also killing the child's whole group as soon as `cancel_fd` (>= 0; -1: none)
 * becomes readable (res->cancelled): a caller on another thread writes a byte to a pipe to stop
 * a program that waits on the network. */
int upk_run_program_cancellable(const char *const *argv, const char *cwd, const char *const *env,
                                int timeout_ms, size_t cap, int cancel_fd, upk_run_result *res);

/** Everything upk_run_program_cancellable takes, and two more. */
typedef struct upk_run_opts {
  const char *const *argv;
  const char *cwd;
  const char *const *env;
  bool env_only; /* env is the child's whole environment, not added to ours */
  int timeout_ms;
  size_t cap;
  int cancel_fd;   /* -1: none */
  bool kill_group; /* also kill what the child left running in its group when it exits */
} upk_run_opts;
int upk_run_program_opts(const upk_run_opts *o, upk_run_result *res);
void upk_run_result_free(upk_run_result *res);

#endif
