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
 * and `# n: N` the element count (default 1024). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pyref.h"

typedef struct opts {
  const char *problem, *out, *seeds;
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

int main(int argc, char **argv) {
  opts o = {.iterations = 20};
  for (int i = 2; i + 1 < argc; i++) {
    if (!strcmp(argv[i], "--problem"))
      o.problem = argv[++i];
    else if (!strcmp(argv[i], "--out"))
      o.out = argv[++i];
    else if (!strcmp(argv[i], "--seeds"))
      o.seeds = argv[++i];
    else if (!strcmp(argv[i], "--iterations"))
      o.iterations = (unsigned)atoi(argv[++i]);
  }
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
