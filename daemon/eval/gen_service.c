/* Skill generation (gen_service.h): condense -> write -> validate (send back)
 * -> tests -> eval attempts with refinement -> held-out score -> save ->
 * install. Each stage starts the next from its callback; `stage` names the
 * current one for progress and errors. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag_json.h"
#include "daemon/eval/gen_int.h"
#include "common/log.h"
#include "skills/skill.h"
#include "protocol/jsonrpc.h"
#include "skills/eval/teacher.h"
#include "skills/validate.h"
#include "common/xalloc.h"

enum { DEFAULT_TESTS = 6 };
#define DEFAULT_HOLDOUT 0.34

typedef void (*reply_fn)(upk_gen *g, const char *text);

/* ---- ending ---- */

void upk__gen_free(upk_gen *g) {
  free(g->task);
  free(g->trace_raw);
  free(g->existing);
  free(g->skills_dir);
  free(g->output);
  free(g->runs_dir);
  free(g->workspace);
  for (size_t i = 0; i < g->spec.n_examples; i++)
    free(g->examples[i]);
  free(g->examples);
  for (size_t i = 0; i < g->spec.n_agents; i++)
    free(g->agents[i]);
  free(g->agents);
  free(g->eval_models);
  for (size_t i = 0; g->eval_agents && i < g->spec.n_eval_models; i++)
    upk_agent_def_free(&g->eval_agents[i]);
  free(g->eval_agents);
  upk_agent_def_free(&g->teacher_agent);
  upk_agent_def_free(&g->test_gen_agent);
  if (g->has_condensed)
    upk_condensed_free(&g->condensed);
  free(g->draft);
  upk_diags_free(&g->diags);
  upk_evalcases_free(&g->cases);
  free(g->refine);
  free(g->holdout);
  for (size_t i = 0; i < g->n_attempts; i++)
    free(g->attempts[i].skill_md);
  free(g->attempts);
  free(g->refine_prompt);
  json_decref(g->final);
  free(g->name);
  free(g->dest);
  free(g->record);
  upk_install_result_free(&g->inst);
  free(g);
}

void upk__gen_progress(upk_gen *g, const char *stage, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  g->stage = stage;
  /* Stages repeat (eval, refine, eval...) and MCP wants progress to grow: a
   * step count, the total unknown. */
  if (g->progress)
    g->progress(g->arg, stage, (double)++g->steps, 0, msg);
}

static json_t *attempts_json(const upk_gen *g) {
  json_t *a = json_array();
  for (size_t i = 0; i < g->n_attempts; i++) {
    const gen_attempt *x = &g->attempts[i];
    json_array_append_new(
        a, json_pack("{s:i,s:o,s:o,s:I,s:I,s:i,s:s,s:b}", "attempt", (int)i + 1, "passRate",
                     isfinite(x->rate) ? json_real(x->rate) : json_null(), "baselineRate",
                     isfinite(x->baseline) ? json_real(x->baseline) : json_null(), "passed",
                     (json_int_t)x->passed, "trials", (json_int_t)x->n, "validationFixes", x->fixes,
                     "runId", x->run_id, "best", i == g->best));
  }
  return a;
}

json_t *upk__gen_base_result(const upk_gen *g) {
  json_t *r =
      json_pack("{s:s,s:s,s:s,s:o,s:I,s:I,s:I}", "stage", g->stage ? g->stage : "", "teacher",
                g->spec.teacher.name, "testGenModel", g->spec.test_gen.name, "attempts",
                attempts_json(g), "tests", (json_int_t)g->cases.n, "refinementCases",
                (json_int_t)g->n_refine, "heldOutCases", (json_int_t)g->n_holdout);
  json_t *stopped = upk_budget_stopped_json(g->spec.budget);
  if (stopped)
    json_object_set_new(r, "stopped", stopped);
  json_t *em = json_array();
  for (size_t i = 0; i < g->spec.n_eval_models; i++)
    json_array_append_new(em, json_string(g->eval_models[i].name));
  json_object_set_new(r, "evalModels", em);
  json_object_set_new(r, "teacherTokens",
                      json_pack("{s:I,s:I}", "input", (json_int_t)g->in_tokens, "output",
                                (json_int_t)g->out_tokens));
  if (g->cost_usd > 0) /* an agent teacher reports its cost */
    json_object_set_new(json_object_get(r, "teacherTokens"), "costUsd", json_real(g->cost_usd));
  if (g->has_condensed)
    json_object_set_new(
        r, "trace",
        json_pack("{s:I,s:I,s:I,s:I,s:I}", "tokens", (json_int_t)g->condensed.tokens,
                  "sourceTokens", (json_int_t)g->condensed.source_tokens, "errors",
                  (json_int_t)g->condensed.errors, "commands", (json_int_t)g->condensed.commands,
                  "omitted", (json_int_t)g->condensed.omitted));
  return r;
}

void upk__gen_fail(upk_gen *g, int code, json_t *data, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_t *r = upk__gen_base_result(g);
  if (data)
    json_object_update(r, data);
  json_decref(data);
  g->done(g->arg, code, msg, r);
  json_decref(r);
  upk__gen_free(g);
}

void upk__gen_finish(upk_gen *g) {
  json_t *r = upk__gen_base_result(g);
  const gen_attempt *b = &g->attempts[g->best];
  json_object_set_new(r, "name", json_string(g->name));
  json_object_set_new(r, "path", json_string(g->dest));
  json_object_set_new(r, "replaced", json_boolean(g->replaced));
  json_object_set_new(r, "bestAttempt", json_integer((json_int_t)g->best + 1));
  json_object_set_new(r, "skill", json_string(b->skill_md));
  json_object_set_new(r, "heldOut", g->final ? json_incref(g->final) : json_null());
  json_object_set_new(r, "finalPassRate",
                      isfinite(g->final_rate) ? json_real(g->final_rate) : json_null());
  json_object_set_new(r, "generationRunId",
                      g->record_id[0] ? json_string(g->record_id) : json_null());
  if (g->installed) {
    json_t *t = json_array();
    for (size_t i = 0; i < g->inst.n_targets; i++)
      json_array_append_new(
          t, json_pack("{s:s,s:s?}", "path", g->inst.targets[i].path, "error",
                       g->inst.targets[i].status ? strerror(-g->inst.targets[i].status) : NULL));
    const upk_diags *d = &g->inst.diags;
    json_t *inst = json_pack("{s:b,s:o,s:o}", "ok", g->inst_rc == 0, "targets", t, "diagnostics",
                             upk_diags_json(d));
    if (g->inst_rc) /* why, as skills/install says it: its last diagnostic */
      json_object_set_new(
          inst, "error",
          json_string(d->len ? d->items[d->len - 1].message : strerror(-g->inst_rc)));
    json_object_set_new(r, "install", inst);
  }
  g->stage = "done";
  json_object_set_new(r, "stage", json_string("done"));
  g->done(g->arg, 0, "", r);
  json_decref(r);
  upk__gen_free(g);
}

/* ---- asking the teacher ---- */

static void on_reply(void *arg, const upk_ask_reply *r) {
  upk_gen *g = arg;
  g->ask = NULL;
  if (r->error) {
    bool agent = r->kind && !strcmp(r->kind, "agent");
    upk__gen_fail(g, UPK_RPC_REQUEST_FAILED,
                  json_pack("{s:s}", "kind", r->kind ? r->kind : "error"), "%s: the %s failed: %s",
                  g->stage, agent ? "teacher agent" : "model call", r->error);
    return;
  }
  upk_budget_charge(g->spec.budget, g->ask_model, r->input_tokens, r->output_tokens, -1,
                    r->cost_usd);
  g->in_tokens += r->input_tokens > 0 ? r->input_tokens : 0;
  g->out_tokens += r->output_tokens > 0 ? r->output_tokens : 0;
  g->cost_usd += r->cost_usd > 0 ? r->cost_usd : 0;
  g->next(g, r->text);
}

static void holdout_stage(upk_gen *g);

/* A cost limit was reached before a call: the best attempt evaluated so far is saved (no
 * held-out score: that would be more calls), or, with none, the generation fails saying so. */
static void stop_for_budget(upk_gen *g) {
  bool some = g->n_attempts && g->attempts[g->best].n > 0;
  upk_log(UPK_LOG_INFO, "generate: %s reached at %s", g->spec.budget->reason, g->stage);
  if (!some) {
    upk__gen_fail(
        g, UPK_RPC_REQUEST_FAILED, json_pack("{s:s}", "kind", "budget"),
        "%s: the cost limit was reached (%s) before any attempt was evaluated: nothing to "
        "save",
        g->stage, g->spec.budget->reason);
    return;
  }
  holdout_stage(g);
}

/* Ask `model` (prompt freed here), a model API or an agent CLI; `next` gets the answer. */
static void ask(upk_gen *g, const upk_model *model, char *prompt, reply_fn next) {
  if (!upk_budget_take(g->spec.budget)) {
    free(prompt);
    stop_for_budget(g);
    return;
  }
  g->ask_model = model->name;
  const upk_agent_def *agent = model == &g->spec.test_gen ? &g->test_gen_agent : &g->teacher_agent;
  upk_ask_spec as = {model, agent, upk_teacher_system(), prompt, 16000, g->spec.policy};
  char err[512] = "out of memory";
  g->next = next;
  int rc = upk_ask_start(g->server, &as, on_reply, g, &g->ask, err, sizeof err);
  free(prompt);
  if (rc)
    upk__gen_fail(g, UPK_RPC_REQUEST_FAILED, NULL, "%s: %s", g->stage, err);
}

/* ---- write and validate ---- */

static void tests_stage(upk_gen *g);
static void eval_attempt(upk_gen *g);

/* The frontmatter's name of a SKILL.md; NULL when it has none. */
char *upk__gen_skill_name(const char *md) {
  upk_skill sk;
  upk_diags d = {0};
  char *name = NULL;
  if (upk_skill_parse(md, strlen(md), NULL, &sk, &d) == 0 && sk.name)
    name = upk_xstrdup(sk.name);
  upk_skill_free(&sk);
  upk_diags_free(&d);
  return name;
}

/* A validated draft: the first becomes attempt 1's skill via the tests. */
static void draft_ok(upk_gen *g) {
  gen_attempt *grown = upk_xrealloc(g->attempts, (g->n_attempts + 1) * sizeof *grown);
  g->attempts = grown;
  g->attempts[g->n_attempts] =
      (gen_attempt){.skill_md = g->draft, .fixes = g->fixes, .rate = NAN, .baseline = NAN};
  g->draft = NULL;
  if (!g->name)
    g->name = upk__gen_skill_name(g->attempts[g->n_attempts].skill_md);
  if (g->n_attempts++ == 0)
    tests_stage(g);
  else
    eval_attempt(g);
}

static void on_draft(upk_gen *g, const char *answer) {
  free(g->draft);
  g->draft = NULL;
  upk_diags_free(&g->diags);
  g->diags = (upk_diags){0};
  if (upk_teacher_extract_skill(answer, &g->draft)) {
    g->draft = upk_xstrdup(answer); /* validated as it is: the diagnostics say what is wrong */
  }
  size_t errors =
      upk_skill_validate_text(g->draft, strlen(g->draft), UPK_VALIDATE_STRICT, &g->diags);
  if (!errors) {
    upk__gen_progress(g, "validate", "the SKILL.md passes strict validation");
    draft_ok(g);
    return;
  }
  if (g->fixes >= g->spec.fix_attempts) {
    upk__gen_fail(
        g, UPK_RPC_REQUEST_FAILED,
        json_pack("{s:o,s:s}", "diagnostics", upk_diags_json(&g->diags), "draft", g->draft),
        "validate: the teacher's SKILL.md still has %zu error%s after %u send-back%s", errors,
        errors == 1 ? "" : "s", g->fixes, g->fixes == 1 ? "" : "s");
    return;
  }
  g->fixes++;
  upk__gen_progress(g, "validate", "%zu validation error%s: sent back (%u of %u)", errors,
                    errors == 1 ? "" : "s", g->fixes, g->spec.fix_attempts);
  ask(g, &g->spec.teacher, upk_teacher_fix_prompt(g->draft, &g->diags), on_draft);
}

static void write_stage(upk_gen *g) {
  upk_teacher_input in = {g->task,
                          g->has_condensed ? g->condensed.text : NULL,
                          (const char *const *)g->examples,
                          g->spec.n_examples,
                          g->existing,
                          NULL};
  upk__gen_progress(g, "write", "%s writes the skill", g->spec.teacher.name);
  g->fixes = 0;
  ask(g, &g->spec.teacher, upk_teacher_skill_prompt(&in), on_draft);
}

/* ---- tests ---- */

/* A model's cases never run a program: the test writer read the task and the trace, which a
 * stranger may have written (docs/security.md "Eval scripts"). Cases with a `script` are left
 * out, each with a diagnostic. */
static void drop_scripts(upk_evalcases *cases, upk_diags *d) {
  upk_evalcases kept = {0};
  for (size_t i = 0; i < cases->n; i++) {
    upk_evalcases one = {.items = &cases->items[i], .n = 1};
    if (!upk_evalcases_count_kind(&one, UPK_ASSERT_SCRIPT)) {
      upk_evalcases_add(&kept, &cases->items[i]);
      continue;
    }
    upk_diags_add(d, UPK_SEV_WARNING, "trust/run", "upskilld-generate", upk_skill_whole_file(),
                  "case %zu left out: a test writer may not write `script` assertions (rule "
                  "trust/run)",
                  i + 1);
  }
  upk_evalcases_free(cases);
  *cases = kept;
}

static void on_tests(upk_gen *g, const char *answer) {
  upk_diags d = {0};
  int rc = upk_teacher_extract_cases(answer, &g->cases, &d);
  drop_scripts(&g->cases, &d);
  if (rc || !g->cases.n) {
    upk__gen_fail(g, UPK_RPC_REQUEST_FAILED, json_pack("{s:o}", "diagnostics", upk_diags_json(&d)),
                  "tests: %s wrote no usable test cases", g->spec.test_gen.name);
    upk_diags_free(&d);
    return;
  }
  upk_diags_free(&d);
  if (upk_evalcases_split(&g->cases, g->spec.seed, g->spec.holdout, &g->refine, &g->n_refine,
                          &g->holdout, &g->n_holdout)) {
    upk__gen_fail(g, UPK_RPC_INTERNAL_ERROR, NULL, "tests: cannot split the cases");
    return;
  }
  upk__gen_progress(g, "tests", "%zu cases: %zu for refinement, %zu held out", g->cases.n,
                    g->n_refine, g->n_holdout);
  eval_attempt(g);
}

static void tests_stage(upk_gen *g) {
  upk__gen_progress(g, "tests", "%s writes the test cases", g->spec.test_gen.name);
  ask(g, &g->spec.test_gen,
      upk_teacher_tests_prompt(g->task, g->attempts[0].skill_md, g->spec.n_tests, g->spec.kernel),
      on_tests);
}

/* ---- evaluation and refinement ---- */

static void holdout_stage(upk_gen *g);

static void eval_progress(void *arg, size_t done, size_t total, const char *msg) {
  upk_gen *g = arg;
  if (g->progress) {
    char text[600];
    snprintf(text, sizeof text, "%zu/%zu %s", done, total, msg);
    g->progress(g->arg, g->stage, (double)++g->steps, 0, text);
  }
}

/* Pooled over the student models: with-skill passes / conclusive trials. */
static void pooled(const upk_evalstats *s, bool skill, size_t *k, size_t *n) {
  *k = *n = 0;
  for (size_t i = 0; i < s->n; i++) {
    const upk_cond_stats *c = skill ? &s->models[i].skill : &s->models[i].baseline;
    *k += c->passed;
    *n += c->n;
  }
}

static char *refine_prompt(upk_gen *g, const upk_eval_outcome *o, const gen_attempt *x) {
  upk_teacher_failure *f = upk_xcalloc(o->n_trials ? o->n_trials : 1, sizeof *f);
  size_t n = 0;
  for (size_t i = 0; f && i < o->n_trials; i++) {
    const upk_eval_trial *t = &o->trials[i];
    if (!t->with_skill || t->verdict == UPK_ASSERT_PASS || t->verdict == UPK_ASSERT_SKIPPED)
      continue;
    f[n++] = (upk_teacher_failure){t->model->name, t->prompt, t->answer, t->error,
                                   t->answer ? &t->report : NULL};
  }
  upk_teacher_scores sc = {x->rate, g->attempts[0].baseline, (unsigned)g->n_attempts,
                           g->spec.attempts};
  char *p = f ? upk_teacher_refine_prompt(x->skill_md, f, n, &sc) : NULL;
  free(f);
  return p;
}

static void on_attempt(void *arg, const upk_eval_outcome *o) {
  upk_gen *g = arg;
  g->eval = NULL;
  gen_attempt *x = &g->attempts[g->n_attempts - 1];
  size_t k, n;
  pooled(o->stats, true, &k, &n);
  x->passed = k;
  x->n = n;
  x->rate = n ? (double)k / (double)n : NAN;
  if (g->n_attempts == 1) {
    pooled(o->stats, false, &k, &n);
    x->baseline = n ? (double)k / (double)n : NAN;
  } else {
    x->baseline = g->attempts[0].baseline;
  }
  snprintf(x->run_id, sizeof x->run_id, "%s", o->run_id);
  /* Keep the best, not the last: a refinement can make things worse. Ties
   * keep the earlier skill. */
  const gen_attempt *b = &g->attempts[g->best];
  if (g->n_attempts == 1 || (isfinite(x->rate) && (!isfinite(b->rate) || x->rate > b->rate)))
    g->best = g->n_attempts - 1;
  upk__gen_progress(g, "eval", "attempt %zu: %.0f %% with the skill (best: attempt %zu)",
                    g->n_attempts, isfinite(x->rate) ? 100 * x->rate : 0.0, g->best + 1);
  bool perfect = isfinite(x->rate) && x->rate >= 1.0;
  if (upk_budget_exhausted(g->spec.budget)) {
    stop_for_budget(g);
    return;
  }
  if (perfect || g->n_attempts >= g->spec.attempts) {
    holdout_stage(g);
    return;
  }
  free(g->refine_prompt);
  g->refine_prompt = refine_prompt(g, o, x);
  if (!g->refine_prompt) {
    upk__gen_fail(g, UPK_RPC_INTERNAL_ERROR, NULL, "refine: out of memory");
    return;
  }
  upk__gen_progress(g, "refine", "%s refines attempt %zu with %zu failures", g->spec.teacher.name,
                    g->n_attempts, x->n - x->passed);
  char *p = g->refine_prompt;
  g->refine_prompt = NULL;
  g->fixes = 0;
  ask(g, &g->spec.teacher, p, on_draft);
}

static int start_eval(upk_gen *g, const char *skill_md, const size_t *subset, size_t n,
                      bool baseline, upk_eval_done_cb done) {
  upk_eval_spec spec = {.skill_name = g->name ? g->name : "skill",
                        .skill_md = skill_md,
                        .cases = &g->cases,
                        .subset = subset,
                        .n_subset = n,
                        .models = g->eval_models,
                        .n_models = g->spec.n_eval_models,
                        .agents = g->eval_agents,
                        .max_parallel = g->spec.max_parallel,
                        .runs = g->spec.runs,
                        .baseline = baseline,
                        .concurrency = g->spec.concurrency,
                        .policy = g->spec.policy,
                        .temperature = -1,
                        .runs_dir = g->runs_dir,
                        .kind = "generate",
                        .budget = g->spec.budget};
  char err[256];
  int rc = upk_eval_start(g->server, &spec, eval_progress, done, g, &g->eval, err, sizeof err);
  if (rc)
    upk__gen_fail(g, UPK_RPC_INTERNAL_ERROR, NULL, "%s: %s", g->stage, err);
  return rc;
}

static void eval_attempt(upk_gen *g) {
  upk__gen_progress(g, "eval", "attempt %zu of %u on %zu cases", g->n_attempts, g->spec.attempts,
                    g->n_refine);
  /* The baseline does not depend on the skill: run it once, with attempt 1. */
  start_eval(g, g->attempts[g->n_attempts - 1].skill_md, g->refine, g->n_refine, g->n_attempts == 1,
             on_attempt);
}

static void on_holdout(void *arg, const upk_eval_outcome *o) {
  upk_gen *g = arg;
  g->eval = NULL;
  size_t k, n;
  pooled(o->stats, true, &k, &n);
  g->final_rate = n ? (double)k / (double)n : NAN;
  g->final = json_deep_copy(o->summary);
  if (g->final)
    json_object_set_new(g->final, "runId", json_string(o->run_id));
  upk__gen_progress(g, "holdout", "held-out pass rate %.0f %%",
                    isfinite(g->final_rate) ? 100 * g->final_rate : 0.0);
  upk__gen_save(g);
}

static void holdout_stage(upk_gen *g) {
  const gen_attempt *b = &g->attempts[g->best];
  if (upk_budget_exhausted(g->spec.budget)) {
    g->final_rate = b->rate;
    upk__gen_progress(g, "holdout",
                      "the cost limit was reached (%s): attempt %zu is kept, not scored "
                      "on held-out cases",
                      g->spec.budget->reason, g->best + 1);
    upk__gen_save(g);
    return;
  }
  if (!g->n_holdout) { /* too few cases to hold any out: say so, score on what there is */
    g->final_rate = b->rate;
    upk__gen_progress(g, "holdout", "no held-out cases: the score is the refinement set's");
    upk__gen_save(g);
    return;
  }
  upk__gen_progress(g, "holdout", "attempt %zu on %zu held-out cases", g->best + 1, g->n_holdout);
  start_eval(g, b->skill_md, g->holdout, g->n_holdout, true, on_holdout);
}

/* ---- condense, start, cancel ---- */

static void condense_work(uv_work_t *w) {
  upk_gen *g = w->data;
  if (!atomic_load(&g->cancelled) &&
      upk_condense(g->trace_raw, strlen(g->trace_raw), UPK_TRACE_AUTO, g->spec.trace_budget,
                   &g->condensed) == 0)
    g->has_condensed = true;
}

static void condense_done(uv_work_t *w, int status) {
  upk_gen *g = w->data;
  g->in_work = false;
  if (atomic_load(&g->cancelled)) {
    upk__gen_free(g);
    return;
  }
  if (status || !g->has_condensed) {
    upk__gen_fail(g, UPK_RPC_INVALID_PARAMS, NULL, "condense: params.from: %s",
                  g->condensed.error[0] ? g->condensed.error : "the trace could not be read");
    return;
  }
  upk__gen_progress(
      g, "condense",
      "%s trace condensed from %zu to %zu tokens (%zu errors, %zu with what followed, "
      "%zu commands, %zu left out)",
      upk_trace_format_name(g->condensed.format), g->condensed.source_tokens, g->condensed.tokens,
      g->condensed.errors, g->condensed.fixes, g->condensed.commands, g->condensed.omitted);
  write_stage(g);
}

static char *dup_or_null(const char *s) {
  return s ? upk_xstrdup(s) : NULL;
}

static char **dup_list(const char *const *v, size_t n) {
  char **out = upk_xcalloc(n + 1, sizeof *out);
  for (size_t i = 0; out && i < n; i++)
    out[i] = upk_xstrdup(v[i] ? v[i] : "");
  return out;
}

static int copy_spec(upk_gen *g, const upk_gen_spec *s) {
  g->spec = *s;
  g->task = dup_or_null(s->task);
  g->trace_raw = dup_or_null(s->trace);
  g->existing = dup_or_null(s->existing_skill);
  g->skills_dir = dup_or_null(s->skills_dir);
  g->output = dup_or_null(s->output);
  g->runs_dir = dup_or_null(s->runs_dir);
  g->workspace = dup_or_null(upk_session_workspace(g->server));
  g->examples = dup_list(s->examples, s->n_examples);
  g->agents = dup_list(s->agents, s->n_agents);
  g->eval_models = upk_xmalloc((s->n_eval_models + 1) * sizeof *g->eval_models);
  if (!g->task || !g->examples || !g->agents || !g->eval_models || !g->skills_dir)
    return -ENOMEM;
  memcpy(g->eval_models, s->eval_models, s->n_eval_models * sizeof *g->eval_models);
  g->spec.eval_agents = NULL;
  g->spec.teacher_agent = g->spec.test_gen_agent = NULL;
  if ((s->teacher_agent && s->teacher_agent->name &&
       upk_agent_def_copy(&g->teacher_agent, s->teacher_agent)) ||
      (s->test_gen_agent && s->test_gen_agent->name &&
       upk_agent_def_copy(&g->test_gen_agent, s->test_gen_agent)))
    return -ENOMEM;
  if (s->eval_agents) {
    g->eval_agents = upk_xcalloc(s->n_eval_models + 1, sizeof *g->eval_agents);
    for (size_t i = 0; i < s->n_eval_models; i++)
      if (s->eval_agents[i].name && upk_agent_def_copy(&g->eval_agents[i], &s->eval_agents[i]))
        return -ENOMEM;
  }
  g->spec.attempts = s->attempts ? s->attempts : 2;
  g->spec.fix_attempts = s->fix_attempts ? s->fix_attempts : 2;
  g->spec.n_tests = s->n_tests ? s->n_tests : DEFAULT_TESTS;
  g->spec.holdout = s->holdout < 0 ? DEFAULT_HOLDOUT : s->holdout;
  g->spec.runs = s->runs ? s->runs : 1;
  g->final_rate = NAN;
  return 0;
}

/* The first stage: condense a trace, or write the skill from the task alone. */
static void gen_begin(void *arg) {
  upk_gen *g = arg;
  if (!g->trace_raw) {
    write_stage(g);
    return;
  }
  upk__gen_progress(g, "condense", "condensing a %zu-byte trace", strlen(g->trace_raw));
  g->work.data = g;
  g->in_work = true;
  int rc = uv_queue_work(upk_session_loop(g->server), &g->work, condense_work, condense_done);
  if (rc) {
    g->in_work = false;
    upk__gen_fail(g, UPK_RPC_INTERNAL_ERROR, NULL, "condense: %s", uv_strerror(rc));
  }
}

int upk_gen_start(upk_server *s, const upk_gen_spec *spec, upk_gen_progress_cb progress,
                  upk_gen_done_cb done, void *arg, upk_gen **out) {
  if (!spec->task || !spec->n_eval_models)
    return -EINVAL;
  upk_gen *g = upk_xcalloc(1, sizeof *g);
  g->server = s;
  g->progress = progress;
  g->done = done;
  g->arg = arg;
  if (copy_spec(g, spec)) {
    upk__gen_free(g);
    return -ENOMEM;
  }
  *out = g;
  /* A teacher refused at once fails the first stage: from the loop, never in here. */
  upk_defer(upk_session_defer(s), &g->begin, gen_begin, g);
  return 0;
}

void upk_gen_cancel(upk_gen *g) {
  if (!g)
    return;
  atomic_store(&g->cancelled, true);
  upk_defer_cancel(&g->begin);
  upk_ask_cancel(g->ask); /* an agent teacher's process group is killed */
  g->ask = NULL;
  upk_eval_cancel(g->eval);
  g->eval = NULL;
  if (!g->in_work)
    upk__gen_free(g); /* else the work's end frees, after removing a half-done save */
}
