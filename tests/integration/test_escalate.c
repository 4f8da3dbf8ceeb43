/* Stopping a worker whose worker command ignores SIGTERM (issue 16: a queued srun sometimes
 * does, and its job outlived the daemon's stop). The real daemon runs with
 * --worker-command=stubborn_launcher.sh, a stand-in for a queued srun that never starts the
 * worker and ignores the first SIGTERM (`once`) or every one (`always`). Whether the worker is
 * stopped at its deadline, by a cancel or at shutdown, the daemon must send SIGTERM again, then
 * SIGKILL, say so (window/logMessage and stderr), and leave no launcher behind. The bounds below
 * are generous liveness limits, not timings. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

#define GONE_MS 30000 /* how long a stopped launcher may take to disappear, at most */

static char dir[64];
static char command[512];

static size_t launchers(int *pids, size_t max);

/* Whether `pid` is still one of this test's launchers (not a reused pid): each one works in
 * our directory. */
static bool our_launcher(int pid) {
  char path[64], cwd[256];
  snprintf(path, sizeof path, "/proc/%d/cwd", pid);
  ssize_t n = readlink(path, cwd, sizeof cwd - 1);
  cwd[n > 0 ? n : 0] = '\0';
  return n > 0 && !strcmp(cwd, dir);
}

/* After a failure, launchers the daemon left behind would loop forever: end them. */
static void cleanup(void) {
  if (!dir[0])
    return;
  int pids[16];
  size_t n = launchers(pids, 16);
  for (size_t i = 0; i < n; i++)
    if (our_launcher(pids[i]))
      kill(pids[i], SIGKILL);
  fsx_rm_rf(dir);
  dir[0] = '\0';
}

TestSuite(escalate, .fini = cleanup, .timeout = 180);

/* A private directory for the launchers' logs, and the --worker-command flag using it. */
static const char *launcher_flag(const char *mode) {
  fsx_mkdtemp(dir, "escalate");
  snprintf(command, sizeof command,
           "--worker-command=%s/tests/integration/stubborn_launcher.sh %s %s",
           getenv("UPK_SOURCE_ROOT"), mode, dir);
  return command;
}

/* The same launcher installed as DIR/srun, with a stand-in DIR/scancel beside it that logs its
 * arguments to DIR/scancel.log and cancels the "job" (DIR/cancelled-ID). */
static const char *srun_flag(const char *mode) {
  fsx_mkdtemp(dir, "escalate");
  char path[256], target[512], script[512];
  snprintf(path, sizeof path, "%s/srun", dir);
  snprintf(target, sizeof target, "%s/tests/integration/stubborn_launcher.sh",
           getenv("UPK_SOURCE_ROOT"));
  cr_assert_eq(symlink(target, path), 0, "symlink %s", path);
  snprintf(path, sizeof path, "%s/scancel", dir);
  snprintf(script, sizeof script,
           "#!/bin/sh\necho \"$*\" >>%s/scancel.log\ntouch %s/cancelled-$1\n", dir, dir);
  fsx_write(path, script);
  cr_assert_eq(chmod(path, 0755), 0);
  snprintf(command, sizeof command, "--worker-command=%s/srun %s %s", dir, mode, dir);
  return command;
}

/* The launchers started so far: their pids (at most `max`). */
static size_t launchers(int *pids, size_t max) {
  DIR *d = opendir(dir);
  size_t n = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d)) && n < max;) {
    int pid = atoi(e->d_name);
    if (pid > 1 && strstr(e->d_name, ".log"))
      pids[n++] = pid;
  }
  closedir(d);
  return n;
}

/* What launcher `pid` logged (the SIGTERMs that reached it), in `out`. */
static const char *launcher_log(int pid, char *out, size_t len) {
  char path[128];
  snprintf(path, sizeof path, "%s/%d.log", dir, pid);
  char *text = fsx_read(path);
  cr_assert_not_null(text, "%s", path);
  snprintf(out, len, "%s", text);
  free(text);
  return out;
}

static bool alive(int pid) {
  return kill(pid, 0) == 0 || errno != ESRCH;
}

static void assert_gone(int pid) {
  for (int t = 0; t < GONE_MS && alive(pid); t += 50)
    hx_msleep(50);
  cr_assert(!alive(pid), "launcher %d still runs %d ms after it was stopped", pid, GONE_MS);
}

/* The first launcher to log `what` (a SIGTERM reached it), waited for; its pid. */
static int launcher_that_logged(const char *what) {
  char text[256];
  for (int t = 0; t < GONE_MS; t += 50, hx_msleep(50)) {
    int pids[16];
    size_t n = launchers(pids, 16);
    for (size_t i = 0; i < n; i++)
      if (strstr(launcher_log(pids[i], text, sizeof text), what))
        return pids[i];
  }
  cr_assert_fail("no launcher logged '%s' within %d ms", what, GONE_MS);
  return -1;
}

/* The next window/logMessage whose message holds `what` (other messages are skipped). */
static void wait_log_message(hx *d, const char *what) {
  for (json_t *m; (m = hx_next(d, GONE_MS));) {
    const char *method = json_string_value(json_object_get(m, "method"));
    const char *text = json_string_value(json_object_get(json_object_get(m, "params"), "message"));
    bool hit = method && !strcmp(method, "window/logMessage") && text && strstr(text, what);
    json_decref(m);
    if (hit)
      return;
  }
  cr_assert_fail("no window/logMessage saying '%s'", what);
}

/* Ends the daemon with EOF, requires exit 0 and `said` on its stderr, and every launcher gone. */
static void finish_and_check_launchers(hx *d, const char *said) {
  hx_close_stdin(d);
  int rc = hx_wait(d, GONE_MS); /* shutdown waits for the escalation: bounded, not forever */
  char *err = hx_stderr(d);
  cr_assert_eq(rc, 0, "the daemon exited with %d (-1: still running); stderr:\n%.3000s", rc, err);
  cr_assert(strstr(err, said), "stderr does not say '%s':\n%.3000s", said, err);
  free(err);
  hx_assert_clean_stderr(d);
  hx_free(d);
  int pids[16];
  size_t n = launchers(pids, 16);
  cr_assert_gt(n, 0, "no launcher ever started");
  for (size_t i = 0; i < n; i++)
    assert_gone(pids[i]);
}

/* Waits until a worker runs a request (upskilld/status) and every launcher started so far has
 * set its trap (its log file is there): a SIGTERM sent before would simply end it. */
static void wait_ready(hx *d) {
  static int id = 1000;
  for (int t = 0; t < GONE_MS; t += 50, hx_msleep(50)) {
    char idtxt[16];
    snprintf(idtxt, sizeof idtxt, "%d", ++id);
    json_t *resp =
        hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"upskilld/status\"}", id);
    json_t *w =
        json_object_get(json_object_get(hx_assert_result(resp, idtxt), "kernels"), "workers");
    json_int_t running = json_integer_value(json_object_get(w, "running"));
    json_int_t started = json_integer_value(json_object_get(w, "started"));
    json_decref(resp);
    int pids[16];
    if (running > 0 && (json_int_t)launchers(pids, 16) >= started)
      return;
  }
  cr_assert_fail("no worker took the request within %d ms", GONE_MS);
}

/* upskilld/worker (test only) with a deadline of 5 s: the launcher never starts the worker. */
static void hello_times_out(hx *d, int id, const char *launcher) {
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"upskilld/worker\",\"params\":{\"op\":"
           "\"hello\",\"timeoutMs\":5000}}",
           id);
  wait_ready(d);
  json_t *resp = hx_response(d, HX_TIMEOUT);
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", id);
  json_t *r = hx_assert_result(resp, idtxt);
  cr_assert_str_eq(json_string_value(json_object_get(r, "status")), "EAGAIN", "%s", hx_dump(r));
  const char *error = json_string_value(json_object_get(r, "error"));
  char said[128];
  snprintf(said, sizeof said, "%s did not start upskilld-worker", launcher);
  cr_assert(error && strstr(error, said), "%s", hx_dump(r));
  json_decref(resp);
}

Test(escalate, a_launcher_that_ignores_the_first_sigterm_gets_a_second) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods", launcher_flag("once")));
  hello_times_out(d, 1, "stubborn_launcher.sh");
  /* Stopped at its deadline: SIGTERM, ignored; SIGTERM again, which ends it. */
  wait_log_message(d, "ignored SIGTERM for 2000 ms: sending SIGTERM again");
  int pid = launcher_that_logged("TERM 2");
  assert_gone(pid);
  char text[256];
  cr_assert_str_eq(launcher_log(pid, text, sizeof text), "TERM 1\nTERM 2\n");
  wait_log_message(d, "ignored the first SIGTERM and ended at the second");
  hx_ping(d); /* the daemon is fine; its replacement launcher is stopped the same way at exit */
  finish_and_check_launchers(d, "ended at the second");
}

Test(escalate, a_launcher_that_ignores_every_sigterm_is_killed) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods", launcher_flag("always")));
  /* Stopped by a cancel this time. */
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"upskilld/worker\","
             "\"params\":{\"op\":\"hello\",\"timeoutMs\":60000}}");
  wait_ready(d);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":7}}");
  json_t *resp = hx_response(d, HX_TIMEOUT);
  cr_assert(resp, "no answer to the cancelled request");
  hx_assert_error(resp, "7", -32800);
  json_decref(resp);
  wait_log_message(d, "ignored SIGTERM 5 times: killing it with SIGKILL");
  wait_log_message(d, "ignored SIGTERM and was killed with SIGKILL");
  int pid = launcher_that_logged("TERM ignored\nTERM ignored\n");
  assert_gone(pid);
  hx_ping(d);
  finish_and_check_launchers(d, "was killed with SIGKILL");
}

/* At shutdown, with a request in flight cancelled at once (--shutdown-grace=0): the daemon's exit
 * waits for the escalation, and leaves no launcher running. */
Test(escalate, shutdown_kills_a_launcher_that_ignores_sigterm_before_exiting) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods", "--shutdown-grace=0", launcher_flag("always")));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"upskilld/worker\","
             "\"params\":{\"op\":\"hello\",\"timeoutMs\":60000}}");
  wait_ready(d);
  finish_and_check_launchers(d, "was killed with SIGKILL");
}

/* srun said its job id: stopping it (at the request's deadline) cancels that job with the
 * scancel beside it, at the first SIGTERM, so the job ends even though srun ignores SIGTERM, and
 * no SIGKILL is needed. */
Test(escalate, a_stopped_srun_has_its_job_cancelled) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods", srun_flag("queued")));
  hello_times_out(d, 1, "srun"); /* the cancel is logged before this answer: see stderr */
  int pid = launcher_that_logged("TERM ignored");
  assert_gone(pid);
  char path[128];
  snprintf(path, sizeof path, "%s/scancel.log", dir);
  char *cancelled = fsx_read(path);
  cr_assert(cancelled && !strcmp(cancelled, "4242\n"), "scancel.log: %s", cancelled);
  free(cancelled);
  hx_ping(d);
  hx_close_stdin(d);
  cr_assert_eq(hx_wait(d, GONE_MS), 0);
  char *err = hx_stderr(d);
  cr_assert(strstr(err, "srun: job 4242 queued and waiting for resources") &&
                strstr(err, "is stopped: cancelling its Slurm job 4242"),
            "%.3000s", err);
  cr_assert(!strstr(err, "SIGKILL"), "the job's cancel should have ended srun:\n%.3000s", err);
  free(err);
  hx_free(d);
}

/* A scheduler that refuses the job: the request fails with srun's own reason, not a pointer to
 * the daemon's stderr. */
Test(escalate, a_refused_job_fails_with_the_schedulers_reason) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods", srun_flag("refuse")));
  json_t *resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/worker\","
                            "\"params\":{\"op\":\"hello\",\"timeoutMs\":20000}}");
  json_t *r = hx_assert_result(resp, "1");
  const char *error = json_string_value(json_object_get(r, "error"));
  cr_assert(error && strstr(error, "srun exited with status 1 before upskilld-worker answered") &&
                strstr(error, "Requested partition configuration not available now"),
            "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}
