/* skills/eval, skills/generate, runs/list, runs/show (eval_methods.h). Each
 * handler checks params on the loop, reads what it needs on the thread pool
 * (configuration, the skill, its tests, a trace, the runs directory), and
 * hands the work to eval_service / gen_service, answering from the loop. */
#include "daemon/core/guard.h"
#include "daemon/eval/eval_methods.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/config.h"
#include "common/diag_json.h"
#include "daemon/eval/eval_service.h"
#include "skills/eval/evalcase.h"
#include "skills/fsutil.h"
#include "daemon/eval/gen_service.h"
#include "daemon/core/jobs.h"
#include "report/report.h"
#include "skills/eval/runs.h"
#include "skills/skill.h"
#include "daemon/skills/skills_service.h"
#include "daemon/core/tool_results.h"

#include "daemon/eval/eval_methods_int.h"
#include "common/fileio.h"
#include "common/sandbox.h"
#include "skills/agents.h"
#include "common/xalloc.h"

void upk__em_free(ecall *c) {
  json_decref(c->params);
  json_decref(c->init_options);
  json_decref(c->data);
  json_decref(c->result);
  free(c->workspace);
  upk_config_free(&c->cfg);
  free(c->skill_name);
  free(c->skill_md);
  free(c->runs_dir);
  free(c->skills_dir);
  free(c->indexed_dir);
  free(c->skill_dir);
  free(c->skill_description);
  free(c->baseline_md);
  upk_as_evals_free(&c->evals);
  free(c->baseline_dir);
  upk__tr_free(c);
  for (size_t i = 0; i < c->n_models; i++)
    upk_agent_def_free(&c->agents[i]);
  upk_agent_def_free(&c->teacher_agent);
  upk_agent_def_free(&c->test_gen_agent);
  free(c->trace);
  free(c->output);
  upk_evalcases_free(&c->cases);
  upk_diags_free(&c->case_diags);
  free(c);
}

int upk__em_fail(ecall *c, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  c->code = code;
  return -1;
}

const char *upk__em_str(const ecall *c, const char *key) {
  return json_string_value(json_object_get(c->params, key));
}

/* A path as the client meant it: relative ones are in the workspace. */
char *upk__em_abs(const char *ws, const char *p) {
  if (p[0] == '/' || !ws)
    return upk_xstrdup(p);
  return upk_xasprintf("%s/%s", ws, p);
}

char *upk_eval_runs_dir(const char *configured, const char *workspace) {
  if (configured)
    return upk__em_abs(workspace, configured);
  return upk_env_xdg_dir(NULL, "XDG_STATE_HOME", ".local/state", "upskilld/runs");
}

int upk__em_resolve(ecall *c, const char *name, const char *what, upk_model *out) {
  char err[400];
  if (!strncmp(name, "agent:", 6))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS,
                        "%s: '%.200s' is an agent: agents are evaluated (models, evalModels), "
                        "a model API writes",
                        what, name);
  if (upk_model_resolve(&c->cfg, name, out, err, sizeof err))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s", what, err);
  return 0;
}

/* Config and directories: common to every handler (thread pool). */
static int load_config(ecall *c) {
  char err[sizeof c->err - 32]; /* never c->err itself: upk__em_fail formats into it */
  if (upk_config_load(&c->cfg, c->workspace, c->init_options, err, sizeof err))
    return upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "configuration: %s", err);
  c->runs_dir = upk_eval_runs_dir(c->cfg.runs_dir, c->workspace);
  c->skills_dir = upk__em_abs(c->workspace, c->cfg.skills_dir ? c->cfg.skills_dir : "./skills");
  return c->runs_dir && c->skills_dir ? 0
                                      : upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
}

/* agent:NAME[/MODEL]: the agent's definition from the built-ins and the config. */
static int resolve_agent_into(ecall *c, const char *id, const char *what, upk_model *m,
                              upk_agent_def *d) {
  char name[64], model[256], err[400];
  memset(m, 0, sizeof *m);
  if (upk_agent_parse_id(id, name, sizeof name, model, sizeof model))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS,
                        "%s: '%.200s' is no agent id (agent:claude-code, agent:codex, "
                        "agent:NAME from the config's agents, with an optional /MODEL)",
                        what, id);
  if (upk_agent_def_get(c->cfg.agents, name, d, err, sizeof err))
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s", what, err);
  snprintf(m->id, sizeof m->id, "%s", model);
  snprintf(m->name, sizeof m->name, "%s", id);
  return 0;
}

static int resolve_agent(ecall *c, const char *id, const char *what, size_t i) {
  return resolve_agent_into(c, id, what, &c->models[i], &c->agents[i]);
}

int upk__em_resolve_teacher(ecall *c, const char *name, const char *what, upk_model *out,
                            upk_agent_def *agent) {
  upk_agent_def_free(agent);
  memset(agent, 0, sizeof *agent);
  return !strncmp(name, "agent:", 6) ? resolve_agent_into(c, name, what, out, agent)
                                     : upk__em_resolve(c, name, what, out);
}

int upk__em_resolve_target(ecall *c, const char *name, const char *what) {
  size_t at = c->n_models++;
  return !strncmp(name, "agent:", 6) ? resolve_agent(c, name, what, at)
                                     : upk__em_resolve(c, name, what, &c->models[at]);
}

/* params.models[], else eval_model, else skill_generation_model. */
int upk__em_load_models(ecall *c, const char *key) {
  json_t *arr = json_object_get(c->params, key), *v;
  size_t i;
  char what[64];
  json_array_foreach(arr, i, v) {
    snprintf(what, sizeof what, "params.%s[%zu]", key, i);
    if (c->n_models >= MAX_MODELS)
      return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.%s: at most %d models", key,
                          MAX_MODELS);
    if (!json_is_string(v))
      return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: expected a model name", what);
    if (upk__em_resolve_target(c, json_string_value(v), what))
      return -1;
  }
  if (c->n_models)
    return 0;
  const char *def = c->cfg.eval_model ? c->cfg.eval_model : c->cfg.skill_generation_model;
  return upk__em_resolve_target(c, def, "config eval_model");
}

int upk__em_read_text(ecall *c, const char *path, size_t max, char **out) {
  size_t len;
  int rc = upk_read_in_dir(path, max, out, &len); /* not a link, not a FIFO, capped */
  return rc ? upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s", path, upk_read_error(rc)) : 0;
}

/* The skill: a path, else a name as skills/get finds it (c->indexed_dir, looked up on the
 * skills queue before), else a name under skills_dir. */
static int load_skill(ecall *c, const char *given) {
  char *path = upk__em_abs(c->workspace, given);
  struct stat st;
  bool indexed = false; /* the index's roots are the user's, and its copy is what list shows */
  /* with no workspace a bare name is no path: it would be read beside the daemon */
  if (path && !strchr(given, '/') && (stat(path, &st) || (c->agent && !c->workspace))) {
    free(path);
    indexed = c->indexed_dir != NULL;
    path = indexed ? upk_xstrdup(c->indexed_dir) : upk_xasprintf("%s/%s", c->skills_dir, given);
  }
  if (path && c->agent && !indexed &&
      !upk_guard_within(c->workspace, c->opts, c->init_options, path, false)) {
    char why[PATH_MAX + 1024]; /* a link in the workspace or in skills_dir that leads out */
    upk_guard_refusal_text(why, sizeof why, given, false, "params.skill", !c->workspace);
    c->data = upk_guard_refusal_data(upk_power_rule(UPK_POWER_READ), why);
    free(path);
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s", why);
  }
  upk_skill sk = {0};
  upk_diags d = {0};
  int rc = path ? upk_skill_load(path, &sk, &d) : -ENOMEM;
  free(path);
  if (rc) {
    c->data = json_pack("{s:o}", "diagnostics", upk_diags_json(&d));
    upk_diags_free(&d);
    upk_skill_free(&sk);
    return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.skill: no skill at '%s' (%s)", given,
                        strerror(-rc));
  }
  upk_diags_free(&d);
  char *meta = NULL;
  c->skill_name = upk_xstrdup(sk.name ? sk.name : sk.dir_name ? sk.dir_name : "skill");
  c->skill_dir = sk.dir ? upk_xstrdup(sk.dir) : NULL;
  c->skill_description = sk.description ? upk_xstrdup(sk.description) : NULL;
  char *md = upk_xasprintf("%s/%s", sk.dir, sk.skill_file ? sk.skill_file : "SKILL.md");
  rc = upk__em_read_text(c, md, UPK_SKILL_MAX_BYTES, &c->skill_md);
  if (!rc && !json_object_get(c->params, "cases") && !upk__em_str(c, "tests") &&
      !json_object_get(c->params, "trigger")) {
    meta = upk_xasprintf("%s/skill_meta.json", sk.dir);
    int r = upk_evalcases_read(meta, &c->cases, &c->case_diags);
    /* No tests of upskill's: the Agent Skills guide's evals/evals.json. */
    if (r == -ENOENT || (!r && !c->cases.n)) {
      upk_evalcases_free(&c->cases);
      int ra = upk_agentskills_read_evals_info(sk.dir, &c->cases, &c->evals, &c->case_diags);
      r = ra == -ENOENT ? r : ra;
    }
    if (r && r != -EINVAL)
      rc = upk__em_fail(c, UPK_RPC_INVALID_PARAMS,
                        "no test cases: give cases or tests, or add tests to %s or an "
                        "evals/evals.json (%s)",
                        meta, strerror(-r));
  }
  free(md);
  free(meta);
  upk_skill_free(&sk);
  return rc;
}

static int load_cases(ecall *c) {
  json_t *cases = json_object_get(c->params, "cases");
  const char *tests = upk__em_str(c, "tests");
  int rc = 0;
  if (cases) {
    char *text = json_dumps(cases, 0);
    rc = text ? upk_evalcases_parse(text, strlen(text), &c->cases, &c->case_diags) : -ENOMEM;
    free(text);
  } else if (tests) {
    char *text = NULL, why[1024];
    size_t len = 0;
    rc = upk__em_read_input(c, tests, UPK_SKILL_MAX_BYTES, &text, &len, why, sizeof why);
    if (rc)
      upk_diags_add(&c->case_diags, UPK_SEV_ERROR, "eval/unreadable", "upskilld-eval",
                    upk_skill_whole_file(), "%s", why);
    else
      rc = upk_evalcases_parse(text, len, &c->cases, &c->case_diags);
    free(text);
  }
  if (c->cases.n)
    return 0;
  c->data = json_pack("{s:o}", "diagnostics", upk_diags_json(&c->case_diags));
  return upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "no usable test cases%s%s", rc ? ": " : "",
                      rc ? strerror(-rc) : "");
}

/* ---- the loop side of a call ---- */

static void after_load(uv_work_t *w, int status) {
  ecall *c = w->data;
  c->in_work = false;
  if (!c->job) { /* cancelled meanwhile */
    upk__em_free(c);
    return;
  }
  if (status)
    upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "the work was not run: %s", uv_strerror(status));
  if (c->code) {
    if (json_array_size(c->cfg.refused) && !c->data)
      c->data = json_object();
    upk__em_config_note(c, c->data); /* why the project's own settings were not used */
    upk_job_fail_data(c->job, c->code, c->data, "%s", c->err);
    c->data = NULL;
    upk__em_free(c);
    return;
  }
  c->run(c); /* answers the job, now or later */
}

static void do_load(uv_work_t *w) {
  ecall *c = w->data;
  if (!load_config(c))
    c->load(c);
}

static void on_cancel(upk_job *job) {
  ecall *c = job->data;
  upk_job_fail(job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
  c->job = NULL;
  if (c->in_work)
    return; /* after_load frees */
  upk_eval_cancel(c->eval);
  upk_gen_cancel(c->gen);
  upk__em_free(c);
}

/* `indexed_dir` (taken) is the skill a name stands for in the index, or NULL. */
static void start_found(upk_job *job, json_t *params, ecall_fn load, ecall_fn run,
                        char *indexed_dir) {
  ecall *c = upk_xcalloc(1, sizeof *c);
  c->indexed_dir = indexed_dir;
  upk_server *s = job->server;
  c->job = job;
  c->params = json_deep_copy(params ? params : json_object());
  c->workspace = upk_session_workspace(s) ? upk_xstrdup(upk_session_workspace(s)) : NULL;
  c->agent = upk_guard_origin(s) == UPK_ORIGIN_AGENT; /* an MCP client: guard.h */
  c->opts = upk_session_options(s);
  c->init_options =
      upk_session_init_options(s) ? json_deep_copy(upk_session_init_options(s)) : NULL;
  c->load = load;
  c->run = run;
  c->work.data = c;
  c->in_work = true;
  upk_job_on_cancel(job, on_cancel, c);
  int rc = uv_queue_work(upk_session_loop(s), &c->work, do_load, after_load);
  if (rc) {
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "cannot queue work: %s", uv_strerror(rc));
    upk__em_free(c);
  }
}

void upk__em_start(upk_job *job, json_t *params, ecall_fn load, ecall_fn run) {
  start_found(job, params, load, run, NULL);
}

int upk__em_bad(upk_job *job, const char *msg) {
  upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "%s", msg);
  return -1;
}

upk_retry_policy upk__em_policy(const upk_config *cfg) {
  return (upk_retry_policy){cfg->max_attempts, cfg->retry_backoff_ms, cfg->request_timeout_ms,
                            cfg->connect_timeout_ms};
}

unsigned upk__em_max_parallel(const ecall *c) {
  unsigned n = upk__em_uint(c, "maxParallel", 0);
  return n                         ? n
         : c->cfg.max_parallel > 0 ? (unsigned)c->cfg.max_parallel
                                   : uv_available_parallelism();
}

void upk__em_trial_agent_json(json_t *o, const upk_eval_trial *t) {
  const upk_agent_result *a = t->agent;
  if (!t->agent_name)
    return;
  json_object_set_new(o, "agentDir", t->agent_dir ? json_string(t->agent_dir) : json_null());
  json_object_set_new(o, "exitStatus", json_integer(t->exit_status));
  json_object_set_new(o, "durationMs", json_real(t->duration_ms));
  if (!a)
    return;
  json_object_set_new(o, "skillLoaded",
                      a->skill_loaded < 0 ? json_null() : json_boolean(a->skill_loaded));
  json_object_set_new(o, "turns", a->turns < 0 ? json_null() : json_integer(a->turns));
  json_object_set_new(o, "costUsd", a->cost_usd < 0 ? json_null() : json_real(a->cost_usd));
  json_object_set_new(o, "toolCalls", json_integer((json_int_t)a->n_tools));
  json_t *files = json_array();
  for (size_t i = 0; i < a->n_files; i++)
    json_array_append_new(files, json_string(a->files[i]));
  json_object_set_new(o, "files", files);
}

unsigned upk__em_uint(const ecall *c, const char *key, unsigned def) {
  json_t *v = json_object_get(c->params, key);
  return v ? (unsigned)json_integer_value(v) : def;
}

/* ---- skills/eval ---- */

/* params.baselineSkill: an older version of the skill stands in for "without". */
static int load_baseline(ecall *c, const char *given) {
  char *path = upk__em_abs(c->workspace, given), *md = NULL;
  upk_skill sk = {0};
  int rc = path ? upk_skill_load(path, &sk, NULL) : -ENOMEM;
  free(path);
  if (!rc)
    md = upk_xasprintf("%s/%s", sk.dir, sk.skill_file ? sk.skill_file : "SKILL.md");
  if (rc)
    rc = upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.baselineSkill: no skill at '%s' (%s)",
                      given, strerror(-rc));
  else if (!(rc = upk__em_read_text(c, md, UPK_SKILL_MAX_BYTES, &c->baseline_md)))
    c->baseline_dir = upk_xstrdup(sk.dir);
  free(md);
  upk_skill_free(&sk);
  return rc;
}

static void eval_load(ecall *c) {
  if (upk__em_load_models(c, "models") || load_skill(c, upk__em_str(c, "skill")))
    return;
  if (upk__em_str(c, "baselineSkill") && load_baseline(c, upk__em_str(c, "baselineSkill")))
    return;
  const char *grader = upk__em_str(c, "grader") ? upk__em_str(c, "grader") : c->cfg.grader_model;
  if (grader && upk__em_resolve(c, grader, "params.grader", &c->grader))
    return;
  c->has_grader = grader != NULL;
  if (json_object_get(c->params, "trigger")) {
    if (!upk__tr_load(c, 0, "holdout"))
      upk__em_limits_load(c, (const upk_model *const[]){upk__tr_teacher(c), NULL});
    return;
  }
  if ((json_object_get(c->params, "cases") || upk__em_str(c, "tests") || !c->cases.n) &&
      load_cases(c))
    return;
  upk__em_limits_load(c, NULL);
}

/* The assertions that did not pass, with why: a JUnit failure's reasons (upskillctl --junit). */
static json_t *unpassed_json(const upk_assert_report *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->n; i++) {
    const upk_assert_result *x = &r->results[i];
    if (x->status == UPK_ASSERT_PASS)
      continue;
    json_array_append_new(a, json_pack("{s:s?,s:s,s:s?}", "assertion", x->label, "status",
                                       upk_assert_status_name(x->status), "reason", x->reason));
  }
  return a;
}

static json_t *trials_json(const ecall *c, const upk_eval_outcome *o) {
  json_t *a = json_array();
  for (size_t i = 0; i < o->n_trials; i++) {
    const upk_eval_trial *t = &o->trials[i];
    json_t *one =
        json_pack("{s:s,s:s,s:i,s:i,s:s,s:I,s:I,s:I,s:I,s:s?}", "model", t->model->name,
                  "condition", t->with_skill ? "with_skill" : "baseline", "run", t->run, "case",
                  (int)upk_evalcases_number(&c->cases, t->case_idx), "verdict",
                  t->not_run ? "not-run" : upk_assert_status_name(t->verdict), "assertionsPassed",
                  (json_int_t)t->report.passed, "assertionsSkipped", (json_int_t)t->report.skipped,
                  "inputTokens", (json_int_t)t->input_tokens, "outputTokens",
                  (json_int_t)t->output_tokens, "error", t->error);
    if (one) {
      json_object_set_new(one, "durationMs", json_real(t->duration_ms));
      json_object_set_new(one, "unpassed", unpassed_json(&t->report));
      upk__em_trial_agent_json(one, t);
    }
    json_array_append_new(a, one);
  }
  return a;
}

static void eval_progress(void *arg, size_t done, size_t total, const char *msg) {
  ecall *c = arg;
  upk_job_progress(c->job, (double)done, (double)total, msg);
}

void upk__em_config_note(const ecall *c, json_t *obj) {
  if (json_is_object(obj) && json_array_size(c->cfg.refused))
    json_object_set(obj, "configRefused", c->cfg.refused);
}

json_t *upk__em_eval_result(ecall *c, const upk_eval_outcome *o) {
  json_t *r = json_deep_copy(o->summary);
  if (!r)
    return NULL;
  upk__em_config_note(c, r);
  upk__em_limits_note(c, r);
  json_object_set_new(r, "runId", json_string(o->run_id));
  json_object_set_new(r, "runDir", o->run_dir ? json_string(o->run_dir) : json_null());
  if (o->store_error)
    json_object_set_new(r, "storeError", json_string(o->store_error));
  if (o->layout_error)
    json_object_set_new(r, "layoutError", json_string(o->layout_error));
  else if (o->run_dir) /* one folder per model inside it: <model>/benchmark.json */
    json_object_set_new(r, "agentSkillsDir", json_sprintf("%s/agentskills", o->run_dir));
  json_object_set_new(r, "results", trials_json(c, o));
  if (c->case_diags.len)
    json_object_set_new(r, "caseDiagnostics", upk_diags_json(&c->case_diags));
  return r;
}

/* Every trial of a model errored: no result, an error naming the models and the main reason,
 * with the whole result as its data (the run is stored, marked failed). */
static bool failed_run(ecall *c, json_t *r) {
  json_t *err = json_object_get(r, "errored"), *models = json_object_get(err, "failedModels");
  if (!json_array_size(models))
    return false;
  char names[300] = "";
  json_t *m;
  size_t i, len = 0;
  json_array_foreach(models, i, m) {
    int n = snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", json_string_value(m));
    len = n > 0 && (size_t)n < sizeof names - len ? len + (size_t)n : sizeof names - 1;
  }
  json_t *why = json_array_get(json_object_get(err, "reasons"), 0);
  const char *id = json_string_value(json_object_get(r, "runId"));
  upk_job_fail_data(c->job, UPK_RPC_REQUEST_FAILED, r,
                    "every trial of %s errored (%lld trials errored in all): %s%s%s%s", names,
                    (long long)json_integer_value(json_object_get(err, "trials")),
                    why ? json_string_value(json_object_get(why, "reason")) : "no reason given",
                    id && *id ? "; stored as failed run " : "", id && *id ? id : "",
                    id && *id ? " (upskillctl runs)" : "");
  return true;
}

static void eval_done(void *arg, const upk_eval_outcome *o) {
  ecall *c = arg;
  c->eval = NULL;
  json_t *r = upk__em_eval_result(c, o);
  if (r && !failed_run(c, r))
    upk_job_reply(c->job, r);
  else if (!r)
    upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "%s",
                 o->store_error ? o->store_error : "no summary");
  upk__em_free(c);
}

static const upk_param eval_params[] = {
    {"skill", UPK_T_STRING, 1, "The skill: a directory (or SKILL.md), or a name in skills_dir."},
    {"models", UPK_T_ARRAY, 0,
     "Models to evaluate, at most 32 (default: config eval_model); agent:claude-code, "
     "agent:codex or agent:NAME (the config's agents), with an optional /MODEL, run that agent "
     "CLI.",
     UPK_ITEMS(UPK_T_STRING)},
    {"runs", UPK_T_INTEGER, 0, "Runs of every case per model and condition (trigger mode: 3).",
     UPK_RANGE(1, MAX_RUNS)},
    {"cases", UPK_T_ARRAY, 0,
     "Test cases (upskill's schema plus not_contains, regex, compiles, "
     "resources); default: the skill's skill_meta.json tests.",
     UPK_ITEMS(UPK_T_OBJECT)},
    {"tests", UPK_T_STRING, 0,
     "A tests file instead of cases: a list, {cases} or skill_meta.json."},
    {"baseline", UPK_T_BOOLEAN, 0, "Also run every case without the skill.", .def = "true"},
    {"grader", UPK_T_STRING, 0,
     "The model that judges statements in words (expect; evals.json's expectations) from each "
     "run's answer, files and tool calls (default: config grader_model; none: skipped)."},
    {"baselineSkill", UPK_T_STRING, 0,
     "An older version of the skill (a directory) to compare against instead of no skill."},
    {"concurrency", UPK_T_INTEGER, 0, "Model calls in flight at most.",
     UPK_RANGE(1, MAX_CONCURRENCY), .def = "8"},
    {"maxParallel", UPK_T_INTEGER, 0,
     "Agent runs (agent:...) at once (default: config max_parallel, else the core count).",
     UPK_RANGE(1, MAX_CONCURRENCY)},
    {"maxTokens", UPK_T_INTEGER, 0, "Most tokens per answer.", UPK_RANGE(1, 1000000)},
    {"temperature", UPK_T_NUMBER, 0, "Sampling temperature.", UPK_RANGE(0, 2)},
    {"trigger", UPK_T_ANY, 0,
     "Trigger mode: the skill-creator eval set ([{query, should_trigger}], or a file of it); "
     "each query runs `runs` times (default 3) on agent targets, and the result is the "
     "trigger rate per query, precision and recall.",
     UPK_ANY_OF({.type = UPK_T_STRING}, {.type = UPK_T_ARRAY, UPK_ITEMS(UPK_T_OBJECT)},
                {.type = UPK_T_OBJECT})},
    {"threshold", UPK_T_NUMBER, 0, "Trigger mode: the rate at which a query counts as triggered.",
     UPK_RANGE(0, 1), .def = "0.5"},
    {"holdout", UPK_T_NUMBER, 0,
     "Trigger mode: the share of queries held out as the test set (default 0, 0.4 with "
     "optimize).",
     UPK_RANGE(0, 0.95)},
    {"optimize", UPK_T_INTEGER, 0,
     "Trigger mode: up to N better descriptions from the teacher, each evaluated; the best by "
     "test score is returned.",
     UPK_RANGE(0, 20)},
    {"apply", UPK_T_BOOLEAN, 0, "Trigger mode: write the best description to the SKILL.md.",
     .def = "false"},
    {"allowScripts", UPK_T_BOOLEAN, 0,
     "Run the `script` assertions of the skill's own test cases (skill_meta.json, "
     "evals/evals.json), which are refused otherwise: read them first.",
     .def = "false"},
    EM_LIMIT_PARAMS,
    {0},
};

/* Scripts the user did not write run only in the sandbox; where there is none they are refused
 * (fail closed), saying why and what the user can do. */
static bool sandbox_or_refuse(ecall *c, size_t n, bool own) {
  char why[512], msg[1200];
  if (upk_sandbox_available(why, sizeof why))
    return true;
  snprintf(msg, sizeof msg,
           "%zu `script` assertion%s from %s refused: a script the user did not write runs only "
           "in a sandbox, and there is none here (%s). Install bubblewrap where user namespaces "
           "are allowed (see upskillctl status), or give the cases as your own "
           "(upskillctl eval --tests FILE) after reading them",
           n, n == 1 ? "" : "s", own ? "the skill's own test cases" : "an agent's call", why);
  upk_guard_refuse(c->job, "trust/run", msg);
  return false;
}

/* A `script` assertion runs a program (docs/security.md "Eval scripts"). The user's own cases
 * (params.cases, params.tests from an LSP client or upskillctl) may, as the user; the skill's
 * own files are a stranger's until the user says otherwise (allowScripts); an agent's call only
 * when the user's --agent-allow names scripts. Those two run in the sandbox (`*sandbox`). False
 * when refused: the job has failed. */
static bool scripts_allowed(ecall *c, bool *sandbox) {
  size_t n = upk_evalcases_count_kind(&c->cases, UPK_ASSERT_SCRIPT);
  *sandbox = false;
  if (!n)
    return true;
  bool own = !json_object_get(c->params, "cases") && !upk__em_str(c, "tests");
  if (own && !json_is_true(json_object_get(c->params, "allowScripts"))) {
    char msg[640];
    snprintf(msg, sizeof msg,
             "%zu `script` assertion%s in the skill's own test cases refused: a skill may not "
             "run a program (rule trust/run); read them, then allow them with allowScripts "
             "(upskillctl eval --allow-scripts), or give your own cases",
             n, n == 1 ? "" : "s");
    upk_guard_refuse(c->job, "trust/run", msg);
    return false;
  }
  if (!upk_guard_allow(c->job, UPK_AGENT_ALLOW_SCRIPTS, "a `script` assertion in the cases"))
    return false;
  *sandbox = own || upk_guard_origin(c->job->server) != UPK_ORIGIN_USER;
  return !*sandbox || sandbox_or_refuse(c, n, own);
}

static void eval_run(ecall *c) {
  if (c->dry_run) { /* the plan, and nothing called */
    json_t *plan = upk__em_eval_plan(c);
    upk__em_config_note(c, plan);
    plan ? upk_job_reply(c->job, plan)
         : upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "out of memory");
    upk__em_free(c);
    return;
  }
  if (c->trig) {
    upk__tr_run(c);
    return;
  }
  bool sandbox;
  if (!scripts_allowed(c, &sandbox)) {
    upk__em_free(c);
    return;
  }
  upk_eval_spec spec = {
      .skill_name = c->skill_name,
      .skill_md = c->skill_md,
      .cases = &c->cases,
      .models = c->models,
      .n_models = c->n_models,
      .agents = c->agents,
      .skill_dir = c->skill_dir,
      .baseline_md = c->baseline_md,
      .baseline_dir = c->baseline_dir,
      .evals = c->evals.n ? &c->evals : NULL,
      .grader = c->has_grader ? &c->grader : NULL,
      .max_parallel = upk__em_max_parallel(c),
      .runs = upk__em_uint(c, "runs", 1),
      .baseline = json_is_true(json_object_get(c->params, "baseline")),
      .concurrency = (unsigned)json_integer_value(json_object_get(c->params, "concurrency")),
      .policy = upk__em_policy(&c->cfg),
      .max_tokens = (long)upk__em_uint(c, "maxTokens", 0),
      .temperature = json_object_get(c->params, "temperature")
                         ? json_number_value(json_object_get(c->params, "temperature"))
                         : -1,
      .runs_dir = c->runs_dir,
      .sandbox_scripts = sandbox,
      .kind = c->n_models > 1 || upk__em_uint(c, "runs", 1) > 1 ? "benchmark" : "eval",
      .budget = &c->budget};
  char err[256];
  int rc =
      upk_eval_start(c->job->server, &spec, eval_progress, eval_done, c, &c->eval, err, sizeof err);
  if (rc) {
    upk_job_fail(c->job, rc == -EINVAL ? UPK_RPC_INVALID_PARAMS : UPK_RPC_INTERNAL_ERROR, "%s",
                 err);
    upk__em_free(c);
  }
}

/* skills/eval of a name (no '/') resolves it as skills/get does: the index's copy that wins
 * (visible, usable, priority, scope, root order; any agent), waiting for the first scan for up
 * to FIND_WAIT_MS (a copy that would lose may be all that is indexed yet), so that a daemon
 * just started (upskillctl eval NAME) finds what list shows.
 * A path that exists still comes first, and a name the index lacks is looked for in
 * skills_dir (load_skill). */
#define FIND_WAIT_MS 30000

typedef struct {
  upk_job *job;
  upk_server *server;
  json_t *params;
  char *dir;
  uint64_t wait_until;
  bool parked;
} eval_find;

static void find_work(upk_index *ix, void *arg) {
  eval_find *f = arg;
  size_t done, total;
  /* during the first scan a copy that would lose may be all that is indexed yet: wait */
  f->parked = ix && upk_index_scanning(ix, &done, &total) && uv_hrtime() < f->wait_until;
  if (!ix || f->parked)
    return;
  upk_index_skill sk = {0};
  if (upk_index_get(ix, json_string_value(json_object_get(f->params, "skill")), NULL, &sk) == 0)
    f->dir = upk_xstrdup(sk.e.dir);
  upk_index_skill_free(&sk);
}

static void find_done(void *arg, int status) {
  eval_find *f = arg;
  if (!status && f->parked && !f->job->cancelled &&
      upk_skills_submit(f->server, find_work, find_done, f) == 0)
    return; /* asked again after the scan's next batch */
  if (status == UV_ECANCELED || f->job->cancelled) {
    free(f->dir);
    upk_job_fail(f->job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
  } else {
    start_found(f->job, f->params, eval_load, eval_run, f->dir); /* takes dir */
  }
  json_decref(f->params);
  free(f);
}

/* Whether `name` is an entry (a link included) of the workspace ws (NULL: none). */
static bool exists_in(const char *ws, const char *name) {
  char p[PATH_MAX];
  struct stat st;
  return ws && snprintf(p, sizeof p, "%s/%s", ws, name) < (int)sizeof p && lstat(p, &st) == 0;
}

static void eval_handler(upk_job *job, json_t *params) {
  if (json_array_size(json_object_get(params, "models")) > MAX_MODELS) {
    upk__em_bad(job, "params.models: at most 32");
    return;
  }
  if (json_object_get(params, "cases") && json_object_get(params, "tests")) {
    upk__em_bad(job, "params: give cases or tests, not both");
    return;
  }
  const char *skill = json_string_value(json_object_get(params, "skill"));
  static const char *const paths[] = {"tests", "baselineSkill"};
  for (size_t i = 0; i < 2; i++) { /* an agent reads only in its places (guard.h) */
    const char *p = json_string_value(json_object_get(params, paths[i]));
    char what[32];
    snprintf(what, sizeof what, "params.%s", paths[i]);
    if (p && !upk_guard_path(job, p, false, what))
      return;
  }
  /* a path, or a bare name that is one in the workspace (a link there may lead out) */
  if (skill && (strchr(skill, '/') || exists_in(upk_session_workspace(job->server), skill)) &&
      !upk_guard_path(job, skill, false, "params.skill"))
    return;
  eval_find *f = skill && !strchr(skill, '/') ? upk_xcalloc(1, sizeof *f) : NULL;
  if (!f) {
    upk__em_start(job, params, eval_load, eval_run);
    return;
  }
  *f = (eval_find){.job = job,
                   .server = job->server,
                   .params = json_incref(params),
                   .wait_until = uv_hrtime() + (uint64_t)FIND_WAIT_MS * 1000000u};
  if (upk_skills_submit(job->server, find_work, find_done, f)) {
    json_decref(f->params);
    free(f);
    upk__em_start(job, params, eval_load, eval_run); /* no index: a path or skills_dir */
  }
}

/* ---- runs/list and runs/show ---- */

static const upk_param list_params[] = {
    {"csv", UPK_T_BOOLEAN, 0, "Also every trial of every run as CSV.", .def = "false"},
    {0},
};

static const upk_param show_params[] = {
    {"id", UPK_T_STRING, 1, "The run's id."},
    {"transcripts", UPK_T_BOOLEAN, 0, "Include every trial's transcript.", .def = "true"},
    {0},
};

static char *csv_of(const char *runs_dir) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  int rc = upk_runs_export_csv(runs_dir, NULL, 0, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

static void list_load(ecall *c) {
  upk_run_info *runs = NULL;
  size_t n = 0;
  int rc = upk_runs_list(c->runs_dir, &runs, &n);
  if (rc) {
    upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "%s: %s", c->runs_dir, strerror(-rc));
    return;
  }
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) {
    json_t *models = json_array();
    for (size_t k = 0; k < runs[i].n_models; k++)
      json_array_append_new(models, json_string(runs[i].models[k]));
    json_array_append_new(
        a, json_pack("{s:s,s:s?,s:s?,s:s?,s:o,s:I,s:b,s:s}", "id", runs[i].id, "kind", runs[i].kind,
                     "skill", runs[i].skill, "createdAt", runs[i].created_at, "models", models,
                     "transcripts", (json_int_t)runs[i].n_transcripts, "hasSummary",
                     runs[i].has_summary, "status", runs[i].failed ? "failed" : "ok"));
  }
  upk_run_infos_free(runs, n);
  c->result = json_pack("{s:s,s:o}", "runsDir", c->runs_dir, "runs", a);
  if (json_is_true(json_object_get(c->params, "csv"))) {
    char *csv = csv_of(c->runs_dir);
    if (!csv)
      upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "cannot export CSV from %s", c->runs_dir);
    else
      json_object_set_new(c->result, "csv", json_string(csv));
    free(csv);
  }
}

static void show_load(ecall *c) {
  char *text = NULL;
  int rc = upk_runs_show(c->runs_dir, upk__em_str(c, "id"),
                         json_is_true(json_object_get(c->params, "transcripts")), &text);
  if (rc) {
    upk__em_fail(c,
                 rc == -EINVAL || rc == -ENOENT ? UPK_RPC_INVALID_PARAMS : UPK_RPC_REQUEST_FAILED,
                 "params.id: %s",
                 rc == -ENOENT   ? "no such run"
                 : rc == -EINVAL ? "not a run id"
                                 : strerror(-rc));
    return;
  }
  c->result = json_loads(text, 0, NULL);
  free(text);
  if (!c->result)
    upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "the run's files are not JSON");
}

/* runs/report: one self-contained HTML file for a run, or two side by side. */
static void report_load(ecall *c) {
  const char *id = upk__em_str(c, "id"), *b = upk__em_str(c, "compareWith");
  char *html = NULL;
  size_t len = 0;
  int rc = upk_run_report(c->runs_dir, id, b, &html, &len);
  if (rc) {
    upk__em_fail(c, rc == -ENOMEM ? UPK_RPC_INTERNAL_ERROR : UPK_RPC_INVALID_PARAMS, "%s: %s",
                 b && upk_run_id_ok(id) && rc != -ENOMEM ? "params.id or params.compareWith"
                                                         : "params.id",
                 rc == -ENOENT    ? "no such run"
                 : rc == -EINVAL  ? "not a run id"
                 : rc == -ENODATA ? "the run has no summary (unfinished or failed)"
                                  : strerror(-rc));
    return;
  }
  c->result = json_pack("{s:s,s:s?,s:s%,s:I}", "id", id, "compareWith", b, "html", html, len,
                        "bytes", (json_int_t)len);
  free(html);
  if (!c->result)
    upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "the report is not UTF-8 or out of memory");
}

static void reply_result(ecall *c) {
  upk_job_reply(c->job, c->result);
  c->result = NULL;
  upk__em_free(c);
}

static void list_handler(upk_job *job, json_t *params) {
  upk__em_start(job, params, list_load, reply_result);
}

static void show_handler(upk_job *job, json_t *params) {
  upk__em_start(job, params, show_load, reply_result);
}

static void report_handler(upk_job *job, json_t *params) {
  upk__em_start(job, params, report_load, reply_result);
}

/* ---- the table ---- */

static const upk_param report_params[] = {
    {"id", UPK_T_STRING, 1, "The run's id (evaluation, benchmark or generation)."},
    {"compareWith", UPK_T_STRING, 0, "A run of the same skill to show beside it."},
    {0},
};

const upk_method upk_eval_methods[] = {
    {"skills/eval", "eval_skill", "Evaluate a skill",
     "Call to measure whether a skill helps: test cases on models with and without it; pass "
     "rates, lift and tokens per model.",
     eval_params, eval_handler, UPK_METHOD_OPEN_WORLD | UPK_METHOD_NEEDS_MODEL,
     .result = upk_result_eval, .refusal = upk_refusal_eval},
    {"skills/generate", "generate_skill", "Generate a skill",
     "Call to write a new skill for a task (or from an agent trace) with a model, tested and "
     "refined on student models.",
     upk_gen_params, upk_gen_handler,
     UPK_METHOD_DESTRUCTIVE | UPK_METHOD_OPEN_WORLD | UPK_METHOD_NEEDS_MODEL,
     .result = upk_result_generate},
    {"skills/condense", "condense_trace", "Condense an agent trace",
     "Call to shorten an agent trace to a token budget as generate_skill does: the task, "
     "errors and their fixes, changed files, the summary.",
     upk_condense_params, upk_condense_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT | UPK_METHOD_NEEDS_MODEL,
     .result = upk_result_condense, .refusal = upk_refusal_condense},
    {"runs/list", "list_runs", "List evaluation runs",
     "Call to find stored evaluation runs, newest first.", list_params, list_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT, .result = upk_result_list_runs},
    {"runs/show", "show_run", "Show an evaluation run",
     "Call to read one stored run: its summary and transcripts.", show_params, show_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT, .result = upk_result_show_run},
    {"runs/report", "report_run", "Report an evaluation run as HTML",
     "Call to make an HTML report of a stored run (or two side by side).", report_params,
     report_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT, .result = upk_result_report_run},
};
const size_t upk_eval_methods_count = sizeof upk_eval_methods / sizeof *upk_eval_methods;
