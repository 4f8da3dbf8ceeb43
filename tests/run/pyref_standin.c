/* A stand-in for `python3` in the PyTorch-reference tests (CI has no torch):
 * run as `pyref_standin HELPER --problem P --out DIR --seeds S,... ...`, it
 * writes the handoff files the real helper would, in the same format, for
 * a problem that doubles its input: input0 = f32 [n] drawn from the trial's
 * seed, output0 = 2 * input0, eager timings of 1 ms.
 *
 * The problem file picks the behaviour with a line `# standin: MODE`:
 *   ok (default) | f16 (input0 and output0 f16) | args (print the argv, exit 5)
 *   exit CODE MESSAGE (print MESSAGE, exit CODE) | garbage (a corrupt trial0)
 *   sleep (hang: the caller's timeout must stop it)
 * and `# n: N` the element count (default 1024).
 *
 * With `--op NAME --op-plan PLAN` (a torch op of torch-ext/) it reads the
 * worker's plan instead: each read tensor is input<N>, drawn from the
 * trial's seed with its plan dtype and shape; each written tensor is
 * output<N> = 2 * input0 (the op "twice"), or, given low/high, drawn, handed
 * over as it was (kind 6) and doubled in place. Op "unbuilt" exits 6 as the
 * helper does when the extension does not import. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "gpu/reference/pyref.h"

typedef struct opts {
  const char *problem, *out, *seeds, *op, *plan;
  unsigned iterations;
  char mode[256];
  size_t n;
} opts;

static int read_problem(opts *o) {
  FILE *f = fopen(o->problem, "r");
  char line[512];
  if (!f) {
    fprintf(stderr, "cannot open %s\n", o->problem);
    return -1;
  }
  snprintf(o->mode, sizeof o->mode, "ok");
  o->n = 1024;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!strncmp(line, "# standin: ", 11))
      snprintf(o->mode, sizeof o->mode, "%s", line + 11);
    else if (!strncmp(line, "# n: ", 5))
      o->n = strtoul(line + 5, NULL, 10);
  }
  fclose(f);
  return 0;
}

static int write_file(const opts *o, const char *name, const upk_pyref_tensor *t, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", o->out, name);
  FILE *f = fopen(path, "wb");
  int rc = f ? upk_pyref_write(f, t, n) : -1;
  if (f)
    fclose(f);
  return rc;
}

static upk_pyref_tensor vec(upk_pyref_kind kind, upk_dtype dt, const void *data, size_t n) {
  upk_pyref_tensor t = {.kind = kind, .dtype = dt, .rank = 1, .count = n, .data = data};
  t.shape[0] = n;
  t.bytes = n * upk_dtype_size(dt);
  return t;
}

static int trial(const opts *o, unsigned t, unsigned long long seed) {
  upk_dtype dt = strcmp(o->mode, "f16") ? UPK_DT_F32 : UPK_DT_F16;
  size_t bytes = o->n * upk_dtype_size(dt);
  unsigned char *x = malloc(bytes), *y = malloc(bytes);
  char name[64];
  upk_fill_random(x, dt, o->n, seed, -1, 1);
  for (size_t i = 0; i < o->n; i++)
    upk_elem_set(y, dt, i, 2 * upk_elem_get(x, dt, i));
  upk_pyref_tensor ts[] = {vec(UPK_PYT_INPUT, dt, x, o->n), vec(UPK_PYT_OUTPUT, dt, y, o->n)};
  snprintf(name, sizeof name, "trial%u.upkt", t);
  int rc = write_file(o, name, ts, 2);
  free(x);
  free(y);
  return rc;
}

static int produce(const opts *o) {
  char *seeds = strdup(o->seeds), *save = NULL;
  unsigned t = 0;
  int rc = 0;
  for (char *s = strtok_r(seeds, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save))
    rc = trial(o, t++, strtoull(s, NULL, 10));
  free(seeds);
  double *ms = calloc(o->iterations ? o->iterations : 1, sizeof *ms);
  for (unsigned i = 0; i < o->iterations; i++)
    ms[i] = 1.0;
  upk_pyref_tensor tm = vec(UPK_PYT_TIME_EAGER, UPK_DT_F64, ms, o->iterations);
  if (!rc)
    rc = write_file(o, "timing.upkt", &tm, 1);
  free(ms);
  return rc ? 1 : 0;
}

/* One tensor of the plan: its dtype and shape into `t` (data not set). */
static int plan_tensor(json_t *a, upk_pyref_kind kind, unsigned index, upk_pyref_tensor *t) {
  json_t *d;
  size_t i;
  memset(t, 0, sizeof *t);
  t->kind = kind, t->index = index, t->count = 1;
  snprintf(t->name, sizeof t->name, "%s", json_string_value(json_object_get(a, "name")));
  if (upk_dtype_parse(json_string_value(json_object_get(a, "dtype")), &t->dtype))
    return -1;
  json_array_foreach(json_object_get(a, "shape"), i, d) {
    t->shape[i] = (size_t)json_integer_value(d);
    t->count *= t->shape[i];
  }
  t->rank = (int)json_array_size(json_object_get(a, "shape"));
  t->bytes = t->count * upk_dtype_size(t->dtype);
  return 0;
}

/* Per the plan: read tensors drawn (input<N>); written ones 2 * input0, or,
 * given low/high (in place), drawn first (kind 6) and then doubled. */
static int op_trial(const opts *o, json_t *plan, unsigned trial, unsigned long long seed) {
  upk_pyref_tensor ts[128];
  unsigned nin = 0, nout = 0;
  size_t n = 0, in0 = SIZE_MAX;
  json_t *a;
  size_t i;
  json_array_foreach(json_object_get(plan, "args"), i, a) {
    bool w = json_is_true(json_object_get(a, "written")),
         drawn = !w || json_object_get(a, "low") || json_object_get(a, "high");
    if (strcmp(json_string_value(json_object_get(a, "kind")), "tensor") || n + 2 > 128)
      continue;
    if (plan_tensor(a, w ? UPK_PYT_OUTPUT : UPK_PYT_INPUT, w ? nout++ : nin++, &ts[n]))
      return -1;
    ts[n].data = calloc(1, ts[n].bytes ? ts[n].bytes : 1);
    if (drawn)
      upk_fill_random((void *)ts[n].data, ts[n].dtype, ts[n].count, seed + n, -1, 1);
    in0 = !w && in0 == SIZE_MAX ? n : in0;
    if (w && drawn) { /* the contents before, then the op's doubling in place */
      ts[n + 1] = ts[n];
      ts[n + 1].kind = UPK_PYT_OUTPUT_INIT;
      ts[n + 1].data = malloc(ts[n].bytes ? ts[n].bytes : 1);
      memcpy((void *)ts[n + 1].data, ts[n].data, ts[n].bytes);
    }
    for (size_t e = 0; w && drawn && e < ts[n].count; e++)
      upk_elem_set((void *)ts[n].data, ts[n].dtype, e,
                   2 * upk_elem_get(ts[n].data, ts[n].dtype, e));
    n += w && drawn ? 2 : 1;
  }
  for (size_t k = 0; k < n && in0 != SIZE_MAX; k++) /* the other written ones: 2 * input0 */
    for (size_t e = 0;
         ts[k].kind == UPK_PYT_OUTPUT && (k + 1 == n || ts[k + 1].kind != UPK_PYT_OUTPUT_INIT) &&
         e < ts[k].count && e < ts[in0].count;
         e++)
      upk_elem_set((void *)ts[k].data, ts[k].dtype, e,
                   2 * upk_elem_get(ts[in0].data, ts[in0].dtype, e));
  char name[64];
  snprintf(name, sizeof name, "trial%u.upkt", trial);
  int rc = write_file(o, name, ts, n);
  for (size_t k = 0; k < n; k++)
    free((void *)ts[k].data);
  return rc;
}

static int produce_op(const opts *o) {
  json_error_t e;
  json_t *plan = json_load_file(o->plan, 0, &e);
  if (!strcmp(o->op, "unbuilt")) {
    fprintf(stderr, "no built variant for torch 2.8.0 under %s/build\n",
            json_string_value(json_object_get(plan, "project")));
    json_decref(plan);
    return 6;
  }
  if (!plan) {
    fprintf(stderr, "pyref_standin: %s: %s\n", o->plan, e.text);
    return 5;
  }
  char *seeds = strdup(o->seeds), *save = NULL;
  unsigned t = 0;
  int rc = 0;
  for (char *s = strtok_r(seeds, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save))
    rc = op_trial(o, plan, t++, strtoull(s, NULL, 10));
  free(seeds);
  json_decref(plan);
  double ms[1] = {1.0};
  upk_pyref_tensor tm = vec(UPK_PYT_TIME_EAGER, UPK_DT_F64, ms, 1);
  return rc || write_file(o, "timing.upkt", &tm, 1) ? 1 : 0;
}

int main(int argc, char **argv) {
  opts o = {.iterations = 20};
  for (int i = 2; i + 1 < argc; i++) {
    if (!strcmp(argv[i], "--problem"))
      o.problem = argv[++i];
    else if (!strcmp(argv[i], "--out"))
      o.out = argv[++i];
    else if (!strcmp(argv[i], "--seeds"))
      o.seeds = argv[++i];
    else if (!strcmp(argv[i], "--op"))
      o.op = argv[++i];
    else if (!strcmp(argv[i], "--op-plan"))
      o.plan = argv[++i];
    else if (!strcmp(argv[i], "--iterations"))
      o.iterations = (unsigned)atoi(argv[++i]);
  }
  if (o.op && o.plan && o.out && o.seeds)
    return produce_op(&o);
  if (!o.problem || !o.out || !o.seeds) {
    fprintf(stderr, "pyref_standin: missing --problem, --out or --seeds\n");
    return 2;
  }
  if (read_problem(&o))
    return 5; /* the helper's "the problem failed" */
  if (!strcmp(o.mode, "args")) {
    for (int i = 1; i < argc; i++)
      fprintf(stderr, "%s%s", i > 1 ? " " : "", argv[i]);
    fprintf(stderr, "\n");
    return 5;
  }
  if (!strncmp(o.mode, "exit ", 5)) {
    char *msg = NULL;
    long code = strtol(o.mode + 5, &msg, 10);
    fprintf(stderr, "%s\n", msg && *msg ? msg + 1 : "");
    return (int)code;
  }
  if (!strcmp(o.mode, "sleep")) {
    sleep(120);
    return 0;
  }
  if (!strcmp(o.mode, "garbage")) {
    char path[4096];
    snprintf(path, sizeof path, "%s/trial0.upkt", o.out);
    FILE *f = fopen(path, "wb");
    fputs("UPKTENS1 but not really", f);
    fclose(f);
    return 0;
  }
  return produce(&o);
}
