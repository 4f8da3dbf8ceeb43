/* Each kernel's launches, and the block and dynamic shared memory it is judged at. */
#include "gpu/compile/launchocc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/compile/occupancy.h"
#include "gpu/compile/validate.h"

enum { DEFAULT_BLOCK = 256 };

/* What the request gives this kernel: block (0 none) and dynamic shared memory (-1 none). */
static void given_for(const upk_kernel_info *k, const upk_kvalidate_req *req, int *block,
                      long *smem) {
  *block = req->n_block_sizes ? req->block_sizes[0] : 0;
  *smem = req->has_dynamic_smem ? req->dynamic_smem : -1;
  for (size_t i = 0; i < req->n_given; i++) {
    const upk_kernel_given *g = &req->given[i];
    if (!k->name || !upk_launch_matches(g->name, k->name))
      continue;
    if (g->block > 0)
      *block = g->block;
    if (g->dynamic_smem >= 0)
      *smem = g->dynamic_smem;
  }
}

/* Whether the kernel may take dynamic shared memory: its body or a helper declares it. */
static bool may_use_dynamic(const upk_kernel_info *k, const upk_launches *l) {
  if (l->dyn_outside)
    return true;
  for (size_t i = 0; i < l->n_dyn; i++)
    if (k->name && upk_launch_matches(l->dyn[i], k->name))
      return true;
  return false;
}

static void occupancy_at(const upk_kernel_info *k, int threads, long smem, bool smem_unknown,
                         upk_occupancy *o) {
  upk_occupancy_sm90(threads, k->registers, k->smem_static + (smem > 0 ? smem : 0), o);
  o->dynamic_smem = smem > 0 ? smem : 0;
  o->smem_unknown = smem_unknown;
  o->line = -1;
}

static bool same_figures(const upk_kernel_launch *a, const upk_launch *b) {
  if (a->block_known != b->block_known || a->smem_known != b->smem_known)
    return false;
  if (a->block_known && memcmp(a->block, b->block, sizeof a->block))
    return false;
  if (a->smem_known && a->smem != b->smem)
    return false;
  return a->block_known && a->smem_known; /* unknown ones stay apart: their reasons differ */
}

static void add_launch(upk_kernel_info *k, size_t *cap, const upk_launch *l, long given_smem,
                       bool dyn) {
  for (size_t i = 0; i < k->n_launches; i++) {
    upk_kernel_launch *x = &k->launches[i];
    if (same_figures(x, l)) {
      if (x->n_lines < 8)
        x->lines[x->n_lines] = l->line;
      x->n_lines++;
      return;
    }
  }
  UPK_GROW(k->launches, *cap, k->n_launches + 1);
  upk_kernel_launch *x = &k->launches[k->n_launches++];
  memset(x, 0, sizeof *x);
  x->lines[0] = l->line;
  x->n_lines = 1;
  x->col = l->col;
  x->via = l->via;
  x->written = upk_xstrdup(l->kernel);
  memcpy(x->block, l->block, sizeof x->block);
  x->block_known = l->block_known, x->smem_known = l->smem_known, x->smem = l->smem;
  x->block_text = l->block_text ? upk_xstrdup(l->block_text) : NULL;
  x->smem_text = l->smem_text ? upk_xstrdup(l->smem_text) : NULL;
  x->why = l->why ? upk_xstrdup(l->why) : NULL;
  x->cond_line = l->cond_line;
  int threads = upk_launch_threads(l);
  if (threads > 0 && threads <= 1024) {
    long smem = l->smem_known ? l->smem : given_smem;
    occupancy_at(k, threads, smem, !l->smem_known && given_smem < 0 && dyn, &x->occ);
    x->occ.from = "launch";
    x->occ.line = l->line;
  }
}

/* The launch with the lowest occupancy among those with a known block, or NULL. */
static const upk_kernel_launch *worst(const upk_kernel_info *k) {
  const upk_kernel_launch *w = NULL;
  for (size_t i = 0; i < k->n_launches; i++) {
    const upk_kernel_launch *x = &k->launches[i];
    if (x->occ.block_size && (!w || x->occ.percent < w->occ.percent))
      w = x;
  }
  return w;
}

static void judge(upk_kernel_info *k, const upk_launches *l, const upk_kvalidate_req *req) {
  int block;
  long smem;
  given_for(k, req, &block, &smem);
  bool dyn = may_use_dynamic(k, l);
  size_t cap = 0;
  for (size_t i = 0; i < l->n; i++)
    if (k->name && upk_launch_matches(l->v[i].kernel, k->name))
      add_launch(k, &cap, &l->v[i], smem, dyn);
  const upk_kernel_launch *w = block ? NULL : worst(k);
  if (w) {
    k->occupancy = w->occ;
    return;
  }
  int threads = block ? block : k->max_threads > 0 ? k->max_threads : DEFAULT_BLOCK;
  occupancy_at(k, threads, smem, smem < 0 && dyn, &k->occupancy);
  k->occupancy.from = block ? "request" : k->max_threads > 0 ? "launchBounds" : "default";
  k->occupancy.assumed = !block && k->max_threads <= 0;
}

int upk_launch_judge(upk_kernel_info *k, size_t n, const upk_launches *l,
                     const struct upk_kvalidate_req *req) {
  for (size_t i = 0; i < n; i++)
    judge(&k[i], l, req);
  return 0;
}
