/* report/: the HTML writer (escaping, cutting, structure), the SVG charts (marks, error bars,
 * stable bytes), the kernel report and upk_run_report's errors. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "report/chart.h"
#include "report/html.h"
#include "report/report.h"
#include "skills/eval/runs.h"

static char *render(void (*fn)(upk_html *, const void *), const void *arg) {
  upk_html h;
  cr_assert_eq(upk_html_init(&h), 0);
  fn(&h, arg);
  size_t len = 0;
  char *out = upk_html_take(&h, &len);
  cr_assert_not_null(out);
  cr_assert_eq(strlen(out), len);
  return out;
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

static void text_fn(upk_html *h, const void *arg) {
  upk_html_text(h, arg);
}

UTest(html, escapes_markup_quotes_and_controls) {
  char *s = render(text_fn, "<b a=\"1\" c='2'>&amp;</b>\x01\x7f\ttab\nline");
  cr_assert_str_eq(
      s, "&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;amp;&lt;/b&gt;\xEF\xBF\xBD\xEF\xBF\xBD"
         "\ttab\nline");
  free(s);
  s = render(text_fn, NULL);
  cr_assert_str_eq(s, "", "NULL writes nothing");
  free(s);
}

static void cut_fn(upk_html *h, const void *arg) {
  upk_html_text_n(h, arg, 4);
}

UTest(html, cuts_on_a_utf8_boundary_with_an_ellipsis) {
  char *s = render(cut_fn, "ab\xC3\xA9\xC3\xA9"); /* "abéé": byte 4 is inside the second é */
  cr_assert_str_eq(s, "ab\xC3\xA9\xE2\x80\xA6");
  free(s);
  s = render(cut_fn, "a<c");
  cr_assert_str_eq(s, "a&lt;c", "short text is whole");
  free(s);
  s = render(cut_fn, "abc\xE2\x82\xAC"); /* cut inside the euro sign: back to "abc" */
  cr_assert_str_eq(s, "abc\xE2\x80\xA6");
  free(s);
}

static void doc_fn(upk_html *h, const void *arg) {
  upk_html_begin(h, arg);
  upk_html_textf(h, "%s & %d", "<x>", 3);
  upk_html_elem(h, "p", "muted", "a\"b");
  upk_html_end(h);
}

UTest(html, a_document_is_self_contained) {
  char *s = render(doc_fn, "Run <1> & \"2\"");
  cr_assert(!strncmp(s, "<!doctype html>\n<html lang=\"en\">", 32));
  cr_assert_not_null(strstr(s, "<title>Run &lt;1&gt; &amp; &quot;2&quot;</title>"));
  cr_assert_not_null(strstr(s, "<h1>Run &lt;1&gt; &amp; &quot;2&quot;</h1>"));
  cr_assert_not_null(strstr(s, "&lt;x&gt; &amp; 3"));
  cr_assert_not_null(strstr(s, "<p class=\"muted\">a&quot;b</p>"));
  cr_assert_not_null(strstr(s, "@media print"));
  cr_assert_null(strstr(s, "<script"));
  cr_assert_null(strstr(s, "url("));
  cr_assert_str_eq(s + strlen(s) - 16, "</body>\n</html>\n");
  free(s);
}

UTest(html, percent_and_slug) {
  char b[16];
  upk_fmt_pct(b, sizeof b, -0.001, true);
  cr_assert_str_eq(b, "0%", "no -0%%");
  upk_fmt_pct(b, sizeof b, 0.333, true);
  cr_assert_str_eq(b, "+33%");
  upk_fmt_pct(b, sizeof b, NAN, false);
  cr_assert_str_eq(b, "-");
  char slug[32];
  upk_slug("  With the Skill / B!", slug, sizeof slug);
  cr_assert_str_eq(slug, "with-the-skill-b");
}

/* ---- charts ---- */

static const upk_bar_group groups[] = {
    {"model \"a\" <x>", {{0.5, 0.3, 0.7, "5/10"}, {1, 0.7, 1, NULL}}, false},
    {"b", {{NAN, NAN, NAN, NULL}, {0.25, NAN, NAN, NULL}}, true},
};

static void bars_fn(upk_html *h, const void *arg) {
  const upk_bar_chart *c = arg;
  upk_chart_bars(h, c);
}

UTest(chart, bars_error_bars_and_escaped_names) {
  upk_bar_chart c = {.id = "pass-rate",
                     .title = "t<1>",
                     .series = {"without", "with"},
                     .n_series = 2,
                     .groups = groups,
                     .n_groups = 2,
                     .min = 0,
                     .max = 1,
                     .percent = true,
                     .mark_label = "kept"};
  char *s = render(bars_fn, &c);
  cr_assert_eq(count(s, "<g class=\"group\""), 2);
  cr_assert_eq(count(s, "<rect class=\"bar "), 3, "a NaN value draws no bar");
  cr_assert_eq(count(s, "<g class=\"errbar\""), 2, "only finite intervals");
  cr_assert_not_null(strstr(s, "data-group=\"model &quot;a&quot; &lt;x&gt;\""));
  cr_assert_not_null(strstr(s, "<title>t&lt;1&gt;</title>"));
  cr_assert_not_null(strstr(s, "50% [30%, 70%] 5/10"));
  cr_assert_eq(count(s, "data-marked=\"true\""), 1);
  cr_assert_eq(count(s, "<rect class=\"kept\""), 1);
  cr_assert_not_null(strstr(s, "\xE2\x98\x85 kept"));
  /* Bar widths: the plot is 360 units wide; 1.0 fills it, 0.5 half. */
  cr_assert_not_null(strstr(s, "data-value=\"1.0000\" x=\"210.0\" y=\"47.0\" width=\"360.0\""));
  cr_assert_not_null(strstr(s, "data-value=\"0.5000\" x=\"210.0\" y=\"30.0\" width=\"180.0\""));
  char *again = render(bars_fn, &c);
  cr_assert_str_eq(s, again, "the same data, the same bytes");
  free(again);
  free(s);
}

UTest(chart, negative_values_grow_left_of_zero) {
  upk_bar_group g = {"m", {{-0.5, -0.75, 0.25, NULL}}, false};
  upk_bar_chart c = {.id = "lift",
                     .title = "lift",
                     .series = {"lift"},
                     .n_series = 1,
                     .groups = &g,
                     .n_groups = 1,
                     .min = -1,
                     .max = 1,
                     .percent = true};
  char *s = render(bars_fn, &c);
  cr_assert_not_null(strstr(s, "data-value=\"-0.5000\" x=\"300.0\" y=\"30.0\" width=\"90.0\""),
                     "%s", s);
  cr_assert_not_null(strstr(s, "<line class=\"zero\""));
  cr_assert_not_null(strstr(s, "-50% [-75%, +25%]"));
  free(s);
}

static void cols_fn(upk_html *h, const void *arg) {
  upk_chart_columns(h, arg);
}

UTest(chart, columns_mark_one_point) {
  upk_column cols[] = {{32, 50, "blocks"}, {64, 100, "warps"}, {96, 75, "shared memory"}};
  upk_column_chart c = {.id = "occupancy-0",
                        .title = "occ",
                        .x_label = "threads",
                        .y_label = "%",
                        .cols = cols,
                        .n = 3,
                        .max = 100,
                        .mark_x = 96,
                        .mark_label = "block 96 <smem>"};
  char *s = render(cols_fn, &c);
  cr_assert_eq(count(s, "<rect class=\"col "), 3);
  cr_assert_not_null(strstr(s, "class=\"col shared-memory\" data-x=\"96\""));
  cr_assert_eq(count(s, "<g class=\"marked\" data-x=\"96\">"), 1);
  cr_assert_not_null(strstr(s, "block 96 &lt;smem&gt;"));
  free(s);
}

/* ---- kernel report ---- */

UTest(kernel_report, table_charts_and_timing) {
  upk_kr_occ by[] = {{128, 100, "warps"}, {256, 75, "registers"}};
  upk_kr_kernel k[] = {
      {"k<T>", 40, 0, 0, 0, 0, 0, {256, 75, "registers"}, true, by, 2},
      {"plain", 16, 1, 2, 0, 0, 0, {128, 100, "warps"}, false, NULL, 0},
  };
  upk_kernel_report r = {
      .file = "a&b.cu", .arch = "sm_90a", .kernels = k, .n_kernels = 2, .run = {.speedup = NAN}};
  char *html = NULL;
  size_t len = 0;
  cr_assert_eq(upk_kernel_report_html(&r, &html, &len), 0);
  cr_assert_eq(strlen(html), len);
  cr_assert_eq(count(html, "<tr class=\"kernel\">"), 2);
  cr_assert_eq(count(html, "data-chart=\"occupancy-"), 1, "kernels with a sweep get a chart");
  cr_assert_not_null(strstr(html, "<code>k&lt;T&gt;</code>"));
  cr_assert_not_null(strstr(html, "Kernel check: a&amp;b.cu"));
  cr_assert_null(strstr(html, "data-chart=\"timing\""), "no run, no timing");
  free(html);
  /* Figures handed in as a GPU run would report them. */
  r.run = (upk_kr_run){.present = true,
                       .ok = true,
                       .trials = 3,
                       .device = "GPU (sm_90)",
                       .kernel = {0.5, 0.4, 0.7, 0.1, 20},
                       .reference = {1.0, 0.9, 1.2, 0.1, 20},
                       .speedup = 2.0};
  cr_assert_eq(upk_kernel_report_html(&r, &html, &len), 0);
  cr_assert_eq(count(html, "data-chart=\"timing\""), 1);
  cr_assert_eq(count(html, "<g class=\"errbar\""), 2, "min..max of the timed iterations");
  cr_assert_not_null(strstr(html, "speedup over the reference: 2.00x"));
  free(html);
}

/* 213 instantiations of reduce<...> read as one row and one chart: the largest figures, the
 * lowest occupancy, each instance listed when the reader opens the row. */
UTest(kernel_report, a_templates_instances_fold_into_one_row) {
  upk_kr_occ by[] = {{128, 100, "warps"}, {256, 50, "registers"}};
  upk_kr_kernel k[] = {
      {"void reduce<float, 256u>", 30, 0, 0, 0, 1024, 0, {256, 75, "registers"}, false, by, 2},
      {"plain", 16, 1, 2, 0, 0, 0, {128, 100, "warps"}, false, by, 2},
      {"void reduce<double, 512u>", 48, 4, 4, 0, 2048, 0, {256, 50, "registers"}, false, by, 2},
      {"void reduce<int, 64u>", 20, 0, 0, 0, 256, 0, {256, 100, "warps"}, false, by, 2},
  };
  upk_kernel_report r = {.file = "r.cu", .kernels = k, .n_kernels = 4, .run = {.speedup = NAN}};
  char *html = NULL;
  size_t len = 0;
  cr_assert_eq(upk_kernel_report_html(&r, &html, &len), 0);
  cr_assert_eq(count(html, "<tr class=\"kernel"), 2, "%s", html);
  cr_assert_eq(count(html, "<details>"), 1);
  cr_assert_not_null(strstr(html, "reduce&lt;...&gt;</code> (3 instantiations"), "%s", html);
  cr_assert_eq(count(html, "<li><code>void reduce&lt;"), 3, "each instance listed");
  cr_assert_not_null(strstr(html, "<td class=\"num\">48</td><td class=\"num\">4 / 4</td>"),
                     "the largest figures: %s", html);
  cr_assert_eq(count(html, "data-chart=\"occupancy-"), 2, "one chart per row");
  cr_assert_not_null(strstr(html, "Occupancy of void reduce&lt;double, 512u&gt;"),
                     "the template's chart is its worst instance's");
  free(html);
}

/* ---- run report errors ---- */

UTest(run_report, bad_missing_and_unfinished_runs) {
  char dir[] = "/tmp/upk-report-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char *html = NULL;
  size_t len;
  cr_assert_eq(upk_run_report(dir, "../x", NULL, &html, &len), -EINVAL);
  cr_assert_eq(upk_run_report(dir, "20200101T000000Z-00000000", NULL, &html, &len), -ENOENT);
  const char *models[] = {"m"};
  upk_run_meta meta = {"eval", "s", models, 1, 1, true, 1};
  upk_run run;
  cr_assert_eq(upk_run_create(dir, &meta, &run), 0);
  cr_assert_eq(upk_run_report(dir, run.id, NULL, &html, &len), -ENODATA, "no summary yet");
  cr_assert_eq(upk_run_write_summary(&run, "{\"models\": []}"), 0);
  cr_assert_eq(upk_run_report(dir, run.id, NULL, &html, &len), 0);
  cr_assert_not_null(strstr(html, "<h1>Evaluation: s</h1>"));
  free(html);
  cr_assert_eq(upk_run_report(dir, run.id, "nope", &html, &len), -EINVAL);
  cr_assert_null(html);
  char *cmd = NULL;
  cr_assert(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
  cr_assert_eq(system(cmd), 0);
  free(cmd);
  upk_run_free(&run);
}

/* pass@k table from a summary.json that was tampered with or is older than pass@k: names are
 * text, anything but a number is "-", a short baseline array leaves "-", no passAtK no table. */
UTest(run_report, pass_k_table_from_odd_summaries) {
  char dir[] = "/tmp/upk-report-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  const char *models[] = {"m"};
  upk_run_meta meta = {"eval", "s", models, 1, 3, true, 1};
  upk_run run;
  char *html = NULL;
  size_t len;
  cr_assert_eq(upk_run_create(dir, &meta, &run), 0);
  cr_assert_eq(upk_run_write_summary(
                   &run, "{\"models\": [{\"model\": \"<script>m</script>\", "
                         "\"skill\": {\"passAtK\": [0.5, \"x\", {\"a\": 1}], \"passHatK\": [0.25]},"
                         " \"baseline\": {\"passAtK\": [0.125], \"passHatK\": null}}]}"),
               0);
  cr_assert_eq(upk_run_report(dir, run.id, NULL, &html, &len), 0);
  const char *t = strstr(html, "<table class=\"figures\" id=\"pass-k\">");
  cr_assert_not_null(t, "%s", html);
  cr_assert_null(strstr(html, "<script>"), "a model name is text");
  cr_assert_not_null(strstr(t, "<td>&lt;script&gt;m&lt;/script&gt;</td><td>with the skill</td>"
                               "<td>pass@k</td><td class=\"num\">50%</td><td class=\"num\">-</td>"
                               "<td class=\"num\">-</td></tr>"));
  cr_assert_not_null(strstr(t, "<td>pass^k</td><td class=\"num\">25%</td><td class=\"num\">-</td>"
                               "<td class=\"num\">-</td></tr>"));
  cr_assert_not_null(strstr(t, "<td>without the skill</td><td>pass@k</td><td class=\"num\">13%"
                               "</td><td class=\"num\">-</td><td class=\"num\">-</td></tr>"));
  free(html);
  upk_run_free(&run);
  /* a summary from before pass@k */
  cr_assert_eq(upk_run_create(dir, &meta, &run), 0);
  cr_assert_eq(upk_run_write_summary(&run, "{\"models\": [{\"model\": \"m\", \"skill\": {}}]}"), 0);
  cr_assert_eq(upk_run_report(dir, run.id, NULL, &html, &len), 0);
  cr_assert_null(strstr(html, "id=\"pass-k\""));
  free(html);
  upk_run_free(&run);
  char *cmd = NULL;
  cr_assert(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
  cr_assert_eq(system(cmd), 0);
  free(cmd);
}
