/* An evaluation written in the Agent Skills layout (eval_service.h,
 * upk_eval_write_layout): each trial becomes one skill-creator run, so the
 * published viewer and aggregate_benchmark.py read upskilld's runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/eval/eval_service.h"
#include "common/xalloc.h"

/* What one run holds that the trial does not: strings and arrays made here. */
typedef struct run_extra {
  upk_as_expectation *expects;
  char **evidence, **texts; /* owned copies: the cases and statements are the caller's */
  size_t n_expects;
  char *prompt;
  const char **tool_names;
  unsigned *tool_counts;
  char *name, *workspace, *transcript;
  char started[32], ended[32];
} run_extra;

static void iso(double t, char *buf, size_t len) {
  time_t s = (time_t)t;
  struct tm tm;
  if (t <= 0 || !gmtime_r(&s, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
    snprintf(buf, len, "%s", "");
}

/* Each distinct tool with how often it was called, in first-call order. */
static int count_tools(const upk_agent_result *a, run_extra *x, size_t *n) {
  *n = 0;
  if (!a || !a->n_tools)
    return 0;
  x->tool_names = upk_xcalloc(a->n_tools, sizeof *x->tool_names);
  x->tool_counts = upk_xcalloc(a->n_tools, sizeof *x->tool_counts);
  for (size_t i = 0; i < a->n_tools; i++) {
    size_t k = 0;
    while (k < *n && strcmp(x->tool_names[k], a->tools[i]))
      k++;
    if (k == *n)
      x->tool_names[(*n)++] = a->tools[i];
    x->tool_counts[k]++;
  }
  return 0;
}

/* The assertions as expectations: skill-creator's {text, passed, evidence}. */
static int expectations(const upk_eval_trial *t, const upk_as_eval *info, run_extra *x) {
  const upk_assert_report *r = &t->report;
  if (!r->n)
    return 0;
  x->expects = upk_xcalloc(r->n, sizeof *x->expects);
  x->evidence = upk_xcalloc(r->n, sizeof *x->evidence);
  x->texts = upk_xcalloc(r->n, sizeof *x->texts);
  x->n_expects = r->n;
  for (size_t i = 0; i < r->n; i++) {
    const upk_assert_result *a = &r->results[i];
    const char *source = info && i < info->n_sources ? info->sources[i] : NULL;
    const char *why = a->reason ? a->reason : upk_assert_status_name(a->status);
    x->evidence[i] = upk_xasprintf("%s: %s", upk_assert_status_name(a->status), why);
    x->texts[i] = upk_xstrdup(source ? source : a->label);
    x->expects[i] = (upk_as_expectation){x->texts[i], a->status == UPK_ASSERT_PASS, x->evidence[i]};
  }
  return 0;
}

static int fill(const upk_eval_layout *l, const upk_eval_trial *t, upk_as_run *run, run_extra *x) {
  const upk_as_eval *info =
      l->evals && t->case_idx < l->evals->n ? &l->evals->items[t->case_idx] : NULL;
  const upk_agent_result *a = t->agent;
  size_t n_tools = 0;
  size_t number = upk_evalcases_number(l->cases, t->case_idx); /* as the tests file has it */
  x->name = info ? upk_xstrdup(info->name) : upk_xasprintf("case-%zu", number + 1);
  x->prompt = upk_xstrdup(l->cases->items[t->case_idx].input);
  int rc = expectations(t, info, x);
  if (!rc)
    rc = count_tools(a, x, &n_tools);
  iso(t->started_at, x->started, sizeof x->started);
  iso(t->started_at + t->duration_ms / 1000, x->ended, sizeof x->ended);
  *run = (upk_as_run){.eval_id = info ? info->id : (int)number + 1,
                      .eval_name = info ? x->name : NULL, /* the directory is then plain eval-<n> */
                      .prompt = x->prompt,
                      .configuration = t->with_skill  ? "with_skill"
                                       : l->old_skill ? "old_skill"
                                                      : "without_skill",
                      .run_number = t->run + 1,
                      .model = t->model->name,
                      .expectations = x->expects,
                      .n_expectations = x->expects ? t->report.n : 0,
                      .answer = t->answer,
                      .input_tokens = t->input_tokens,
                      .output_tokens = t->output_tokens,
                      .turns = a ? a->turns : -1,
                      .cost_usd = a ? a->cost_usd : -1,
                      .duration_ms = t->duration_ms,
                      .started_at = x->started,
                      .ended_at = x->ended,
                      .tool_names = x->tool_names,
                      .tool_counts = x->tool_counts,
                      .n_tools = n_tools,
                      .files_created = a ? (const char *const *)a->files : NULL,
                      .n_files_created = a ? a->n_files : 0,
                      .skill_loaded = a ? a->skill_loaded : -1,
                      .error = t->error};
  return rc;
}

static void extra_free(run_extra *x) {
  for (size_t i = 0; i < x->n_expects; i++) {
    free(x->evidence[i]);
    free(x->texts[i]);
  }
  free(x->evidence);
  free(x->texts);
  free(x->prompt);
  free(x->expects);
  free(x->tool_names);
  free(x->tool_counts);
  free(x->name);
  free(x->workspace);
  free(x->transcript);
}

struct upk_eval_layout_plan {
  upk_as_run *runs;
  run_extra *extra;
  size_t n;
  char *skill_name, *skill_path;
};

void upk_eval_layout_free(upk_eval_layout_plan *p) {
  for (size_t i = 0; p && p->extra && i < p->n; i++)
    extra_free(&p->extra[i]);
  if (p) {
    free(p->runs);
    free(p->extra);
    free(p->skill_name);
    free(p->skill_path);
  }
  free(p);
}

upk_eval_layout_plan *upk_eval_layout_plan_new(const upk_eval_layout *l, const upk_eval_trial *ts,
                                               size_t n) {
  upk_eval_layout_plan *p = upk_xcalloc(1, sizeof *p);
  p->n = n;
  p->runs = upk_xcalloc(n ? n : 1, sizeof *p->runs);
  p->extra = upk_xcalloc(n ? n : 1, sizeof *p->extra);
  p->skill_name = upk_xstrdup(l->skill_name ? l->skill_name : "skill");
  p->skill_path = l->skill_path ? upk_xstrdup(l->skill_path) : NULL;
  int rc = 0;
  for (size_t i = 0; !rc && i < n; i++)
    rc = fill(l, &ts[i], &p->runs[i], &p->extra[i]);
  if (rc) {
    upk_eval_layout_free(p);
    return NULL;
  }
  return p;
}

int upk_eval_layout_set_dir(upk_eval_layout_plan *p, size_t i, const char *agent_dir) {
  run_extra *x = &p->extra[i];
  free(x->workspace);
  free(x->transcript);
  x->workspace = x->transcript = NULL;
  if (agent_dir) {
    x->workspace = upk_xasprintf("%s/workspace", agent_dir);
    x->transcript = upk_xasprintf("%s/stdout.jsonl", agent_dir);
  }
  p->runs[i].workspace = x->workspace;
  p->runs[i].transcript_path = x->transcript;
  return 0;
}

int upk_eval_layout_write(const upk_eval_layout_plan *p, const char *dir, char *err,
                          size_t errlen) {
  return upk_agentskills_write(dir, p->skill_name, p->skill_path, p->runs, p->n, err, errlen);
}
