/* Static checks before a run (static_checks.h). One pass over the lexer's tokens with a short
 * window behind the current one: names are judged where they stand (`torch ::`, `std :: thread`,
 * `atomicAdd ( & cnt`), so a word in a comment, a string or a member access never fires.
 * File-scope device variables are collected as they are declared (C++ declares before use), for
 * the launch-counter rule and to know the reference's variables. */
#include "gpu/run/static_checks.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "gpu/run/runspec.h"
#include "gpu/compile/srcscan.h"

enum { SOURCE_CAP = 16 << 20 }; /* as the run's own reads (run_op.c) */
enum { WINDOW = 6, MAX_PER_CODE = 20, MAX_VARS = 4096, MAX_DEPTH = 256 };

static const char SOURCE[] = "upskilld-run";

int upk_kstatic_forbid_parse(json_t *v, unsigned *mask, char *err, size_t err_len) {
  static const char *const names[] = {"torch", "cublas", "cudnn", "cutlass", "thrust"};
  size_t i;
  json_t *e;
  *mask = 0;
  if (!json_is_array(v))
    return snprintf(err, err_len, "run.forbid: expected an array of library names (%s)",
                    UPK_FORBID_NAMES),
           -EINVAL;
  json_array_foreach(v, i, e) {
    const char *s = json_string_value(e);
    size_t k = 0;
    while (s && k < sizeof names / sizeof *names && strcmp(s, names[k]))
      k++;
    if (!s || k == sizeof names / sizeof *names)
      return snprintf(err, err_len, "run.forbid[%zu]: unknown library '%.64s'; expected one of %s",
                      i, s ? s : "(not a string)", UPK_FORBID_NAMES),
             -EINVAL;
    *mask |= 1u << k;
  }
  return 0;
}

/* A file-scope __device__ / __constant__ / __managed__ variable. */
typedef struct dvar {
  char *name;
  int line, col;
  int inc_line, inc_col; /* the first increment; -1: none */
  bool reset, is_extern;
} dvar;

typedef struct scan {
  const upk_kstatic_cfg *cfg;
  upk_src_lexer lx;
  upk_src_token w[WINDOW]; /* w[0] the current token, w[1] the one before, ... */
  size_t n_seen;
  upk_diags *out;
  dvar *vars;
  size_t n_vars, cap_vars;
  /* Declarations at file scope. */
  int depth;                   /* braces that are not a namespace's or an extern "C"'s */
  unsigned char ns[MAX_DEPTH]; /* per open brace: 1 when it is a namespace's */
  int nest;                    /* all open braces */
  bool pending_ns;             /* `namespace` or `extern "C"` seen, its `{` not yet */
  bool in_decl, decl_extern, stmt_extern, decl_done;
  upk_src_token last_ident;
  unsigned include_dir; /* the directive number of the last #include */
  int last_line[16];    /* per code: the last line reported (one per line) */
  int count[16];
  /* Only collecting (the reference's source). */
  bool collect_only;
} scan;

typedef enum {
  C_LIBRARY,
  C_TIMING,
  C_STREAM,
  C_HOST_COPY,
  C_HOST_THREAD,
  C_CLOCK,
  C_COUNTER,
  C_INCLUDES_REF,
  C_READS_REF,
} code_id;

static const char *const CODES[] = {
    "run/forbidden-library", "run/timing-api",         "run/stream-api",
    "run/host-copy",         "run/host-thread",        "run/device-clock",
    "run/launch-counter",    "run/includes-reference", "run/reads-reference"};

static const upk_src_token *tok(const scan *s, size_t back) {
  return back < s->n_seen && back < WINDOW ? &s->w[back] : NULL;
}

static bool is(const scan *s, size_t back, const char *text) {
  const upk_src_token *t = tok(s, back);
  return t && upk_tok_is(t, text);
}

static bool is_ident(const scan *s, size_t back) {
  const upk_src_token *t = tok(s, back);
  return t && t->kind == UPK_TOK_IDENT;
}

static bool tok_eq(const upk_src_token *t, const char *text) {
  return t->kind == UPK_TOK_IDENT && upk_tok_is(t, text);
}

static bool in_list(const upk_src_token *t, const char *const *list) {
  for (; *list; list++)
    if (tok_eq(t, *list))
      return true;
  return false;
}

static bool has_prefix(const upk_src_token *t, const char *p) {
  size_t n = strlen(p);
  return t->kind == UPK_TOK_IDENT && t->len >= n && !memcmp(t->text, p, n);
}

/* `p` then an upper-case letter: `cublasSgemm`, `cuStreamCreate`, not `cublas_ws`. */
static bool api_prefix(const upk_src_token *t, const char *p) {
  size_t n = strlen(p);
  return has_prefix(t, p) && t->len > n && t->text[n] >= 'A' && t->text[n] <= 'Z';
}

/* The token `back` places behind is a name used on its own: not a member (`.x`, `->x`), not in
 * a namespace other than the global one (`::x` is fine, `ns::x` is not). */
static bool unqualified(const scan *s, size_t back) {
  if (is(s, back + 1, ".") || is(s, back + 1, "->"))
    return false;
  return !is(s, back + 1, "::") || !(is_ident(s, back + 2) || is(s, back + 2, ">"));
}

static void report(scan *s, code_id c, upk_severity sev, const upk_src_token *t, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

static void report(scan *s, code_id c, upk_severity sev, const upk_src_token *t, const char *fmt,
                   ...) {
  int line, col, end_line, end_col;
  if (s->collect_only)
    return;
  upk_src_lex_pos(&s->lx, t->off, &line, &col);
  upk_src_lex_pos(&s->lx, t->off + t->len, &end_line, &end_col);
  if (s->count[c] >= MAX_PER_CODE || (s->count[c] && s->last_line[c] == line))
    return;
  s->count[c]++, s->last_line[c] = line;
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(s->out, sev, CODES[c], SOURCE,
                 (upk_range){line, col, end_line, end_line == line ? end_col : col + 1}, fmt, ap);
  va_end(ap);
}

/* ---- forbidden libraries ---- */

static const char FORBID_WHY[] =
    "which this run forbids (run.forbid; with a PyTorch reference torch, cublas and cudnn are "
    "forbidden unless run.forbid says otherwise): the submission must do the work itself";

static void library(scan *s, const char *lib, const upk_src_token *t, const char *what) {
  report(s, C_LIBRARY, UPK_SEV_ERROR, t, "'%.*s' %s %s, %s", (int)t->len, t->text, what, lib,
         FORBID_WHY);
}

static void forbidden_names(scan *s) {
  static const char *const torch_ns[] = {"torch", "at", "c10", NULL};
  static const char *const cutlass_dev[] = {"gemm", "conv", "reduction", NULL};
  unsigned f = s->cfg->forbid;
  const upk_src_token *t = &s->w[0];
  if (is(s, 0, "::") && is_ident(s, 1) && unqualified(s, 1)) { /* `torch ::` */
    if ((f & UPK_FORBID_TORCH) && in_list(&s->w[1], torch_ns))
      library(s, "PyTorch", &s->w[1], "is a namespace of");
    if ((f & UPK_FORBID_THRUST) && tok_eq(&s->w[1], "thrust"))
      library(s, "Thrust", &s->w[1], "is a namespace of");
  }
  if ((f & UPK_FORBID_TORCH) && in_list(t, torch_ns) && is(s, 1, "namespace") && is(s, 2, "using"))
    library(s, "PyTorch", t, "is a namespace of");
  if ((f & UPK_FORBID_CUBLAS) && (api_prefix(t, "cublas") || has_prefix(t, "CUBLAS_")) &&
      unqualified(s, 0))
    library(s, "cuBLAS", t, "belongs to");
  if ((f & UPK_FORBID_CUDNN) &&
      (api_prefix(t, "cudnn") || has_prefix(t, "CUDNN_") || tok_eq(t, "cudnn_frontend")) &&
      unqualified(s, 0))
    library(s, "cuDNN", t, "belongs to");
  if ((f & UPK_FORBID_CUTLASS) && is(s, 1, "::") &&
      ((tok_eq(t, "device") && is(s, 3, "::") && is(s, 4, "cutlass") && tok(s, 2) &&
        in_list(&s->w[2], cutlass_dev)) ||
       (tok_eq(t, "library") && is(s, 2, "cutlass"))))
    library(s, "CUTLASS", t, "is a device-level launcher namespace of");
}

/* ---- timing, streams, host work ---- */

static const char *const timing[] = {
    "cudaEventCreate",          "cudaEventCreateWithFlags", "cudaEventRecord",
    "cudaEventRecordWithFlags", "cudaEventSynchronize",     "cudaEventElapsedTime",
    "cudaEventElapsedTime_v2",  "cudaEventQuery",           "cudaEventDestroy",
    "cudaDeviceSynchronize",    "cudaThreadSynchronize",    "cudaStreamSynchronize",
    "cudaStreamQuery",          "cuCtxSynchronize",         NULL};
static const char *const stream[] = {"cudaStreamCreate",
                                     "cudaStreamCreateWithFlags",
                                     "cudaStreamCreateWithPriority",
                                     "cudaStreamDestroy",
                                     "cudaStreamWaitEvent",
                                     "cudaStreamAddCallback",
                                     "cudaLaunchHostFunc",
                                     "cudaStreamBeginCapture",
                                     "cudaStreamEndCapture",
                                     "cudaGraphLaunch",
                                     "cudaStreamFireAndForget",
                                     "cudaStreamTailLaunch",
                                     "cudaStreamPerThread",
                                     "cuLaunchHostFunc",
                                     "cuGraphLaunch",
                                     NULL};
static const char *const host_copy[] = {"cudaMemcpyDeviceToHost",
                                        "cudaMemcpyFromSymbol",
                                        "cudaMemcpyFromSymbolAsync",
                                        "cuMemcpyDtoH",
                                        "cuMemcpyDtoH_v2",
                                        "cuMemcpyDtoHAsync",
                                        "cuMemcpyDtoHAsync_v2",
                                        "cudaHostAlloc",
                                        "cudaMallocHost",
                                        "cudaHostRegister",
                                        "cuMemHostAlloc",
                                        "cuMemAllocHost",
                                        NULL};
static const char *const host_calls[] = {"atexit", "at_quick_exit", "pthread_create", "fork", NULL};
static const char *const std_threads[] = {"thread", "jthread", "async", NULL};
static const char *const host_clocks[] = {"clock_gettime", "gettimeofday", NULL};
static const char *const dev_clocks[] = {"clock64", "clock", "__clock64", NULL};

/* A runtime or driver API named: timing, streams, std threads, copies to the host. */
static void host_apis(scan *s) {
  const upk_src_token *t = &s->w[0];
  if (t->kind == UPK_TOK_IDENT && (unqualified(s, 0) || is(s, 2, "std"))) {
    if (in_list(t, timing) || api_prefix(t, "cuEvent"))
      report(s, C_TIMING, UPK_SEV_ERROR, t,
             "'%.*s' times or synchronizes from inside the submission: the harness times the "
             "kernel, and a submission that records events or waits on work itself can hide "
             "work from that timer",
             (int)t->len, t->text);
    else if (in_list(t, stream) || api_prefix(t, "cuStream"))
      report(s, C_STREAM, UPK_SEV_ERROR, t,
             "'%.*s' makes or uses a stream, graph or host callback of the submission's own: work "
             "left on a stream the harness's timer does not wait for is hidden from it",
             (int)t->len, t->text);
    else if (in_list(t, std_threads) && is(s, 1, "::") && is(s, 2, "std") && !is(s, 3, "::"))
      report(s, C_HOST_THREAD, UPK_SEV_ERROR, t,
             "'std::%.*s' starts a thread: work outside the launch the harness times and checks",
             (int)t->len, t->text);
    else if (in_list(t, host_copy))
      report(s, C_HOST_COPY, UPK_SEV_ERROR, t,
             "'%.*s' copies results to host memory or maps it for the kernel: results kept "
             "outside the run's buffers can be reused across launches instead of computed",
             (int)t->len, t->text);
  }
}

/* Calls of common C names, so a variable called `clock` does not fire. */
static void host_calls_made(scan *s) {
  if (!is(s, 0, "(") || !is_ident(s, 1))
    return;
  const upk_src_token *f = &s->w[1];
  bool in_std = is(s, 2, "::") && is(s, 3, "std");
  if (in_list(f, host_calls) && unqualified(s, 1))
    report(s, C_HOST_THREAD, UPK_SEV_ERROR, f,
           "'%.*s' starts a thread, a process or an exit handler: work outside the launch the "
           "harness times and checks",
           (int)f->len, f->text);
  else if (in_list(f, host_clocks) && unqualified(s, 1))
    report(s, C_TIMING, UPK_SEV_ERROR, f,
           "'%.*s' reads the host clock: a submission must not time itself", (int)f->len, f->text);
  else if (in_list(f, dev_clocks) && (unqualified(s, 1) || in_std))
    report(s, C_CLOCK, UPK_SEV_WARNING, f,
           "'%.*s' reads the clock: a kernel that knows the time can tell the timed launches "
           "from the checked ones",
           (int)f->len, f->text);
}

static void host_work(scan *s) {
  host_apis(s);
  host_calls_made(s);
}

/* `std::chrono` on the host, `%globaltimer` / `%clock64` in inline PTX. */
static void clocks(scan *s) {
  const upk_src_token *t = &s->w[0];
  if (tok_eq(t, "chrono") && is(s, 1, "::") && is(s, 2, "std") && !is(s, 3, "::"))
    report(s, C_TIMING, UPK_SEV_ERROR, t,
           "'std::chrono' reads the host clock: a submission must not time itself");
  if (t->kind == UPK_TOK_STRING &&
      (memmem(t->text, t->len, "%globaltimer", 12) || memmem(t->text, t->len, "%clock", 6)))
    report(s, C_CLOCK, UPK_SEV_WARNING, t,
           "inline PTX reads %s: a kernel that knows the time can tell the timed launches from "
           "the checked ones",
           memmem(t->text, t->len, "%globaltimer", 12) ? "%globaltimer" : "a %clock register");
}

/* ---- file-scope device variables ---- */

static dvar *find_var(scan *s, const upk_src_token *t) {
  for (size_t i = 0; i < s->n_vars; i++)
    if (strlen(s->vars[i].name) == t->len && !memcmp(s->vars[i].name, t->text, t->len))
      return &s->vars[i];
  return NULL;
}

static void add_var(scan *s, const upk_src_token *t) {
  if (s->n_vars >= MAX_VARS || find_var(s, t))
    return;
  UPK_GROW(s->vars, s->cap_vars, s->n_vars + 1);
  dvar *v = &s->vars[s->n_vars++];
  *v = (dvar){.name = upk_xstrndup(t->text, t->len), .inc_line = -1, .is_extern = s->decl_extern};
  upk_src_lex_pos(&s->lx, t->off, &v->line, &v->col);
}

/* Braces and `__device__ T name ...;` at file scope (namespaces count as file scope). */
static void declarations(scan *s) {
  const upk_src_token *t = &s->w[0];
  if (t->directive)
    return;
  if (tok_eq(t, "namespace") || (t->kind == UPK_TOK_STRING && is(s, 1, "extern")))
    s->pending_ns = true;
  if (upk_tok_is(t, "{")) {
    bool ns = s->pending_ns;
    if (s->nest < MAX_DEPTH)
      s->ns[s->nest] = ns;
    s->nest++, s->depth += !ns, s->pending_ns = false, s->in_decl = false;
    return;
  }
  if (upk_tok_is(t, "}")) {
    if (s->nest > 0 && !(--s->nest < MAX_DEPTH && s->ns[s->nest]) && s->depth > 0)
      s->depth--; /* braces past MAX_DEPTH were not a namespace's */
    s->in_decl = s->stmt_extern = false;
    return;
  }
  if (s->depth)
    return;
  if (upk_tok_is(t, ";"))
    s->pending_ns = s->in_decl = s->stmt_extern = false;
  else if (tok_eq(t, "extern"))
    s->stmt_extern = true;
  else if (tok_eq(t, "__device__") || tok_eq(t, "__constant__") || tok_eq(t, "__managed__")) {
    if (!s->in_decl)
      s->in_decl = true, s->decl_done = false, s->decl_extern = s->stmt_extern;
  } else if (s->in_decl && !s->decl_done) {
    if (upk_tok_is(t, "(") || tok_eq(t, "operator") || tok_eq(t, "__global__") ||
        tok_eq(t, "__shared__"))
      s->in_decl = false; /* a function (`operator+=` too), or not a global */
    else if (t->kind == UPK_TOK_IDENT)
      s->last_ident = *t;
    else if ((upk_tok_is(t, "=") || upk_tok_is(t, "[") || upk_tok_is(t, ",") ||
              upk_tok_is(t, "{")) &&
             s->last_ident.len) {
      add_var(s, &s->last_ident);
      s->decl_done = true;
    }
  }
}

/* The statement just ended at `;` while in a declaration: its last name is the variable. */
static void declaration_end(scan *s) {
  if (!s->depth && s->in_decl && !s->decl_done && s->last_ident.len && upk_tok_is(&s->w[0], ";"))
    add_var(s, &s->last_ident);
}

static const char *const INCREMENTS[] = {"atomicAdd", "atomicAdd_block", "atomicAdd_system",
                                         "atomicInc", "atomicSub",       "atomicDec",
                                         NULL};
static const char *const RESETS[] = {"atomicExch", "atomicExch_block", "atomicExch_system",
                                     "atomicCAS",  "atomicAnd",        "atomicMin",
                                     NULL};

static void incremented(scan *s, dvar *v, const upk_src_token *at) {
  if (v->inc_line < 0)
    upk_src_lex_pos(&s->lx, at->off, &v->inc_line, &v->inc_col);
}

/* How device code changes a known variable: `v++`, `++v`, `v += `, `atomicAdd(&v` count up;
 * `v = `, `atomicExch(&v` reset it. */
static void variable_uses(scan *s) {
  dvar *v;
  if (!s->n_vars)
    return;
  if (is(s, 0, "+") && is(s, 1, "+") && is_ident(s, 2) && (v = find_var(s, &s->w[2])))
    incremented(s, v, &s->w[2]);
  else if (is_ident(s, 0) && is(s, 1, "+") && is(s, 2, "+") && (v = find_var(s, &s->w[0])))
    incremented(s, v, &s->w[0]);
  else if (is(s, 0, "=") && (is(s, 1, "+") || is(s, 1, "-")) && is_ident(s, 2) &&
           (v = find_var(s, &s->w[2])))
    incremented(s, v, &s->w[2]);
  else if (is(s, 0, "=") && is_ident(s, 1) && unqualified(s, 1) && (v = find_var(s, &s->w[1])) &&
           !(s->depth == 0 && s->in_decl))
    v->reset = true;
  else if (is_ident(s, 0) && is(s, 1, "&") && is(s, 2, "(") && tok(s, 3) &&
           (v = find_var(s, &s->w[0]))) {
    if (in_list(&s->w[3], INCREMENTS))
      incremented(s, v, &s->w[0]);
    else if (in_list(&s->w[3], RESETS))
      v->reset = true;
  }
}

static void launch_counters(scan *s) {
  for (size_t i = 0; i < s->n_vars; i++) {
    dvar *v = &s->vars[i];
    if (v->inc_line < 0 || v->reset)
      continue;
    int line = v->line, col = v->col;
    if (s->count[C_COUNTER]++ >= MAX_PER_CODE)
      return;
    upk_diags_add(s->out, UPK_SEV_WARNING, CODES[C_COUNTER], SOURCE,
                  upk_range_line(line, col, col + (int)strlen(v->name)),
                  "'%s' is a __device__ variable that device code only ever increments (line %d) "
                  "and never resets: a launch counter lets a kernel compute on the launches that "
                  "are checked and skip work on the others; reset it in device code, or drop it",
                  v->name, v->inc_line + 1);
  }
}

/* ---- the reference ---- */

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

/* Does `target` (an #include's, as written) name one of the reference's files? */
static const char *reference_file(const upk_kstatic_cfg *cfg, const char *target, size_t n) {
  for (size_t i = 0; i < cfg->n_ref_files; i++) {
    const char *f = cfg->ref_files[i];
    if (!f || !*base_name(f))
      continue;
    const char *b = base_name(f);
    size_t bl = strlen(b);
    if (n >= bl && !memcmp(target + n - bl, b, bl) && (n == bl || target[n - bl - 1] == '/'))
      return f;
  }
  return NULL;
}

static void reference_strings(scan *s) {
  const upk_src_token *t = &s->w[0];
  if (t->kind != UPK_TOK_STRING ||
      (is(s, 1, "(") && (is(s, 2, "__has_include") || is(s, 2, "__has_include_next"))))
    return; /* a probe: includes() reports it */
  for (size_t i = 0; i < s->cfg->n_ref_files; i++) {
    const char *f = s->cfg->ref_files[i];
    const char *b = f ? base_name(f) : "";
    if (strlen(b) >= 3 && memmem(t->text, t->len, b, strlen(b)))
      report(s, C_READS_REF, UPK_SEV_ERROR, t,
             "this string names the reference's file %s: a submission may not read the "
             "reference",
             f);
  }
}

static void reference_names(scan *s, const scan *ref) {
  const upk_src_token *t = &s->w[0];
  const dvar *mine;
  if (!ref || t->kind != UPK_TOK_IDENT || !unqualified(s, 0) || !find_var((scan *)ref, t))
    return;
  if ((mine = find_var(s, t)) ? !mine->is_extern
                              : !s->depth && s->in_decl && !s->decl_done && !s->decl_extern)
    return; /* its own variable of the same name (or being declared), in its own module */
  report(s, C_READS_REF, UPK_SEV_ERROR, t,
         "'%.*s' is a device variable of the reference kernel's source: a submission may not "
         "read the reference's data",
         (int)t->len, t->text);
}

static void includes(scan *s, const upk_src_facts *f) {
  static const struct {
    unsigned lib;
    const char *prefix, *name;
    bool base; /* match the file's base name rather than the path */
  } heads[] = {
      {UPK_FORBID_TORCH, "torch/", "PyTorch", false},
      {UPK_FORBID_TORCH, "ATen/", "PyTorch", false},
      {UPK_FORBID_TORCH, "c10/", "PyTorch", false},
      {UPK_FORBID_CUBLAS, "cublas", "cuBLAS", true},
      {UPK_FORBID_CUDNN, "cudnn", "cuDNN", true},
      {UPK_FORBID_CUTLASS, "cutlass/gemm/device/", "CUTLASS", false},
      {UPK_FORBID_CUTLASS, "cutlass/conv/device/", "CUTLASS", false},
      {UPK_FORBID_CUTLASS, "cutlass/reduction/device/", "CUTLASS", false},
      {UPK_FORBID_CUTLASS, "cutlass/library/", "CUTLASS", false},
      {UPK_FORBID_THRUST, "thrust/", "Thrust", false},
  };
  for (size_t i = 0; i < f->n_includes; i++) {
    const upk_src_include *in = &f->includes[i];
    upk_range r = upk_range_line(in->line, in->col, in->end_col);
    const char *path = in->target, *ref;
    if (in->computed)
      continue;
    while (!strncmp(path, "./", 2))
      path += 2;
    for (size_t k = 0; k < sizeof heads / sizeof *heads; k++) {
      const char *subject = heads[k].base ? base_name(path) : path;
      if (!(s->cfg->forbid & heads[k].lib) ||
          strncmp(subject, heads[k].prefix, strlen(heads[k].prefix)))
        continue;
      if (s->count[C_LIBRARY]++ < MAX_PER_CODE)
        upk_diags_add(s->out, UPK_SEV_ERROR, CODES[C_LIBRARY], SOURCE, r,
                      "#include of '%s', a header of %s, %s", in->target, heads[k].name,
                      FORBID_WHY);
      break;
    }
    if ((ref = reference_file(s->cfg, in->target, strlen(in->target))) &&
        s->count[C_INCLUDES_REF]++ < MAX_PER_CODE)
      upk_diags_add(s->out, UPK_SEV_ERROR, CODES[C_INCLUDES_REF], SOURCE, r,
                    "%s of '%s', the reference's file (%s): a submission may not read the "
                    "reference",
                    in->probe ? "__has_include" : "#include", in->target, ref);
  }
}

/* ---- the walk ---- */

static void push(scan *s, const upk_src_token *t) {
  memmove(&s->w[1], &s->w[0], (WINDOW - 1) * sizeof *s->w);
  s->w[0] = *t;
  s->n_seen++;
}

static int walk(scan *s, const char *src, size_t len, const scan *ref) {
  upk_src_token t;
  if (upk_src_lex_open(&s->lx, src, len))
    return -ENOMEM;
  for (unsigned n = 0; n < 16; n++)
    s->last_line[n] = -1;
  while (upk_src_lex_next(&s->lx, &t)) {
    push(s, &t);
    if (t.kind == UPK_TOK_IDENT && t.directive && is(s, 1, "#") &&
        (upk_tok_is(&t, "include") || upk_tok_is(&t, "include_next") || upk_tok_is(&t, "import")))
      s->include_dir = t.directive;
    declaration_end(s);
    declarations(s);
    if (s->collect_only || (t.directive && t.directive == s->include_dir))
      continue;
    forbidden_names(s);
    host_work(s);
    clocks(s);
    variable_uses(s);
    reference_strings(s);
    reference_names(s, ref);
  }
  return 0;
}

static void scan_free(scan *s) {
  for (size_t i = 0; i < s->n_vars; i++)
    free(s->vars[i].name);
  free(s->vars);
  upk_src_lex_close(&s->lx);
}

int upk_kstatic_check(const char *src, size_t len, const upk_kstatic_cfg *cfg, upk_diags *out) {
  scan ref = {.cfg = cfg, .collect_only = true}, s = {.cfg = cfg, .out = out};
  upk_src_facts f;
  int rc = 0;
  if (cfg->ref_source && (rc = walk(&ref, cfg->ref_source, cfg->ref_len, NULL)))
    goto done;
  if ((rc = upk_src_scan(src, len, &f)))
    goto done;
  includes(&s, &f);
  upk_src_facts_free(&f);
  if (!(rc = walk(&s, src, len, cfg->ref_source ? &ref : NULL)))
    launch_counters(&s);
done:
  scan_free(&ref);
  scan_free(&s);
  return rc;
}

/* The submission's own directory (real path) for a file given by path, else the request's
 * fileDir; NULL when neither. */
static char *own_dir(json_t *params) {
  const char *path = json_string_value(json_object_get(params, "path"));
  const char *dir = json_string_value(json_object_get(params, "fileDir"));
  char *copy = path ? upk_xstrdup(path) : NULL, *real = NULL;
  if (copy)
    dir = dirname(copy);
  if (dir)
    real = realpath(dir, NULL);
  free(copy);
  return real;
}

/* The headers the compile reached (validate's `dependencies`, real paths the include policy
 * passed) that lie under the submission's own directory: its own files, checked as it is.
 * Libraries from the request's include directories elsewhere are not the submission. */
static int check_headers(json_t *params, json_t *deps, const upk_kstatic_cfg *cfg, upk_diags *out) {
  char *dir = own_dir(params);
  size_t i, n = dir ? strlen(dir) : 0;
  json_t *d;
  int rc = 0;
  json_array_foreach(deps, i, d) {
    const char *h = json_string_value(json_object_get(d, "path"));
    size_t len, from = out->len;
    char *text;
    if (!dir || !h || strncmp(h, dir, n) || h[n] != '/' ||
        !(text = upk_read_file(h, SOURCE_CAP, &len)))
      continue;
    rc = upk_kstatic_check(text, len, cfg, out);
    for (size_t k = from; k < out->len; k++)
      out->items[k].file = upk_xstrdup(h); /* columns stay that line's bytes, as for headers */
    free(text);
    if (rc)
      break;
  }
  free(dir);
  return rc;
}

int upk_kstatic_run(json_t *params, const upk_run_spec *s, json_t *deps, upk_diags *out) {
  const char *text = json_string_value(json_object_get(params, "source"));
  const char *path = json_string_value(json_object_get(params, "path"));
  char *file = NULL, *ref = NULL;
  size_t len = text ? strlen(text) : 0, ref_len = 0;
  if (!text && (!path || !(text = file = upk_read_file(path, SOURCE_CAP, &len))))
    return 0; /* nothing to read: the compile reports it */
  const char *files[] = {s->ref.path, s->ref.py.path};
  upk_kstatic_cfg cfg = {.forbid = s->forbid, .ref_files = files, .n_ref_files = 2};
  if (s->ref.kind == UPK_REF_KERNEL && s->ref.source)
    cfg.ref_source = s->ref.source, cfg.ref_len = strlen(s->ref.source);
  else if (s->ref.kind == UPK_REF_KERNEL && s->ref.path &&
           (ref = upk_read_file(s->ref.path, SOURCE_CAP, &ref_len)))
    cfg.ref_source = ref, cfg.ref_len = ref_len;
  size_t from = out->len, errors = upk_diags_count(out, UPK_SEV_ERROR);
  int rc = upk_kstatic_check(text, len, &cfg, out);
  upk_diags_utf16_columns(out, from, text, len);
  if (!rc)
    rc = check_headers(params, deps, &cfg, out);
  free(file);
  free(ref);
  return rc ? rc : (int)(upk_diags_count(out, UPK_SEV_ERROR) - errors);
}
