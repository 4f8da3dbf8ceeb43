/* run.shapes and run.oddSizes: the shapes a kernel is judged at (docs/gpu.md
 * "Shapes, seeds and rotation"). A kernel passes only if it passes at every
 * shape, and by default each given shape is joined by two odd ones (every
 * size of 16 or more moved by a small prime, never a multiple of the block
 * width), so a kernel that assumes divisibility fails.
 *
 * A shape names the arguments it changes: {"args": {"x": [4096, 33], "n":
 * 4096}, "grid": 65, "block": 256}. Unnamed arguments keep the spec's values.
 * Without a grid the spec's grid is scaled, per dimension, by how much the
 * first result buffer grew (x follows its last dimension, y the one before,
 * z the one before that; a 1-D grid grows by the most any dimension or the
 * element count grew; a buffer given by count scales x), rounding up:
 * one thread per element stays one thread per element, and a kernel that
 * bounds-checks (or strides) covers the rest. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/run/mutant.h"
#include "gpu/run/runspec.h"

enum { MAX_SHAPES = 16, ODD_UP = 13, ODD_DOWN = 7, ODD_MIN = 16 };

static const unsigned GRID_MAX[3] = {2147483647u, 65535, 65535};
static const unsigned BLOCK_MAX[3] = {1024, 1024, 64};

typedef struct sctx {
  char *err;
  size_t len;
} sctx;

static int fail(sctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(sctx *c, const char *path, const char *fmt, ...) {
  int n = snprintf(c->err, c->len, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->len)
    vsnprintf(c->err + n, c->len - (size_t)n, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

static int oom(sctx *c) {
  snprintf(c->err, c->len, "out of memory");
  return -ENOMEM;
}

size_t upk_run_args_bytes(const upk_run_arg *args, size_t n) {
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++)
    if (args[i].is_buffer)
      bytes += args[i].count * upk_dtype_size(args[i].dtype);
  return bytes;
}

size_t upk_run_odd_size(size_t d, unsigned b, int dir) {
  if (d < ODD_MIN || (dir < 0 && d <= ODD_DOWN + 1))
    return 0;
  size_t o = dir > 0 ? d + ODD_UP : d - ODD_DOWN;
  size_t step = b == 2 ? 1 : 2; /* by 2, an even size never leaves a block of 2 (a hang) */
  while (b > 1 && o % b == 0)
    o = dir > 0 ? o + step : o - step;
  return o;
}

/* The first result buffer: the grid follows its size. */
static size_t lead_arg(const upk_run_spec *s) {
  for (size_t i = 0; i < s->n_args; i++)
    if (s->args[i].is_buffer && s->args[i].role != UPK_ROLE_IN)
      return i;
  return 0;
}

/* `base` launched over buffer `b`; `out` the same launch over `a`. */
static int scale_grid(sctx *c, const char *path, const unsigned base[3], const upk_run_arg *b,
                      const upk_run_arg *a, unsigned out[3]) {
  double r[3] = {1, 1, 1};
  if (b->rank && a->rank == b->rank && !(base[1] == 1 && base[2] == 1)) {
    for (int d = 0; d < 3 && d < b->rank; d++)
      r[d] = (double)a->shape[b->rank - 1 - d] / (double)b->shape[b->rank - 1 - d];
  } else {
    r[0] = (double)a->count / (double)b->count;
    /* A 1-D grid over a shaped buffer may walk any one of its dimensions (a block per
     * row, as a row softmax does) or its elements: it grows by the most any of them
     * grew, so it covers each (seen on an H100: scaled by the last dimension alone, a
     * block-per-row softmax left 21 of 4,089 rows unwritten). */
    for (int d = 0; b->rank && a->rank == b->rank && d < b->rank; d++)
      r[0] = fmax(r[0], (double)a->shape[d] / (double)b->shape[d]);
  }
  for (int d = 0; d < 3; d++) {
    double g = ceil((double)base[d] * r[d]);
    if (g > GRID_MAX[d])
      return fail(c, path, "the grid scaled to this shape has %.0f blocks in %c; CUDA allows %u", g,
                  "xyz"[d], GRID_MAX[d]);
    out[d] = g < 1 ? 1 : (unsigned)g;
  }
  return 0;
}

/* grid/block of a shape: an integer or [x, y, z]. */
static int get_dims(sctx *c, json_t *v, const char *path, const unsigned max[3], unsigned out[3]) {
  if (json_is_array(v) && (json_array_size(v) < 1 || json_array_size(v) > 3))
    return fail(c, path, "must have 1 to 3 dimensions, not %zu", json_array_size(v));
  out[0] = out[1] = out[2] = 1;
  size_t n = json_is_array(v) ? json_array_size(v) : 1;
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_is_array(v) ? json_array_get(v, i) : v;
    if (!json_is_integer(x) || json_integer_value(x) < 1 ||
        json_integer_value(x) > (json_int_t)max[i])
      return fail(c, path, "each dimension must be an integer in 1..%u", max[i]);
    out[i] = (unsigned)json_integer_value(x);
  }
  return 0;
}

static int find_arg(sctx *c, const upk_run_spec *s, const char *name, const char *path,
                    size_t *out) {
  for (size_t i = 0; i < s->n_args; i++)
    if (!strcmp(s->args[i].name, name))
      return *out = i, 0;
  char names[512] = "";
  for (size_t i = 0, n = 0; i < s->n_args && n < sizeof names; i++)
    n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", s->args[i].name);
  return fail(c, path, "no argument of that name; the kernel's are %s", names);
}

/* One named argument of a shape: a buffer's count or shape, a scalar's value. */
static int shape_arg(sctx *c, const upk_run_arg *base, json_t *v, const char *path,
                     upk_run_arg *a) {
  if (!base->is_buffer) {
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
      return fail(c, path, "a scalar: must be a number");
    if (!upk_dtype_holds(base->dtype, json_number_value(v)))
      return fail(c, path, "%g is not a %s value", json_number_value(v),
                  upk_dtype_name(base->dtype));
    a->value = json_number_value(v);
    return 0;
  }
  if (base->init.kind == UPK_INIT_FILE)
    return fail(c, path, "filled from init.file, which holds one size; it cannot change shape");
  if (json_is_integer(v) && json_integer_value(v) >= 1) {
    if (json_integer_value(v) > (json_int_t)UPK_RUN_MAX_BUFFER_BYTES) /* before bytes can wrap */
      return fail(c, path, "%lld elements; at most %zu", (long long)json_integer_value(v),
                  UPK_RUN_MAX_BUFFER_BYTES);
    a->count = (size_t)json_integer_value(v), a->rank = 0;
    return 0;
  }
  if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > UPK_RUN_MAX_RANK)
    return fail(c, path, "a buffer: a count (a positive integer) or a shape (1 to %d of them)",
                UPK_RUN_MAX_RANK);
  size_t prod = 1;
  for (size_t i = 0; i < json_array_size(v); i++) {
    json_t *d = json_array_get(v, i);
    if (!json_is_integer(d) || json_integer_value(d) < 1)
      return fail(c, path, "[%zu] must be a positive integer", i);
    a->shape[i] = (size_t)json_integer_value(d);
    if (a->shape[i] > UPK_RUN_MAX_BUFFER_BYTES || (prod *= a->shape[i]) > UPK_RUN_MAX_BUFFER_BYTES)
      return fail(c, path, "has over %zu elements", UPK_RUN_MAX_BUFFER_BYTES);
  }
  a->rank = (int)json_array_size(v), a->count = prod;
  return 0;
}

/* The launch of a shape whose arguments are set: given, or scaled from `from`. */
static int shape_launch(sctx *c, const upk_run_spec *s, json_t *o, const char *path,
                        const upk_run_shape *from, upk_run_shape *sh) {
  char p[96];
  size_t lead = lead_arg(s);
  json_t *grid = o ? json_object_get(o, "grid") : NULL,
         *block = o ? json_object_get(o, "block") : NULL;
  memcpy(sh->block, from->block, sizeof sh->block);
  snprintf(p, sizeof p, "%s.block", path);
  if (block && get_dims(c, block, p, BLOCK_MAX, sh->block))
    return -EINVAL;
  if ((unsigned long long)sh->block[0] * sh->block[1] * sh->block[2] > UPK_RUN_MAX_BLOCK_THREADS)
    return fail(c, p, "over %d threads per block", UPK_RUN_MAX_BLOCK_THREADS);
  snprintf(p, sizeof p, "%s.grid", path);
  if (grid ? get_dims(c, grid, p, GRID_MAX, sh->grid)
           : scale_grid(c, p, from->grid, &from->args[lead], &sh->args[lead], sh->grid))
    return -EINVAL;
  if (s->ref.has_launch)
    return scale_grid(c, p, from->ref_grid, &from->args[lead], &sh->args[lead], sh->ref_grid);
  return 0;
}

/* Buffers within the cap a run may hold, named by size (refused before any launch). */
static int shape_bytes(sctx *c, const upk_run_spec *s, const upk_run_shape *sh, const char *path) {
  size_t bytes = upk_run_args_bytes(sh->args, s->n_args);
  if (bytes <= UPK_RUN_MAX_BUFFER_BYTES)
    return 0;
  return fail(c, path, "its buffers need %zu bytes (%.1f GiB), over the %zu GiB a run may hold",
              bytes, (double)bytes / (double)(1ull << 30), UPK_RUN_MAX_BUFFER_BYTES >> 30);
}

static int given_shape(sctx *c, const upk_run_spec *s, json_t *o, size_t k, upk_run_shape *sh) {
  static const char *const keys[] = {"args", "grid", "block", NULL};
  char path[64], p[320];
  snprintf(path, sizeof path, "run.shapes[%zu]", k);
  if (!json_is_object(o))
    return fail(c, path, "must be an object {args, grid?, block?}");
  const char *key;
  json_t *v;
  json_object_foreach(o, key, v) {
    const char *const *q = keys;
    while (*q && strcmp(*q, key))
      q++;
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!*q)
      return fail(c, p, "unknown field; expected one of args, grid, block");
  }
  json_t *args = json_object_get(o, "args");
  snprintf(p, sizeof p, "%s.args", path);
  if (!json_is_object(args) || !json_object_size(args))
    return fail(c, p, "required: an object of argument names to counts, shapes or values");
  json_object_foreach(args, key, v) {
    size_t i = 0;
    snprintf(p, sizeof p, "%s.args.%s", path, key);
    if (find_arg(c, s, key, p, &i) || shape_arg(c, &s->args[i], v, p, &sh->args[i]))
      return -EINVAL;
  }
  if (shape_launch(c, s, o, path, &s->shapes[0], sh))
    return -EINVAL;
  return shape_bytes(c, s, sh, path);
}

/* The odd sizes around shape `g` (dir +1 above, -1 below); false when nothing moves. */
static bool odd_shape(const upk_run_spec *s, const upk_run_shape *g, int dir, upk_run_shape *sh) {
  size_t from[64], to[64], n = 0;
  unsigned b = g->block[0];
  bool moved = false;
  for (size_t i = 0; i < s->n_args; i++) { /* dimensions of shaped buffers */
    upk_run_arg *a = &sh->args[i];
    if (!a->is_buffer || !a->rank)
      continue;
    a->count = 1;
    for (int d = 0; d < a->rank; d++) {
      size_t o = upk_run_odd_size(a->shape[d], b, dir);
      if (o && n < 64)
        from[n] = a->shape[d], to[n++] = o;
      a->shape[d] = o ? o : a->shape[d];
      a->count *= a->shape[d];
      moved |= o != 0;
    }
    if (a->count != g->args[i].count && n < 64) /* a scalar may be the element count */
      from[n] = g->args[i].count, to[n++] = a->count;
  }
  for (size_t i = 0; i < s->n_args; i++) { /* counts: a shaped buffer's size, or their own */
    upk_run_arg *a = &sh->args[i];
    const upk_run_arg *ga = &g->args[i];
    if (!a->is_buffer || a->rank)
      continue;
    size_t o = upk_run_odd_size(ga->count, b, dir);
    for (size_t j = 0; j < s->n_args; j++)
      if (g->args[j].is_buffer && g->args[j].rank && g->args[j].count == ga->count)
        o = sh->args[j].count;
    if (o && o != ga->count && n < 64)
      from[n] = ga->count, to[n++] = o;
    a->count = o ? o : a->count;
    moved |= o && o != ga->count;
  }
  for (size_t i = 0; i < s->n_args; i++) { /* integer scalars that are one of those sizes */
    upk_run_arg *a = &sh->args[i];
    if (a->is_buffer || upk_dtype_is_float(a->dtype))
      continue;
    for (size_t j = 0; j < n; j++)
      if (a->value == (double)from[j] && upk_dtype_holds(a->dtype, (double)to[j])) {
        a->value = (double)to[j];
        break;
      }
  }
  return moved;
}

/* Odd sizes need every input resizable and an expected output of any size. */
static bool odd_possible(const upk_run_spec *s) {
  if (s->ref.kind == UPK_REF_FILE || s->ref.kind == UPK_REF_PYTORCH)
    return false;
  for (size_t i = 0; i < s->n_args; i++)
    if (s->args[i].is_buffer && s->args[i].init.kind == UPK_INIT_FILE)
      return false;
  return true;
}

static int add_odd(sctx *c, upk_run_spec *s) {
  size_t n = s->n_given_shapes;
  for (size_t g = 0; g < n; g++) {
    for (int dir = 1; dir >= -1; dir -= 2) {
      upk_run_shape *sh = &s->shapes[s->n_shapes];
      char path[96];
      snprintf(path, sizeof path, "run.shapes[%zu] with odd sizes (%s)", g, dir > 0 ? "+13" : "-7");
      if (!(sh->args = upk_xmalloc(s->n_args * sizeof *sh->args + 1)))
        return oom(c);
      memcpy(sh->args, s->shapes[g].args, s->n_args * sizeof *sh->args);
      sh->odd = dir, sh->of = g;
      if (!odd_shape(s, &s->shapes[g], dir, sh)) {
        free(sh->args);
        memset(sh, 0, sizeof *sh);
        continue;
      }
      s->n_shapes++;
      if (shape_launch(c, s, NULL, path, &s->shapes[g], sh) || shape_bytes(c, s, sh, path))
        return -EINVAL;
    }
  }
  return 0;
}

int upk_runspec_shapes(json_t *run, upk_run_spec *s, char *err, size_t err_len) {
  sctx c = {err, err_len};
  json_t *shapes = json_object_get(run, "shapes"), *odd = json_object_get(run, "oddSizes");
  size_t given = shapes ? json_array_size(shapes) : 0;
  if (odd && !json_is_boolean(odd))
    return fail(&c, "run.oddSizes", "must be true or false");
  if (shapes && !json_is_array(shapes))
    return fail(&c, "run.shapes", "must be an array of shape sets ({args, grid?, block?})");
  if (shapes && !given)
    return fail(&c, "run.shapes",
                "is empty: give at least one shape set, or leave it out to "
                "run at the spec's own sizes");
  if (given > MAX_SHAPES)
    return fail(&c, "run.shapes", "%zu shape sets; at most %d", given, MAX_SHAPES);
  if (shapes && (s->ref.kind == UPK_REF_FILE || s->ref.kind == UPK_REF_PYTORCH))
    return fail(&c, "run.shapes",
                s->ref.kind == UPK_REF_FILE
                    ? "not with reference.file: its expected output has one size"
                    : "not with a PyTorch reference: the tensors' sizes come from get_inputs");
  s->odd_sizes = !upk_mutant("odd-sizes") && (odd ? json_is_true(odd) : true);
  size_t cap = (given ? given : 1) * 3;
  if (!(s->shapes = upk_xcalloc(cap, sizeof *s->shapes)))
    return oom(&c);
  /* Shape 0 is the spec's own; given shapes replace it, starting from it. */
  upk_run_shape *base = &s->shapes[0];
  if (!(base->args = upk_xmalloc(s->n_args * sizeof *base->args + 1)))
    return oom(&c);
  memcpy(base->args, s->args, s->n_args * sizeof *s->args);
  memcpy(base->grid, s->grid, sizeof base->grid);
  memcpy(base->block, s->block, sizeof base->block);
  memcpy(base->ref_grid, s->ref.grid, sizeof base->ref_grid);
  base->own = !given;
  s->n_shapes = s->n_given_shapes = 1;
  for (size_t k = given; k-- > 0;) { /* last first: shape 0 stays the spec's until the end */
    upk_run_shape sh = {0};
    if (!(sh.args = upk_xmalloc(s->n_args * sizeof *sh.args + 1)))
      return oom(&c);
    memcpy(sh.args, s->args, s->n_args * sizeof *sh.args);
    int rc = given_shape(&c, s, json_array_get(shapes, k), k, &sh);
    if (rc) {
      free(sh.args);
      return rc;
    }
    if (k == 0)
      free(s->shapes[0].args);
    s->shapes[k] = sh;
    if (k >= s->n_shapes) /* so that a later failure frees it */
      s->n_shapes = k + 1;
  }
  if (given)
    s->n_shapes = s->n_given_shapes = given;
  return s->odd_sizes && odd_possible(s) ? add_odd(&c, s) : 0;
}

void upk_runspec_shapes_free(upk_run_spec *s) {
  for (size_t k = 0; s->shapes && k < s->n_shapes; k++)
    free(s->shapes[k].args);
  free(s->shapes);
  s->shapes = NULL;
  s->n_shapes = s->n_given_shapes = 0;
}

void upk_runspec_at(const upk_run_spec *s, size_t k, upk_run_spec *view) {
  const upk_run_shape *sh = &s->shapes[k];
  *view = *s;
  /* The spec's own args, not the copy: a PyTorch reference resolves them
   * (dtype, count, shape from its tensors) after the parse. */
  view->args = sh->own ? s->args : sh->args;
  memcpy(view->grid, sh->grid, sizeof view->grid);
  memcpy(view->block, sh->block, sizeof view->block);
  memcpy(view->ref.grid, sh->ref_grid, sizeof view->ref.grid);
  view->shapes = (upk_run_shape *)sh;
  view->n_shapes = view->n_given_shapes = 1;
  if (k > 0) /* run.flops / run.gemm count the spec's own size */
    view->flops = -1;
}
