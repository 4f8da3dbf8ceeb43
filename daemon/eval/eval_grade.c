/* Statements in words (`expect`, the Agent Skills guide's expectations) judged
 * by a grader model: one completion per statement, from the evidence of the
 * run (the task, the final answer, the files written, the tools called), its
 * verdict and quoted evidence taken into the trial's report. Without a grader
 * such a statement stays skipped, never a pass. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/eval/eval_service_int.h"
#include "daemon/models/models_service.h"
#include "common/xalloc.h"

enum { ANSWER_SHOWN = 24 << 10, GRADE_TOKENS = 1024 };

static const char GRADER_SYSTEM[] =
    "You grade one run of an AI agent against one expectation. Judge only from the evidence "
    "shown: the task, the agent's final answer, the files it wrote and the tools it called. A "
    "statement the evidence does not clearly support fails. Answer with one JSON object and "
    "nothing else: {\"passed\": true or false, \"evidence\": \"the quote or fact that decides "
    "it\"}.";

struct gslot {
  eval_trial *trial;
  size_t idx; /* the assertion in the trial's report */
  upk_completion *comp;
};

static void append(char **buf, const char *fmt, const char *a, const char *b) {
  char *next = *buf ? upk_xasprintf(fmt, *buf, a, b ? b : "") : NULL;
  free(*buf);
  *buf = next;
}

/* The evidence a grader sees for one statement. malloc'd; NULL on ENOMEM. */
static char *grader_prompt(const eval_trial *x, const char *statement) {
  const upk_evalcase *c = &x->e->spec.cases->items[x->t.case_idx];
  const upk_agent_result *a = x->t.agent;
  char *p =
      upk_xasprintf("Expectation: %s\n\nThe task given to the agent:\n%s\n\nThe agent's final "
                    "answer:\n%.*s\n",
                    statement, c->input, ANSWER_SHOWN, x->t.answer ? x->t.answer : "(none)");
  for (size_t i = 0; a && i < a->n_files; i++)
    append(&p, "%s\nA file it wrote, %s:\n%s\n", a->files[i],
           a->previews && a->previews[i] ? a->previews[i] : "(not shown: large or binary)");
  for (size_t i = 0; a && i < a->n_tools; i++)
    append(&p, i ? "%s, %s%s" : "%s\nTools it called, in order: %s%s", a->tools[i], NULL);
  return p;
}

/* {"passed": bool, "evidence": "..."}, maybe inside prose or a code fence. */
static upk_assert_status read_verdict(const char *text, char **evidence) {
  const char *open = text ? strchr(text, '{') : NULL, *close = text ? strrchr(text, '}') : NULL;
  json_t *v = open && close > open ? json_loadb(open, (size_t)(close - open + 1), 0, NULL) : NULL;
  json_t *passed = json_object_get(v, "passed");
  const char *ev = json_string_value(json_object_get(v, "evidence"));
  upk_assert_status s = json_is_boolean(passed)
                            ? (json_is_true(passed) ? UPK_ASSERT_PASS : UPK_ASSERT_FAIL)
                            : UPK_ASSERT_ERROR;
  if (s == UPK_ASSERT_ERROR)
    *evidence = upk_xstrdup("the grader's reply was not {\"passed\", \"evidence\"}");
  else
    *evidence = upk_xasprintf("grader: %s", ev && *ev ? ev : "no evidence given");
  json_decref(v);
  return s;
}

static void on_grade(void *arg, const upk_completion_result *r) {
  gslot *g = arg;
  eval_trial *x = g->trial;
  char *why = NULL;
  g->comp = NULL;
  upk_assert_status s;
  if (r->error) {
    s = UPK_ASSERT_ERROR;
    why = upk_xasprintf("the grader failed: %s", r->message);
  } else {
    s = read_verdict(r->answer->text, &why);
    upk_budget_charge(x->e->spec.budget, x->e->spec.grader->name, r->answer->input_tokens,
                      r->answer->output_tokens, -1, -1);
  }
  upk_assert_report_decide(&x->t.report, g->idx, s, why);
  free(why);
  if (x->submitting || !upk_assert_report_done(&x->t.report))
    return;
  upk__eval_trial_finished(x);
  upk__eval_pump(x->e);
}

static int ask(eval_trial *x, gslot *g, const char *statement) {
  upk_eval *e = x->e;
  char *prompt = grader_prompt(x, statement), err[256];
  json_t *msgs = prompt ? json_pack("[{s:s,s:s}]", "role", "user", "content", prompt) : NULL;
  upk_chat chat = {GRADER_SYSTEM, msgs, GRADE_TOKENS, 0};
  upk_models *models = upk_models_get(e->server);
  int rc = msgs && models ? upk_complete(models, e->spec.grader, &chat, &e->spec.policy, on_grade,
                                         NULL, g, &g->comp, err, sizeof err)
                          : -ENOMEM;
  json_decref(msgs);
  free(prompt);
  return rc;
}

void upk__eval_grade(eval_trial *x) {
  const upk_evalcase *c = &x->e->spec.cases->items[x->t.case_idx];
  upk_assert_report *r = &x->t.report;
  size_t n = 0;
  for (size_t i = 0; i < r->n && i < c->n_asserts; i++)
    n += r->results[i].kind == UPK_ASSERT_EXPECT;
  if (!n)
    return;
  if (!x->e->spec.grader) {
    for (size_t i = 0; i < r->n; i++)
      if (r->results[i].kind == UPK_ASSERT_EXPECT)
        upk_assert_report_decide(r, i, UPK_ASSERT_SKIPPED,
                                 "a statement in words needs a grader (params.grader or "
                                 "config grader_model)");
    return;
  }
  x->gslots = upk_xcalloc(n, sizeof *x->gslots);
  x->submitting = true;
  for (size_t i = 0; i < r->n && i < c->n_asserts; i++) {
    if (r->results[i].kind != UPK_ASSERT_EXPECT || !c->asserts[i].n_values)
      continue;
    gslot *g = &x->gslots[x->n_gslots++];
    *g = (gslot){x, i, NULL};
    if (!upk_budget_take(x->e->spec.budget)) { /* a grader call is a call (budget.h) */
      upk_assert_report_decide(r, i, UPK_ASSERT_SKIPPED, "not graded: a cost limit was reached");
      continue;
    }
    upk_assert_report_decide(r, i, UPK_ASSERT_PENDING, NULL);
    if (ask(x, g, c->asserts[i].values[0]))
      upk_assert_report_decide(r, i, UPK_ASSERT_ERROR, "the grader could not be asked");
  }
  x->submitting = false;
}

void upk__eval_cancel_grades(eval_trial *x) {
  for (size_t i = 0; i < x->n_gslots; i++) {
    upk_completion_cancel(x->gslots[i].comp);
    x->gslots[i].comp = NULL;
  }
}

/* ---- trials that errored ---- */

enum { REASONS_SHOWN = 3, REASON_CHARS = 160 };

static void count_reason(json_t *reasons, const char *error) {
  char key[REASON_CHARS + 1];
  snprintf(key, sizeof key, "%s", error);
  json_t *r;
  size_t i;
  json_array_foreach(reasons, i, r) {
    if (!strcmp(json_string_value(json_object_get(r, "reason")), key)) {
      json_t *n = json_object_get(r, "count");
      json_integer_set(n, json_integer_value(n) + 1);
      return;
    }
  }
  json_array_append_new(reasons, json_pack("{s:s,s:i}", "reason", key, "count", 1));
}

static int by_count(const void *a, const void *b) {
  json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "count"));
  json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "count"));
  return (y > x) - (y < x);
}

/* The most frequent reasons first, at most REASONS_SHOWN of them. */
static json_t *top_reasons(json_t *reasons) {
  size_t n = json_array_size(reasons);
  json_t **v = upk_xcalloc(n ? n : 1, sizeof *v), *out = json_array();
  for (size_t i = 0; i < n; i++)
    v[i] = json_array_get(reasons, i);
  qsort(v, n, sizeof *v, by_count);
  for (size_t i = 0; i < n && i < REASONS_SHOWN; i++)
    json_array_append(out, v[i]);
  free(v);
  json_decref(reasons);
  return out;
}

json_t *upk__eval_errors_json(const upk_eval *e) {
  json_t *reasons = json_array(), *failed = json_array();
  size_t errored = 0;
  for (size_t m = 0; m < e->spec.n_models; m++) {
    size_t ran = 0, bad = 0;
    for (size_t i = 0; i < e->n; i++) {
      const upk_eval_trial *t = &e->trials[i].t;
      if (t->not_run || t->model != &e->spec.models[m])
        continue;
      ran++;
      if (t->error) {
        bad++;
        count_reason(reasons, t->error);
      }
    }
    errored += bad;
    if (ran && bad == ran)
      json_array_append_new(failed, json_string(e->spec.models[m].name));
  }
  return json_pack("{s:I,s:o,s:o}", "trials", (json_int_t)errored, "reasons", top_reasons(reasons),
                   "failedModels", failed);
}
