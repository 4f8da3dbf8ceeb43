/* One agent CLI run on the loop (agent_runner.h). The steps, each on its
 * own callback: prepare (thread pool) -> spawn -> exit or timeout -> read
 * (thread pool) -> cb. */
#include "daemon/eval/agent_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "daemon/eval/agent_git.h"
#include "common/log.h"
#include "common/xalloc.h"

extern char **environ;

enum { KILL_GRACE_MS = 3000, OUTPUT_MAX = 64u << 20, STDERR_SHOW = 300 };

struct upk_agent_run {
  uv_loop_t *loop;
  upk_agent_run_cb cb;
  void *arg;
  /* The task, owned. */
  upk_agent_def def;
  upk_agent_task task;
  char **names, **texts;
  /* The run. */
  upk_agent_launch launch;
  char err[512];
  int prep_rc;
  uv_work_t work;
  uv_process_t proc;
  uv_timer_t timer;
  bool spawned, alive, timed_out, cancelled, in_work;
  int open_handles;
  uint64_t started;
  double wall_ms;
  int64_t exit_status;
  int term_signal;
  upk_agent_result result;
};

/* Runs start and end on the daemon's loop and on the audit judge's own loop (a thread). */
static atomic_uint alive_runs;

unsigned upk_agent_runs_alive(void) {
  return atomic_load(&alive_runs);
}

static void run_free(upk_agent_run *r) {
  upk_agent_def_free(&r->def);
  free((char *)r->task.model);
  free((char *)r->task.dir);
  free((char *)r->task.prompt);
  free((char *)r->task.skill_dir);
  free((char *)r->task.skill_name);
  free((char *)r->task.skill_md);
  free((char *)r->task.user_home);
  upk_strv_free(r->names);
  upk_strv_free(r->texts);
  upk_agent_launch_free(&r->launch);
  upk_agent_result_free(&r->result);
  free(r);
}

static void on_closed(uv_handle_t *h) {
  upk_agent_run *r = h->data;
  if (--r->open_handles == 0 && !r->in_work)
    run_free(r);
}

static void close_handles(upk_agent_run *r) {
  if (r->spawned && !uv_is_closing((uv_handle_t *)&r->proc))
    uv_close((uv_handle_t *)&r->proc, on_closed);
  if (!uv_is_closing((uv_handle_t *)&r->timer))
    uv_close((uv_handle_t *)&r->timer, on_closed);
}

static void kill_group(upk_agent_run *r, int sig) {
  if (r->alive)
    kill(-r->proc.pid, sig); /* detached: the agent leads its own group */
}

/* ---- the end ---- */

static void finish(upk_agent_run *r) {
  if (!r->cancelled) {
    upk_agent_outcome o = {&r->result,     r->spawned ? (int)r->exit_status : -1,
                           r->term_signal, r->timed_out,
                           r->wall_ms,     r->task.dir};
    r->cb(r->arg, &o);
  }
  close_handles(r);
}

static char *stderr_tail(const char *path) {
  size_t len = 0;
  char *all = upk_read_file(path, OUTPUT_MAX, &len);
  if (!all)
    return NULL;
  while (len && (all[len - 1] == '\n' || all[len - 1] == ' '))
    all[--len] = '\0';
  size_t from = len > STDERR_SHOW ? len - STDERR_SHOW : 0;
  memmove(all, all + from, len - from + 1);
  for (char *p = all; *p; p++)
    if (*p == '\n')
      *p = ' ';
  return all;
}

/* Why the run failed, when the process itself says more than its output. */
static void explain_exit(upk_agent_run *r) {
  char why[1024];
  upk_agent_result *res = &r->result;
  if (r->timed_out) {
    snprintf(why, sizeof why, "the agent ran past its timeout of %ld s and was stopped",
             r->def.timeout_ms / 1000);
  } else if (r->term_signal) {
    snprintf(why, sizeof why, "the agent was killed by signal %d", r->term_signal);
  } else if (r->exit_status != 0) {
    /* Any failure status is an error, even with an answer on stdout: a text agent that
     * prints half an answer and exits 3 on a quota error did not do the task. */
    char *tail = stderr_tail(r->launch.stderr_path);
    snprintf(why, sizeof why, "the agent exited with status %d%s%s%s%.400s", (int)r->exit_status,
             tail && *tail ? ": " : "", tail ? tail : "", res->error ? "; " : "",
             res->error ? res->error : "");
    free(tail);
  } else {
    return;
  }
  free(res->error);
  res->error = upk_xstrdup(why);
}

static void read_work(uv_work_t *w) {
  upk_agent_run *r = w->data;
  size_t len = 0;
  char *out = upk_read_file(r->launch.stdout_path, OUTPUT_MAX, &len);
  if (upk_agent_parse(r->def.format, out ? out : "", out ? len : 0, r->task.skill_name,
                      &r->result) == 0)
    upk_agent_inspect(&r->task, &r->result);
  free(out);
  explain_exit(r);
}

static void read_done(uv_work_t *w, int status) {
  upk_agent_run *r = w->data;
  r->in_work = false;
  if (status && !r->result.error)
    r->result.error = upk_xstrdup("the run's output could not be read");
  finish(r);
}

/* ---- the process ---- */

static void on_agent_exit(uv_process_t *p, int64_t status, int sig) {
  upk_agent_run *r = p->data;
  r->alive = false;
  atomic_fetch_sub(&alive_runs, 1);
  r->exit_status = status;
  r->term_signal = sig;
  r->wall_ms = (double)(uv_hrtime() - r->started) / 1e6;
  uv_timer_stop(&r->timer);
  kill(-p->pid, SIGKILL); /* whatever the agent left running in its group */
  if (r->cancelled) {
    close_handles(r);
    return;
  }
  r->in_work = true;
  r->work.data = r;
  if (uv_queue_work(r->loop, &r->work, read_work, read_done)) {
    r->in_work = false;
    r->result.error = upk_xstrdup("cannot queue reading the agent's output");
    finish(r);
  }
}

static void on_timeout(uv_timer_t *t) {
  upk_agent_run *r = t->data;
  if (!r->timed_out) {
    r->timed_out = true;
    kill_group(r, SIGTERM);
    uv_timer_start(&r->timer, on_timeout, KILL_GRACE_MS, 0);
  } else {
    kill_group(r, SIGKILL);
  }
}

static int open_out(const char *path) {
  return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

static void spawn_failed(upk_agent_run *r, int rc) {
  char why[600];
  if (rc == UV_ENOENT || rc == UV_EACCES)
    snprintf(why, sizeof why,
             "cannot start the agent '%s': %s (install it, or set agents.%s.command in the "
             "config)",
             r->launch.argv[0], uv_strerror(rc), r->def.name);
  else
    snprintf(why, sizeof why, "cannot start the agent '%s': %s", r->launch.argv[0],
             uv_strerror(rc));
  r->result.error = upk_xstrdup(why);
  finish(r);
}

static void spawn_agent(upk_agent_run *r) {
  int fds[3] = {open("/dev/null", O_RDONLY | O_CLOEXEC), open_out(r->launch.stdout_path),
                open_out(r->launch.stderr_path)};
  uv_stdio_container_t io[3];
  for (int i = 0; i < 3; i++)
    io[i] = (uv_stdio_container_t){.flags = UV_INHERIT_FD, .data.fd = fds[i]};
  uv_process_options_t o = {.exit_cb = on_agent_exit,
                            .file = r->launch.argv[0],
                            .args = r->launch.argv,
                            .env = r->launch.envp,
                            .cwd = r->launch.workspace,
                            .flags = UV_PROCESS_DETACHED,
                            .stdio_count = 3,
                            .stdio = io};
  int rc = fds[0] < 0 || fds[1] < 0 || fds[2] < 0 ? uv_translate_sys_error(errno) : 0;
  if (!rc) {
    r->proc.data = r;
    rc = uv_spawn(r->loop, &r->proc, &o);
    r->spawned = true; /* uv_spawn initializes the handle even when it fails */
    r->open_handles++;
  }
  for (int i = 0; i < 3; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  if (rc) {
    spawn_failed(r, rc);
    return;
  }
  r->alive = true;
  atomic_fetch_add(&alive_runs, 1);
  r->started = uv_hrtime();
  uv_timer_start(&r->timer, on_timeout, (uint64_t)r->def.timeout_ms, 0);
  upk_log(UPK_LOG_DEBUG, "agent %s: pid %d in %s", r->def.name, r->proc.pid, r->task.dir);
}

/* ---- prepare ---- */

static void prepare_work(uv_work_t *w) {
  upk_agent_run *r = w->data;
  r->prep_rc = upk_agent_prepare(&r->task, environ, &r->launch, r->err, sizeof r->err);
  char why[512];
  /* Without the commit the run still goes on: its `diff` assertions say why they cannot. */
  if (!r->prep_rc && r->task.git_baseline && upk_git_baseline(r->task.dir, why, sizeof why))
    upk_log(UPK_LOG_WARN, "agent %s: the workspace is not a git repository: %s", r->def.name, why);
}

static void prepare_done(uv_work_t *w, int status) {
  upk_agent_run *r = w->data;
  r->in_work = false;
  if (r->cancelled) {
    close_handles(r);
    return;
  }
  if (status || r->prep_rc) {
    r->result.error = upk_xstrdup(r->prep_rc ? r->err : "the run could not be prepared");
    finish(r);
    return;
  }
  spawn_agent(r);
}

static char **copy_list(const char *const *v, size_t n) {
  char **c = upk_xcalloc(n + 1, sizeof *c);
  for (size_t i = 0; i < n; i++)
    c[i] = upk_xstrdup(v[i]);
  return c;
}

static int copy_task(upk_agent_run *r, const upk_agent_task *t) {
  int rc = upk_agent_def_copy(&r->def, t->def);
  r->task =
      (upk_agent_task){.def = &r->def, .n_files = t->n_files, .git_baseline = t->git_baseline};
  r->task.model = upk_xstrdup(t->model); /* NULL stays NULL */
  r->task.dir = upk_xstrdup(t->dir);
  r->task.prompt = upk_xstrdup(t->prompt);
  r->task.skill_dir = upk_xstrdup(t->skill_dir);
  r->task.skill_name = upk_xstrdup(t->skill_name);
  r->task.skill_md = upk_xstrdup(t->skill_md);
  r->task.user_home = upk_xstrdup(t->user_home);
  r->names = copy_list(t->file_names, t->n_files);
  r->texts = copy_list(t->file_texts, t->n_files);
  r->task.file_names = (const char *const *)r->names;
  r->task.file_texts = (const char *const *)r->texts;
  return rc;
}

int upk_agent_run_start(uv_loop_t *loop, const upk_agent_task *t, upk_agent_run_cb cb, void *arg,
                        upk_agent_run **out) {
  upk_agent_run *r = upk_xcalloc(1, sizeof *r);
  if (copy_task(r, t)) {
    run_free(r);
    return -ENOMEM;
  }
  r->loop = loop;
  r->cb = cb;
  r->arg = arg;
  uv_timer_init(loop, &r->timer);
  r->timer.data = r;
  r->open_handles = 1;
  r->work.data = r;
  r->in_work = true;
  int rc = uv_queue_work(loop, &r->work, prepare_work, prepare_done);
  if (rc) {
    r->in_work = false;
    r->cancelled = true;
    close_handles(r);
    return rc;
  }
  *out = r;
  return 0;
}

void upk_agent_run_cancel(upk_agent_run *r) {
  if (!r || r->cancelled)
    return;
  r->cancelled = true;
  kill_group(r, SIGKILL);
  if (!r->in_work && !r->alive)
    close_handles(r); /* between steps: nothing else will */
}
