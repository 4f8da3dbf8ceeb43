/* compute-sanitizer around a one-shot worker (see sanitizer.h). */
#include "gpu/run/sanitizer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/dynbuf.h"
#include "common/env_options.h"
#include "common/fileio.h"
#include "gpu/run/cudrv.h"
#include "gpu/run/runcheck.h"
#include "common/xalloc.h"

extern char **environ;

const char *upk_ksan_find(const char *cuda_path, char *buf, size_t len) {
  static const char *const rel[] = {"bin/compute-sanitizer", "compute-sanitizer/compute-sanitizer"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(buf, len, "%s/%s", cuda_path, rel[i]);
    if (access(buf, X_OK) == 0)
      return buf;
  }
  return NULL;
}

static const char *worker_path(char *buf, size_t len) {
  if (upk_env_opts()->worker)
    return upk_env_opts()->worker;
  ssize_t n = readlink("/proc/self/exe", buf, len - 1);
  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  return buf;
}

/* The one request line: the params with `run` minus `sanitizer`, marked
 * underSanitizer with the tool's name. */
static char *request_line(json_t *params, const char *tool) {
  json_t *p = json_copy(params), *run = json_copy(json_object_get(params, "run"));
  char *text = NULL;
  if (run)
    json_object_del(run, "sanitizer"); /* absent is fine */
  if (p && run && !json_object_set_new(p, "run", json_incref(run))) {
    /* No guard zones under the sanitizer: memcheck must see every access
     * past a buffer's end, and a zone would make the first 64 KiB valid. */
    json_object_set_new(p, "underSanitizer", json_string(tool));
    json_t *req = json_pack("{s:i,s:s,s:O}", "id", 1, "op", "run", "params", p);
    text = req ? json_dumps(req, JSON_COMPACT) : NULL;
    json_decref(req);
  }
  json_decref(run);
  json_decref(p);
  return text;
}

typedef struct child {
  pid_t pid;
  int in, out;
} child;

static int spawn(const char *const argv[], child *c) {
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
    int e = -errno;
    for (int i = 0; i < 2; i++)
      if (in[i] >= 0)
        close(in[i]);
    return e;
  }
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawnattr_init(&at);
  /* One group, killed together; SIGPIPE back to its default (a server worker ignores it). */
  sigset_t dfl;
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setsigdefault(&at, &dfl);
  posix_spawnattr_setpgroup(&at, 0);
  int rc = posix_spawn(&c->pid, argv[0], &fa, &at, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(in[0]);
  close(out[1]);
  c->in = in[1], c->out = out[0];
  if (rc) {
    close(c->in), close(c->out);
    return -rc;
  }
  return 0;
}

/* Everything the child writes until EOF or the deadline (then -ETIMEDOUT). */
static int read_until(int fd, int64_t deadline, char **out) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  int rc = upk_buf_puts(&b, ""); /* a string even when nothing comes */
  while (!rc) {
    int64_t left = (deadline - upk_cu_now_ns()) / 1000000;
    struct pollfd p = {fd, POLLIN, 0};
    int n = left > 0 ? poll(&p, 1, (int)(left > 1000 ? 1000 : left)) : 0;
    if (left <= 0)
      rc = -ETIMEDOUT;
    if (n <= 0 || rc)
      continue;
    size_t avail = 0;
    char *at = upk_buf_space(&b, 4096, &avail);
    ssize_t k = read(fd, at, avail);
    if (k == 0)
      break;
    if (k > 0)
      upk_buf_added(&b, (size_t)k);
    else if (errno != EINTR)
      rc = -errno;
  }
  *out = upk_buf_take(&b, NULL);
  return rc;
}

/* The child's run diagnostics (codes run/...) join ours. */
static void take_run_diags(json_t *result, upk_diags *diags) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *code = json_string_value(json_object_get(d, "code"));
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    if (!code || strncmp(code, "run/", 4))
      continue;
    upk_diags_add(diags, (upk_severity)json_integer_value(json_object_get(d, "severity")), code,
                  "upskilld-run",
                  upk_range_line((int)json_integer_value(json_object_get(start, "line")), 0, 0),
                  "%s", json_string_value(json_object_get(d, "message")));
  }
}

/* The run object from the child's reply, or a failure diagnostic. */
static json_t *child_run(const char *reply, int status, upk_diags *diags, upk_range at) {
  json_t *msg = reply ? json_loads(reply, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
  json_t *result = json_object_get(msg, "result");
  json_t *run = json_incref(json_object_get(result, "run"));
  take_run_diags(result, diags);
  if (!run) {
    const char *e = json_string_value(json_object_get(json_object_get(msg, "error"), "message"));
    upk_diags_add(diags, UPK_SEV_ERROR, "run/sanitizer-failed", "upskilld-run", at,
                  "the worker under compute-sanitizer gave no run result (%s; exit status %d)",
                  e ? e : "no reply", status);
    run = json_pack("{s:b,s:i}", "ok", 0, "trials", 0);
  }
  json_decref(msg);
  return run;
}

static int finish(child *c, int rc) {
  int status = 0;
  if (rc == -ETIMEDOUT)
    kill(-c->pid, SIGKILL);
  close(c->out);
  while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The name the report gives the kernel's source (NVRTC's program name). */
static const char *source_name(json_t *params) {
  const char *path = json_string_value(json_object_get(params, "path"));
  const char *name = json_string_value(json_object_get(params, "fileName"));
  return name ? name : path ? path : "kernel.cu";
}

/* A private log file for the sanitizer's report. */
static int log_file(char *buf, size_t len) {
  const char *dir = getenv("TMPDIR");
  snprintf(buf, len, "%s/upskilld-sanitizer-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(buf);
  if (fd < 0)
    return -errno;
  close(fd);
  return 0;
}

int upk_ksan_run(json_t *params, const upk_run_spec *s, const char *tool_path, upk_diags *diags,
                 upk_range at, json_t **run_out) {
  char self[4096], log[4096] = "";
  const char *worker = worker_path(self, sizeof self);
  const char *tool = upk_run_sanitizer_name(s->sanitizer);
  char *line = request_line(params, tool), *reply = NULL;
  int rc = !line ? -ENOMEM : !worker ? -ENOENT : log_file(log, sizeof log);
  child c = {0};
  const char *argv[] = {tool_path, "--tool",        tool, "--error-exitcode",
                        "99",      "--print-limit", "20", "--log-file",
                        log,       worker,          NULL};
  if (!rc && !(rc = spawn(argv, &c))) {
    int64_t deadline = upk_cu_now_ns() + (int64_t)s->timeout_ms * 1000000;
    rc = upk_write_all(c.in, line, strlen(line));
    rc = rc ? rc : upk_write_all(c.in, "\n", 1);
    close(c.in); /* EOF: the worker exits after its one reply */
    rc = rc ? rc : read_until(c.out, deadline, &reply);
    int status = finish(&c, rc);
    if (rc == -ETIMEDOUT)
      upk_diags_add(diags, UPK_SEV_ERROR, "run/timeout", "upskilld-run", at,
                    "the run under compute-sanitizer %s passed its %u ms deadline and was killed "
                    "(the sanitizer slows kernels down: raise run.timeoutMs)",
                    tool, s->timeout_ms);
    *run_out = child_run(rc ? NULL : reply, status, diags, at);
    size_t text_len;
    char *text = upk_read_file(log, 64u << 20, &text_len);
    int n = text ? upk_sanitizer_parse(text, tool, source_name(params), diags) : 0;
    free(text);
    if (n > 0)
      json_object_set_new(*run_out, "ok", json_false());
    json_object_set_new(
        *run_out, "sanitizer",
        json_pack("{s:s,s:i,s:i}", "tool", tool, "findings", n > 0 ? n : 0, "exitStatus", status));
    rc = 0;
  } else {
    upk_diags_add(diags, UPK_SEV_ERROR, "run/sanitizer-failed", "upskilld-run", at,
                  "cannot start %s on %s: %s", tool_path, worker ? worker : "(no worker)",
                  strerror(-rc));
    *run_out = json_pack("{s:b,s:i}", "ok", 0, "trials", 0);
  }
  if (log[0])
    unlink(log);
  free(line);
  free(reply);
  return rc;
}
