/* Running a helper program to the end (run.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/run.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xalloc.h"

extern char **environ;

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Our environment with `extra` in front (a NAME= in extra wins: getenv finds the first). */
static char **merged_env(const char *const *extra) {
  size_t n = 0, m = 0;
  while (extra && extra[n])
    n++;
  while (environ[m])
    m++;
  char **env = upk_xcalloc(n + m + 1, sizeof *env);
  if (n) /* memcpy from NULL is undefined even for 0 bytes */
    memcpy(env, extra, n * sizeof *env);
  memcpy(env + n, environ, m * sizeof *env);
  return env;
}

static int start(const char *const *argv, const char *cwd, const char *const *extra, bool only,
                 int wfd, pid_t *pid) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  /* only: exactly `extra`, none of our environment (its keys stay ours) */
  char **env = only ? (char **)extra : merged_env(extra);
  if (!env)
    return -ENOMEM;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, wfd, 1);
  posix_spawn_file_actions_adddup2(&fa, wfd, 2);
  if (cwd)
    posix_spawn_file_actions_addchdir_np(&fa, cwd);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  int rc = posix_spawnp(pid, argv[0], &fa, &at, (char *const *)argv, env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (!only)
    free(env);
  return -rc;
}

/* Keep the last `cap` bytes the child writes to `fd` until it closes, the deadline, or
 * `cancel_fd` becomes readable. */
static void collect(int fd, int cancel_fd, long long deadline, size_t cap, upk_run_result *res) {
  char buf[4096];
  for (;;) {
    int left = (int)(deadline - now_ms());
    struct pollfd p[2] = {{.fd = fd, .events = POLLIN}, {.fd = cancel_fd, .events = POLLIN}};
    int ready = left <= 0 ? 0 : poll(p, cancel_fd >= 0 ? 2 : 1, left);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0) {
      res->timed_out = 1;
      return;
    }
    if (cancel_fd >= 0 && p[1].revents) {
      res->cancelled = 1;
      return;
    }
    ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return;
    size_t n = (size_t)got;
    if (n > cap)
      memmove(buf, buf + (n - cap), cap), n = cap;
    if (res->len + n > cap) { /* drop the oldest */
      size_t drop = res->len + n - cap;
      memmove(res->output, res->output + drop, res->len - drop);
      res->len -= drop;
    }
    memcpy(res->output + res->len, buf, n);
    res->len += n;
  }
}

int upk_run_program(const char *const *argv, const char *cwd, const char *const *env,
                    int timeout_ms, size_t cap, upk_run_result *res) {
  return upk_run_program_cancellable(argv, cwd, env, timeout_ms, cap, -1, res);
}

int upk_run_program_cancellable(const char *const *argv, const char *cwd, const char *const *env,
                                int timeout_ms, size_t cap, int cancel_fd, upk_run_result *res) {
  upk_run_opts o = {argv, cwd, env, false, timeout_ms, cap, cancel_fd, false};
  return upk_run_program_opts(&o, res);
}

int upk_run_program_opts(const upk_run_opts *o, upk_run_result *res) {
  memset(res, 0, sizeof *res);
  int fds[2];
  res->output = upk_xmalloc(o->cap + 1);
  if (pipe2(fds, O_CLOEXEC) < 0) {
    int rc = -errno;
    upk_run_result_free(res);
    return rc;
  }
  pid_t pid;
  int rc = start(o->argv, o->cwd, o->env, o->env_only && o->env, fds[1], &pid);
  close(fds[1]);
  if (rc < 0) {
    close(fds[0]);
    upk_run_result_free(res);
    return rc;
  }
  collect(fds[0], o->cancel_fd, now_ms() + o->timeout_ms, o->cap, res);
  close(fds[0]);
  if (res->timed_out || res->cancelled)
    kill(-pid, SIGKILL);
  int st = 0;
  if (o->kill_group) { /* the leader, not yet reaped, keeps the group's id ours */
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
      ;
    kill(-pid, SIGKILL);
  }
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  res->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  res->output[res->len] = '\0';
  return 0;
}

void upk_run_result_free(upk_run_result *res) {
  free(res->output);
  res->output = NULL;
  res->len = 0;
}
