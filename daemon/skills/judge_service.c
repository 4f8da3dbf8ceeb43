/* The audit's judge in the daemon: prepared and merged on the queue, asked beside it
 * (judge_service.h). */
#include "daemon/skills/judge_service.h"

#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "common/diag_json.h"
#include "common/fileio.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "daemon/core/guard.h"
#include "models/config.h"
#include "models/models.h"
#include "models/providers.h"
#include "skills/agents.h"
#include "skills/audit_judge.h"

#include "daemon/eval/agent_runner.h" /* the agent CLIs as evals run them (an exception) */
#include "daemon/eval/budget.h"       /* the evals' prices (check-layers.py: an exception) */
#include "skills/eval/agent.h"
#include "skills/fsutil.h"

enum { DEFAULT_TIMEOUT_MS = 120000, ANSWER_TOKENS = 4096, AGENT_PROMPT_MAX = 120 * 1024 };

typedef struct judged {
  upk_judge_input in;
  json_t *entry;
  char *answer;
  char error[512]; /* "" when the judge answered */
  bool cached;     /* the answer came from the cache: no model call */
} judged;

struct upk_audit_judge {
  char *name, *workspace;
  bool fail_hard, dry_run;
  long timeout_ms;
  double max_cost_usd; /* params.maxCostUsd; 0: no limit; -1: given, and not above 0 */
  double estimated;    /* the estimated cost of the calls made so far (an agent: reported) */
  judged *items;
  size_t n, cap;
};

/* The judge's settings from the request (its timeout, dry run, cost limit). */
static void judge_settings(upk_audit_judge *j, const json_t *params) {
  j->dry_run = json_is_true(json_object_get(params, "dryRun"));
  json_int_t ms = json_integer_value(json_object_get(params, "judgeTimeoutMs"));
  j->timeout_ms = ms > 0 ? (long)ms : DEFAULT_TIMEOUT_MS;
  double usd = json_number_value(json_object_get(params, "maxCostUsd"));
  j->max_cost_usd = usd > 0 ? usd : json_object_get(params, "maxCostUsd") ? -1 : 0;
}

bool upk_audit_judge_allowed(upk_job *job, const json_t *params) {
  const char *judge = json_string_value(json_object_get(params, "judge"));
  return !judge || !*judge || json_is_true(json_object_get(params, "dryRun")) ||
         upk_guard_allow(job, UPK_AGENT_ALLOW_JUDGE,
                         "params.judge: sending each skill to a model provider, on your account");
}

upk_audit_judge *upk_audit_judge_new(const json_t *params, const char *workspace) {
  const char *name = json_string_value(json_object_get(params, "judge"));
  const char *fail = json_string_value(json_object_get(params, "judgeFailure"));
  upk_config cfg; /* no judge asked for: the user's audit.judge, if set (a project's is not) */
  char err[256];
  bool from_config =
      (!name || !*name) && upk_config_load(&cfg, workspace, NULL, err, sizeof err) == 0;
  if (from_config && cfg.audit_judge) {
    name = cfg.audit_judge;
    fail = fail ? fail : cfg.audit_judge_failure;
  }
  upk_audit_judge *j = NULL;
  if (name && *name) {
    j = upk_xcalloc(1, sizeof *j);
    j->name = upk_xstrdup(name);
    j->workspace = workspace ? upk_xstrdup(workspace) : NULL;
    j->fail_hard = fail && !strcmp(fail, "fail");
    judge_settings(j, params);
  }
  if (from_config)
    upk_config_free(&cfg);
  return j;
}

void upk_audit_judge_add(upk_audit_judge *j, const char *dir, const upk_diags *rules,
                         json_t *entry) {
  if (j->n == j->cap) {
    j->cap = j->cap ? 2 * j->cap : 4;
    j->items = upk_xrealloc(j->items, j->cap * sizeof *j->items);
  }
  judged *x = &j->items[j->n++];
  *x = (judged){.entry = json_incref(entry)};
  int rc = upk_judge_prepare(dir, rules, UPK_JUDGE_BUDGET, &x->in);
  if (rc)
    snprintf(x->error, sizeof x->error, "the skill's files cannot be read: %s", strerror(-rc));
}

/* ---- one model call on a loop of its own, beside the queue ---- */

typedef struct asking {
  judged *x;
  upk_completion *comp;
  uv_poll_t cancel;
  bool done;
} asking;

static void on_answer(void *arg, const upk_completion_result *r) {
  asking *a = arg;
  a->comp = NULL;
  a->done = true;
  if (r->error)
    snprintf(a->x->error, sizeof a->x->error, "%s", r->message);
  else
    a->x->answer = upk_xstrdup(r->answer->text ? r->answer->text : "");
}

static void on_cancel(uv_poll_t *p, int status, int events) {
  (void)status;
  (void)events;
  asking *a = p->data;
  upk_completion_cancel(a->comp);
  a->comp = NULL;
  a->done = true;
  snprintf(a->x->error, sizeof a->x->error, "cancelled");
}

/* Ask model `m` about x; blocks until it answers, fails, or the call is cancelled. */
static void ask_one(const upk_audit_judge *j, const upk_model *m, judged *x, int cancel_fd) {
  uv_loop_t loop;
  upk_models *models = NULL;
  if (uv_loop_init(&loop)) {
    snprintf(x->error, sizeof x->error, "cannot start the model client");
    return;
  }
  if (upk_models_new(&loop, &models)) {
    snprintf(x->error, sizeof x->error, "cannot start the model client");
    uv_loop_close(&loop);
    return;
  }
  asking a = {.x = x};
  json_t *msgs = json_pack("[{s:s,s:s}]", "role", "user", "content", x->in.prompt);
  upk_chat chat = {x->in.system, msgs, ANSWER_TOKENS, -1};
  upk_retry_policy pol = {.max_attempts = 2, .timeout_ms = j->timeout_ms};
  uv_poll_init(&loop, &a.cancel, cancel_fd);
  a.cancel.data = &a;
  uv_poll_start(&a.cancel, UV_READABLE, on_cancel);
  if (upk_complete(models, m, &chat, &pol, on_answer, NULL, &a, &a.comp, x->error,
                   sizeof x->error) == 0)
    while (!a.done)
      uv_run(&loop, UV_RUN_ONCE);
  json_decref(msgs);
  upk_completion_cancel(a.comp);
  upk_models_free(models);
  uv_close((uv_handle_t *)&a.cancel, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&loop))
    upk_warn("judge: a handle of the model client was left open");
}

/* ---- an agent judge: its CLI run headless (agent_runner.h) with no tool it could be steered
 * into using, in an empty private directory of its own (its own HOME and TMPDIR below it) ---- */

/* Flags that take every tool away, put right after the command's first word (claude) or its
 * subcommand (codex exec): Claude Code with no built-in tool, no MCP server and every permission
 * prompt denied; Codex with no shell, no MCP server, no apps, plugins, browser, computer use,
 * hooks, sub-agents (whose tool_search they bring) or web search, its sandbox read-only and no
 * approval asked. Codex still offers apply_patch (the model's metadata decides it; no flag of
 * codex-cli 0.169 drops it: it meets the read-only sandbox in an empty directory) and
 * request_user_input (headless: no one answers). A feature a Codex build does not know fails
 * its run, and the judge with it, saying so: never a run with the tool left on. */
static const char *const CLAUDE_LOCK[] = {"--tools", "", "--strict-mcp-config", NULL};
static const char *const CODEX_LOCK[] = {"-c",        "approval_policy=\"never\"",
                                         "-c",        "mcp_servers={}",
                                         "-c",        "web_search=\"disabled\"",
                                         "--disable", "shell_tool",
                                         "--disable", "unified_exec",
                                         "--disable", "apps",
                                         "--disable", "plugins",
                                         "--disable", "browser_use",
                                         "--disable", "computer_use",
                                         "--disable", "code_mode_host",
                                         "--disable", "multi_agent",
                                         "--disable", "hooks",
                                         "--disable", "image_generation",
                                         "--disable", "view_image",
                                         "--disable", "tool_suggest",
                                         "--disable", "skill_search",
                                         "--disable", "goals",
                                         "--disable", "sleep_tool",
                                         NULL};

/* argv with `ins` inserted at `at`, and the value after each `flag` (NULL: none) replaced by
 * `value`. */
static char **locked_argv(char **argv, size_t at, const char *const *ins, const char *flag,
                          const char *value) {
  size_t n = 0, k = 0, m = 0;
  while (argv[n])
    n++;
  while (ins[m])
    m++;
  char **v = upk_xcalloc(n + m + 1, sizeof *v);
  for (size_t i = 0; i <= n; i++) {
    if (i == (at < n ? at : n)) /* a command shorter than `at`: at its end */
      for (size_t t = 0; t < m; t++)
        v[k++] = upk_xstrdup(ins[t]);
    bool val = flag && i > 0 && i < n && !strcmp(argv[i - 1], flag);
    if (i < n)
      v[k++] = upk_xstrdup(val ? value : argv[i]);
  }
  return v;
}

/* The agent locked down, or -1 with why: only the two CLIs whose tools upskilld knows how to
 * take away may judge. */
static int lock_agent(upk_agent_def *d, char *err, size_t len) {
  const char *prog = d->command && d->command[0] ? d->command[0] : "";
  const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
  bool claude = d->format == UPK_AGENT_OUT_CLAUDE && !strcmp(base, "claude");
  bool codex = d->format == UPK_AGENT_OUT_CODEX && !strcmp(base, "codex") && d->command[1] &&
               !strcmp(d->command[1], "exec");
  if (!claude && !codex) {
    snprintf(err, len,
             "the agent '%s' (%s) cannot judge: upskilld takes the tools away only from "
             "claude-code and codex; name agent:claude-code, agent:codex or a model",
             d->name, prog);
    return -1;
  }
  char **v = claude ? locked_argv(d->command, 1, CLAUDE_LOCK, "--permission-mode", "dontAsk")
                    : locked_argv(d->command, 2, CODEX_LOCK, "--sandbox", "read-only");
  upk_strv_free(d->command);
  d->command = v;
  return 0;
}

typedef struct agent_ask {
  judged *x;
  upk_agent_run *run;
  uv_poll_t cancel;
  bool done;
  double cost_usd;
} agent_ask;

static void on_agent(void *arg, const upk_agent_outcome *o) {
  agent_ask *a = arg;
  a->run = NULL;
  a->done = true;
  a->cost_usd = o->result->cost_usd;
  if (o->result->error)
    snprintf(a->x->error, sizeof a->x->error, "%s", o->result->error);
  else if (!o->result->answer || !*o->result->answer)
    snprintf(a->x->error, sizeof a->x->error, "the agent gave no final answer");
  else
    a->x->answer = upk_xstrdup(o->result->answer);
}

static void on_agent_cancel(uv_poll_t *p, int status, int events) {
  (void)status;
  (void)events;
  agent_ask *a = p->data;
  upk_agent_run_cancel(a->run); /* kills its process group; on_agent is not called */
  a->run = NULL;
  a->done = true;
  snprintf(a->x->error, sizeof a->x->error, "cancelled");
}

/* The prompt as the agent gets it: Claude Code takes the rubric as a system prompt of its own;
 * Codex reads it first. In argv: an agent with no tools cannot read a file. */
static char *agent_prompt(upk_agent_def *d, const judged *x) {
  if (d->format != UPK_AGENT_OUT_CLAUDE)
    return upk_xasprintf("%s\n\n%s", x->in.system, x->in.prompt);
  const char *const sys[] = {"--append-system-prompt", x->in.system, NULL};
  char **v = locked_argv(d->command, 1, sys, NULL, NULL);
  upk_strv_free(d->command);
  d->command = v;
  return upk_xstrdup(x->in.prompt);
}

/* Run agent `d` on x in directory `dir`, on a loop of this thread's own; returns its cost. */
static double run_agent(const upk_agent_def *d, const char *model, const char *dir,
                        const char *prompt, judged *x, int cancel_fd) {
  uv_loop_t loop;
  agent_ask a = {.x = x, .cost_usd = -1};
  upk_agent_task t = {.def = d, .model = model, .dir = dir, .prompt = prompt};
  if (uv_loop_init(&loop)) {
    snprintf(x->error, sizeof x->error, "cannot start the agent's loop");
    return -1;
  }
  uv_poll_init(&loop, &a.cancel, cancel_fd);
  a.cancel.data = &a;
  uv_poll_start(&a.cancel, UV_READABLE, on_agent_cancel);
  int rc = upk_agent_run_start(&loop, &t, on_agent, &a, &a.run);
  if (rc)
    snprintf(x->error, sizeof x->error, "cannot start the agent: %s", uv_strerror(rc));
  while (!rc && !a.done)
    uv_run(&loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&a.cancel, NULL);
  uv_run(&loop, UV_RUN_DEFAULT); /* the run's own handles close */
  if (uv_loop_close(&loop))
    upk_warn("judge: a handle of the agent's run was left open");
  return a.cost_usd;
}

/* Ask agent `d` about x in a fresh private directory, removed afterwards. Returns what the agent
 * reported it cost (-1: unknown). */
static double ask_agent(const upk_agent_def *def, const char *model, judged *x, int cancel_fd) {
  upk_agent_def d;
  if (upk_agent_def_copy(&d, def)) {
    snprintf(x->error, sizeof x->error, "out of memory");
    return -1;
  }
  char *prompt = agent_prompt(&d, x);
  char dir[PATH_MAX];
  int mk = -1;
  double cost = -1;
  if (strlen(prompt) > AGENT_PROMPT_MAX)
    snprintf(x->error, sizeof x->error,
             "the skill is too large for an agent judge (%zu bytes of prompt, at most %d: it "
             "has no tool to read a file)",
             strlen(prompt), AGENT_PROMPT_MAX);
  else if ((mk = upk_private_tmpdir("judge", dir, sizeof dir)))
    snprintf(x->error, sizeof x->error, "cannot make the judge's directory: %s", strerror(-mk));
  else
    cost = run_agent(&d, model, dir, prompt, x, cancel_fd);
  if (!mk && access(dir, F_OK) == 0 && upk_rmtree_at(AT_FDCWD, dir))
    upk_warn("judge: cannot remove %s", dir);
  free(prompt);
  upk_agent_def_free(&d);
  return cost;
}

/* The agent a judge names, locked down (or -1 with why). */
static int agent_judge(const upk_audit_judge *j, const upk_config *cfg, upk_agent_def *d,
                       char *model, size_t mlen, char *err, size_t len) {
  char name[64];
  if (upk_agent_parse_id(j->name, name, sizeof name, model, mlen)) {
    snprintf(err, len, "'%s' is not an agent: agent:claude-code or agent:codex", j->name);
    return -1;
  }
  int rc = upk_agent_def_get(cfg->agents, name, d, err, len);
  if (rc == -ENOENT)
    snprintf(err, len, "no agent named '%s': agent:claude-code or agent:codex", name);
  if (!rc && (rc = lock_agent(d, err, len)))
    upk_agent_def_free(d);
  if (!rc && j->timeout_ms)
    d->timeout_ms = j->timeout_ms;
  return rc ? -1 : 0;
}

/* ---- the cache: a valid answer kept by (skill content, judge, rubric version) ---- */

/* $XDG_CACHE_HOME/upskilld/judge/<sha256 of the key>.json (malloc'd). */
static char *cache_path(const upk_audit_judge *j, const judged *x) {
  char *key = upk_xasprintf("%s\n%s\n%s", x->in.hash, j->name, UPK_JUDGE_RUBRIC_VERSION);
  unsigned char md[32];
  char hex[65];
  upk_sha256(key, strlen(key), md);
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
  free(key);
  char *dir = upk_env_xdg_dir(NULL, "XDG_CACHE_HOME", ".cache", "upskilld/judge");
  char *path = upk_xasprintf("%s/%s.json", dir, hex);
  free(dir);
  return path;
}

static bool cache_read(const upk_audit_judge *j, judged *x) {
  char *path = cache_path(j, x);
  size_t len;
  x->answer = upk_read_file(path, 1u << 20, &len);
  free(path);
  return x->cached = x->answer != NULL;
}

/* Only an answer that validates is kept: a failure is asked again next time. */
static void cache_write(const upk_audit_judge *j, const judged *x) {
  json_t *ok = NULL;
  char why[256];
  if (!x->answer || upk_judge_parse(x->answer, &ok, why, sizeof why))
    return;
  json_decref(ok);
  char *path = cache_path(j, x), *slash = strrchr(path, '/');
  *slash = '\0';
  int rc = upk_mkdir_p(path, 0700);
  *slash = '/';
  if (!rc)
    rc = upk_write_file_atomic(path, x->answer, strlen(x->answer));
  if (rc)
    upk_warn("judge: cannot cache the answer in %s: %s", path, strerror(-rc));
  free(path);
}

/* ---- the cost limit: each call's cost estimated before it is made ---- */

/* With a limit, the model must have a price (the config's prices, as evals read them). */
static int need_price(const upk_config *cfg, const upk_model *m, upk_price *p, char *err,
                      size_t len) {
  if (upk_budget_price(cfg->prices, m->name, p) == 0)
    return 0;
  snprintf(err, len,
           "--max-cost-usd: the model '%s' has no price: set one in the config, e.g. "
           "prices: {\"%s\": {input: 3.0, output: 15.0}} (USD per million tokens)",
           m->name, m->name);
  return -1;
}

/* Whether x's call fits the limit: its prompt at 4 bytes a token and a full answer, beside the
 * calls made before it. Over: no call, and x says by how much. */
static bool within_budget(upk_audit_judge *j, const upk_price *p, judged *x) {
  if (j->max_cost_usd <= 0)
    return true;
  long in = (long)((strlen(x->in.prompt) + strlen(x->in.system) + 3) / 4);
  double est = j->estimated + upk_budget_cost(p, in, ANSWER_TOKENS, -1);
  if (est > j->max_cost_usd) {
    snprintf(x->error, sizeof x->error, "over budget (estimated $%.4f > $%.4f)", est,
             j->max_cost_usd);
    return false;
  }
  j->estimated = est;
  return true;
}

/* With a cost limit, an agent judge must report what it costs (Claude Code does; Codex not). */
static int agent_cost_known(const upk_agent_def *d, char *err, size_t len) {
  if (d->format == UPK_AGENT_OUT_CLAUDE)
    return 0;
  snprintf(err, len,
           "--max-cost-usd: the agent '%s' reports no cost, so it cannot be held to a limit: "
           "drop --max-cost-usd, or judge with agent:claude-code or a priced model",
           d->name);
  return -1;
}

/* An agent's cost is known only once it ran: no call once the runs so far reached the limit. */
static bool agent_within_budget(const upk_audit_judge *j, judged *x) {
  if (j->max_cost_usd <= 0 || j->estimated < j->max_cost_usd)
    return true;
  snprintf(x->error, sizeof x->error, "over budget (spent $%.4f of $%.4f, as the agent reported)",
           j->estimated, j->max_cost_usd);
  return false;
}

/* x asked of the judge: its model, or its agent (whose reported cost is added up). */
static void ask(upk_audit_judge *j, const upk_model *m, const upk_agent_def *agent,
                const char *model, judged *x, int cancel_fd) {
  if (!agent) {
    ask_one(j, m, x, cancel_fd);
    return;
  }
  double cost = ask_agent(agent, model, x, cancel_fd);
  j->estimated += cost >= 0 ? cost : j->max_cost_usd; /* unknown: no more calls under a limit */
}

void upk_audit_judge_ask(upk_audit_judge *j, int cancel_fd) {
  upk_config cfg;
  upk_model m;
  upk_agent_def def = {0};
  char err[512] = "", model[128] = "";
  bool agent = !strncmp(j->name, "agent:", 6);
  int rc = upk_config_load(&cfg, j->workspace, NULL, err, sizeof err);
  if (!rc)
    rc = agent ? agent_judge(j, &cfg, &def, model, sizeof model, err, sizeof err)
               : upk_model_resolve(&cfg, j->name, &m, err, sizeof err);
  upk_price price = {0};
  if (!rc && j->max_cost_usd < 0) {
    snprintf(err, sizeof err, "maxCostUsd takes a number of USD above 0");
    rc = -1;
  }
  if (!rc && j->max_cost_usd > 0)
    rc = agent ? agent_cost_known(&def, err, sizeof err)
               : need_price(&cfg, &m, &price, err, sizeof err);
  for (size_t i = 0; i < j->n; i++) {
    judged *x = &j->items[i];
    if (x->error[0] || j->dry_run || cache_read(j, x))
      continue;
    if (rc) {
      snprintf(x->error, sizeof x->error, "%s", err);
      continue;
    }
    if (agent ? !agent_within_budget(j, x) : !within_budget(j, &price, x))
      continue;
    ask(j, &m, agent ? &def : NULL, model, x, cancel_fd);
    cache_write(j, x);
  }
  if (agent && def.name)
    upk_agent_def_free(&def);
  upk_config_free(&cfg);
}

/* ---- the answers merged ---- */

static void recount(json_t *entry) {
  static const char *const keys[] = {NULL, "high", "medium", "low", "low"};
  json_int_t n[5] = {0};
  size_t i;
  json_t *f;
  json_array_foreach(json_object_get(entry, "findings"), i, f) {
    json_int_t s = json_integer_value(json_object_get(f, "severity"));
    n[s >= 1 && s <= 4 ? s : 3]++;
  }
  for (int s = 1; s <= 3; s++)
    json_object_set_new(entry, keys[s], json_integer(n[s] + (s == 3 ? n[4] : 0)));
}

/* A failed judge: the rules' verdict stands; with judgeFailure "fail" the failure is a high
 * finding of its own, so --fail-on and install refuse. */
static void failed(const upk_audit_judge *j, judged *x, json_t *report) {
  char why[600];
  snprintf(why, sizeof why, "judge failed: %s", x->error);
  json_object_set_new(report, "error", json_string(why));
  if (!j->fail_hard)
    return;
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, "audit/judge-failed", UPK_JUDGE_SOURCE,
                (upk_range){-1, 0, -1, 0}, "%s (--judge-failure fail)", why);
  d.items[0].file = upk_xstrdup("SKILL.md");
  json_array_append_new(json_object_get(x->entry, "findings"), upk_diag_json(&d.items[0]));
  upk_diags_free(&d);
}

static void merge_one(const upk_audit_judge *j, judged *x) {
  json_t *report = json_pack("{s:s,s:O,s:[],s:[]}", "judge", j->name, "leftOut", x->in.left_out,
                             "unverified", "notes");
  json_t *answer = NULL;
  if (j->dry_run && !x->error[0]) {
    json_object_set_new(report, "dryRun", json_true());
    json_object_set_new(report, "promptBytes",
                        json_integer((json_int_t)(strlen(x->in.prompt) + strlen(x->in.system))));
  } else if (!x->error[0] && upk_judge_parse(x->answer, &answer, x->error, sizeof x->error)) {
    answer = NULL;
  }
  if (answer) {
    upk_diags d = {0};
    upk_judge_merge(answer, &x->in, &d, json_object_get(report, "unverified"),
                    json_object_get(report, "notes"));
    json_t *fs = json_object_get(x->entry, "findings");
    for (size_t i = 0; i < d.len; i++)
      json_array_append_new(fs, upk_diag_json(&d.items[i]));
    json_object_set(report, "verdict", json_object_get(answer, "verdict"));
    json_object_set_new(report, "findings", json_integer((json_int_t)d.len));
    json_object_set_new(report, "cached", json_boolean(x->cached));
    upk_diags_free(&d);
    json_decref(answer);
  } else if (x->error[0]) {
    failed(j, x, report);
  }
  json_object_set_new(x->entry, "judge", report);
  recount(x->entry);
}

void upk_audit_judge_finish(upk_audit_judge *j) {
  for (size_t i = 0; i < j->n; i++)
    merge_one(j, &j->items[i]);
}

/* ---- an install's gate ---- */

upk_audit_judge *upk_audit_judge_for_install(const char *workspace) {
  return upk_audit_judge_new(NULL, workspace); /* no params: the user's config alone decides */
}

void upk_audit_judge_free(upk_audit_judge *j) {
  if (!j)
    return;
  for (size_t i = 0; i < j->n; i++) {
    upk_judge_input_free(&j->items[i].in);
    json_decref(j->items[i].entry);
    free(j->items[i].answer);
  }
  free(j->items);
  free(j->name);
  free(j->workspace);
  free(j);
}
