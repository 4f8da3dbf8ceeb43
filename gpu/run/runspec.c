/* The run spec: JSON -> upk_run_spec, every bad field named by its path.
 * Unknown keys are errors too, so a misspelt "gird" is caught rather than
 * silently defaulted. */
#include "gpu/run/runspec.h"
#include "gpu/run/mutant.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "gpu/run/static_checks.h"

enum { DEFAULT_SEED = 42, DEFAULT_TRIALS = 5, DEFAULT_WARMUP = 3, DEFAULT_ITERATIONS = 20 };
enum { DEFAULT_TIMEOUT_MS = UPK_RUN_TIMEOUT_DEFAULT_MS, MAX_TIMEOUT_MS = 600000 };
enum { MAX_PY_TIMEOUT_MS = 3600000 };

typedef struct ctx {
  char *err;
  size_t err_len;
  int rc;
} ctx;

/* Record the first error only: later ones are usually its consequences. */
static int fail(ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(ctx *c, const char *path, const char *fmt, ...) {
  if (c->rc)
    return c->rc;
  int n = snprintf(c->err, c->err_len, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->err_len)
    vsnprintf(c->err + n, c->err_len - (size_t)n, fmt, ap);
  va_end(ap);
  return c->rc = -EINVAL;
}

static int oom(ctx *c) {
  snprintf(c->err, c->err_len, "out of memory");
  return c->rc = -ENOMEM;
}

/* Every key of `o` must be in `known` (a NULL-terminated list). */
static int known_keys(ctx *c, json_t *o, const char *path, const char *const *known,
                      const char *list) {
  const char *k;
  json_t *v;
  json_object_foreach(o, k, v) {
    const char *const *q = known;
    while (*q && strcmp(*q, k))
      q++;
    if (!*q) {
      char p[256];
      snprintf(p, sizeof p, "%s.%s", path, k);
      return fail(c, p, "unknown field; expected one of %s", list);
    }
  }
  return 0;
}

/* o's member `key`, and its dotted path (path.key, for messages) into p. */
static json_t *member(json_t *o, const char *key, const char *path, char p[static 256]) {
  snprintf(p, 256, "%s.%s", path, key);
  return json_object_get(o, key);
}

static int get_object(ctx *c, json_t *v, const char *path) {
  return json_is_object(v) ? 0 : fail(c, path, "must be an object");
}

/* An optional integer in [lo, hi]; absent keeps *out. */
static int get_uint(ctx *c, json_t *o, const char *key, const char *path, unsigned long long lo,
                    unsigned long long hi, unsigned long long *out) {
  char p[256];
  json_t *v = member(o, key, path, p);
  if (!v)
    return 0;
  if (!json_is_integer(v))
    return fail(c, p, "must be an integer");
  json_int_t x = json_integer_value(v);
  if (x < 0 || (unsigned long long)x < lo || (unsigned long long)x > hi)
    return fail(c, p, "%lld is out of range; expected %llu..%llu", (long long)x, lo, hi);
  *out = (unsigned long long)x;
  return 0;
}

/* An optional finite number; absent keeps *out. */
static int get_num(ctx *c, json_t *o, const char *key, const char *path, double *out) {
  char p[256];
  json_t *v = member(o, key, path, p);
  if (!v)
    return 0;
  if (!json_is_number(v))
    return fail(c, p, "must be a number");
  *out = json_number_value(v);
  return isfinite(*out) ? 0 : fail(c, p, "must be finite");
}

/* An optional non-empty string, copied; absent keeps *out. */
static int get_str(ctx *c, json_t *o, const char *key, const char *path, char **out) {
  char p[256];
  json_t *v = member(o, key, path, p);
  if (!v)
    return 0;
  if (!json_is_string(v) || !json_string_length(v))
    return fail(c, p, "must be a non-empty string");
  return (*out = upk_xstrdup(json_string_value(v))) ? 0 : oom(c);
}

/* grid/block: an integer or an array of 1 to 3 integers, each within max[i]. */
static int get_dims(ctx *c, json_t *o, const char *key, const char *path, const unsigned max[3],
                    unsigned out[3]) {
  char p[256];
  json_t *v = member(o, key, path, p);
  out[0] = out[1] = out[2] = 1;
  if (!v)
    return fail(c, p, "required (an integer or [x, y, z])");
  if (json_is_array(v) && (json_array_size(v) < 1 || json_array_size(v) > 3))
    return fail(c, p, "must have 1 to 3 dimensions, not %zu", json_array_size(v));
  size_t n = json_is_array(v) ? json_array_size(v) : 1;
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_is_array(v) ? json_array_get(v, i) : v;
    char q[280];
    snprintf(q, sizeof q, json_is_array(v) ? "%s[%zu]" : "%s", p, i);
    if (!json_is_integer(x))
      return fail(c, q, "must be a positive integer");
    json_int_t d = json_integer_value(x);
    if (d < 1 || d > (json_int_t)max[i])
      return fail(c, q, "%lld is out of range; expected 1..%u", (long long)d, max[i]);
    out[i] = (unsigned)d;
  }
  return 0;
}

static int get_launch(ctx *c, json_t *o, const char *path, unsigned grid[3], unsigned block[3],
                      size_t *smem) {
  static const unsigned gmax[3] = {2147483647u, 65535, 65535}, bmax[3] = {1024, 1024, 64};
  unsigned long long s = 0;
  if (get_dims(c, o, "grid", path, gmax, grid) || get_dims(c, o, "block", path, bmax, block) ||
      get_uint(c, o, "sharedBytes", path, 0, UPK_RUN_MAX_SHARED_BYTES, &s))
    return c->rc;
  *smem = (size_t)s;
  unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
  char p[256];
  snprintf(p, sizeof p, "%s.block", path);
  if (threads > UPK_RUN_MAX_BLOCK_THREADS)
    return fail(c, p, "%u x %u x %u = %llu threads per block; CUDA allows at most %d", block[0],
                block[1], block[2], threads, UPK_RUN_MAX_BLOCK_THREADS);
  return 0;
}

static const char *const DTYPE_NAMES = UPK_DTYPE_NAMES;

static int get_dtype(ctx *c, json_t *a, const char *path, upk_dtype *out) {
  char p[256];
  json_t *v = member(a, "dtype", path, p);
  if (!json_is_string(v))
    return fail(c, p, "required; one of %s", DTYPE_NAMES);
  if (upk_dtype_parse(json_string_value(v), out))
    return fail(c, p, "unknown dtype '%s'; expected one of %s", json_string_value(v), DTYPE_NAMES);
  return 0;
}

/* count, shape, or both agreeing. */
static int get_extent(ctx *c, json_t *a, const char *path, upk_run_arg *arg) {
  json_t *shape = json_object_get(a, "shape");
  char p[256];
  unsigned long long count = 0, prod = 1;
  if (get_uint(c, a, "count", path, 1, UPK_RUN_MAX_BUFFER_BYTES, &count))
    return c->rc;
  snprintf(p, sizeof p, "%s.shape", path);
  if (shape && (!json_is_array(shape) || json_array_size(shape) < 1 ||
                json_array_size(shape) > UPK_RUN_MAX_RANK))
    return fail(c, p, "must be an array of 1 to %d positive integers", UPK_RUN_MAX_RANK);
  for (size_t i = 0; shape && i < json_array_size(shape); i++) {
    json_t *d = json_array_get(shape, i);
    if (!json_is_integer(d) || json_integer_value(d) < 1)
      return fail(c, p, "[%zu] must be a positive integer", i);
    arg->shape[i] = (size_t)json_integer_value(d);
    prod *= arg->shape[i];
    if (prod > UPK_RUN_MAX_BUFFER_BYTES)
      return fail(c, p, "has over %zu elements", UPK_RUN_MAX_BUFFER_BYTES);
  }
  arg->rank = shape ? (int)json_array_size(shape) : 0;
  if (!shape && !count)
    return fail(c, path, "a buffer needs count or shape");
  if (shape && count && prod != count)
    return fail(c, p, "holds %llu elements but count is %llu", prod, count);
  arg->count = shape ? (size_t)prod : (size_t)count;
  return 0;
}

static int get_random(ctx *c, json_t *r, const char *path, upk_run_arg *arg) {
  static const char *const keys[] = {"seed", "low", "high", NULL};
  unsigned long long seed = arg->init.seed;
  if (get_object(c, r, path) || known_keys(c, r, path, keys, "seed, low, high") ||
      get_uint(c, r, "seed", path, 0, UINT64_MAX, &seed) ||
      get_num(c, r, "low", path, &arg->init.low) || get_num(c, r, "high", path, &arg->init.high))
    return c->rc;
  arg->init.seed = seed;
  double lo = arg->init.low, hi = arg->init.high;
  bool is_float = upk_dtype_is_float(arg->dtype);
  if (is_float ? !(lo < hi) : ceil(lo) > floor(hi))
    return fail(c, path, "low (%g) must be below high (%g)", lo, hi);
  if (!is_float &&
      (!upk_dtype_holds(arg->dtype, ceil(lo)) || !upk_dtype_holds(arg->dtype, floor(hi))))
    return fail(c, path, "[%g, %g] does not fit %s", lo, hi, upk_dtype_name(arg->dtype));
  return 0;
}

/* The random defaults: distinct seeds per argument, a signed range for floats. */
static void default_init(upk_run_arg *arg, size_t index) {
  bool f = upk_dtype_is_float(arg->dtype);
  arg->init = (upk_run_init){.kind = UPK_INIT_RANDOM,
                             .seed = DEFAULT_SEED + index,
                             .low = f ? -1.0 : 0.0,
                             .high = f ? 1.0 : 100.0};
  if (arg->dtype == UPK_DT_I8)
    arg->init.high = 100.0;
}

static int get_init(ctx *c, json_t *a, const char *path, size_t index, upk_run_arg *arg) {
  static const char *const keys[] = {"random", "value", "file", NULL};
  json_t *init = json_object_get(a, "init");
  char p[256];
  snprintf(p, sizeof p, "%s.init", path);
  default_init(arg, index);
  if (!init)
    return 0;
  if (arg->role == UPK_ROLE_OUT)
    return fail(c, p,
                "an out buffer is filled with NaN before every launch; use role inout to "
                "give it initial values");
  if (get_object(c, init, p) || known_keys(c, init, p, keys, "random, value, file"))
    return c->rc;
  if (json_object_size(init) != 1)
    return fail(c, p, "needs exactly one of random, value, file");
  char q[280];
  if (json_object_get(init, "random")) {
    snprintf(q, sizeof q, "%s.random", p);
    return get_random(c, json_object_get(init, "random"), q, arg);
  }
  if (json_object_get(init, "file")) {
    arg->init.kind = UPK_INIT_FILE;
    return get_str(c, init, "file", p, &arg->init.file);
  }
  arg->init.kind = UPK_INIT_VALUE;
  snprintf(q, sizeof q, "%s.value", p);
  if (get_num(c, init, "value", p, &arg->init.value))
    return c->rc;
  if (!upk_dtype_holds(arg->dtype, arg->init.value))
    return fail(c, q, "%g is not a %s value", arg->init.value, upk_dtype_name(arg->dtype));
  return 0;
}

static int get_role(ctx *c, json_t *a, const char *path, upk_run_arg *arg) {
  static const char *const roles[] = {"in", "out", "inout"};
  json_t *v = json_object_get(a, "role");
  char p[256];
  snprintf(p, sizeof p, "%s.role", path);
  for (int i = 0; i < 3; i++) {
    if (json_is_string(v) && !strcmp(json_string_value(v), roles[i])) {
      arg->role = (upk_run_role)i;
      return 0;
    }
  }
  if (!v)
    return fail(c, p, "required for a buffer; one of in, out, inout");
  return fail(c, p, "unknown role '%s'; expected one of in, out, inout",
              json_is_string(v) ? json_string_value(v) : "(not a string)");
}

static int get_scalar(ctx *c, json_t *a, const char *path, upk_run_arg *arg) {
  static const char *const keys[] = {"name", "dtype", "value", NULL};
  char p[256];
  snprintf(p, sizeof p, "%s.value", path);
  if (known_keys(c, a, path, keys, "name, dtype, value (a scalar)") ||
      get_num(c, a, "value", path, &arg->value))
    return c->rc;
  if (!upk_dtype_holds(arg->dtype, arg->value))
    return fail(c, p, "%g is not a %s value", arg->value, upk_dtype_name(arg->dtype));
  if (arg->dtype == UPK_DT_F16 && fabs(arg->value) > 65504)
    return fail(c, p, "%g overflows f16 (largest 65504)", arg->value);
  return 0;
}

/* "input<N>", "output[<N>]", "param:<name>". */
static int parse_from(ctx *c, const char *v, const char *path, upk_run_arg *arg) {
  static const char *const prefixes[] = {"input", "output"};
  if (!strncmp(v, "param:", 6) && v[6]) {
    arg->from = UPK_FROM_PARAM;
    return (arg->from_name = upk_xstrdup(v + 6)) ? 0 : oom(c);
  }
  for (int k = 0; k < 2; k++) {
    size_t n = strlen(prefixes[k]);
    const char *d = v + n;
    if (strncmp(v, prefixes[k], n) || (!*d && k == 0) || d[strspn(d, "0123456789")] ||
        strlen(d) > 4)
      continue;
    arg->from = k == 0 ? UPK_FROM_INPUT : UPK_FROM_OUTPUT;
    arg->from_index = (unsigned)strtoul(d, NULL, 10);
    arg->role = k == 0 ? UPK_ROLE_IN : UPK_ROLE_OUT;
    return 0;
  }
  return fail(c, path,
              "'%s' names no tensor of the PyTorch reference; expected input<N> (get_inputs()[N]), "
              "output or output<N> (the model's result), or param:<name> (model.named_parameters)",
              v);
}

/* A buffer that is a tensor of the PyTorch reference: dtype and shape may be
 * given (then checked against the tensor), the rest comes from it. */
static int get_from_arg(ctx *c, json_t *a, const char *path, upk_run_arg *arg) {
  static const char *const keys[] = {"name", "from", "dtype", "count", "shape", "role", NULL};
  json_t *from = json_object_get(a, "from"), *role = json_object_get(a, "role");
  char p[256];
  snprintf(p, sizeof p, "%s.from", path);
  arg->is_buffer = true;
  if (known_keys(c, a, path, keys,
                 "name, from, dtype, count, shape, role (a tensor of the reference)"))
    return c->rc;
  if (!json_is_string(from))
    return fail(c, p, "must be a string such as \"input0\" or \"output\"");
  if (parse_from(c, json_string_value(from), p, arg))
    return c->rc;
  if (arg->from == UPK_FROM_PARAM)
    arg->role = UPK_ROLE_IN;
  /* An output the kernel updates in place: its contents before the op wrote it come too. */
  if (role && (!json_is_string(role) || strcmp(json_string_value(role), "inout") ||
               arg->from != UPK_FROM_OUTPUT))
    return fail(c, path,
                "role with 'from' can only be \"inout\" on an output<N> (a tensor a torch op "
                "writes in place)");
  if (role)
    arg->role = UPK_ROLE_INOUT;
  arg->init.kind = UPK_INIT_FEED;
  if ((arg->dtype_given = json_object_get(a, "dtype") != NULL) &&
      get_dtype(c, a, path, &arg->dtype))
    return c->rc;
  if (!json_object_get(a, "count") && !json_object_get(a, "shape"))
    return 0;
  return get_extent(c, a, path, arg);
}

static int get_arg(ctx *c, json_t *a, size_t i, upk_run_arg *arg) {
  static const char *const keys[] = {"name", "dtype", "count", "shape", "role", "init", NULL};
  char path[64], name[32];
  snprintf(path, sizeof path, "run.args[%zu]", i);
  if (get_object(c, a, path) || get_str(c, a, "name", path, &arg->name))
    return c->rc;
  snprintf(name, sizeof name, "arg%zu", i);
  if (!arg->name && !(arg->name = upk_xstrdup(name)))
    return oom(c);
  if (json_object_get(a, "from"))
    return get_from_arg(c, a, path, arg);
  if (get_dtype(c, a, path, &arg->dtype))
    return c->rc;
  /* A scalar has a value and none of a buffer's fields. */
  arg->is_buffer = !json_object_get(a, "value") || json_object_get(a, "role") ||
                   json_object_get(a, "count") || json_object_get(a, "shape");
  if (!arg->is_buffer)
    return get_scalar(c, a, path, arg);
  if (known_keys(c, a, path, keys, "name, dtype, count, shape, role, init (a buffer)") ||
      get_role(c, a, path, arg) || get_extent(c, a, path, arg))
    return c->rc;
  return get_init(c, a, path, i, arg);
}

/* Names unique, a result buffer present, total bytes within the cap. */
static int check_args(ctx *c, const upk_run_spec *s) {
  size_t bytes = 0, outs = 0;
  for (size_t i = 0; i < s->n_args; i++) {
    const upk_run_arg *a = &s->args[i];
    char p[64];
    snprintf(p, sizeof p, "run.args[%zu].name", i);
    for (size_t j = 0; j < i; j++)
      if (!strcmp(s->args[j].name, a->name))
        return fail(c, p, "'%s' is already the name of run.args[%zu]", a->name, j);
    if (!a->is_buffer)
      continue;
    outs += a->role != UPK_ROLE_IN;
    bytes += a->count * upk_dtype_size(a->dtype);
    if (bytes > UPK_RUN_MAX_BUFFER_BYTES)
      return fail(c, "run.args", "buffers total over %zu GiB", UPK_RUN_MAX_BUFFER_BYTES >> 30);
  }
  if (!outs)
    return fail(c, "run.args", "no out or inout buffer; the kernel's result must land in one");
  return 0;
}

static int get_args(ctx *c, json_t *run, upk_run_spec *s) {
  json_t *args = json_object_get(run, "args");
  if (!json_is_array(args))
    return fail(c, "run.args", "required: an array of buffers and scalars in parameter order");
  s->n_args = json_array_size(args);
  s->args = upk_xcalloc(s->n_args + 1, sizeof *s->args);
  for (size_t i = 0; i < s->n_args; i++)
    if (get_arg(c, json_array_get(args, i), i, &s->args[i]))
      return c->rc;
  return check_args(c, s);
}

static size_t count_outputs(const upk_run_spec *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->n_args; i++)
    n += s->args[i].is_buffer && s->args[i].role != UPK_ROLE_IN;
  return n;
}

/* reference.pytorch {op, project?, args?}: a torch op's arguments by name
 * (their form here; against the op's schema on the worker, pyref_op.c). */
static int get_op(ctx *c, json_t *py, upk_run_ref *ref) {
  static const char *const problem_only[] = {"model", "inputs", "initInputs", "globals", "compile"};
  json_t *args = json_object_get(py, "args");
  for (size_t i = 0; i < sizeof problem_only / sizeof *problem_only; i++)
    if (json_object_get(py, problem_only[i]))
      return fail(c, "run.reference.pytorch", "%s is for a problem file, not an op",
                  problem_only[i]);
  if (args && upk_runspec_op_args(args, c->err, c->err_len))
    return c->rc = -EINVAL;
  if (args && !(ref->py.op_args = json_deep_copy(args)))
    return oom(c);
  return 0;
}

/* reference.pytorch {path | source, model?, inputs?, initInputs?, globals?, compile?, seed?,
 * timeoutMs?}. */
static int get_pytorch(ctx *c, json_t *py, upk_run_spec *s) {
  static const char *const keys[] = {"path",    "source",  "model", "inputs",    "initInputs",
                                     "globals", "compile", "seed",  "timeoutMs", "op",
                                     "project", "args",    NULL};
  const char *path = "run.reference.pytorch";
  upk_run_ref *ref = &s->ref;
  unsigned long long seed = DEFAULT_SEED, ms = UPK_RUN_PY_TIMEOUT_DEFAULT_MS;
  json_t *g = json_object_get(py, "globals"), *cmp = json_object_get(py, "compile");
  ref->kind = UPK_REF_PYTORCH;
  if (get_object(c, py, path) ||
      known_keys(c, py, path, keys,
                 "path, source, model, inputs, initInputs, globals, compile, seed, timeoutMs, "
                 "op, project, args") ||
      get_str(c, py, "path", path, &ref->py.path) ||
      get_str(c, py, "source", path, &ref->py.source) ||
      get_str(c, py, "model", path, &ref->py.model) ||
      get_str(c, py, "inputs", path, &ref->py.inputs) ||
      get_str(c, py, "initInputs", path, &ref->py.init) ||
      get_uint(c, py, "seed", path, 0, UINT64_MAX, &seed) ||
      get_uint(c, py, "timeoutMs", path, 1, MAX_PY_TIMEOUT_MS, &ms) ||
      get_str(c, py, "op", path, &ref->py.op) || get_str(c, py, "project", path, &ref->py.project))
    return c->rc;
  if (!!ref->py.path + !!ref->py.source + !!ref->py.op != 1)
    return fail(c, path,
                "give exactly one of path (a problem .py file), source (its text) or op (a torch "
                "op of a kernel-builder project's torch-ext/)");
  if (ref->py.op ? get_op(c, py, ref) : json_object_get(py, "args") || ref->py.project)
    return c->rc ? c->rc
                 : fail(c, path, "args and project go with op (a torch op), not a problem file");
  if (cmp && !json_is_boolean(cmp))
    return fail(c, "run.reference.pytorch.compile", "must be true or false");
  if (g && !json_is_object(g))
    return fail(c, "run.reference.pytorch.globals",
                "must be an object of module-level names to override, e.g. {\"N\": 1024}");
  if (g && !(ref->py.globals = json_dumps(g, JSON_COMPACT)))
    return oom(c);
  ref->py.compile = json_is_true(cmp);
  ref->py.seed = seed;
  ref->py.timeout_ms = (unsigned)ms;
  return 0;
}

/* Tensor buffers ({"from"}) need a PyTorch reference, and it needs every out
 * buffer to be one of its outputs (nothing else gives expected values). */
static int check_from(ctx *c, const upk_run_spec *s) {
  bool py = s->ref.kind == UPK_REF_PYTORCH;
  size_t outs = 0;
  for (size_t i = 0; i < s->n_args; i++) {
    const upk_run_arg *a = &s->args[i];
    char p[64];
    snprintf(p, sizeof p, "run.args[%zu]", i);
    if (a->from && !py)
      return fail(c, p,
                  "'from' names a tensor of a PyTorch reference; run.reference.pytorch "
                  "is missing");
    outs += a->from == UPK_FROM_OUTPUT;
    if (py && a->is_buffer && a->role != UPK_ROLE_IN && a->from != UPK_FROM_OUTPUT)
      return fail(c, p,
                  "'%s' is a result buffer, but only the model's outputs have expected "
                  "values: use {\"from\": \"output\"} (or output<N>)",
                  a->name);
  }
  if (py && !outs)
    return fail(c, "run.args",
                "no {\"from\": \"output\"} buffer: the kernel's result must be "
                "compared with the model's");
  return 0;
}

static int get_reference(ctx *c, json_t *run, upk_run_spec *s) {
  static const char *const keys[] = {"source", "path",        "name",    "file", "grid",
                                     "block",  "sharedBytes", "pytorch", NULL};
  json_t *r = json_object_get(run, "reference");
  const char *path = "run.reference";
  upk_run_ref *ref = &s->ref;
  if (!r)
    return check_from(c, s);
  if (get_object(c, r, path) ||
      known_keys(c, r, path, keys, "source, path, name, file, grid, block, sharedBytes, pytorch"))
    return c->rc;
  if (json_object_get(r, "pytorch")) {
    if (json_object_size(r) != 1)
      return fail(c, path, "pytorch stands alone: the model is the reference");
    return get_pytorch(c, json_object_get(r, "pytorch"), s) ? c->rc : check_from(c, s);
  }
  if (check_from(c, s) || get_str(c, r, "source", path, &ref->source) ||
      get_str(c, r, "path", path, &ref->path) || get_str(c, r, "name", path, &ref->name) ||
      get_str(c, r, "file", path, &ref->file))
    return c->rc;
  if (ref->file && (ref->name || ref->source || ref->path))
    return fail(c, path, "give either file (expected output) or name (a reference kernel)");
  if (ref->source && ref->path)
    return fail(c, path, "give source or path, not both");
  if (ref->file) {
    ref->kind = UPK_REF_FILE;
    size_t n = count_outputs(s);
    return n == 1 ? 0
                  : fail(c, "run.reference.file",
                         "needs exactly one out or inout buffer (found "
                         "%zu)",
                         n);
  }
  if (!ref->name)
    return fail(c, "run.reference.name", "required: the reference kernel's name");
  ref->kind = UPK_REF_KERNEL;
  ref->has_launch = json_object_get(r, "grid") || json_object_get(r, "block");
  if (!ref->has_launch) {
    if (json_object_get(r, "sharedBytes"))
      return fail(c, "run.reference.sharedBytes", "needs the reference's grid and block");
    return 0;
  }
  return get_launch(c, r, path, ref->grid, ref->block, &ref->shared_bytes);
}

/* run.forbid (static_checks.h): absent, a PyTorch reference forbids its default libraries. */
static int get_forbid(ctx *c, json_t *run, upk_run_spec *s) {
  json_t *v = json_object_get(run, "forbid");
  s->forbid = s->ref.kind == UPK_REF_PYTORCH ? UPK_FORBID_PYTORCH_DEFAULT : 0;
  return v ? (c->rc = upk_kstatic_forbid_parse(v, &s->forbid, c->err, c->err_len)) : 0;
}

static int get_sanitizer(ctx *c, json_t *run, upk_run_spec *s) {
  json_t *v = json_object_get(run, "sanitizer");
  if (!v)
    return 0;
  if (s->ref.kind == UPK_REF_PYTORCH) /* the sanitized worker would run the helper under it */
    return fail(c, "run.sanitizer",
                "not with a PyTorch reference (compute-sanitizer would check PyTorch's own "
                "kernels too); sanitize with a reference kernel or file, or none");
  for (int i = UPK_SAN_MEMCHECK; i <= UPK_SAN_SYNCCHECK; i++) {
    if (json_is_string(v) && !strcmp(json_string_value(v), upk_run_sanitizer_name(i))) {
      s->sanitizer = (upk_run_sanitizer)i;
      return 0;
    }
  }
  return fail(c, "run.sanitizer",
              "unknown tool '%s'; expected one of memcheck, racecheck, "
              "initcheck, synccheck",
              json_is_string(v) ? json_string_value(v) : "(not a string)");
}

static int get_counts(ctx *c, json_t *run, upk_run_spec *s) {
  unsigned long long t = DEFAULT_TRIALS, w = DEFAULT_WARMUP, it = DEFAULT_ITERATIONS,
                     ms = DEFAULT_TIMEOUT_MS;
  double atol = -1, rtol = -1;
  if (get_uint(c, run, "trials", "run", 1, 100, &t) ||
      get_uint(c, run, "warmup", "run", 0, 1000, &w) ||
      get_uint(c, run, "iterations", "run", 1, 10000, &it) ||
      get_uint(c, run, "timeoutMs", "run", 1, MAX_TIMEOUT_MS, &ms) ||
      get_num(c, run, "atol", "run", &atol) || get_num(c, run, "rtol", "run", &rtol))
    return c->rc;
  if (json_object_get(run, "atol") && atol < 0)
    return fail(c, "run.atol", "must be >= 0");
  if (json_object_get(run, "rtol") && rtol < 0)
    return fail(c, "run.rtol", "must be >= 0");
  s->trials = (unsigned)t, s->warmup = (unsigned)w, s->iterations = (unsigned)it;
  s->timeout_ms = (unsigned)ms;
  s->atol = atol, s->rtol = rtol;
  return 0;
}

/* The work a launch does, for the distance to the device's limit (roofline.h): a FLOP count,
 * or GEMM shapes whose count is known (2 m n k). */
static int get_work(ctx *c, json_t *run, upk_run_spec *s) {
  static const char *const keys[] = {"m", "n", "k", NULL};
  json_t *gemm = json_object_get(run, "gemm");
  double flops = -1;
  if (get_num(c, run, "flops", "run", &flops))
    return c->rc;
  if (json_object_get(run, "flops") && flops < 0)
    return fail(c, "run.flops", "must be >= 0");
  if (gemm && json_object_get(run, "flops"))
    return fail(c, "run.gemm", "give flops or gemm, not both");
  s->flops = flops;
  if (!gemm)
    return 0;
  unsigned long long m = 0, n = 0, k = 0;
  if (get_object(c, gemm, "run.gemm") || known_keys(c, gemm, "run.gemm", keys, "m, n, k") ||
      get_uint(c, gemm, "m", "run.gemm", 1, 1ull << 32, &m) ||
      get_uint(c, gemm, "n", "run.gemm", 1, 1ull << 32, &n) ||
      get_uint(c, gemm, "k", "run.gemm", 1, 1ull << 32, &k))
    return c->rc;
  if (!json_object_get(gemm, "m") || !json_object_get(gemm, "n") || !json_object_get(gemm, "k"))
    return fail(c, "run.gemm", "needs m, n and k");
  s->flops = 2.0 * (double)m * (double)n * (double)k;
  return 0;
}

/* A fresh seed per request, so a kernel cannot learn its inputs from one run
 * to the next; below 2^63 so that it round-trips as a JSON integer. */
static uint64_t draw_seed(void) {
  uint64_t x = 0;
  if (getrandom(&x, sizeof x, GRND_NONBLOCK) != (ssize_t)sizeof x) {
    struct timespec ts; /* no entropy yet (early boot): still differs per call */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x = upk_gen_bits((uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32), (uint64_t)ts.tv_sec);
  }
  return x >> 1;
}

static int get_seed(ctx *c, json_t *run, upk_run_spec *s) {
  json_t *v = json_object_get(run, "seed");
  s->seed_given = v != NULL;
  if (!v) {
    s->seed = draw_seed();
    return 0;
  }
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return fail(c, "run.seed",
                "must be a non-negative integer (the seed a previous result reported, to "
                "reproduce its inputs)");
  s->seed = (uint64_t)json_integer_value(v);
  return 0;
}

uint64_t upk_run_input_seed(const upk_run_spec *s, uint64_t arg_seed) {
  if (s->ref.kind == UPK_REF_FILE) /* the expected output was made from these very inputs */
    return arg_seed;
  return upk_gen_bits(s->seed, arg_seed);
}

int upk_runspec_parse(json_t *run, upk_run_spec *out, char *err, size_t err_len) {
  static const char *const keys[] = {
      "kernel", "grid",   "block",    "sharedBytes", "args",      "reference", "atol",
      "rtol",   "trials", "warmup",   "iterations",  "timeoutMs", "sanitizer", "flops",
      "gemm",   "shapes", "oddSizes", "seed",        "forbid",    NULL};
  ctx c = {err, err_len, 0};
  memset(out, 0, sizeof *out);
  if (err_len)
    err[0] = '\0';
  if (get_object(&c, run, "run") ||
      known_keys(&c, run, "run", keys,
                 "kernel, grid, block, sharedBytes, args, reference, atol, rtol, trials, "
                 "warmup, iterations, timeoutMs, sanitizer, flops, gemm, shapes, oddSizes, "
                 "seed, forbid") ||
      get_str(&c, run, "kernel", "run", &out->kernel) ||
      get_launch(&c, run, "run", out->grid, out->block, &out->shared_bytes) ||
      get_args(&c, run, out) || get_reference(&c, run, out) || get_counts(&c, run, out) ||
      get_sanitizer(&c, run, out) || get_work(&c, run, out) || get_seed(&c, run, out) ||
      get_forbid(&c, run, out) || (c.rc = upk_runspec_shapes(run, out, err, err_len))) {
    upk_runspec_free(out);
    return c.rc;
  }
  return 0;
}

int upk_runspec_check(json_t *run, char *err, size_t err_len) {
  upk_run_spec s;
  int rc = upk_runspec_parse(run, &s, err, err_len);
  if (rc == 0)
    upk_runspec_free(&s);
  return rc;
}

void upk_runspec_free(upk_run_spec *s) {
  upk_runspec_shapes_free(s);
  for (size_t i = 0; s->args && i < s->n_args; i++) {
    free(s->args[i].name);
    free(s->args[i].init.file);
    free(s->args[i].from_name);
  }
  free(s->ref.py.path);
  free(s->ref.py.source);
  free(s->ref.py.model);
  free(s->ref.py.inputs);
  free(s->ref.py.init);
  free(s->ref.py.globals);
  free(s->ref.py.op);
  free(s->ref.py.project);
  json_decref(s->ref.py.op_args);
  free(s->args);
  free(s->kernel);
  free(s->ref.source);
  free(s->ref.path);
  free(s->ref.name);
  free(s->ref.file);
  memset(s, 0, sizeof *s);
}

void upk_runspec_tolerance(const upk_run_spec *s, upk_dtype t, double *atol, double *rtol) {
  double d = 0;
  switch (t) {
  case UPK_DT_F32:
    d = 1e-4;
    break;
  case UPK_DT_F16:
  case UPK_DT_BF16:
    d = 1e-2;
    break;
  case UPK_DT_F64:
    d = 1e-8;
    break;
  default:
    d = 0;
    break;
  }
  if (upk_mutant("tolerance"))
    d *= 1e3;
  *atol = s->atol >= 0 ? s->atol : d;
  *rtol = s->rtol >= 0 ? s->rtol : d;
}

const char *upk_run_sanitizer_name(upk_run_sanitizer s) {
  static const char *const names[] = {NULL, "memcheck", "racecheck", "initcheck", "synccheck"};
  return s >= UPK_SAN_NONE && s <= UPK_SAN_SYNCCHECK ? names[s] : NULL;
}
