/* The agent runs of an evaluation (summary.json's "agents", eval_service.h):
 * per model and per case, with and without the skill side by side: pass
 * rate, how often the agent loaded the skill, turns, tokens, cost and time. */
#include <math.h>
#include <stdio.h>

#include "report/report_int.h"

static void cell_pct(upk_html *h, json_t *t, const char *key) {
  char buf[16];
  upk_fmt_pct(buf, sizeof buf, upk__rr_num(t, key), false);
  upk_html_rawf(h, "<td class=\"num\">%s</td>", buf);
}

static void cell_num(upk_html *h, json_t *t, const char *key, const char *fmt, double scale) {
  double v = upk__rr_num(t, key);
  char buf[32] = "-";
  if (isfinite(v))
    snprintf(buf, sizeof buf, fmt, v * scale);
  upk_html_rawf(h, "<td class=\"num\">%s</td>", buf);
}

/* One condition's figures: pass, loaded, turns, tokens in/out, cost, time. */
static void figures(upk_html *h, json_t *t) {
  if (!json_is_object(t)) {
    upk_html_raw(h, "<td colspan=\"7\" class=\"muted\">not run</td>");
    return;
  }
  cell_pct(h, t, "passRate");
  cell_pct(h, t, "skillLoadedRate");
  cell_num(h, t, "meanTurns", "%.1f", 1);
  cell_num(h, t, "meanInputTokens", "%.0f", 1);
  cell_num(h, t, "meanOutputTokens", "%.0f", 1);
  cell_num(h, t, "meanCostUsd", "$%.4f", 1);
  cell_num(h, t, "meanMs", "%.1f s", 0.001);
}

static void header(upk_html *h, const char *first) {
  static const char cols[] = "<th>pass</th><th>skill loaded</th><th>turns</th><th>tokens in</th>"
                             "<th>tokens out</th><th>cost</th><th>time</th>";
  upk_html_rawf(h,
                "<table class=\"figures\"><tr><th rowspan=\"2\">%s</th>"
                "<th colspan=\"7\">with the skill</th><th colspan=\"7\">without</th></tr>"
                "<tr>%s%s</tr>\n",
                first, cols, cols);
}

static void row(upk_html *h, json_t *x, const char *label) {
  upk_html_raw(h, "<tr><td>");
  upk_html_text(h, label);
  upk_html_raw(h, "</td>");
  figures(h, json_object_get(x, "with_skill"));
  figures(h, json_object_get(x, "without_skill"));
  upk_html_raw(h, "</tr>\n");
}

void upk__rr_agents(upk_html *h, const upk__rr_run *r) {
  json_t *agents = json_object_get(r->summary, "agents"), *x;
  size_t i;
  if (!json_is_object(agents))
    return;
  upk_html_elem(h, "h2", NULL, "Agent runs");
  header(h, "agent");
  json_array_foreach(json_object_get(agents, "byModel"), i, x) row(h, x, upk__rr_str(x, "model"));
  upk_html_raw(h, "</table>\n");
  header(h, "case");
  json_array_foreach(json_object_get(agents, "byCase"), i, x) {
    char label[300];
    snprintf(label, sizeof label, "case %lld, %s",
             (long long)json_integer_value(json_object_get(x, "case")) + 1,
             upk__rr_str(x, "model") ? upk__rr_str(x, "model") : "?");
    row(h, x, label);
  }
  upk_html_raw(h, "</table>\n");
}

void upk__rr_agent_line(upk_html *h, json_t *t) {
  json_t *a = json_object_get(t, "agent"), *v;
  size_t i;
  if (!json_is_object(a))
    return;
  json_t *loaded = json_object_get(a, "skillLoaded");
  upk_html_raw(h, "<div class=\"muted\">");
  upk_html_text(h, json_is_true(loaded)    ? "skill loaded"
                   : json_is_false(loaded) ? "skill not loaded"
                                           : "skill loading unknown");
  if (upk__rr_str(a, "skillEvidence"))
    upk_html_textf(h, " (%s)", upk__rr_str(a, "skillEvidence"));
  if (json_is_integer(json_object_get(a, "turns")))
    upk_html_textf(h, ", %lld turns", json_integer_value(json_object_get(a, "turns")));
  if (json_array_size(json_object_get(a, "toolCalls"))) {
    upk_html_text(h, "; tools:");
    json_array_foreach(json_object_get(a, "toolCalls"), i, v) upk_html_textf(
        h, "%s %s", i ? "," : "", upk__rr_str(v, "name") ? upk__rr_str(v, "name") : "?");
  }
  if (json_array_size(json_object_get(a, "files"))) {
    upk_html_text(h, "; wrote:");
    json_array_foreach(json_object_get(a, "files"), i, v)
        upk_html_textf(h, "%s %s", i ? "," : "", json_string_value(v));
  }
  if (upk__rr_str(a, "dir")) {
    upk_html_raw(h, "; <code>");
    upk_html_text(h, upk__rr_str(a, "dir"));
    upk_html_raw(h, "</code>");
  }
  upk_html_raw(h, "</div>\n");
}
