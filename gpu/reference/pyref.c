/* The PyTorch reference of a run (pyref.h): start the helper in a private
 * directory and wait for it against its limit, turn its failures into one
 * diagnostic each, then resolve the run's {"from"} buffers against the
 * tensors it handed over and feed them to the device engine trial by trial. */
#include "gpu/reference/pyref.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/env_options.h"
#include "common/fileio.h"
#include "common/xalloc.h"

extern char **environ;

enum { LOG_TAIL = 1200, POLL_MS = 10 };
enum {
  EXIT_NO_TORCH = 3,
  EXIT_NO_CUDA = 4,
  EXIT_PROBLEM = 5,
  EXIT_OP_UNAVAILABLE = 6,
  EXIT_NOT_FOUND = 127
};

#define diag upk_pyref_diag

int upk_pyref_diag(upk_pyref *p, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(p->diags, UPK_SEV_ERROR, code, "upskilld-run", p->at, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* ---- the helper process -------------------------------------------------- */

static void helper_path(const upk_pyref_cfg *cfg, char *buf, size_t len) {
  const char *env = upk_env_opts()->pyref_helper;
  if (cfg && cfg->helper)
    snprintf(buf, len, "%s", cfg->helper);
  else if (env)
    snprintf(buf, len, "%s", env);
  else {
    char exe[PATH_MAX];
    upk_exe_dir(exe, sizeof exe);
    snprintf(buf, len, "%s/upskilld-pyref.py", exe);
  }
}

static const char *python_of(const upk_pyref_cfg *cfg) {
  const char *env = upk_env_opts()->python;
  if (cfg && cfg->python && *cfg->python)
    return cfg->python;
  return env ? env : "python3";
}

/* The last lines the helper wrote (its own message, or a traceback's end). */
static void log_tail(const upk_pyref *p, char *buf, size_t len) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/helper.log", p->dir);
  FILE *f = fopen(path, "rb");
  size_t n = 0;
  buf[0] = '\0';
  if (!f)
    return;
  if (fseek(f, -(long)LOG_TAIL, SEEK_END))
    rewind(f);
  n = fread(buf, 1, len - 1, f);
  fclose(f);
  buf[n] = '\0';
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
    buf[--n] = '\0';
  for (char *c = buf; *c; c++)
    if (*c == '\n')
      *c = ' '; /* one line in a diagnostic */
}

typedef struct argv_b {
  char *v[40];
  char store[6][64];
  int n;
} argv_b;

static void add(argv_b *a, const char *s) {
  if (s && a->n < 38)
    a->v[a->n++] = (char *)s;
}

static void add2(argv_b *a, const char *flag, const char *v) {
  if (v) {
    add(a, flag);
    add(a, v);
  }
}

/* Trial t uses the seed the run's own buffers would: upk_trial_seed(seed, t). */
static char *seeds_arg(const upk_run_spec *s) {
  size_t cap = (size_t)s->trials * 21 + 1;
  char *out = upk_xmalloc(cap), *w = out;
  for (unsigned t = 0; out && t < s->trials; t++)
    w += snprintf(w, cap - (size_t)(w - out), "%s%llu", t ? "," : "",
                  (unsigned long long)upk_trial_seed(s->ref.py.seed, t));
  return out;
}

static int write_source(upk_pyref *p, const char *src, char *path, size_t len) {
  snprintf(path, len, "%s/problem.py", p->dir);
  FILE *f = fopen(path, "wb");
  size_t n = strlen(src);
  int ok = f && fwrite(src, 1, n, f) == n;
  if (f && fclose(f))
    ok = 0;
  return ok ? 0 : diag(p, "run/pytorch-failed", "cannot write the problem source to %s", path);
}

static int spawn(upk_pyref *p, const char *python, char *const *argv, pid_t *pid) {
  char log[PATH_MAX + 16];
  snprintf(log, sizeof log, "%s/helper.log", p->dir);
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP); /* torch.compile's workers die with it */
  posix_spawnattr_setpgroup(&at, 0);
  int rc = posix_spawnp(pid, python, &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  return rc;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for the helper; past the limit its process group is killed. Returns
 * the wait status, or -ETIMEDOUT. */
static int wait_for(pid_t pid, unsigned limit_ms) {
  int64_t end = now_ms() + limit_ms;
  int st = 0;
  for (;;) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid)
      return st;
    if (r < 0 && errno != EINTR)
      return -ECHILD;
    if (now_ms() >= end) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
      return -ETIMEDOUT;
    }
    struct timespec ts = {0, POLL_MS * 1000000L};
    nanosleep(&ts, NULL);
  }
}

/* One diagnostic per way the helper can fail. */
static int helper_failed(upk_pyref *p, const char *python, int st) {
  char tail[LOG_TAIL + 1];
  log_tail(p, tail, sizeof tail);
  if (st == -ETIMEDOUT)
    return diag(p, "run/pytorch-timeout",
                "the PyTorch reference did not finish within run.reference.pytorch.timeoutMs "
                "(%u ms) and was stopped; last output: %s",
                p->s->ref.py.timeout_ms, tail[0] ? tail : "(none)");
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (code == EXIT_NO_TORCH)
    return diag(p, "run/no-torch", "%s (set --python or UPSKILLD_PYTHON to a python3 with torch)",
                tail);
  if (code == EXIT_NO_CUDA)
    return diag(p, "run/no-device",
                "no CUDA device for the PyTorch reference: %s; the compile checks still ran, the "
                "kernel did not. A cluster's GPU can run it: UPSKILLD_WORKER_COMMAND=\"srun "
                "--gres=gpu:1 --time=00:05:00\" upskillctl check-kernel ... (docs/gpu.md, \"On a "
                "cluster\")",
                tail);
  if (code == EXIT_OP_UNAVAILABLE)
    return diag(p, "run/pytorch-op-unavailable",
                "op '%s' of %s cannot be called: %s; build the extension (kernel-builder) so "
                "build/<variant>/ holds it; the compile checks still ran, the kernel did not",
                p->s->ref.py.op, p->project, tail);
  if (code == EXIT_NOT_FOUND)
    return diag(p, "run/no-python", "cannot run '%s': %s (set --python or UPSKILLD_PYTHON)", python,
                tail);
  if (WIFSIGNALED(st))
    return diag(p, "run/pytorch-failed", "the PyTorch reference was killed by signal %d; %s",
                WTERMSIG(st), tail);
  return diag(p, "run/pytorch-failed", "the PyTorch reference failed (exit %d): %s", code,
              tail[0] ? tail : "(no output)");
}

static int make_dir(upk_pyref *p) {
  int rc = upk_private_tmpdir("pyref", p->dir, sizeof p->dir);
  if (!rc)
    return 0;
  int e = -rc;
  diag(p, "run/pytorch-failed", "cannot make a directory for the reference's tensors (%s): %s",
       p->dir, strerror(e));
  p->dir[0] = '\0';
  return -e;
}

int upk_pyref_run(upk_pyref *p, const upk_run_spec *s, const upk_pyref_cfg *cfg, upk_diags *diags,
                  upk_range at) {
  *p = (upk_pyref){.s = s, .diags = diags, .at = at, .cur_trial = -1};
  const char *python = python_of(cfg);
  char helper[PATH_MAX], problem[PATH_MAX + 16], plan[PATH_MAX + 16], warm[16], iters[16];
  helper_path(cfg, helper, sizeof helper);
  if (access(helper, R_OK))
    return diag(p, "run/pytorch-helper-missing",
                "the PyTorch helper %s is missing: reinstall upskilld (or set "
                "UPSKILLD_PYREF_HELPER)",
                helper);
  int rc = make_dir(p);
  if (rc || (s->ref.py.source && (rc = write_source(p, s->ref.py.source, problem, sizeof problem))))
    return rc;
  if (s->ref.py.op && (rc = upk_pyref_op_plan(p, s, cfg ? cfg->hint : NULL, plan, sizeof plan)))
    return rc;
  char *seeds = seeds_arg(s), model_seed[24];
  if (!seeds)
    return -ENOMEM;
  snprintf(model_seed, sizeof model_seed, "%llu", (unsigned long long)s->ref.py.seed);
  snprintf(warm, sizeof warm, "%u", s->warmup);
  snprintf(iters, sizeof iters, "%u", s->iterations);
  argv_b a = {.n = 0};
  add(&a, python), add(&a, helper);
  if (s->ref.py.op)
    add2(&a, "--op", s->ref.py.op), add2(&a, "--op-plan", plan);
  else
    add2(&a, "--problem", s->ref.py.source ? problem : s->ref.py.path);
  add2(&a, "--out", p->dir), add2(&a, "--seeds", seeds), add2(&a, "--model-seed", model_seed);
  add2(&a, "--warmup", warm), add2(&a, "--iterations", iters);
  add2(&a, "--model", s->ref.py.model), add2(&a, "--inputs", s->ref.py.inputs);
  add2(&a, "--init-inputs", s->ref.py.init), add2(&a, "--globals", s->ref.py.globals);
  if (s->ref.py.compile)
    add(&a, "--compile");
  a.v[a.n] = NULL;
  pid_t pid;
  int e = spawn(p, python, a.v, &pid);
  free(seeds);
  if (e)
    return diag(p, "run/no-python",
                "cannot run '%s' for the PyTorch reference: %s (set --python or UPSKILLD_PYTHON "
                "to a python3 with torch)",
                python, strerror(e));
  int st = wait_for(pid, s->ref.py.timeout_ms);
  return st == 0 ? 0 : helper_failed(p, python, st);
}

/* ---- tensors -------------------------------------------------------------- */

static int open_trial(upk_pyref *p, unsigned t) {
  char path[PATH_MAX + 32], err[512];
  if (p->cur_trial == (int)t)
    return 0;
  upk_pyref_file_close(&p->cur);
  p->cur_trial = -1;
  snprintf(path, sizeof path, "%s/trial%u.upkt", p->dir, t);
  int rc = upk_pyref_file_read(path, &p->cur, err, sizeof err);
  if (rc == -ENOMEM)
    return rc;
  if (rc)
    return diag(p, "run/pytorch-handoff", "the PyTorch reference's tensors of trial %u: %s", t,
                err);
  p->cur_trial = (int)t;
  return 0;
}

/* "input0 f32 [4], input1 f32 [4]": what the reference does have of a kind. */
static void list_kind(const upk_pyref_file *f, upk_pyref_kind kind, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < f->n && n + 1 < len; i++) {
    const upk_pyref_tensor *t = &f->t[i];
    char d[160];
    if (t->kind != kind)
      continue;
    upk_pyref_describe(t->dtype, t->shape, t->rank, d, sizeof d);
    if (kind == UPK_PYT_PARAM)
      n += (size_t)snprintf(buf + n, len - n, "%sparam:%s %s", n ? ", " : "", t->name, d);
    else
      n += (size_t)snprintf(buf + n, len - n, "%s%s%u %s", n ? ", " : "",
                            kind == UPK_PYT_INPUT ? "input" : "output", t->index, d);
  }
  if (!n)
    snprintf(buf, len, "none");
}

static bool shape_differs(const upk_run_arg *a, const upk_pyref_tensor *t) {
  if (a->rank == 0)
    return a->count && a->count != t->count;
  if (a->rank != t->rank)
    return true;
  return memcmp(a->shape, t->shape, sizeof *a->shape * (size_t)a->rank) != 0;
}

/* What the spec gave: "f16 [1024]", "[1024]", "x 1024 elements", "f16". */
static void spec_of(const upk_run_arg *a, char *buf, size_t len) {
  char shape[180];
  upk_pyref_describe(a->dtype, a->shape, a->rank, shape, sizeof shape);
  const char *dims = strchr(shape, '[');
  const char *dt = a->dtype_given ? upk_dtype_name(a->dtype) : "";
  const char *sp = a->dtype_given && (a->rank || a->count) ? " " : "";
  if (a->rank)
    snprintf(buf, len, "%s%s%s", dt, sp, dims);
  else if (a->count)
    snprintf(buf, len, "%s%s%zu elements", dt, sp, a->count);
  else
    snprintf(buf, len, "%s", dt);
}

/* The tensor `a`'s feed reads: an inout output's contents before the op
 * ran for its initial contents, else the tensor it names. */
static const upk_pyref_tensor *feed_source(const upk_pyref_file *f, const upk_run_arg *a,
                                           bool expected) {
  if (expected || a->role != UPK_ROLE_INOUT)
    return upk_pyref_find(f, a->from, a->from_index, a->from_name);
  for (size_t i = 0; i < f->n; i++)
    if (f->t[i].kind == UPK_PYT_OUTPUT_INIT && f->t[i].index == a->from_index)
      return &f->t[i];
  return NULL;
}

/* An inout buffer needs the output's contents before the op wrote them, alike in dtype and shape.
 */
static int resolve_inout(upk_pyref *p, size_t i, const upk_run_arg *a, const upk_pyref_tensor *t) {
  const upk_pyref_tensor *init = feed_source(&p->cur, a, false);
  if (init && init->dtype == t->dtype && init->count == t->count)
    return 0;
  return diag(p, "run/pytorch-mismatch",
              "run.args[%zu] '%s' is inout (from output%u), but the PyTorch reference gives no "
              "contents of output%u before it was written: only a torch op's written argument "
              "with low and high in run.reference.pytorch.args is drawn first",
              i, a->name, a->from_index, a->from_index);
}

static int resolve_arg(upk_pyref *p, size_t i, upk_run_arg *a) {
  static const upk_pyref_kind kinds[] = {0, UPK_PYT_INPUT, UPK_PYT_OUTPUT, UPK_PYT_PARAM};
  char from[300], have[1024], spec[200], ref[200];
  upk_pyref_from_name(a, from, sizeof from);
  const upk_pyref_tensor *t = upk_pyref_find(&p->cur, a->from, a->from_index, a->from_name);
  if (!t) {
    list_kind(&p->cur, kinds[a->from], have, sizeof have);
    return diag(p, "run/pytorch-mismatch",
                "run.args[%zu] '%s' is {\"from\": \"%s\"}, which the PyTorch reference does not "
                "have; it has: %s",
                i, a->name, from, have);
  }
  upk_pyref_describe(t->dtype, t->shape, t->rank, ref, sizeof ref);
  spec_of(a, spec, sizeof spec);
  if ((a->dtype_given && a->dtype != t->dtype) || shape_differs(a, t))
    return diag(p, "run/pytorch-mismatch",
                "run.args[%zu] '%s' (from %s): the run spec says %s, the PyTorch reference gives "
                "%s; fix the spec (or leave dtype and shape out to take the tensor's)",
                i, a->name, from, spec, ref);
  if (a->role == UPK_ROLE_INOUT && resolve_inout(p, i, a, t))
    return -EINVAL;
  a->dtype = t->dtype;
  a->count = t->count;
  a->rank = t->rank;
  memcpy(a->shape, t->shape, sizeof a->shape);
  return 0;
}

static void read_timings(upk_pyref *p) {
  char path[PATH_MAX + 32], err[256];
  upk_pyref_file f;
  snprintf(path, sizeof path, "%s/timing.upkt", p->dir);
  if (upk_pyref_file_read(path, &f, err, sizeof err))
    return; /* no timings: the run reports none, it does not invent any */
  const upk_pyref_tensor *e = upk_pyref_find_kind(&f, UPK_PYT_TIME_EAGER),
                         *c = upk_pyref_find_kind(&f, UPK_PYT_TIME_COMPILE);
  if (e && e->dtype == UPK_DT_F64 && e->count)
    p->has_eager = upk_stats_of(e->data, e->count, &p->eager) == 0;
  if (c && c->dtype == UPK_DT_F64 && c->count)
    p->has_compiled = upk_stats_of(c->data, c->count, &p->compiled) == 0;
  upk_pyref_file_close(&f);
}

int upk_pyref_resolve(upk_pyref *p, upk_run_spec *s) {
  int rc = open_trial(p, 0);
  size_t bytes = 0;
  for (size_t i = 0; !rc && i < s->n_args; i++) {
    upk_run_arg *a = &s->args[i];
    if (a->from && (rc = resolve_arg(p, i, a)))
      break;
    bytes += a->is_buffer ? a->count * upk_dtype_size(a->dtype) : 0;
  }
  if (!rc && bytes > UPK_RUN_MAX_BUFFER_BYTES)
    rc = diag(p, "run/pytorch-mismatch",
              "the buffers total %zu MiB, over the %zu GiB cap: shrink the problem with "
              "run.reference.pytorch.globals",
              bytes >> 20, UPK_RUN_MAX_BUFFER_BYTES >> 30);
  if (!rc)
    read_timings(p);
  p->resolved = rc == 0;
  return rc;
}

int upk_pyref_feed(void *ctx, unsigned trial, size_t arg, void *dst, size_t bytes, bool expected) {
  upk_pyref *p = ctx;
  const upk_run_arg *a = &p->s->args[arg];
  int rc = open_trial(p, trial);
  if (rc)
    return rc;
  const upk_pyref_tensor *t = feed_source(&p->cur, a, expected);
  char from[300], got[200], want[200];
  upk_pyref_from_name(a, from, sizeof from);
  if (t && t->bytes == bytes && t->dtype == a->dtype) {
    memcpy(dst, t->data, bytes);
    return 0;
  }
  upk_pyref_describe(a->dtype, a->shape, a->rank, want, sizeof want);
  if (t)
    upk_pyref_describe(t->dtype, t->shape, t->rank, got, sizeof got);
  return diag(p, "run/pytorch-mismatch",
              "trial %u: the PyTorch reference's %s%s is %s, but trial 0's was %s: a run needs "
              "the same shapes every trial",
              trial, expected ? "expected " : "", from, t ? got : "missing", want);
}

void upk_pyref_close(upk_pyref *p) {
  upk_pyref_file_close(&p->cur);
  p->cur_trial = -1;
  if (!p->dir[0])
    return;
  DIR *d = opendir(p->dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char path[PATH_MAX + 260];
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name), unlink(path);
  }
  if (d)
    closedir(d);
  rmdir(p->dir);
  p->dir[0] = '\0';
}

json_t *upk_pyref_json(const upk_pyref *p, const upk_run_spec *s) {
  json_t *tensors = json_array();
  for (size_t i = 0; i < s->n_args; i++) {
    const upk_run_arg *a = &s->args[i];
    char from[300];
    if (!a->from || !p->resolved)
      continue; /* the reference did not get that far */
    json_t *shape = json_array();
    for (int d = 0; d < a->rank; d++)
      json_array_append_new(shape, json_integer((json_int_t)a->shape[d]));
    upk_pyref_from_name(a, from, sizeof from);
    json_array_append_new(tensors, json_pack("{s:s,s:s,s:s,s:o}", "arg", a->name, "from", from,
                                             "dtype", upk_dtype_name(a->dtype), "shape", shape));
  }
  json_t *j =
      json_pack("{s:s,s:I,s:b,s:o,s:o,s:o}", "problem",
                s->ref.py.op     ? s->ref.py.op
                : s->ref.py.path ? s->ref.py.path
                                 : "(source)",
                "seed", (json_int_t)s->ref.py.seed, "compile", s->ref.py.compile, "tensors",
                tensors, "eagerTimeMs", p->has_eager ? json_real(p->eager.median) : json_null(),
                "compileTimeMs", p->has_compiled ? json_real(p->compiled.median) : json_null());
  if (j && s->ref.py.op) /* the op, and the schema it was checked against once read */
    json_object_update_new(j, json_pack("{s:s,s:s,s:s}", "op", s->ref.py.op, "project", p->project,
                                        "schema", p->schema));
  return j;
}
