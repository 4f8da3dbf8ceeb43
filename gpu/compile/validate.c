/* Kernel validation, one request: the stages in order (include policy,
 * compile, source facts, occupancy, lint) merged into one result. */
#include "gpu/compile/validate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/options.h"
#include "gpu/compile/lint.h"
#include "gpu/compile/nvcc.h"
#include "gpu/compile/launchocc.h"
#include "gpu/compile/occupancy.h"
#include "gpu/compile/srcscan.h"
#include "gpu/compile/toolkit.h"
#include "common/fault.h"
#include "common/xalloc.h"

int upk_backend_parse(const char *s, upk_backend *out) {
  static const char *const names[] = {"auto", "nvrtc", "nvcc"};
  for (int i = 0; s && i < 3; i++)
    if (!strcmp(s, names[i]))
      return *out = (upk_backend)i, 0;
  return -EINVAL;
}

/* Right on the first try: host code (main, launches, cudaMalloc, iostream)
 * is only compiled by nvcc; device-only code keeps NVRTC's speed. */
static bool wants_nvcc(const upk_kvalidate_req *req, const upk_src_facts *facts) {
  return req->backend == UPK_BACKEND_NVCC ||
         (req->backend == UPK_BACKEND_AUTO && facts->has_host_code);
}

/* The compiler's -I list: the file's own directory first, then the user's
 * dirs (the toolkit's are added by upk_compile). */
static const char **search_dirs(const upk_kvalidate_req *req, size_t *n) {
  const char **v = upk_xcalloc(req->compile.includes.n + 1, sizeof *v);
  *n = 0;
  if (req->file_dir)
    v[(*n)++] = req->file_dir;
  for (size_t i = 0; i < req->compile.includes.n; i++)
    v[(*n)++] = req->compile.includes.v[i];
  return v;
}

/* Includes may come from the workspace roots, the user's dirs, the file's
 * own dir and (a file given by path) its project; toolkit headers are
 * allowed and not followed. */
static int check_includes(const upk_kvalidate_req *req, const char *const *search, size_t n_search,
                          upk_strv opt_dirs, upk_kvalidate_result *out) {
  const char *cuda = upk_cuda_default_path(req->compile.cuda_path);
  char inc[PATH_MAX], cccl[PATH_MAX];
  snprintf(inc, sizeof inc, "%s/include", cuda);
  snprintf(cccl, sizeof cccl, "%s/include/cccl", cuda);
  const char *toolkit_search[] = {inc, cccl};
  const char *toolkit[] = {inc};
  size_t n_all = n_search + 2 + opt_dirs.n,
         n_allowed = req->allowed.n + n_search + opt_dirs.n + !!req->project_root;
  const char **all = upk_xcalloc(n_all, sizeof *all),
             **allowed = upk_xcalloc(n_allowed + 1, sizeof *allowed);
  int rc = -ENOMEM;
  if (all && allowed) {
    memcpy(all, search, n_search * sizeof *all);
    memcpy(all + n_search, toolkit_search, sizeof toolkit_search);
    /* the options' -I dirs come after the toolkit's on the compiler's line (compile.c) */
    for (size_t i = 0; i < opt_dirs.n; i++)
      all[n_search + 2 + i] = allowed[req->allowed.n + n_search + i] = opt_dirs.v[i];
    if (req->allowed.n) /* memcpy from NULL is undefined even for 0 bytes */
      memcpy(allowed, req->allowed.v, req->allowed.n * sizeof *allowed);
    memcpy(allowed + req->allowed.n, search, n_search * sizeof *allowed);
    if (req->project_root)
      allowed[n_allowed - 1] = req->project_root;
    upk_include_policy p = {.file_dir = req->file_dir,
                            .search = all,
                            .n_search = n_all,
                            .allowed = allowed,
                            .n_allowed = n_allowed,
                            .toolkit = toolkit,
                            .n_toolkit = 1};
    size_t from = out->c.diags.len;
    rc = upk_includes_check(req->compile.source, req->compile.source_len, &p, &out->c.diags,
                            &out->deps);
    upk_diags_utf16_columns(&out->c.diags, from, req->compile.source, req->compile.source_len);
  }
  free(all);
  free(allowed);
  return rc;
}

/* UPK_TEST_UNCHECKED_OPTIONS=1 (set only by tests/security's sandbox test, in its daemon's
 * environment) passes every option unchecked, to show what the sandbox alone stops. */
static bool unchecked_for_tests(upk_strv o, upk_kopts *opts) {
  const char *off = getenv("UPK_TEST_UNCHECKED_OPTIONS");
  if (!off || strcmp(off, "1"))
    return false;
  for (size_t i = 0; i < o.n; i++) {
    UPK_GROW(opts->v, opts->cap, opts->n + 2);
    opts->v[opts->n++] = upk_xstrdup(o.v[i] ? o.v[i] : "");
    opts->v[opts->n] = NULL;
  }
  return true;
}

/* Whether options a project the user does not trust, or an agent, wrote are on the line: then
 * nvcc runs only in the sandbox (compile.h, sandbox_required). */
static bool untrusted_options(const upk_kvalidate_req *req) {
  size_t n = req->compile.options.n;
  size_t np = req->n_project_options < n ? req->n_project_options : n;
  return n > np || (np && !req->project_trusted);
}

/* The allowlist (options.h) over every option and include directory: a build.toml's as its
 * project's (trusted or not), the rest as the request's. Allowed options land in `opts`,
 * normalized; each refused one is an error diagnostic. Include directories must lie under the
 * roots the include policy allows (never under themselves). */
static void check_options(const upk_kvalidate_req *req, upk_kopts *opts, upk_diags *d) {
  const char *cuda = upk_cuda_default_path(req->compile.cuda_path);
  char inc[PATH_MAX];
  snprintf(inc, sizeof inc, "%s/include", cuda);
  size_t n = 0;
  const char **roots = upk_xcalloc(req->allowed.n + 4, sizeof *roots);
  for (size_t i = 0; i < req->allowed.n; i++)
    roots[n++] = req->allowed.v[i];
  if (req->file_dir)
    roots[n++] = req->file_dir;
  if (req->project_root)
    roots[n++] = req->project_root;
  roots[n++] = inc;
  upk_kopts_policy p = {.user_allow = req->allow_options, .roots = {roots, n}};
  upk_kopts_from project = {UPK_ORIGIN_WORKSPACE, req->project_trusted, req->options_project,
                            "build.toml cuda-flags"};
  upk_kopts_from request = {UPK_ORIGIN_AGENT, false, NULL, "the request's options"};
  upk_strv o = req->compile.options, in = req->compile.includes;
  size_t np = req->n_project_options < o.n ? req->n_project_options : o.n;
  if (unchecked_for_tests(o, opts)) {
    free(roots);
    return;
  }
  upk_kopts_check((upk_strv){o.v, np}, &project, &p, opts, d);
  upk_kopts_check((upk_strv){o.v + np, o.n - np}, &request, &p, opts, d);
  /* An include directory is an -I too. */
  upk_kopts dirs = {0};
  size_t ni = req->n_project_includes < in.n ? req->n_project_includes : in.n;
  for (size_t i = 0; i < in.n; i++) {
    char *flag = upk_xasprintf("-I%s", in.v[i]);
    const char *one[] = {flag};
    upk_kopts_from from = i < ni ? project : request;
    from.what = i < ni ? "build.toml include" : "the request's includes";
    upk_kopts_check((upk_strv){one, 1}, &from, &p, &dirs, d);
    free(flag);
  }
  upk_kopts_free(&dirs);
  free(roots);
}

/* Lint reports spills and local memory with better ranges and advice than
 * ptxas's own warnings: keep one of each. */
static void drop_ptxas_duplicates(upk_diags *d) {
  size_t w = 0;
  for (size_t i = 0; i < d->len; i++) {
    const char *c = d->items[i].code ? d->items[i].code : "";
    if (!strcmp(c, "ptxas/spill") || !strcmp(c, "ptxas/local-memory")) {
      upk_diag *x = &d->items[i];
      free(x->code), free(x->source), free(x->message), free(x->file);
      continue;
    }
    d->items[w++] = d->items[i];
  }
  d->len = w;
}

/* Position and attributes of each compiled kernel, from the source scan. */
static void attach_source_facts(upk_compile_result *c, const upk_src_facts *facts) {
  for (size_t i = 0; i < c->n_kernels; i++) {
    upk_kernel_info *k = &c->kernels[i];
    const upk_src_kernel *s = k->name ? upk_src_find_kernel(facts, k->name) : NULL;
    k->line = s ? s->line : -1;
    k->col = s ? s->col : -1;
    if (!s)
      continue;
    /* The cubin's launch bounds and cluster dims stand (macros are expanded
     * there); the source adds what the image does not record. */
    k->max_threads = k->max_threads ? k->max_threads : s->max_threads;
    k->min_blocks = s->min_blocks;
    if (!k->cluster[0])
      memcpy(k->cluster, s->cluster, sizeof k->cluster);
  }
}

/* Each kernel at its launches (launchocc.h), and at every size the request lists. */
static int fill_occupancy(const upk_kvalidate_req *req, const upk_launches *launches,
                          upk_kvalidate_result *out) {
  size_t nk = out->c.n_kernels, ns = req->n_block_sizes;
  if (upk_launch_judge(out->c.kernels, nk, launches, req))
    return -ENOMEM;
  if (ns < 2 || !nk)
    return 0;
  out->occ = upk_xcalloc(nk * ns, sizeof *out->occ);
  for (size_t i = 0; i < nk; i++) {
    const upk_kernel_info *k = &out->c.kernels[i];
    for (size_t j = 0; j < ns; j++)
      upk_occupancy_sm90(req->block_sizes[j], k->registers, k->smem_static + req->dynamic_smem,
                         &out->occ[i * ns + j]);
  }
  return 0;
}

static const char *arch_of(const upk_kvalidate_req *req) {
  return req->compile.arch ? req->compile.arch : "sm_90a";
}

/* NVRTC compiles from memory: the headers the include policy read and checked, by the names the
 * #includes spell; no directory but the toolkit's is searched (no -I of the request or of its
 * options) and nothing is looked up beside the file's name, so a header swapped for a link after
 * the check is never opened. The option list is filtered into `keep` (borrowed strings). */
static void nvrtc_from_memory(upk_compile_req *creq, const upk_include_deps *deps,
                              upk_src_header *hs, const char **keep) {
  static const char *const dir_opts[] = {"-I", "--include-path=", "-isystem=", "--system-include="};
  for (size_t i = 0; i < deps->n_headers; i++)
    hs[i] = (upk_src_header){deps->headers[i].name, deps->headers[i].path, deps->headers[i].text};
  creq->headers = hs;
  creq->n_headers = deps->n_headers;
  creq->includes = (upk_strv){NULL, 0};
  creq->detached = true;
  size_t n = 0;
  for (size_t i = 0; i < creq->options.n; i++) {
    bool dir = false;
    for (size_t k = 0; k < 4 && !dir; k++)
      dir = !strncmp(creq->options.v[i], dir_opts[k], strlen(dir_opts[k]));
    if (!dir)
      keep[n++] = creq->options.v[i];
  }
  creq->options = (upk_strv){keep, n};
}

/* Compile (nvcc with the file's dir ahead of the user's include dirs; NVRTC from memory), then
 * add what the source and the resources tell. */
static int compile_and_lint(const upk_kvalidate_req *req, const char *const *search, size_t n,
                            const upk_kopts *opts, const upk_src_facts *facts,
                            const upk_launches *launches, upk_kvalidate_result *out) {
  upk_compile_req creq = req->compile;
  creq.includes.v = search;
  creq.includes.n = n;
  creq.options = upk_kopts_strv(opts);
  creq.detached = !req->file_dir; /* inline source: no "..." include beside its given name */
  creq.readable = (upk_strv){&req->project_root, req->project_root ? 1 : 0};
  creq.sandbox_required = untrusted_options(req);
  bool nvcc = wants_nvcc(req, facts);
  upk_src_header *hs = upk_xcalloc(out->deps.n_headers + 1, sizeof *hs);
  const char **keep = upk_xcalloc(creq.options.n + 1, sizeof *keep);
  if (!nvcc)
    nvrtc_from_memory(&creq, &out->deps, hs, keep);
  upk_diags pre = out->c.diags; /* include findings, kept ahead of the compiler's */
  memset(&out->c.diags, 0, sizeof out->c.diags);
  out->backend = nvcc ? "nvcc" : "nvrtc";
  int rc = nvcc ? upk_nvcc_compile(&creq, &out->c) : upk_compile(&creq, &out->c);
  free(hs);
  free(keep);
  upk_diags mine = out->c.diags;
  out->c.diags = pre;
  upk_diags_take(&out->c.diags, &mine);
  if (rc < 0)
    return rc;
  drop_ptxas_duplicates(&out->c.diags);
  attach_source_facts(&out->c, facts);
  if (fill_occupancy(req, launches, out))
    return -ENOMEM;
  const char *arch = arch_of(req);
  size_t linted = out->c.diags.len; /* lint counts bytes; the compiler's columns are UTF-16 */
  upk_lint_source(req->compile.source, req->compile.source_len, facts, arch, &out->c.diags);
  upk_lint_kernels(out->c.kernels, out->c.n_kernels, facts, arch, req->dynamic_smem, &out->c.diags);
  upk_diags_utf16_columns(&out->c.diags, linted, req->compile.source, req->compile.source_len);
  out->c.ok = out->c.ok && upk_diags_count(&out->c.diags, UPK_SEV_ERROR) == 0;
  return 0;
}

/* The launches, after the request's defines and the macros of the headers the include policy
 * let through (the bytes it checked, at most 1 MiB of each and 8 MiB in all). */
static int scan_launches(const upk_kvalidate_req *req, const upk_include_deps *deps,
                         upk_launches *out) {
  enum { HEADER_CAP = 1 << 20, HEADERS_CAP = 8 << 20 };
  const char **texts = upk_xcalloc(deps->n_headers + 1, sizeof *texts);
  size_t *lens = upk_xcalloc(deps->n_headers + 1, sizeof *lens), n = 0, total = 0;
  for (size_t i = 0; i < deps->n_headers && total < HEADERS_CAP; i++) {
    const char *t = deps->headers[i].text;
    size_t len = deps->headers[i].len;
    if (t && len <= HEADER_CAP)
      texts[n] = t, lens[n++] = len, total += len;
  }
  upk_launch_prelude pre = {req->compile.defines.v, req->compile.defines.n, texts, lens, n};
  int rc = upk_launches_scan(req->compile.source, req->compile.source_len, &pre, out);
  free(texts);
  free(lens);
  return rc;
}

int upk_kernel_validate(const upk_kvalidate_req *req, upk_kvalidate_result *out) {
  memset(out, 0, sizeof *out);
  size_t n_search = 0;
  const char **search = search_dirs(req, &n_search);
  upk_src_facts facts = {0};
  upk_kopts opts = {0};
  int rc = -ENOMEM;
  if (!search || upk_src_scan(req->compile.source, req->compile.source_len, &facts))
    goto done;
  check_options(req, &opts, &out->c.diags);
  /* The include dirs the allowlist let through in the options: the policy searches them too,
   * so the headers found there are checked like any other. */
  size_t n_dirs = 0;
  const char **dirs = upk_xcalloc(opts.n + 1, sizeof *dirs);
  static const char *const dir_opts[] = {"-I", "--include-path=", "-isystem=", "--system-include="};
  for (size_t i = 0; i < opts.n; i++)
    for (size_t k = 0; k < 4; k++)
      if (!strncmp(opts.v[i], dir_opts[k], strlen(dir_opts[k])))
        dirs[n_dirs++] = opts.v[i] + strlen(dir_opts[k]);
  rc = check_includes(req, search, n_search, (upk_strv){dirs, n_dirs}, out);
  free(dirs);
  if (rc)
    goto done;
  if (upk_diags_count(&out->c.diags, UPK_SEV_ERROR)) {
    /* Never let the compiler see an option or open a file the policy refused. */
    out->c.ok = false;
    goto done;
  }
  if ((rc = scan_launches(req, &out->deps, &out->launches)))
    goto done;
  if ((rc = upk_fault("kernel.compile")) < 0) /* sleepMS: a test swaps a header here */
    goto done;
  rc = compile_and_lint(req, search, n_search, &opts, &facts, &out->launches, out);
  if (!rc && out->launches.truncated)
    upk_diags_add(&out->c.diags, UPK_SEV_INFO, "kernel/launches-truncated", "upskilld",
                  (upk_range){-1, 0, -1, 0},
                  "the file has more launch sites than the %d read (or is too large to read them "
                  "all): the later ones are not listed",
                  UPK_MAX_LAUNCHES);
done:
  upk_kopts_free(&opts);
  upk_src_facts_free(&facts);
  free(search);
  return rc;
}

void upk_kvalidate_result_free(upk_kvalidate_result *r) {
  upk_compile_result_free(&r->c);
  free(r->occ);
  upk_include_deps_free(&r->deps);
  upk_launches_free(&r->launches);
  memset(r, 0, sizeof *r);
}
