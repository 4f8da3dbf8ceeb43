/* The run report (report.h): loading a run, the single-run page and the
 * dispatch to the comparison and generation pages. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_int.h"
#include "skills/eval/runs.h"
#include "common/xalloc.h"

const char *upk__rr_str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

double upk__rr_num(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

upk_bar upk__rr_rate_bar(json_t *cond, char *note, size_t note_len) {
  json_t *ci = json_object_get(cond, "passRateCi");
  upk_bar b = {upk__rr_num(cond, "passRate"), NAN, NAN, NULL};
  if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
    b.lo = json_number_value(json_array_get(ci, 0));
    b.hi = json_number_value(json_array_get(ci, 1));
  }
  if (json_is_object(cond) && note) {
    snprintf(note, note_len, "%lld/%lld", json_integer_value(json_object_get(cond, "passed")),
             json_integer_value(json_object_get(cond, "n")));
    b.note = note;
  }
  return b;
}

upk__rr_groups upk__rr_groups_new(size_t n) {
  return (upk__rr_groups){.g = upk_xcalloc(n + 1, sizeof(upk_bar_group)),
                          .note = upk_xcalloc(n + 1, sizeof(char[UPK_CHART_SERIES_MAX][64]))};
}

void upk__rr_groups_free(upk__rr_groups *x) {
  free(x->g);
  free(x->note);
  memset(x, 0, sizeof *x);
}

json_t *upk__rr_models(const upk__rr_run *r) {
  json_t *out = json_array(), *m;
  size_t i;
  json_array_foreach(json_object_get(r->meta, "models"), i, m) json_array_append(out, m);
  if (!json_array_size(out))
    json_array_foreach(json_object_get(r->summary, "models"), i, m) json_array_append_new(
        out, json_string(upk__rr_str(m, "model") ? upk__rr_str(m, "model") : "?"));
  return out;
}

static void setting(upk_html *h, const char *name, const char *value) {
  upk_html_elem(h, "dt", NULL, name);
  upk_html_elem(h, "dd", NULL, value ? value : "-");
}

void upk__rr_settings(upk_html *h, const upk__rr_run *r) {
  char buf[64];
  json_t *m = r->meta, *s = r->summary, *x;
  size_t i;
  upk_html_raw(h, "<dl class=\"meta\">\n");
  setting(h, "run", r->id);
  setting(h, "kind", upk__rr_str(m, "kind"));
  setting(h, "created", upk__rr_str(m, "createdAt"));
  setting(h, "skill", upk__rr_str(m, "skill"));
  upk_html_elem(h, "dt", NULL, "models");
  upk_html_raw(h, "<dd>");
  json_array_foreach(json_object_get(m, "models"), i, x) {
    upk_html_raw(h, i ? ", " : "");
    upk_html_text(h, json_string_value(x));
  }
  upk_html_raw(h, "</dd>\n");
  static const char *const ints[][2] = {{"cases", "cases"}, {"runs", "runs per case"}};
  for (size_t k = 0; k < 2; k++) {
    snprintf(buf, sizeof buf, "%lld", json_integer_value(json_object_get(m, ints[k][0])));
    setting(h, ints[k][1], buf);
  }
  setting(h, "baseline", json_is_false(json_object_get(m, "baseline")) ? "no" : "yes");
  if (json_is_integer(json_object_get(s, "trials"))) {
    snprintf(buf, sizeof buf, "%lld", json_integer_value(json_object_get(s, "trials")));
    setting(h, "trials", buf);
  }
  if (json_is_integer(json_object_get(s, "concurrency"))) {
    snprintf(buf, sizeof buf, "%lld", json_integer_value(json_object_get(s, "concurrency")));
    setting(h, "concurrency", buf);
  }
  setting(h, "format", upk__rr_str(m, "format"));
  upk_html_raw(h, "</dl>\n");
}

/* ---- one evaluation ------------------------------------------------------ */

static void pass_chart(upk_html *h, json_t *models, bool baseline) {
  size_t n = json_array_size(models), i;
  upk__rr_groups x = upk__rr_groups_new(n);
  json_t *m;
  upk_bar_group *g = x.g;
  json_array_foreach(models, i, m) {
    g[i].name = upk__rr_str(m, "model");
    size_t s = 0;
    if (baseline)
      g[i].bars[s++] = upk__rr_rate_bar(json_object_get(m, "baseline"), x.note[i][0], 64);
    g[i].bars[s] = upk__rr_rate_bar(json_object_get(m, "skill"), x.note[i][1], 64);
  }
  upk_bar_chart c = {.id = "pass-rate",
                     .title = "Pass rate per model, 95 % Wilson intervals",
                     .series = {"without the skill", "with the skill"},
                     .n_series = 2,
                     .groups = g,
                     .n_groups = n,
                     .min = 0,
                     .max = 1,
                     .percent = true};
  if (!baseline) {
    c.series[0] = "with the skill";
    c.n_series = 1;
    c.first_colour = 1;
  }
  upk_chart_bars(h, &c);
  upk__rr_groups_free(&x);
}

static void lift_chart(upk_html *h, json_t *models) {
  size_t n = json_array_size(models), i;
  upk__rr_groups x = upk__rr_groups_new(n);
  json_t *m;
  upk_bar_group *g = x.g;
  json_array_foreach(models, i, m) {
    json_t *ci = json_object_get(m, "liftCi");
    g[i].name = upk__rr_str(m, "model");
    g[i].bars[0] = (upk_bar){
        upk__rr_num(m, "lift"),
        json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0)) : NAN,
        json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1)) : NAN,
        NULL};
  }
  upk_bar_chart c = {.id = "lift",
                     .title = "Lift (with - without the skill), Newcombe 95 % interval",
                     .series = {"lift"},
                     .n_series = 1,
                     .groups = g,
                     .n_groups = n,
                     .min = -1,
                     .max = 1,
                     .percent = true,
                     .first_colour = 1};
  upk_chart_bars(h, &c);
  upk__rr_groups_free(&x);
}

static double tokens_of(json_t *cond) {
  return upk__rr_num(cond, "avgInputTokens") + upk__rr_num(cond, "avgOutputTokens");
}

/* A round axis end above v: 1, 2 or 5 times a power of ten. */
static double nice_max(double v) {
  if (!(v > 0))
    return 1;
  double p = pow(10, floor(log10(v)));
  return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

static void tokens_chart(upk_html *h, json_t *models, bool baseline) {
  size_t n = json_array_size(models), i;
  upk__rr_groups x = upk__rr_groups_new(n);
  json_t *m;
  double top = 0;
  upk_bar_group *g = x.g;
  json_array_foreach(models, i, m) {
    g[i].name = upk__rr_str(m, "model");
    const char *keys[] = {"baseline", "skill"};
    for (size_t k = baseline ? 0 : 1, s = 0; k < 2; k++, s++) {
      json_t *cond = json_object_get(m, keys[k]);
      double t = tokens_of(cond);
      snprintf(x.note[i][k], 64, "(in %.0f, out %.0f)", upk__rr_num(cond, "avgInputTokens"),
               upk__rr_num(cond, "avgOutputTokens"));
      g[i].bars[s] = (upk_bar){t, NAN, NAN, isfinite(t) ? x.note[i][k] : NULL};
      top = isfinite(t) && t > top ? t : top;
    }
  }
  upk_bar_chart c = {.id = "tokens",
                     .title = "Tokens per trial (input + output, averaged)",
                     .series = {"without the skill", "with the skill"},
                     .n_series = baseline ? 2 : 1,
                     .groups = g,
                     .n_groups = n,
                     .min = 0,
                     .max = nice_max(top),
                     .unit = "tokens",
                     .whole = true};
  if (!baseline) {
    c.series[0] = "with the skill";
    c.first_colour = 1;
  }
  upk_chart_bars(h, &c);
  upk__rr_groups_free(&x);
}

static void figures_table(upk_html *h, json_t *models) {
  json_t *m;
  size_t i;
  upk_html_raw(h, "<table class=\"figures\"><tr><th>model</th><th>without</th><th>with</th>"
                  "<th>lift</th><th>lift 95 % CI</th><th>token savings</th></tr>\n");
  json_array_foreach(models, i, m) {
    char b[16], s[16], l[16], lo[16], hi[16], t[16];
    json_t *ci = json_object_get(m, "liftCi");
    upk_fmt_pct(b, sizeof b, upk__rr_num(json_object_get(m, "baseline"), "passRate"), false);
    upk_fmt_pct(s, sizeof s, upk__rr_num(json_object_get(m, "skill"), "passRate"), false);
    upk_fmt_pct(l, sizeof l, upk__rr_num(m, "lift"), true);
    upk_fmt_pct(lo, sizeof lo, json_number_value(json_array_get(ci, 0)), true);
    upk_fmt_pct(hi, sizeof hi, json_number_value(json_array_get(ci, 1)), true);
    upk_fmt_pct(t, sizeof t, upk__rr_num(m, "tokenSavings"), true);
    upk_html_raw(h, "<tr><td>");
    upk_html_text(h, upk__rr_str(m, "model"));
    upk_html_rawf(h,
                  "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                  "<td class=\"num\">%s .. %s</td><td class=\"num\">%s</td></tr>\n",
                  b, s, l, lo, hi, t);
  }
  upk_html_raw(h, "</table>\n");
}

static void eval_page(upk_html *h, const upk__rr_run *r) {
  json_t *models = json_object_get(r->summary, "models");
  bool baseline = !json_is_false(json_object_get(r->meta, "baseline"));
  upk__rr_settings(h, r);
  upk_html_elem(h, "h2", NULL, "Pass rate per model");
  pass_chart(h, models, baseline);
  if (baseline) {
    upk_html_elem(h, "h2", NULL, "Lift");
    lift_chart(h, models);
  }
  upk_html_elem(h, "h2", NULL, "Tokens");
  tokens_chart(h, models, baseline);
  figures_table(h, models);
  upk__rr_pass_k(h, r, baseline);
  upk__rr_agents(h, r);
  upk__rr_grid(h, r, NULL);
}

/* ---- loading and dispatch ------------------------------------------------ */

static int load(const char *runs_dir, const char *id, upk__rr_run *r) {
  char *text = NULL;
  memset(r, 0, sizeof *r);
  int rc = upk_runs_show(runs_dir, id, true, &text);
  if (rc)
    return rc;
  r->root = json_loads(text, 0, NULL);
  free(text);
  if (!r->root)
    return -ENOMEM;
  r->id = upk__rr_str(r->root, "id");
  r->meta = json_object_get(r->root, "run");
  r->summary = json_object_get(r->root, "summary");
  r->transcripts = json_object_get(r->root, "transcripts");
  return json_is_object(r->summary) ? 0 : -ENODATA;
}

static void title_of(const upk__rr_run *a, const upk__rr_run *b, char *buf, size_t len) {
  const char *skill = upk__rr_str(a->meta, "skill") ? upk__rr_str(a->meta, "skill") : "skill";
  const char *kind = upk__rr_str(a->meta, "kind");
  if (b)
    snprintf(buf, len, "Comparison: %s", skill);
  else if (kind && !strcmp(kind, "generation"))
    snprintf(buf, len, "Generation: %s", skill);
  else
    snprintf(buf, len, "Evaluation: %s", skill);
}

int upk_run_report(const char *runs_dir, const char *id, const char *id_b, char **html,
                   size_t *len) {
  upk__rr_run a = {0}, b = {0};
  *html = NULL;
  int rc = load(runs_dir, id, &a);
  int rc_b = id_b && !rc ? load(runs_dir, id_b, &b) : 0;
  if (!rc && !rc_b) {
    upk_html h;
    char title[300];
    const char *kind = upk__rr_str(a.meta, "kind");
    upk_html_init(&h);
    title_of(&a, id_b ? &b : NULL, title, sizeof title);
    upk_html_begin(&h, title);
    if (id_b)
      upk__rr_compare(&h, &a, &b);
    else if (kind && !strcmp(kind, "generation"))
      upk__rr_generation(&h, &a);
    else
      eval_page(&h, &a);
    upk_html_end(&h);
    *html = upk_html_take(&h, len);
    rc = *html ? 0 : -ENOMEM;
  }
  json_decref(a.root);
  json_decref(b.root);
  return rc ? rc : rc_b;
}
