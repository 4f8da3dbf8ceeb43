#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, ptsname_r, mkostemp, vasprintf (meson sets it too) */
#endif
#include "tests/integration/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

struct hx {
  int pid;
  hx_stdin kind;
  upk_framing framing;
  int in;  /* our end of its stdin, -1 when closed or there is none */
  int out; /* its stdout, -1 after EOF */
  int err; /* unlinked temporary file holding its stderr */
  upk_framer rx;
  json_t **queue; /* messages read and not taken yet: queue[head..tail) */
  size_t head, tail, cap;
  size_t out_bytes;
  char bad_output[512]; /* the first thing wrong with its output, "" while all is well */
  bool reaped;
  int wstatus;
  int writer;    /* pid of a background writer (hx_write_background), 0 when none */
  char home[64]; /* a private HOME (and cache) so that tests never touch the user's files */
};

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void hx_msleep(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
    ;
}

/* A FIFO with O(1) take: a client that stopped reading may find many thousands queued. */
static void push(hx *d, json_t *v) {
  if (d->head > 0 && d->head == d->tail)
    d->head = d->tail = 0;
  if (d->tail == d->cap) {
    if (d->head > d->cap / 2) { /* mostly taken: slide the rest down */
      memmove(d->queue, d->queue + d->head, (d->tail - d->head) * sizeof *d->queue);
      d->tail -= d->head;
      d->head = 0;
    } else {
      d->cap = d->cap ? d->cap * 2 : 64;
      d->queue = realloc(d->queue, d->cap * sizeof *d->queue);
      cr_assert_not_null(d->queue);
    }
  }
  d->queue[d->tail++] = v;
}

static void on_reply(void *ud, const char *body, size_t len) {
  hx *d = ud;
  json_error_t e;
  json_t *v = json_loadb(body, len, JSON_DECODE_ANY, &e);
  if (v)
    push(d, v);
  else if (!d->bad_output[0])
    snprintf(d->bad_output, sizeof d->bad_output, "invalid JSON (%s): %.*s", e.text,
             (int)(len > 300 ? 300 : len), body);
}

/* Reported when messages are asked for (hx_next) or at hx_finish, so that a test of
 * --version or --help may ignore stdout. */
static void on_reply_error(void *ud, int code, const char *message) {
  hx *d = ud;
  if (!d->bad_output[0])
    snprintf(d->bad_output, sizeof d->bad_output, "bad framing: %s", message);
}

static void assert_good_output(hx *d) {
  cr_assert(!d->bad_output[0], "the daemon's output is not protocol: %s", d->bad_output);
}

static const upk_framer_callbacks reply_cbs = {on_reply, on_reply_error};

static void child(hx_stdin kind, int in_fd, const char *pty_name, int out_fd, int err_fd,
                  const char *path, const char *const *args, const char *home) {
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive a test that was killed */
  signal(SIGPIPE, SIG_DFL);
  sigset_t none; /* a mask blocked by the test runner would survive exec */
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  char cache[128], state[128];
  snprintf(cache, sizeof cache, "%s/cache", home);
  /* A test that follows state across daemons (install manifests) names its own. */
  const char *keep_state = getenv("UPK_TEST_STATE_HOME");
  snprintf(state, sizeof state, "%s/.local/state", home);
  setenv("HOME", home, 1);
  setenv("XDG_CACHE_HOME", cache, 1);
  /* A test of a daemon started in its user's home, as a host may start an MCP server. */
  const char *in_home = getenv("UPK_TEST_CWD_HOME");
  if (in_home && !strcmp(in_home, "1") && chdir(home))
    _exit(126);
  setenv("XDG_STATE_HOME", keep_state && *keep_state ? keep_state : state, 1);
  if (kind == HX_PTY) {
    in_fd = open(pty_name, O_RDWR | O_NOCTTY);
    if (in_fd < 0)
      _exit(126);
    struct termios t;
    if (tcgetattr(in_fd, &t) == 0) {
      cfmakeraw(&t);
      tcsetattr(in_fd, TCSANOW, &t);
    }
  }
  if (in_fd >= 0 && in_fd != 0)
    dup2(in_fd, 0);
  else if (kind == HX_CLOSED)
    close(0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  /* Nothing else of the test runner's may leak into the daemon. */
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  const char *argv[64];
  size_t n = 0;
  argv[n++] = path;
  for (; args && *args && n < 63; args++)
    argv[n++] = *args;
  argv[n] = NULL;
  execv(path, (char *const *)argv);
  _exit(127);
}

/* Daemons still alive: a failed assertion ends a test without hx_free, so what it left (the
 * process, its temporary HOME) is cleaned up when the test process exits. */
#define MAX_LIVE 32
static hx *live[MAX_LIVE];

static void forget(hx *d) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (live[i] == d)
      live[i] = NULL;
}

static void free_all_live(void) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (live[i])
      hx_free(live[i]);
}

static void remember(hx *d) {
  static bool registered;
  if (!registered)
    atexit(free_all_live);
  registered = true;
  for (int i = 0; i < MAX_LIVE; i++)
    if (!live[i]) {
      live[i] = d;
      return;
    }
}

static hx *spawn(hx_stdin kind, upk_framing framing, const char *const *args, const void *file_data,
                 size_t file_len) {
  const char *path = getenv("UPSKILLD");
  cr_assert(path && *path, "UPSKILLD is not set (run the tests through meson test)");
  signal(SIGPIPE, SIG_IGN);
  hx *d = calloc(1, sizeof *d);
  d->kind = kind;
  d->framing = framing;
  d->in = -1;
  upk_framer_init(&d->rx, UPK_FRAMING_AUTO, 256u << 20, &reply_cbs, d);

  int ours = -1, theirs = -1;
  char pty_name[128] = "";
  switch (kind) {
  case HX_PIPE: {
    int p[2];
    cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
    theirs = p[0];
    ours = p[1];
    break;
  }
  case HX_SOCKETPAIR: {
    int p[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p), 0);
    theirs = p[0];
    ours = p[1];
    break;
  }
  case HX_FILE: {
    char tmpl[] = "/tmp/upk-it-stdin-XXXXXX";
    int fd = mkstemp(tmpl);
    cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
    unlink(tmpl);
    cr_assert_eq(write(fd, file_data, file_len), (ssize_t)file_len);
    lseek(fd, 0, SEEK_SET);
    theirs = fd;
    break;
  }
  case HX_DEVNULL:
    theirs = open("/dev/null", O_RDONLY | O_CLOEXEC);
    cr_assert_geq(theirs, 0);
    break;
  case HX_CLOSED:
    break;
  case HX_PTY: {
    ours = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    cr_assert_geq(ours, 0, "posix_openpt: %s", strerror(errno));
    cr_assert_eq(grantpt(ours), 0);
    cr_assert_eq(unlockpt(ours), 0);
    cr_assert_eq(ptsname_r(ours, pty_name, sizeof pty_name), 0);
    break;
  }
  }
  snprintf(d->home, sizeof d->home, "/tmp/upk-it-home-XXXXXX");
  cr_assert_not_null(mkdtemp(d->home), "mkdtemp: %s", strerror(errno));
  int outp[2];
  cr_assert_eq(pipe2(outp, O_CLOEXEC), 0);
  char errname[] = "/tmp/upk-it-stderr-XXXXXX";
  d->err = mkostemp(errname, O_CLOEXEC);
  cr_assert_geq(d->err, 0);
  unlink(errname);

  fflush(NULL);
  int pid = fork();
  cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
  if (pid == 0)
    child(kind, theirs, pty_name, outp[1], d->err, path, args, d->home);
  d->pid = pid;
  remember(d);
  if (theirs >= 0)
    close(theirs);
  close(outp[1]);
  d->out = outp[0];
  fcntl(d->out, F_SETFL, O_NONBLOCK);
  d->in = ours;
  if (d->in >= 0)
    fcntl(d->in, F_SETFL, O_NONBLOCK);
  if (kind == HX_PTY) {
    /* Raw mode from the start (the termios is shared by both sides), so that bytes
     * written before the daemon opens the slave arrive unchanged. */
    struct termios t;
    if (tcgetattr(d->in, &t) == 0) {
      cfmakeraw(&t);
      tcsetattr(d->in, TCSANOW, &t);
    }
  }
  return d;
}

bool hx_pty_available(void) {
  int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char name[128];
  bool ok = grantpt(fd) == 0 && unlockpt(fd) == 0 && ptsname_r(fd, name, sizeof name) == 0;
  close(fd);
  return ok;
}

hx *hx_spawn(hx_stdin kind, upk_framing framing, const char *const *args) {
  cr_assert_neq(kind, HX_FILE, "use hx_spawn_file for a regular file");
  return spawn(kind, framing, args, NULL, 0);
}

hx *hx_spawn_file(const void *data, size_t len, const char *const *args) {
  return spawn(HX_FILE, UPK_FRAMING_AUTO, args, data, len);
}

int hx_pid(const hx *d) {
  return d->pid;
}

const char *hx_home(const hx *d) {
  return d->home;
}

/* Read what stdout has now (waiting at most `timeout_ms` for something); false at EOF. */
static bool pump(hx *d, int timeout_ms) {
  if (d->out < 0)
    return false;
  struct pollfd p = {d->out, POLLIN, 0};
  int r = poll(&p, 1, timeout_ms);
  if (r <= 0)
    return true;
  char buf[65536];
  for (;;) {
    ssize_t n = read(d->out, buf, sizeof buf);
    if (n > 0) {
      d->out_bytes += (size_t)n;
      cr_assert_eq(upk_framer_feed(&d->rx, buf, (size_t)n), 0);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return true;
    close(d->out); /* EOF, or an error that means the same */
    d->out = -1;
    return false;
  }
}

bool hx_try_write(hx *d, const void *data, size_t len) {
  const char *p = data;
  long long deadline = now_ms() + HX_TIMEOUT;
  while (len) {
    if (d->in < 0)
      return false;
    ssize_t n = write(d->in, p, len);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      return false;
    if (now_ms() > deadline)
      return false;
    /* The daemon is not reading: it may be waiting for us to read its output. */
    struct pollfd fds[2] = {{d->in, POLLOUT, 0}, {d->out, POLLIN, 0}};
    poll(fds, d->out >= 0 ? 2 : 1, 50);
    if (d->out >= 0 && (fds[1].revents & (POLLIN | POLLHUP)))
      pump(d, 0);
  }
  return true;
}

void hx_write(hx *d, const void *data, size_t len) {
  cr_assert(d->in >= 0, "the daemon's stdin is closed");
  cr_assert(hx_try_write(d, data, len), "cannot write %zu bytes to the daemon: %s", len,
            strerror(errno));
}

char *hx_frame(hx *d, const char *json, size_t *len) {
  upk_buf b;
  upk_buf_init(&b, SIZE_MAX - 1);
  cr_assert_eq(upk_frame_write(d->framing == UPK_FRAMING_LSP ? UPK_FRAMING_LSP : UPK_FRAMING_MCP,
                               json, strlen(json), &b),
               0);
  return upk_buf_take(&b, len);
}

void hx_send(hx *d, const char *json) {
  size_t len;
  char *f = hx_frame(d, json, &len);
  hx_write(d, f, len);
  free(f);
}

void hx_sendf(hx *d, const char *fmt, ...) {
  va_list ap;
  char *s = NULL;
  va_start(ap, fmt);
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  cr_assert_geq(n, 0);
  hx_send(d, s);
  free(s);
}

void hx_write_background(hx *d, const void *data, size_t len) {
  cr_assert(d->in >= 0, "the daemon's stdin is closed");
  cr_assert_eq(d->writer, 0, "one background writer at a time");
  fflush(NULL);
  int pid = fork();
  cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    fcntl(d->in, F_SETFL, 0); /* blocking: wait for the daemon however long it pauses */
    const char *p = data;
    while (len) {
      ssize_t n = write(d->in, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit(1);
      p += n;
      len -= (size_t)n;
    }
    _exit(0);
  }
  d->writer = pid;
  hx_close_stdin(d); /* the writer holds the only copy: EOF when it is done */
}

bool hx_writer_done(hx *d, int timeout_ms) {
  long long deadline = now_ms() + timeout_ms;
  while (d->writer) {
    int st;
    pid_t r = waitpid(d->writer, &st, WNOHANG);
    if (r == d->writer) {
      d->writer = 0;
      return WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    if (now_ms() > deadline)
      return false;
    if (d->out >= 0)
      pump(d, 20);
    else
      hx_msleep(20);
  }
  return true;
}

void hx_close_stdin(hx *d) {
  if (d->in >= 0)
    close(d->in);
  d->in = -1;
}

static json_t *take(hx *d) {
  return d->head < d->tail ? d->queue[d->head++] : NULL;
}

json_t *hx_next(hx *d, int timeout_ms) {
  long long deadline = now_ms() + timeout_ms;
  for (;;) {
    assert_good_output(d);
    json_t *v = take(d);
    if (v)
      return v;
    long long left = deadline - now_ms();
    if (left < 0 || !pump(d, (int)left)) {
      assert_good_output(d);
      return take(d);
    }
  }
}

static bool is_response(const json_t *v) {
  if (json_is_array(v))
    return true;
  return json_object_get(v, "id") && !json_object_get(v, "method") &&
         (json_object_get(v, "result") || json_object_get(v, "error"));
}

json_t *hx_response(hx *d, int timeout_ms) {
  long long deadline = now_ms() + timeout_ms;
  for (;;) {
    long long left = deadline - now_ms();
    json_t *v = hx_next(d, left > 0 ? (int)left : 0);
    if (!v || is_response(v))
      return v;
    json_decref(v);
  }
}

json_t *hx_call(hx *d, const char *json) {
  hx_send(d, json);
  json_t *r = hx_response(d, HX_TIMEOUT);
  cr_assert_not_null(r, "no answer to %s", json);
  return r;
}

json_t *hx_callf(hx *d, const char *fmt, ...) {
  va_list ap;
  char *s = NULL;
  va_start(ap, fmt);
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  cr_assert_geq(n, 0);
  json_t *r = hx_call(d, s);
  free(s);
  return r;
}

bool hx_read_to_eof(hx *d, int timeout_ms) {
  long long deadline = now_ms() + timeout_ms;
  while (d->out >= 0) {
    long long left = deadline - now_ms();
    if (left < 0)
      return false;
    pump(d, (int)left);
  }
  return true;
}

size_t hx_queued(const hx *d) {
  return d->tail - d->head;
}

size_t hx_stdout_bytes(const hx *d) {
  return d->out_bytes;
}

static bool reap(hx *d, int flags) {
  if (d->reaped)
    return true;
  int st;
  pid_t r;
  while ((r = waitpid(d->pid, &st, flags)) == -1 && errno == EINTR)
    ;
  if (r != d->pid)
    return false;
  d->reaped = true;
  d->wstatus = st;
  return true;
}

int hx_wait(hx *d, int timeout_ms) {
  long long deadline = now_ms() + timeout_ms;
  while (!reap(d, WNOHANG)) {
    if (now_ms() > deadline)
      return -1;
    if (d->out >= 0)
      pump(d, 20); /* keep its output flowing so that it can finish writing */
    else
      hx_msleep(20);
  }
  if (WIFEXITED(d->wstatus))
    return WEXITSTATUS(d->wstatus);
  return 128 + WTERMSIG(d->wstatus);
}

void hx_signal(hx *d, int sig) {
  if (!d->reaped)
    kill(d->pid, sig);
}

char *hx_stderr(hx *d) {
  struct stat st;
  size_t n = fstat(d->err, &st) == 0 ? (size_t)st.st_size : 0;
  char *s = malloc(n + 1);
  ssize_t got = pread(d->err, s, n, 0);
  s[got > 0 ? got : 0] = '\0';
  return s;
}

void hx_assert_clean_stderr(hx *d) {
  char *e = hx_stderr(d);
  bool bad = strstr(e, "Sanitizer") || strstr(e, "runtime error:");
  if (bad)
    cr_log_error("daemon stderr:\n%s", e);
  free(e);
  cr_assert_not(bad, "the daemon reported a sanitizer error on stderr");
}

void hx_finish(hx *d, int code) {
  hx_close_stdin(d);
  int rc = hx_wait(d, HX_TIMEOUT);
  if (rc != code) {
    char *e = hx_stderr(d);
    cr_log_error("daemon stderr:\n%.4000s", e);
    free(e);
  }
  cr_assert_eq(rc, code, "the daemon exited with %d, expected %d (-1: still running)", rc, code);
  hx_assert_clean_stderr(d);
  hx_read_to_eof(d, HX_TIMEOUT);
  assert_good_output(d);
  hx_free(d);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  remove(path);
  return 0;
}

void hx_free(hx *d) {
  if (!d)
    return;
  forget(d);
  if (d->writer) {
    kill(d->writer, SIGKILL);
    waitpid(d->writer, NULL, 0);
  }
  if (!d->reaped) {
    kill(d->pid, SIGKILL);
    reap(d, 0);
  }
  hx_close_stdin(d);
  if (d->out >= 0)
    close(d->out);
  close(d->err);
  upk_framer_free(&d->rx);
  nftw(d->home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  while (d->head < d->tail)
    json_decref(d->queue[d->head++]);
  free(d->queue);
  free(d);
}
