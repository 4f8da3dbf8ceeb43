/* The worker's wire form of kernel validation: params JSON -> request
 * struct -> upk_kernel_validate -> result JSON (the `kernel/validate`
 * answer's shape; docs/protocol.md). The daemon checks every param's type
 * before a request reaches a worker, so malformed params here are a bug in
 * the daemon and answered with an error string. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/diag_json.h"
#include "gpu/compile/cache.h"
#include "gpu/compile/validate.h"
#include "gpu/project/hint.h"
#include "gpu/project/project.h"
#include "gpu/project/projroot.h"
#include "gpu/compile/toolkit.h"
#include "gpu/worker/wire.h"
#include "common/fileio.h"
#include "common/suggest.h"
#include "common/trust.h"
#include "common/xalloc.h"

enum { SOURCE_CAP = 16 << 20 }; /* larger sources are refused with a diagnostic */

typedef struct wire {
  upk_kvalidate_req req;
  const char **strs; /* one allocation holding every string-array's pointers */
  int *sizes;
  char *file_text;         /* read from params.path */
  char *dir;               /* dirname of params.path */
  char root[PATH_MAX];     /* the file's project root (projectIncludes) */
  upk_diags pre;           /* problems found before compiling (unreadable file, too large) */
  upk_strv trusted;        /* the projects the daemon found trusted (real paths) */
  upk_wire_req daemon;     /* the daemon's keys (wire.h) */
  upk_kernel_given *given; /* perKernel */
} wire;

/* Whether the daemon found the project at `dir` trusted (upk_trust_check there, as the user's
 * store says: docs/security.md), and the store trusts exactly the build.toml parsed here
 * (`hash`, over the bytes parsed): a config changed between the daemon's check and this
 * parse is not trusted. */
static bool trusted_project(const wire *w, const char *dir, const char *hash) {
  char real[PATH_MAX];
  if (!dir || !realpath(dir, real) || !hash || !hash[0])
    return false;
  for (size_t i = 0; i < w->trusted.n; i++)
    if (!strcmp(w->trusted.v[i], real))
      return upk_trust_matches(real, hash);
  return false;
}

static size_t strings_in(json_t *p, const char *key) {
  json_t *a = json_object_get(p, key);
  return json_is_array(a) ? json_array_size(a) : 0;
}

/* Point `sv` at the strings of params[key] (borrowed from the JSON). */
static int take_strv(json_t *p, const char *key, const char ***next, upk_strv *sv) {
  json_t *a = json_object_get(p, key), *x;
  size_t i;
  sv->v = *next;
  sv->n = 0;
  json_array_foreach(a, i, x) {
    if (!json_is_string(x))
      return -EINVAL;
    (*next)[sv->n++] = json_string_value(x);
  }
  *next += sv->n;
  return 0;
}

static const char *opt_str(json_t *p, const char *key) {
  return json_string_value(json_object_get(p, key));
}

/* params.path: read the file here, in the worker, off the daemon's loop. */
static void read_source(wire *w, const char *path) {
  upk_range whole = {0, 0, 0, 0};
  size_t n = 0;
  /* Never waits on a FIFO, caps by fstat before reading (common/fileio.h). */
  char *text = upk_read_file(path, SOURCE_CAP, &n);
  int err = text ? 0 : errno;
  struct stat st;
  if (err == EFBIG && stat(path, &st) == 0) {
    upk_diags_add(&w->pre, UPK_SEV_ERROR, "kernel/source-too-large", "upskilld", whole,
                  "%s is %.1f MB, over the %d MB limit for one kernel source", path,
                  st.st_size / 1048576.0, SOURCE_CAP >> 20);
  } else if (err) {
    char near[PATH_MAX + 32] = "", fix[PATH_MAX];
    if (err == ENOENT && upk_suggest_path(path, fix, sizeof fix)) /* the daemon guarded path */
      snprintf(near, sizeof near, " (did you mean %s?)", fix);
    upk_diags_add(&w->pre, UPK_SEV_ERROR, "kernel/unreadable", "upskilld", whole,
                  "cannot read %s: %s%s", path,
                  err == EINVAL || err == EISDIR ? "not a regular file" : strerror(err), near);
  } else {
    w->file_text = text;
    w->req.compile.source = w->file_text;
    w->req.compile.source_len = n;
  }
  char *copy = upk_xstrdup(path);
  w->dir = copy ? upk_xstrdup(dirname(copy)) : NULL;
  free(copy);
  w->req.file_dir = w->dir;
}

static int parse_sizes(wire *w, json_t *p) {
  json_t *a = json_object_get(p, "blockSizes"), *x;
  size_t i;
  w->sizes = upk_xcalloc(json_array_size(a) + 1, sizeof *w->sizes);
  json_array_foreach(a, i, x) w->sizes[i] = (int)json_integer_value(x);
  w->req.block_sizes = w->sizes;
  w->req.n_block_sizes = json_array_size(a);
  return 0;
}

/* perKernel: {"matrixMul": {"blockSize": 1024, "dynamicSharedBytes": 4096}} (the daemon checked
 * the types and ranges). */
static void parse_given(wire *w, json_t *per) {
  const char *name;
  json_t *v;
  if (!json_is_object(per) || !json_object_size(per))
    return;
  w->given = upk_xcalloc(json_object_size(per), sizeof *w->given);
  json_object_foreach(per, name, v) {
    json_t *b = json_object_get(v, "blockSize"), *d = json_object_get(v, "dynamicSharedBytes");
    w->given[w->req.n_given++] =
        (upk_kernel_given){name, json_is_integer(b) ? (int)json_integer_value(b) : 0,
                           json_is_integer(d) ? (long)json_integer_value(d) : -1};
  }
  w->req.given = w->given;
}

static int parse_wire(json_t *p, wire *w, char *err, size_t err_len) {
  static const char *const lists[] = {"defines", "includes", "options", "names"};
  size_t total = 0;
  for (size_t i = 0; i < 4; i++)
    total += strings_in(p, lists[i]);
  w->strs = upk_xcalloc(total + 1, sizeof *w->strs);
  if (!w->strs || parse_sizes(w, p))
    return snprintf(err, err_len, "out of memory"), -ENOMEM;
  upk_wire_req *d = &w->daemon; /* the daemon's own keys, typed (wire.h) */
  if (upk_wire_req_decode(p, d, err, err_len))
    return -EINVAL;
  w->req.allowed = (upk_strv){d->allowed, d->n_allowed};
  w->req.allow_options = (upk_strv){d->allow_options, d->n_allow_options};
  w->trusted = (upk_strv){d->trusted_projects, d->n_trusted_projects};
  const char **next = w->strs;
  upk_compile_req *c = &w->req.compile;
  upk_strv *dst[] = {&c->defines, &c->includes, &c->options, &c->names};
  for (size_t i = 0; i < 4; i++)
    if (take_strv(p, lists[i], &next, dst[i]))
      return snprintf(err, err_len, "params.%s must hold strings", lists[i]), -EINVAL;
  c->arch = opt_str(p, "arch");
  c->std = opt_str(p, "std");
  c->cuda_path = w->daemon.cuda_path;
  c->pch = w->daemon.pch;
  const char *backend = opt_str(p, "backend");
  if (backend && upk_backend_parse(backend, &w->req.backend))
    return snprintf(err, err_len, "params.backend must be auto, nvrtc or nvcc"), -EINVAL;
  w->req.dynamic_smem = (long)json_integer_value(json_object_get(p, "dynamicSharedBytes"));
  w->req.has_dynamic_smem = json_is_integer(json_object_get(p, "dynamicSharedBytes"));
  parse_given(w, json_object_get(p, "perKernel"));
  const char *path = opt_str(p, "path"), *src = opt_str(p, "source");
  c->file_name = opt_str(p, "fileName") ? opt_str(p, "fileName") : path ? path : "kernel.cu";
  if (path) {
    read_source(w, path);
  } else if (src) {
    c->source = src;
    c->source_len = json_string_length(json_object_get(p, "source"));
    w->req.file_dir = opt_str(p, "fileDir");
  } else if (!opt_str(p, "project")) {
    return snprintf(err, err_len, "params need source, path or project"), -EINVAL;
  }
  /* A real file may include what its own project holds, as the compiler would find it. */
  if (w->daemon.project_includes && w->req.file_dir && upk_project_root(w->req.file_dir, w->root))
    w->req.project_root = w->root;
  return 0;
}

static json_t *occupancy_json(const upk_occupancy *o) {
  json_t *j = json_pack("{s:i,s:i,s:i,s:f,s:s,s:b}", "blockSize", o->block_size, "blocksPerSM",
                        o->blocks_per_sm, "activeWarps", o->active_warps, "percent", o->percent,
                        "limiter", o->limiter ? o->limiter : "none", "assumed", o->assumed);
  if (o->from) { /* the judged occupancy and the launches' (not the blockSizes sweep) */
    json_object_set_new(j, "from", json_string(o->from));
    if (o->line >= 0)
      json_object_set_new(j, "line", json_integer(o->line));
    json_object_set_new(j, "dynamicSharedBytes", json_integer(o->dynamic_smem));
    json_object_set_new(j, "dynamicSharedKnown", json_boolean(!o->smem_unknown));
  }
  return j;
}

static json_t *nullable_text(const char *s) {
  return s ? json_string(s) : json_null();
}

/* One distinct launch: where, what the source says, and the occupancy there when known. */
static json_t *launch_json(const upk_kernel_launch *x) {
  json_t *lines = json_array();
  for (size_t i = 0; i < x->n_lines && i < 8; i++)
    json_array_append_new(lines, json_integer(x->lines[i]));
  json_t *j =
      json_pack("{s:i,s:i,s:o,s:I,s:s,s:s?}", "line", x->lines[0], "col", x->col, "lines", lines,
                "count", (json_int_t)x->n_lines, "via", x->via, "kernel", x->written);
  json_object_set_new(j, "block",
                      x->block_known ? json_pack("[i,i,i]", x->block[0], x->block[1], x->block[2])
                                     : json_null());
  json_object_set_new(j, "blockSize",
                      x->block_known
                          ? json_integer((json_int_t)x->block[0] * x->block[1] * x->block[2])
                          : json_null());
  json_object_set_new(j, "blockText", nullable_text(x->block_text));
  json_object_set_new(j, "dynamicSharedBytes", x->smem_known ? json_integer(x->smem) : json_null());
  json_object_set_new(j, "dynamicSharedText", nullable_text(x->smem_text));
  json_object_set_new(j, "occupancy", x->occ.block_size ? occupancy_json(&x->occ) : json_null());
  if (x->why)
    json_object_set_new(j, "unknown", json_string(x->why));
  if (x->cond_line >= 0)
    json_object_set_new(j, "underIf", json_integer(x->cond_line));
  return j;
}

static json_t *kernel_json(const upk_kernel_info *k, const upk_occupancy *by_size, size_t n_sizes) {
  json_t *j = json_pack(
      "{s:s?,s:s?,s:i,s:i,s:i,s:I,s:I,s:I,s:I,s:I,s:o}", "name", k->name, "mangled", k->mangled,
      "line", k->line, "registers", k->registers, "barriers", k->barriers, "stackFrame",
      (json_int_t)k->stack_frame, "spillStores", (json_int_t)k->spill_stores, "spillLoads",
      (json_int_t)k->spill_loads, "sharedStatic", (json_int_t)k->smem_static, "constant",
      (json_int_t)k->cmem0, "occupancy", occupancy_json(&k->occupancy));
  json_object_set_new(j, "launchBounds",
                      k->max_threads ? json_pack("{s:i,s:i}", "maxThreads", k->max_threads,
                                                 "minBlocks", k->min_blocks)
                                     : json_null());
  json_object_set_new(j, "clusterDims",
                      k->cluster[0]
                          ? json_pack("[i,i,i]", k->cluster[0], k->cluster[1] ? k->cluster[1] : 1,
                                      k->cluster[2] ? k->cluster[2] : 1)
                          : json_null());
  json_t *launches = json_array();
  for (size_t i = 0; i < k->n_launches; i++)
    json_array_append_new(launches, launch_json(&k->launches[i]));
  json_object_set_new(j, "launches", launches);
  if (by_size) {
    json_t *a = json_array();
    for (size_t i = 0; i < n_sizes; i++)
      json_array_append_new(a, occupancy_json(&by_size[i]));
    json_object_set_new(j, "occupancyBySize", a);
  }
  return j;
}

/* Each file the compile read besides the toolkit's, stamped so the daemon's
 * cache can tell when one changes. */
static json_t *stamp_json(const char *path) {
  struct stat st;
  if (stat(path, &st))
    return NULL;
  json_int_t ns = (json_int_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  return json_pack("{s:s,s:I,s:I}", "path", path, "size", (json_int_t)st.st_size, "mtimeNs", ns);
}

static json_t *deps_json(const upk_include_deps *d) {
  json_t *a = json_array();
  for (size_t i = 0; i < d->n; i++) {
    json_t *s = stamp_json(d->paths[i]);
    if (s)
      json_array_append_new(a, s);
  }
  return a;
}

static json_t *kernels_json(const upk_kvalidate_result *r, size_t ns) {
  json_t *kernels = json_array();
  for (size_t i = 0; i < r->c.n_kernels; i++)
    json_array_append_new(kernels,
                          kernel_json(&r->c.kernels[i], r->occ ? r->occ + i * ns : NULL, ns));
  return kernels;
}

/* What ran; when nothing did (an unreadable file), what would have. */
static const char *backend_of(const upk_kvalidate_req *req, const upk_kvalidate_result *r) {
  return r->backend ? r->backend : req->backend == UPK_BACKEND_NVCC ? "nvcc" : "nvrtc";
}

/* Launches that match no compiled kernel (through a function pointer, of a kernel defined
 * elsewhere): listed with their figures, used for nothing. */
static json_t *unmatched_json(const upk_kvalidate_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->launches.n; i++) {
    const upk_launch *l = &r->launches.v[i];
    bool matched = false;
    for (size_t k = 0; k < r->c.n_kernels && !matched; k++)
      matched = r->c.kernels[k].name && upk_launch_matches(l->kernel, r->c.kernels[k].name);
    if (matched)
      continue;
    upk_kernel_launch x = {.lines = {l->line},
                           .n_lines = 1,
                           .col = l->col,
                           .via = l->via,
                           .written = l->kernel,
                           .block_known = l->block_known,
                           .smem_known = l->smem_known,
                           .smem = l->smem,
                           .block_text = l->block_text,
                           .smem_text = l->smem_text,
                           .why = l->why,
                           .cond_line = l->cond_line};
    memcpy(x.block, l->block, sizeof x.block);
    json_array_append_new(a, launch_json(&x));
  }
  return a;
}

static json_t *result_json(const wire *w, const upk_kvalidate_result *r) {
  const upk_compile_req *c = &w->req.compile;
  json_t *kernels = kernels_json(r, w->req.n_block_sizes);
  json_t *j = json_pack("{s:b,s:s,s:s,s:s,s:s,s:f,s:o,s:o,s:o}", "ok", r->c.ok, "backend",
                        backend_of(&w->req, r), "arch", c->arch ? c->arch : "sm_90a", "toolkit",
                        r->c.nvrtc_version, "file", c->file_name, "compileMs", r->c.compile_ms,
                        "diagnostics", upk_diags_json(&r->c.diags), "kernels", kernels,
                        "dependencies", deps_json(&r->deps));
  json_object_set_new(j, "unmatchedLaunches", unmatched_json(r));
  return j;
}

static bool has_code(json_t *result, const char *code) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (c && !strcmp(c, code))
      return true;
  }
  return false;
}

/* The toolkit's version as the daemon keys its cache with it (cuda.h's), once per path. */
static const char *toolkit_version(const char *cuda_path) {
  static char path[512], version[32];
  if (strcmp(path, cuda_path ? cuda_path : "") || !version[0]) {
    snprintf(path, sizeof path, "%s", cuda_path ? cuda_path : "");
    upk_cuda_toolkit_version(cuda_path, version, sizeof version);
  }
  return version;
}

static json_t *validate_now(json_t *params, char *err, size_t err_len);
static json_t *validate_project(json_t *params, char *err, size_t err_len);

json_t *upk_kernel_validate_json(json_t *params, char *err, size_t err_len) {
  char key[65];
  upk_wire_req daemon;
  if (upk_wire_req_decode(params, &daemon, err, err_len))
    return NULL;
  upk_wire_req_free(&daemon); /* only its strings, which live in params, are read below */
  const char *cuda = upk_cuda_default_path(daemon.cuda_path);
  bool keyed = upk_kcache_key(params, toolkit_version(cuda), key) == 0;
  json_t *r = NULL;
  if (keyed && !daemon.no_cache && (r = upk_kcache_load(key))) {
    json_object_set_new(r, "diskCache", json_true());
    return r;
  }
  bool project = json_is_string(json_object_get(params, "project"));
  r = project ? validate_project(params, err, err_len) : validate_now(params, err, err_len);
  /* A result that could not read its file says nothing lasting about it. */
  /* Nor one missing a file of build.toml's: the file's arrival would not be noticed. */
  if (r && keyed && !has_code(r, "kernel/unreadable") && !has_code(r, "buildtoml/unreadable") &&
      !has_code(r, "buildtoml/missing-src")) {
    char why[4096 + 128];
    if (upk_kcache_store(key, r, why, sizeof why))
      json_object_set_new(r, "diskCacheError", json_string(why));
  }
  return r;
}

static void wire_free(wire *w) {
  upk_diags_free(&w->pre);
  free(w->strs);
  free(w->sizes);
  free(w->given);
  free(w->file_text);
  free(w->dir);
  upk_wire_req_free(&w->daemon);
}

static json_t *validate_now(json_t *params, char *err, size_t err_len) {
  wire w = {0};
  json_t *out = NULL;
  upk_project_hint hint = {0};
  if (parse_wire(params, &w, err, err_len) == 0) {
    upk_kvalidate_result r = {0};
    /* The editor's checks: a file of a kernel-builder project is built as build.toml says. */
    bool as_project = w.daemon.project_aware && w.pre.len == 0;
    int rc =
        as_project ? upk_project_hint_apply(&w.req, opt_str(params, "arch") != NULL, &hint) : 0;
    w.req.project_trusted =
        hint.found && trusted_project(&w, w.req.options_project, hint.project.bt.trust_hash);
    if (!rc && w.pre.len == 0)
      rc = upk_kernel_validate(&w.req, &r);
    if (!rc)
      rc = upk_project_hint_deps(&hint, &r.deps);
    if (rc == -ENOMEM) {
      snprintf(err, err_len, "out of memory");
    } else {
      upk_diags_take(&w.pre, &r.c.diags); /* read problems first, then the rest */
      r.c.diags = w.pre;
      memset(&w.pre, 0, sizeof w.pre);
      if (r.c.diags.len && upk_diags_count(&r.c.diags, UPK_SEV_ERROR))
        r.c.ok = false;
      out = result_json(&w, &r);
      if (out && hint.build_toml)
        json_object_set_new(out, "project", json_string(hint.project.root));
    }
    upk_kvalidate_result_free(&r);
  }
  upk_project_hint_free(&hint);
  wire_free(&w);
  return out;
}

/* ---- projects: one row per (kernel, file, capability) ---- */

/* Row diagnostics name their file, so a client can print them without the row. */
static int name_files(upk_diags *d, const char *file) {
  for (size_t i = 0; i < d->len; i++)
    if (!d->items[i].file)
      d->items[i].file = upk_xstrdup(file);
  return 0;
}

static json_t *row_json(const wire *w, const upk_project_job *j, upk_kvalidate_result *r) {
  name_files(&r->c.diags, j->file);
  if (upk_diags_count(&r->c.diags, UPK_SEV_ERROR))
    r->c.ok = false;
  json_t *flags = json_array();
  for (size_t i = 0; i < j->flags.n; i++)
    json_array_append_new(flags, json_string(j->flags.v[i]));
  return json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:b,s:s,s:f,s:o,s:o}", "kernel", j->kernel->name,
                   "file", j->src, "path", j->file, "capability", j->capability, "arch", j->arch,
                   "flags", flags, "backend", backend_of(&w->req, r), "ok", r->c.ok, "toolkit",
                   r->c.nvrtc_version, "compileMs", r->c.compile_ms, "diagnostics",
                   upk_diags_json(&r->c.diags), "kernels", kernels_json(r, w->req.n_block_sizes));
}

/* build.toml, every source and every header reached, each once. */
static void add_dep(json_t *seen, json_t *deps, const char *path) {
  json_t *s;
  if (json_object_get(seen, path) || !(s = stamp_json(path)))
    return;
  json_object_set_new(seen, path, json_true());
  json_array_append_new(deps, s);
}

static json_t *project_json(const wire *w, const upk_project *p, upk_kvalidate_result *rs) {
  json_t *rows = json_array(), *deps = json_array(), *seen = json_object();
  bool ok = upk_diags_count(&p->bt.diags, UPK_SEV_ERROR) == 0;
  add_dep(seen, deps, p->bt.path);
  for (size_t i = 0; i < p->n_jobs; i++) {
    json_array_append_new(rows, row_json(w, &p->jobs[i], &rs[i]));
    ok = ok && rs[i].c.ok;
    add_dep(seen, deps, p->jobs[i].file);
    for (size_t k = 0; k < rs[i].deps.n; k++)
      add_dep(seen, deps, rs[i].deps.paths[k]);
  }
  json_decref(seen);
  return json_pack("{s:b,s:s,s:s,s:s?,s:o,s:o,s:o}", "ok", ok, "project", p->root, "buildToml",
                   p->bt.path, "name", p->bt.name, "diagnostics", upk_diags_json(&p->bt.diags),
                   "rows", rows, "dependencies", deps);
}

static json_t *validate_project(json_t *params, char *err, size_t err_len) {
  wire w = {0};
  upk_project p;
  json_t *out = NULL;
  if (parse_wire(params, &w, err, err_len)) {
    wire_free(&w);
    return NULL;
  }
  int rc = upk_project_load(opt_str(params, "project"), w.req.compile.cuda_path, &p);
  w.req.project_trusted = !rc && trusted_project(&w, p.root, p.bt.trust_hash);
  upk_kvalidate_result *rs = upk_xcalloc(p.n_jobs + 1, sizeof *rs);
  int *rcs = upk_xcalloc(p.n_jobs + 1, sizeof *rcs);
  if (!rc && rs && rcs && upk_project_validate(&p, &w.req, 0, rs, rcs) == 0)
    out = project_json(&w, &p, rs);
  else
    snprintf(err, err_len, "out of memory");
  for (size_t i = 0; rs && i < p.n_jobs; i++)
    upk_kvalidate_result_free(&rs[i]);
  free(rs);
  free(rcs);
  upk_project_free(&p);
  wire_free(&w);
  return out;
}
