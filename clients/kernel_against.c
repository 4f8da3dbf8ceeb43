/* check-kernel --against: a kernel checked against the PyTorch problem it
 * replaces (KernelBench style: class Model, get_inputs, get_init_inputs).
 * With a file, the --run spec gets reference.pytorch.path and the usual
 * report follows; with a directory, every PROBLEM.py there is checked with
 * PROBLEM.cu and PROBLEM.json (the run spec) from the kernel directory, one
 * row each, then the suite's fast_0, fast_1 and fast_2 as KernelBench
 * reports them: the share of problems whose kernel is correct and more than
 * p times faster than PyTorch eager. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients/ctl.h"
#include "common/xalloc.h"

enum { NOTE_MAX = 200 };

json_t *ctl_run_against(json_t *run, const char *problem) {
  char abs[PATH_MAX];
  if (!realpath(problem, abs)) {
    fprintf(stderr, "upskillctl check-kernel: --against: cannot open %s: %s\n", problem,
            strerror(errno));
    return NULL;
  }
  if (!json_is_object(run)) {
    fprintf(stderr,
            "upskillctl check-kernel: --against needs --run SPEC.json: the launch, and "
            "which tensor of the problem each kernel argument is ({\"from\": \"input0\"})\n");
    return NULL;
  }
  json_t *copy = json_deep_copy(run), *ref = json_object_get(copy, "reference");
  json_t *py = json_object_get(ref, "pytorch");
  if (!json_is_object(ref)) {
    ref = json_object();
    json_object_set_new(copy, "reference", ref);
  }
  if (!json_is_object(py)) {
    py = json_object();
    json_object_set_new(ref, "pytorch", py);
  }
  json_object_del(py, "source");
  json_object_set_new(py, "path", json_string(abs));
  return copy;
}

typedef struct row {
  char name[256];
  const char *verdict;
  double kernel_ms, eager_ms, speedup;
  char note[NOTE_MAX + 1];
  bool ok;
} row;

static double num_of(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The first error of the result, as "code: message", cut to fit a row. */
static void first_error(json_t *r, char *buf, size_t len) {
  json_t *d;
  size_t i;
  buf[0] = '\0';
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    if (json_integer_value(json_object_get(d, "severity")) != 1)
      continue;
    const char *m = json_string_value(json_object_get(d, "message"));
    const char *code = json_string_value(json_object_get(d, "code"));
    snprintf(buf, len, "%s: %s", code ? code : "error", m ? m : "");
    if (strlen(buf) == len - 1)
      memcpy(buf + len - 4, "...", 3);
    return;
  }
}

static void fill_row(row *w, json_t *r) {
  json_t *run = json_object_get(r, "run");
  w->ok = json_is_true(json_object_get(r, "ok")) && json_is_object(run);
  w->verdict = w->ok                                                    ? "PASS"
               : json_integer_value(json_object_get(run, "trials")) > 0 ? "FAIL"
                                                                        : "ERROR";
  w->kernel_ms = num_of(json_object_get(run, "timeMs"), "median");
  w->eager_ms = num_of(run, "referenceTimeMs");
  w->speedup = num_of(run, "speedup");
  first_error(r, w->note, sizeof w->note);
}

static bool exists(const char *path) {
  return access(path, R_OK) == 0;
}

/* NAME.json beside the kernel, else beside the problem, else --run. */
static json_t *spec_for(const char *kdir, const char *pdir, const char *name, json_t *run,
                        char *why, size_t len) {
  char path[PATH_MAX + 300];
  snprintf(path, sizeof path, "%s/%s.json", kdir, name);
  if (!exists(path))
    snprintf(path, sizeof path, "%s/%s.json", pdir, name);
  if (!exists(path)) {
    if (!run)
      snprintf(why, len, "no %s.json run spec (and no --run)", name);
    return run ? json_incref(run) : NULL;
  }
  json_error_t e;
  json_t *doc = json_load_file(path, 0, &e), *spec = json_object_get(doc, "run");
  spec = json_is_object(spec) ? json_incref(spec) : json_is_object(doc) ? json_incref(doc) : NULL;
  if (!spec)
    snprintf(why, len, "%s.json: %s", name, doc ? "expected a JSON object" : e.text);
  json_decref(doc);
  return spec;
}

static void check_one(ctl *c, const char *pdir, const char *kdir, json_t *base, json_t *run,
                      row *w) {
  char problem[PATH_MAX + 300], kernel[PATH_MAX + 300];
  snprintf(problem, sizeof problem, "%s/%s.py", pdir, w->name);
  snprintf(kernel, sizeof kernel, "%s/%s.cu", kdir, w->name);
  w->verdict = "ERROR";
  w->kernel_ms = w->eager_ms = w->speedup = NAN;
  if (!exists(kernel)) {
    snprintf(w->note, sizeof w->note, "no kernel %s.cu", w->name);
    return;
  }
  json_t *spec = spec_for(kdir, pdir, w->name, run, w->note, sizeof w->note);
  json_t *full = spec ? ctl_run_against(spec, problem) : NULL;
  json_decref(spec);
  if (!full)
    return;
  char abs[PATH_MAX];
  json_t *p = json_deep_copy(base);
  json_object_set_new(p, "path", json_string(realpath(kernel, abs) ? abs : kernel));
  json_object_set_new(p, "run", full);
  int err = 0;
  json_t *r = ctl_call(c, "kernel/validate", p, &err);
  if (!r) {
    snprintf(w->note, sizeof w->note, "the daemon refused the request (see above)");
    return;
  }
  fill_row(w, r);
  json_decref(r);
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const row *)a)->name, ((const row *)b)->name);
}

/* PROBLEM.py names in `dir`, sorted. */
static row *problems_in(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  struct dirent *e;
  row *rows = NULL;
  size_t cap = 0;
  *n = 0;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".py") || len - 3 >= sizeof rows->name)
      continue;
    UPK_GROW(rows, cap, *n + 1);
    memset(&rows[*n], 0, sizeof *rows);
    memcpy(rows[*n].name, e->d_name, len - 3);
    (*n)++;
  }
  if (d)
    closedir(d);
  if (*n)
    qsort(rows, *n, sizeof *rows, by_name);
  return rows;
}

static void cell(double v, const char *fmt, char *buf, size_t len) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, fmt, v);
}

static void print_rows(const row *rows, size_t n) {
  int w = 7;
  for (size_t i = 0; i < n; i++)
    w = (int)strlen(rows[i].name) > w ? (int)strlen(rows[i].name) : w;
  printf("%-*s %-7s %10s %10s %8s  %s\n", w, "PROBLEM", "VERDICT", "KERNEL MS", "EAGER MS",
         "SPEEDUP", "NOTE");
  for (size_t i = 0; i < n; i++) {
    char k[32], e[32], s[32];
    cell(rows[i].kernel_ms, "%.4f", k, sizeof k);
    cell(rows[i].eager_ms, "%.4f", e, sizeof e);
    cell(rows[i].speedup, "%.2fx", s, sizeof s);
    printf("%-*s %-7s %10s %10s %8s  %s\n", w, rows[i].name, rows[i].verdict, k, e, s,
           rows[i].note);
  }
}

/* fast_p: correct and more than p times faster than eager (fast_0: correct). */
static void print_fast(const row *rows, size_t n) {
  printf("%zu problem%s:", n, n == 1 ? "" : "s");
  for (int p = 0; p <= 2; p++) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      k += rows[i].ok && (p == 0 || (!isnan(rows[i].speedup) && rows[i].speedup > p));
    printf("  fast_%d %.2f (%zu/%zu)", p, n ? (double)k / (double)n : 0.0, k, n);
  }
  printf("\n");
}

int ctl_against_dir(ctl *c, const char *pdir, const char *kdir, json_t *base, json_t *run) {
  size_t n = 0, passed = 0;
  row *rows = problems_in(pdir, &n);
  if (!n) {
    fprintf(stderr, "upskillctl check-kernel: --against %s: no PROBLEM.py files\n", pdir);
    free(rows);
    return 2;
  }
  for (size_t i = 0; i < n; i++) {
    check_one(c, pdir, kdir ? kdir : pdir, base, run, &rows[i]);
    passed += rows[i].ok;
  }
  if (c->json) {
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++)
      json_array_append_new(
          out,
          json_pack("{s:s,s:s,s:o,s:o,s:o,s:s}", "problem", rows[i].name, "verdict",
                    rows[i].verdict, "kernelMs",
                    isnan(rows[i].kernel_ms) ? json_null() : json_real(rows[i].kernel_ms),
                    "eagerMs", isnan(rows[i].eager_ms) ? json_null() : json_real(rows[i].eager_ms),
                    "speedup", isnan(rows[i].speedup) ? json_null() : json_real(rows[i].speedup),
                    "note", rows[i].note));
    ctl_print_json(out);
    json_decref(out);
  } else {
    print_rows(rows, n);
    print_fast(rows, n);
  }
  free(rows);
  return passed == n ? 0 : 1;
}
