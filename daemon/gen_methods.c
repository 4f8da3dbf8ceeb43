/* skills/generate (MCP `generate_skill`): params checked on the loop, the
 * models resolved and `from` read on the thread pool, then gen_service.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agents.h"
#include "condense.h"
#include "eval_methods_int.h"
#include "fsutil.h"
#include "jsonrpc.h"
#include "skill.h"

/* ---- skills/generate ---- */

static void gen_load(ecall *c) {
  const char *model = em_str(c, "model"), *tg = em_str(c, "testGenModel"),
             *from = em_str(c, "from");
  if (em_resolve(c, model ? model : c->cfg.skill_generation_model, "params.model", &c->teacher))
    return;
  const char *tgn = tg ? tg : c->cfg.test_gen_model;
  if (tgn ? em_resolve(c, tgn, "params.testGenModel", &c->test_gen) : (c->test_gen = c->teacher, 0))
    return;
  if (json_array_size(json_object_get(c->params, "evalModels")))
    em_load_models(c, "evalModels");
  else if (c->cfg.eval_model)
    em_resolve(c, c->cfg.eval_model, "config eval_model", &c->models[c->n_models++]);
  else
    c->models[c->n_models++] = c->teacher; /* upskill's default: the teacher */
  if (c->code || !from)
    goto out;
  char *p = em_abs(c->workspace, from), *md = NULL;
  struct stat st;
  if (!p || stat(p, &st)) {
    em_fail(c, UPK_RPC_INVALID_PARAMS, "params.from: %s: %s", from, strerror(p ? errno : ENOMEM));
  } else if (S_ISDIR(st.st_mode)) { /* a skill to improve */
    if (asprintf(&md, "%s/SKILL.md", p) >= 0 &&
        !em_read_text(c, md, UPK_SKILL_MAX_BYTES, &c->skill_md))
      c->skill_name = strdup(strrchr(p, '/') ? strrchr(p, '/') + 1 : p);
  } else {
    em_read_text(c, p, TRACE_MAX, &c->trace);
  }
  free(md);
  free(p);
out:
  if (!c->code && em_str(c, "output"))
    c->output = em_abs(c->workspace, em_str(c, "output"));
}

static void gen_progress(void *arg, const char *stage, double done, double total, const char *msg) {
  ecall *c = arg;
  char text[600];
  snprintf(text, sizeof text, "%s: %s", stage, msg);
  upk_job_progress(c->job, done, total, text);
}

static void gen_done(void *arg, int code, const char *message, json_t *result) {
  ecall *c = arg;
  c->gen = NULL;
  if (code)
    upk_job_fail_data(c->job, code, json_incref(result), "%s", message);
  else
    upk_job_reply(c->job, json_incref(result));
  em_free(c);
}

static void gen_run(ecall *c) {
  const char *examples[64], *agents[32];
  size_t ne = 0, na = 0, i;
  json_t *v, *inst = json_object_get(c->params, "install");
  json_array_foreach(json_object_get(c->params, "examples"), i, v) if (ne < 64) examples[ne++] =
      json_string_value(v);
  json_array_foreach(json_object_get(inst, "agents"), i, v) if (na < 32) agents[na++] =
      json_string_value(v);
  const char *scope = json_string_value(json_object_get(inst, "scope"));
  json_t *holdout = json_object_get(c->params, "holdout");
  upk_gen_spec spec = {
      .task = em_str(c, "task"),
      .trace = c->trace,
      .existing_skill = c->skill_md,
      .examples = examples,
      .n_examples = ne,
      .teacher = c->teacher,
      .test_gen = c->test_gen,
      .eval_models = c->models,
      .n_eval_models = c->n_models,
      .attempts = em_uint(
          c, "attempts", c->cfg.max_refine_attempts > 0 ? (unsigned)c->cfg.max_refine_attempts : 2),
      .n_tests = em_uint(c, "tests", 0),
      .holdout = holdout ? json_number_value(holdout) : -1,
      .seed = em_uint(c, "seed", 0),
      .runs = em_uint(c, "runs", 1),
      .concurrency = em_uint(c, "concurrency", 8),
      .kernel = json_is_true(json_object_get(c->params, "kernel")),
      .policy = em_policy(&c->cfg),
      .skills_dir = c->skills_dir,
      .output = c->output,
      .runs_dir = c->runs_dir,
      .install = inst != NULL,
      .agents = agents,
      .n_agents = na,
      .scope = scope && !strcmp(scope, "user") ? UPK_SCOPE_USER : UPK_SCOPE_PROJECT};
  int rc = upk_gen_start(c->job->server, &spec, gen_progress, gen_done, c, &c->gen);
  if (rc) {
    upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "cannot start: %s", strerror(-rc));
    em_free(c);
  }
}

static int check_gen(upk_job *job, json_t *params) {
  json_t *inst = json_object_get(params, "install"), *v, *h = json_object_get(params, "holdout");
  size_t i;
  const char *scope = json_string_value(json_object_get(inst, "scope"));
  if (em_check_range(job, params, "attempts", 1, 20) ||
      em_check_range(job, params, "tests", 1, 50) || em_check_range(job, params, "runs", 1, 100) ||
      em_check_range(job, params, "concurrency", 1, MAX_CONCURRENCY))
    return -1;
  if (h && (json_number_value(h) < 0 || json_number_value(h) >= 1))
    return em_bad(job, "params.holdout: a fraction from 0 to below 1");
  if (json_array_size(json_object_get(params, "evalModels")) > MAX_MODELS)
    return em_bad(job, "params.evalModels: at most 32");
  json_array_foreach(
      json_object_get(params, "examples"), i,
      v) if (!json_is_string(v)) return em_bad(job, "params.examples: every item must be a string");
  if (inst && !json_is_object(inst))
    return em_bad(job, "params.install: expected {agents?, scope?}");
  if (scope && strcmp(scope, "project") && strcmp(scope, "user"))
    return em_bad(job, "params.install.scope: expected \"project\" or \"user\"");
  json_array_foreach(json_object_get(inst, "agents"), i, v) {
    if (!json_is_string(v) || !upk_agent_find(json_string_value(v)))
      return em_bad(job, "params.install.agents: unknown agent");
  }
  return 0;
}

void upk_gen_handler(upk_job *job, json_t *params) {
  if (!check_gen(job, params))
    em_start(job, params, gen_load, gen_run);
}

const upk_param upk_gen_params[] = {
    {"task", UPK_T_STRING, 1, "What the skill should teach an agent to do."},
    {"from", UPK_T_STRING, 0, "An agent trace (Markdown, JSON, JSONL) or a skill dir to improve."},
    {"examples", UPK_T_ARRAY, 0, "\"input -> output\" examples."},
    {"model", UPK_T_STRING, 0, "Teacher model (default: config skill_generation_model)."},
    {"testGenModel", UPK_T_STRING, 0, "Model that writes the tests (default: test_gen_model)."},
    {"evalModels", UPK_T_ARRAY, 0,
     "Student models the skill is refined for (default: eval_model)."},
    {"attempts", UPK_T_INTEGER, 0, "Skills evaluated at most (default max_refine_attempts)."},
    {"tests", UPK_T_INTEGER, 0, "Test cases to write (default 6)."},
    {"holdout", UPK_T_NUMBER, 0, "Fraction of cases held out for the final score (default 0.34)."},
    {"seed", UPK_T_INTEGER, 0, "Seed of the refinement/held-out split."},
    {"runs", UPK_T_INTEGER, 0, "Runs per case and condition (default 1)."},
    {"concurrency", UPK_T_INTEGER, 0, "Model calls in flight at most (default 8)."},
    {"kernel", UPK_T_BOOLEAN, 0, "Allow compiles/resources assertions in the tests."},
    {"output", UPK_T_STRING, 0, "Skill directory to write (default skills_dir/<name>)."},
    {"install", UPK_T_OBJECT, 0, "Install it afterwards: {agents?: [...], scope?: project|user}."},
    {0},
};

/* ---- skills/condense (MCP `condense_trace`) ---- */

static const char *const TRACE_FORMATS[] = {"auto", "markdown", "json", "jsonl", "codex", NULL};

static upk_trace_format trace_format(const char *name) {
  for (int i = 0; name && TRACE_FORMATS[i]; i++)
    if (!strcmp(name, TRACE_FORMATS[i]))
      return (upk_trace_format)i; /* listed in the enum's order */
  return UPK_TRACE_AUTO;
}

static json_t *condensed_json(const upk_condensed *o, size_t budget) {
  json_t *left = json_array();
  for (size_t i = 0; i < o->n_left_out; i++) {
    const upk_condense_item *it = &o->left_out[i];
    json_array_append_new(left,
                          json_pack("{s:s,s:s,s:I,s:b}", "kind", it->kind, "what", it->what,
                                    "tokens", (json_int_t)it->tokens, "shortened", it->shortened));
  }
  return json_pack("{s:s,s:s,s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:I,s:o}", "text", o->text,
                   "format", upk_trace_format_name(o->format), "tokens", (json_int_t)o->tokens,
                   "sourceTokens", (json_int_t)o->source_tokens, "budget", (json_int_t)budget,
                   "found", "commands", (json_int_t)o->commands, "errors", (json_int_t)o->errors,
                   "fixes", (json_int_t)o->fixes, "files", (json_int_t)o->files, "facts",
                   (json_int_t)o->facts, "omitted", (json_int_t)o->omitted, "leftOut", left);
}

static void condense_load(ecall *c) {
  const char *path = em_str(c, "trace"), *text = em_str(c, "text");
  const char *key = path ? "params.trace" : "params.text";
  char *raw = NULL;
  size_t len = text ? strlen(text) : 0, budget = em_uint(c, "budget", 0);
  if (path) {
    char *abs = em_abs(c->workspace, path);
    int rc = abs ? upk_read_file_at(AT_FDCWD, abs, TRACE_MAX, &raw, &len) : -ENOMEM;
    free(abs);
    if (rc) {
      c->data = json_pack("{s:s}", "code", "trace/unreadable");
      em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s: %s", key, path, strerror(-rc));
      return;
    }
  }
  upk_condensed o;
  int rc = upk_condense(raw ? raw : text, len, trace_format(em_str(c, "format")), budget, &o);
  free(raw);
  if (rc == -EINVAL) {
    c->data = json_pack("{s:s}", "code", o.error_code ? o.error_code : "trace/not-json");
    em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s", key, o.error);
  } else if (rc) {
    em_fail(c, UPK_RPC_INTERNAL_ERROR, "condense: %s", strerror(-rc));
  } else {
    c->result = condensed_json(&o, budget ? budget : UPK_CONDENSE_DEFAULT_BUDGET);
    upk_condensed_free(&o);
  }
}

static void condense_reply(ecall *c) {
  upk_job_reply(c->job, c->result);
  c->result = NULL;
  em_free(c);
}

void upk_condense_handler(upk_job *job, json_t *params) {
  const char *fmt = json_string_value(json_object_get(params, "format"));
  bool has_trace = json_object_get(params, "trace"), has_text = json_object_get(params, "text");
  if (has_trace == has_text)
    em_bad(job, "params: give either trace (a file) or text (the trace itself)");
  else if (fmt && trace_format(fmt) == UPK_TRACE_AUTO && strcmp(fmt, "auto"))
    em_bad(job, "params.format: expected auto, markdown, json, jsonl or codex");
  else if (!em_check_range(job, params, "budget", UPK_CONDENSE_MIN_BUDGET, 1000000))
    em_start(job, params, condense_load, condense_reply);
}

const upk_param upk_condense_params[] = {
    {"trace", UPK_T_STRING, 0,
     "An agent trace file: Markdown, a JSON message array (Anthropic, OpenAI), Claude Code "
     "session JSONL or a Codex CLI rollout."},
    {"text", UPK_T_STRING, 0, "The trace itself, instead of a file."},
    {"budget", UPK_T_INTEGER, 0,
     "Tokens the condensed trace may take (default 4000, at least 64)."},
    {"format", UPK_T_STRING, 0, "auto (default), markdown, json, jsonl or codex."},
    {0},
};
