/* upskilld-worker: one request at a time, JSON lines on stdin, one reply line each on stdout
 * (docs/kernels.md, "Worker wire protocol"). It exists so that a compile that crashes, hangs or
 * runs away takes down only this process: the daemon kills and replaces it. With --serve it is
 * instead a worker server (serve.c): warm workers that outlive the daemon, the same
 * protocol on each connection of a Unix socket.
 *
 *   → {"id": 7, "op": "validate", "params": {...}}
 *   ← {"id": 7, "result": {...}}   or   {"id": 7, "error": {"message": "..."}}
 *
 * Ops live in one table (OPS below); fault ops answer only with UPSKILLD_WORKER_FAULTS=1. */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <jansson.h>

#include "gpu/compile/compile.h"
#include "gpu/worker/run_op.h"
#include "gpu/compile/validate.h"
#include "gpu/compile/toolkit.h"
#include "gpu/worker/serve.h"
#include "gpu/worker/wire.h"
#include "common/dynbuf.h"
#include "common/fileio.h"
#include "common/env_options.h"
#include "common/xalloc.h"

#define LINE_MAX_BYTES ((size_t)1 << 30) /* a request longer than this is refused, not read */
#define READ_CHUNK 65536

/* What an op did: a result to send, an error message, it wrote its own (non-)reply, or writing
 * that failed (the reader is gone). */
typedef enum { OP_RESULT, OP_ERROR, OP_NO_REPLY, OP_GONE } op_status;
/* `out_fd` is where the replies go; only the fault ops that write their own use it. */
typedef op_status (*op_fn)(int out_fd, json_t *params, json_t **result, char *err, size_t err_len);

static bool nvrtc_ok;          /* NVRTC loaded at start */
static char nvrtc_reason[256]; /* why not */

/* ---- ops ---- */

static op_status op_hello(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)params, (void)err, (void)err_len;
  *result = json_pack("{s:I,s:b,s:s?}", "pid", (json_int_t)getpid(), "nvrtc", nvrtc_ok, "reason",
                      nvrtc_ok ? NULL : nvrtc_reason);
  return OP_RESULT;
}

static op_status op_validate(int out_fd, json_t *params, json_t **result, char *err,
                             size_t err_len) {
  (void)out_fd;
  *result = upk_kernel_validate_json(params, err, err_len);
  return *result ? OP_RESULT : OP_ERROR;
}

/* Compile, then run on the GPU (gpu/worker/run_op.h). A result marked "fatal" means the CUDA
 * context is poisoned (a sticky error, or a kernel still running at its deadline): handle_line
 * exits after replying, and the pool starts a fresh worker. */
static op_status op_run(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd;
  *result = upk_kernel_run_json(params, err, err_len);
  return *result ? OP_RESULT : OP_ERROR;
}

static op_status op_echo(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)err, (void)err_len;
  *result = json_incref(params);
  return OP_RESULT;
}

static op_status op_sleep(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd;
  json_int_t ms = json_integer_value(json_object_get(params, "ms"));
  if (ms < 0 || ms > 3600 * 1000) {
    snprintf(err, err_len, "sleep: ms must be 0..3600000");
    return OP_ERROR;
  }
  struct timespec t = {.tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) == -1 && errno == EINTR)
    ;
  *result = json_pack("{s:I}", "slept", ms);
  return OP_RESULT;
}

static op_status op_crash(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)params, (void)result, (void)err, (void)err_len;
  signal(SIGSEGV, SIG_DFL); /* the real thing, as a bad compile would die */
  raise(SIGSEGV);
  abort();
}

static op_status op_hang(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)params, (void)result, (void)err, (void)err_len;
  for (;;)
    pause();          /* SIGKILL from the daemon ends it */
  return OP_NO_REPLY; /* not reached */
}

static op_status op_garbage(int out_fd, json_t *params, json_t **result, char *err,
                            size_t err_len) {
  (void)params, (void)result, (void)err, (void)err_len;
  static const char junk[] = "this is not a reply {\n";
  return upk_write_all(out_fd, junk, sizeof junk - 1) < 0 ? OP_GONE : OP_NO_REPLY;
}

static op_status op_exit(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)params, (void)result, (void)err, (void)err_len;
  _exit(3);
}

/* What a run whose CUDA context is poisoned answers (see op_run): a result
 * marked "fatal", after which handle_line exits. Lets tests check that the pool
 * never hands the next request to a worker that is on its way out. */
static op_status op_fatal(int out_fd, json_t *params, json_t **result, char *err, size_t err_len) {
  (void)out_fd, (void)params, (void)err, (void)err_len;
  *result = json_pack("{s:b,s:b}", "ok", 0, "fatal", 1);
  return OP_RESULT;
}

/* The op table: add new ops (e.g. "run") here. */
static const struct op {
  const char *name;
  op_fn fn;
  bool fault; /* only with UPSKILLD_WORKER_FAULTS=1 */
} OPS[] = {
    {"hello", op_hello, false}, {"validate", op_validate, false}, {"run", op_run, false},
    {"echo", op_echo, true},    {"sleep", op_sleep, true},        {"crash", op_crash, true},
    {"hang", op_hang, true},    {"garbage", op_garbage, true},    {"exit", op_exit, true},
    {"fatal", op_fatal, true},
};

static const struct op *find_op(const char *name, bool faults) {
  for (size_t i = 0; name && i < sizeof OPS / sizeof *OPS; i++)
    if (!strcmp(OPS[i].name, name) && (faults || !OPS[i].fault))
      return &OPS[i];
  return NULL;
}

/* ---- replies ---- */

/* One reply line, written whole. A reply that cannot be encoded becomes an error reply. */
static int send_reply(int out_fd, json_t *id, json_t *result, const char *error) {
  json_t *msg = upk_wire_result_encode(id, &(upk_wire_result){result, error});
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  if (!text)
    return result ? send_reply(out_fd, id, NULL, "cannot encode the result") : -ENOMEM;
  size_t n = strlen(text);
  text[n] = '\n'; /* overwrites the NUL: the length is known */
  int rc = upk_write_all(out_fd, text, n + 1);
  free(text);
  return rc;
}

/* ---- one input: requests in, replies out ---- */

typedef struct inbuf {
  upk_buf in;     /* bytes read, not yet served (no cap: a long line is skipped below) */
  size_t scanned; /* in.data up to here holds no newline */
  bool skipping;  /* inside a line over LINE_MAX_BYTES: drop until its end */
} inbuf;

/* Where requests come from and replies go: stdin and the private stdout, or one connection. */
typedef struct conn {
  int in_fd, out_fd;
  bool write_exits; /* a reply that cannot be written ends the process (the daemon is gone) */
  inbuf b;
} conn;

static bool faults; /* UPSKILLD_WORKER_FAULTS=1: the fault ops answer */

/* Answer one request line. Returns 0, or -errno when its reply could not be written (only on a
 * connection: in stdin mode that exits). */
static int handle_line(conn *c, const char *line, size_t len) {
  json_error_t jerr;
  json_t *req = json_loadb(line, len, JSON_ALLOW_NUL, &jerr);
  json_t *id = json_object_get(req, "id");
  json_t *null_id = json_null();
  if (!id)
    id = null_id;
  char err[512] = "";
  json_t *result = NULL;
  op_status st = OP_ERROR;
  const char *opname = json_string_value(json_object_get(req, "op"));
  const struct op *op = find_op(opname, faults);
  json_t *params = json_object_get(req, "params");
  if (!json_is_object(req))
    snprintf(err, sizeof err, "malformed request: %s", req ? "not an object" : jerr.text);
  else if (!opname)
    snprintf(err, sizeof err, "malformed request: no \"op\" string");
  else if (!op)
    snprintf(err, sizeof err, "unknown op \"%s\"", opname);
  else if (params && !json_is_object(params))
    snprintf(err, sizeof err, "\"params\" must be an object");
  else {
    json_t *empty = params ? NULL : json_object();
    st = op->fn(c->out_fd, params ? params : empty, &result, err, sizeof err);
    json_decref(empty);
    if (st == OP_RESULT && !result)
      st = OP_ERROR, snprintf(err, sizeof err, "out of memory");
  }
  int rc = st == OP_GONE ? -EPIPE : 0;
  if (st == OP_RESULT || st == OP_ERROR)
    rc = send_reply(c->out_fd, id, st == OP_RESULT ? result : NULL, err);
  if (rc < 0 && c->write_exits)
    exit(1); /* the daemon is gone */
  if (json_is_true(json_object_get(result, "fatal")))
    _exit(0); /* no further CUDA call, no teardown: the context cannot be trusted */
  json_decref(result);
  json_decref(req);
  json_decref(null_id);
  return rc;
}

/* Read more input: 1, 0 at EOF, or -errno. */
static int fill(conn *c) {
  size_t avail = 0;
  char *at = upk_buf_space(&c->b.in, READ_CHUNK, &avail);
  ssize_t k;
  do
    k = read(c->in_fd, at, avail);
  while (k < 0 && errno == EINTR);
  if (k < 0)
    return -errno;
  upk_buf_added(&c->b.in, (size_t)k);
  return (int)(k > 0);
}

/* Serve every whole line in the buffer, keeping the rest. Returns 0, or -errno when a reply
 * could not be written (the connection is over). */
static int drain(conn *c) {
  inbuf *b = &c->b;
  size_t start = 0;
  char *nl;
  int rc = 0;
  while (!rc && (nl = memchr(b->in.data + b->scanned, '\n', b->in.len - b->scanned))) {
    size_t end = (size_t)(nl - b->in.data);
    if (b->skipping)
      b->skipping = false;
    else if (end > start)
      rc = handle_line(c, b->in.data + start, end - start);
    start = b->scanned = end + 1;
  }
  upk_buf_consume(&b->in, start);
  b->scanned = b->in.len;
  if (!rc && b->in.len > LINE_MAX_BYTES) {
    if (!b->skipping)
      rc = send_reply(c->out_fd, json_null(), NULL, "request line too long");
    if (rc < 0 && c->write_exits)
      exit(1);
    b->skipping = true;
    upk_buf_reset(&b->in);
    b->scanned = 0;
  }
  return rc;
}

/* Requests from in_fd, replies on out_fd, until EOF (0) or an error reading or writing
 * (-errno; a write error exits instead when write_exits). */
static int serve(int in_fd, int out_fd, bool write_exits) {
  conn c = {
      .in_fd = in_fd, .out_fd = out_fd, .write_exits = write_exits, .b.in = UPK_BUF_INIT(SIZE_MAX)};
  int rc;
  while ((rc = fill(&c)) > 0 && !(rc = drain(&c)))
    ;
  upk_buf_free(&c.b.in);
  return rc;
}

/* ---- setup and the two modes ---- */

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels refuse it and nothing changes */
#endif
#define HEAP_PREFAULT ((size_t)16 << 20) /* about what a first small compile grows the heap by */

/* Grow the heap by `bytes` and have the kernel map it in one call, then free it (it stays, see
 * M_TRIM_THRESHOLD). A first compile otherwise takes a page fault per 4 KiB it touches: where
 * faults are dear (a VM) that was 25 of its 100 ms, for 3 ms here. */
static void prefault_heap(size_t bytes) {
  char *p = upk_xmalloc(bytes);
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
  uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);
  if (end > start)
    madvise((void *)start, end - start, MADV_POPULATE_WRITE);
  free(p);
}

/* What every worker process does before its first request, in both modes. */
static void load_compiler(void) {
  /* NVRTC allocates and frees tens of MiB per compile. glibc's defaults hand that back to the
   * kernel after each compile (big blocks are mmap'd, the heap top is trimmed), and the next
   * compile faults it all in again: keeping it halves a warm compile (35 -> 20 ms for saxpy). */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  prefault_heap(HEAP_PREFAULT);
  /* Loading NVRTC now makes the first compile fast. */
  nvrtc_ok = upk_nvrtc_load(upk_cuda_default_path(NULL), nvrtc_reason, sizeof nvrtc_reason) == 0;
}

/* stdin mode's setup; returns the reply fd. */
static int setup_stdin(void) {
  /* The reply channel is a private copy of stdout; fd 1 then points at stderr, so a library
   * that prints (NVRTC, a debug printf) cannot corrupt the protocol. */
  int reply_fd = dup(STDOUT_FILENO);
  if (reply_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    perror("upskilld-worker: dup");
    exit(1);
  }
#ifdef __linux__
  /* A hung compile must not outlive the daemon that started it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) /* it died before the line above */
    exit(1);
#endif
  load_compiler();
  return reply_fd;
}

static int main_stdin(void) {
  int rc = serve(STDIN_FILENO, setup_stdin(), true);
  if (rc < 0) {
    fprintf(stderr, "upskilld-worker: reading stdin: %s\n", strerror(-rc));
    return 1;
  }
  return 0; /* EOF: the daemon closed our input */
}

/* Server mode's callbacks (serve.h), each run in a server's child. */

static void child_init(void *arg) {
  (void)arg;
  load_compiler();
}

/* NVRTC's one-time init (~95 ms) is paid here rather than by the first real request: one real
 * validate, by the op's own code, its result dropped. */
static void warm_up(void *arg) {
  (void)arg;
  if (!nvrtc_ok)
    return;
  static const char k[] = "extern \"C\" __global__ void k(float *y) { y[threadIdx.x] = 1.f; }\n";
  json_t *params = json_pack("{s:s,s:s,s:b}", "source", k, "arch", "sm_90a", "noCache", 1);
  json_t *result = NULL;
  char err[256];
  if (params)
    op_validate(-1, params, &result, err, sizeof err);
  json_decref(result);
  json_decref(params);
}

static int serve_conn(void *arg, int fd) {
  (void)arg;
  return serve(fd, fd, false);
}

static int main_serve(int argc, char **argv) {
  upk_wserve_config cfg = {.child_init = child_init, .warm_up = warm_up, .serve = serve_conn};
  if (upk_wserve_parse_args(argc, argv, &cfg) < 0)
    return 2;
  int rc = upk_worker_serve(&cfg);
  return rc == 0 ? 0 : rc == -ENAMETOOLONG ? 2 : 1;
}

/* The worker's temporary files go to a directory of the user's own, $XDG_CACHE_HOME/upskilld/tmp
 * (else ~/.cache/...), so that a compile confined by Landlock (compile.c) may write NVRTC's
 * precompiled-header files there and read nothing of /tmp. The same directory for every
 * worker: what each puts there it removes (NVRTC its files, nvcc.c its directories). */
static void make_own_tmp(void) {
  char dir[PATH_MAX];
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && xdg[0] == '/')
    snprintf(dir, sizeof dir, "%s/upskilld", xdg);
  else if (home && home[0] == '/')
    snprintf(dir, sizeof dir, "%s/.cache/upskilld", home);
  else
    return; /* compiles write where TMPDIR says (a confined one then builds no PCH) */
  if (upk_mkdir_p(dir, 0700) || snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/tmp") < 0)
    return;
  struct stat st;
  if ((mkdir(dir, 0700) && errno != EEXIST) || lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
      st.st_uid != getuid())
    return;
  setenv("TMPDIR", dir, 1);
}

int main(int argc, char **argv) {
  upk_xalloc_install();
  make_own_tmp();
  /* before any thread */ /* jansson aborts on exhaustion as the rest does (common/xalloc.h) */
  /* Belt and braces beside NVRTC's --no-cache (compile.c): the driver's
   * compute cache must never answer for ptxas, whatever loads libcuda here. */
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  faults = upk_env_opts()->worker_faults;
  return argc > 1 ? main_serve(argc, argv) : main_stdin();
}
