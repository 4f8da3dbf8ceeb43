/* The worker server (`upskilld-worker --serve`, gpu/worker/serve.h) as real processes on real
 * sockets: greeting and validate on two connections, one server per path, a killed worker
 * replaced, idle exit, SIGTERM, a stale socket file, a path too long. Each test has its own
 * directory; the server is killed in teardown whatever happened. Tests that compile skip
 * without NVRTC. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#define NVRTC_LIB "/usr/local/cuda/lib64/libnvrtc.so"
#define READ_MS 30000 /* a reply: a cold worker loads NVRTC and warms up first */

#define NEED_NVRTC()                                                                               \
  do {                                                                                             \
    if (access(NVRTC_LIB, R_OK) != 0)                                                              \
      cr_skip_test("no NVRTC at %s", NVRTC_LIB);                                                   \
  } while (0)

static char dir[64];        /* this test's directory */
static char sock_path[96];  /* dir/s.sock */
static pid_t server = -1;   /* the supervisor we started */
static int server_out = -1; /* read end of its stdout */

static void setup(void) {
  signal(SIGPIPE, SIG_IGN);
  snprintf(dir, sizeof dir, "/tmp/upk-wserve-XXXXXX");
  cr_assert(mkdtemp(dir));
  snprintf(sock_path, sizeof sock_path, "%s/s.sock", dir);
}

static void teardown(void) {
  if (server > 0) {
    kill(server, SIGKILL); /* its children die with it (PR_SET_PDEATHSIG) */
    waitpid(server, NULL, 0);
    server = -1;
  }
  if (server_out >= 0) {
    char c;
    cr_expect_eq(read(server_out, &c, 1), 0, "the server wrote on its stdout");
    close(server_out);
    server_out = -1;
  }
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_expect_eq(system(cmd), 0);
}

TestSuite(wserve, .init = setup, .fini = teardown, .timeout = 120);

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_ms(int ms) {
  struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* Start `upskilld-worker --serve PATH extra...` with its stdout on a pipe (`*out`, read end). */
static pid_t spawn_server(const char *path, const char *const *extra, bool faults, int *out) {
  const char *worker = getenv("UPSKILLD_WORKER");
  cr_assert(worker && *worker, "UPSKILLD_WORKER is not set");
  int p[2];
  cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
  char cache[96];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    const char *argv[16] = {worker, "--serve", path};
    for (size_t i = 0; extra && extra[i] && i < 12; i++)
      argv[3 + i] = extra[i];
    dup2(p[1], STDOUT_FILENO);
    setenv("XDG_CACHE_HOME", cache, 1); /* the warm-up's result is stored: not in ~/.cache */
    if (faults)
      setenv("UPSKILLD_WORKER_FAULTS", "1", 1);
    else
      unsetenv("UPSKILLD_WORKER_FAULTS");
    execv(worker, (char *const *)argv);
    _exit(127);
  }
  close(p[1]);
  *out = p[0];
  return pid;
}

/* The test's server (killed in teardown). */
static void start(const char *const *extra, bool faults) {
  server = spawn_server(sock_path, extra, faults, &server_out);
}

/* Connect to the path, retrying while the server binds. */
static int connect_to(const char *path, int ms) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  double end = now_s() + ms / 1000.0;
  for (;;) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert(fd >= 0);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
      return fd;
    close(fd);
    cr_assert(now_s() < end, "cannot connect to %s: %s", path, strerror(errno));
    sleep_ms(10);
  }
}

/* One line from fd (NULL at EOF), waiting at most READ_MS. Byte by byte: one reply at a time. */
static char *read_line(int fd) {
  static char buf[1 << 20];
  size_t n = 0;
  double end = now_s() + READ_MS / 1000.0;
  for (;;) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int left = (int)((end - now_s()) * 1000);
    cr_assert(left > 0 && poll(&p, 1, left) == 1, "no reply within %d ms", READ_MS);
    ssize_t k = read(fd, buf + n, 1);
    if (k <= 0)
      return NULL;
    if (buf[n] == '\n') {
      buf[n] = '\0';
      return buf;
    }
    cr_assert(++n < sizeof buf - 1, "reply too long");
  }
}

/* The greeting's pid. */
static pid_t greeting(int fd) {
  char *line = read_line(fd);
  cr_assert(line, "EOF before the greeting");
  json_t *g = json_loads(line, 0, NULL);
  cr_assert(g, "greeting is not JSON: %s", line);
  cr_assert_eq(json_object_size(g), 1, "%s", line);
  pid_t pid = (pid_t)json_integer_value(json_object_get(json_object_get(g, "worker"), "pid"));
  json_decref(g);
  cr_assert_gt(pid, 0, "no pid in the greeting: %s", line);
  cr_assert_neq(pid, server, "the supervisor itself serves");
  return pid;
}

/* Send a request; its reply (caller frees), checked to carry the same id. */
static json_t *call(int fd, int id, const char *op, json_t *params) {
  json_t *req = json_pack("{s:i,s:s,s:o?}", "id", id, "op", op, "params", params);
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  size_t n = strlen(text);
  text[n] = '\n';
  cr_assert_eq(write(fd, text, n + 1), (ssize_t)(n + 1));
  free(text);
  char *line = read_line(fd);
  cr_assert(line, "EOF instead of the reply to %s", op);
  json_t *r = json_loads(line, 0, NULL);
  cr_assert(r, "reply is not JSON: %s", line);
  cr_assert_eq(json_integer_value(json_object_get(r, "id")), id, "%s", line);
  return r;
}

static pid_t hello(int fd, int id) {
  json_t *r = call(fd, id, "hello", json_object());
  pid_t pid = (pid_t)json_integer_value(json_object_get(json_object_get(r, "result"), "pid"));
  json_decref(r);
  return pid;
}

static json_t *saxpy_params(void) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  char path[512];
  snprintf(path, sizeof path, "%s/tests/kernel/corpus/saxpy.cu", root ? root : ".");
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s (UPK_SOURCE_ROOT unset?)", path);
  static char src[1 << 16];
  size_t n = fread(src, 1, sizeof src - 1, f);
  fclose(f);
  src[n] = '\0';
  return json_pack("{s:s,s:s,s:b}", "source", src, "arch", "sm_90a", "noCache", 1);
}

static void expect_validate_ok(int fd, int id) {
  json_t *r = call(fd, id, "validate", saxpy_params());
  json_t *res = json_object_get(r, "result");
  char *text = json_dumps(r, JSON_COMPACT);
  cr_assert(json_is_true(json_object_get(res, "ok")), "validate: %s", text);
  free(text);
  json_decref(r);
}

/* Wait up to `ms` for pid (our child) to exit; its wait status, or -1 if it did not. */
static int wait_exit(pid_t pid, int ms) {
  double end = now_s() + ms / 1000.0;
  int st;
  while (now_s() < end) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    cr_assert(r >= 0, "waitpid: %s", strerror(errno));
    if (r == pid)
      return st;
    sleep_ms(10);
  }
  return -1;
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static const char *lock_path(void) {
  static char p[128];
  snprintf(p, sizeof p, "%s.lock", sock_path);
  return p;
}

static bool alive(pid_t pid) {
  return kill(pid, 0) == 0;
}

/* Children of `parent`, from /proc. */
static size_t children_of(pid_t parent, pid_t *out, size_t max) {
  DIR *d = opendir("/proc");
  cr_assert(d);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < max) {
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[k] = '\0';
    char *rp = strrchr(buf, ')'); /* after "pid (comm)": state, then ppid */
    int ppid;
    if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == parent)
      out[n++] = (pid_t)atoi(e->d_name);
  }
  closedir(d);
  return n;
}

Test(wserve, greets_and_validates_on_two_connections) {
  NEED_NVRTC();
  start((const char *[]){"--idle", "30", NULL}, false);
  int a = connect_to(sock_path, 10000);
  pid_t pa = greeting(a);
  expect_validate_ok(a, 1);
  expect_validate_ok(a, 2); /* a second request on the same connection */
  cr_assert_eq(hello(a, 3), pa, "the greeting's pid is the worker's");
  int b = connect_to(sock_path, 10000);
  pid_t pb = greeting(b);
  cr_assert_neq(pa, pb, "two open connections, one worker");
  expect_validate_ok(b, 4);
  close(a), close(b);
}

/* Connections one after another (daemons one after another) are all served by the one warm
 * child: no spare is started while a check runs, only for a connection that has to wait. */
Test(wserve, one_warm_child_serves_connections_one_after_another) {
  start((const char *[]){"--idle", "30", NULL}, false);
  pid_t first = 0;
  for (int i = 0; i < 3; i++) {
    int fd = connect_to(sock_path, 10000);
    pid_t pid = greeting(fd);
    cr_assert_eq(hello(fd, i + 1), pid);
    close(fd);
    if (!first)
      first = pid;
    cr_assert_eq(pid, first, "connection %d got another worker", i);
    sleep_ms(50); /* the child sees the EOF and goes back to accept */
  }
  pid_t kids[8];
  cr_assert_eq(children_of(server, kids, 8), 1, "a spare was started for nothing");
}

Test(wserve, a_second_server_on_the_path_exits_0_at_once) {
  start((const char *[]){"--idle", "30", NULL}, false);
  int a = connect_to(sock_path, 10000);
  pid_t pa = greeting(a);
  int out;
  double t0 = now_s();
  pid_t second = spawn_server(sock_path, (const char *[]){"--idle", "30", NULL}, false, &out);
  int st = wait_exit(second, 5000);
  if (st == -1)
    kill(second, SIGKILL), waitpid(second, NULL, 0);
  cr_assert(st != -1, "the second server did not exit");
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
  cr_assert_lt(now_s() - t0, 2.0, "not at once");
  char c;
  cr_assert_eq(read(out, &c, 1), 0, "the second server printed on stdout");
  close(out);
  cr_assert_eq(hello(a, 1), pa, "the first server's connection still works");
  int b = connect_to(sock_path, 1000);
  greeting(b);
  cr_assert_gt(hello(b, 2), 0, "and it takes new connections");
  close(a), close(b);
}

Test(wserve, a_killed_worker_is_replaced) {
  start((const char *[]){"--idle", "30", "--max", "2", NULL}, true);
  int a = connect_to(sock_path, 10000);
  pid_t pa = greeting(a);
  json_t *req = json_pack("{s:i,s:s}", "id", 1, "op", "hang");
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  cr_assert_eq(write(a, text, strlen(text)), (ssize_t)strlen(text));
  cr_assert_eq(write(a, "\n", 1), 1);
  free(text);
  sleep_ms(50); /* let it take the request */
  cr_assert_eq(kill(pa, SIGKILL), 0);
  cr_assert_null(read_line(a), "the connection of a killed worker must end");
  close(a);
  int b = connect_to(sock_path, 1000);
  pid_t pb = greeting(b);
  cr_assert_neq(pb, pa);
  cr_assert_eq(hello(b, 2), pb);
  cr_assert(alive(server), "the supervisor died with its worker");
  close(b);
}

Test(wserve, exits_when_idle_and_removes_the_socket) {
  start((const char *[]){"--idle", "1", NULL}, false);
  int a = connect_to(sock_path, 10000);
  greeting(a);
  cr_assert_gt(hello(a, 1), 0);
  sleep_ms(2500); /* a connection open is a busy worker: no idle exit */
  cr_assert(alive(server), "exited while a connection was open");
  cr_assert_gt(hello(a, 2), 0);
  close(a);
  double t0 = now_s();
  int st = wait_exit(server, 10000);
  cr_assert(st != -1, "no idle exit");
  server = -1;
  cr_assert_lt(now_s() - t0, 3.5, "idle exit took %.1f s", now_s() - t0);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
  cr_assert(!exists(sock_path), "the socket file is left");
  cr_assert(!exists(lock_path()), "the lock file is left");
}

Test(wserve, sigterm_exits_cleanly_with_its_children) {
  start((const char *[]){"--idle", "30", "--max", "3", NULL}, false);
  int a = connect_to(sock_path, 10000);
  greeting(a);
  int b = connect_to(sock_path, 10000);
  greeting(b);
  pid_t kids[16];
  size_t n = children_of(server, kids, 16);
  cr_assert_geq(n, 2, "two busy workers, %zu children", n);
  cr_assert_eq(kill(server, SIGTERM), 0);
  int st = wait_exit(server, 5000);
  cr_assert(st != -1, "no exit on SIGTERM");
  server = -1;
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
  cr_assert(!exists(sock_path), "the socket file is left");
  cr_assert(!exists(lock_path()), "the lock file is left");
  for (size_t i = 0; i < n; i++)
    cr_assert(!alive(kids[i]), "child %d outlived the supervisor", (int)kids[i]);
  cr_assert_null(read_line(a), "a served connection ends");
  close(a), close(b);
}

Test(wserve, replaces_a_stale_socket_file) {
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock_path);
  cr_assert_eq(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
  close(s); /* the file stays, bound by nobody */
  cr_assert(exists(sock_path));
  start((const char *[]){"--idle", "30", NULL}, false);
  int a = connect_to(sock_path, 10000);
  pid_t pa = greeting(a);
  cr_assert_eq(hello(a, 1), pa);
  close(a);
}

/* A file `name` in the test's directory, or a stale socket there when `sock`. */
static void make_file(const char *name, bool sock, char *path, size_t n) {
  snprintf(path, n, "%s/%s", dir, name);
  if (!sock) {
    int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    cr_assert(fd >= 0);
    close(fd);
    return;
  }
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  cr_assert_eq(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
  close(s);
}

/* Other servers' leftovers in a directory of workers-*.sock sockets: a killed server's lock file
 * and socket go; a lock someone holds (a live server) stays, with its socket; a symlink is not
 * followed; names of another form are not touched. */
Test(wserve, removes_killed_servers_leftovers_and_keeps_live_ones) {
  char dead_lock[128], dead_sock[128], live_lock[128], live_sock[128], link[128], other[128];
  char target[128];
  make_file("workers-00000000000dead0.sock.lock", false, dead_lock, sizeof dead_lock);
  make_file("workers-00000000000dead0.sock", true, dead_sock, sizeof dead_sock);
  make_file("workers-000000000000a11e.sock.lock", false, live_lock, sizeof live_lock);
  make_file("workers-000000000000a11e.sock", true, live_sock, sizeof live_sock);
  make_file("target", false, target, sizeof target);
  make_file("unrelated.sock.lock", false, other, sizeof other);
  snprintf(link, sizeof link, "%s/workers-00000000000001ee.sock.lock", dir);
  cr_assert_eq(symlink(target, link), 0);
  int held = open(live_lock, O_RDWR | O_CLOEXEC);
  cr_assert(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0);
  snprintf(sock_path, sizeof sock_path, "%s/workers-0123456789abcdef.sock", dir);
  start((const char *[]){"--idle", "30", NULL}, false);
  int a = connect_to(sock_path, 10000);
  greeting(a);
  cr_assert(exists(lock_path()), "the server holds no lock file");
  cr_assert(!exists(dead_lock) && !exists(dead_sock), "a killed server's leftovers stay");
  cr_assert(exists(live_lock) && exists(live_sock), "a live server's files were removed");
  cr_assert(exists(target) && exists(other), "a file of another name was removed");
  close(a), close(held);
}

/* The same leftovers in a directory others can enter are not the server's to remove. */
Test(wserve, leaves_a_shared_directory_alone) {
  char dead_lock[128];
  make_file("workers-00000000000dead0.sock.lock", false, dead_lock, sizeof dead_lock);
  cr_assert_eq(chmod(dir, 0755), 0);
  snprintf(sock_path, sizeof sock_path, "%s/workers-0123456789abcdef.sock", dir);
  start((const char *[]){"--idle", "30", NULL}, false);
  int a = connect_to(sock_path, 10000);
  greeting(a);
  cr_assert(exists(dead_lock), "a lock file in a shared directory was removed");
  close(a);
}

Test(wserve, a_path_too_long_is_exit_2) {
  char longp[200];
  memset(longp, 'x', sizeof longp - 1);
  longp[0] = '/', longp[sizeof longp - 1] = '\0';
  int out;
  pid_t p = spawn_server(longp, NULL, false, &out);
  int st = wait_exit(p, 5000);
  if (st == -1)
    kill(p, SIGKILL), waitpid(p, NULL, 0);
  cr_assert(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %#x", st);
  close(out);
  p = spawn_server(sock_path, (const char *[]){"--max", "0", NULL}, false, &out);
  st = wait_exit(p, 5000);
  if (st == -1)
    kill(p, SIGKILL), waitpid(p, NULL, 0);
  cr_assert(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 2, "bad --max: status %#x", st);
  close(out);
}
