/* pass@k and pass^k of an evaluation (summary.json's conditions, skills/eval/evalstats.h):
 * one row per model, condition and measure, one column per k = 1 .. runs. Nothing for a run
 * of one run per case (pass@1 = pass^1 = the pass rate, shown above) or a run stored before
 * the summary had them. */
#include <math.h>
#include <stdio.h>

#include "report/report_int.h"

static void row(upk_html *h, const char *model, const char *cond, const char *what, json_t *ks,
                size_t most) {
  upk_html_raw(h, "<tr><td>");
  upk_html_text(h, model);
  upk_html_raw(h, "</td><td>");
  upk_html_text(h, cond);
  upk_html_rawf(h, "</td><td>%s</td>", what);
  for (size_t k = 0; k < most; k++) {
    json_t *v = json_array_get(ks, k);
    char buf[16];
    upk_fmt_pct(buf, sizeof buf, json_is_number(v) ? json_number_value(v) : NAN, false);
    upk_html_rawf(h, "<td class=\"num\">%s</td>", buf);
  }
  upk_html_raw(h, "</tr>\n");
}

static void cond_rows(upk_html *h, const char *model, const char *cond, json_t *c, size_t most) {
  if (!json_is_object(c))
    return;
  row(h, model, cond, "pass@k", json_object_get(c, "passAtK"), most);
  row(h, model, cond, "pass^k", json_object_get(c, "passHatK"), most);
}

void upk__rr_pass_k(upk_html *h, const upk__rr_run *r, bool baseline) {
  json_t *models = json_object_get(r->summary, "models"), *m;
  size_t i, most = 0;
  json_array_foreach(models, i, m) {
    size_t n = json_array_size(json_object_get(json_object_get(m, "skill"), "passAtK"));
    most = n > most ? n : most;
  }
  if (most < 2)
    return;
  upk_html_elem(h, "h2", NULL, "pass@k and pass^k");
  upk_html_elem(h, "p", "muted",
                "pass@k: the chance that at least one of k trials of a case passes (Chen et al. "
                "2021, unbiased estimator); pass^k: that all k pass (τ-bench). The mean over the "
                "cases with at least k conclusive trials.");
  upk_html_raw(h, "<table class=\"figures\" id=\"pass-k\"><tr><th>model</th><th>condition</th>"
                  "<th>measure</th>");
  for (size_t k = 1; k <= most; k++)
    upk_html_rawf(h, "<th>k=%zu</th>", k);
  upk_html_raw(h, "</tr>\n");
  json_array_foreach(models, i, m) {
    const char *name = upk__rr_str(m, "model") ? upk__rr_str(m, "model") : "?";
    cond_rows(h, name, "with the skill", json_object_get(m, "skill"), most);
    if (baseline)
      cond_rows(h, name, "without the skill", json_object_get(m, "baseline"), most);
  }
  upk_html_raw(h, "</table>\n");
}
