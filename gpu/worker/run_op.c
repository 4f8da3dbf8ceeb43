/* The worker's "run" op (run_op.h): the validate result first (compile,
 * lint, occupancy), then, when it compiled, the driver, a compile for the
 * device's own architecture, module load, launch checks, and the device
 * engine (device.c); or the same request re-executed in a worker under
 * compute-sanitizer (sanitizer.c). The result JSON is built here. */
#include "gpu/worker/run_op.h"
#include "gpu/run/mutant.h"
#include "gpu/run/roofline.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu/compile/compile.h"
#include "gpu/run/cudrv.h"
#include "common/diag_json.h"
#include "gpu/run/devkernels.h"
#include "gpu/compile/options.h"
#include "gpu/run/device.h"
#include "gpu/run/sanitizer.h"
#include "gpu/worker/argsig.h"
#include "gpu/worker/no_device.h"
#include "gpu/run/static_checks.h"
#include "gpu/compile/validate.h"
#include "gpu/reference/pyref.h"
#include "gpu/run/runplan.h"
#include "gpu/run/runspec.h"
#include "gpu/compile/toolkit.h"
#include "gpu/worker/wire.h"
#include "common/fileio.h"
#include "common/xalloc.h"

enum { SOURCE_CAP = 16 << 20, LOG_BYTES = 8192 };

/* What one run compile needs to stay alive. */
typedef struct creq {
  upk_compile_req c;
  const char **strs;
  char *text, *dir;
  upk_kopts opts; /* the request's options as the allowlist passed them (options.h) */
} creq;

static char *read_text(const char *path, size_t *len) {
  return upk_read_file(path, SOURCE_CAP, len); /* regular files only, never blocking */
}

static const char *param_str(json_t *p, const char *key) {
  return json_string_value(json_object_get(p, key));
}

/* The daemon's "cudaPath" (wire.h), borrowed from `p`; NULL: the default. A wrong type
 * was refused already, by the validate compile every run starts with. */
static const char *cuda_path_of(json_t *p) {
  upk_wire_req d;
  if (upk_wire_req_decode(p, &d, NULL, 0))
    return NULL;
  upk_wire_req_free(&d); /* the string stays: it lives in p */
  return d.cuda_path;
}

/* -I dirs: the source's own directory, then params.includes. */
static int include_dirs(json_t *p, const char *dir, creq *r) {
  json_t *inc = json_object_get(p, "includes"), *d;
  size_t i, n = 0;
  r->strs = upk_xcalloc(json_array_size(inc) + 3, sizeof *r->strs);
  if (dir)
    r->strs[n++] = dir;
  json_array_foreach(inc, i, d) if (json_is_string(d)) r->strs[n++] = json_string_value(d);
  r->c.includes = (upk_strv){r->strs, n};
  return 0;
}

static void strv_of(json_t *p, const char *key, const char **store, upk_strv *out) {
  json_t *a = json_object_get(p, key), *d;
  size_t i, n = 0;
  json_array_foreach(a, i, d) if (json_is_string(d)) store[n++] = json_string_value(d);
  *out = (upk_strv){store, n};
}

/* The compile request for a run: the wire params' options, `source` (or a
 * file), the device's arch unless params.arch says otherwise. */
static int creq_init(creq *r, json_t *p, const char *src, const char *path, const char *arch,
                     const char *const *names, size_t n_names) {
  memset(r, 0, sizeof *r);
  size_t len = 0;
  if (path && !(r->text = read_text(path, &len)))
    return -ENOENT;
  char *copy = path ? upk_xstrdup(path) : NULL;
  r->dir = copy ? upk_xstrdup(dirname(copy)) : NULL;
  free(copy);
  const char *dir = r->dir ? r->dir : param_str(p, "fileDir");
  if (include_dirs(p, dir, r))
    return -ENOMEM;
  size_t extra = json_array_size(json_object_get(p, "defines")) +
                 json_array_size(json_object_get(p, "options"));
  const char **more = upk_xrealloc(r->strs, (r->c.includes.n + extra + 3) * sizeof *more);
  r->strs = more;
  r->c.includes.v = more;
  strv_of(p, "defines", more + r->c.includes.n, &r->c.defines);
  strv_of(p, "options", more + r->c.includes.n + r->c.defines.n, &r->c.options);
  /* The validate compile refused any option off the allowlist (no run follows a refusal);
   * the run's compile gets the same options, normalized, and never another. */
  upk_wire_req d; /* the daemon's keys (wire.h); validate refused a wrong type already */
  if (upk_wire_req_decode(p, &d, NULL, 0))
    d = (upk_wire_req){0};
  const char **globs = upk_xcalloc(d.n_allow_options + d.n_allowed + 2, sizeof *globs);
  for (size_t i = 0; i < d.n_allow_options; i++)
    globs[i] = d.allow_options[i];
  for (size_t i = 0; i < d.n_allowed; i++)
    globs[d.n_allow_options + i] = d.allowed[i];
  upk_strv allow = {globs, d.n_allow_options}, roots = {globs + allow.n, d.n_allowed};
  upk_wire_req_free(&d);
  if (dir)
    globs[allow.n + roots.n++] = dir;
  upk_kopts_from from = {UPK_ORIGIN_AGENT, false, NULL, "the request's options"};
  upk_kopts_policy pol = {.user_allow = allow, .roots = roots};
  upk_diags refused = {0};
  upk_kopts_check(r->c.options, &from, &pol, &r->opts, &refused);
  upk_diags_free(&refused);
  free(globs);
  r->c.options = upk_kopts_strv(&r->opts);
  r->c.source = path ? r->text : src;
  r->c.source_len = path ? len : strlen(src);
  /* The main source keeps the name validate gave it (fileName, else path); a
   * reference source is named by its path. */
  bool main_source = path == param_str(p, "path") && src == param_str(p, "source");
  const char *given = main_source ? param_str(p, "fileName") : NULL;
  r->c.file_name = given ? given : path ? path : main_source ? "kernel.cu" : "reference.cu";
  r->c.cuda_path = cuda_path_of(p);
  r->c.arch = param_str(p, "arch") ? param_str(p, "arch") : arch;
  r->c.std = param_str(p, "std");
  r->c.names = (upk_strv){names, n_names};
  r->c.detached = !path; /* as the validate compile: no include beside a name given */
  return 0;
}

static void creq_free(creq *r) {
  upk_kopts_free(&r->opts);
  free(r->strs);
  free(r->text);
  free(r->dir);
}

/* ---- one device run ----------------------------------------------------- */

typedef struct devrun {
  upk_cudrv drv;
  upk_compile_result cres, rres;
  upk_cu_handle mod, rmod;
  upk_kgen gen; /* the run's own kernels (inputs, hashes, checks on the device) */
  upk_krun k;
  char arch[16];
  upk_run_spec view; /* the spec at the shape running (upk_runspec_at) */
  json_t *shapes;    /* each shape's verdict and times */
  upk_krun first;    /* the results of shape 0, or of the first shape that failed */
  bool have_first;
} devrun;

/* An error diagnostic of the run; returns -EINVAL for the caller to pass on. */
static int diag(upk_krun *k, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int diag(upk_krun *k, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(k->diags, UPK_SEV_ERROR, code, "upskilld-run", k->at, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* Compile for the device; any error is the run's (the validate compile passed). */
static int compile_for(devrun *d, json_t *p, const char *src, const char *path,
                       const char *const *names, size_t n, upk_compile_result *out) {
  creq r;
  int rc = creq_init(&r, p, src, path, d->arch, names, n);
  if (rc == -ENOENT)
    rc = diag(&d->k, "run/reference-unreadable", "cannot read the reference source %s", path);
  else if (!rc && upk_compile(&r.c, out) == 0 && !out->ok) {
    for (size_t i = 0; i < out->diags.len; i++)
      if (out->diags.items[i].severity == UPK_SEV_ERROR)
        diag(&d->k, "run/compile-failed", "compiling %s for the run: %s", r.c.file_name,
             out->diags.items[i].message);
    rc = -EINVAL;
  } else if (!rc && !out->cubin) {
    rc = diag(&d->k, "run/compile-failed", "compiling %s for the run gave no cubin", r.c.file_name);
  }
  creq_free(&r);
  return rc;
}

static int load_module(devrun *d, const upk_compile_result *c, upk_cu_handle *mod) {
  char elog[LOG_BYTES] = "", ilog[LOG_BYTES] = "";
  int opts[] = {UPK_CU_JIT_ERROR_LOG_BUFFER, UPK_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                UPK_CU_JIT_INFO_LOG_BUFFER, UPK_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {elog, (void *)(uintptr_t)sizeof elog, ilog, (void *)(uintptr_t)sizeof ilog};
  upk_cu_result e = d->drv.cu.ModuleLoadDataEx(mod, c->cubin, 4, opts, vals);
  if (!e)
    return 0;
  char why[300];
  upk_cu_describe(&d->drv, e, why, sizeof why);
  upk_diags_add(d->k.diags, UPK_SEV_ERROR, "run/load-failed", "upskilld-run", d->k.at,
                "loading the %s cubin on %s (sm_%d%d) failed: %s%s%s", d->arch, d->drv.name,
                d->drv.sm_major, d->drv.sm_minor, why, elog[0] ? "; " : "", elog);
  d->k.fatal |= upk_cu_is_sticky(e);
  return -EIO;
}

/* The mangled symbol of `name` in a compile result (the name itself for
 * extern "C" kernels the report does not list). */
static const char *symbol_of(const upk_compile_result *c, const char *name) {
  for (size_t i = 0; i < c->n_kernels; i++)
    if (!strcmp(c->kernels[i].name, name) || !strcmp(c->kernels[i].mangled, name))
      return c->kernels[i].mangled;
  return name;
}

static int attr_of(devrun *d, upk_cu_handle fn, int which) {
  int v = 0;
  d->drv.cu.FuncGetAttribute(&v, which, fn);
  return v;
}

/* Get the function and check the launch against its limits before launching. */
static int prepare(devrun *d, upk_cu_handle mod, const upk_compile_result *c, const char *name,
                   upk_krun_launch *l) {
  upk_cu_result e = d->drv.cu.ModuleGetFunction(&l->fn, mod, symbol_of(c, name));
  if (e)
    return diag(&d->k, "run/no-kernel", "no kernel '%s' in the loaded module", name);
  l->name = name;
  l->regs = attr_of(d, l->fn, UPK_CU_FUNC_NUM_REGS);
  int max_threads = attr_of(d, l->fn, UPK_CU_FUNC_MAX_THREADS_PER_BLOCK);
  long stat = attr_of(d, l->fn, UPK_CU_FUNC_SHARED_SIZE_BYTES);
  unsigned threads = l->block[0] * l->block[1] * l->block[2];
  if (max_threads > 0 && threads > (unsigned)max_threads)
    return upk_diags_add(d->k.diags, UPK_SEV_ERROR, "run/launch-config", "upskilld-run", d->k.at,
                         "'%s' allows at most %d threads per block (%d registers per thread, "
                         "__launch_bounds__); the launch asks %u",
                         name, max_threads, l->regs, threads),
           -EINVAL;
  if (d->drv.smem_optin > 0 && stat + (long)l->smem > d->drv.smem_optin)
    return upk_diags_add(d->k.diags, UPK_SEV_ERROR, "run/smem-over-optin", "upskilld-run", d->k.at,
                         "'%s' needs %ld bytes static + %zu dynamic = %ld bytes of shared memory "
                         "per block; %s allows at most %d (opt-in)",
                         name, stat, l->smem, stat + (long)l->smem, d->drv.name, d->drv.smem_optin),
           -EINVAL;
  if (l->smem > 48 * 1024 && (e = d->drv.cu.FuncSetAttribute(
                                  l->fn, UPK_CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->smem)))
    return upk_krun_cu_fail(&d->k, e, "opting in to dynamic shared memory above 48 KB");
  return 0;
}

static void launch_shape(upk_krun_launch *l, const unsigned grid[3], const unsigned block[3],
                         size_t smem) {
  memcpy(l->grid, grid, sizeof l->grid);
  memcpy(l->block, block, sizeof l->block);
  l->smem = smem;
}

/* The kernel to run: run.kernel, else the source's only kernel (besides the reference). */
static const char *pick_kernel(devrun *d, const upk_run_spec *s) {
  const char *only = NULL;
  size_t n = 0;
  if (s->kernel)
    return s->kernel;
  for (size_t i = 0; i < d->cres.n_kernels; i++) {
    const char *name = d->cres.kernels[i].name;
    if (s->ref.kind == UPK_REF_KERNEL && !s->ref.source && !s->ref.path &&
        !strcmp(name, s->ref.name))
      continue;
    only = name, n++;
  }
  if (n == 1)
    return only;
  diag(&d->k, "run/no-kernel", "run.kernel is needed: the source has %s kernels to choose from",
       n ? "several" : "no");
  return NULL;
}

static int setup_reference(devrun *d, json_t *p, const upk_run_spec *s) {
  const upk_run_ref *r = &s->ref;
  upk_cu_handle mod = d->mod;
  const upk_compile_result *c = &d->cres;
  const char *names[] = {r->name};
  if (r->kind != UPK_REF_KERNEL)
    return 0;
  if (r->source || r->path) {
    int rc = compile_for(d, p, r->source, r->path, names, 1, &d->rres);
    if (rc || (rc = load_module(d, &d->rres, &d->rmod)))
      return rc;
    mod = d->rmod, c = &d->rres;
  } else {
    /* The same source, loaded a second time: a module of its own, so the
     * candidate shares no __device__ globals with the reference (it cannot
     * find the reference's output, nor the reference count its launches). */
    int rc = load_module(d, &d->cres, &d->rmod);
    if (rc)
      return rc;
    mod = d->rmod;
  }
  if (r->has_launch)
    launch_shape(&d->k.ref, r->grid, r->block, r->shared_bytes);
  else
    launch_shape(&d->k.ref, s->grid, s->block, s->shared_bytes);
  d->k.has_ref_kernel = true;
  return prepare(d, mod, c, r->name, &d->k.ref);
}

/* The run's own kernels, built for the device's plain sm_XY. */
static int load_gen(devrun *d, json_t *p) {
  char arch[16], why[600];
  const void *cubin = NULL;
  snprintf(arch, sizeof arch, "sm_%d%d", d->drv.sm_major, d->drv.sm_minor);
  if (upk_kgen_cubin(upk_cuda_default_path(cuda_path_of(p)), arch, &cubin, why, sizeof why))
    return diag(&d->k, "run/compile-failed", "%s", why);
  upk_cu_result e = upk_kgen_load(&d->gen, &d->drv, cubin);
  if (e)
    return upk_krun_cu_fail(&d->k, e, "loading the run's own kernels");
  d->k.gen = &d->gen;
  return 0;
}

/* "x: [77, 46], n: 3542" for messages. */
static void shape_text(const upk_run_spec *v, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < v->n_args && n < len; i++) {
    const upk_run_arg *a = &v->args[i];
    n += (size_t)snprintf(buf + n, len - n, "%s%s: ", i ? ", " : "", a->name);
    if (n >= len)
      break;
    if (!a->is_buffer)
      n += (size_t)snprintf(buf + n, len - n, "%g", a->value);
    else if (!a->rank)
      n += (size_t)snprintf(buf + n, len - n, "%zu", a->count);
    for (int r = 0; a->is_buffer && r < a->rank && n < len; r++)
      n += (size_t)snprintf(buf + n, len - n, "%s%zu%s", r ? ", " : "[", a->shape[r],
                            r == a->rank - 1 ? "]" : "");
  }
}

/* One shape of the sweep: its launch, its trials and timing, its verdict. */
static int run_shape(devrun *d, const upk_run_spec *s, size_t k) {
  upk_krun *kr = &d->k;
  upk_run_spec *v = &d->view;
  size_t before = upk_diags_count(kr->diags, UPK_SEV_ERROR), free_b = 0, total_b = 0;
  char text[400];
  upk_runspec_at(s, k, v);
  shape_text(v, text, sizeof text);
  size_t bytes = upk_run_args_bytes(v->args, v->n_args);
  if (!d->drv.cu.MemGetInfo(&free_b, &total_b) && bytes > total_b)
    return diag(kr, "run/shape-too-large",
                "shape %zu (%s) needs %zu bytes of buffers; %s has %zu: not launched", k, text,
                bytes, d->drv.name, total_b),
           0;
  launch_shape(&kr->cand, v->grid, v->block, s->shared_bytes);
  if (kr->has_ref_kernel)
    launch_shape(&kr->ref, s->ref.has_launch ? v->ref.grid : v->grid,
                 s->ref.has_launch ? s->ref.block : v->block,
                 s->ref.has_launch ? s->ref.shared_bytes : s->shared_bytes);
  kr->s = v;
  kr->trials_run = 0, kr->compared = false, kr->worst = (upk_cmp){0}, kr->worst_arg = 0;
  kr->timed = kr->ref_timed = false, kr->hash_ms = -1;
  int rc = upk_krun_execute(kr);
  bool ok = rc == 0 && upk_diags_count(kr->diags, UPK_SEV_ERROR) == before;
  if (!ok && s->n_shapes > 1)
    upk_diags_add(kr->diags, UPK_SEV_ERROR, "run/shape-failed", "upskilld-run", kr->at,
                  "the findings above are at shape %zu (%s%s); a kernel passes only at every "
                  "shape%s",
                  k, text, s->shapes[k].odd ? ", an odd size the run added" : "",
                  s->shapes[k].odd ? " (a kernel built only for sizes its tile or vector width "
                                     "divides says so with run.oddSizes: false)"
                                   : "");
  if (k == 0 || (!ok && d->first.s == NULL)) {
    d->first = *kr;
    d->first.s = ok ? NULL : v; /* NULL: not a failure, a later failing shape replaces it */
    d->have_first = true;
  }
  json_t *j = json_pack("{s:I,s:b,s:i,s:s,s:o,s:o,s:o}", "shape", (json_int_t)k, "ok", ok, "trials",
                        (int)kr->trials_run, "args", text, "timeMs",
                        kr->timed ? json_real(kr->tk.median) : json_null(), "referenceTimeMs",
                        kr->ref_timed ? json_real(kr->tr.median) : json_null(), "speedup",
                        kr->timed && kr->ref_timed && kr->tk.median > 0
                            ? json_real(kr->tr.median / kr->tk.median)
                            : json_null());
  if (j && s->shapes[k].odd)
    json_object_set_new(j, "odd", json_integer(s->shapes[k].odd));
  json_array_append_new(d->shapes, j);
  return rc;
}

static int device_run(devrun *d, json_t *p, const upk_run_spec *s) {
  const char *names[2];
  size_t n = 0;
  bool same_ref = s->ref.kind == UPK_REF_KERNEL && !s->ref.source && !s->ref.path;
  snprintf(d->arch, sizeof d->arch, "sm_%d%d%s", d->drv.sm_major, d->drv.sm_minor,
           d->drv.sm_major == 9 && d->drv.sm_minor == 0 ? "a" : "");
  if (s->kernel)
    names[n++] = s->kernel;
  if (same_ref && s->kernel)
    names[n++] = s->ref.name;
  int rc = compile_for(d, p, param_str(p, "source"), param_str(p, "path"), names, n, &d->cres);
  if (rc || (rc = load_module(d, &d->cres, &d->mod)) || (rc = load_gen(d, p)))
    return rc;
  const char *kernel = pick_kernel(d, s);
  if (!kernel)
    return -EINVAL;
  launch_shape(&d->k.cand, s->grid, s->block, s->shared_bytes);
  if ((rc = prepare(d, d->mod, &d->cres, kernel, &d->k.cand)) || (rc = setup_reference(d, p, s)))
    return rc;
  if (!(d->shapes = json_array()))
    return -ENOMEM;
  /* One deadline for every shape: the pool ends the worker a second after it. */
  d->k.deadline = upk_cu_now_ns() + (int64_t)s->timeout_ms * 1000000;
  for (size_t k = 0; !rc && !d->k.fatal && k < s->n_shapes; k++)
    rc = run_shape(d, s, k);
  if (d->have_first) { /* the answer's top level: shape 0, or the first that failed */
    d->k.worst = d->first.worst, d->k.worst_arg = d->first.worst_arg;
    d->k.compared = d->first.compared, d->k.trials_run = d->first.trials_run;
    d->k.timed = d->first.timed, d->k.ref_timed = d->first.ref_timed;
    d->k.tk = d->first.tk, d->k.tr = d->first.tr, d->k.hash_ms = d->first.hash_ms;
  }
  d->k.s = s;
  return rc;
}

/* ---- result JSON -------------------------------------------------------- */

/* JSON has no NaN or infinity: those travel as strings. */
static json_t *num(double v) {
  if (isnan(v))
    return json_string("NaN");
  if (isinf(v))
    return json_string(v > 0 ? "Infinity" : "-Infinity");
  return json_real(v);
}

static json_t *stats_json(const upk_stats *t) {
  return json_pack("{s:o,s:o,s:o,s:o,s:I}", "median", num(t->median), "min", num(t->min), "max",
                   num(t->max), "stddev", num(t->stddev), "n", (json_int_t)t->n);
}

static json_t *device_json(const upk_cudrv *drv) {
  char sm[16], ver[16];
  snprintf(sm, sizeof sm, "sm_%d%d", drv->sm_major, drv->sm_minor);
  snprintf(ver, sizeof ver, "%d.%d", drv->driver_version / 1000, drv->driver_version % 1000 / 10);
  return json_pack("{s:s,s:s,s:s,s:i}", "name", drv->name, "sm", sm, "driver", ver, "smCount",
                   drv->sm_count);
}

static json_t *mismatch_json(const upk_krun *k) {
  if (!k->compared || k->worst.first == SIZE_MAX)
    return json_null();
  return json_pack("{s:s,s:I,s:o,s:o}", "buffer", k->s->args[k->worst_arg].name, "index",
                   (json_int_t)k->worst.first, "got", num(k->worst.first_got), "expected",
                   num(k->worst.first_expected));
}

/* The geometric mean of the shapes' speedups (null unless every shape has one). */
static json_t *geomean(json_t *shapes) {
  double sum = 0;
  size_t i, n = 0;
  json_t *sh;
  json_array_foreach(shapes, i, sh) {
    double x = json_real_value(json_object_get(sh, "speedup"));
    if (!(x > 0))
      return json_null();
    sum += log(x), n++;
  }
  return n ? json_real(exp(sum / (double)n)) : json_null();
}

static json_t *run_json(const devrun *d, bool ok) {
  const upk_krun *k = &d->k;
  json_t *j = json_pack(
      "{s:b,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o}", "ok", ok, "trials", (int)k->trials_run,
      "maxAbsError", k->compared ? num(k->worst.max_abs) : json_null(), "maxRelError",
      k->compared ? num(k->worst.max_rel) : json_null(), "firstMismatch", mismatch_json(k),
      "timeMs", k->timed ? stats_json(&k->tk) : json_null(), "referenceTimeMs",
      k->ref_timed ? num(k->tr.median) : json_null(), "speedup",
      k->timed && k->ref_timed && k->tk.median > 0 ? num(k->tr.median / k->tk.median) : json_null(),
      "l2Flushed", k->l2_flushed, "device", d->drv.lib ? device_json(&d->drv) : json_null());
  json_object_set_new(j, "seed", json_integer((json_int_t)k->s->seed)); /* reproduces the inputs */
  if (d->shapes) {
    json_object_set_new(j, "shapes", json_incref(d->shapes));
    json_object_set_new(j, "speedupGeomean", geomean(d->shapes));
  }
  if (k->ref_timed)
    json_object_set_new(j, "referenceTime", stats_json(&k->tr));
  if (k->timed && k->hash_ms >= 0) /* the timed launches' hashes, on the device */
    json_object_set_new(j, "timedHashMs", num(k->hash_ms));
  if (k->mem_waited_ns) /* queued behind other runs for device memory */
    json_object_set_new(j, "memoryWaitMs", json_real((double)k->mem_waited_ns / 1e6));
  json_t *limits =
      k->timed && d->drv.lib
          ? upk_run_limits(k->s,
                           &(upk_device_clocks){d->drv.sm_major, d->drv.sm_count, d->drv.clock_khz,
                                                d->drv.memory_clock_khz, d->drv.bus_width_bits},
                           k->tk.median, k->diags, k->at)
          : NULL;
  if (limits)
    json_object_set_new(j, "limits", limits);
  return j;
}

static void excessive_speedup(upk_krun *k) {
  if (k->timed && k->ref_timed && k->tk.median > 0 && k->tr.median / k->tk.median > 10)
    upk_diags_add(k->diags, UPK_SEV_WARNING, "run/excessive-speedup", "upskilld-run", k->at,
                  "%.1fx faster than the reference: check that it does the same work (a speedup "
                  "over 10x is usually a shortcut)",
                  k->tr.median / k->tk.median);
}

/* The kernel's line in the validate result, for diagnostics' ranges. */
static upk_range kernel_range(json_t *result, const char *name) {
  json_t *k;
  size_t i;
  json_array_foreach(json_object_get(result, "kernels"), i, k) {
    const char *n = json_string_value(json_object_get(k, "name"));
    json_int_t line = json_integer_value(json_object_get(k, "line"));
    if (n && (!name || !strcmp(n, name)) && line >= 0)
      return upk_range_line((int)line, 0, 0);
  }
  return upk_range_line(0, 0, 0);
}

/* PyTorch eager's timings (from the helper, same inputs, same L2 flush) are
 * the reference's. */
static void take_pytorch_timing(upk_krun *k, const upk_pyref *py) {
  if (k->timed && py->has_eager) {
    k->tr = py->eager;
    k->ref_timed = true;
  }
}

static json_t *with_pytorch(json_t *j, const upk_pyref *py, const upk_run_spec *s,
                            const upk_krun *k) {
  if (j && s->ref.kind == UPK_REF_PYTORCH) {
    json_t *r = upk_pyref_json(py, s);
    if (k->timed && py->has_compiled && k->tk.median > 0)
      json_object_set_new(r, "compileSpeedup", num(py->compiled.median / k->tk.median));
    json_object_set_new(j, "pytorch", r);
  }
  return j;
}

/* The answer when the kernel did not run (the reference's part kept). */
/* Without a device the answer says what would run: shapes, seeds, buffer sets. */
static json_t *not_run(devrun *d, upk_pyref *py, const upk_run_spec *s) {
  json_t *j = with_pytorch(json_pack("{s:b,s:i,s:n,s:I,s:o}", "ok", 0, "trials", 0, "device",
                                     "seed", (json_int_t)s->seed, "plan",
                                     upk_run_plan_json(s, UPK_RUN_ROTATION_MAX_BYTES)),
                           py, s, &d->k);
  upk_pyref_close(py);
  free(d);
  return j;
}

/* The kernel's symbol in the validate result (`name`, else the only kernel), or NULL. */
static const char *kernel_symbol(json_t *result, const char *name) {
  json_t *ks = json_object_get(result, "kernels"), *k;
  size_t i;
  json_array_foreach(ks, i, k) {
    const char *n = json_string_value(json_object_get(k, "name"));
    const char *m = json_string_value(json_object_get(k, "mangled"));
    if (n && (name ? !strcmp(n, name) || (m && !strcmp(m, name)) : json_array_size(ks) == 1))
      return m;
  }
  return NULL;
}

/* The PyTorch reference: the helper's tensors resolved, then checked against
 * the kernel's parameter types where its symbol carries them. */
static int pytorch_reference(upk_pyref *py, upk_run_spec *s, json_t *p, const char *symbol,
                             upk_diags *diags, upk_range at) {
  const char *file = param_str(p, "path"); /* an op's project is found above it */
  upk_pyref_cfg cfg = {.python = param_str(p, "python"),
                       .hint = file ? file : param_str(p, "project")};
  char why[600];
  if (upk_pyref_run(py, s, &cfg, diags, at) || upk_pyref_resolve(py, s))
    return -EINVAL;
  if (!upk_ksig_check(symbol, s, why, sizeof why))
    return 0;
  upk_diags_add(diags, UPK_SEV_ERROR, "run/pytorch-mismatch", "upskilld-run", at, "%s", why);
  return -EINVAL;
}

static json_t *run_on_device(json_t *p, upk_run_spec *s, const char *symbol, upk_diags *diags,
                             upk_range at, bool *fatal) {
  devrun *d = upk_xcalloc(1, sizeof *d);
  char why[512];
  upk_pyref py = {.cur_trial = -1};
  if (!d)
    return NULL;
  d->k = (upk_krun){.s = s,
                    .drv = &d->drv,
                    .diags = diags,
                    .at = at,
                    .guard = upk_mutant("guard") ? 0 : UPK_GUARD_BYTES};
  /* Set by sanitizer.c only (the daemon never passes a client's key through). */
  const char *san = json_string_value(json_object_get(p, "underSanitizer"));
  if (san) {
    d->k.guard = 0;
    /* initcheck must see an output read before it is written: no poison fills it first. */
    d->k.outputs_unset = !strcmp(san, "initcheck");
  }
  size_t before = upk_diags_count(diags, UPK_SEV_ERROR);
  /* The reference first: without torch or python the answer says so, GPU or not. */
  size_t mark = diags->len;
  if (s->ref.kind == UPK_REF_PYTORCH && pytorch_reference(&py, s, p, symbol, diags, at)) {
    upk_no_device_before_no_torch(diags, mark, at);
    return not_run(d, &py, s);
  }
  d->k.feed = upk_pyref_feed, d->k.feed_ctx = &py;
  if (upk_cudrv_open(&d->drv, 0, why, sizeof why)) {
    upk_no_device(diags, at, why);
    upk_cudrv_close(&d->drv);
    return not_run(d, &py, s);
  }
  int rc = device_run(d, p, s);
  take_pytorch_timing(&d->k, &py);
  excessive_speedup(&d->k);
  json_t *j = with_pytorch(run_json(d, rc == 0 && upk_diags_count(diags, UPK_SEV_ERROR) == before),
                           &py, s, &d->k);
  upk_pyref_close(&py);
  *fatal = d->k.fatal;
  if (!d->k.fatal) { /* after a sticky error no CUDA call may run: the worker exits */
    if (d->mod)
      d->drv.cu.ModuleUnload(d->mod);
    if (d->rmod)
      d->drv.cu.ModuleUnload(d->rmod);
    upk_kgen_unload(&d->gen);
    upk_cudrv_close(&d->drv);
  }
  upk_compile_result_free(&d->cres);
  upk_compile_result_free(&d->rres);
  json_decref(d->shapes);
  free(d);
  return j;
}

/* ---- the op ------------------------------------------------------------- */

static json_t *run_part(json_t *params, json_t *vparams, upk_run_spec *s, json_t *result,
                        upk_diags *diags, bool *fatal) {
  upk_range at = kernel_range(result, s->kernel);
  /* Refused by reading it: nothing runs (a sanitized child's parent has read it already). */
  if (!json_object_get(vparams, "underSanitizer") &&
      upk_kstatic_run(vparams, s, json_object_get(result, "dependencies"), diags) > 0)
    return json_pack("{s:b,s:i}", "ok", 0, "trials", 0);
  if (!json_is_true(json_object_get(result, "ok"))) {
    upk_diags_add(diags, UPK_SEV_ERROR, "run/skipped", "upskilld-run", at,
                  "the kernel did not pass the compile checks, so it was not run");
    return json_pack("{s:b,s:i}", "ok", 0, "trials", 0);
  }
  if (s->sanitizer) {
    char tool[1024];
    const char *cuda = upk_cuda_default_path(cuda_path_of(vparams));
    if (upk_ksan_find(cuda, tool, sizeof tool)) {
      json_t *j = NULL;
      upk_ksan_run(params, s, tool, diags, at, &j);
      return j;
    }
    upk_diags_add(diags, UPK_SEV_WARNING, "run/no-sanitizer", "upskilld-run", at,
                  "sanitizer %s asked, but compute-sanitizer is not installed under %s (bin/ or "
                  "compute-sanitizer/); the run went ahead without it",
                  upk_run_sanitizer_name(s->sanitizer), cuda);
  }
  return run_on_device(vparams, s, kernel_symbol(result, s->kernel), diags, at, fatal);
}

/* Diagnostics into the result, ok narrowed by the run. */
static void merge(json_t *result, json_t *run, upk_diags *diags, bool fatal) {
  json_t *arr = json_object_get(result, "diagnostics"), *mine = upk_diags_json(diags);
  json_array_extend(arr, mine);
  json_decref(mine);
  if (!json_is_true(json_object_get(run, "ok")))
    json_object_set_new(result, "ok", json_false());
  json_object_set_new(result, "run", run);
  if (fatal)
    json_object_set_new(result, "fatal", json_true());
}

json_t *upk_kernel_run_json(json_t *params, char *err, size_t err_len) {
  json_t *run = json_object_get(params, "run");
  upk_run_spec s;
  if (!run)
    return snprintf(err, err_len, "params.run is missing"), NULL;
  if (upk_runspec_parse(run, &s, err, err_len))
    return NULL;
  /* The compile part is the plain validate request (and shares its cache). */
  json_t *vparams = json_copy(params), *result = NULL, *rj = NULL;
  if (vparams && !json_object_del(vparams, "run"))
    result = upk_kernel_validate_json(vparams, err, err_len);
  upk_diags diags = {0};
  bool fatal = false;
  if (result && json_is_array(json_object_get(result, "diagnostics")) &&
      (rj = run_part(params, vparams, &s, result, &diags, &fatal))) {
    merge(result, rj, &diags, fatal);
  } else if (result) {
    json_decref(result);
    result = NULL;
    snprintf(err, err_len, "out of memory");
  }
  upk_diags_free(&diags);
  json_decref(vparams);
  upk_runspec_free(&s);
  return result;
}
