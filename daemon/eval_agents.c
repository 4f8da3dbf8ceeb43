/* What an evaluation records of its agent runs (eval_service.h, "agent runs"). */
#include "eval_service.h"

#include <stdbool.h>
#include <string.h>

static json_t *str_array(char *const *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++)
    json_array_append_new(a, json_string(v[i]));
  return a;
}

static json_t *num_or_null(double v) {
  return v >= 0 ? json_real(v) : json_null();
}

json_t *upk_eval_agent_record(const upk_eval_trial *t) {
  const upk_agent_result *a = t->agent;
  if (!t->agent_name)
    return NULL;
  if (!a)
    return json_pack("{s:s,s:s?,s:i}", "agent", t->agent_name, "dir", t->agent_dir, "exitStatus",
                     t->exit_status);
  return json_pack("{s:s,s:s?,s:i,s:s?,s:o,s:s?,s:o,s:o,s:o,s:o,s:O?,s:o}", "agent", t->agent_name,
                   "dir", t->agent_dir, "exitStatus", t->exit_status, "sessionId", a->session_id,
                   "skillLoaded", a->skill_loaded < 0 ? json_null() : json_boolean(a->skill_loaded),
                   "skillEvidence", a->skill_evidence, "turns",
                   a->turns < 0 ? json_null() : json_integer(a->turns), "costUsd",
                   num_or_null(a->cost_usd), "agentMs", num_or_null(a->agent_ms), "cacheReadTokens",
                   a->cache_read_tokens < 0 ? json_null() : json_integer(a->cache_read_tokens),
                   "toolCalls", a->tool_calls, "files", str_array(a->files, a->n_files));
}

/* ---- the summary ---- */

typedef struct tally {
  size_t runs, passed, errors, loaded, known_loaded;
  double turns, in_tokens, out_tokens, cost, ms;
  size_t n_turns, n_tokens, n_cost;
} tally;

static void count(tally *c, const upk_eval_trial *t) {
  const upk_agent_result *a = t->agent;
  c->runs++;
  c->passed += t->verdict == UPK_ASSERT_PASS;
  c->errors += t->error != NULL;
  c->ms += t->duration_ms;
  if (!a)
    return;
  if (a->skill_loaded >= 0) {
    c->known_loaded++;
    c->loaded += a->skill_loaded == 1;
  }
  if (a->turns >= 0)
    c->turns += a->turns, c->n_turns++;
  if (a->input_tokens >= 0 && a->output_tokens >= 0)
    c->in_tokens += (double)a->input_tokens, c->out_tokens += (double)a->output_tokens,
        c->n_tokens++;
  if (a->cost_usd >= 0)
    c->cost += a->cost_usd, c->n_cost++;
}

static json_t *mean(double sum, size_t n) {
  return n ? json_real(sum / (double)n) : json_null();
}

static json_t *tally_json(const tally *c) {
  return json_pack("{s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "runs", (json_int_t)c->runs,
                   "passed", (json_int_t)c->passed, "errors", (json_int_t)c->errors, "passRate",
                   mean((double)c->passed, c->runs), "skillLoadedRate",
                   mean((double)c->loaded, c->known_loaded), "meanTurns",
                   mean(c->turns, c->n_turns), "meanInputTokens", mean(c->in_tokens, c->n_tokens),
                   "meanOutputTokens", mean(c->out_tokens, c->n_tokens), "meanCostUsd",
                   mean(c->cost, c->n_cost), "meanMs", mean(c->ms, c->runs));
}

/* The trials of one model (and case, when case_idx is not SIZE_MAX) and condition. */
static json_t *tally_of(const upk_eval_trial *ts, size_t n, const upk_model *m, size_t case_idx,
                        bool with_skill) {
  tally c = {0};
  for (size_t i = 0; i < n; i++)
    if (ts[i].model == m && ts[i].with_skill == with_skill &&
        (case_idx == (size_t)-1 || ts[i].case_idx == case_idx))
      count(&c, &ts[i]);
  return c.runs ? tally_json(&c) : json_null();
}

static bool seen_before(const upk_eval_trial *ts, size_t i, bool by_case) {
  for (size_t k = 0; k < i; k++)
    if (ts[k].model == ts[i].model && (!by_case || ts[k].case_idx == ts[i].case_idx))
      return true;
  return false;
}

json_t *upk_eval_agent_summary(const upk_eval_trial *ts, size_t n) {
  json_t *models = json_array(), *cases = json_array();
  for (size_t i = 0; models && cases && i < n; i++) {
    if (!ts[i].agent_name)
      continue; /* a model API's trial */
    if (!seen_before(ts, i, false))
      json_array_append_new(
          models, json_pack("{s:s,s:o,s:o}", "model", ts[i].model->name, "with_skill",
                            tally_of(ts, n, ts[i].model, (size_t)-1, true), "without_skill",
                            tally_of(ts, n, ts[i].model, (size_t)-1, false)));
    if (!seen_before(ts, i, true))
      json_array_append_new(
          cases, json_pack("{s:I,s:s,s:o,s:o}", "case", (json_int_t)ts[i].case_idx, "model",
                           ts[i].model->name, "with_skill",
                           tally_of(ts, n, ts[i].model, ts[i].case_idx, true), "without_skill",
                           tally_of(ts, n, ts[i].model, ts[i].case_idx, false)));
  }
  if (!models || !cases || !json_array_size(models)) {
    json_decref(models);
    json_decref(cases);
    return NULL;
  }
  return json_pack("{s:o,s:o}", "byModel", models, "byCase", cases);
}
