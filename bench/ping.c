/* ping: a load generator for MCP stdio servers (one JSON message per line).
 *
 *   ping [-n PINGS] [-w WINDOW] [-s SPAWNS] [-i IDLE_MS] [-e] -- server command...
 *
 * Spawns the server SPAWNS times and times spawn -> `initialize` answer (median),
 * then, on the last spawn, sends `notifications/initialized` and PINGS pipelined
 * `ping` requests with at most WINDOW unanswered, written in large batches, and
 * counts the answers by their newlines. Memory comes from /proc/PID/status (VmRSS
 * right after initialize, and again after the load once the server sat idle for
 * IDLE_MS). Prints one line of key=value figures. Server stderr goes to /dev/null
 * unless -e. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"ping-bench\",\"version\":\"1\"}}"
    "}"
    "\n";
static const char INITIALIZED[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

typedef struct server {
  pid_t pid;
  int in, out; /* our ends: the server's stdin (we write), its stdout (we read) */
} server;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

static server spawn(char **argv, int keep_stderr) {
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
    die("pipe");
  server s = {.in = to[1], .out = from[0]};
  s.pid = fork();
  if (s.pid < 0)
    die("fork");
  if (s.pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    if (!keep_stderr) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
    }
    execvp(argv[0], argv);
    perror(argv[0]);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  return s;
}

/* Closes stdin (the MCP way to stop a server), then SIGTERM, then SIGKILL. */
static int finish(server *s) {
  close(s->in);
  int status = 0;
  for (int i = 0; i < 600; i++) { /* 3 s, then 2 s after SIGTERM */
    if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
      close(s->out);
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (i == 300)
      kill(s->pid, SIGTERM);
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
  }
  kill(s->pid, SIGKILL);
  waitpid(s->pid, &status, 0);
  close(s->out);
  return 137;
}

static void write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      die("write");
    p += w;
    n -= (size_t)w;
  }
}

/* Reads one line (the initialize answer) within 30 s; returns its length or -1. */
static ssize_t read_line(int fd, char *buf, size_t cap) {
  size_t len = 0;
  double deadline = now_ms() + 30000;
  while (len < cap) {
    struct pollfd p = {fd, POLLIN, 0};
    int left = (int)(deadline - now_ms());
    if (left <= 0 || poll(&p, 1, left) <= 0)
      return -1;
    ssize_t r = read(fd, buf + len, cap - len);
    if (r <= 0)
      return -1;
    char *nl = memchr(buf + len, '\n', (size_t)r);
    len += (size_t)r;
    if (nl)
      return nl - buf;
  }
  return -1;
}

static long proc_kib(pid_t pid, const char *key) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  long v = -1;
  size_t klen = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, klen) && line[klen] == ':')
      v = atol(line + klen + 1);
  if (f)
    fclose(f);
  return v;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* N pipelined pings, at most `window` unanswered; returns elapsed ms; counts error answers. */
static double pipelined_pings(server *s, long n, long window, long *errors) {
  size_t cap = (size_t)window * 64;
  char *out = malloc(cap), *in = malloc(1 << 20);
  fcntl(s->in, F_SETFL, O_NONBLOCK);
  long sent = 0, answered = 0;
  size_t olen = 0, ooff = 0;
  const char *needle = "\"error\"";
  double t0 = now_ms();
  while (answered < n) {
    if (ooff == olen && sent < n && sent - answered < window) { /* refill a batch */
      olen = ooff = 0;
      long room = window - (sent - answered);
      for (; room > 0 && sent < n; room--)
        olen += (size_t)sprintf(out + olen,
                                "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"ping\"}\n", ++sent);
    }
    struct pollfd p[2] = {{s->out, POLLIN, 0}, {s->in, ooff < olen ? POLLOUT : 0, 0}};
    if (poll(p, 2, 30000) <= 0) {
      fprintf(stderr, "ping: stalled with %ld of %ld answered\n", answered, n);
      break;
    }
    if (p[1].revents & (POLLOUT | POLLERR)) {
      ssize_t w = write(s->in, out + ooff, olen - ooff);
      if (w < 0 && errno != EAGAIN)
        die("write");
      if (w > 0)
        ooff += (size_t)w;
    }
    if (p[0].revents & (POLLIN | POLLHUP)) {
      ssize_t r = read(s->out, in, 1 << 20);
      if (r <= 0) {
        fprintf(stderr, "ping: server closed its output after %ld answers\n", answered);
        break;
      }
      for (char *q = in, *end = in + r; (q = memchr(q, '\n', (size_t)(end - q))); q++)
        answered++;
      for (char *q = in; (q = memmem(q, (size_t)(in + r - q), needle, 7)); q += 7)
        (*errors)++; /* an approximate sanity check: chunk borders can hide one */
    }
  }
  double ms = now_ms() - t0;
  fcntl(s->in, F_SETFL, 0);
  free(out);
  free(in);
  *errors += n - answered;
  return ms;
}

int main(int argc, char **argv) {
  long n = 200000, window = 4096, spawns = 20, idle_ms = 500;
  int keep_stderr = 0, opt;
  while ((opt = getopt(argc, argv, "+n:w:s:i:e")) != -1) {
    switch (opt) {
    case 'n':
      n = atol(optarg);
      break;
    case 'w':
      window = atol(optarg);
      break;
    case 's':
      spawns = atol(optarg);
      break;
    case 'i':
      idle_ms = atol(optarg);
      break;
    case 'e':
      keep_stderr = 1;
      break;
    default:
      goto usage;
    }
  }
  if (optind >= argc || n < 1 || window < 1 || spawns < 1)
    goto usage;
  signal(SIGPIPE, SIG_IGN);
  char **cmd = argv + optind;

  double *init_ms = calloc((size_t)spawns, sizeof *init_ms);
  char line[1 << 16];
  server s = {0};
  long rss_init = -1;
  for (long i = 0; i < spawns; i++) {
    double t0 = now_ms();
    s = spawn(cmd, keep_stderr);
    write_all(s.in, INIT, sizeof INIT - 1);
    ssize_t len = read_line(s.out, line, sizeof line);
    init_ms[i] = now_ms() - t0;
    if (len < 0 || !memmem(line, (size_t)len, "\"result\"", 8)) {
      fprintf(stderr, "ping: no initialize result from %s (%.*s)\n", cmd[0], len < 0 ? 0 : (int)len,
              line);
      finish(&s);
      return 1;
    }
    if (i + 1 < spawns)
      finish(&s);
  }
  rss_init = proc_kib(s.pid, "VmRSS");
  qsort(init_ms, (size_t)spawns, sizeof *init_ms, cmp_double);

  write_all(s.in, INITIALIZED, sizeof INITIALIZED - 1);
  long errors = 0;
  double ms = pipelined_pings(&s, n, window, &errors);
  nanosleep(&(struct timespec){idle_ms / 1000, (idle_ms % 1000) * 1000000}, NULL);
  long rss_idle = proc_kib(s.pid, "VmRSS"), rss_peak = proc_kib(s.pid, "VmHWM");
  int code = finish(&s);

  printf("pings=%ld window=%ld ms=%.1f pings_per_s=%.0f errors=%ld spawns=%ld init_ms_median=%.2f "
         "init_ms_min=%.2f init_ms_max=%.2f rss_init_kib=%ld rss_idle_kib=%ld rss_peak_kib=%ld "
         "exit=%d\n",
         n, window, ms, n / (ms / 1e3), errors, spawns,
         spawns % 2 ? init_ms[spawns / 2] : (init_ms[spawns / 2 - 1] + init_ms[spawns / 2]) / 2,
         init_ms[0], init_ms[spawns - 1], rss_init, rss_idle, rss_peak, code);
  free(init_ms);
  return errors || code ? 1 : 0;

usage:
  fprintf(stderr, "usage: %s [-n PINGS] [-w WINDOW] [-s SPAWNS] [-i IDLE_MS] [-e] -- CMD ARGS...\n",
          argv[0]);
  return 2;
}
