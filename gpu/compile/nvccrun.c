/* The nvcc backend's process side (nvccrun.h): a child under a guard that takes
 * its whole process group down with the thread that started it, and the
 * toolkit's nvcc and the archs it can build. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/compile/nvccrun.h"
#include "gpu/compile/toolkit.h"
#include "common/dynbuf.h"
#include "common/landlock.h"
#include "common/xalloc.h"

enum { OUTPUT_CAP = 8 << 20 };

/* ---- the guarded child ---- */

/* The guard's reaction to its starter's death: the whole group goes, itself included. */
static void guard_kill_group(int sig) {
  (void)sig;
  kill(0, SIGKILL);
}

/* The child's environment: ours, with a PATH of absolute directories only. An empty, "." or
 * relative entry finds programs (the host compiler nvcc looks for, cicc's helpers) relative
 * to the current directory, which a project could fill (issue 44). Built before fork. */
static char **child_env(char **path_out) {
  extern char **environ;
  size_t n = 0, k = 0;
  while (environ[n])
    n++;
  char **env = upk_xcalloc(n + 1, sizeof *env);
  *path_out = NULL;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "PATH=", 5)) {
      env[k++] = environ[i];
      continue;
    }
    const char *p = environ[i] + 5;
    upk_buf clean = UPK_BUF_INIT(SIZE_MAX);
    upk_buf_puts(&clean, "PATH=");
    while (*p) {
      size_t len = strcspn(p, ":");
      if (len && p[0] == '/') {
        if (clean.len > 5)
          upk_buf_puts(&clean, ":");
        upk_buf_append(&clean, p, len);
      }
      p += len + (p[len] == ':');
    }
    free(*path_out);
    env[k++] = *path_out = upk_buf_take(&clean, NULL);
  }
  return env;
}

/* Between fork and exec of a multithreaded process: async-signal-safe calls only. */
static void exec_child(const char *const *argv, const char *cwd, char **env) {
  struct sigaction dfl = {.sa_handler = SIG_DFL};
  sigaction(SIGTERM, &dfl, NULL);
  sigaction(SIGPIPE, &dfl, NULL); /* a server worker ignores it; nvcc expects the default */
  if (cwd && chdir(cwd))
    _exit(126);
  execve(argv[0], (char *const *)argv, env);
  _exit(127);
}

/* The guard: leads a process group holding the compile, dies (taking the group)
 * when the thread that forked it dies, else reports the compile's status. */
static void guard_main(int wfd, const char *const *argv, const char *cwd, char **env, pid_t starter,
                       int ruleset) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  setpgid(0, 0);
  struct sigaction sa = {.sa_handler = guard_kill_group};
  sigaction(SIGTERM, &sa, NULL);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != starter) /* it died before prctl */
    kill(0, SIGKILL);
  int null = open("/dev/null", O_RDONLY);
  if (null < 0 || dup2(null, 0) < 0 || dup2(wfd, 1) < 0 || dup2(wfd, 2) < 0)
    _exit(125);
  if (ruleset >= 0 && upk_landlock_enter(ruleset)) /* the guard and the compile, confined */
    _exit(125);
  /* Other threads' pipes must not be held open here (their readers wait for EOF). */
  close_range(3, ~0U, 0);
  pid_t pid = fork();
  if (pid == 0)
    exec_child(argv, cwd, env);
  close(1);
  close(2);
  int st = 0;
  while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  _exit(pid < 0 ? 125 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/* Read `fd` to EOF; keeps at most OUTPUT_CAP - 1 bytes and drains the rest. */
static int read_all(int fd, char **out, size_t *len) {
  upk_buf b = UPK_BUF_INIT(OUTPUT_CAP - 1);
  char sink[4096];
  upk_buf_puts(&b, ""); /* a string even when nothing comes */
  for (;;) {
    size_t avail = 0;
    char *at = upk_buf_space(&b, 1, &avail); /* NULL once full */
    ssize_t k = at ? read(fd, at, avail) : read(fd, sink, sizeof sink);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    if (at)
      upk_buf_added(&b, (size_t)k);
  }
  *out = upk_buf_take(&b, len);
  return 0;
}

int upk_child_run(const char *const *argv, const char *cwd, char **output, size_t *len,
                  int *status) {
  char *path = NULL, **env = child_env(&path);
  int rc = upk_child_run_env(argv, cwd, env, output, len, status);
  free(env);
  free(path);
  return rc;
}

static int run_guarded(const char *const *argv, const char *cwd, char **env, int ruleset,
                       char **output, size_t *len, int *status) {
  int p[2];
  *output = NULL;
  *len = 0;
  *status = -1;
  if (pipe2(p, O_CLOEXEC))
    return -errno;
  pid_t starter = getpid(), pid = fork();
  if (pid == 0) {
    close(p[0]);
    guard_main(p[1], argv, cwd, env, starter, ruleset);
  }
  int err = pid < 0 ? -errno : 0;
  close(p[1]);
  int rc = err ? err : read_all(p[0], output, len);
  close(p[0]);
  int st = 0;
  while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (pid > 0)
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (rc == 0 && *status == 127)
    rc = -ENOEXEC;
  return rc;
}

int upk_child_run_env(const char *const *argv, const char *cwd, char **env, char **output,
                      size_t *len, int *status) {
  return run_guarded(argv, cwd, env, -1, output, len, status);
}

int upk_child_run_confined(const char *const *argv, const char *cwd, int ruleset,
                           const char *tmpdir, char **output, size_t *len, int *status) {
  char *path = NULL, **env = child_env(&path), *tmp = upk_xasprintf("TMPDIR=%s", tmpdir);
  size_t n = 0;
  while (env[n] && strncmp(env[n], "TMPDIR=", 7))
    n++;
  if (!env[n]) { /* child_env left room for one more */
    env = upk_xrealloc(env, (n + 2) * sizeof *env);
    env[n + 1] = NULL;
  }
  env[n] = tmp;
  int rc = run_guarded(argv, cwd, env, ruleset, output, len, status);
  free(env);
  free(path);
  free(tmp);
  return rc;
}

/* ---- toolkit ---- */

int upk_nvcc_path(const char *cuda_path, char *out, size_t out_len) {
  snprintf(out, out_len, "%s/bin/nvcc", upk_cuda_default_path(cuda_path));
  return access(out, X_OK) ? -ENOENT : 0;
}

static pthread_mutex_t archs_lock = PTHREAD_MUTEX_INITIALIZER;
static char archs_root[PATH_MAX], *archs_list; /* " sm_75 sm_80 ... " */

bool upk_nvcc_supports(const char *cuda_path, const char *arch) {
  char nvcc[PATH_MAX], want[64];
  if (upk_nvcc_path(cuda_path, nvcc, sizeof nvcc))
    return true;
  pthread_mutex_lock(&archs_lock);
  if (!archs_list || strcmp(archs_root, nvcc)) {
    const char *argv[] = {nvcc, "--list-gpu-code", NULL};
    char *out = NULL;
    size_t len;
    int st;
    free(archs_list);
    archs_list = NULL;
    if (upk_child_run(argv, NULL, &out, &len, &st) == 0 && st == 0) {
      for (char *c = out; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
      archs_list = upk_xasprintf(" %s ", out);
      snprintf(archs_root, sizeof archs_root, "%s", nvcc);
    }
    free(out);
  }
  /* The list names sm_90, not sm_90a or sm_100f: the base SM decides. */
  snprintf(want, sizeof want, " %.*s ", (int)strcspn(arch, "af"), arch);
  bool yes = !archs_list || strstr(archs_list, want);
  pthread_mutex_unlock(&archs_lock);
  return yes;
}
