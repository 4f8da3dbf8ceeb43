/* A worker command's stderr, and the scheduler job it queued (workers_int.h).
 *
 * Through --worker-command="srun ...", what the scheduler has to say comes on srun's stderr:
 * "srun: job 42 queued and waiting for resources", "srun: error: Unable to allocate
 * resources: ...". The daemon reads it so that
 *  - a worker that never started fails with the scheduler's own reason, not "see stderr";
 *  - a stopped worker's job is cancelled with scancel: a srun that gets SIGTERM before the
 *    controller told it its job id, or is killed, leaves the job queued (and, once it starts,
 *    holding a GPU no one uses).
 * Each line is also logged as a warning (stderr, --log-file, and the client's log). */
#include "daemon/kernels/workers_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/log.h"
#include "common/xalloc.h"

#define CANCEL_TIMEOUT_MS 10000u /* a scancel that hangs (controller gone) is killed */

/* srun's lines that carry the id of a job it created itself. A srun inside an allocation
 * (salloc, sbatch) runs a step of that job and says none of these: the whole allocation is
 * never cancelled. */
static long job_named(const char *line) {
  static const char *const says[] = {"srun: job %ld queued and waiting for resources%n",
                                     "srun: job %ld has been allocated resources%n",
                                     "srun: Granted job allocation %ld%n"};
  for (size_t i = 0; i < sizeof says / sizeof *says; i++) {
    long job = 0;
    int end = -1;
    if (sscanf(line, says[i], &job, &end) == 1 && end > 0 && job > 0)
      return job;
  }
  return 0;
}

static void on_line(worker *w, char *line) {
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
    line[--n] = '\0';
  if (!n)
    return;
  for (char *c = line; *c; c++) /* it goes into JSON and logs: no control characters */
    if ((unsigned char)*c < 0x20)
      *c = ' ';
  upk_utf8_scrub(line); /* nor bytes that are not UTF-8 */
  upk_warn("kernel workers: %s (pid %d): %s", upk__command_name(w->pool), w->proc.pid, line);
  snprintf(w->said, sizeof w->said, "%s", line);
  long job = job_named(line);
  if (job && !w->job) {
    w->job = job;
    if (w->stop != STOP_NONE) /* being stopped already: the id came late */
      upk__launcher_cancel_job(w);
  }
}

/* The line gathered so far is whole. */
static void end_line(worker *w) {
  w->part[w->plen] = '\0';
  w->plen = 0;
  on_line(w, w->part);
}

/* Splits `len` bytes into lines; a line longer than w->part is cut there. */
static void take(worker *w, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (data[i] == '\n' || w->plen == sizeof w->part - 1) {
      end_line(w);
      if (data[i] == '\n')
        continue;
    }
    w->part[w->plen++] = data[i];
  }
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  static char chunk[4096]; /* the loop's thread only; used before the read callback returns */
  (void)h, (void)suggested;
  *buf = uv_buf_init(chunk, sizeof chunk);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  worker *w = s->data;
  if (n > 0)
    take(w, buf->base, (size_t)n);
  else if (n < 0)
    uv_read_stop(s); /* closed with the worker, once its exit is seen */
}

int upk__launcher_watch(worker *w) {
  return uv_read_start((uv_stream_t *)&w->err, on_alloc, on_read);
}

void upk__launcher_drain(worker *w) {
  uv_os_fd_t fd;
  if (uv_is_closing((uv_handle_t *)&w->err) || uv_fileno((uv_handle_t *)&w->err, &fd))
    return;
  char chunk[4096];
  ssize_t n;
  /* libuv made the pipe non-blocking: this ends at EAGAIN (a child of srun still holds it)
   * or at EOF. */
  for (int i = 0; i < 64 && (n = read(fd, chunk, sizeof chunk)) > 0; i++)
    take(w, chunk, (size_t)n);
  if (w->plen) /* its last line without a newline */
    end_line(w);
}

/* ---- cancelling the job ---- */

typedef struct cancel {
  uv_process_t proc;
  uv_timer_t limit;
  long job;
  int open;
} cancel;

static void on_cancel_closed(uv_handle_t *h) {
  cancel *c = h->data;
  if (!--c->open)
    free(c);
}

static void on_cancel_exit(uv_process_t *proc, int64_t status, int sig) {
  cancel *c = proc->data;
  /* Non-zero is usual: srun, at its SIGTERM, cancelled the job first. */
  upk_info("kernel workers: scancel %ld ended (%s %d)", c->job, sig ? "signal" : "status",
           sig ? sig : (int)status);
  uv_close((uv_handle_t *)&c->proc, on_cancel_closed);
  uv_close((uv_handle_t *)&c->limit, on_cancel_closed);
}

static void on_cancel_limit(uv_timer_t *t) {
  cancel *c = t->data;
  upk_warn("kernel workers: scancel %ld still runs after %u ms: killed", c->job, CANCEL_TIMEOUT_MS);
  uv_process_kill(&c->proc, SIGKILL);
}

/* scancel next to the worker command ("/opt/slurm/bin/srun" -> "/opt/slurm/bin/scancel"),
 * else the one on PATH. */
static void scancel_path(const char *command, char *out, size_t len) {
  const char *slash = strrchr(command, '/');
  if (slash && (size_t)(slash - command) + sizeof "/scancel" <= len) {
    snprintf(out, len, "%.*s/scancel", (int)(slash - command), command);
    if (!access(out, X_OK))
      return;
  }
  snprintf(out, len, "scancel");
}

void upk__launcher_cancel_job(worker *w) {
  if (!w->has_err || !w->job || w->job_cancelled)
    return;
  w->job_cancelled = true;
  char path[1024], job[32];
  scancel_path(w->pool->argv[0], path, sizeof path);
  snprintf(job, sizeof job, "%ld", w->job);
  char *args[] = {path, job, NULL};
  char **env = upk__worker_env(w->pool->extra_env);
  cancel *c = upk_xcalloc(1, sizeof *c);
  if (!c || !env) {
    free(c);
    free(env);
    upk_error("kernel workers: cannot cancel Slurm job %ld: out of memory", w->job);
    return;
  }
  c->job = w->job;
  c->proc.data = c->limit.data = c;
  uv_process_options_t o = {.exit_cb = on_cancel_exit, .file = path, .args = args, .env = env};
  int rc = uv_spawn(w->pool->loop, &c->proc, &o); /* stdio: none (scancel's errors are usual) */
  free(env);
  upk_warn("kernel workers: %s (pid %d) is stopped: cancelling its Slurm job %ld (%s %ld)%s%s",
           upk__command_name(w->pool), w->proc.pid, w->job, path, w->job, rc ? ": " : "",
           rc ? uv_strerror(rc) : "");
  uv_timer_init(w->pool->loop, &c->limit);
  c->open = 2;
  if (rc) { /* the handle is initialized even so: close it */
    uv_close((uv_handle_t *)&c->proc, on_cancel_closed);
    uv_close((uv_handle_t *)&c->limit, on_cancel_closed);
    return;
  }
  uv_timer_start(&c->limit, on_cancel_limit, CANCEL_TIMEOUT_MS, 0);
  uv_unref((uv_handle_t *)&c->limit); /* the process keeps the loop alive, not its limit */
}
