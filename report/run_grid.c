/* The case x model grid of a run report: one cell per case and model,
 * coloured by the with-skill verdicts, opening every trial's transcript in a
 * folded <details>. With a second run, each cell shows A and B. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"

enum { PROMPT_SHOWN = 120, ANSWER_MAX = 16000 };

static bool same(const char *a, const char *b) {
  return a && b && !strcmp(a, b);
}

/* Why case c of the tests file was refused before it ran, or NULL. */
static const char *refused_reason(const upk__rr_run *r, size_t c) {
  json_t *x;
  size_t i;
  json_array_foreach(json_object_get(r->summary, "refusedCases"), i, x) {
    if ((size_t)json_integer_value(json_object_get(x, "case")) == c)
      return upk__rr_str(x, "reason");
  }
  return NULL;
}

/* The largest case index among the transcripts and the refused cases, + 1. */
static size_t case_count(const upk__rr_run *r) {
  json_t *t;
  size_t i, n = (size_t)json_integer_value(json_object_get(r->meta, "cases"));
  json_array_foreach(r->transcripts, i, t) {
    size_t c = (size_t)json_integer_value(json_object_get(t, "case")) + 1;
    n = c > n ? c : n;
  }
  json_array_foreach(json_object_get(r->summary, "refusedCases"), i, t) {
    size_t c = (size_t)json_integer_value(json_object_get(t, "case")) + 1;
    n = c > n ? c : n;
  }
  return n;
}

/* A case refused before it ran: an error row across the models, with why. */
static void refused_row(upk_html *h, size_t c, size_t n_models, const char *why) {
  upk_html_rawf(h,
                "<tr data-case=\"%zu\"><th class=\"case\">%zu.</th><td class=\"cell error\" "
                "colspan=\"%zu\">refused, not run: ",
                c, c + 1, n_models ? n_models : 1);
  upk_html_text(h, why);
  upk_html_raw(h, "</td></tr>\n");
}

/* Cases that have a transcript (generation subsets leave gaps). */
static bool case_seen(const upk__rr_run *r, size_t c) {
  json_t *t;
  size_t i;
  json_array_foreach(r->transcripts, i, t) if ((size_t)json_integer_value(
                                                   json_object_get(t, "case")) == c) return true;
  return !json_array_size(r->transcripts);
}

static const char *case_prompt(const upk__rr_run *r, size_t c) {
  json_t *t;
  size_t i;
  json_array_foreach(r->transcripts, i,
                     t) if ((size_t)json_integer_value(json_object_get(t, "case")) ==
                            c) return upk__rr_str(t, "prompt");
  return NULL;
}

typedef struct {
  size_t pass, fail, error, other;
} tally;

/* The cell's class from its with-skill trials. */
static const char *cell_class(const tally *t) {
  size_t n = t->pass + t->fail + t->error;
  if (!n)
    return t->other ? "skipped" : "none";
  if (t->pass == n)
    return "pass";
  if (!t->pass)
    return t->error == n ? "error" : "fail";
  return "mixed";
}

static void chip(upk_html *h, json_t *t) {
  const char *v = upk__rr_str(t, "verdict") ? upk__rr_str(t, "verdict") : "error";
  bool skill = same(upk__rr_str(t, "condition"), "with_skill");
  upk_html_raw(h, "<span class=\"chip ");
  upk_html_text(h, v);
  upk_html_rawf(
      h, "\" data-condition=\"%s\" title=\"%s, run %lld: ", skill ? "with_skill" : "baseline",
      skill ? "with the skill" : "without", json_integer_value(json_object_get(t, "run")) + 1);
  upk_html_text(h, v);
  upk_html_rawf(h, "\">%s</span>", skill ? "S" : "B");
}

static void assertions(upk_html *h, json_t *t) {
  json_t *a;
  size_t i;
  if (!json_array_size(json_object_get(t, "assertions")))
    return;
  upk_html_raw(h, "<ul class=\"assertions\">");
  json_array_foreach(json_object_get(t, "assertions"), i, a) {
    upk_html_raw(h, "<li><span class=\"chip ");
    upk_html_text(h, upk__rr_str(a, "status"));
    upk_html_raw(h, "\">");
    upk_html_text(h, upk__rr_str(a, "status"));
    upk_html_raw(h, "</span> ");
    upk_html_text(h, upk__rr_str(a, "type"));
    if (upk__rr_str(a, "label")) {
      upk_html_raw(h, " <code>");
      upk_html_text_n(h, upk__rr_str(a, "label"), 200);
      upk_html_raw(h, "</code>");
    }
    if (upk__rr_str(a, "reason")) {
      upk_html_raw(h, " <span class=\"muted\">");
      upk_html_text_n(h, upk__rr_str(a, "reason"), 400);
      upk_html_raw(h, "</span>");
    }
    upk_html_raw(h, "</li>");
  }
  upk_html_raw(h, "</ul>\n");
}

static void transcript(upk_html *h, json_t *t, const char *run_label) {
  json_t *tok = json_object_get(t, "tokens");
  bool skill = same(upk__rr_str(t, "condition"), "with_skill");
  upk_html_raw(h, "<div class=\"transcript\"><b>");
  if (run_label)
    upk_html_textf(h, "%s: ", run_label);
  upk_html_textf(h, "%s, run %lld: %s", skill ? "with the skill" : "without the skill",
                 json_integer_value(json_object_get(t, "run")) + 1,
                 upk__rr_str(t, "verdict") ? upk__rr_str(t, "verdict") : "-");
  upk_html_raw(h, "</b> <span class=\"muted\">");
  upk_html_textf(h, "%lld/%lld assertions, %lld in / %lld out tokens, %.0f ms",
                 json_integer_value(json_object_get(t, "assertionsPassed")),
                 json_integer_value(json_object_get(t, "assertionsTotal")),
                 json_integer_value(json_object_get(tok, "input")),
                 json_integer_value(json_object_get(tok, "output")), upk__rr_num(t, "durationMs"));
  upk_html_raw(h, "</span>\n");
  upk__rr_agent_line(h, t);
  assertions(h, t);
  if (upk__rr_str(t, "error")) {
    upk_html_raw(h, "<pre class=\"error\">");
    upk_html_text_n(h, upk__rr_str(t, "error"), ANSWER_MAX);
    upk_html_raw(h, "</pre>\n");
  }
  if (upk__rr_str(t, "answer")) {
    upk_html_raw(h, "<pre class=\"answer\">");
    upk_html_text_n(h, upk__rr_str(t, "answer"), ANSWER_MAX);
    upk_html_raw(h, "</pre>\n");
  }
  upk_html_raw(h, "</div>\n");
}

/* The trials of one case and model in run r: chips into the summary when
 * `chips`, transcripts otherwise; counts the with-skill verdicts. */
static void trials(upk_html *h, const upk__rr_run *r, size_t c, const char *model, bool chips,
                   const char *run_label, tally *tl) {
  json_t *t;
  size_t i;
  json_array_foreach(r->transcripts, i, t) {
    if ((size_t)json_integer_value(json_object_get(t, "case")) != c ||
        !same(upk__rr_str(t, "model"), model))
      continue;
    if (!chips) {
      transcript(h, t, run_label);
      continue;
    }
    chip(h, t);
    if (tl && same(upk__rr_str(t, "condition"), "with_skill")) {
      const char *v = upk__rr_str(t, "verdict");
      size_t *slot = same(v, "pass")    ? &tl->pass
                     : same(v, "fail")  ? &tl->fail
                     : same(v, "error") ? &tl->error
                                        : &tl->other;
      (*slot)++;
    }
  }
}

static void cell(upk_html *h, const upk__rr_run *a, const upk__rr_run *b, size_t c,
                 const char *model) {
  upk_html h_sum;
  tally ta = {0}, tb = {0};
  upk_html_init(&h_sum);
  if (b)
    upk_html_raw(&h_sum, "A ");
  trials(&h_sum, a, c, model, true, NULL, &ta);
  if (b) {
    upk_html_raw(&h_sum, " \xE2\x86\x92 B ");
    trials(&h_sum, b, c, model, true, NULL, &tb);
  }
  char *sum = upk_html_take(&h_sum, NULL);
  if (!sum) {
    h->oom = true;
    return;
  }
  upk_html_rawf(h, "<td class=\"cell %s\" data-case=\"%zu\" data-model=\"",
                cell_class(b ? &tb : &ta), c);
  upk_html_text(h, model);
  upk_html_rawf(h, "\"><details><summary>%s</summary>\n", sum);
  free(sum);
  trials(h, a, c, model, false, b ? "A" : NULL, NULL);
  if (b)
    trials(h, b, c, model, false, "B", NULL);
  upk_html_raw(h, "</details></td>\n");
}

void upk__rr_grid(upk_html *h, const upk__rr_run *a, const upk__rr_run *b) {
  json_t *models = upk__rr_models(a), *m;
  size_t i, n = case_count(a);
  upk_html_elem(h, "h2", NULL, "Cases \xC3\x97 models");
  upk_html_raw(h, "<p class=\"muted\">A cell is coloured by the with-skill verdicts of its trials "
                  "(green: all pass, red: none, yellow: some); S and B are the trials with and "
                  "without the skill. Open a cell for its transcripts.</p>\n");
  upk_html_raw(h, "<table class=\"grid\">\n<tr><th>case</th>");
  json_array_foreach(models, i, m) {
    upk_html_raw(h, "<th class=\"model\">");
    upk_html_text(h, json_string_value(m));
    upk_html_raw(h, "</th>");
  }
  upk_html_raw(h, "</tr>\n");
  for (size_t c = 0; c < n; c++) {
    if (refused_reason(a, c)) {
      refused_row(h, c, json_array_size(models), refused_reason(a, c));
      continue;
    }
    if (!case_seen(a, c))
      continue;
    upk_html_rawf(h, "<tr data-case=\"%zu\"><th class=\"case\">%zu. <span class=\"muted\">", c,
                  c + 1);
    upk_html_text_n(h, case_prompt(a, c), PROMPT_SHOWN);
    upk_html_raw(h, "</span></th>\n");
    json_array_foreach(models, i, m) cell(h, a, b, c, json_string_value(m));
    upk_html_raw(h, "</tr>\n");
  }
  upk_html_raw(h, "</table>\n");
  json_decref(models);
}
