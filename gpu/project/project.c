/* A kernel-builder project as jobs, validated in parallel threads (project.h). */
#include "gpu/project/project.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fanout.h"
#include "common/fileio.h"
#include "gpu/compile/nvcc.h"
#include "gpu/compile/srcscan.h"
#include "common/xalloc.h"

enum { SOURCE_CAP = 16 << 20 };

static bool is_cu(const char *path) {
  size_t n = strlen(path);
  return n > 3 && !strcmp(path + n - 3, ".cu");
}

static void cap_arch(const upk_bt_cap *c, char *out, size_t len) {
  snprintf(out, len, "sm_%d%d%s", c->major, c->minor, c->arch_specific ? "a" : "");
}

static upk_range at(int line, int col, int end_col) {
  return upk_range_line(line < 0 ? 0 : line, col < 0 ? 0 : col, end_col < 0 ? 0 : end_col);
}

static int note(upk_project *p, upk_severity sev, const char *code, upk_range r, const char *msg,
                const char *arg) {
  upk_diags *d = &p->bt.diags;
  if (upk_diags_add(d, sev, code, "build.toml", r, msg, arg))
    return -ENOMEM;
  d->items[d->len - 1].file = upk_xstrdup(p->bt.path);
  return 0;
}

/* Room for every job the file could give, and for their string lists. */
static int reserve(upk_project *p) {
  size_t jobs = 0, strs = 0;
  for (size_t i = 0; i < p->bt.n_kernels; i++) {
    const upk_bt_kernel *k = &p->bt.kernels[i];
    size_t caps = k->n_caps ? k->n_caps : 1;
    jobs += k->src.n * caps;
    strs += k->src.n * caps * (k->cuda_flags.n + k->include.n);
    p->n_owned += k->include.n;
  }
  p->jobs = upk_xcalloc(jobs + 1, sizeof *p->jobs);
  p->ptrs = upk_xcalloc(strs + 1, sizeof *p->ptrs);
  p->owned = upk_xcalloc(p->n_owned + 1, sizeof *p->owned);
  p->n_owned = 0;
  return p->jobs && p->ptrs && p->owned ? 0 : -ENOMEM;
}

/* The kernel's include dirs, absolute (relative ones are relative to the root). */
static int kernel_includes(upk_project *p, const upk_bt_kernel *k, const char ***next,
                           upk_strv *out) {
  char **first = p->owned + p->n_owned;
  for (size_t i = 0; i < k->include.n; i++) {
    const char *d = k->include.v[i].s;
    p->owned[p->n_owned++] = d[0] == '/' ? upk_xstrdup(d) : upk_xasprintf("%s/%s", p->root, d);
  }
  out->v = *next;
  out->n = k->include.n;
  if (k->include.n)
    memcpy(*next, first, k->include.n * sizeof **next);
  *next += k->include.n;
  return 0;
}

static void strv_copy(const upk_bt_list *l, const char ***next, upk_strv *out) {
  out->v = *next;
  out->n = l->n;
  for (size_t i = 0; i < l->n; i++)
    (*next)[i] = l->v[i].s;
  *next += l->n;
}

/* The capabilities to build: those written that the toolkit supports, or 9.0. */
static int kernel_caps(upk_project *p, const upk_bt_kernel *k, const char *cuda_path,
                       const upk_bt_cap **caps, size_t *n) {
  static const upk_bt_cap h100 = {.major = 9, .minor = 0, .text = {(char *)"9.0", -1, -1, -1}};
  *n = 0;
  if (!k->caps_given) {
    caps[(*n)++] = &h100;
    return note(p, UPK_SEV_INFO, "buildtoml/default-capability", at(k->line, 0, 1),
                "[kernel.%s] has no cuda-capabilities: validated for 9.0 (H100); kernel-builder "
                "builds every capability its toolkit supports",
                k->name);
  }
  for (size_t i = 0; i < k->n_caps; i++) {
    const upk_bt_cap *c = &k->caps[i];
    char arch[16];
    cap_arch(c, arch, sizeof arch);
    if (upk_nvcc_supports(cuda_path, arch)) {
      caps[(*n)++] = c;
      continue;
    }
    if (note(p, UPK_SEV_WARNING, "buildtoml/unsupported-capability",
             at(c->text.line, c->text.col, c->text.end_col),
             "this CUDA toolkit cannot build %s: skipped, as kernel-builder drops it", arch))
      return -ENOMEM;
  }
  return 0;
}

static int add_kernel_jobs(upk_project *p, const upk_bt_kernel *k, const char *cuda_path,
                           const char ***next) {
  if (!k->backend || strcmp(k->backend, "cuda"))
    return k->backend ? note(p, UPK_SEV_INFO, "buildtoml/not-validated", at(k->line, 0, 1),
                             "backend \"%s\" is not validated here (CUDA kernels only)", k->backend)
                      : 0;
  const upk_bt_cap **caps = upk_xcalloc(k->n_caps + 1, sizeof *caps);
  size_t n_caps = 0;
  int rc = caps ? kernel_caps(p, k, cuda_path, caps, &n_caps) : -ENOMEM;
  for (size_t s = 0; !rc && s < k->src.n; s++) {
    char path[PATH_MAX];
    const char *src = k->src.v[s].s;
    snprintf(path, sizeof path, "%s/%s", src[0] == '/' ? "" : p->root, src);
    struct stat st;
    if (!is_cu(src) || stat(path, &st) || !S_ISREG(st.st_mode))
      continue; /* headers are reached through the .cu files; missing ones are reported */
    for (size_t c = 0; !rc && c < n_caps; c++) {
      upk_project_job *j = &p->jobs[p->n_jobs];
      *j = (upk_project_job){.kernel = k, .src = src, .capability = caps[c]->text.s};
      cap_arch(caps[c], j->arch, sizeof j->arch);
      strv_copy(&k->cuda_flags, next, &j->flags);
      rc = (j->file = upk_xstrdup(path)) ? kernel_includes(p, k, next, &j->includes) : -ENOMEM;
      p->n_jobs += j->file != NULL;
    }
  }
  free(caps);
  return rc;
}

int upk_project_load(const char *dir, const char *cuda_path, upk_project *out) {
  memset(out, 0, sizeof *out);
  int rc = upk_buildtoml_load(dir, &out->bt);
  if (rc)
    return rc;
  char root[PATH_MAX];
  out->root = upk_xstrdup(realpath(out->bt.dir, root) ? root : out->bt.dir);
  if (!out->root || reserve(out))
    return -ENOMEM;
  const char **next = out->ptrs;
  for (size_t i = 0; !rc && i < out->bt.n_kernels; i++)
    rc = add_kernel_jobs(out, &out->bt.kernels[i], cuda_path, &next);
  return rc;
}

void upk_project_free(upk_project *p) {
  for (size_t i = 0; i < p->n_jobs; i++)
    free(p->jobs[i].file);
  for (size_t i = 0; i < p->n_owned; i++)
    free(p->owned[i]);
  free(p->jobs);
  free(p->ptrs);
  free(p->owned);
  free(p->root);
  upk_buildtoml_free(&p->bt);
  memset(p, 0, sizeof *p);
}

/* ---- running the jobs ---- */

typedef struct pool {
  const upk_project *p;
  const upk_kvalidate_req *base;
  upk_kvalidate_result *results;
  int *rcs;
  size_t *order; /* jobs by estimated cost, dearest first */
} pool;

upk_strv upk_strv_concat(upk_strv a, upk_strv b, const char **buf) {
  if (a.n)
    memcpy(buf, a.v, a.n * sizeof *buf);
  if (b.n)
    memcpy(buf + a.n, b.v, b.n * sizeof *buf);
  return (upk_strv){buf, a.n + b.n};
}

static int run_job(const pool *w, size_t i) {
  const upk_project_job *j = &w->p->jobs[i];
  const upk_kvalidate_req *b = w->base;
  upk_kvalidate_result *out = &w->results[i];
  size_t len = 0, n = j->includes.n + b->compile.includes.n + j->flags.n + b->compile.options.n +
                      b->allowed.n + 1;
  /* The project's own file: no link or ".." out of its root, no FIFO (common/fileio.h). */
  char *src = NULL, *dir = upk_xstrdup(j->file);
  if (upk_read_beneath(w->p->root, j->file, SOURCE_CAP, &src, &len))
    src = NULL;
  const char **buf = upk_xcalloc(n + 1, sizeof *buf);
  int rc = -ENOMEM;
  if (src && dir && buf) {
    upk_kvalidate_req r = *b;
    *strrchr(dir, '/') = '\0';
    r.compile.source = src, r.compile.source_len = len, r.compile.file_name = j->file;
    r.compile.arch = j->arch, r.compile.pch = false; /* NVRTC's PCH state is per process */
    r.file_dir = dir;
    r.compile.includes = upk_strv_concat(j->includes, b->compile.includes, buf);
    r.compile.options = upk_strv_concat(j->flags, b->compile.options, buf + r.compile.includes.n);
    const char *root[] = {w->p->root};
    r.allowed = upk_strv_concat(b->allowed, (upk_strv){root, 1},
                                buf + r.compile.includes.n + r.compile.options.n);
    if (r.backend == UPK_BACKEND_AUTO && j->flags.n)
      r.backend = UPK_BACKEND_NVCC;
    /* build.toml's flags and include dirs are the project's: allowed as far as it is trusted */
    r.n_project_options = j->flags.n, r.n_project_includes = j->includes.n;
    r.options_project = w->p->root;
    rc = upk_kernel_validate(&r, out);
  } else if (!src && dir && buf) {
    memset(out, 0, sizeof *out);
    rc = upk_diags_add(&out->c.diags, UPK_SEV_ERROR, "kernel/unreadable", "upskilld",
                       upk_range_line(0, 0, 0), "cannot read %s (or it is over %d MB)", j->file,
                       SOURCE_CAP >> 20);
  }
  free(src);
  free(dir);
  free(buf);
  return rc;
}

/* The k-th job to start (upk_fan_out): the k-th dearest. */
static void job_at(void *arg, size_t k) {
  pool *w = arg;
  size_t i = w->order ? w->order[k] : k;
  w->rcs[i] = run_job(w, i);
}

/* A job's rough cost: its file's size, times ten when it goes through nvcc (host code or
 * cuda-flags), which takes ~10x NVRTC's time on the same kernel. */
static double job_cost(const upk_project *p, const upk_project_job *j) {
  size_t len = 0;
  char *src = NULL;
  if (upk_read_beneath(p->root, j->file, SOURCE_CAP, &src, &len))
    src = NULL, len = 0;
  upk_src_facts f = {0};
  bool nvcc = j->flags.n > 0 || (src && upk_src_scan(src, len, &f) == 0 && f.has_host_code);
  upk_src_facts_free(&f);
  free(src);
  return (double)(len + 1) * (nvcc ? 10 : 1);
}

/* Longest first: with fewer threads than jobs, starting the dear ones early keeps the
 * last thread from finishing long after the others (classic LPT scheduling). */
static size_t *cost_order(const upk_project *p) {
  size_t *order = upk_xmalloc(p->n_jobs * sizeof *order);
  double *cost = upk_xmalloc(p->n_jobs * sizeof *cost);
  if (!order || !cost) {
    free(order), free(cost);
    return NULL; /* file order then: still correct */
  }
  for (size_t i = 0; i < p->n_jobs; i++) {
    cost[i] = job_cost(p, &p->jobs[i]);
    size_t k = i; /* insertion sort: projects have a handful of jobs */
    for (; k > 0 && cost[order[k - 1]] < cost[i]; k--)
      order[k] = order[k - 1];
    order[k] = i;
  }
  free(cost);
  return order;
}

int upk_project_validate(const upk_project *p, const upk_kvalidate_req *base, int threads,
                         upk_kvalidate_result *results, int *rcs) {
  pool w = {.p = p, .base = base, .results = results, .rcs = rcs, .order = cost_order(p)};
  memset(results, 0, p->n_jobs * sizeof *results);
  upk_fan_out(p->n_jobs, threads > 0 ? (unsigned)threads : 0, job_at, &w); /* 0: one a core */
  free(w.order);
  for (size_t i = 0; i < p->n_jobs; i++)
    if (rcs[i] == -ENOMEM)
      return -ENOMEM;
  return 0;
}
