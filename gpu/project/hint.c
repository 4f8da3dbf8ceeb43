/* A single file checked as its kernel-builder project builds it (hint.h). */
#include "gpu/project/hint.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/project/projroot.h"
#include "common/xalloc.h"

enum { MAX_LEVELS = 16 }; /* how far up a build.toml is looked for */

/* The directory of the nearest build.toml at or above `dir`, into `out`. */
static bool find_project_dir(const char *dir, char out[PATH_MAX]) {
  static const char *const build_toml[] = {"build.toml"};
  return upk_find_up(dir, build_toml, 1, MAX_LEVELS, out);
}

/* The job building `file`: sm_90a first, then sm_90 (H100), else the first one. */
static const upk_project_job *job_for(const upk_project *p, const char *file) {
  const upk_project_job *best = NULL;
  int best_rank = 3;
  for (size_t i = 0; i < p->n_jobs; i++) {
    char real[PATH_MAX];
    const upk_project_job *j = &p->jobs[i];
    if (!realpath(j->file, real) || strcmp(real, file))
      continue;
    int rank = !strcmp(j->arch, "sm_90a") ? 0 : !strcmp(j->arch, "sm_90") ? 1 : 2;
    if (rank < best_rank)
      best = j, best_rank = rank;
  }
  return best;
}

static int merge(upk_kvalidate_req *req, const upk_project_job *j, bool keep_arch,
                 upk_project_hint *h) {
  upk_compile_req *c = &req->compile;
  size_t n = j->includes.n + c->includes.n + j->flags.n + c->options.n;
  h->strs = upk_xcalloc(n + 1, sizeof *h->strs);
  c->includes = upk_strv_concat(j->includes, c->includes, h->strs);
  c->options = upk_strv_concat(j->flags, c->options, h->strs + c->includes.n);
  /* build.toml's flags and include dirs come first: the project's, allowed as far as the
   * caller found it trusted (validate.h) */
  req->n_project_options = j->flags.n, req->n_project_includes = j->includes.n;
  req->options_project = h->project.root;
  if (!keep_arch)
    c->arch = j->arch;
  if (req->backend == UPK_BACKEND_AUTO && j->flags.n) /* cuda-flags are nvcc's flags */
    req->backend = UPK_BACKEND_NVCC;
  return 0;
}

int upk_project_hint_apply(upk_kvalidate_req *req, bool keep_arch, upk_project_hint *h) {
  memset(h, 0, sizeof *h);
  char dir[PATH_MAX], file[PATH_MAX];
  const char *name = req->compile.file_name;
  if (!req->file_dir || !name || !realpath(name, file) || !find_project_dir(req->file_dir, dir))
    return 0;
  int rc = upk_project_load(dir, req->compile.cuda_path, &h->project);
  if (rc)
    return rc;
  h->found = true;
  const upk_project_job *j = job_for(&h->project, file);
  if (!j) /* a file of the tree that build.toml does not build: checked as it is */
    return 0;
  h->build_toml = upk_xasprintf("%s/build.toml", h->project.root);
  return merge(req, j, keep_arch, h);
}

int upk_project_hint_deps(const upk_project_hint *h, upk_include_deps *deps) {
  if (!h->build_toml)
    return 0;
  char **paths = upk_xrealloc(deps->paths, (deps->n + 1) * sizeof *paths);
  deps->paths = paths;
  paths[deps->n] = upk_xstrdup(h->build_toml);
  deps->n++;
  return 0;
}

void upk_project_hint_free(upk_project_hint *h) {
  if (h->found)
    upk_project_free(&h->project);
  free(h->strs);
  free(h->build_toml);
  memset(h, 0, sizeof *h);
}
