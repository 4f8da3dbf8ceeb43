/* What an evaluation records of its agent runs (eval_service.h, "agent runs"). */
#include "daemon/eval/eval_service_int.h"

#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "common/run.h"
#include "common/log.h"
#include "common/xalloc.h"

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

/* ---- agent trials ---- */

static void on_agent_done(void *arg, const upk_agent_outcome *o) {
  eval_trial *x = arg;
  upk_eval *e = x->e;
  upk_agent_result *r = o->result;
  x->arun = NULL;
  e->agents_inflight--;
  x->t.duration_ms = o->wall_ms > 0 ? o->wall_ms : upk__eval_ms_since(x->started);
  x->t.exit_status = o->exit_status;
  x->t.input_tokens = r->input_tokens;
  x->t.output_tokens = r->output_tokens;
  upk_budget_charge(e->spec.budget, x->t.model->name, r->input_tokens, r->output_tokens,
                    r->cache_read_tokens, r->cost_usd);
  x->t.agent = upk_xmalloc(sizeof *x->t.agent);
  if (x->t.agent) {
    *x->t.agent = *r; /* stolen: the runner frees what is left */
    memset(r, 0, sizeof *r);
  }
  const char *why = !x->t.agent ? "out of memory" : x->t.agent->error;
  if (why || !x->t.agent->answer) {
    x->t.error = upk_xstrdup(why ? why : "the agent gave no final answer");
    upk__eval_trial_finished(x);
  } else {
    x->t.answer = upk_xstrdup(x->t.agent->answer);
    upk__eval_judge(x);
  }
  upk__eval_pump(e);
}

void upk__eval_start_agent(upk_eval *e, eval_trial *x) {
  const upk_evalcase *c = &e->spec.cases->items[x->t.case_idx];
  const char **names = upk_xcalloc(c->n_files + 1, sizeof *names);
  const char **texts = upk_xcalloc(c->n_files + 1, sizeof *texts);
  for (size_t i = 0; names && texts && i < c->n_files; i++)
    names[i] = c->files[i].name, texts[i] = c->files[i].content;
  upk_agent_task t = {.def = x->def,
                      .model = x->t.model->id,
                      .dir = x->dir,
                      .prompt = c->input,
                      .skill_dir = x->t.with_skill ? e->spec.skill_dir : e->spec.baseline_dir,
                      .skill_name = e->spec.skill_name ? e->spec.skill_name : "skill",
                      .skill_md = x->t.with_skill ? e->spec.skill_md : e->spec.baseline_md,
                      .file_names = names,
                      .file_texts = texts,
                      .n_files = c->n_files};
  for (size_t i = 0; i < c->n_asserts; i++)
    t.git_baseline |= c->asserts[i].kind == UPK_ASSERT_DIFF;
  x->started = uv_hrtime();
  x->t.started_at = upk__eval_wall_now();
  int rc = names && texts
               ? upk_agent_run_start(upk_session_loop(e->server), &t, on_agent_done, x, &x->arun)
               : -ENOMEM;
  free(names);
  free(texts);
  if (rc) {
    x->t.error = upk_xstrdup("cannot start the agent run: out of memory");
    upk__eval_trial_finished(x);
  } else {
    e->agents_inflight++;
  }
}

/* The agent runs' directories become the run's agents/ (one rename: the
 * root is beside the run, in the same runs directory). */
static int copy_tree(const char *from, const char *to) {
  const char *argv[] = {"cp", "-a", "--", from, to, NULL};
  upk_run_result res = {0};
  int rc = upk_run_program(argv, NULL, NULL, 600000, 4096, &res);
  if (!rc && res.exit_code)
    rc = -EIO;
  upk_run_result_free(&res);
  if (!rc)
    upk_rmtree_at(AT_FDCWD, from);
  return rc;
}

int upk__eval_move_agent_runs(upk_eval *e) {
  char *dest = upk_xasprintf("%s/agents", e->run.dir);
  int rc = rename(e->agent_root, dest) == 0 || errno == ENOENT ? 0 : -errno;
  if (rc == -EXDEV) /* run in TMPDIR, stored elsewhere: copied, then removed */
    rc = copy_tree(e->agent_root, dest);
  if (rc) {
    free(dest);
    return rc;
  }
  size_t root_len = strlen(e->agent_root);
  for (size_t i = 0; i < e->n; i++) {
    eval_trial *x = &e->trials[i];
    if (x->dir && !x->t.not_run)
      x->t.agent_dir = upk_xasprintf("%s%s", dest, x->dir + root_len);
  }
  free(dest);
  return 0;
}

/* The Agent Skills layout beside upskilld's own records, one per model (skill-creator's
 * layout has one executor): <run>/agentskills/<model>/. A failure is reported, the run kept. */
void upk__eval_write_layout(upk_eval *e) {
  char parent[4200];
  snprintf(parent, sizeof parent, "%s/agentskills", e->run.dir);
  int rc = 0;
  for (size_t m = 0; !rc && m < e->spec.n_models; m++) {
    eval_layout_part *part = &e->layouts[m];
    char comp[160];
    upk_run_model_component(e->spec.models[m].name, comp, sizeof comp);
    char *dir = upk_xasprintf("%s/%s", parent, comp);
    for (size_t i = 0; !rc && i < part->n; i++)
      rc = upk_eval_layout_set_dir(part->plan, i, e->trials[part->idx[i]].t.agent_dir);
    if (rc)
      snprintf(e->layout_err, sizeof e->layout_err, "out of memory");
    else if (!(rc = upk_mkdir_p(parent, 0755))) /* the writer creates <model>/ whole */
      rc = upk_eval_layout_write(part->plan, dir, e->layout_err, sizeof e->layout_err);
    free(dir);
  }
}

void upk__eval_plan_layout(upk_eval *e) {
  upk_eval_trial *flat = upk__eval_flat_trials(e), *mine = upk_xcalloc(e->n + 1, sizeof *mine);
  upk_eval_layout l = {e->spec.skill_name, e->spec.skill_dir, e->spec.cases, e->spec.evals,
                       e->spec.baseline_md != NULL};
  e->layouts = upk_xcalloc(e->spec.n_models, sizeof *e->layouts);
  bool ok = flat && mine && e->layouts;
  for (size_t m = 0; ok && m < e->spec.n_models; m++) {
    eval_layout_part *part = &e->layouts[m];
    ok = (part->idx = upk_xcalloc(e->n + 1, sizeof *part->idx)) != NULL;
    for (size_t i = 0; ok && i < e->n; i++)
      if (e->trials[i].t.model == &e->spec.models[m] && !e->trials[i].t.not_run) {
        mine[part->n] = flat[i];
        part->idx[part->n++] = i;
      }
    ok = ok && (part->plan = upk_eval_layout_plan_new(&l, mine, part->n)) != NULL;
  }
  free(flat);
  free(mine);
  if (!ok) {
    upk__eval_free_layouts(e);
    snprintf(e->layout_err, sizeof e->layout_err, "out of memory");
  }
}

void upk__eval_free_layouts(upk_eval *e) {
  for (size_t m = 0; e->layouts && m < e->spec.n_models; m++) {
    upk_eval_layout_free(e->layouts[m].plan);
    free(e->layouts[m].idx);
  }
  free(e->layouts);
  e->layouts = NULL;
}

/* Agent definitions and the skill's folder are read when a run starts, maybe
 * after the caller has gone: copied. */
/* Does `dir` or a folder above it hold what an agent reads from every parent: one of the
 * agents' skills folders, or CLAUDE.md / AGENTS.md? The first one found goes in `what`. */
static bool leaks_into(const char *dir, const upk_agent_def *defs, size_t n, char *what,
                       size_t len) {
  static const char *const notes[] = {"CLAUDE.md", "AGENTS.md", ".claude/skills"};
  char path[4096];
  snprintf(path, sizeof path, "%s", dir);
  for (char *end = path + strlen(path);; end = strrchr(path, '/')) {
    if (!end)
      return false;
    *end = '\0';
    for (size_t i = 0; i < n + 3; i++) {
      const char *rel = i < 3 ? notes[i] : defs[i - 3].skills_dir;
      char probe[4200];
      struct stat st;
      if (!rel ||
          snprintf(probe, sizeof probe, "%s/%s", *path ? path : "", rel) >= (int)sizeof probe ||
          stat(probe, &st) != 0)
        continue;
      if (what)
        snprintf(what, len, "%s", probe);
      return true;
    }
    if (!*path)
      return false;
  }
}

int upk__eval_copy_agents(upk_eval *e, const upk_eval_spec *spec) {
  bool any = false;
  for (size_t i = 0; spec->agents && i < spec->n_models; i++)
    any |= spec->agents[i].name != NULL;
  e->spec.agents = NULL;
  if (!any)
    return 0;
  e->defs = upk_xcalloc(spec->n_models, sizeof *e->defs);
  for (size_t i = 0; i < spec->n_models; i++)
    if (spec->agents[i].name && upk_agent_def_copy(&e->defs[i], &spec->agents[i]))
      return -ENOMEM;
  e->spec.agents = e->defs;
  e->spec.skill_dir = e->own_skill_dir = upk_xstrdup(spec->skill_dir);
  e->spec.baseline_dir = e->own_baseline_dir = upk_xstrdup(spec->baseline_dir);
  /* Beside the runs (one rename stores them), unless a folder above them holds skills or
   * instructions an agent would pick up (Claude Code reads .claude/skills and CLAUDE.md in
   * every parent, so runs under ~ would see the user's own skills): then in TMPDIR. */
  static unsigned seq;
  const char *tmp = getenv("TMPDIR");
  const char *base = tmp && *tmp ? tmp : "/tmp";
  if (spec->runs_dir && !leaks_into(spec->runs_dir, e->defs, spec->n_models, NULL, 0))
    base = spec->runs_dir;
  char leak[512] = "";
  if (leaks_into(base, e->defs, spec->n_models, leak, sizeof leak))
    upk_log(UPK_LOG_WARN, "eval: agents run under %s will also see %s", base, leak);
  e->agent_root = upk_xasprintf("%s/.agent-runs-%d-%u-%llu", base, (int)getpid(), ++seq,
                                (unsigned long long)uv_hrtime());
  return 0;
}

/* An agent trial's directory: <root>/<model>/<condition>/run-<r>/case-<c>. */
void upk__eval_plan_agent(upk_eval *e, eval_trial *x, size_t m) {
  char comp[160];
  upk_run_model_component(e->spec.models[m].name, comp, sizeof comp);
  x->def = &e->spec.agents[m];
  x->t.agent_name = x->def->name;
  x->dir = upk_xasprintf("%s/%s/%s/run-%u/case-%zu", e->agent_root, comp,
                         x->t.with_skill ? "with_skill" : "baseline", x->t.run + 1,
                         upk_evalcases_number(e->spec.cases, x->t.case_idx) + 1);
}

/* A cancelled evaluation's agent runs are removed off the loop; the path is owned. */
typedef struct rm_later {
  uv_work_t work;
  char *path;
} rm_later;

static void rm_work(uv_work_t *w) {
  upk_rmtree_at(AT_FDCWD, ((rm_later *)w->data)->path);
}

static void rm_done(uv_work_t *w, int status) {
  (void)status;
  rm_later *r = w->data;
  free(r->path);
  free(r);
}

void upk__eval_remove_later(uv_loop_t *loop, char *path) {
  rm_later *r = upk_xcalloc(1, sizeof *r);
  if (r) {
    r->path = path;
    r->work.data = r;
    if (!uv_queue_work(loop, &r->work, rm_work, rm_done))
      return;
    free(r);
  }
  upk_log(UPK_LOG_WARN, "eval: cannot remove %s", path);
  free(path);
}
