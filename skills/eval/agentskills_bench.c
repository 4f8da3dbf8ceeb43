/* benchmark.json and benchmark.md of the Agent Skills layout, computed as
 * skill-creator's scripts/aggregate_benchmark.py computes them from the
 * written files (agentskills.h says where they differ, and why); and the JSON
 * helpers agentskills_write.c shares. */
#include "skills/eval/agentskills_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/diag.h"
#include "skills/eval/evalstats.h"
#include "skills/fsutil.h"
#include "common/xalloc.h"

/* ---- JSON helpers -------------------------------------------------------- */

json_t *upk__as_str(const char *s) {
  if (!s)
    return json_null();
  json_t *j = json_string(s);
  if (j)
    return j;
  char *copy = upk_xstrdup(s); /* not UTF-8 (json_string refuses it) */
  upk_utf8_scrub(copy);
  j = json_string(copy);
  free(copy);
  return j;
}

double upk__as_round(double x, int places) {
  char buf[400]; /* %f of the largest double has 309 digits */
  if (!isfinite(x))
    return x;
  snprintf(buf, sizeof buf, "%.*f", places, x); /* correctly rounded, ties to even: round() */
  return strtod(buf, NULL);
}

/* The fewest significant digits (at least 15, so that 3800.0 stays 3800.0
 * rather than 3.8e3) with which every real of j reads back the same. */
static int precision(const json_t *j) {
  int p = 15;
  if (json_is_real(j)) {
    double v = json_real_value(j);
    char buf[40];
    for (; p < 17; p++) {
      snprintf(buf, sizeof buf, "%.*g", p, v);
      if (strtod(buf, NULL) == v)
        break;
    }
  } else if (json_is_object(j)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
      int q = precision(v);
      p = q > p ? q : p;
    }
  } else if (json_is_array(j)) {
    size_t i;
    json_t *v;
    json_array_foreach(j, i, v) {
      int q = precision(v);
      p = q > p ? q : p;
    }
  }
  return p;
}

int upk__as_dump_at(int dfd, const char *name, json_t *root) {
  char *text =
      root ? json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(precision(root))) : NULL;
  json_decref(root);
  if (!text)
    return -ENOMEM;
  size_t n = strlen(text);
  char *full = upk_xrealloc(text, n + 2);
  full[n] = '\n';
  int rc = upk_write_file_at(dfd, name, full, n + 1, 0644);
  free(full);
  return rc;
}

json_t *upk__as_expectations(const upk_as_run *r) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < r->n_expectations; i++) {
    const upk_as_expectation *e = &r->expectations[i];
    json_t *o = json_object();
    if (!o || json_array_append_new(a, o) || json_object_set_new(o, "text", upk__as_str(e->text)) ||
        json_object_set_new(o, "passed", json_boolean(e->passed)) ||
        json_object_set_new(o, "evidence", upk__as_str(e->evidence ? e->evidence : ""))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* ---- benchmark ----------------------------------------------------------- */

/* The script's order: configurations (with_skill first here), then eval
 * directories and run directories as sorted names ("run-10" < "run-2"). */
static int row_cmp(const void *pa, const void *pb) {
  const upk__as_row *a = *(const upk__as_row *const *)pa, *b = *(const upk__as_row *const *)pb;
  const char *ca = a->run->configuration, *cb = b->run->configuration;
  int wa = strcmp(ca, "with_skill") != 0, wb = strcmp(cb, "with_skill") != 0, c;
  if (wa != wb)
    return wa - wb;
  if ((c = strcmp(ca, cb)) || (c = strcmp(a->eval_dir, b->eval_dir)))
    return c;
  return strcmp(a->run_dir, b->run_dir);
}

typedef struct stats {
  double mean, stddev, min, max; /* rounded to 4 places */
} stats;

/* calculate_stats(): the sample standard deviation, summed in order. */
static stats stats_of(const double *v, size_t n) {
  stats s = {0};
  if (!n)
    return s;
  double sum = 0, lo = v[0], hi = v[0];
  for (size_t i = 0; i < n; i++) {
    sum += v[i];
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  double mean = sum / (double)n, var = 0;
  for (size_t i = 0; n > 1 && i < n; i++)
    var += pow(v[i] - mean, 2.0); /* Python's ** on floats is pow() */
  s.mean = upk__as_round(mean, 4);
  s.stddev = n > 1 ? upk__as_round(sqrt(var / (double)(n - 1)), 4) : 0.0;
  s.min = upk__as_round(lo, 4);
  s.max = upk__as_round(hi, 4);
  return s;
}

/* tokens are integers there: round(int, 4) stays an int. */
static json_t *stats_json(stats s, bool ints) {
  if (ints)
    return json_pack("{s:f, s:f, s:I, s:I}", "mean", s.mean, "stddev", s.stddev, "min",
                     (json_int_t)s.min, "max", (json_int_t)s.max);
  return json_pack("{s:f, s:f, s:f, s:f}", "mean", s.mean, "stddev", s.stddev, "min", s.min, "max",
                   s.max);
}

typedef struct config_sum {
  const char *name;
  stats pass_rate, time, tokens;
  upk_cond_stats k; /* pass@k / pass^k: its cases (model x eval) and max_k only */
} config_sum;

/* A run passes for pass@k when grading.json says so whole: no error, and every one of at
 * least one expectation passed. Every run counts (the layout has no inconclusive runs). */
static bool row_passes(const upk__as_row *r) {
  return !r->errors && r->total > 0 && r->passed == r->total;
}

static bool same_case(const upk__as_row *a, const upk__as_row *b) {
  const char *ma = a->run->model ? a->run->model : "", *mb = b->run->model ? b->run->model : "";
  return a->run->eval_id == b->run->eval_id && strcmp(ma, mb) == 0;
}

/* The cases of rows [i, j) (one configuration): each model x eval with its runs and passes;
 * a case's case_idx is the offset of its first row. */
static void count_cases(upk__as_row *const *rows, size_t i, size_t j, upk_cond_stats *k) {
  k->cases = upk_xcalloc(j - i + 1, sizeof *k->cases);
  for (size_t r = i; r < j; r++) {
    size_t x = 0;
    while (x < k->n_cases && !same_case(rows[i + k->cases[x].case_idx], rows[r]))
      x++;
    if (x == k->n_cases)
      k->cases[k->n_cases++] = (upk_case_count){.case_idx = r - i};
    upk_case_count *cc = &k->cases[x];
    cc->trials++;
    cc->n++;
    cc->passed += row_passes(rows[r]);
    k->max_k = cc->trials > k->max_k ? cc->trials : k->max_k;
  }
}

/* [pass@1 .. pass@max_k] (hat: pass^k) of a configuration, 4 places as the rest. */
static json_t *k_json(const upk_cond_stats *k, bool hat) {
  json_t *a = json_array();
  for (size_t x = 1; a && x <= k->max_k; x++) {
    double v = upk_cond_pass_k(k, x, hat, NULL);
    if (json_array_append_new(a, isfinite(v) ? json_real(upk__as_round(v, 4)) : json_null())) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* Per configuration, in row order; rows are sorted. */
static size_t summarize(upk__as_row *const *rows, size_t n, config_sum *out, double *buf) {
  size_t nc = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && strcmp(rows[j]->run->configuration, rows[i]->run->configuration) == 0)
      j++;
    config_sum *c = &out[nc++];
    c->name = rows[i]->run->configuration;
    for (size_t k = i; k < j; k++)
      buf[k - i] = rows[k]->pass_rate;
    c->pass_rate = stats_of(buf, j - i);
    for (size_t k = i; k < j; k++)
      buf[k - i] = rows[k]->time_seconds;
    c->time = stats_of(buf, j - i);
    for (size_t k = i; k < j; k++)
      buf[k - i] = (double)rows[k]->tokens;
    c->tokens = stats_of(buf, j - i);
    count_cases(rows, i, j, &c->k);
    i = j;
  }
  return nc;
}

static json_t *run_summary(const config_sum *c, size_t nc, char delta[3][48]) {
  json_t *o = json_object();
  for (size_t i = 0; o && i < nc; i++)
    /* pass_at_k / pass_hat_k are added after the script's three, which keep their names */
    if (json_object_set_new(
            o, c[i].name,
            json_pack("{s:o, s:o, s:o, s:o, s:o}", "pass_rate", stats_json(c[i].pass_rate, 0),
                      "time_seconds", stats_json(c[i].time, 0), "tokens",
                      stats_json(c[i].tokens, 1), "pass_at_k", k_json(&c[i].k, false), "pass_hat_k",
                      k_json(&c[i].k, true)))) {
      json_decref(o);
      return NULL;
    }
  /* The first configuration against the second (or against nothing). */
  config_sum none = {0};
  const config_sum *a = nc ? &c[0] : &none, *b = nc > 1 ? &c[1] : &none;
  snprintf(delta[0], 48, "%+.2f", a->pass_rate.mean - b->pass_rate.mean);
  snprintf(delta[1], 48, "%+.1f", a->time.mean - b->time.mean);
  snprintf(delta[2], 48, "%+.0f", a->tokens.mean - b->tokens.mean);
  if (o && json_object_set_new(o, "delta",
                               json_pack("{s:s, s:s, s:s}", "pass_rate", delta[0], "time_seconds",
                                         delta[1], "tokens", delta[2]))) {
    json_decref(o);
    return NULL;
  }
  return o;
}

static json_t *run_json(const upk__as_row *r) {
  char name[32];
  snprintf(name, sizeof name, "eval-%d", r->run->eval_id);
  json_t *notes = json_array(); /* the script's notes come from user_notes_summary */
  if (notes && r->run->error && json_array_append_new(notes, upk__as_str(r->run->error))) {
    json_decref(notes);
    return NULL;
  }
  return json_pack(
      "{s:i, s:o, s:s, s:i, s:o, s:{s:f, s:I, s:I, s:I, s:f, s:I, s:I, s:i}, s:o, s:o}", "eval_id",
      r->run->eval_id, "eval_name", upk__as_str(r->run->eval_name ? r->run->eval_name : name),
      "configuration", r->run->configuration, "run_number", (int)r->run->run_number, "model",
      upk__as_str(r->run->model), "result", "pass_rate", r->pass_rate, "passed",
      (json_int_t)r->passed, "failed", (json_int_t)r->failed, "total", (json_int_t)r->total,
      "time_seconds", r->time_seconds, "tokens", (json_int_t)r->tokens, "tool_calls",
      (json_int_t)r->tool_calls, "errors", r->errors, "expectations", upk__as_expectations(r->run),
      "notes", notes);
}

static int int_cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Models, distinct, in order, as "a, b"; "unknown" when none is given. */
static char *models(upk__as_row *const *rows, size_t n) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&out, &len);
  bool any = false;
  for (size_t i = 0; f && i < n; i++) {
    const char *m = rows[i]->run->model;
    bool seen = !m;
    for (size_t j = 0; j < i && !seen; j++)
      seen = rows[j]->run->model && strcmp(rows[j]->run->model, m) == 0;
    if (!seen)
      fprintf(f, "%s%s", any ? ", " : "", m), any = true;
  }
  if (f && !any)
    fputs("unknown", f);
  if (!f || fclose(f)) {
    free(out);
    return NULL;
  }
  return out;
}

static json_t *metadata(const char *skill_name, const char *skill_path, upk__as_row *const *rows,
                        size_t n, const char *stamp) {
  int *ids = upk_xcalloc(n + 1, sizeof *ids);
  size_t nid = 0, per_config = 0;
  for (size_t i = 0; ids && i < n; i++) {
    bool seen = false, counted = false;
    size_t same = 0;
    for (size_t j = 0; j < n; j++) {
      bool group = rows[j]->run->eval_id == rows[i]->run->eval_id &&
                   strcmp(rows[j]->run->configuration, rows[i]->run->configuration) == 0;
      same += group;
      counted |= group && j < i;
    }
    per_config = !counted && same > per_config ? same : per_config;
    for (size_t j = 0; j < nid && !seen; j++)
      seen = ids[j] == rows[i]->run->eval_id;
    if (!seen)
      ids[nid++] = rows[i]->run->eval_id;
  }
  char *model = ids ? models(rows, n) : NULL;
  json_t *evals = ids && model ? json_array() : NULL;
  if (nid)
    qsort(ids, nid, sizeof *ids, int_cmp);
  for (size_t i = 0; evals && i < nid; i++)
    if (json_array_append_new(evals, json_integer(ids[i]))) {
      json_decref(evals);
      evals = NULL;
    }
  json_t *m =
      evals ? json_pack("{s:o, s:o, s:o, s:n, s:s, s:o, s:I}", "skill_name",
                        upk__as_str(skill_name), "skill_path", upk__as_str(skill_path),
                        "executor_model", upk__as_str(model), "analyzer_model", "timestamp", stamp,
                        "evals_run", evals, "runs_per_configuration", (json_int_t)per_config)
            : NULL;
  free(model);
  free(ids);
  return m;
}

/* Python's str.title() for configuration names: "with_skill" -> "With Skill". */
static void label(const char *name, char *out, size_t len) {
  size_t i = 0;
  bool start = true;
  for (; name[i] && i + 1 < len; i++) {
    char c = name[i] == '_' ? ' ' : name[i];
    bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
    out[i] = lower && start ? (char)(c - 32) : upper && !start ? (char)(c + 32) : c;
    start = !lower && !upper;
  }
  out[i] = 0;
}

static void pct_cell(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, " %.0f%% |", v * 100);
  else
    fputs(" - |", f);
}

/* pass@k and pass^k below the script's table (with two runs or more of a case). */
static void pass_k_rows(FILE *f, const config_sum *a, const config_sum *b) {
  size_t most = a->k.max_k > b->k.max_k ? a->k.max_k : b->k.max_k;
  for (size_t h = 0; most > 1 && h < 2; h++)
    for (size_t k = 1; k <= most; k++) {
      double va = upk_cond_pass_k(&a->k, k, h == 1, NULL),
             vb = upk_cond_pass_k(&b->k, k, h == 1, NULL);
      fprintf(f, "\n| %s%zu |", h ? "pass^" : "pass@", k);
      pct_cell(f, va);
      pct_cell(f, vb);
      if (isfinite(va) && isfinite(vb))
        fprintf(f, " %+.2f |", va - vb);
      else
        fputs(" - |", f);
    }
}

/* generate_markdown(), line for line; pass@k and pass^k rows added at the end. */
static char *markdown(const char *skill_name, const char *model, const char *stamp,
                      json_t *evals_run, size_t per_config, const config_sum *c, size_t nc,
                      char delta[3][48]) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&out, &len);
  config_sum none = {0};
  const config_sum *a = nc ? &c[0] : &none, *b = nc > 1 ? &c[1] : &none;
  char la[64], lb[64];
  label(nc ? c[0].name : "config_a", la, sizeof la);
  label(nc > 1 ? c[1].name : "config_b", lb, sizeof lb);
  fprintf(f, "# Skill Benchmark: %s\n\n**Model**: %s\n**Date**: %s\n**Evals**: ", skill_name, model,
          stamp);
  for (size_t i = 0; i < json_array_size(evals_run); i++)
    fprintf(f, "%s%lld", i ? ", " : "",
            (long long)json_integer_value(json_array_get(evals_run, i)));
  fprintf(f, " (%zu runs each per configuration)\n\n## Summary\n\n", per_config);
  fprintf(f, "| Metric | %s | %s | Delta |\n|--------|------------|---------------|-------|\n", la,
          lb);
  fprintf(f, "| Pass Rate | %.0f%% \u00b1 %.0f%% | %.0f%% \u00b1 %.0f%% | %s |\n",
          a->pass_rate.mean * 100, a->pass_rate.stddev * 100, b->pass_rate.mean * 100,
          b->pass_rate.stddev * 100, delta[0]);
  fprintf(f, "| Time | %.1fs \u00b1 %.1fs | %.1fs \u00b1 %.1fs | %ss |\n", a->time.mean,
          a->time.stddev, b->time.mean, b->time.stddev, delta[1]);
  fprintf(f, "| Tokens | %.0f \u00b1 %.0f | %.0f \u00b1 %.0f | %s |", a->tokens.mean,
          a->tokens.stddev, b->tokens.mean, b->tokens.stddev, delta[2]);
  pass_k_rows(f, a, b);
  if (fclose(f)) {
    free(out);
    return NULL;
  }
  return out;
}

int upk__as_benchmark(int dfd, const char *skill_name, const char *skill_path, upk__as_row *rows,
                      size_t n, char *err, size_t errlen) {
  upk__as_row **sorted = upk_xcalloc(n + 1, sizeof *sorted);
  config_sum *sums = upk_xcalloc(n + 1, sizeof *sums);
  double *buf = upk_xcalloc(n + 1, sizeof *buf);
  json_t *root = NULL, *runs = NULL;
  char *md = NULL, stamp[32], delta[3][48];
  int rc = sorted && sums && buf ? 0 : -ENOMEM;
  time_t now = time(NULL);
  struct tm tm;
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  for (size_t i = 0; !rc && i < n; i++)
    sorted[i] = &rows[i];
  if (!rc)
    qsort(sorted, n, sizeof *sorted, row_cmp);
  size_t nc = rc ? 0 : summarize(sorted, n, sums, buf);
  runs = rc ? NULL : json_array();
  for (size_t i = 0; runs && i < n; i++)
    if (json_array_append_new(runs, run_json(sorted[i]))) {
      json_decref(runs);
      runs = NULL;
    }
  json_t *meta = runs ? metadata(skill_name, skill_path, sorted, n, stamp) : NULL;
  json_t *summary = meta ? run_summary(sums, nc, delta) : NULL;
  if (summary)
    root = json_pack("{s:O, s:o, s:o, s:[]}", "metadata", meta, "runs", runs, "run_summary",
                     summary, "notes");
  else
    json_decref(runs);
  if (root)
    md = markdown(skill_name, json_string_value(json_object_get(meta, "executor_model")), stamp,
                  json_object_get(meta, "evals_run"),
                  (size_t)json_integer_value(json_object_get(meta, "runs_per_configuration")), sums,
                  nc, delta);
  rc = rc ? rc : !root || !md ? -ENOMEM : 0;
  rc = rc ? (json_decref(root), rc) : upk__as_dump_at(dfd, "benchmark.json", root);
  rc = rc ? rc : upk_write_file_at(dfd, "benchmark.md", md, strlen(md), 0644);
  if (rc && err && errlen)
    snprintf(err, errlen, "cannot write benchmark.json: %s", strerror(-rc));
  json_decref(meta);
  free(md);
  free(buf);
  for (size_t i = 0; sums && i < nc; i++)
    free(sums[i].k.cases);
  free(sums);
  free(sorted);
  return rc;
}
