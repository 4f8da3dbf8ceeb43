/* skills/generate (MCP `generate_skill`): params checked on the loop, the
 * models resolved and `from` read on the thread pool, then gen_service.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "skills/agents.h"
#include "skills/eval/condense.h"
#include "common/diag_json.h"
#include "daemon/core/guard.h"
#include "daemon/eval/eval_methods_int.h"
#include "skills/fsutil.h"
#include "protocol/jsonrpc.h"
#include "skills/skill.h"
#include "common/xalloc.h"

/* ---- skills/generate ---- */

static void gen_load(ecall *c) {
  const char *model = upk__em_str(c, "model"), *tg = upk__em_str(c, "testGenModel"),
             *from = upk__em_str(c, "from");
  /* An agent teacher (agent:claude-code) runs with the powers an agent eval target has: the
   * user chose its command (docs/security.md). */
  if (upk__em_resolve_teacher(c, model ? model : c->cfg.skill_generation_model,
                              model ? "params.model" : "config skill_generation_model", &c->teacher,
                              &c->teacher_agent))
    return;
  const char *tgn = tg ? tg : c->cfg.test_gen_model;
  if (tgn) {
    if (upk__em_resolve_teacher(c, tgn, "params.testGenModel", &c->test_gen, &c->test_gen_agent))
      return;
  } else {
    c->test_gen = c->teacher;
    if (c->teacher_agent.name && upk_agent_def_copy(&c->test_gen_agent, &c->teacher_agent)) {
      upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
      return;
    }
  }
  if (json_array_size(json_object_get(c->params, "evalModels"))) {
    upk__em_load_models(c, "evalModels");
  } else if (c->cfg.eval_model) {
    upk__em_resolve_target(c, c->cfg.eval_model, "config eval_model");
  } else { /* upskill's default: the teacher */
    if (c->teacher_agent.name && upk_agent_def_copy(&c->agents[c->n_models], &c->teacher_agent)) {
      upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "out of memory");
      return;
    }
    c->models[c->n_models++] = c->teacher;
  }
  if (!c->code && json_object_get(c->params, "trigger"))
    upk__tr_load(
        c, 3, "triggerHoldout"); /* its queries become c->cases, which generation does not read */
  if (c->code || !from)
    goto out;
  char *p = upk__em_abs(c->workspace, from), *md = NULL;
  struct stat st;
  if (!p || stat(p, &st)) {
    upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.from: %s: %s", from,
                 strerror(p ? errno : ENOMEM));
  } else { /* a skill to improve, or a trace: read where the asker may read (eval_inputs.c) */
    md = S_ISDIR(st.st_mode) ? upk_xasprintf("%s/SKILL.md", p) : NULL;
    char why[1024];
    size_t len;
    if (upk__em_read_input(c, md ? md : p, md ? UPK_SKILL_MAX_BYTES : TRACE_MAX,
                           md ? &c->skill_md : &c->trace, &len, why, sizeof why))
      upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "params.from: %s", why);
    else if (md)
      c->skill_name = upk_xstrdup(strrchr(p, '/') ? strrchr(p, '/') + 1 : p);
  }
  free(md);
  free(p);
out:
  if (!c->code && upk__em_str(c, "output"))
    c->output = upk__em_abs(c->workspace, upk__em_str(c, "output"));
  if (!c->code)
    upk__em_limits_load(
        c, (const upk_model *const[]){&c->teacher, &c->test_gen, upk__tr_teacher(c), NULL});
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
  upk__em_config_note(c, result);
  if (!code && c->trig) {
    upk__tr_after_generate(c, result);
    return;
  }
  if (code)
    upk_job_fail_data(c->job, code, json_incref(result), "%s", message);
  else
    upk_job_reply(c->job, json_incref(result));
  upk__em_free(c);
}

static void gen_run(ecall *c) {
  if (c->dry_run) { /* the plan, and nothing called */
    json_t *plan = upk__em_gen_plan(c);
    upk__em_config_note(c, plan);
    plan ? upk_job_reply(c->job, plan)
         : upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "out of memory");
    upk__em_free(c);
    return;
  }
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
      .task = upk__em_str(c, "task"),
      .trace = c->trace,
      .existing_skill = c->skill_md,
      .examples = examples,
      .n_examples = ne,
      .teacher = c->teacher,
      .test_gen = c->test_gen,
      .teacher_agent = &c->teacher_agent,
      .test_gen_agent = &c->test_gen_agent,
      .eval_models = c->models,
      .n_eval_models = c->n_models,
      .eval_agents = c->agents,
      .max_parallel = upk__em_max_parallel(c),
      .attempts = upk__em_uint(
          c, "attempts", c->cfg.max_refine_attempts > 0 ? (unsigned)c->cfg.max_refine_attempts : 2),
      .n_tests = upk__em_uint(c, "tests", 0),
      .holdout = holdout ? json_number_value(holdout) : -1,
      .seed = upk__em_uint(c, "seed", 0),
      .runs = (unsigned)json_integer_value(json_object_get(c->params, "runs")),
      .concurrency = (unsigned)json_integer_value(json_object_get(c->params, "concurrency")),
      .kernel = json_is_true(json_object_get(c->params, "kernel")),
      .policy = upk__em_policy(&c->cfg),
      .skills_dir = c->skills_dir,
      .output = c->output,
      .runs_dir = c->runs_dir,
      .install = inst != NULL,
      .agents = agents,
      .n_agents = na,
      .scope = scope && !strcmp(scope, "user") ? UPK_SCOPE_USER : UPK_SCOPE_PROJECT,
      .budget = &c->budget};
  int rc = upk_gen_start(c->job->server, &spec, gen_progress, gen_done, c, &c->gen);
  if (rc) {
    upk_job_fail(c->job, UPK_RPC_INTERNAL_ERROR, "cannot start: %s", strerror(-rc));
    upk__em_free(c);
  }
}

/* The table checked types, ranges and install's shape; what is left needs the agents table. */
static int check_gen(upk_job *job, json_t *params) {
  json_t *inst = json_object_get(params, "install"), *v;
  size_t i;
  if (json_array_size(json_object_get(params, "evalModels")) > MAX_MODELS)
    return upk__em_bad(job, "params.evalModels: at most 32");
  json_array_foreach(json_object_get(inst, "agents"), i, v) {
    if (!upk_agent_find(json_string_value(v)))
      return upk__em_bad(job, "params.install.agents: unknown agent");
  }
  /* An agent reads and writes in its places, and installs into the user's own skill
   * directories only with the user's --agent-allow=user-skills (guard.h). */
  const char *from = json_string_value(json_object_get(params, "from"));
  const char *output = json_string_value(json_object_get(params, "output"));
  const char *scope = json_string_value(json_object_get(inst, "scope"));
  if (from && !upk_guard_path(job, from, false, "params.from"))
    return -1;
  if (output && !upk_guard_path(job, output, true, "params.output"))
    return -1;
  if (scope && !strcmp(scope, "user") &&
      !upk_guard_allow(job, UPK_AGENT_ALLOW_USER_SKILLS,
                       "install.scope 'user' (the skill directories every project of yours reads)"))
    return -1;
  return 0;
}

void upk_gen_handler(upk_job *job, json_t *params) {
  if (!check_gen(job, params))
    upk__em_start(job, params, gen_load, gen_run);
}

static const upk_param install_fields[] = {
    {"agents", UPK_T_ARRAY, 0, "Agents to install for.", UPK_ITEMS(UPK_T_STRING)},
    {"scope", UPK_T_STRING, 0, NULL, UPK_ONE_OF("project", "user"), .def = "project"},
    {0},
};

const upk_param upk_gen_params[] = {
    {"task", UPK_T_STRING, 1, "What the skill should teach an agent to do."},
    {"from", UPK_T_STRING, 0, "An agent trace (Markdown, JSON, JSONL) or a skill dir to improve."},
    {"examples", UPK_T_ARRAY, 0, "\"input -> output\" examples.", UPK_ITEMS(UPK_T_STRING)},
    {"model", UPK_T_STRING, 0,
     "Teacher model (default: config skill_generation_model); agent:claude-code, agent:codex "
     "or agent:NAME run that agent CLI headless as the teacher."},
    {"testGenModel", UPK_T_STRING, 0,
     "Model (or agent:NAME) that writes the tests (default: test_gen_model, else the teacher)."},
    {"evalModels", UPK_T_ARRAY, 0,
     "Student models the skill is refined for, at most 32 (default: eval_model); "
     "agent:claude-code, agent:codex or agent:NAME run that agent CLI.",
     UPK_ITEMS(UPK_T_STRING)},
    {"maxParallel", UPK_T_INTEGER, 0, "Agent runs at once (default: the core count).",
     UPK_RANGE(1, MAX_CONCURRENCY)},
    {"trigger", UPK_T_ANY, 0,
     "After saving: refine the description against this trigger eval set "
     "([{query, should_trigger}] or a file), on the agent evalModels; the best is written.",
     UPK_ANY_OF({.type = UPK_T_STRING}, {.type = UPK_T_ARRAY, UPK_ITEMS(UPK_T_OBJECT)},
                {.type = UPK_T_OBJECT})},
    {"optimize", UPK_T_INTEGER, 0, "With trigger: better descriptions to try (default 3).",
     UPK_RANGE(0, 20)},
    {"triggerHoldout", UPK_T_NUMBER, 0,
     "With trigger: the share of queries held out as the test set (default 0.4).",
     UPK_RANGE(0, 0.95)},
    {"attempts", UPK_T_INTEGER, 0, "Skills evaluated at most (default max_refine_attempts).",
     UPK_RANGE(1, 20)},
    {"tests", UPK_T_INTEGER, 0, "Test cases to write (default 6).", UPK_RANGE(1, 50)},
    {"holdout", UPK_T_NUMBER, 0, "Fraction of cases held out for the final score (default 0.34).",
     UPK_RANGE_BELOW(0, 1)},
    {"seed", UPK_T_INTEGER, 0, "Seed of the refinement/held-out split."},
    {"runs", UPK_T_INTEGER, 0, "Runs per case and condition.", UPK_RANGE(1, 100), .def = "1"},
    {"concurrency", UPK_T_INTEGER, 0, "Model calls in flight at most.",
     UPK_RANGE(1, MAX_CONCURRENCY), .def = "8"},
    {"kernel", UPK_T_BOOLEAN, 0, "Allow compiles/resources assertions in the tests.",
     .def = "false"},
    {"output", UPK_T_STRING, 0, "Skill directory to write (default skills_dir/<name>)."},
    {"install", UPK_T_OBJECT, 0, "Install it afterwards through the skills library.",
     .props = install_fields},
    EM_LIMIT_PARAMS,
    {0},
};

/* ---- skills/condense (MCP `condense_trace`) ---- */

/* In upk_trace_format's order; the params table offers the same list. */
#define TRACE_FORMAT_NAMES "auto", "markdown", "json", "jsonl", "codex"
static const char *const TRACE_FORMATS[] = {TRACE_FORMAT_NAMES, NULL};

const upk_param upk_condense_params[] = {
    {"trace", UPK_T_STRING, 0,
     "An agent trace file: Markdown, a JSON message array (Anthropic, OpenAI), Claude Code "
     "session JSONL or a Codex CLI rollout."},
    {"text", UPK_T_STRING, 0, "The trace itself, instead of a file."},
    {"budget", UPK_T_INTEGER, 0, "Tokens the condensed trace may take.",
     UPK_RANGE(UPK_CONDENSE_MIN_BUDGET, 1000000),
     .def = UPK_STRINGIFY(UPK_CONDENSE_DEFAULT_BUDGET)},
    {"format", UPK_T_STRING, 0, "How to read the trace (auto: tell from its content).",
     UPK_ONE_OF(TRACE_FORMAT_NAMES), .def = "auto"},
    {0},
};

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

/* A trace refused: -32602 whose message ends with the diagnostic's code (an MCP client that
 * shows only the text still sees it), and data {code, diagnostics: [one error]}. `file`: the
 * trace's path as given, NULL for params.text. */
static void condense_refuse(ecall *c, const char *key, const char *file, const char *code,
                            const char *why) {
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, code, "upskilld-trace", upk_range_line(0, 0, 0), "%s", why);
  if (d.len && file)
    d.items[0].file = upk_xstrdup(file);
  c->data = json_pack("{s:s,s:o}", "code", code, "diagnostics", upk_diags_json(&d));
  upk_diags_free(&d);
  upk__em_fail(c, UPK_RPC_INVALID_PARAMS, "%s: %s (%s)", key, why, code);
}

static void condense_load(ecall *c) {
  const char *path = upk__em_str(c, "trace"), *text = upk__em_str(c, "text");
  const char *key = path ? "params.trace" : "params.text";
  char *raw = NULL;
  size_t len = text ? strlen(text) : 0;
  size_t budget = (size_t)json_integer_value(json_object_get(c->params, "budget"));
  if (path) {
    char why[1024];
    int rc = upk__em_read_input(c, path, TRACE_MAX, &raw, &len, why, sizeof why);
    if (rc) {
      condense_refuse(c, key, path, rc == -EACCES ? "trust/read" : "trace/unreadable", why);
      return;
    }
  }
  upk_condensed o;
  int rc = upk_condense(raw ? raw : text, len,
                        trace_format(json_string_value(json_object_get(c->params, "format"))),
                        budget, &o);
  free(raw);
  if (rc == -EINVAL) {
    condense_refuse(c, key, path, o.error_code ? o.error_code : "trace/not-json", o.error);
  } else if (rc) {
    upk__em_fail(c, UPK_RPC_INTERNAL_ERROR, "condense: %s", strerror(-rc));
  } else {
    c->result = condensed_json(&o, budget);
    upk_condensed_free(&o);
    if (!c->result) /* never a null result: json_pack refuses text that is not UTF-8 */
      upk__em_fail(c, UPK_RPC_INTERNAL_ERROR,
                   "condense: the condensed trace cannot be sent as JSON");
  }
}

static void condense_reply(ecall *c) {
  upk_job_reply(c->job, c->result);
  c->result = NULL;
  upk__em_free(c);
}

/* The table checked budget's range and format's name. */
void upk_condense_handler(upk_job *job, json_t *params) {
  bool has_trace = json_object_get(params, "trace"), has_text = json_object_get(params, "text");
  const char *trace = json_string_value(json_object_get(params, "trace"));
  if (has_trace == has_text)
    upk__em_bad(job, "params: give either trace (a file) or text (the trace itself)");
  else if (trace && !upk_guard_path(job, trace, false, "params.trace"))
    return;
  else
    upk__em_start(job, params, condense_load, condense_reply);
}
