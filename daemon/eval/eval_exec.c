/* Executable assertions after an agent run (docs/eval.md "Executable checks"): `script` in
 * the trial's workspace, `diff` of its git state against the commit the run started from,
 * `kernel` through the kernel service. A trial's checks form one job:
 * scripts, git and file reads run in order on the thread pool, then kernel checks go to the
 * kernel service; each verdict is taken into the trial's report with upk_assert_report_decide.
 * The job owns copies of everything it reads, so a cancelled eval can go away while a script
 * is still being killed: the job frees itself when its work comes back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/fileio.h"
#include "common/log.h"
#include "common/run.h"
#include "common/sandbox.h"
#include "common/xalloc.h"
#include "daemon/eval/agent_git.h"
#include "daemon/eval/eval_service_int.h"
#include "gpu/run/runspec.h"
#include "gpu/worker/wire.h"
#include "skills/fsutil.h"

extern char **environ;

enum {
  OUTPUT_TAIL = UPK_GIT_OUTPUT_TAIL, /* bytes of a script's output kept as evidence */
  KERNEL_MAX = 1 << 20,              /* a kernel file's size cap */
  NAMES_MAX = 4 << 20,               /* the changed paths' names, NUL-separated */
};

#define BEFORE_REF UPK_GIT_BEFORE_REF

typedef struct exec_job exec_job;

typedef struct exec_item {
  exec_job *job;
  size_t idx;      /* the assertion in the trial's report */
  upk_assertion a; /* a copy: the job may outlive the eval */
  upk_assert_status status;
  char *reason;
  char *source; /* kernel: the file's text, to be checked */
  upk_kcheck *handle;
} exec_item;

struct exec_job {
  uv_work_t work;
  eval_trial *trial; /* NULL once the eval is cancelled */
  char *dir, *ws;
  char **env;
  bool sandbox;  /* the scripts are not the user's: they run in the sandbox */
  int cancel[2]; /* a byte written to cancel[1] kills a running script or git */
  exec_item *items;
  size_t n, checks_out;
  bool in_work; /* queued on the thread pool, or waiting for a turn */
  bool waiting; /* in the wait list, not yet queued */
  exec_job *next;
  uv_loop_t *loop;
};

/* At most this many jobs hold thread-pool threads at once (libuv has 4): a hanging script
 * holds its thread up to its deadline, and the pool also reads skills and stores runs. The
 * rest wait in order. Loop thread only. */
enum { MAX_RUNNING = 2 };
static unsigned running;
static exec_job *wait_head, *wait_tail;

/* ---- the checks (thread pool) ---- */

static void decide(exec_item *it, upk_assert_status s, char *reason) {
  it->status = s;
  free(it->reason);
  it->reason = reason;
}

/* The script's command line and environment in the sandbox: the workspace writable (the
 * working directory) with the trial's home/ and tmp/, nothing else of the user's. Whether one
 * can be had was asked before the eval started; false (and `it` decided) when it is gone. */
static bool sandboxed(exec_job *j, exec_item *it, const char *const *argv, char ***av, char ***ev) {
  static const char *const keep[] = {"LANG", "LC_ALL", "LC_CTYPE", "TERM"};
  char *home = upk_xasprintf("%s/home", j->dir), *tmp = upk_xasprintf("%s/tmp", j->dir);
  const char *rw[] = {home, tmp};
  upk_sandbox_spec s = {.scratch = j->ws,
                        .env_keep = keep,
                        .n_env_keep = sizeof keep / sizeof *keep,
                        .rw = rw,
                        .n_rw = 2,
                        .home = home,
                        .tmp = tmp};
  *av = upk_sandbox_wrap(&s, argv, ev);
  free(home);
  free(tmp);
  if (*av)
    return true;
  char why[512] = "";
  upk_sandbox_available(why, sizeof why);
  decide(it, UPK_ASSERT_ERROR,
         upk_xasprintf("the script was not run: a script the user did not write runs only in a "
                       "sandbox, and there is none: %s",
                       why));
  return false;
}

static void run_script(exec_job *j, exec_item *it) {
  const char *argv[] = {"/bin/sh", "-c", it->a.values[0], NULL};
  long timeout = it->a.timeout_ms ? it->a.timeout_ms : UPK_ASSERT_SCRIPT_TIMEOUT_MS;
  char **av = NULL, **ev = NULL;
  if (j->sandbox && !sandboxed(j, it, argv, &av, &ev))
    return;
  upk_run_opts o = {av ? (const char *const *)av : argv,
                    j->ws,
                    (const char *const *)(ev ? ev : j->env),
                    true,
                    (int)timeout,
                    OUTPUT_TAIL,
                    j->cancel[0],
                    true};
  upk_run_result res;
  int rc = upk_run_program_opts(&o, &res);
  upk_sandbox_free(av);
  upk_sandbox_free(ev);
  if (rc) {
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("cannot run /bin/sh: %s", strerror(-rc)));
    return;
  }
  upk_utf8_scrub(res.output);
  while (res.len && (res.output[res.len - 1] == '\n' || res.output[res.len - 1] == ' '))
    res.output[--res.len] = '\0';
  if (!res.len) /* evidence that says so, rather than an empty quote (cap > 6 bytes) */
    memcpy(res.output, "(none)", sizeof "(none)");
  int code = res.exit_code, want = it->a.exit_code;
  if (res.cancelled)
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("the evaluation was cancelled"));
  else if (res.timed_out)
    decide(it, UPK_ASSERT_ERROR,
           upk_xasprintf("the script ran past its deadline of %ld ms and was killed with its "
                         "process group; its output: %s",
                         timeout, res.output));
  else if ((code == 127 || code == 126) && want != code)
    decide(it, UPK_ASSERT_ERROR,
           upk_xasprintf("the script's command %s (exit status %d): %s",
                         code == 127 ? "was not found" : "cannot be executed", code, res.output));
  else if (code != want)
    decide(it, UPK_ASSERT_FAIL,
           upk_xasprintf("exit status %d (expected %d); its output: %s", code, want, res.output));
  else
    decide(it, UPK_ASSERT_PASS, upk_xasprintf("exit status %d; its output: %s", code, res.output));
  upk_run_result_free(&res);
}

/* Paths from NUL-separated git output. */
static char **split_z(const char *s, size_t len, size_t *n) {
  size_t cap = 1;
  for (size_t i = 0; i < len; i++)
    cap += s[i] == '\0';
  char **v = upk_xcalloc(cap + 1, sizeof *v);
  *n = 0;
  for (size_t i = 0; v && i < len; i += strlen(s + i) + 1)
    if (s[i])
      v[(*n)++] = upk_xstrdup(s + i);
  return v;
}

static void diff_error(exec_item *it, int rc, const upk_run_result *res) {
  if (rc == -ENOENT)
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("diff needs git, which is not installed"));
  else if (rc)
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("cannot run git: %s", strerror(-rc)));
  else if (res->cancelled)
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("the evaluation was cancelled"));
  else if (res->timed_out)
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("git ran past its deadline and was killed"));
  else
    decide(it, UPK_ASSERT_ERROR,
           upk_xasprintf("git failed (exit status %d): %.500s", res->exit_code, res->output));
}

/* Changed paths: everything in the work tree added to a fresh index, against the commit the
 * run started from; a rename is a deletion and an addition. */
static void run_diff(exec_job *j, exec_item *it) {
  char *index = upk_xasprintf("%s/diff-%zu.index", j->dir, it->idx);
  char **env = index ? upk_git_env(environ, j->dir, index) : NULL;
  upk_run_result res = {0};
  const char *verify[] = {"rev-parse", "-q", "--verify", BEFORE_REF, NULL};
  const char *add[] = {"add", "-A", NULL};
  const char *names[] = {
      "diff",     "--cached", "--no-renames", "--no-ext-diff", "--no-textconv", "--name-only", "-z",
      BEFORE_REF, NULL};
  const char *stat[] = {"diff",          "--cached",   "--no-renames", "--no-ext-diff",
                        "--no-textconv", "--stat=200", BEFORE_REF,     NULL};
  int rc = env ? upk_git_run(env, j->ws, j->cancel[0], OUTPUT_TAIL, verify, &res) : -ENOMEM;
  if (!rc && res.exit_code) {
    decide(it, UPK_ASSERT_ERROR,
           upk_xasprintf("the workspace is not a git repository with the commit the run "
                         "started from (%s): git could not set it up, or the agent removed it",
                         BEFORE_REF));
    goto out;
  }
  const char *const *steps[] = {add, names};
  for (size_t s = 0; s < 2; s++) {
    if (!rc)
      upk_run_result_free(&res);
    rc = rc ? rc
            : upk_git_run(env, j->ws, j->cancel[0], s ? NAMES_MAX : OUTPUT_TAIL, steps[s], &res);
    if (rc || res.exit_code || res.timed_out || res.cancelled) {
      diff_error(it, rc, &res);
      goto out;
    }
  }
  if (res.len >= NAMES_MAX) { /* the tail of a longer list: the first names are cut */
    decide(
        it, UPK_ASSERT_ERROR,
        upk_xasprintf("too many changed paths to check (over %d MiB of names)", NAMES_MAX >> 20));
    goto out;
  }
  size_t n = 0;
  char **changed = split_z(res.output, res.len, &n);
  upk_run_result_free(&res);
  rc = upk_git_run(env, j->ws, j->cancel[0], OUTPUT_TAIL, stat, &res);
  char *why = NULL;
  upk_assert_status st =
      changed ? upk_assert_diff_decide(&it->a, changed, n, &why) : UPK_ASSERT_ERROR;
  const char *shown = !rc && !res.exit_code && res.len ? res.output : "no changes\n";
  decide(it, st,
         why ? upk_xasprintf("%s; the diff stat:\n%s", why, shown) : upk_xasprintf("%s", shown));
  upk_strv_free(changed);
out:
  if (!rc)
    upk_run_result_free(&res);
  upk_strv_free(env);
  if (index)
    unlink(index);
  free(index);
}

static void read_kernel(exec_job *j, exec_item *it) {
  size_t len = 0;
  char *text = NULL;
  const char *path = it->a.values[0];
  int rc = upk_read_beneath(j->ws, path, KERNEL_MAX, &text, &len);
  if (rc == -ENOENT)
    decide(it, UPK_ASSERT_FAIL, upk_xasprintf("the agent did not write %s", path));
  else if (rc)
    decide(it, UPK_ASSERT_ERROR,
           upk_xasprintf("%s was not read (it must be a regular file inside the workspace): %s",
                         path, upk_read_error(rc)));
  else if (memchr(text, '\0', len))
    decide(it, UPK_ASSERT_FAIL, upk_xasprintf("%s is not a text file", path));
  else {
    it->source = text;
    text = NULL;
  }
  free(text);
}

static void exec_work(uv_work_t *w) {
  exec_job *j = w->data;
  for (size_t i = 0; i < j->n; i++) {
    exec_item *it = &j->items[i];
    if (it->a.kind == UPK_ASSERT_SCRIPT)
      run_script(j, it);
    else if (it->a.kind == UPK_ASSERT_DIFF)
      run_diff(j, it);
    else
      read_kernel(j, it);
  }
}

/* ---- the loop ---- */

static void job_free(exec_job *j) {
  for (size_t i = 0; i < j->n; i++) {
    upk_assertion_free(&j->items[i].a);
    free(j->items[i].reason);
    free(j->items[i].source);
  }
  free(j->items);
  upk_strv_free(j->env);
  free(j->dir);
  free(j->ws);
  if (j->cancel[0] >= 0)
    close(j->cancel[0]);
  if (j->cancel[1] >= 0)
    close(j->cancel[1]);
  free(j);
}

/* Every check answered: the job is done; the trial finishes when nothing else is out. */
static void job_settle(exec_job *j) {
  eval_trial *x = j->trial;
  if (j->in_work || j->checks_out)
    return;
  if (x)
    x->exec = NULL;
  job_free(j);
  if (!x || x->submitting || !upk_assert_report_done(&x->t.report))
    return;
  upk__eval_trial_finished(x);
  upk__eval_pump(x->e);
}

static void take(exec_job *j, exec_item *it) {
  upk_assert_report_decide(&j->trial->t.report, it->idx, it->status, it->reason);
}

/* The first compiler error's line (1-based; 0: none), for "kernel.cu:2: ..." */
static long error_line(const json_t *result) {
  const json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    if (json_integer_value(json_object_get(d, "severity")) != 1)
      continue;
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    return json_is_integer(json_object_get(start, "line"))
               ? (long)json_integer_value(json_object_get(start, "line")) + 1
               : 0;
  }
  return 0;
}

static bool has_code(const json_t *result, const char *code, const char **msg) {
  const json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (c && !strcmp(c, code)) {
      *msg = json_string_value(json_object_get(d, "message"));
      return true;
    }
  }
  return false;
}

/* Did the run fail for something besides a missing device? (The compile's own errors are
 * not run/ ones.) */
static bool only_no_device(const json_t *result) {
  const json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (json_integer_value(json_object_get(d, "severity")) == 1 &&
        (!c || strcmp(c, "run/no-device")))
      return false;
  }
  return true;
}

static void on_kernel(void *arg, json_t *result) {
  exec_item *it = arg;
  exec_job *j = it->job;
  upk_kcheck_result res;
  char *why = NULL;
  const char *nodev = NULL;
  it->handle = NULL;
  j->checks_out--;
  /* No GPU: the compile's verdict stands, and the run is skipped, never passed. */
  bool skip_run = it->a.run && has_code(result, "run/no-device", &nodev) && only_no_device(result);
  json_t *compiled = skip_run ? json_deep_copy(result) : json_incref(result);
  if (skip_run && compiled)
    json_object_set_new(compiled, "ok", json_true());
  upk_eval_kcheck_from_json(compiled ? compiled : result, &res);
  json_decref(compiled);
  long line = res.status == UPK_ASSERT_FAIL ? error_line(result) : 0;
  if (line > 0 && res.reason) {
    char *at = upk_xasprintf("%s:%ld: %s", it->a.values[0], line, res.reason);
    free(res.reason);
    res.reason = at;
  }
  upk_assert_status st = upk_assert_kernel_decide(&it->a, &res, &why);
  if (st == UPK_ASSERT_PASS && skip_run) {
    char *more = upk_xasprintf("%s; the runtime check (run) was skipped: %s",
                               why ? why : "compiled", nodev ? nodev : "no CUDA device");
    free(why);
    why = more;
    st = UPK_ASSERT_SKIPPED;
  } else if (st == UPK_ASSERT_PASS && it->a.run) {
    json_t *run = json_object_get(result, "run");
    char *more = upk_xasprintf("%s; ran %d trials, max abs error %g", why ? why : "compiled",
                               (int)json_integer_value(json_object_get(run, "trials")),
                               json_number_value(json_object_get(run, "maxAbsError")));
    free(why);
    why = more;
  }
  upk_kcheck_result_free(&res);
  decide(it, st, why);
  if (j->trial)
    take(j, it);
  job_settle(j);
}

/* The run spec, checked as kernel/validate checks it; NULL with *why set when it is bad. */
static json_t *run_spec(const exec_item *it, char *why, size_t whylen) {
  json_t *run = json_loads(it->a.run, 0, NULL);
  int rc = run ? upk_runspec_check(run, why, whylen) : -ENOMEM;
  if (rc) {
    if (!run)
      snprintf(why, whylen, "out of memory");
    json_decref(run);
    return NULL;
  }
  return run;
}

upk_kernel_req upk__eval_kernel_req(upk_server *s, const char *code, const char *file_name,
                                    const char *arch) {
  /* the flags are sent empty: the cache key stays that of the same request without them */
  static const char *none[1];
  static const json_int_t no_blocks[1];
  return (upk_kernel_req){.source = code,
                          .file_name = file_name,
                          .arch = arch ? arch : UPK_ASSERT_DEFAULT_ARCH,
                          .includes = none,
                          .defines = none,
                          .options = none,
                          .names = none,
                          .block_sizes = no_blocks,
                          .wire = {.cuda_path = upk_kernels_cuda_path(s), .pch = true}};
}

static void submit_kernel(exec_job *j, exec_item *it) {
  upk_eval *e = j->trial->e;
  char why[512];
  json_t *run = it->a.run ? run_spec(it, why, sizeof why) : NULL;
  if (it->a.run && !run) {
    decide(it, UPK_ASSERT_ERROR, upk_xasprintf("kernel.run: %s", why));
    take(j, it);
    return;
  }
  const char *base = strrchr(it->a.values[0], '/');
  upk_kernel_req r =
      upk__eval_kernel_req(e->server, it->source, base ? base + 1 : it->a.values[0], it->a.arch);
  /* A run is never cached; the pool's deadline covers the compile and the run. */
  r.run = run;
  r.wire.no_cache = !!run;
  j->checks_out++;
  it->handle = upk_kernels_check(e->server, &r, e->spec.kernel_timeout_ms, !run, on_kernel, it);
  json_decref(run);
}

static void exec_done(uv_work_t *w, int status);

/* Give the pool's threads to the jobs waiting for one, first come first served. */
static void pump_waiting(void) {
  while (running < MAX_RUNNING && wait_head) {
    exec_job *j = wait_head;
    wait_head = j->next;
    if (!wait_head)
      wait_tail = NULL;
    j->waiting = false;
    j->next = NULL;
    /* libuv refuses work only without a work callback */
    (void)uv_queue_work(j->loop, &j->work, exec_work, exec_done);
    running++;
  }
}

static void exec_done(uv_work_t *w, int status) {
  exec_job *j = w->data;
  running--;
  j->in_work = false;
  for (size_t i = 0; j->trial && i < j->n; i++) {
    exec_item *it = &j->items[i];
    if (status)
      decide(it, UPK_ASSERT_ERROR, upk_xasprintf("the check did not run: %s", uv_strerror(status)));
    if (!status && it->source)
      submit_kernel(j, it);
    else
      take(j, it);
  }
  job_settle(j);
  pump_waiting();
}

void upk__eval_exec(eval_trial *x, const char *ws) {
  const upk_evalcase *c = &x->e->spec.cases->items[x->t.case_idx];
  upk_assert_report *r = &x->t.report;
  size_t n = 0;
  for (size_t i = 0; i < r->n && i < c->n_asserts; i++)
    n += UPK_ASSERT_KIND_IS_EXEC(r->results[i].kind) && r->results[i].status == UPK_ASSERT_PENDING;
  if (!n)
    return;
  exec_job *j = upk_xcalloc(1, sizeof *j);
  int rc = j ? 0 : -ENOMEM;
  if (j) {
    j->cancel[0] = j->cancel[1] = -1;
    j->trial = x;
    j->dir = upk_xstrdup(x->dir);
    j->ws = upk_xstrdup(ws);
    j->env = upk_git_script_env(environ, x->dir);
    j->sandbox = x->e->spec.sandbox_scripts;
    j->items = upk_xcalloc(n, sizeof *j->items);
    rc = j->dir && j->ws && j->env && j->items && pipe2(j->cancel, O_CLOEXEC) == 0 ? 0 : -ENOMEM;
  }
  for (size_t i = 0; !rc && i < r->n && i < c->n_asserts; i++) {
    if (!UPK_ASSERT_KIND_IS_EXEC(r->results[i].kind) || r->results[i].status != UPK_ASSERT_PENDING)
      continue;
    exec_item *it = &j->items[j->n];
    *it = (exec_item){.job = j, .idx = i, .status = UPK_ASSERT_ERROR};
    rc = upk_assertion_copy(&it->a, &c->asserts[i]);
    j->n += rc == 0;
  }
  if (rc) {
    for (size_t i = 0; i < r->n; i++)
      if (UPK_ASSERT_KIND_IS_EXEC(r->results[i].kind) && r->results[i].status == UPK_ASSERT_PENDING)
        upk_assert_report_decide(r, i, UPK_ASSERT_ERROR, "the check could not be started");
    if (j)
      job_free(j);
    return;
  }
  j->work.data = j;
  j->loop = upk_session_loop(x->e->server);
  j->in_work = j->waiting = true;
  x->exec = j;
  if (wait_tail)
    wait_tail->next = j;
  else
    wait_head = j;
  wait_tail = j;
  pump_waiting();
}

void upk__eval_cancel_exec(eval_trial *x) {
  exec_job *j = x->exec;
  if (!j)
    return;
  x->exec = NULL;
  j->trial = NULL;
  if (write(j->cancel[1], "x", 1) < 0)
    upk_log(UPK_LOG_DEBUG, "eval: cannot signal a script to stop: %s", strerror(errno));
  for (size_t i = 0; i < j->n; i++)
    if (j->items[i].handle) {
      upk_kcheck_cancel(j->items[i].handle);
      j->items[i].handle = NULL;
      j->checks_out--;
    }
  if (j->waiting) { /* never started: out of the wait list */
    exec_job **p = &wait_head, *prev = NULL;
    while (*p != j)
      prev = *p, p = &(*p)->next;
    *p = j->next;
    if (wait_tail == j)
      wait_tail = prev;
    j->in_work = false;
  }
  if (!j->in_work)
    job_free(j);
}
