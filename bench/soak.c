/* soak: one upskilld under hours-scale mixed traffic (issue 16).
 *
 *   soak [-d SECONDS] [-n REQUESTS] [-w WINDOW] [-m lsp|mcp] [-i REPORT_S] [-g KIB]
 *        [-x MAX_SECONDS] -- upskilld args...
 *
 * Spawns the daemon (cwd: a private project with a few skills), initializes it in the chosen
 * framing and keeps WINDOW requests in flight until both SECONDS have passed and REQUESTS have
 * been answered (or, with -x, MAX_SECONDS have passed, whichever is first). The mix, per 100
 * requests: 45 ping, 25 skills/lookup of 8 fixed tasks (the "cached" lookups), 7 skills/list, 5
 * upskilld/status, 8 kernel/validate of one source (cache hits after the first), 10 skills/validate
 * of a SKILL.md text that differs each time; besides, once a second a kernel/validate with
 * cache:false (a real NVRTC compile in a worker), and every third second one more that is cancelled
 * ($/cancelRequest or notifications/cancelled) right after it is sent. In MCP framing the methods
 * go through tools/call, as agents send them.
 *
 * Every REPORT_S seconds one line: requests so far, rate, RSS, open fds of the daemon, p50/p99
 * of ping and of cached lookup over that interval. At the end: RSS growth after warm-up (the
 * first report), fd change, error counts. Exit status 0 when every request was answered as
 * expected, RSS grew by at most KIB (default 1024: 1 MiB; -1: not checked) after warm-up and the fd
 * count is back where it was. Reading and framing go through the daemon's own protocol code; JSON
 * through jansson. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/dynbuf.h"
#include "protocol/framing.h"

enum { K_PING, K_LOOKUP, K_LIST, K_STATUS, K_KCACHED, K_SVALIDATE, K_KUNCACHED, K_CANCELLED, K_N };
static const char *const kind_name[K_N] = {"ping",    "lookup",    "list",      "status",
                                           "kcached", "svalidate", "kuncached", "cancelled"};
static const char *const tool_of[K_N] = {NULL,
                                         "find_skill",
                                         "list_skills",
                                         "status",
                                         "validate_kernel",
                                         "validate_skill",
                                         "validate_kernel",
                                         "validate_kernel"};
static const char *const method_of[K_N] = {"ping",
                                           "skills/lookup",
                                           "skills/list",
                                           "upskilld/status",
                                           "kernel/validate",
                                           "skills/validate",
                                           "kernel/validate",
                                           "kernel/validate"};
static const char *const tasks[8] = {
    "write a CUDA kernel for H100", "debug an illegal memory access",
    "build a torch extension",      "extract text from a pdf",
    "review a pull request",        "optimise shared memory use",
    "format a commit message",      "tune occupancy with launch bounds"};
static const char KERNEL[] = "__global__ void saxpy(float *y, const float *x, float a, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) y[i] = a * x[i] + y[i];\n}\n";

#define RING 65536
#define K_DROPPED (-2) /* cancelled in MCP: no answer is due */
typedef struct pending {
  double t0;
  int kind; /* -1: free */
} pending;

typedef struct samples {
  double *v;
  size_t n, cap;
} samples;

static struct {
  upk_framing mode;
  int in, out;
  pid_t pid;
  long next_id, sent, answered, inflight;
  long count[K_N], errors[K_N], cancelled_ok;
  pending ring[RING];
  samples lat[2]; /* ping, cached lookup: this interval */
  upk_buf wbuf;
} S;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) {
  fprintf(stderr, "soak: %s: %s\n", what, strerror(errno));
  exit(2);
}

static void push(samples *s, double v) {
  if (s->n == s->cap && !(s->v = realloc(s->v, (s->cap = s->cap ? s->cap * 2 : 4096) * sizeof v)))
    die("realloc");
  s->v[s->n++] = v;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double pct(samples *s, double p) {
  if (!s->n)
    return 0;
  qsort(s->v, s->n, sizeof *s->v, cmp_d);
  return s->v[(size_t)(p * (double)(s->n - 1))];
}

static void send_json(json_t *msg) {
  char *body = json_dumps(msg, JSON_COMPACT);
  if (!body || upk_frame_write(S.mode, body, strlen(body), &S.wbuf))
    die("frame");
  free(body);
  json_decref(msg);
}

/* Write what is buffered; blocks only while the daemon's pipe is full. */
static void flush_out(void) {
  size_t off = 0;
  while (off < S.wbuf.len) {
    ssize_t w = write(S.in, S.wbuf.data + off, S.wbuf.len - off);
    if (w < 0 && errno != EINTR)
      die("write to the daemon");
    off += w > 0 ? (size_t)w : 0;
  }
  upk_buf_reset(&S.wbuf);
}

static json_t *params_of(int kind, long id) {
  char text[512];
  switch (kind) {
  case K_LOOKUP:
    return json_pack("{s:s,s:i}", "task", tasks[id % 8], "limit", 5);
  case K_KCACHED:
    return json_pack("{s:s}", "source", KERNEL);
  case K_KUNCACHED:
  case K_CANCELLED:
    return json_pack("{s:s,s:b}", "source", KERNEL, "cache", 0);
  case K_SVALIDATE:
    snprintf(text, sizeof text,
             "---\nname: soak-skill\ndescription: Soak test skill number %ld. Use when "
             "testing.\n---\n# Soak %ld\n\nDo the thing.\n",
             id, id);
    return json_pack("{s:s}", "text", text);
  default:
    return json_object();
  }
}

static long send_request(int kind) {
  long id = ++S.next_id;
  json_t *params = params_of(kind, id);
  const char *method = method_of[kind];
  if (S.mode == UPK_FRAMING_MCP && tool_of[kind]) {
    params = json_pack("{s:s,s:o}", "name", tool_of[kind], "arguments", params);
    method = "tools/call";
  }
  send_json(json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", (json_int_t)id, "method", method,
                      "params", params));
  S.ring[id % RING] = (pending){now_s(), kind};
  S.sent++, S.inflight++;
  return id;
}

/* MCP: a cancelled request gets no answer (the spec's SHOULD NOT), so it is done when the
 * notification goes out, and an answer that crossed it is dropped. LSP answers it. */
static void send_cancel(long id) {
  if (S.mode == UPK_FRAMING_MCP) {
    S.ring[id % RING].kind = K_DROPPED;
    S.count[K_CANCELLED]++;
    S.answered++, S.inflight--;
  }
  json_t *p = S.mode == UPK_FRAMING_LSP ? json_pack("{s:I}", "id", (json_int_t)id)
                                        : json_pack("{s:I}", "requestId", (json_int_t)id);
  send_json(json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method",
                      S.mode == UPK_FRAMING_LSP ? "$/cancelRequest" : "notifications/cancelled",
                      "params", p));
}

/* An answer is good when it has a result that is not an MCP tool error; a cancelled request
 * may also end with the cancellation error. */
static void on_message(void *ud, const char *body, size_t len) {
  (void)ud;
  json_t *m = json_loadb(body, len, 0, NULL);
  json_t *idv = json_object_get(m, "id");
  if (!json_is_integer(idv)) { /* notifications (progress, logs) */
    json_decref(m);
    return;
  }
  long id = (long)json_integer_value(idv);
  pending *p = &S.ring[id % RING];
  if (p->kind == K_DROPPED) {
    p->kind = -1;
    json_decref(m);
    return;
  }
  if (id <= 0 || p->kind < 0) {
    fprintf(stderr, "soak: answer to unknown id %ld\n", id);
    exit(3);
  }
  int kind = p->kind;
  double ms = (now_s() - p->t0) * 1e3;
  json_t *res = json_object_get(m, "result");
  bool tool_error = json_is_true(json_object_get(res, "isError"));
  bool ok = res && !tool_error;
  if (kind == K_CANCELLED) {
    S.cancelled_ok += !ok;
    ok = true; /* cancelled, or finished before the cancel arrived: both are right */
  }
  if (!ok && S.errors[kind]++ < 3)
    fprintf(stderr, "soak: %s failed: %.300s\n", kind_name[kind], body);
  if (kind == K_PING)
    push(&S.lat[0], ms);
  else if (kind == K_LOOKUP)
    push(&S.lat[1], ms);
  S.count[kind]++;
  S.answered++, S.inflight--;
  p->kind = -1;
  json_decref(m);
}

static void on_error(void *ud, int code, const char *message) {
  (void)ud;
  fprintf(stderr, "soak: framing error %d: %s\n", code, message);
  exit(3);
}

static long rss_kib(void) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)S.pid);
  FILE *f = fopen(path, "r");
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6))
      kib = atol(line + 6);
  if (f)
    fclose(f);
  return kib;
}

static int open_fds(void) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd", (int)S.pid);
  DIR *d = opendir(path);
  int n = 0;
  while (d && readdir(d))
    n++;
  if (d)
    closedir(d);
  return d ? n - 2 : -1;
}

static void write_file(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f))
    die(path);
}

/* A project with a few skills for list and lookup to find. */
static void make_project(char *dir) {
  static const char *const names[] = {"pdf-tools", "commit-messages", "cuda-occupancy",
                                      "code-review", "torch-extensions"};
  char path[4096], text[512];
  snprintf(path, sizeof path, "%s/.claude", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/.claude/skills", dir);
  mkdir(path, 0700);
  for (size_t i = 0; i < 5; i++) {
    snprintf(path, sizeof path, "%s/.claude/skills/%s", dir, names[i]);
    mkdir(path, 0700);
    snprintf(text, sizeof text,
             "---\nname: %s\ndescription: Skill for %s work. Use when the task mentions %s.\n---\n"
             "# %s\n\nSteps.\n",
             names[i], names[i], names[i], names[i]);
    write_file(path, "SKILL.md", text);
  }
}

static void spawn(char **argv, const char *cwd) {
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
    die("pipe");
  S.pid = fork();
  if (S.pid < 0)
    die("fork");
  if (S.pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    /* Its own HOME and XDG dirs: no one else's skills, index, cache or config in the way. */
    static const char *const vars[] = {"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
                                       "XDG_STATE_HOME", "XDG_DATA_HOME"};
    char path[4200];
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
      snprintf(path, sizeof path, "%s/.%s", cwd, vars[i]);
      mkdir(path, 0700);
      setenv(vars[i], path, 1);
    }
    if (chdir(cwd))
      _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  S.in = to[1], S.out = from[0];
}

/* The daemon's fds once its last compile worker is gone: a worker answers, then exits and is
 * reaped a moment later, and the warm-up count may have caught one alive (on a fast machine
 * the compile sent at the first report is often already running). Waits up to 5 s for the
 * count to come down to the warm-up one; more than that after 5 s is a leak. */
static int settled_fds(int fds0) {
  int fds = open_fds();
  for (int i = 0; i < 100 && fds > fds0; i++) {
    struct timespec ms50 = {0, 50 * 1000 * 1000};
    nanosleep(&ms50, NULL);
    fds = open_fds();
  }
  return fds;
}

static void read_available(upk_framer *f, int timeout_ms) {
  struct pollfd p = {S.out, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0)
    return;
  char buf[1 << 16];
  ssize_t n = read(S.out, buf, sizeof buf);
  if (n <= 0) {
    int st = 0;
    pid_t w = waitpid(S.pid, &st, 0);
    fprintf(stderr, "soak: the daemon closed its output (pid %d, %s %d)\n", (int)S.pid,
            w != S.pid        ? "wait failed"
            : WIFSIGNALED(st) ? "killed by signal"
                              : "exit status",
            WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    exit(3);
  }
  upk_framer_feed(f, buf, (size_t)n);
}

static int pick(long i) {
  int r = (int)(i % 100);
  return r < 45   ? K_PING
         : r < 70 ? K_LOOKUP
         : r < 77 ? K_LIST
         : r < 82 ? K_STATUS
         : r < 90 ? K_KCACHED
                  : K_SVALIDATE;
}

static void initialize(upk_framer *f, const char *dir) {
  char uri[4200];
  snprintf(uri, sizeof uri, "file://%s", dir);
  json_t *p =
      S.mode == UPK_FRAMING_LSP
          ? json_pack("{s:i,s:s,s:{}}", "processId", (int)getpid(), "rootUri", uri, "capabilities")
          : json_pack("{s:s,s:{},s:{s:s,s:s}}", "protocolVersion", "2025-06-18", "capabilities",
                      "clientInfo", "name", "soak", "version", "1");
  long id = ++S.next_id;
  S.ring[id % RING] = (pending){now_s(), K_STATUS};
  S.inflight++;
  send_json(json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", (json_int_t)id, "method",
                      "initialize", "params", p));
  flush_out();
  while (S.inflight)
    read_available(f, 1000);
  S.answered = 0, S.count[K_STATUS] = 0;
  send_json(json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method",
                      S.mode == UPK_FRAMING_LSP ? "initialized" : "notifications/initialized",
                      "params"));
}

int main(int argc, char **argv) {
  double seconds = 600, report = 60, hard_stop = 0;
  long want = 1000000, window = 32, max_growth = 1024;
  int o;
  S.mode = UPK_FRAMING_MCP;
  while ((o = getopt(argc, argv, "d:n:w:m:i:g:x:")) != -1) {
    if (o == 'd')
      seconds = atof(optarg);
    else if (o == 'n')
      want = atol(optarg);
    else if (o == 'w')
      window = atol(optarg);
    else if (o == 'i')
      report = atof(optarg);
    else if (o == 'g')
      max_growth = atol(optarg);
    else if (o == 'x')
      hard_stop = atof(optarg);
    else if (o == 'm')
      S.mode = !strcmp(optarg, "lsp") ? UPK_FRAMING_LSP : UPK_FRAMING_MCP;
    else
      return fprintf(
                 stderr,
                 "usage: soak [-d S] [-n N] [-w W] [-m lsp|mcp] [-i S] [-g KIB] [-x S] -- cmd\n"),
             2;
  }
  if (optind >= argc || window < 1 || window > 1024)
    return fprintf(stderr, "soak: give the daemon command after --\n"), 2;
  signal(SIGPIPE, SIG_IGN);
  char dir[] = "/tmp/upk-soak-XXXXXX";
  if (!mkdtemp(dir))
    die("mkdtemp");
  make_project(dir);
  for (size_t i = 0; i < RING; i++)
    S.ring[i].kind = -1;
  upk_buf_init(&S.wbuf, (size_t)1 << 26);
  spawn(argv + optind, dir);
  static const upk_framer_callbacks cb = {on_message, on_error};
  upk_framer f;
  upk_framer_init(&f, S.mode, (size_t)1 << 26, &cb, NULL);
  initialize(&f, dir);

  const char *fr = S.mode == UPK_FRAMING_LSP ? "lsp" : "mcp";
  double t0 = now_s(), next_report = t0 + report,
         next_compile = t0 + 1.5; /* off the reports by half a second */
  long rss0 = -1, rss_max = 0, i = 0, last = 0;
  int fds0 = -1, ticks = 0;
  printf("soak %s: pid %d, window %ld, until %.0f s and %ld requests\n", fr, (int)S.pid, window,
         seconds, want);
  fflush(stdout);
  for (;;) {
    double t = now_s();
    bool done = (t - t0 >= seconds && S.answered >= want) || (hard_stop > 0 && t - t0 >= hard_stop);
    if (!done) {
      while (S.inflight < window)
        send_request(pick(i++));
      if (t >= next_compile) {
        send_request(K_KUNCACHED);
        if (++ticks % 3 == 0)
          send_cancel(send_request(K_CANCELLED));
        next_compile += 1;
      }
      flush_out();
    } else if (!S.inflight) {
      break;
    }
    read_available(&f, 100);
    if (now_s() >= next_report || (done && !S.inflight)) {
      double el = now_s() - t0;
      long rss = rss_kib();
      int fds = open_fds();
      if (rss0 < 0)
        rss0 = rss, fds0 = fds;       /* warm-up ends with the first interval */
      fds0 = fds < fds0 ? fds : fds0; /* a report may catch a compile worker alive */
      rss_max = rss > rss_max ? rss : rss_max;
      printf("soak %s: t=%5.0fs requests=%ld (+%ld, %.0f/s) rss=%ld KiB (%+ld after warm-up) "
             "fds=%d ping p50/p99=%.3f/%.3f ms lookup p50/p99=%.3f/%.3f ms (n=%zu/%zu)\n",
             fr, el, S.answered, S.answered - last, (double)(S.answered - last) / report, rss,
             rss - rss0, fds, pct(&S.lat[0], .5), pct(&S.lat[0], .99), pct(&S.lat[1], .5),
             pct(&S.lat[1], .99), S.lat[0].n, S.lat[1].n);
      fflush(stdout);
      S.lat[0].n = S.lat[1].n = 0;
      last = S.answered;
      next_report += report;
    }
  }
  double el = now_s() - t0;
  long rss = rss_kib(), errs = 0;
  int fds = settled_fds(fds0);
  printf("soak %s: done: %ld requests in %.0f s (%.0f/s):", fr, S.answered, el,
         (double)S.answered / el);
  for (int k = 0; k < K_N; k++) {
    printf(" %s=%ld", kind_name[k], S.count[k]);
    errs += S.errors[k];
  }
  printf("; cancelled before finishing: %ld of %ld\n", S.cancelled_ok, S.count[K_CANCELLED]);
  long growth = rss - rss0;
  bool ok = errs == 0 && (max_growth < 0 || growth <= max_growth) && fds <= fds0;
  printf("soak %s: rss %ld -> %ld KiB after warm-up (growth %+ld KiB, max %ld), fds %d -> %d, "
         "errors %ld: %s\n",
         fr, rss0, rss, growth, rss_max, fds0, fds, errs, ok ? "PASS" : "FAIL");
  close(S.in); /* EOF: the daemon exits */
  int st;
  waitpid(S.pid, &st, 0);
  upk_framer_free(&f);
  upk_buf_free(&S.wbuf);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd))
    fprintf(stderr, "soak: could not remove %s\n", dir);
  return ok ? 0 : 1;
}
