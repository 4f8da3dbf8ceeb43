/* Starting workers (workers_int.h): from the worker server when it answers, else as local
 * child processes. A missing server is launched for the daemons that come after; this one
 * does not wait for it. */
#include "daemon/kernels/workers_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/log.h"
#include "daemon/kernels/worker_server.h"
#include "common/xalloc.h"

extern char **environ;

/* ---- local workers ---- */

char **upk__worker_env(char **extra) {
  size_t n = 0, m = 0, k = 0;
  while (environ && environ[n])
    n++;
  while (extra && extra[m])
    m++;
  char **env = upk_xmalloc((n + m + 1) * sizeof *env);
  for (size_t i = 0; i < n; i++) {
    bool replaced = false;
    for (size_t j = 0; j < m && !replaced; j++) {
      size_t key = strcspn(extra[j], "=");
      replaced = !strncmp(environ[i], extra[j], key + 1);
    }
    if (!replaced)
      env[k++] = environ[i];
  }
  for (size_t j = 0; j < m; j++)
    env[k++] = extra[j];
  env[k] = NULL;
  return env;
}

static worker *new_worker(upk_workers *p) {
  worker *w = upk_xcalloc(1, sizeof *w);
  w->pool = p, w->pidfd = -1;
  upk_buf_init(&w->in, SIZE_MAX);
  ring_init(&w->node);
  uv_timer_init(p->loop, &w->deadline);
  uv_timer_init(p->loop, &w->escalate);
  uv_pipe_init(p->loop, &w->to, 0);
  uv_pipe_init(p->loop, &w->from, 0);
  w->deadline.data = w->escalate.data = w->to.data = w->from.data = w->proc.data = w;
  return w;
}

static int spawn_local(upk_workers *p, char *err, size_t err_len) {
  worker *w = new_worker(p);
  char **env = upk__worker_env(p->extra_env);
  if (!w || !env) {
    free(w);
    free(env);
    snprintf(err, err_len, "cannot start %s: out of memory", p->argv[0]);
    return UV_ENOENT;
  }
  uv_stdio_container_t io[3] = {
      {.flags = UV_CREATE_PIPE | UV_READABLE_PIPE, .data.stream = (uv_stream_t *)&w->to},
      {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&w->from},
      {.flags = UV_INHERIT_FD, .data.fd = 2},
  };
  /* Through a worker command (srun), its stderr is read: the scheduler's words go into the
   * worker's error, and srun's job id lets a stop cancel the job (workers_launcher.c). A
   * worker started directly writes to ours. */
  if ((w->has_err = p->argv[1] != NULL)) {
    uv_pipe_init(p->loop, &w->err, 0);
    w->err.data = w;
    io[2] = (uv_stdio_container_t){.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE,
                                   .data.stream = (uv_stream_t *)&w->err};
  }
  uv_process_options_t o = {.exit_cb = upk__worker_on_exit, .file = p->argv[0], .args = p->argv};
  o.env = env, o.stdio_count = 3, o.stdio = io;
  int rc = uv_spawn(p->loop, &w->proc, &o); /* initializes the handle even when it fails */
  free(env);
  w->open = 5 + w->has_err;
  p->n_workers++;
  upk__worker_set_state(w, W_IDLE);
  if (rc) {
    snprintf(err, err_len, "cannot start %s: %s", p->argv[0], uv_strerror(rc));
    w->exited = true; /* nothing to wait for */
    upk__worker_retire(w);
    return UV_ENOENT;
  }
  p->started++;
  rc = uv_read_start((uv_stream_t *)&w->from, upk__worker_on_alloc, upk__worker_on_read);
  if (!rc && w->has_err)
    rc = upk__launcher_watch(w);
  if (rc) {
    snprintf(err, err_len, "cannot read from the worker: %s", uv_strerror(rc));
    upk__worker_kill(w);
    return UV_ENOENT;
  }
  return 0;
}

/* ---- workers from the server ---- */

/* A worker on a connected socket: `from` reads it, `to` writes a dup of it (libuv wants one
 * handle per fd). 0, or a negative error with the fd closed. */
static int attach_remote(upk_workers *p, int fd) {
  int fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  worker *w = fd2 < 0 ? NULL : new_worker(p);
  if (!w) {
    if (fd2 >= 0)
      close(fd2);
    close(fd);
    return UV_ENOMEM;
  }
  w->remote = true;
  w->open = 4; /* no process handle: its connection's end is its exit */
  p->n_workers++;
  upk__worker_set_state(w, W_IDLE);
  int rc = uv_pipe_open(&w->from, fd);
  if (rc) {
    close(fd);
    close(fd2);
  } else if ((rc = uv_pipe_open(&w->to, fd2))) {
    close(fd2);
  } else if (!(rc = uv_read_start((uv_stream_t *)&w->from, upk__worker_on_alloc,
                                  upk__worker_on_read))) {
    p->from_server++;
    return 0;
  }
  upk__worker_retire(w);
  return rc;
}

void upk__server_launch_if_wanted(upk_workers *p) {
  uint64_t now = uv_now(p->loop);
  if (!p->server_wanted || (p->server_launched && now < p->server_next_launch))
    return;
  p->server_wanted = false;
  p->server_launched = true;
  p->server_next_launch = now + UPK__SERVER_RETRY_MS;
  int rc =
      upk_wserver_launch(p->loop, &p->server_proc, p->argv[0], p->server_path, p->server_idle_s);
  if (rc)
    fprintf(stderr, "upskilld: cannot start the worker server: %s\n", uv_strerror(rc));
}

/* 0 with a remote worker on the idle list, or an error: then a local one is started. */
static int try_server(upk_workers *p) {
  if (!p->server_path || uv_now(p->loop) < p->server_off_until)
    return UV_EAGAIN;
  int fd = upk_wserver_connect(p->server_path);
  if (fd == UV_ENOENT || fd == UV_ECONNREFUSED)
    p->server_wanted = true; /* launched once this daemon's compiles are done (workers.c) */
  return fd < 0 ? fd : attach_remote(p, fd);
}

int upk__worker_spawn(upk_workers *p, char *err, size_t err_len) {
  return try_server(p) ? spawn_local(p, err, err_len) : 0;
}

int upk__worker_greeting(worker *w, const char *line, size_t len) {
  json_t *msg = json_loadb(line, len, 0, NULL);
  json_int_t pid = json_integer_value(json_object_get(json_object_get(msg, "worker"), "pid"));
  json_decref(msg);
  if (pid <= 1 || pid > INT32_MAX)
    return UV_EPROTO;
  w->pid = (int)pid;
  w->greeted = true;
#ifdef SYS_pidfd_open
  /* From now on the kill reaches this process even if its pid is reused. */
  w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
#endif
  return 0;
}

/* The local worker has not exited since its last stop signal: the next, stronger one. */
static void on_escalate(uv_timer_t *t) {
  worker *w = t->data;
  const char *cmd = w->pool->argv[0];
  upk__launcher_cancel_job(w); /* its job id may have come since the last step */
  if (w->stop == STOP_TERM && w->terms < UPK__TERM_TRIES) { /* srun: a repeated one cancels */
    if (w->terms == 1)
      upk_warn("kernel workers: %s (pid %d) ignored SIGTERM for %u ms: sending SIGTERM again "
               "(every %u ms, %u in all, then SIGKILL)",
               cmd, w->proc.pid, UPK__TERM_GRACE_MS, UPK__TERM_GRACE_MS, UPK__TERM_TRIES);
    w->terms++;
    uv_process_kill(&w->proc, SIGTERM);
    uv_timer_start(&w->escalate, on_escalate, UPK__TERM_GRACE_MS, 0);
  } else if (w->stop == STOP_TERM) {
    upk_warn("kernel workers: %s (pid %d) ignored SIGTERM %u times: killing it with SIGKILL%s", cmd,
             w->proc.pid, w->terms,
             w->job_cancelled ? ""
                              : " (a scheduler job it queued without saying its id may be left "
                                "behind: check squeue)");
    w->stop = STOP_KILL;
    uv_process_kill(&w->proc, SIGKILL);
    uv_timer_start(&w->escalate, on_escalate, UPK__KILL_GRACE_MS, 0);
  } else { /* SIGKILL did not end it (stuck in the kernel): stop waiting, so exit is bounded */
    upk_error("kernel workers: %s (pid %d) still runs %u ms after SIGKILL: no longer waited for",
              cmd, w->proc.pid, UPK__KILL_GRACE_MS);
    w->exited = true;
    upk__worker_retire(w);
  }
}

/* How an escalated stop ended; nothing for a worker that went at its first signal (or was
 * started directly and simply killed). */
void upk__worker_stop_ended(worker *w) {
  const char *cmd = w->pool->argv[0];
  if (w->stop == STOP_TERM && w->terms == 2)
    upk_warn("kernel workers: %s (pid %d) ignored the first SIGTERM and ended at the second", cmd,
             w->proc.pid);
  else if (w->stop == STOP_TERM && w->terms > 2)
    upk_warn("kernel workers: %s (pid %d) ignored %u SIGTERMs and ended at the next", cmd,
             w->proc.pid, w->terms - 1);
  else if (w->stop == STOP_KILL && w->terms)
    upk_warn("kernel workers: %s (pid %d) ignored SIGTERM and was killed with SIGKILL", cmd,
             w->proc.pid);
}

void upk__worker_signal_kill(worker *w) {
  if (!w->remote) {
    /* Through a worker command, the signal goes to it: srun killed outright leaves its job in
     * the scheduler (queued, or holding the GPU with no one to use it); SIGTERM makes it cancel
     * the job and end the worker. The worker's stdin is closed too, which ends it anyway. One
     * that lives on is escalated from the loop (on_escalate): never a blocking wait. */
    bool term = w->pool->argv[1] != NULL;
    w->stop = term ? STOP_TERM : STOP_KILL;
    w->terms = term;
    upk__launcher_cancel_job(w);
    uv_process_kill(&w->proc, term ? SIGTERM : SIGKILL);
    uv_timer_start(&w->escalate, on_escalate, term ? UPK__TERM_GRACE_MS : UPK__KILL_GRACE_MS, 0);
    return;
  }
#ifdef SYS_pidfd_send_signal
  if (w->pidfd >= 0 && !syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0))
    return;
#endif
  if (w->pidfd < 0 && w->pid > 1)
    kill(w->pid, SIGKILL);
  /* Not greeted yet: it has not taken the connection, and closing it is enough. */
}
