/* upskillctl's reports:
 *   report RUN_ID [B] [-o FILE]    runs/report: one self-contained HTML file
 *   check-kernel ... --html FILE   the kernel check as HTML (report/report.h), with
 *                                  occupancy by block size from a second kernel/validate
 * Without -o the HTML goes to stdout. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients/commands.h"
#include "clients/ctl.h"
#include "report/report.h"
#include "common/xalloc.h"

static int write_out(const char *verb, const char *file, const char *text, size_t len, bool quiet) {
  FILE *f = file && strcmp(file, "-") ? fopen(file, "w") : stdout;
  bool ok = f && fwrite(text, 1, len, f) == len;
  if (f && f != stdout)
    ok = fclose(f) == 0 && ok;
  else if (f)
    ok = fflush(f) == 0 && ok;
  if (!ok) {
    fprintf(stderr, "upskillctl %s: cannot write %s\n", verb, file ? file : "stdout");
    return 1;
  }
  if (f != stdout && !quiet)
    printf("wrote %s (%zu bytes)\n", file, len);
  return 0;
}

static int cmd_report(ctl *c, int argc, char **argv) {
  const char *out = NULL;
  int ch, err = 0;
  optind = 0;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(argv[0]), ctl_longopts(argv[0]), NULL)) !=
         -1) {
    if (ch != 'o')
      return ctl_usage_hint(argv[0]), 2;
    out = optarg;
  }
  if (argc - optind < 1 || argc - optind > 2) {
    fprintf(stderr, "upskillctl report: expected RUN_ID, or two (A B) to compare\n");
    return 2;
  }
  json_t *p = json_pack("{s:s}", "id", argv[optind]);
  if (argc - optind == 2)
    json_object_set_new(p, "compareWith", json_string(argv[optind + 1]));
  json_t *r = ctl_call(c, "runs/report", p, &err);
  if (!r)
    return 1;
  const char *html = json_string_value(json_object_get(r, "html"));
  int rc = html ? write_out("report", out, html, strlen(html), c->json) : 1;
  if (rc == 0 && c->json && out)
    printf("{\"file\": \"%s\", \"bytes\": %zu}\n", out, strlen(html));
  json_decref(r);
  return rc;
}

int ctl_report_command(ctl *c, int argc, char **argv) {
  return strcmp(argv[0], "report") ? CTL_UNKNOWN : cmd_report(c, argc, argv);
}

/* ---- check-kernel --html -------------------------------------------------- */

static double num(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static long lv(json_t *o, const char *k) {
  return (long)json_integer_value(json_object_get(o, k));
}

static upk_kr_occ occ_of(json_t *o) {
  return (upk_kr_occ){(int)lv(o, "blockSize"), num(o, "percent"),
                      json_string_value(json_object_get(o, "limiter"))};
}

/* Block sizes 32..1024 by 32, plus each kernel's own if it is not among them. */
static json_t *sweep_sizes(json_t *kernels) {
  json_t *a = json_array(), *k;
  size_t i;
  for (int s = 32; s <= 1024; s += 32)
    json_array_append_new(a, json_integer(s));
  json_array_foreach(kernels, i, k) {
    long b = lv(json_object_get(k, "occupancy"), "blockSize");
    if (b <= 0 || b % 32 == 0)
      continue;
    size_t at = 0;
    while (at < json_array_size(a) && json_integer_value(json_array_get(a, at)) < b)
      at++;
    if (json_integer_value(json_array_get(a, at)) != b)
      json_array_insert_new(a, at, json_integer(b));
  }
  return a;
}

/* The sweep's occupancyBySize for the kernel called `name`. */
static json_t *sweep_of(json_t *sweep, const char *name) {
  json_t *k;
  size_t i;
  json_array_foreach(json_object_get(sweep, "kernels"), i, k) {
    const char *n = json_string_value(json_object_get(k, "name"));
    if (n && name && !strcmp(n, name))
      return json_object_get(k, "occupancyBySize");
  }
  return NULL;
}

static void fill_time(json_t *t, upk_kr_time *out) {
  *out =
      (upk_kr_time){num(t, "median"), num(t, "min"), num(t, "max"), num(t, "stddev"), lv(t, "n")};
}

static void fill_run(json_t *run, upk_kr_run *r, char *dev, size_t dev_len) {
  json_t *d = json_object_get(run, "device");
  r->present = json_is_object(run) && lv(run, "trials") > 0;
  r->ok = json_is_true(json_object_get(run, "ok"));
  r->trials = lv(run, "trials");
  snprintf(dev, dev_len, "%s (%s)", json_string_value(json_object_get(d, "name")) ?: "GPU",
           json_string_value(json_object_get(d, "sm")) ?: "?");
  r->device = dev;
  r->max_abs_error = num(run, "maxAbsError");
  r->max_rel_error = num(run, "maxRelError");
  fill_time(json_object_get(run, "timeMs"), &r->kernel);
  fill_time(json_object_get(run, "referenceTime"), &r->reference);
  r->speedup = num(run, "speedup");
}

static void count_diags(json_t *r, upk_kernel_report *kr) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    kr->errors += lv(d, "severity") == 1;
    kr->warnings += lv(d, "severity") == 2;
  }
}

static int render(json_t *r, json_t *sweep, const char *file) {
  json_t *kernels = json_object_get(r, "kernels"), *k;
  size_t n = json_array_size(kernels), i, total = 0;
  json_array_foreach(kernels, i, k) total +=
      json_array_size(sweep_of(sweep, json_string_value(json_object_get(k, "name"))));
  upk_kr_kernel *ks = upk_xcalloc(n + 1, sizeof *ks);
  upk_kr_occ *occ = upk_xcalloc(total + 1, sizeof *occ), *next = occ;
  char dev[256];
  int rc = 1;
  json_array_foreach(kernels, i, k) {
    json_t *by = sweep_of(sweep, json_string_value(json_object_get(k, "name"))), *o;
    size_t j;
    ks[i] =
        (upk_kr_kernel){json_string_value(json_object_get(k, "name")),
                        (int)lv(k, "registers"),
                        lv(k, "spillStores"),
                        lv(k, "spillLoads"),
                        lv(k, "stackFrame"),
                        lv(k, "sharedStatic"),
                        lv(k, "constant"),
                        occ_of(json_object_get(k, "occupancy")),
                        json_is_true(json_object_get(json_object_get(k, "occupancy"), "assumed")),
                        next,
                        json_array_size(by)};
    json_array_foreach(by, j, o) *next++ = occ_of(o);
  }
  upk_kernel_report kr = {.file = json_string_value(json_object_get(r, "file")),
                          .arch = json_string_value(json_object_get(r, "arch")),
                          .backend = json_string_value(json_object_get(r, "backend")),
                          .toolkit = json_string_value(json_object_get(r, "toolkit")),
                          .compile_ms = num(r, "compileMs"),
                          .kernels = ks,
                          .n_kernels = n};
  count_diags(r, &kr);
  fill_run(json_object_get(r, "run"), &kr.run, dev, sizeof dev);
  char *html = NULL;
  size_t len = 0;
  if (upk_kernel_report_html(&kr, &html, &len) == 0)
    rc = write_out("check-kernel", file, html, len, true);
  free(html);
  free(ks);
  free(occ);
  return rc;
}

int ctl_kernel_html(ctl *c, json_t *params, json_t *result, const char *file) {
  json_t *p = json_deep_copy(params);
  json_object_del(p, "run"); /* the sweep only compiles */
  json_object_del(p, "blockSize");
  json_object_set_new(p, "blockSizes", sweep_sizes(json_object_get(result, "kernels")));
  int err = 0;
  json_t *sweep = json_array_size(json_object_get(result, "kernels"))
                      ? ctl_call(c, "kernel/validate", p, &err)
                      : (json_decref(p), json_object());
  if (!sweep)
    return 1;
  int rc = render(result, sweep, file);
  if (rc == 0 && !c->json)
    fprintf(stderr, "wrote %s\n", file);
  json_decref(sweep);
  return rc;
}
