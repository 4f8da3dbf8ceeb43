/* upskillctl's kernel verb: check-kernel FILE.cu compiles a CUDA file through
 * kernel/validate and prints gcc-style diagnostics, a resources table and a
 * count line; check-kernel DIR (a kernel-builder project, or its build.toml)
 * prints one row per kernel and capability, then the diagnostics; check-kernel DIR
 * without build.toml checks every .cu file in the tree (kernel_tree.c), one row per file and a
 * summary line; --json prints the raw result. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clients/commands.h"
#include "clients/ctl.h"
#include "clients/junit_ctl.h"
#include "clients/kernel_tree.h"
#include "clients/kernel_table.h"
#include "clients/sarif_ctl.h"
#include "common/xalloc.h"

enum { AGAINST_TIMEOUT_MS = 15 * 60 * 1000 };

typedef struct kopts {
  const char *arch;
  const char *backend; /* --backend auto|nvrtc|nvcc */
  json_t *names;       /* --name, repeatable */
  json_t *includes;    /* -I DIR, repeatable (absolute) */
  json_t *defines;     /* -D NAME[=V], repeatable */
  int block;           /* 0: the daemon's choice */
  long smem;           /* --dynamic-smem BYTES; -1: not given */
  json_t *per_kernel; /* --block K=.. / --dynamic-smem K=..: {K: {blockSize, dynamicSharedBytes}} */
  bool all_inst;      /* --all-instantiations */
  int nocache;
  json_t *run;         /* --run SPEC.json: run on the GPU and check (docs/gpu.md) */
  const char *against; /* --against PROBLEM.py | DIR: a PyTorch reference (kernel_against.c) */
  const char *html;    /* --html FILE: also write the check as HTML */
  const char *junit;   /* --junit FILE: also write the checks as JUnit */
  const char *sarif;   /* --sarif FILE: also write the diagnostics as SARIF */
  json_t *checked;     /* with --junit or --sarif: [{file, result}] of every path checked */
} kopts;

/* --run SPEC.json: the spec is the file's whole JSON object, or its "run" member. */
static int load_run_spec(const char *file, kopts *o) {
  json_error_t e;
  json_t *doc = json_load_file(file, 0, &e);
  json_t *spec = json_is_object(json_object_get(doc, "run")) ? json_object_get(doc, "run") : doc;
  if (!json_is_object(spec)) {
    if (doc)
      fprintf(stderr, "upskillctl check-kernel: --run %s: expected a JSON object\n", file);
    else
      fprintf(stderr, "upskillctl check-kernel: --run %s:%d:%d: %s\n", file, e.line, e.column,
              e.text);
    json_decref(doc);
    return -1;
  }
  json_decref(o->run);
  o->run = json_incref(spec);
  json_decref(doc);
  return 0;
}

/* -I DIR: a directory that exists, made absolute. */
static int include_opt(kopts *o, const char *arg) {
  char abs[PATH_MAX];
  struct stat st;
  errno = 0;
  if (!realpath(arg, abs) || stat(abs, &st) || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "upskillctl check-kernel: -I %s: %s\n", arg,
            errno ? strerror(errno) : "not a directory");
    return -1;
  }
  json_array_append_new(o->includes, json_string(abs));
  return 0;
}

/* "KERNEL=VALUE" -> the kernel's entry of --block / --dynamic-smem and VALUE; else NULL. */
static json_t *kernel_entry(kopts *o, const char *arg, const char **value) {
  const char *eq = strchr(arg, '=');
  *value = eq ? eq + 1 : arg;
  if (!eq)
    return NULL;
  char *name = upk_xstrndup(arg, (size_t)(eq - arg));
  json_t *e = json_object_get(o->per_kernel, name);
  if (!e)
    json_object_set_new(o->per_kernel, name, e = json_object());
  free(name);
  return e;
}

/* --block [KERNEL=]N | XxY | XxYxZ: threads per block, 1 to 1024. */
static int block_opt(kopts *o, const char *arg) {
  const char *v;
  json_t *e = kernel_entry(o, arg, &v);
  long total = 1;
  int dims = 0;
  const char *p = v;
  for (char *end; dims < 3; p = end + 1) {
    long d = strtol(p, &end, 10);
    if (end == p || d < 1 || d > 1024)
      break;
    total *= d, dims++;
    if (*end != 'x' || dims == 3) {
      p = end;
      break;
    }
  }
  if (!dims || *p || total > 1024 || (e && v == arg + 1)) {
    fprintf(stderr,
            "upskillctl check-kernel: --block takes [KERNEL=]N or XxY[xZ] with 1 to 1024 "
            "threads, not '%s'\n",
            arg);
    return -1;
  }
  if (e)
    json_object_set_new(e, "blockSize", json_integer(total));
  else
    o->block = (int)total;
  return 0;
}

/* --dynamic-smem [KERNEL=]BYTES. */
static int smem_opt(kopts *o, const char *arg) {
  const char *v;
  json_t *e = kernel_entry(o, arg, &v);
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || *end || n < 0 || n > 1 << 30) {
    fprintf(stderr,
            "upskillctl check-kernel: --dynamic-smem takes [KERNEL=]BYTES (0 or more), not "
            "'%s'\n",
            arg);
    return -1;
  }
  if (e)
    json_object_set_new(e, "dynamicSharedBytes", json_integer(n));
  else
    o->smem = n;
  return 0;
}

/* --junit FILE (J) or --sarif FILE (S): the file checked now; the results are kept for it. */
static int report_opt(kopts *o, int ch, const char *arg) {
  if (ch == 'J' ? ctl_junit_check("check-kernel", arg) : ctl_sarif_check("check-kernel", arg))
    return -1;
  if (ch == 'J')
    o->junit = arg;
  else
    o->sarif = arg;
  if (!o->checked)
    o->checked = json_array();
  return 0;
}

/* -D NAME[=VALUE]: a macro for the compile. */
static int define_opt(kopts *o, const char *arg) {
  if (!*arg || *arg == '=') {
    fprintf(stderr, "upskillctl check-kernel: -D takes NAME or NAME=VALUE, not '%s'\n", arg);
    return -1;
  }
  json_array_append_new(o->defines, json_string(arg));
  return 0;
}

static int parse_kopts(ctl *c, int argc, char **argv, kopts *o) {
  (void)c;
  optind = 0; /* GNU: full re-initialisation for a second getopt pass */
  int ch;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(argv[0]), ctl_longopts(argv[0]), NULL)) !=
         -1) {
    switch (ch) {
    case 'I':
      if (include_opt(o, optarg))
        return -1;
      break;
    case 'D':
      if (define_opt(o, optarg))
        return -1;
      break;
    case 'a':
      o->arch = optarg;
      break;
    case 'B':
      o->backend = optarg;
      break;
    case 'b':
    case 'M':
      if ((ch == 'b' ? block_opt : smem_opt)(o, optarg))
        return -1;
      break;
    case 'A':
      o->all_inst = true;
      break;
    case 'n':
      json_array_append_new(o->names, json_string(optarg));
      break;
    case 'C':
      o->nocache = 1;
      break;
    case 'r':
      if (load_run_spec(optarg, o))
        return -1;
      break;
    case 'P':
      o->against = optarg;
      break;
    case 'H':
      o->html = optarg;
      break;
    case CTL_OPT_PYTHON:
    case CTL_OPT_ALLOW_OPTION:
      break; /* the daemon's own arguments (clients/grant.c) */
    case 'J':
    case 'S':
      if (report_opt(o, ch, optarg))
        return -1;
      break;
    default:
      ctl_usage_hint(argv[0]);
      return -1;
    }
  }
  return 0;
}

static const char *sv(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

static long long iv(json_t *o, const char *k) {
  return (long long)json_integer_value(json_object_get(o, k));
}

/* ---- projects: one row per kernel and capability, then the diagnostics ---- */

typedef struct krow {
  const char *kernel, *capability, *arch, *backend;
  int files, errors, warnings, regs;
  long long spills, smem;
  double ms;
} krow;

static krow *row_for(krow *rows, size_t *n, json_t *r) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp(rows[i].kernel, sv(r, "kernel")) &&
        !strcmp(rows[i].capability, sv(r, "capability")))
      return &rows[i];
  rows[*n] = (krow){.kernel = sv(r, "kernel"),
                    .capability = sv(r, "capability"),
                    .arch = sv(r, "arch"),
                    .backend = sv(r, "backend")};
  return &rows[(*n)++];
}

/* Fold a row's files into its (kernel, capability) line: worst figures, summed time. */
static void add_row(krow *k, json_t *r) {
  json_t *d, *x;
  size_t i;
  k->files++;
  if (strcmp(k->backend, sv(r, "backend")))
    k->backend = "mixed";
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    k->errors += iv(d, "severity") == 1;
    k->warnings += iv(d, "severity") == 2;
  }
  json_array_foreach(json_object_get(r, "kernels"), i, x) {
    if (iv(x, "registers") > k->regs)
      k->regs = (int)iv(x, "registers");
    if (iv(x, "spillStores") + iv(x, "spillLoads") > k->spills)
      k->spills = iv(x, "spillStores") + iv(x, "spillLoads");
    if (iv(x, "sharedStatic") > k->smem)
      k->smem = iv(x, "sharedStatic");
  }
  double ms = json_number_value(json_object_get(r, "compileMs"));
  k->ms = ms > k->ms ? ms : k->ms;
}

static void print_rows(json_t *rows) {
  size_t n = 0, i, w = 6;
  krow *k = upk_xcalloc(json_array_size(rows) + 1, sizeof *k);
  json_t *r;
  json_array_foreach(rows, i, r) add_row(row_for(k, &n, r), r);
  for (i = 0; i < n; i++)
    w = strlen(k[i].kernel) > w ? strlen(k[i].kernel) : w;
  printf("%-*s %-10s %-7s %5s %-6s %5s %11s %7s %8s  %s\n", (int)w, "KERNEL", "CAPABILITY", "ARCH",
         "FILES", "BACKEND", "REGS", "SPILL BYTES", "SMEM", "MS", "STATUS");
  for (i = 0; i < n; i++) {
    char status[64];
    snprintf(status, sizeof status, k[i].errors ? "%d error%s" : "ok", k[i].errors,
             k[i].errors == 1 ? "" : "s");
    printf("%-*s %-10s %-7s %5d %-7s %5d %11lld %7lld %8.1f  %s\n", (int)w, k[i].kernel,
           k[i].capability, k[i].arch, k[i].files, k[i].backend, k[i].regs, k[i].spills, k[i].smem,
           k[i].ms, status);
  }
  free(k);
}

/* build.toml's diagnostics, then each file's once (capabilities often repeat them). */
static void print_project_diags(json_t *r, int *errors, int *warnings) {
  json_t *seen = json_object(), *row, *d, *one = json_array();
  size_t i, j;
  ctl_print_diags(stdout, "build.toml", json_object_get(r, "diagnostics"), errors, warnings);
  json_array_foreach(json_object_get(r, "rows"), i, row) {
    json_array_foreach(json_object_get(row, "diagnostics"), j, d) {
      char *key = json_dumps(d, JSON_SORT_KEYS | JSON_COMPACT);
      if (key && !json_object_get(seen, key)) {
        json_object_set_new(seen, key, json_true());
        json_array_append(one, d);
      }
      free(key);
    }
  }
  ctl_print_diags(stdout, sv(r, "project"), one, errors, warnings);
  json_decref(one);
  json_decref(seen);
}

static int print_project(json_t *r) {
  int errors = 0, warnings = 0;
  json_t *rows = json_object_get(r, "rows");
  printf("%s: %zu file check%s\n", sv(r, "buildToml"), json_array_size(rows),
         json_array_size(rows) == 1 ? "" : "s");
  if (json_array_size(rows))
    print_rows(rows);
  json_t *diags = json_object_get(r, "diagnostics");
  if (json_array_size(diags) || json_array_size(rows))
    printf("\n");
  print_project_diags(r, &errors, &warnings);
  printf("%d error%s, %d warning%s\n", errors, errors == 1 ? "" : "s", warnings,
         warnings == 1 ? "" : "s");
  return errors;
}

/* A directory, or a build.toml, is a kernel-builder project. */
static double nv(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A number, or the "NaN" / "Infinity" string JSON carries instead. */
static const char *numtxt(json_t *v, char *buf, size_t len) {
  if (json_is_string(v))
    return json_string_value(v);
  snprintf(buf, len, "%g", json_number_value(v));
  return buf;
}

/* The run's verdict, correctness and timing as a small table. */
static void print_run(json_t *run) {
  if (!json_is_object(run))
    return;
  json_t *dev = json_object_get(run, "device"), *t = json_object_get(run, "timeMs");
  json_t *mis = json_object_get(run, "firstMismatch");
  if (iv(run, "trials") == 0) {
    printf("\nrun: the kernel did not run (see the diagnostics above)\n");
    return;
  }
  printf("\nrun on %s (%s, driver %s): %s after %lld trial%s\n", sv(dev, "name"), sv(dev, "sm"),
         sv(dev, "driver"), json_is_true(json_object_get(run, "ok")) ? "PASS" : "FAIL",
         iv(run, "trials"), iv(run, "trials") == 1 ? "" : "s");
  printf("  max abs error %-12g max rel error %g\n", nv(run, "maxAbsError"),
         nv(run, "maxRelError"));
  if (json_is_object(mis)) {
    char got[40], want[40];
    printf("  first mismatch: %s[%lld] = %s, expected %s\n", sv(mis, "buffer"), iv(mis, "index"),
           numtxt(json_object_get(mis, "got"), got, sizeof got),
           numtxt(json_object_get(mis, "expected"), want, sizeof want));
  }
  printf("  %-10s %10s %10s %10s\n", "TIME (ms)", "median", "min", "max");
  printf("  %-10s %10.4f %10.4f %10.4f\n", "kernel", nv(t, "median"), nv(t, "min"), nv(t, "max"));
  json_t *py = json_object_get(run, "pytorch");
  if (json_is_number(json_object_get(run, "referenceTimeMs")))
    printf("  %-10s %10.4f   speedup %.2fx\n", py ? "eager" : "reference",
           nv(run, "referenceTimeMs"), nv(run, "speedup"));
  if (json_is_number(json_object_get(py, "compileTimeMs")))
    printf("  %-10s %10.4f   speedup %.2fx\n", "compiled", nv(py, "compileTimeMs"),
           nv(py, "compileSpeedup"));
}

static bool is_dir(const char *abs) {
  struct stat st;
  return stat(abs, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A kernel-builder project: a directory holding build.toml, or the build.toml. */
static bool is_project(const char *abs) {
  char toml[PATH_MAX + 16];
  size_t n = strlen(abs);
  snprintf(toml, sizeof toml, "%s/build.toml", abs);
  return (is_dir(abs) && access(toml, F_OK) == 0) ||
         (n >= 10 && !strcmp(abs + n - 10, "build.toml"));
}

static json_t *base_params(const kopts *o);
static int check_dir(ctl *c, const char *path, const char *abs, const kopts *o);
static int report(ctl *c, const char *path, bool project, json_t *r, const kopts *o, json_t *p);

static int check_kernel(ctl *c, const char *path, const kopts *o) {
  char abs[PATH_MAX];
  if (!realpath(path, abs)) {
    fprintf(stderr, "upskillctl check-kernel: cannot open %s: %s\n", path, strerror(errno));
    return 2;
  }
  bool project = is_project(abs);
  if (!project && is_dir(abs))
    return check_dir(c, path, abs, o);
  const char *slash = strrchr(abs, '/');
  snprintf(c->title, sizeof c->title, "compiling %s", slash ? slash + 1 : abs);
  json_t *p = base_params(o);
  json_object_set_new(p, project ? "project" : "path", json_string(abs));
  if (o->run)
    json_object_set(p, "run", o->run);
  int err = 0;
  json_t *r = ctl_call(c, "kernel/validate", json_incref(p), &err);
  c->title[0] = '\0';
  if (!r) {
    json_decref(p);
    return 1;
  }
  return report(c, path, project, r, o, p); /* p: the params again, for --html */
}

/* What the walk left out, on one line; unreadable directories and a cut walk on stderr. */
static int print_skipped(const char *path, const ctl_cu_tree *t) {
  char line[256] = "";
  size_t len = 0;
  const struct {
    size_t n;
    const char *one, *many;
  } parts[] = {{t->build_dirs, "build output directory", "build output directories"},
               {t->ignored, ".cu file .gitignore ignores", ".cu files .gitignore ignores"},
               {t->links, "link not followed", "links not followed"}};
  for (size_t i = 0; i < 3; i++) {
    if (!parts[i].n)
      continue;
    int w = snprintf(line + len, sizeof line - len, "%s%zu %s", len ? ", " : "", parts[i].n,
                     parts[i].n == 1 ? parts[i].one : parts[i].many);
    len = w > 0 && (size_t)w < sizeof line - len ? len + (size_t)w : len;
  }
  if (len)
    printf("skipped: %s\n", line);
  for (size_t i = 0; i < t->n_unreadable; i++)
    fprintf(stderr, "upskillctl check-kernel: %s: cannot read %s\n", path, t->unreadable[i]);
  if (t->truncated)
    fprintf(stderr,
            "upskillctl check-kernel: %s: stopped after %d entries: the files past them were not "
            "checked; name a smaller directory\n",
            path, TREE_MAX_ENTRIES);
  return t->truncated || t->n_unreadable ? 1 : 0;
}

/* One row per file checked: its path and how it went. */
static void print_tree_rows(const ctl_cu_tree *t, const int *rcs) {
  printf("\n%-48s %s\n", "FILE", "RESULT");
  for (size_t i = 0; i < t->n; i++)
    printf("%-48s %s\n", t->files[i], rcs[i] == 0 ? "ok" : rcs[i] == 1 ? "errors" : "not checked");
}

/* A directory without build.toml: every .cu file beneath it (kernel_tree.c), in path order. */
static int check_dir(ctl *c, const char *path, const char *abs, const kopts *o) {
  ctl_cu_tree t;
  ctl_cu_tree_walk(abs, &t);
  if (!t.n) {
    fprintf(stderr,
            "upskillctl check-kernel: %s has no build.toml and no .cu file in its tree (%zu "
            "entries looked at): nothing to check\n",
            path, t.seen);
    print_skipped(path, &t);
    ctl_cu_tree_free(&t);
    return 2;
  }
  int rc = 0, failed = 0, *rcs = upk_xcalloc(t.n, sizeof *rcs);
  if (c->json)
    c->collect = json_array();
  for (size_t i = 0; i < t.n; i++) {
    char file[PATH_MAX + 256];
    snprintf(file, sizeof file, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/",
             t.files[i]);
    if (!c->json)
      printf("%s== %s\n", i ? "\n" : "", file);
    rcs[i] = check_kernel(c, file, o);
    failed += rcs[i] != 0;
    rc = rcs[i] > rc ? rcs[i] : rc;
  }
  if (c->json) {
    ctl_print_json(c->collect);
    json_decref(c->collect);
    c->collect = NULL;
  } else {
    print_tree_rows(&t, rcs);
    printf("%zu file%s checked, %d with errors\n", t.n, t.n == 1 ? "" : "s", failed);
  }
  int partial = print_skipped(path, &t);
  rc = partial > rc ? partial : rc;
  free(rcs);
  ctl_cu_tree_free(&t);
  return rc;
}

/* What every request carries besides the kernel and the run. */
static json_t *base_params(const kopts *o) {
  json_t *p = json_object();
  if (o->backend)
    json_object_set_new(p, "backend", json_string(o->backend));
  if (o->arch)
    json_object_set_new(p, "arch", json_string(o->arch));
  if (o->block)
    json_object_set_new(p, "blockSize", json_integer(o->block));
  if (o->smem >= 0)
    json_object_set_new(p, "dynamicSharedBytes", json_integer(o->smem));
  if (json_object_size(o->per_kernel))
    json_object_set(p, "perKernel", o->per_kernel);
  if (json_array_size(o->names))
    json_object_set(p, "names", o->names);
  if (json_array_size(o->includes))
    json_object_set(p, "includes", o->includes);
  if (json_array_size(o->defines))
    json_object_set(p, "defines", o->defines);
  if (o->nocache)
    json_object_set_new(p, "cache", json_false());
  return p;
}

static int report(ctl *c, const char *path, bool project, json_t *r, const kopts *o, json_t *p) {
  int errors = 0, warnings = 0;
  json_t *diags = json_object_get(r, "diagnostics"), *d;
  size_t i;
  json_array_foreach(diags, i, d) {
    errors += iv(d, "severity") == 1;
    warnings += iv(d, "severity") == 2;
  }
  if (c->json && c->collect) {
    json_array_append_new(c->collect, json_pack("{s:s,s:O}", "file", path, "result", r));
  } else if (c->json) {
    ctl_print_json(r);
  } else if (project) {
    errors = print_project(r);
  } else {
    errors = warnings = 0;
    ctl_print_diags(stdout, path, diags, &errors, &warnings);
    json_t *kernels = json_object_get(r, "kernels");
    if (json_array_size(kernels)) {
      printf("%s%s, %s %s, compiled in %.1f ms%s\n", errors + warnings ? "\n" : "", sv(r, "arch"),
             sv(r, "backend"), sv(r, "toolkit"), json_number_value(json_object_get(r, "compileMs")),
             json_is_true(json_object_get(r, "cached")) ? " (cached)" : "");
      ctl_print_kernels(r, o->all_inst || json_array_size(o->names)); /* named: each as asked */
    }
    print_run(json_object_get(r, "run"));
    printf("%d error%s, %d warning%s\n", errors, errors == 1 ? "" : "s", warnings,
           warnings == 1 ? "" : "s");
  }
  if (o->checked)
    json_array_append_new(o->checked, json_pack("{s:s,s:O}", "file", path, "result", r));
  int failed = errors > 0 || json_is_false(json_object_get(r, "ok"));
  if (o->html && !project && ctl_kernel_html(c, p, r, o->html))
    failed = 1;
  else if (o->html && project)
    fprintf(stderr, "upskillctl check-kernel: --html reports one file, not a project\n");
  json_decref(p);
  json_decref(r);
  return failed ? 1 : 0;
}

/* --against PROBLEM.py with FILE.cu, or --against DIR [KERNEL_DIR]. */
static int against(ctl *c, const char *kernel, int n_args, kopts *o) {
  struct stat st;
  /* Importing torch and timing the model take a while; the daemon bounds each
   * request by the run's own limits (run.reference.pytorch.timeoutMs). */
  if (c->client.timeout_ms < AGAINST_TIMEOUT_MS)
    c->client.timeout_ms = AGAINST_TIMEOUT_MS;
  if (stat(o->against, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (n_args > 1) {
      fprintf(stderr, "upskillctl check-kernel: --against DIR takes at most one kernel DIR\n");
      return 2;
    }
    json_t *base = base_params(o);
    int rc = ctl_against_dir(c, o->against, kernel, base, o->run);
    json_decref(base);
    return rc;
  }
  if (!kernel) {
    fprintf(stderr, "upskillctl check-kernel: --against PROBLEM.py checks one FILE.cu\n");
    return 2;
  }
  json_t *run = ctl_run_against(o->run, o->against);
  if (!run)
    return 2;
  json_decref(o->run);
  o->run = run;
  return check_kernel(c, kernel, o);
}

int ctl_kernel_command(ctl *c, int argc, char **argv) {
  if (strcmp(argv[0], "check-kernel"))
    return CTL_UNKNOWN;
  kopts o = {.names = json_array(),
             .includes = json_array(),
             .defines = json_array(),
             .smem = -1,
             .per_kernel = json_object()};
  int rc = 2;
  double started = ctl_now();
  if (parse_kopts(c, argc, argv, &o) == 0) {
    if (o.against && (o.junit || o.sarif) && is_dir(o.against))
      fprintf(stderr,
              "upskillctl check-kernel: --%s reports files checked one by one, not "
              "--against DIR\n",
              o.junit ? "junit" : "sarif");
    else if (o.against)
      rc = against(c, argc - optind == 1 ? argv[optind] : NULL, argc - optind, &o);
    else if (argc - optind != 1)
      fprintf(stderr, "upskillctl check-kernel: expected one FILE.cu or project directory\n"
                      "see 'upskillctl check-kernel --help'\n");
    else
      rc = check_kernel(c, argv[optind], &o);
  }
  /* Written when something was checked: a usage error or an unreadable path leaves no file. */
  if (o.junit && rc != 2 && json_array_size(o.checked) &&
      ctl_junit_kernel(o.checked, o.junit, started))
    rc = 1;
  if (o.sarif && rc != 2 && json_array_size(o.checked) && ctl_sarif_kernel(o.checked, o.sarif))
    rc = 1;
  json_decref(o.checked);
  json_decref(o.names);
  json_decref(o.includes);
  json_decref(o.defines);
  json_decref(o.per_kernel);
  json_decref(o.run);
  return rc;
}
