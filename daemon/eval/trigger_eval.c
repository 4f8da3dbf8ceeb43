/* skills/eval in trigger mode (params.trigger): does the skill's description make
 * each agent load the skill for the queries it should, and only for those?
 * Every query runs `runs` times (default 3) with the skill installed; a run
 * triggered when the agent loaded the skill (agent.h). Scored with
 * skills/eval/trigger.h as Anthropic's skill-creator does: trigger rate per
 * query, train/test split, precision and recall. With `optimize: N` the teacher
 * proposes better descriptions from the train failures, up to N times, each
 * evaluated the same way, and the best by test score is returned (and written
 * to the SKILL.md with `apply`). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag_json.h"
#include "daemon/eval/eval_methods_int.h"
#include "skills/fsutil.h"
#include "common/log.h"
#include "daemon/eval/gen_teacher.h"
#include "skills/skill.h"
#include "skills/eval/trigger.h"
#include "common/xalloc.h"

enum { DEFAULT_RUNS = 3, MAX_OPTIMIZE = 20 };

struct trig_state {
  upk_trigger_set set;
  size_t *train, *test, n_train, n_test;
  double threshold;
  unsigned runs, optimize, iteration;
  upk_model teacher;
  char *md;           /* the SKILL.md being evaluated */
  char *description;  /* its description */
  json_t *iterations; /* per description: {description, models: [result json]} */
  upk_trigger_score *train_scores, *test_scores; /* per iteration, of the first model */
  upk_trigger_attempt *history;                  /* per iteration: description + outcomes */
  upk_trigger_outcome **outcomes;
  char *prompt; /* the improve prompt, kept for a shorten follow-up */
  upk_ask *ask; /* the teacher asked for a description (a model API or an agent) */
  json_t *run_ids;
  json_t *generated; /* skills/generate's result, when the trigger eval follows it */
  json_t *last;      /* the last iteration's eval result */
  char stopped[512]; /* why optimizing ended before `optimize` proposals, if it did */
};

void upk__tr_free(ecall *c) {
  trig_state *t = c->trig;
  if (!t)
    return;
  upk_ask_cancel(t->ask);
  upk_trigger_set_free(&t->set);
  free(t->train);
  free(t->test);
  free(t->md);
  free(t->description);
  json_decref(t->iterations);
  json_decref(t->run_ids);
  for (unsigned i = 0; i < t->iteration + 1 && t->history; i++) {
    free((char *)t->history[i].description);
    free(t->outcomes[i]);
  }
  free(t->history);
  free(t->outcomes);
  free(t->train_scores);
  free(t->test_scores);
  free(t->prompt);
  json_decref(t->generated);
  json_decref(t->last);
  free(t);
  c->trig = NULL;
}

/* ---- load (thread pool) ---- */

static int read_set(ecall *c, trig_state *t) {
  json_t *v = json_object_get(c->params, "trigger");
  upk_diags d = {0};
  int rc;
  if (json_is_string(v)) {
    char *text = NULL, why[1024];
    size_t len = 0;
    rc = upk__em_read_input(c, json_string_value(v), 1u << 20, &text, &len, why, sizeof why);
    if (rc)
      upk_diags_add(&d, UPK_SEV_ERROR, "eval/unreadable", "upskilld-eval", upk_skill_whole_file(),
                    "%s", why);
    else
      rc = upk_trigger_queries_parse(text, len, &t->set, &d);
    free(text);
  } else {
    char *text = json_dumps(v, 0);
    rc = text ? upk_trigger_queries_parse(text, strlen(text), &t->set, &d) : -ENOMEM;
    free(text);
  }
  if (d.len)
    c->data = json_pack("{s:o}", "diagnostics", upk_diags_json(&d));
  upk_diags_free(&d);
  if (!t->set.n)
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.trigger: no usable queries%s%s",
                        rc ? ": " : "", rc ? strerror(-rc) : "");
  return 0;
}

/* One case per query: its prompt, nothing asserted (the outcome is the load). */
static int cases_of(ecall *c, const upk_trigger_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    upk_evalcase one = {.input = s->items[i].query};
    if (upk_evalcases_add(&c->cases, &one))
      return upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
  }
  return 0;
}

int upk__tr_load(ecall *c, unsigned default_optimize, const char *holdout_key) {
  trig_state *t = c->trig = upk_xcalloc(1, sizeof *t);
  if (!t)
    return upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
  t->runs = upk__em_uint(c, "runs", DEFAULT_RUNS);
  t->optimize = upk__em_uint(c, "optimize", default_optimize);
  json_t *th = json_object_get(c->params, "threshold");
  t->threshold = th ? json_number_value(th) : UPK_TRIGGER_THRESHOLD;
  json_t *ho = json_object_get(c->params, holdout_key);
  double holdout = ho ? json_number_value(ho) : t->optimize ? UPK_TRIGGER_HOLDOUT : 0;
  if (read_set(c, t) || cases_of(c, &t->set))
    return -1;
  if (upk_trigger_split(&t->set, UPK_TRIGGER_SEED, holdout, &t->train, &t->n_train, &t->test,
                        &t->n_test))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.%s must be in [0, 1)", holdout_key);
  if (!t->n_train) { /* too few queries to hold any out: every one trains (and is scored) */
    free(t->train);
    free(t->test);
    if (upk_trigger_split(&t->set, UPK_TRIGGER_SEED, 0, &t->train, &t->n_train, &t->test,
                          &t->n_test))
      return upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
  }
  /* The teacher: generate's (params.model, resolved before), else the config's; an agent
   * teacher (agent:claude-code) proposes through its CLI (gen_teacher.h). */
  if (t->optimize && !c->teacher.name[0] &&
      upk__em_resolve_teacher(c, c->cfg.skill_generation_model,
                              "config skill_generation_model (the teacher)", &c->teacher,
                              &c->teacher_agent))
    return -1;
  t->teacher = c->teacher;
  t->iterations = json_array();
  t->run_ids = json_array();
  size_t slots = t->optimize + 1;
  t->history = upk_xcalloc(slots, sizeof *t->history);
  t->outcomes = upk_xcalloc(slots, sizeof *t->outcomes);
  t->train_scores = upk_xcalloc(slots, sizeof *t->train_scores);
  t->test_scores = upk_xcalloc(slots, sizeof *t->test_scores);
  if (!t->iterations || !t->run_ids || !t->history || !t->outcomes || !t->train_scores ||
      !t->test_scores)
    return upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
  return 0;
}

const upk_model *upk__tr_teacher(const ecall *c) {
  return c->trig && c->trig->optimize ? &c->trig->teacher : NULL;
}

unsigned upk__tr_optimize(const ecall *c) {
  return c->trig ? c->trig->optimize : 0;
}

unsigned upk__tr_runs(const ecall *c) {
  return c->trig ? c->trig->runs : 0;
}

/* ---- run (loop) ---- */

static void run_iteration(ecall *c);

/* Per query of the set: runs that completed and runs that loaded the skill. */
static upk_trigger_outcome *outcomes_of(const upk_eval_outcome *o, const upk_model *m, size_t n) {
  upk_trigger_outcome *out = upk_xcalloc(n ? n : 1, sizeof *out);
  for (size_t i = 0; out && i < o->n_trials; i++) {
    const upk_eval_trial *t = &o->trials[i];
    if (strcmp(t->model->name, m->name) || t->error || !t->agent || t->case_idx >= n)
      continue; /* a run that failed says nothing about the description */
    out[t->case_idx].runs++;
    out[t->case_idx].triggers += t->agent->skill_loaded == 1;
  }
  return out;
}

static json_t *model_result(ecall *c, const upk_trigger_outcome *oc, const upk_model *m) {
  trig_state *t = c->trig;
  upk_trigger_eval ev = {c->skill_name, t->description, &t->set,   oc,          t->train,
                         t->n_train,    t->test,        t->n_test, t->threshold};
  json_t *r = upk_trigger_result_json(&ev);
  if (r)
    json_object_set_new(r, "model", json_string(m->name));
  return r;
}

static void finish(ecall *c) {
  trig_state *t = c->trig;
  size_t best = 0;
  upk_trigger_best(t->train_scores, t->n_test ? t->test_scores : NULL, t->iteration + 1, &best);
  const char *desc = t->history[best].description;
  /* An eval's result (the last iteration's: its runs, figures and trials), with the trigger
   * figures beside it. */
  json_t *r = t->last ? t->last : json_object();
  json_t *mine =
      json_pack("{s:s,s:s,s:I,s:O,s:O,s:{s:I,s:s}}", "mode", "trigger", "skill", c->skill_name,
                "runs", (json_int_t)t->runs, "iterations", t->iterations, "runIds", t->run_ids,
                "best", "iteration", (json_int_t)best, "description", desc);
  t->last = NULL;
  if (!mine || json_object_update(r, mine))
    r = (json_decref(r), NULL);
  json_decref(mine);
  json_t *first = json_array_get(json_object_get(json_array_get(t->iterations, best), "models"), 0);
  if (r && first)
    json_object_set(json_object_get(r, "best"), "result", first);
  if (r && best && (t->generated || json_is_true(json_object_get(c->params, "apply")))) {
    char *md = upk_trigger_with_description(c->skill_md, desc);
    char *path = upk_xasprintf("%s/SKILL.md", c->skill_dir);
    int rc = md ? upk_write_file_atomic(path, md, strlen(md)) : -ENOMEM;
    json_object_set_new(r, "applied", rc ? json_false() : json_string(path));
    free(path);
    free(md);
  }
  if (c->data)
    json_object_set(r, "queryDiagnostics", json_object_get(c->data, "diagnostics"));
  if (r && t->stopped[0])
    json_object_set_new(r, "optimizeStopped", json_string(t->stopped));
  upk__em_limits_note(c, r);
  if (r && t->generated) { /* after skills/generate: its result, with this under "trigger" */
    json_object_set_new(t->generated, "trigger", r);
    r = t->generated;
    t->generated = NULL;
  }
  upk__em_config_note(c, r);
  r ? upk_job_reply(c->job, r) : upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "out of memory");
  upk__em_free(c);
}

static void fail(ecall *c, int code, const char *why) {
  upk_job_fail(c->job, code, "%s", why);
  upk__em_free(c);
}

static void on_proposal(void *arg, const upk_ask_reply *r) {
  ecall *c = arg;
  trig_state *t = c->trig;
  t->ask = NULL;
  if (!r->error)
    upk_budget_charge(&c->budget, t->teacher.name, r->input_tokens, r->output_tokens, -1,
                      r->cost_usd);
  char *desc = NULL, why[256] = "";
  int rc = r->error ? -EIO : upk_trigger_parse_reply(r->text, &desc, why, sizeof why);
  if (rc == -E2BIG && !strstr(t->prompt, "is too long")) {
    char *follow = upk_trigger_shorten_prompt(t->prompt, desc);
    free(desc);
    free(t->prompt);
    t->prompt = follow;
    run_iteration(c); /* asks again, shorter */
    return;
  }
  char *md = rc ? NULL : upk_trigger_with_description(t->md, desc);
  if (md && upk_budget_exhausted(&c->budget)) { /* no call left to evaluate it with */
    snprintf(t->stopped, sizeof t->stopped,
             "the cost limit was reached (%s): the last description proposed was not evaluated",
             c->budget.reason);
    free(md);
    free(desc);
    finish(c);
    return;
  }
  if (!md) {
    snprintf(t->stopped, sizeof t->stopped, "the teacher gave no usable description: %s",
             r->error ? r->error
             : why[0] ? why
                      : "out of memory");
    upk_log(UPK_LOG_WARN, "trigger: %s; keeping the best so far", t->stopped);
    free(desc);
    finish(c);
    return;
  }
  free(t->md);
  free(t->description);
  t->md = md;
  t->description = desc;
  t->iteration++;
  free(t->prompt);
  t->prompt = NULL;
  run_iteration(c);
}

static void propose(ecall *c) {
  trig_state *t = c->trig;
  unsigned i = t->iteration;
  upk_trigger_eval cur = {c->skill_name, t->description, &t->set, t->outcomes[i], t->train,
                          t->n_train,    NULL,           0,       t->threshold};
  if (!t->prompt)
    t->prompt = upk_trigger_improve_prompt(&cur, t->md, t->history, i + 1);
  upk_ask_spec as = {&t->teacher, &c->teacher_agent,      NULL, t->prompt,
                     4096,        upk__em_policy(&c->cfg)};
  char err[512];
  if (!upk_budget_take(&c->budget)) { /* the teacher's call is a call too */
    snprintf(t->stopped, sizeof t->stopped, "the cost limit was reached (%s)", c->budget.reason);
    finish(c);
    return;
  }
  int rc = !t->prompt
               ? -ENOMEM
               : upk_ask_start(c->job->server, &as, on_proposal, c, &t->ask, err, sizeof err);
  if (rc) {
    snprintf(t->stopped, sizeof t->stopped, "cannot ask the teacher: %s",
             rc == -ENOMEM ? "out of memory" : err);
    upk_log(UPK_LOG_WARN, "trigger: %s", t->stopped);
    finish(c);
  }
}

/* No run of any query on any agent loaded the skill (and some ran): the description is not what
 * is wrong, so the teacher is not asked. */
static bool never_triggered(const ecall *c, const upk_eval_outcome *o) {
  size_t runs = 0;
  (void)c;
  for (size_t i = 0; i < o->n_trials; i++) {
    const upk_eval_trial *t = &o->trials[i];
    if (t->error || !t->agent)
      continue;
    if (t->agent->skill_loaded == 1)
      return false;
    runs++;
  }
  return runs > 0;
}

static void iteration_done(void *arg, const upk_eval_outcome *o) {
  ecall *c = arg;
  trig_state *t = c->trig;
  unsigned i = t->iteration;
  c->eval = NULL;
  json_t *models = json_array();
  for (size_t m = 0; m < c->n_models; m++) {
    upk_trigger_outcome *oc = outcomes_of(o, &c->models[m], t->set.n);
    if (oc)
      json_array_append_new(models, model_result(c, oc, &c->models[m]));
    if (m == 0) {
      t->outcomes[i] = oc;
      upk_trigger_tally(&t->set, oc, t->train, t->n_train, t->threshold, &t->train_scores[i]);
      upk_trigger_tally(&t->set, oc, t->test, t->n_test, t->threshold, &t->test_scores[i]);
    } else {
      free(oc);
    }
  }
  t->history[i] = (upk_trigger_attempt){upk_xstrdup(t->description), t->outcomes[i]};
  json_array_append_new(t->iterations,
                        json_pack("{s:s,s:o}", "description", t->description, "models", models));
  json_array_append_new(t->run_ids, json_string(o->run_id));
  json_decref(t->last);
  t->last = upk__em_eval_result(c, o);
  bool perfect = t->train_scores[i].failed == 0;
  if (upk_budget_exhausted(&c->budget) && i < t->optimize && !perfect)
    snprintf(t->stopped, sizeof t->stopped, "the cost limit was reached (%s)", c->budget.reason);
  else if (i == 0 && t->optimize && !perfect && never_triggered(c, o))
    snprintf(t->stopped, sizeof t->stopped,
             "the skill never triggered: every query's trigger rate is 0, so there is nothing to "
             "optimise (check that the agent finds the skill, then its description)");
  if (!t->outcomes[i] || perfect || i >= t->optimize || t->stopped[0])
    finish(c);
  else
    propose(c);
}

static void progress(void *arg, size_t done, size_t total, const char *msg) {
  ecall *c = arg;
  upk_job_progress(c->job, (double)done, (double)total, msg);
}

static void run_iteration(ecall *c) {
  trig_state *t = c->trig;
  if (t->prompt) {
    propose(c);
    return;
  }
  upk_eval_spec spec = {.skill_name = c->skill_name,
                        .skill_md = t->md,
                        .skill_dir = t->iteration ? NULL : c->skill_dir, /* then only SKILL.md */
                        .cases = &c->cases,
                        .models = c->models,
                        .n_models = c->n_models,
                        .agents = c->agents,
                        .max_parallel = upk__em_max_parallel(c),
                        .runs = t->runs,
                        .policy = upk__em_policy(&c->cfg),
                        .runs_dir = c->runs_dir,
                        .kind = "trigger",
                        .budget = &c->budget};
  char err[256];
  int rc =
      upk_eval_start(c->job->server, &spec, progress, iteration_done, c, &c->eval, err, sizeof err);
  if (rc)
    fail(c, rc == -EINVAL ? UPK_RPC_INVALID_PARAMS : UPK_RPC_INTERNAL_ERROR, err);
}

void upk__tr_run(ecall *c) {
  trig_state *t = c->trig;
  for (size_t i = 0; i < c->n_models; i++)
    if (!c->agents[i].name) {
      fail(c, UPK_RPC_INVALID_PARAMS,
           "a trigger eval needs agent targets (agent:claude-code, agent:codex, ...): only an "
           "agent decides from the description whether to load a skill");
      return;
    }
  t->md = c->skill_md ? upk_xstrdup(c->skill_md) : NULL;
  t->description = c->skill_description ? upk_xstrdup(c->skill_description) : NULL;
  if (!t->md || !t->description) {
    fail(c, UPK_RPC_INVALID_PARAMS, "the skill's SKILL.md has no description to test");
    return;
  }
  run_iteration(c);
}

void upk__tr_after_generate(ecall *c, json_t *result) {
  const char *md = json_string_value(json_object_get(result, "skill"));
  const char *dir = json_string_value(json_object_get(result, "path"));
  upk_skill sk = {0};
  if (!md || !dir || upk_skill_parse(md, strlen(md), NULL, &sk, NULL)) {
    upk_skill_free(&sk);
    upk_job_reply(c->job, json_incref(result)); /* nothing to refine: the generation stands */
    upk__em_free(c);
    return;
  }
  free(c->skill_md);
  free(c->skill_dir);
  free(c->skill_name);
  free(c->skill_description);
  c->skill_md = upk_xstrdup(md);
  c->skill_dir = upk_xstrdup(dir);
  c->skill_name = upk_xstrdup(sk.name ? sk.name : "skill");
  c->skill_description = sk.description ? upk_xstrdup(sk.description) : NULL;
  upk_skill_free(&sk);
  c->trig->generated = json_incref(result);
  /* Only agents decide whether to load a skill: the trigger eval runs on those. */
  size_t k = 0;
  for (size_t i = 0; i < c->n_models; i++)
    if (c->agents[i].name) {
      c->models[k] = c->models[i];
      upk_agent_def def = c->agents[i];
      c->agents[i] = (upk_agent_def){0};
      c->agents[k++] = def;
    }
  c->n_models = k;
  if (!k) {
    json_object_set_new(
        c->trig->generated, "trigger",
        json_pack("{s:s}", "error", "no agent among evalModels: the description was not refined"));
    upk_job_reply(c->job, json_incref(c->trig->generated));
    upk__em_free(c);
    return;
  }
  upk__tr_run(c);
}
