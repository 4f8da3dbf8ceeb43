/* Two runs side by side, and a generation's attempts (report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/evalstats.h"
#include "report/report_int.h"

static json_t *model_stats(const upk__rr_run *r, const char *name) {
  json_t *m;
  size_t i;
  json_array_foreach(json_object_get(r->summary, "models"), i, m) {
    const char *n = upk__rr_str(m, "model");
    if (n && name && !strcmp(n, name))
      return m;
  }
  return NULL;
}

/* Models of A, then those only B has. */
static json_t *union_models(const upk__rr_run *a, const upk__rr_run *b) {
  json_t *all = upk__rr_models(a), *mb = upk__rr_models(b), *m;
  size_t i;
  json_array_foreach(mb, i, m) {
    json_t *x;
    size_t k;
    bool seen = false;
    json_array_foreach(all, k, x) seen |= json_equal(x, m);
    if (!seen)
      json_array_append(all, m);
  }
  json_decref(mb);
  return all;
}

static void compare_chart(upk_html *h, const upk__rr_run *a, const upk__rr_run *b, json_t *models) {
  size_t n = json_array_size(models), i;
  upk__rr_groups x = upk__rr_groups_new(n);
  json_t *m;
  upk_bar_group *g = x.g;
  json_array_foreach(models, i, m) {
    const char *name = json_string_value(m);
    json_t *sa = model_stats(a, name), *sb = model_stats(b, name);
    g[i].name = name;
    g[i].bars[0] = upk__rr_rate_bar(json_object_get(sa, "baseline"), x.note[i][0], 64);
    g[i].bars[1] = upk__rr_rate_bar(json_object_get(sa, "skill"), x.note[i][1], 64);
    g[i].bars[2] = upk__rr_rate_bar(json_object_get(sb, "baseline"), x.note[i][2], 64);
    g[i].bars[3] = upk__rr_rate_bar(json_object_get(sb, "skill"), x.note[i][3], 64);
  }
  upk_bar_chart c = {.id = "pass-rate",
                     .title = "Pass rate per model in A and B, 95 % Wilson intervals",
                     .series = {"A without the skill", "A with the skill", "B without the skill",
                                "B with the skill"},
                     .n_series = 4,
                     .groups = g,
                     .n_groups = n,
                     .min = 0,
                     .max = 1,
                     .percent = true};
  upk_chart_bars(h, &c);
  upk__rr_groups_free(&x);
}

static size_t count(json_t *cond, const char *key) {
  return (size_t)json_integer_value(json_object_get(cond, key));
}

static void change_row(upk_html *h, const char *name, json_t *sa, json_t *sb) {
  json_t *ca = json_object_get(sa, "skill"), *cb = json_object_get(sb, "skill");
  double lo = NAN, hi = NAN, d = upk__rr_num(cb, "passRate") - upk__rr_num(ca, "passRate");
  upk_newcombe_diff(count(cb, "passed"), count(cb, "n"), count(ca, "passed"), count(ca, "n"),
                    UPK_Z95, &lo, &hi);
  char pa[16], pb[16], pd[16], plo[16], phi[16], la[16], lb[16];
  upk_fmt_pct(pa, sizeof pa, upk__rr_num(ca, "passRate"), false);
  upk_fmt_pct(pb, sizeof pb, upk__rr_num(cb, "passRate"), false);
  upk_fmt_pct(pd, sizeof pd, d, true);
  upk_fmt_pct(plo, sizeof plo, lo, true);
  upk_fmt_pct(phi, sizeof phi, hi, true);
  upk_fmt_pct(la, sizeof la, upk__rr_num(sa, "lift"), true);
  upk_fmt_pct(lb, sizeof lb, upk__rr_num(sb, "lift"), true);
  upk_html_raw(h, "<tr><td>");
  upk_html_text(h, name);
  upk_html_rawf(h,
                "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                "<td class=\"num\">%s .. %s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                "</tr>\n",
                pa, pb, pd, plo, phi, la, lb);
}

void upk__rr_compare(upk_html *h, const upk__rr_run *a, const upk__rr_run *b) {
  json_t *models = union_models(a, b), *m;
  size_t i;
  const char *ka = upk__rr_str(a->meta, "skill"), *kb = upk__rr_str(b->meta, "skill");
  if (ka && kb && strcmp(ka, kb)) {
    upk_html_raw(h, "<p class=\"warning\">");
    upk_html_textf(h, "A evaluated %s and B evaluated %s: the runs are of different skills.", ka,
                   kb);
    upk_html_raw(h, "</p>\n");
  }
  upk_html_raw(h, "<div class=\"pair\"><div>\n");
  upk_html_elem(h, "h2", NULL, "A");
  upk__rr_settings(h, a);
  upk_html_raw(h, "</div><div>\n");
  upk_html_elem(h, "h2", NULL, "B");
  upk__rr_settings(h, b);
  upk_html_raw(h, "</div></div>\n");
  upk_html_elem(h, "h2", NULL, "Pass rate per model");
  compare_chart(h, a, b, models);
  upk_html_raw(h, "<table class=\"figures\"><tr><th>model</th><th>A with</th><th>B with</th>"
                  "<th>B - A</th><th>95 % CI</th><th>A lift</th><th>B lift</th></tr>\n");
  json_array_foreach(models, i, m) {
    const char *name = json_string_value(m);
    change_row(h, name, model_stats(a, name), model_stats(b, name));
  }
  upk_html_raw(h, "</table>\n");
  upk__rr_grid(h, a, b);
  json_decref(models);
}

/* ---- generation ---------------------------------------------------------- */

/* Pass counts of a summary's models pooled, with the skill or without. */
static void pooled(json_t *summary, const char *cond, size_t *k, size_t *n) {
  json_t *m;
  size_t i;
  *k = *n = 0;
  json_array_foreach(json_object_get(summary, "models"), i, m) {
    *k += count(json_object_get(m, cond), "passed");
    *n += count(json_object_get(m, cond), "n");
  }
}

static upk_bar wilson_bar(size_t k, size_t n, char *note, size_t len) {
  upk_bar b = {NAN, NAN, NAN, NULL};
  if (!n)
    return b;
  b.value = (double)k / (double)n;
  upk_wilson(k, n, UPK_Z95, &b.lo, &b.hi);
  snprintf(note, len, "%zu/%zu", k, n);
  b.note = note;
  return b;
}

static void attempts_table(upk_html *h, json_t *attempts) {
  json_t *x;
  size_t i;
  upk_html_raw(h, "<table class=\"attempts\"><tr><th>attempt</th><th>with the skill</th>"
                  "<th>validation fixes</th><th>run</th></tr>\n");
  json_array_foreach(attempts, i, x) {
    char p[16];
    upk_fmt_pct(p, sizeof p, upk__rr_num(x, "passRate"), false);
    upk_html_rawf(h,
                  "<tr%s><td>%lld%s</td><td class=\"num\">%s</td><td class=\"num\">%lld</td><td>",
                  json_is_true(json_object_get(x, "best")) ? " class=\"kept\"" : "",
                  json_integer_value(json_object_get(x, "attempt")),
                  json_is_true(json_object_get(x, "best")) ? " (kept)" : "", p,
                  json_integer_value(json_object_get(x, "validationFixes")));
    upk_html_text(h, upk__rr_str(x, "runId"));
    upk_html_raw(h, "</td></tr>\n");
  }
  upk_html_raw(h, "</table>\n");
}

void upk__rr_generation(upk_html *h, const upk__rr_run *r) {
  json_t *attempts = json_object_get(r->summary, "attempts"),
         *held = json_object_get(r->summary, "heldOut"), *x;
  size_t n = json_array_size(attempts), i;
  upk__rr_groups grp = upk__rr_groups_new(n);
  upk_bar_group *g = grp.g;
  char(*names)[UPK_CHART_SERIES_MAX][64] = grp.note; /* [0]: the name (bar 0 has no note) */
  upk__rr_settings(h, r);
  json_array_foreach(attempts, i, x) {
    snprintf(names[i][0], 64, "attempt %lld", json_integer_value(json_object_get(x, "attempt")));
    g[i].name = names[i][0];
    g[i].marked = json_is_true(json_object_get(x, "best"));
    double base = upk__rr_num(x, "baselineRate");
    g[i].bars[0] = (upk_bar){i == 0 ? base : NAN, NAN, NAN, NULL};
    g[i].bars[1] = wilson_bar(count(x, "passed"), count(x, "trials"), names[i][1], 64);
    g[i].bars[2] = g[i].bars[3] = (upk_bar){NAN, NAN, NAN, NULL};
    if (g[i].marked && json_is_object(held)) {
      size_t k, nn;
      pooled(held, "baseline", &k, &nn);
      g[i].bars[2] = wilson_bar(k, nn, names[i][2], 64);
      pooled(held, "skill", &k, &nn);
      g[i].bars[3] = wilson_bar(k, nn, names[i][3], 64);
    }
  }
  upk_html_elem(h, "h2", NULL, "Pass rate by attempt");
  upk_bar_chart c = {.id = "attempts",
                     .title = "Pass rate by attempt (all models pooled), 95 % Wilson intervals",
                     .series = {"refinement set, without the skill",
                                "refinement set, with the skill", "held-out, without the skill",
                                "held-out, with the skill"},
                     .n_series = 4,
                     .groups = g,
                     .n_groups = n,
                     .min = 0,
                     .max = 1,
                     .percent = true,
                     .mark_label = "kept"};
  upk_chart_bars(h, &c);
  if (!json_is_object(held))
    upk_html_raw(h, "<p class=\"muted\">No held-out cases: the kept attempt's score is the "
                    "refinement set's.</p>\n");
  attempts_table(h, attempts);
  upk__rr_groups_free(&grp);
}
