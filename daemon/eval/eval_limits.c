/* Cost limits and dry runs of skills/eval and skills/generate (eval_methods_int.h): the params
 * maxCalls, maxCostUsd and dryRun are read and checked before anything runs, and a dry run
 * answers the plan: trials, calls, estimated tokens and cost, per model. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/eval/eval_methods_int.h"
#include "common/xalloc.h"

/* Tokens estimated for an answer when maxTokens is not given; a grader's verdict is short. */
enum {
  OUTPUT_ESTIMATE = 1024,
  GRADER_OUTPUT_ESTIMATE = 256,
  GRADER_OVERHEAD = 2048,
  TEACHER_OUTPUT_ESTIMATE = 4000,
  TEACHER_PROMPT_ESTIMATE = 3000
};

/* An agent whose output carries its own cost (Claude Code's total_cost_usd) needs no price. */
static bool reports_cost(const upk_agent_def *d) {
  return d && d->name && d->format == UPK_AGENT_OUT_CLAUDE;
}

static int need_price(ecall *c, const char *model) {
  upk_price p;
  if (upk_budget_price(c->cfg.prices, model, &p) == 0)
    return 0;
  return upk__em_fail(c, UPK_RPC_INVALID_PARAMS,
                      "params.maxCostUsd: the model '%s' has no price: set one in the config, e.g. "
                      "prices: {\"%s\": {input: 3.0, output: 15.0}} (USD per million tokens)",
                      model, model);
}

int upk__em_limits_load(ecall *c, const upk_model *const *extra) {
  json_t *calls = json_object_get(c->params, "maxCalls");
  json_t *cost = json_object_get(c->params, "maxCostUsd");
  c->dry_run = json_is_true(json_object_get(c->params, "dryRun"));
  c->budget.prices = c->cfg.prices;
  if (upk__em_ready(c, extra))
    return -1;
  if (calls && json_integer_value(calls) <= 0)
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.maxCalls must be > 0, got %lld",
                        (long long)json_integer_value(calls));
  if (cost && !(json_number_value(cost) > 0))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.maxCostUsd must be > 0, got %g",
                        json_number_value(cost));
  c->budget.max_calls = calls ? (long)json_integer_value(calls) : 0;
  c->budget.max_cost_usd = cost ? json_number_value(cost) : 0;
  if (!cost)
    return 0;
  /* Every model that would be called must have a price, or the limit could not hold. */
  for (size_t i = 0; i < c->n_models; i++)
    if (!reports_cost(&c->agents[i]) && need_price(c, c->models[i].name))
      return -1;
  if (c->has_grader && need_price(c, c->grader.name))
    return -1;
  for (size_t i = 0; extra && extra[i]; i++)
    if (need_price(c, extra[i]->name))
      return -1;
  return 0;
}

void upk__em_limits_note(const ecall *c, json_t *r) {
  json_t *b = upk_budget_json(&c->budget), *stopped = upk_budget_stopped_json(&c->budget);
  if (b && json_is_object(r))
    json_object_set_new(r, "limits", b);
  else
    json_decref(b);
  if (stopped && json_is_object(r) && !json_object_get(r, "stopped"))
    json_object_set_new(r, "stopped", stopped);
  else
    json_decref(stopped);
}

/* ---- the plan ---- */

/* One model's share of the plan. */
typedef struct plan_row {
  const char *model;
  long trials, calls;
  double in, out;
} plan_row;

static json_t *row_json(const ecall *c, const plan_row *r, double *total) {
  upk_price p;
  bool priced = upk_budget_price(c->cfg.prices, r->model, &p) == 0;
  double usd = priced ? upk_budget_cost(&p, (long)r->in, (long)r->out, -1) : NAN;
  if (priced)
    *total += usd;
  else
    *total = NAN;
  return json_pack("{s:s,s:I,s:I,s:{s:I,s:I},s:o}", "model", r->model, "trials",
                   (json_int_t)r->trials, "calls", (json_int_t)r->calls, "estimatedTokens", "input",
                   (json_int_t)r->in, "output", (json_int_t)r->out, "estimatedCostUsd",
                   priced ? json_real(usd) : json_null());
}

static json_t *plan_json(const ecall *c, const char *mode, const plan_row *rows, size_t n,
                         long trials) {
  json_t *models = json_array();
  double total = 0, in = 0, out = 0;
  long calls = 0;
  for (size_t i = 0; i < n; i++) {
    if (!rows[i].calls && !rows[i].trials)
      continue;
    json_array_append_new(models, row_json(c, &rows[i], &total));
    calls += rows[i].calls;
    in += rows[i].in;
    out += rows[i].out;
  }
  json_t *p =
      json_pack("{s:s,s:s?,s:I,s:I,s:{s:I,s:I},s:o,s:o}", "mode", mode, "skill", c->skill_name,
                "trials", (json_int_t)trials, "calls", (json_int_t)calls, "estimatedTokens",
                "input", (json_int_t)in, "output", (json_int_t)out, "estimatedCostUsd",
                isfinite(total) ? json_real(total) : json_null(), "models", models);
  json_t *b = upk_budget_json(&c->budget);
  if (p && b)
    json_object_set_new(p, "limits", b);
  else
    json_decref(b);
  return p;
}

static long out_estimate(const ecall *c) {
  return (long)upk__em_uint(c, "maxTokens", OUTPUT_ESTIMATE);
}

/* Input tokens of every case's prompt once, with the skill and with the baseline's prompt. */
static void prompt_tokens(const ecall *c, const char *skill_md, double *with, double *without,
                          long *expects) {
  char *sys_with = upk_eval_system_prompt(c->skill_name, skill_md);
  char *sys_without = upk_eval_system_prompt(c->skill_name, c->baseline_md);
  double sw = sys_with ? (double)strlen(sys_with) : 0, so = sys_without ? strlen(sys_without) : 0;
  *with = *without = 0;
  *expects = 0;
  for (size_t i = 0; i < c->cases.n; i++) {
    char *prompt = upk_evalcase_prompt(&c->cases.items[i]);
    double u = prompt ? (double)strlen(prompt) : 0;
    *with += (sw + u) / 4;
    *without += (so + u) / 4;
    free(prompt);
    for (size_t k = 0; k < c->cases.items[i].n_asserts; k++)
      *expects += c->cases.items[i].asserts[k].kind == UPK_ASSERT_EXPECT;
  }
  free(sys_with);
  free(sys_without);
}

json_t *upk__em_eval_plan(ecall *c) {
  bool trig = c->trig != NULL;
  unsigned runs = trig ? upk__tr_runs(c) : upk__em_uint(c, "runs", 1);
  bool baseline = !trig && !json_is_false(json_object_get(c->params, "baseline"));
  unsigned iterations = trig ? 1 + upk__tr_optimize(c) : 1; /* at most */
  double with, without;
  long expects, out = out_estimate(c);
  prompt_tokens(c, c->skill_md, &with, &without, &expects);
  plan_row rows[MAX_MODELS + 2] = {{0}};
  long trials = 0;
  size_t n = 0;
  for (size_t m = 0; m < c->n_models; m++, n++) {
    plan_row *r = &rows[n];
    long per = (long)c->cases.n * runs * (baseline ? 2 : 1);
    r->model = c->models[m].name;
    r->trials = r->calls = per * iterations;
    r->in = (with + (baseline ? without : 0)) * runs * iterations;
    r->out = (double)per * out * iterations;
    trials += r->trials;
  }
  if (c->has_grader && expects) { /* one call per statement per trial */
    plan_row *r = &rows[n++];
    long per = expects * (long)runs * (baseline ? 2 : 1) * (long)c->n_models;
    r->model = c->grader.name;
    r->calls = per;
    r->in = (double)per * (GRADER_OVERHEAD + out * 4.0) / 4;
    r->out = (double)per * GRADER_OUTPUT_ESTIMATE;
  }
  if (trig && upk__tr_teacher(c)) { /* one proposal per optimisation step */
    plan_row *r = &rows[n++];
    r->model = upk__tr_teacher(c)->name;
    r->calls = upk__tr_optimize(c);
    r->in = (double)r->calls * (TEACHER_PROMPT_ESTIMATE + (double)strlen(c->skill_md) / 4);
    r->out = (double)r->calls * OUTPUT_ESTIMATE;
  }
  json_t *p = plan_json(c, trig ? "trigger" : "eval", rows, n, trials);
  if (!p)
    return NULL;
  json_object_set_new(p, "cases", json_integer((json_int_t)c->cases.n));
  json_object_set_new(p, "runs", json_integer(runs));
  json_object_set_new(p, "conditions", json_integer(baseline ? 2 : 1));
  json_object_set_new(p, "outputTokensPerCall", json_integer(out));
  if (trig)
    json_object_set_new(p, "iterations", json_integer(iterations));
  /* An evaluation's answer with nothing run, the plan beside it, and the cases of the tests
   * file that are refused already (named before any call, not found out after). */
  json_t *refused = upk_eval_refused_json(&c->cases);
  return json_pack("{s:o*,s:b,s:o,s:s,s:I,s:I,s:i,s:b,s:i,s:f,s:s,s:n,s:[],s:[]}", "refusedCases",
                   refused, "dryRun", 1, "plan", p, "skill", c->skill_name ? c->skill_name : "",
                   "trials", (json_int_t)trials, "cases", (json_int_t)c->cases.n, "runs", (int)runs,
                   "baseline", baseline, "concurrency", (int)upk__em_uint(c, "concurrency", 8),
                   "elapsedMs", 0.0, "runId", "", "runDir", "models", "results");
}

/* skills/generate at most: the teacher writes (and may be sent back), the test writer writes,
 * every attempt is evaluated (the baseline once), then the held-out score. */
json_t *upk__em_gen_plan(ecall *c) {
  unsigned attempts = upk__em_uint(
      c, "attempts", c->cfg.max_refine_attempts > 0 ? (unsigned)c->cfg.max_refine_attempts : 2);
  unsigned tests = upk__em_uint(c, "tests", 6), runs = upk__em_uint(c, "runs", 1), fixes = 2;
  json_t *ho = json_object_get(c->params, "holdout");
  double holdout = ho ? json_number_value(ho) : 0.34;
  long held = (long)floor(tests * holdout), refine = (long)tests - held;
  long teacher = attempts * (1 + fixes), out = OUTPUT_ESTIMATE;
  plan_row rows[MAX_MODELS + 2] = {{0}};
  size_t n = 0;
  long trials = 0;
  rows[n++] = (plan_row){c->teacher.name, 0, teacher, teacher * (double)TEACHER_PROMPT_ESTIMATE,
                         teacher * (double)TEACHER_OUTPUT_ESTIMATE};
  plan_row *tg = strcmp(c->test_gen.name, c->teacher.name) ? &rows[n++] : &rows[0];
  tg->model = c->test_gen.name;
  tg->calls++;
  tg->in += TEACHER_PROMPT_ESTIMATE;
  tg->out += TEACHER_OUTPUT_ESTIMATE;
  for (size_t m = 0; m < c->n_models; m++) {
    plan_row *r = NULL;
    for (size_t k = 0; k < n && !r; k++)
      r = !strcmp(rows[k].model, c->models[m].name) ? &rows[k] : NULL;
    if (!r) {
      r = &rows[n++];
      r->model = c->models[m].name;
    }
    long t = runs * (refine * (attempts + 1) + held * 2);
    r->trials += t;
    r->calls += t;
    r->in += (double)t * (TEACHER_OUTPUT_ESTIMATE + 200); /* the skill in every prompt */
    r->out += (double)t * out;
    trials += t;
  }
  json_t *p = plan_json(c, "generate", rows, n, trials);
  if (!p)
    return NULL;
  json_object_set_new(p, "attempts", json_integer(attempts));
  json_object_set_new(p, "tests", json_integer(tests));
  json_object_set_new(p, "heldOutCases", json_integer(held));
  json_object_set_new(p, "runs", json_integer(runs));
  json_object_set_new(p, "outputTokensPerCall", json_integer(out));
  json_object_set_new(p, "atMost", json_true());
  json_t *em = json_array();
  for (size_t m = 0; m < c->n_models; m++)
    json_array_append_new(em, json_string(c->models[m].name));
  /* A generation's answer that got no further than its plan. */
  return json_pack("{s:b,s:o,s:s,s:s,s:s,s:o,s:[],s:i,s:I,s:I,s:{s:i,s:i}}", "dryRun", 1, "plan", p,
                   "stage", "plan", "teacher", c->teacher.name, "testGenModel", c->test_gen.name,
                   "evalModels", em, "attempts", "tests", (int)tests, "refinementCases",
                   (json_int_t)refine, "heldOutCases", (json_int_t)held, "teacherTokens", "input",
                   0, "output", 0);
}
