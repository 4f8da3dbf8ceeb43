/* Skill evaluation on the loop (eval_service.h): a queue of trials pumped at
 * most `concurrency` at a time, answers checked as they arrive, the run
 * stored on the thread pool at the end. */
#include "daemon/eval/eval_service_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/eval/agent_runner.h"
#include "daemon/kernels/kernel_service.h"
#include "common/log.h"
#include "daemon/models/models_service.h"
#include "gpu/worker/wire.h"
#include "skills/eval/runs.h"
#include "common/xalloc.h"

enum { DEFAULT_CONCURRENCY = 8, KERNEL_TIMEOUT_MS = 60000 };

static const char SYSTEM_BASE[] =
    "You are a capable software engineering assistant. Answer the user's request directly and "
    "completely; when the answer is code, give the code in fenced blocks with their language.";

const char *upk_eval_system_base(void) {
  return SYSTEM_BASE;
}

char *upk_eval_system_prompt(const char *skill_name, const char *skill_md) {
  if (!skill_md)
    return upk_xstrdup(SYSTEM_BASE);
  return upk_xasprintf(
      "%s\n\nThe following skill is loaded. Follow its instructions where they apply.\n\n"
      "<skill name=\"%s\">\n%s%s</skill>",
      SYSTEM_BASE, skill_name ? skill_name : "skill", skill_md,
      *skill_md && skill_md[strlen(skill_md) - 1] == '\n' ? "" : "\n");
}

static void eval_free(upk_eval *e) {
  for (size_t i = 0; i < e->n; i++) {
    eval_trial *x = &e->trials[i];
    free(x->t.prompt);
    free(x->t.answer);
    free(x->t.error);
    upk_assert_report_free(&x->t.report);
    free(x->slots);
    free(x->gslots);
    if (x->t.agent)
      upk_agent_result_free(x->t.agent);
    free(x->t.agent);
    free(x->t.agent_dir);
    free(x->dir);
  }
  for (size_t i = 0; e->defs && i < e->spec.n_models; i++)
    upk_agent_def_free(&e->defs[i]);
  free(e->defs);
  free(e->agent_root);
  free(e->own_skill_dir);
  free(e->own_baseline_dir);
  free(e->trials);
  free(e->model_copy);
  free(e->subset_copy);
  free(e->numbers);
  json_decref(e->refused);
  free(e->own_runs_dir);
  free(e->own_skill_name);
  free(e->own_kind);
  free(e->system_skill);
  free(e->system_base);
  upk_evalstats_free(&e->stats);
  json_decref(e->summary);
  free(e->summary_text);
  upk_run_free(&e->run);
  upk__eval_free_layouts(e);
  free(e);
}

double upk__eval_wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double upk__eval_ms_since(uint64_t t0) {
  return (double)(uv_hrtime() - t0) / 1e6;
}

/* ---- kernel checks ---- */

static bool code_is(const json_t *d, const char *code) {
  const char *c = json_string_value(json_object_get(d, "code"));
  return c && !strcmp(c, code);
}

static bool is_worker_failure(const json_t *d) {
  static const char *const codes[] = {"kernel/timeout",         "kernel/worker-crashed",
                                      "kernel/worker-protocol", "kernel/no-worker",
                                      "kernel/cancelled",       "kernel/worker-error"};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
    if (code_is(d, codes[i]))
      return true;
  return false;
}

static char *first_error(const json_t *diags, upk_assert_status *status) {
  const json_t *d;
  size_t i;
  json_array_foreach(diags, i, d) {
    const char *msg = json_string_value(json_object_get(d, "message"));
    if (code_is(d, "kernel/no-toolkit") || code_is(d, "kernel/no-nvcc"))
      *status = UPK_ASSERT_SKIPPED; /* cannot be checked here: never a pass */
    else if (is_worker_failure(d))
      *status = UPK_ASSERT_ERROR;
    else if (json_integer_value(json_object_get(d, "severity")) != 1)
      continue;
    return msg ? upk_xstrdup(msg) : NULL;
  }
  return upk_xstrdup("the code did not compile");
}

void upk_eval_kcheck_from_json(const json_t *result, upk_kcheck_result *out) {
  memset(out, 0, sizeof *out);
  out->status = UPK_ASSERT_FAIL;
  if (!json_is_true(json_object_get(result, "ok"))) {
    out->reason = first_error(json_object_get(result, "diagnostics"), &out->status);
    return;
  }
  out->status = UPK_ASSERT_PASS;
  const json_t *ks = json_object_get(result, "kernels"), *k;
  size_t i;
  out->kernels = upk_xcalloc(json_array_size(ks) + 1, sizeof *out->kernels);
  json_array_foreach(ks, i, k) {
    const char *name = json_string_value(json_object_get(k, "name"));
    upk_kcheck_kernel *o = &out->kernels[out->n_kernels++];
    o->name = upk_xstrdup(name ? name : "?");
    o->registers = (int)json_integer_value(json_object_get(k, "registers"));
    o->spill_stores = (long)json_integer_value(json_object_get(k, "spillStores"));
    o->spill_loads = (long)json_integer_value(json_object_get(k, "spillLoads"));
  }
}

static void on_kcheck(void *arg, json_t *result) {
  kslot *k = arg;
  eval_trial *x = k->trial;
  upk_kcheck_result res;
  k->handle = NULL;
  k->done = true;
  upk_eval_kcheck_from_json(result, &res);
  upk_assert_report_resolve(&x->t.report, k->id, &res);
  if (x->submitting || !upk_assert_report_done(&x->t.report))
    return;
  upk__eval_trial_finished(x);
  upk__eval_pump(x->e);
}

/* Checkers answer later: requests are submitted once evaluate has returned,
 * so that a check answered at once (a cache hit) never re-enters it. */
static int defer_check(void *ctx, const upk_kcheck_req *req, upk_kcheck_result *out) {
  (void)ctx, (void)req, (void)out;
  return 1;
}

static void submit_kernel_checks(eval_trial *x) {
  upk_assert_report *r = &x->t.report;
  x->slots = upk_xcalloc(r->n_requests ? r->n_requests : 1, sizeof *x->slots);
  x->submitting = true;
  for (size_t i = 0; i < r->n_requests; i++) {
    if (r->requests[i].done)
      continue;
    kslot *k = &x->slots[x->n_slots++];
    *k = (kslot){.trial = x, .id = r->requests[i].id};
    upk_kernel_req kr =
        upk__eval_kernel_req(x->e->server, r->requests[i].code, "answer.cu", r->requests[i].arch);
    k->handle =
        upk_kernels_check(x->e->server, &kr, x->e->spec.kernel_timeout_ms, true, on_kcheck, k);
  }
  x->submitting = false;
}

/* ---- trials ---- */

void upk__eval_trial_finished(eval_trial *x) {
  upk_eval *e = x->e;
  x->finished = true;
  x->t.verdict = x->t.answer ? upk_assert_report_verdict(&x->t.report) : UPK_ASSERT_ERROR;
  e->finished++;
  if (e->progress) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s, run %u, case %zu, %s: %s", x->t.model->name, x->t.run + 1,
             e->numbers[x->t.case_idx] + 1, x->t.with_skill ? "with skill" : "baseline",
             x->t.answer ? upk_assert_status_name(x->t.verdict) : "no answer");
    e->progress(e->arg, e->finished, e->n, msg);
  }
}

void upk__eval_judge(eval_trial *x) {
  const upk_evalcase *c = &x->e->spec.cases->items[x->t.case_idx];
  upk_kernel_checker checker = {defer_check, x};
  char *ws = NULL;
  upk_assert_env env = {0};
  if (x->t.agent) {
    env = (upk_assert_env){ws = upk_xasprintf("%s/workspace", x->dir),
                           (const char *const *)x->t.agent->tools, x->t.agent->n_tools, true};
  }
  int rc = upk_assert_evaluate_in(c->asserts, c->n_asserts, x->t.answer, x->t.agent ? &env : NULL,
                                  &checker, &x->t.report);
  if (!rc && ws)
    upk__eval_exec(x, ws); /* script, diff, kernel: off the loop, decided later */
  free(ws);
  if (rc) {
    free(x->t.answer); /* out of memory: no verdict can be given */
    x->t.answer = NULL;
    x->t.error = upk_xstrdup("out of memory while checking the answer");
    upk__eval_trial_finished(x);
    return;
  }
  submit_kernel_checks(x);
  upk__eval_grade(x);
  if (upk_assert_report_done(&x->t.report))
    upk__eval_trial_finished(x);
}

static void on_answer(void *arg, const upk_completion_result *r) {
  eval_trial *x = arg;
  upk_eval *e = x->e;
  x->comp = NULL;
  e->inflight--;
  x->t.duration_ms = upk__eval_ms_since(x->started);
  if (r->error) {
    x->t.error = upk_xstrdup(r->message && *r->message ? r->message : upk_merr_name(r->error));
    upk__eval_trial_finished(x);
  } else {
    x->t.answer = upk_xstrdup(r->answer->text ? r->answer->text : "");
    x->t.input_tokens = r->answer->input_tokens;
    x->t.output_tokens = r->answer->output_tokens;
    upk_budget_charge(e->spec.budget, x->t.model->name, x->t.input_tokens, x->t.output_tokens, -1,
                      -1);
    upk__eval_judge(x);
  }
  upk__eval_pump(e);
}

static void start_trial(upk_eval *e, eval_trial *x) {
  if (x->def) {
    upk__eval_start_agent(e, x);
    return;
  }
  json_t *msgs = json_pack("[{s:s,s:s}]", "role", "user", "content", x->t.prompt);
  upk_chat chat = {x->t.with_skill ? e->system_skill : e->system_base, msgs, e->spec.max_tokens,
                   e->spec.temperature};
  char err[512];
  x->started = uv_hrtime();
  x->t.started_at = upk__eval_wall_now();
  if (!msgs || upk_complete(e->models, x->t.model, &chat, &e->spec.policy, on_answer, NULL, x,
                            &x->comp, err, sizeof err)) {
    x->t.error = upk_xstrdup(msgs ? err : "out of memory");
    upk__eval_trial_finished(x);
  } else {
    e->inflight++;
  }
  json_decref(msgs);
}

static void store_run(upk_eval *e);
static void deliver(upk_eval *e);

/* A cost limit was reached: the trials not started are marked not run and end here; those in
 * flight finish (budget.h). */
static void skip_rest(upk_eval *e) {
  for (; e->next < e->n; e->next++) {
    eval_trial *x = &e->trials[e->next];
    x->t.not_run = true;
    x->finished = true;
    x->t.verdict = UPK_ASSERT_SKIPPED;
    e->finished++;
  }
  upk_log(UPK_LOG_INFO, "eval: %s reached, the trials left are not run", e->spec.budget->reason);
}

/* The one place that moves the queue on; the last thing every callback does. */
void upk__eval_pump(upk_eval *e) {
  while (!e->cancelled && e->next < e->n) {
    bool agent = e->trials[e->next].def != NULL;
    if (agent ? e->agents_inflight >= e->spec.max_parallel : e->inflight >= e->spec.concurrency)
      break; /* in order: a full lane holds the queue, as one eval's trials are one plan */
    if (!upk_budget_take(e->spec.budget)) {
      skip_rest(e);
      break;
    }
    start_trial(e, &e->trials[e->next++]);
  }
  if (e->finished < e->n || e->storing)
    return;
  store_run(e);
}

/* ---- the end ---- */

/* The trials side by side, as the outcome hands them up (shallow copies). */
upk_eval_trial *upk__eval_flat_trials(const upk_eval *e) {
  upk_eval_trial *ts = upk_xcalloc(e->n ? e->n : 1, sizeof *ts);
  for (size_t i = 0; ts && i < e->n; i++)
    ts[i] = e->trials[i].t;
  return ts;
}

/* The cases of the tests file refused before they ran, by their numbers there; NULL: none. */
json_t *upk_eval_refused_json(const upk_evalcases *c) {
  if (!c || !c->n_refused)
    return NULL;
  json_t *a = json_array();
  for (size_t i = 0; a && i < c->n_refused; i++)
    json_array_append_new(a, json_pack("{s:I,s:s}", "case", (json_int_t)c->refused[i].number,
                                       "reason", c->refused[i].reason));
  return a;
}

static json_t *build_summary(upk_eval *e) {
  upk_trial *ts = upk_xcalloc(e->n ? e->n : 1, sizeof *ts);
  size_t n = 0;
  for (size_t i = 0; i < e->n; i++) {
    const upk_eval_trial *t = &e->trials[i].t;
    if (t->not_run)
      continue; /* never started: neither a pass nor a failure */
    ts[n++] = (upk_trial){t->model->name,
                          t->with_skill,
                          t->run,
                          e->numbers[t->case_idx],
                          t->verdict,
                          t->answer == NULL,
                          t->report.passed,
                          t->report.n,
                          t->answer ? t->input_tokens : -1,
                          t->answer ? t->output_tokens : -1};
  }
  int rc = upk_evalstats_compute(ts, n, &e->stats);
  free(ts);
  char *text = rc ? NULL : upk_evalstats_json(&e->stats);
  json_t *s = text ? json_loads(text, 0, NULL) : NULL;
  free(text);
  if (!s)
    return NULL;
  json_object_set_new(s, "skill", json_string(e->spec.skill_name ? e->spec.skill_name : ""));
  json_object_set_new(s, "trials", json_integer((json_int_t)e->n));
  json_object_set_new(s, "cases", json_integer((json_int_t)e->spec.n_subset));
  json_object_set_new(s, "runs", json_integer(e->spec.runs));
  json_object_set_new(s, "baseline", json_boolean(e->spec.baseline));
  json_object_set_new(s, "baselineSkill", json_boolean(e->spec.baseline_md != NULL));
  json_object_set_new(s, "concurrency", json_integer(e->spec.concurrency));
  json_object_set_new(s, "elapsedMs", json_real(upk__eval_ms_since(e->started)));
  json_t *errored = upk__eval_errors_json(e);
  json_object_set_new(
      s, "status",
      json_string(json_array_size(json_object_get(errored, "failedModels")) ? "failed" : "ok"));
  json_object_set_new(s, "errored", errored);
  if (e->refused)
    json_object_set(s, "refusedCases", e->refused);
  upk_eval_trial *flat = upk__eval_flat_trials(e);
  size_t ran = 0;
  for (size_t i = 0; flat && i < e->n; i++)
    if (!flat[i].not_run) {
      flat[ran] = flat[i];
      flat[ran++].case_idx = e->numbers[flat[i].case_idx];
    }
  json_t *agents = flat ? upk_eval_agent_summary(flat, ran) : NULL;
  free(flat);
  if (agents)
    json_object_set_new(s, "agents", agents);
  json_t *stopped = upk_budget_stopped_json(e->spec.budget);
  if (stopped) { /* a partial result: say why and how much was left */
    json_object_set_new(s, "stopped", stopped);
    json_object_set_new(s, "notRun", json_integer((json_int_t)(e->n - ran)));
  }
  return s;
}

/* Thread pool: run.json, one transcript per trial, summary.json. */
static void store_work(uv_work_t *w) {
  upk_eval *e = w->data;
  if (!e->spec.runs_dir) {
    upk_rmtree_at(AT_FDCWD, e->agent_root); /* only agent runs come here unstored */
    return;
  }
  const char *names[64];
  size_t nm = e->spec.n_models < 64 ? e->spec.n_models : 64;
  for (size_t i = 0; i < nm; i++)
    names[i] = e->model_copy[i].name;
  upk_run_meta meta = {e->spec.kind ? e->spec.kind : "eval",
                       e->spec.skill_name,
                       names,
                       nm,
                       e->spec.runs,
                       e->spec.baseline,
                       e->spec.n_subset};
  int rc = upk_run_create(e->spec.runs_dir, &meta, &e->run);
  if (!rc && e->agent_root)
    rc = upk__eval_move_agent_runs(e);
  for (size_t i = 0; !rc && i < e->n; i++) {
    const upk_eval_trial *t = &e->trials[i].t;
    if (t->not_run)
      continue;
    json_t *agent = upk_eval_agent_record(t);
    upk_transcript tr = {t->model->name,
                         t->with_skill,
                         t->run,
                         e->numbers[t->case_idx],
                         t->agent_name   ? NULL /* the agent's own */
                         : t->with_skill ? e->system_skill
                                         : e->system_base,
                         t->prompt,
                         t->answer,
                         t->error,
                         t->input_tokens,
                         t->output_tokens,
                         t->duration_ms,
                         t->answer ? &t->report : NULL,
                         agent};
    rc = upk_run_write_transcript(&e->run, &tr);
    json_decref(agent);
  }
  if (!rc)
    rc = upk_run_write_summary(&e->run, e->summary_text);
  if (!rc && e->layouts)
    upk__eval_write_layout(e);
  if (rc) {
    snprintf(e->store_err, sizeof e->store_err, "cannot store the run under %s: %s",
             e->spec.runs_dir, strerror(-rc));
    if (e->run.dir) /* a run is stored whole or not at all (a full disk, a killed write) */
      upk_rmtree_at(AT_FDCWD, e->run.dir);
  }
}

static void store_done(uv_work_t *w, int status) {
  upk_eval *e = w->data;
  if (status && !e->store_err[0])
    snprintf(e->store_err, sizeof e->store_err, "the run was not stored: %s", uv_strerror(status));
  if (e->cancelled) {
    eval_free(e);
    return;
  }
  deliver(e);
}

static void store_run(upk_eval *e) {
  e->storing = true;
  e->summary = build_summary(e);
  if (e->spec.runs_dir)
    upk__eval_plan_layout(e);
  e->summary_text = e->summary ? json_dumps(e->summary, JSON_INDENT(2)) : NULL;
  if (!e->summary_text) {
    snprintf(e->store_err, sizeof e->store_err, "out of memory building the summary");
    deliver(e);
    return;
  }
  if (!e->spec.runs_dir && !e->agent_root) {
    deliver(e);
    return;
  }
  e->work.data = e;
  int rc = uv_queue_work(upk_session_loop(e->server), &e->work, store_work, store_done);
  if (rc) {
    snprintf(e->store_err, sizeof e->store_err, "cannot queue the store: %s", uv_strerror(rc));
    deliver(e);
  }
}

static void deliver(upk_eval *e) {
  upk_eval_trial *ts = upk__eval_flat_trials(e);
  upk_eval_outcome o = {ts,
                        ts ? e->n : 0,
                        &e->stats,
                        e->summary,
                        e->run.dir ? e->run.id : "",
                        e->run.dir,
                        e->store_err[0] ? e->store_err : NULL,
                        e->layout_err[0] ? e->layout_err : NULL,
                        upk__eval_ms_since(e->started)};
  e->done(e->arg, &o);
  free(ts);
  eval_free(e);
}

/* ---- start and cancel ---- */

static int copy_spec(upk_eval *e, const upk_eval_spec *spec) {
  e->spec = *spec;
  e->model_copy = upk_xmalloc(spec->n_models * sizeof *e->model_copy);
  size_t n = spec->subset ? spec->n_subset : spec->cases->n;
  e->subset_copy = upk_xmalloc((n ? n : 1) * sizeof *e->subset_copy);
  e->numbers = upk_xcalloc(spec->cases->n + 1, sizeof *e->numbers);
  for (size_t i = 0; i < spec->cases->n; i++)
    e->numbers[i] = upk_evalcases_number(spec->cases, i);
  e->refused = upk_eval_refused_json(spec->cases);
  memcpy(e->model_copy, spec->models, spec->n_models * sizeof *e->model_copy);
  for (size_t i = 0; i < n; i++)
    e->subset_copy[i] = spec->subset ? spec->subset[i] : i;
  e->spec.models = e->model_copy;
  if (spec->grader) {
    e->grader_copy = *spec->grader;
    e->spec.grader = &e->grader_copy;
  }
  e->spec.subset = e->subset_copy;
  /* What store_work reads on the thread pool: the caller may go away first. */
  e->spec.runs_dir = e->own_runs_dir = upk_xstrdup(spec->runs_dir);
  e->spec.skill_name = e->own_skill_name = upk_xstrdup(spec->skill_name);
  e->spec.kind = e->own_kind = upk_xstrdup(spec->kind);
  e->spec.n_subset = n;
  if (!e->spec.concurrency)
    e->spec.concurrency = DEFAULT_CONCURRENCY;
  if (!e->spec.max_parallel)
    e->spec.max_parallel = uv_available_parallelism();
  if (upk__eval_copy_agents(e, spec))
    return -ENOMEM;
  if (!e->spec.kernel_timeout_ms)
    e->spec.kernel_timeout_ms = KERNEL_TIMEOUT_MS;
  e->system_skill = upk_eval_system_prompt(spec->skill_name, spec->skill_md);
  /* The older skill, where one is compared, takes the empty baseline's place. */
  e->system_base = spec->baseline_md ? upk_eval_system_prompt(spec->skill_name, spec->baseline_md)
                                     : upk_xstrdup(SYSTEM_BASE);
  return 0;
}

/* Trials in model, run, case order, the two conditions of a pair side by side. */
static int plan_trials(upk_eval *e) {
  const upk_eval_spec *s = &e->spec;
  size_t per = s->baseline ? 2 : 1;
  e->n = s->n_models * s->runs * s->n_subset * per;
  e->trials = upk_xcalloc(e->n ? e->n : 1, sizeof *e->trials);
  size_t k = 0;
  for (size_t m = 0; m < s->n_models; m++)
    for (unsigned r = 0; r < s->runs; r++)
      for (size_t c = 0; c < s->n_subset; c++)
        for (size_t p = 0; p < per; p++) {
          eval_trial *x = &e->trials[k++];
          x->e = e;
          x->t = (upk_eval_trial){.model = &s->models[m],
                                  .with_skill = p == 0,
                                  .run = r,
                                  .case_idx = s->subset[c],
                                  .input_tokens = -1,
                                  .output_tokens = -1,
                                  .verdict = UPK_ASSERT_PENDING};
          x->t.prompt = upk_evalcase_prompt(&s->cases->items[s->subset[c]]);
          x->t.exit_status = -1;
          if (!x->t.prompt)
            return -ENOMEM;
          if (s->agents && s->agents[m].name)
            upk__eval_plan_agent(e, x, m);
        }
  return 0;
}

static int check_spec(const upk_eval_spec *spec, char *err, size_t errlen) {
  const char *why = !spec->cases || !spec->cases->n ? "no test cases to run"
                    : !spec->n_models               ? "no models to evaluate"
                    : !spec->runs                   ? "runs must be at least 1"
                    : !spec->skill_md               ? "no skill to evaluate"
                                                    : NULL;
  for (size_t i = 0; !why && spec->subset && i < spec->n_subset; i++)
    if (spec->subset[i] >= spec->cases->n)
      why = "a case index is out of range";
  if (!why && spec->subset && !spec->n_subset)
    why = "no test cases to run";
  if (why)
    snprintf(err, errlen, "%s", why);
  return why ? -EINVAL : 0;
}

static void eval_begin(void *arg) {
  upk_eval *e = arg;
  upk__eval_pump(e);
}

int upk_eval_start(upk_server *s, const upk_eval_spec *spec, upk_eval_progress_cb progress,
                   upk_eval_done_cb done, void *arg, upk_eval **out, char *err, size_t errlen) {
  int rc = check_spec(spec, err, errlen);
  if (rc)
    return rc;
  upk_models *models = upk_models_get(s);
  if (!models) {
    snprintf(err, errlen, "the completion service is not available");
    return -EAGAIN;
  }
  upk_eval *e = upk_xcalloc(1, sizeof *e);
  e->server = s;
  e->models = models;
  e->progress = progress;
  e->done = done;
  e->arg = arg;
  e->started = uv_hrtime();
  if (copy_spec(e, spec) || plan_trials(e)) {
    snprintf(err, errlen, "out of memory");
    eval_free(e);
    return -ENOMEM;
  }
  *out = e;
  upk_log(UPK_LOG_INFO, "eval: %zu trials, %zu models, concurrency %u", e->n, e->spec.n_models,
          e->spec.concurrency);
  /* A trial refused at once (no key) finishes when it starts: from the loop, never in here. */
  upk_defer(upk_session_defer(s), &e->begin, eval_begin, e);
  return 0;
}

void upk_eval_cancel(upk_eval *e) {
  if (!e)
    return;
  if (e->agent_root && !e->work.data) {
    upk__eval_remove_later(upk_session_loop(e->server), e->agent_root);
    e->agent_root = NULL;
  }
  e->cancelled = true;
  upk_defer_cancel(&e->begin);
  for (size_t i = 0; i < e->n; i++) {
    eval_trial *x = &e->trials[i];
    upk_completion_cancel(x->comp);
    x->comp = NULL;
    upk_agent_run_cancel(x->arun);
    x->arun = NULL;
    upk__eval_cancel_grades(x);
    upk__eval_cancel_exec(x);
    for (size_t k = 0; k < x->n_slots; k++) {
      upk_kcheck_cancel(x->slots[k].handle);
      x->slots[k].handle = NULL;
    }
  }
  if (!e->work.data)
    eval_free(e); /* else store_done frees once the write has ended */
}
