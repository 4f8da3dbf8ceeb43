/* The worker server through the real daemon: a daemon launches it, the next daemons take their
 * workers from it (warm), a cancelled check kills only that server worker, a server that goes
 * away mid-session is replaced by local workers, and no server is used when it is switched off
 * or its directory is not private. Each test has its own XDG_RUNTIME_DIR and stops the server it
 * started. Tests skip without the CUDA toolkit (no warm worker without NVRTC). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "tests/integration/harness.h"

TestSuite(wserver, .timeout = 240);

static const char *SAXPY_PARAMS =
    "{\"source\":\"extern \\\"C\\\" __global__ void saxpy(int n, float a, const float *x, "
    "float *y) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + "
    "y[i]; }\",\"cache\":false}";

static char runtime[256]; /* this test's XDG_RUNTIME_DIR */

static bool have_toolkit(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[512];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", cuda && *cuda ? cuda : "/usr/local/cuda");
  return access(p, R_OK) == 0;
}

static void setup(void) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit (NVRTC) on this machine");
  snprintf(runtime, sizeof runtime, "/tmp/upk-wsrv-XXXXXX");
  cr_assert(mkdtemp(runtime));
  setenv("XDG_RUNTIME_DIR", runtime, 1);
  setenv("UPSKILLD_WORKER_SERVER_IDLE", "60", 1);
}

/* The server's socket in this test's runtime dir, or "" when there is none yet. */
static const char *socket_path(void) {
  static char path[512];
  char dir[300];
  snprintf(dir, sizeof dir, "%s/upskilld", runtime);
  path[0] = '\0';
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));)
    if (!strncmp(e->d_name, "workers-", 8) && strstr(e->d_name, ".sock") &&
        !strstr(e->d_name, ".lock"))
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
  if (d)
    closedir(d);
  return path;
}

/* Connect to the server; its greeting's pid (a server worker), or 0 when none answers. */
static int server_worker_pid(int timeout_ms) {
  for (int waited = 0; waited <= timeout_ms; waited += 50, hx_msleep(50)) {
    const char *p = socket_path();
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (!*p)
      continue;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", p);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
      close(fd);
      continue;
    }
    char buf[256] = "";
    struct timeval tv = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    int pid = 0;
    if (n > 0 && sscanf(buf, "{\"worker\":{\"pid\":%d", &pid) == 1)
      return pid;
  }
  return 0;
}

static int parent_of(int pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = '\0';
  char *close_paren = strrchr(buf, ')');
  int ppid = 0;
  if (close_paren)
    sscanf(close_paren + 2, "%*c %d", &ppid);
  return ppid;
}

static bool gone(int pid, int timeout_ms) {
  for (int waited = 0; waited <= timeout_ms; waited += 20, hx_msleep(20))
    if (kill(pid, 0) && errno == ESRCH)
      return true;
  return false;
}

/* SIGTERM the server (the parent of a worker it hands out) and wait until it is gone. */
static void stop_server(void) {
  int worker = *socket_path() ? server_worker_pid(2000) : 0;
  int server = worker ? parent_of(worker) : 0;
  if (server > 1) {
    kill(server, SIGTERM);
    cr_expect(gone(server, 5000), "the worker server did not exit on SIGTERM");
    cr_expect(gone(worker, 5000), "its worker outlived it");
  }
}

/* Any server of this test's runtime dir still running (one may be starting, with no socket yet):
 * found by its command line, killed. */
static void kill_leftover_servers(void) {
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d));) {
    int pid = atoi(e->d_name);
    char path[64], cmd[1024];
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    FILE *f = pid > 1 ? fopen(path, "r") : NULL;
    size_t n = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f)
      fclose(f);
    for (size_t i = 0; i < n; i++)
      cmd[i] = cmd[i] ? cmd[i] : ' ';
    cmd[n] = '\0';
    if (strstr(cmd, "--serve") && strstr(cmd, runtime))
      kill(pid, SIGKILL);
  }
  if (d)
    closedir(d);
}

static void teardown(void) {
  if (!*runtime)
    return;
  stop_server();
  kill_leftover_servers();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", runtime);
  cr_expect_eq(system(cmd), 0);
  runtime[0] = '\0';
}

static json_t *validate(hx *d, json_t **resp, int id) {
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", id);
  *resp =
      hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":%s}",
               id, SAXPY_PARAMS);
  return hx_assert_result(*resp, idtxt);
}

/* A kernels.workers counter from upskilld/status, once the pool has started (a moment after
 * initialize). */
static json_int_t workers_stat(hx *d, const char *name) {
  for (int waited = 0;; waited += 20) {
    json_t *resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"upskilld/status\"}");
    json_t *k = json_object_get(hx_assert_result(resp, "900"), "kernels");
    json_t *v = json_object_get(json_object_get(k, "workers"), name);
    if (v || waited >= HX_TIMEOUT) {
      cr_assert(v, "no kernels.workers.%s in %s", name, hx_dump(resp));
      json_int_t n = json_integer_value(v);
      json_decref(resp);
      return n;
    }
    json_decref(resp);
    hx_msleep(20);
  }
}

/* kernels.workers.serverSocket from upskilld/status (static storage; "" for null). */
static const char *status_socket(hx *d) {
  static char path[512];
  workers_stat(d, "fromServer"); /* waits for the pool */
  json_t *resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":901,\"method\":\"upskilld/status\"}");
  json_t *k = json_object_get(hx_assert_result(resp, "901"), "kernels");
  json_t *v = json_object_get(json_object_get(k, "workers"), "serverSocket");
  cr_assert(v, "no kernels.workers.serverSocket in %s", hx_dump(resp));
  snprintf(path, sizeof path, "%s", json_is_string(v) ? json_string_value(v) : "");
  json_decref(resp);
  return path;
}

static json_int_t registers(json_t *result) {
  json_t *k = json_array_get(json_object_get(result, "kernels"), 0);
  return json_integer_value(json_object_get(k, "registers"));
}

Test(wserver, later_daemons_take_warm_workers_from_the_server, .init = setup, .fini = teardown) {
  hx *a = hx_lsp_session(HX_NOARGS);
  json_t *ra;
  json_t *first = validate(a, &ra, 1);
  cr_assert(json_is_true(json_object_get(first, "ok")), "%s", hx_dump(first));
  cr_assert_eq(workers_stat(a, "fromServer"), 0, "no server ran before this daemon");
  hx_finish(a, 0);
  int worker = server_worker_pid(20000);
  cr_assert_gt(worker, 1, "the first daemon did not leave a worker server behind");

  for (int i = 0; i < 2; i++) { /* the worker goes back to the server after each daemon */
    hx *b = hx_lsp_session(HX_NOARGS);
    json_t *rb;
    json_t *again = validate(b, &rb, 2);
    cr_assert(json_is_true(json_object_get(again, "ok")), "%s", hx_dump(again));
    cr_assert_eq(registers(again), registers(first), "the same kernel, the same report");
    cr_assert_geq(workers_stat(b, "fromServer"), 1, "daemon %d used no server worker", i);
    cr_assert_eq(workers_stat(b, "started"), 0, "daemon %d started a local worker", i);
    cr_assert_str_eq(status_socket(b), socket_path(), "status names the server's socket");
    json_decref(rb);
    hx_finish(b, 0);
  }
  json_decref(ra);
}

Test(wserver, cancelling_kills_only_that_server_worker, .init = setup, .fini = teardown) {
  hx *a = hx_lsp_session(HX_NOARGS);
  json_t *ra;
  validate(a, &ra, 1);
  json_decref(ra);
  hx_finish(a, 0);
  int worker = server_worker_pid(20000);
  cr_assert_gt(worker, 1);
  int server = parent_of(worker);

  hx *b = hx_lsp_session(HX_NOARGS);
  cr_assert_eq(workers_stat(b, "fromServer"), 1, "the warm worker came from the server");
  hx_validate_then_cancel(b, 7); /* mid-compile */
  cr_assert_eq(workers_stat(b, "killed"), 1, "cancelling kills the compile's worker");
  json_t *rb;
  json_t *next = validate(b, &rb, 8);
  cr_assert(json_is_true(json_object_get(next, "ok")), "%s", hx_dump(next));
  json_decref(rb);
  hx_finish(b, 0);
  cr_assert(kill(server, 0) == 0, "the server survives its worker's kill");
  cr_assert_gt(server_worker_pid(20000), 1, "the server still hands out workers");
}

Test(wserver, a_server_that_goes_away_is_replaced_by_local_workers, .init = setup,
     .fini = teardown) {
  hx *a = hx_lsp_session(HX_NOARGS);
  json_t *r;
  validate(a, &r, 1);
  json_decref(r);
  hx_finish(a, 0);
  cr_assert_gt(server_worker_pid(20000), 1);

  hx *b = hx_lsp_session(HX_NOARGS);
  cr_assert_eq(workers_stat(b, "fromServer"), 1);
  stop_server(); /* b's idle worker dies with it */
  json_t *ok = validate(b, &r, 2);
  cr_assert(json_is_true(json_object_get(ok, "ok")), "%s", hx_dump(ok));
  json_decref(r);
  hx_ping(b);
  hx_finish(b, 0);
}

/* The server's start (NVRTC load and a warm-up compile) must not take the cores of the first
 * daemon's own check: it is launched once that check is answered. */
Test(wserver, the_server_starts_after_the_first_check_not_during_it, .init = setup,
     .fini = teardown) {
  hx *a = hx_lsp_session(HX_NOARGS);
  hx_sendf(a,
           "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"kernel/validate\",\"params\":{\"path\":"
           "\"%s/tests/kernel/corpus/half_bf16_cg.cu\",\"cache\":false}}",
           getenv("UPK_SOURCE_ROOT"));
  hx_msleep(300); /* a cold header-heavy compile takes well over a second */
  bool early = *socket_path() != '\0';
  /* cold, header-heavy, and under ASan on a loaded machine: far slower than a usual answer */
  json_t *resp = hx_response(a, 6 * HX_TIMEOUT);
  cr_assert(resp, "no answer to a cold compile in %d s", 6 * HX_TIMEOUT / 1000);
  cr_assert(json_is_true(json_object_get(hx_assert_result(resp, "7"), "ok")));
  json_decref(resp);
  cr_assert_not(early, "the server was launched while the first check compiled");
  cr_assert_gt(server_worker_pid(20000), 1, "no server after the check was answered");
  hx_finish(a, 0);
}

/* The number of entries in this test's socket directory whose names start with `prefix` and end
 * with `suffix`. */
static int count_files(const char *prefix, const char *suffix) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/upskilld", runtime);
  int n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name), sl = strlen(suffix);
    n += !strncmp(e->d_name, prefix, strlen(prefix)) && len >= sl &&
         !strcmp(e->d_name + len - sl, suffix);
  }
  if (d)
    closedir(d);
  return n;
}

/* PATH = a new directory (in the runtime dir, removed with it) holding `gcc` when `gcc_script`
 * is given, then the test's PATH. Returns the old PATH (static). */
static const char *path_with_new_dir(const char *name, const char *gcc_script) {
  static char old[8192];
  snprintf(old, sizeof old, "%s", getenv("PATH"));
  char dir[400], file[450], path[9000];
  snprintf(dir, sizeof dir, "%s/%s", runtime, name);
  cr_assert_eq(mkdir(dir, 0700), 0);
  if (gcc_script) {
    snprintf(file, sizeof file, "%s/gcc", dir);
    FILE *f = fopen(file, "w");
    cr_assert(f);
    fprintf(f, "%s", gcc_script);
    fclose(f);
    cr_assert_eq(chmod(file, 0700), 0);
  }
  snprintf(path, sizeof path, "%s:%s", dir, old);
  setenv("PATH", path, 1);
  return old;
}

/* A daemon started with `PATH=NEW_DIR:$PATH`: checks the kernel, returns its socket. */
static const char *check_with_path(const char *name, const char *gcc_script, bool warm) {
  static char sock[512];
  const char *old = path_with_new_dir(name, gcc_script);
  hx *d = hx_lsp_session(HX_NOARGS);
  setenv("PATH", old, 1);
  snprintf(sock, sizeof sock, "%s", status_socket(d));
  json_t *r;
  json_t *ok = validate(d, &r, 1);
  cr_assert(json_is_true(json_object_get(ok, "ok")), "%s", hx_dump(ok));
  if (warm)
    cr_assert_geq(workers_stat(d, "fromServer"), 1, "PATH %s: no warm worker from the server",
                  name);
  json_decref(r);
  hx_finish(d, 0);
  return sock;
}

/* Codex puts a fresh directory at the front of PATH for every run: it holds no compiler, so the
 * runs share one server (issue 49). */
Test(wserver, a_path_dir_without_compilers_shares_the_server, .init = setup, .fini = teardown) {
  char first[512];
  snprintf(first, sizeof first, "%s", check_with_path("run1", NULL, false));
  int worker = server_worker_pid(20000);
  cr_assert_gt(worker, 1, "the first daemon did not leave a worker server behind");
  int server = parent_of(worker);
  cr_assert_str_eq(check_with_path("run2", NULL, true), first, "another socket for run2");
  cr_assert_eq(parent_of(server_worker_pid(20000)), server, "another server");
  cr_assert_eq(count_files("workers-", ".sock"), 1, "more than one server socket");
}

/* A PATH whose gcc is another program (here a wrapper script) gets its own server: its workers
 * would run that gcc. */
Test(wserver, a_path_with_another_gcc_gets_its_own_server, .init = setup, .fini = teardown) {
  char first[512], script[9000];
  snprintf(first, sizeof first, "%s", check_with_path("plain", NULL, false));
  cr_assert_gt(server_worker_pid(20000), 1);
  snprintf(script, sizeof script, "#!/bin/sh\nPATH='%s' exec gcc \"$@\"\n", getenv("PATH"));
  const char *other = check_with_path("wrapped", script, false);
  cr_assert(*other && strcmp(other, first), "the same socket for another gcc: %s", other);
  for (int waited = 0; count_files("workers-", ".sock") < 2 && waited < 20000; waited += 50)
    hx_msleep(50);
  cr_assert_eq(count_files("workers-", ".sock"), 2, "no second server for another gcc");
}

/* The server removes its lock file with its socket when it exits (they piled up, one per run). */
Test(wserver, no_lock_file_is_left_after_the_server_exits, .init = setup, .fini = teardown) {
  setenv("UPSKILLD_WORKER_SERVER_IDLE", "1", 1);
  hx *a = hx_lsp_session(HX_NOARGS);
  json_t *r;
  validate(a, &r, 1);
  json_decref(r);
  /* Found while the daemon is still connected: with a one-second idle limit the server can be
   * gone by the time a loaded machine has finished the session. */
  int worker = server_worker_pid(20000);
  cr_assert_gt(worker, 1, "no worker server");
  int server = parent_of(worker);
  cr_assert_eq(count_files("workers-", ".sock.lock"), 1, "the running server holds no lock file");
  hx_finish(a, 0);
  cr_assert(gone(server, 15000), "the server did not exit when idle");
  cr_assert_eq(count_files("workers-", ""), 0, "a socket or lock file is left");
}

/* A daemon checks a kernel (on a local worker) and exits; no server socket may appear. */
static void check_leaves_no_server(hx *a, const char *why) {
  json_t *r;
  json_t *ok = validate(a, &r, 1);
  cr_assert(json_is_true(json_object_get(ok, "ok")), "%s", hx_dump(ok));
  json_decref(r);
  hx_finish(a, 0);
  hx_msleep(300);
  cr_assert_str_eq(socket_path(), "", "%s", why);
}

Test(wserver, no_server_when_switched_off, .init = setup, .fini = teardown) {
  hx *a = hx_lsp_session(HX_ARGS("--worker-server-idle=0"));
  cr_assert_str_eq(status_socket(a), "", "status names a server socket though switched off");
  check_leaves_no_server(a, "a server was started though switched off");
}

Test(wserver, no_server_in_a_directory_others_can_enter, .init = setup, .fini = teardown) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/upskilld", runtime);
  cr_assert_eq(mkdir(dir, 0755), 0);
  chmod(dir, 0755); /* whatever the umask */
  check_leaves_no_server(hx_lsp_session(HX_NOARGS),
                         "a server socket was put in a shared directory");
}

Test(wserver, bad_idle_flag_is_refused) {
  hx *a = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_ARGS("--worker-server-idle=soon"));
  char *err = NULL;
  hx_close_stdin(a);
  cr_assert(hx_read_to_eof(a, HX_TIMEOUT));
  hx_msleep(100);
  err = hx_stderr(a);
  cr_assert(strstr(err, "--worker-server-idle"), "%s", err);
  free(err);
  hx_free(a);
}
