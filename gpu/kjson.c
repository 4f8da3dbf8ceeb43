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

#include "diag_json.h"
#include "kcache.h"
#include "kvalidate.h"
#include "toolkit.h"

enum { SOURCE_CAP = 16 << 20 }; /* larger sources are refused with a diagnostic */

typedef struct wire {
  upk_kvalidate_req req;
  const char **strs; /* one allocation holding every string-array's pointers */
  int *sizes;
  char *file_text; /* read from params.path */
  char *dir;       /* dirname of params.path */
  upk_diags pre;   /* problems found before compiling (unreadable file, too large) */
} wire;

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
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
    upk_diags_add(&w->pre, UPK_SEV_ERROR, "kernel/unreadable", "upskilld", whole,
                  "cannot read %s: %s", path, f ? "not a regular file" : strerror(errno));
  } else if (st.st_size > SOURCE_CAP) {
    upk_diags_add(&w->pre, UPK_SEV_ERROR, "kernel/source-too-large", "upskilld", whole,
                  "%s is %.1f MB, over the %d MB limit for one kernel source", path,
                  st.st_size / 1048576.0, SOURCE_CAP >> 20);
  } else {
    w->file_text = malloc((size_t)st.st_size + 1);
    size_t n = w->file_text ? fread(w->file_text, 1, (size_t)st.st_size, f) : 0;
    if (w->file_text)
      w->file_text[n] = '\0';
    w->req.compile.source = w->file_text;
    w->req.compile.source_len = n;
  }
  if (f)
    fclose(f);
  char *copy = strdup(path);
  w->dir = copy ? strdup(dirname(copy)) : NULL;
  free(copy);
  w->req.file_dir = w->dir;
}

static int parse_sizes(wire *w, json_t *p) {
  json_t *a = json_object_get(p, "blockSizes"), *x;
  size_t i;
  w->sizes = calloc(json_array_size(a) + 1, sizeof *w->sizes);
  if (!w->sizes)
    return -ENOMEM;
  json_array_foreach(a, i, x) w->sizes[i] = (int)json_integer_value(x);
  w->req.block_sizes = w->sizes;
  w->req.n_block_sizes = json_array_size(a);
  return 0;
}

static int parse_wire(json_t *p, wire *w, char *err, size_t err_len) {
  static const char *const lists[] = {"defines", "includes", "options", "names", "allowed"};
  size_t total = 0;
  for (size_t i = 0; i < 5; i++)
    total += strings_in(p, lists[i]);
  w->strs = calloc(total + 1, sizeof *w->strs);
  if (!w->strs || parse_sizes(w, p))
    return snprintf(err, err_len, "out of memory"), -ENOMEM;
  const char **next = w->strs;
  upk_compile_req *c = &w->req.compile;
  upk_strv *dst[] = {&c->defines, &c->includes, &c->options, &c->names, &w->req.allowed};
  for (size_t i = 0; i < 5; i++)
    if (take_strv(p, lists[i], &next, dst[i]))
      return snprintf(err, err_len, "params.%s must hold strings", lists[i]), -EINVAL;
  c->arch = opt_str(p, "arch");
  c->std = opt_str(p, "std");
  c->cuda_path = opt_str(p, "cudaPath");
  c->pch = json_is_true(json_object_get(p, "pch"));
  w->req.dynamic_smem = (long)json_integer_value(json_object_get(p, "dynamicSharedBytes"));
  const char *path = opt_str(p, "path"), *src = opt_str(p, "source");
  c->file_name = opt_str(p, "fileName") ? opt_str(p, "fileName") : path ? path : "kernel.cu";
  if (path) {
    read_source(w, path);
  } else if (src) {
    c->source = src;
    c->source_len = json_string_length(json_object_get(p, "source"));
    w->req.file_dir = opt_str(p, "fileDir");
  } else {
    return snprintf(err, err_len, "params need source or path"), -EINVAL;
  }
  return 0;
}

static json_t *occupancy_json(const upk_occupancy *o) {
  return json_pack("{s:i,s:i,s:i,s:f,s:s,s:b}", "blockSize", o->block_size, "blocksPerSM",
                   o->blocks_per_sm, "activeWarps", o->active_warps, "percent",
                   o->percent, "limiter", o->limiter ? o->limiter : "none", "assumed",
                   o->assumed);
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
                      k->cluster[0] ? json_pack("[i,i,i]", k->cluster[0],
                                                k->cluster[1] ? k->cluster[1] : 1,
                                                k->cluster[2] ? k->cluster[2] : 1)
                                    : json_null());
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
static json_t *deps_json(const upk_include_deps *d) {
  json_t *a = json_array();
  for (size_t i = 0; i < d->n; i++) {
    struct stat st;
    if (stat(d->paths[i], &st))
      continue;
    json_int_t ns = (json_int_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    json_array_append_new(a, json_pack("{s:s,s:I,s:I}", "path", d->paths[i], "size",
                                       (json_int_t)st.st_size, "mtimeNs", ns));
  }
  return a;
}

static json_t *result_json(const wire *w, const upk_kvalidate_result *r) {
  const upk_compile_req *c = &w->req.compile;
  json_t *kernels = json_array();
  size_t ns = w->req.n_block_sizes;
  for (size_t i = 0; i < r->c.n_kernels; i++)
    json_array_append_new(kernels, kernel_json(&r->c.kernels[i], r->occ ? r->occ + i * ns : NULL, ns));
  return json_pack("{s:b,s:s,s:s,s:s,s:s,s:f,s:o,s:o,s:o}", "ok", r->c.ok, "backend", "nvrtc",
                   "arch", c->arch ? c->arch : "sm_90a", "toolkit", r->c.nvrtc_version, "file",
                   c->file_name, "compileMs", r->c.compile_ms, "diagnostics",
                   upk_diags_json(&r->c.diags), "kernels", kernels, "dependencies",
                   deps_json(&r->deps));
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
    upk_cuda_toolkit t;
    upk_cuda_toolkit_probe(cuda_path, &t);
    snprintf(path, sizeof path, "%s", cuda_path ? cuda_path : "");
    if (t.found)
      snprintf(version, sizeof version, "%d.%d", t.version_major, t.version_minor);
    else
      snprintf(version, sizeof version, "none");
  }
  return version;
}

static json_t *validate_now(json_t *params, char *err, size_t err_len);

json_t *upk_kernel_validate_json(json_t *params, char *err, size_t err_len) {
  char key[65];
  const char *cuda = upk_cuda_default_path(json_string_value(json_object_get(params, "cudaPath")));
  bool keyed = upk_kcache_key(params, toolkit_version(cuda), key) == 0;
  json_t *r = NULL;
  if (keyed && !json_is_true(json_object_get(params, "noCache")) && (r = upk_kcache_load(key))) {
    json_object_set_new(r, "diskCache", json_true());
    return r;
  }
  r = validate_now(params, err, err_len);
  /* A result that could not read its file says nothing lasting about it. */
  if (r && keyed && !has_code(r, "kernel/unreadable"))
    upk_kcache_store(key, r);
  return r;
}

static json_t *validate_now(json_t *params, char *err, size_t err_len) {
  wire w = {0};
  json_t *out = NULL;
  if (parse_wire(params, &w, err, err_len) == 0) {
    upk_kvalidate_result r = {0};
    if (w.pre.len == 0 && upk_kernel_validate(&w.req, &r) == -ENOMEM) {
      snprintf(err, err_len, "out of memory");
    } else {
      upk_diags_take(&w.pre, &r.c.diags); /* read problems first, then the rest */
      r.c.diags = w.pre;
      memset(&w.pre, 0, sizeof w.pre);
      if (r.c.diags.len && upk_diags_count(&r.c.diags, UPK_SEV_ERROR))
        r.c.ok = false;
      out = result_json(&w, &r);
    }
    upk_kvalidate_result_free(&r);
  }
  upk_diags_free(&w.pre);
  free(w.strs);
  free(w.sizes);
  free(w.file_text);
  free(w.dir);
  return out;
}
