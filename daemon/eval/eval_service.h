/** Skill evaluation on the loop: every model x run x case is asked with the
 * skill and (optionally) without it, through the completion service, at most
 * `concurrency` calls at a time. Answers are checked with skills/eval/assertion
 * (kernel-grounded assertions through the kernel service's workers), the
 * trials aggregated with skills/eval/evalstats, and the run stored with
 * skills/eval/runs on the thread pool. Used by `skills/eval` and by the generator.
 *
 * The two prompts of a pair are identical but for the skill: the same user
 * message, and the same system prompt, which with the skill has the skill
 * appended as one block (upk_eval_system_prompt). upskill's baseline has an
 * empty system prompt while its with-skill run gets an evaluator persona,
 * which mixes the persona's effect into the lift; here only the skill differs.
 * Loop thread only.
 */
#ifndef UPK_EVAL_SERVICE_H
#define UPK_EVAL_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/eval/agent.h"
#include "skills/eval/agentskills.h"
#include "skills/eval/assertion.h"
#include "skills/eval/evalcase.h"
#include "skills/eval/evalstats.h"
#include "models/models.h"
#include "daemon/eval/budget.h"
#include "daemon/core/session.h"

typedef struct upk_eval upk_eval;

/** What to evaluate. Strings and `cases` are borrowed until the done
 * callback has run or the evaluation was cancelled; the rest is copied. */
typedef struct upk_eval_spec {
  const char *skill_name; /* for run.json and the skill block */
  const char *skill_md;   /* the whole SKILL.md given with the skill */
  const upk_evalcases *cases;
  const size_t *subset; /* indices of the cases to run; NULL: all */
  size_t n_subset;
  const upk_model *models;
  size_t n_models;
  const upk_agent_def *agents; /* per model: an agent CLI (agent:NAME), or name NULL: an API;
                                  NULL: every model is an API */
  const char *skill_dir;       /* the skill's folder, installed whole for agents; may be NULL */
  const char *baseline_md;     /* the without-skill condition gets this older SKILL.md instead of
                                  nothing ("old_skill"); NULL: no skill */
  const char *baseline_dir;    /* its folder, for agents; may be NULL */
  const upk_as_evals *evals;   /* the cases came from evals/evals.json: their ids, names and
                                  statements, for the Agent Skills layout; may be NULL */
  unsigned max_parallel;       /* agent runs at once; 0: the core count */
  const upk_model *grader;     /* judges `expect` statements; NULL: they are skipped */
  unsigned runs;               /* >= 1 */
  bool baseline;               /* also run every case without the skill */
  unsigned concurrency;        /* model calls in flight at most; 0: 8 */
  upk_retry_policy policy;
  long max_tokens;            /* <= 0: the provider's default */
  double temperature;         /* < 0: the provider's default */
  unsigned kernel_timeout_ms; /* per kernel check; 0: 60000 */
  const char *runs_dir;       /* NULL: the run is not stored */
  const char *kind;           /* run.json kind: "eval", "benchmark", "generate" */
  bool sandbox_scripts;       /* `script` assertions run in the sandbox (common/sandbox.h): the
                                 user did not write the cases (docs/security.md "Eval scripts") */
  upk_budget *budget;         /* cost limits, shared with the caller's other calls (borrowed;
                                 NULL: none): once reached, the trials not started are not run */
} upk_eval_spec;

/** One trial as it ended. */
typedef struct upk_eval_trial {
  const upk_model *model;
  bool with_skill;
  unsigned run;
  size_t case_idx; /* index in spec.cases */
  char *prompt;    /* the user message */
  char *answer;    /* NULL when the call failed */
  char *error;     /* why it failed; NULL on success */
  long input_tokens, output_tokens;
  double duration_ms;
  double started_at;        /* wall clock, seconds since the epoch */
  upk_assert_report report; /* empty when the call failed */
  upk_assert_status verdict;
  const char *agent_name;  /* an agent run's agent ("claude-code"); NULL: a model API */
  upk_agent_result *agent; /* an agent run: what it did (tools, files, skill loaded, ...) */
  char *agent_dir;         /* its directory (stdout.jsonl, workspace/, ...) once stored */
  int exit_status;         /* the agent's exit status; -1 if it did not run */
  bool not_run;            /* a cost limit was reached before it started: no verdict, left out of
                              every figure, no transcript */
} upk_eval_trial;

/** How an evaluation ended; everything is borrowed for the callback. */
typedef struct upk_eval_outcome {
  const upk_eval_trial *trials;
  size_t n_trials;
  const upk_evalstats *stats;
  json_t *summary;          /* what summary.json holds (stats plus totals) */
  const char *run_id;       /* "" when not stored */
  const char *run_dir;      /* NULL when not stored */
  const char *store_error;  /* why storing failed; NULL when it did not */
  const char *layout_error; /* why the Agent Skills layout was not written; NULL if it was */
  double elapsed_ms;
} upk_eval_outcome;

/** `done` of `total` trials finished; `msg` says which. */
typedef void (*upk_eval_progress_cb)(void *arg, size_t done, size_t total, const char *msg);
typedef void (*upk_eval_done_cb)(void *arg, const upk_eval_outcome *o);

/** Start. `done` runs exactly once unless cancelled, and the evaluation
 * frees itself after it; forget the handle in `done`. `progress` and `done` are called from
 * the loop, never from inside this call: the trials start at the loop's next turn (even when
 * every call is refused at once). Returns 0, or -EINVAL (nothing to run) / -ENOMEM /
 * -EAGAIN (no completion service) with a message in err. */
int upk_eval_start(upk_server *s, const upk_eval_spec *spec, upk_eval_progress_cb progress,
                   upk_eval_done_cb done, void *arg, upk_eval **out, char *err, size_t errlen);
/** Stop: completions and kernel checks in flight are dropped, `done` is not
 * called, nothing more is written (a store already running finishes whole). */
void upk_eval_cancel(upk_eval *e);

/* ---- agent runs (eval_agents.c) ---- */

/** {agent, dir, exitStatus, sessionId, skillLoaded, skillEvidence, turns,
 * costUsd, agentMs, cacheReadTokens, toolCalls, files} for an agent trial,
 * NULL for a model API's (or on ENOMEM). New reference; any thread. */
json_t *upk_eval_agent_record(const upk_eval_trial *t);
/** The summary's "agents" member: per model and condition, then per case,
 * runs, passes, the skill-loaded rate, and mean turns, tokens, cost and wall
 * time, with and without the skill side by side. NULL when no trial is an
 * agent run. New reference; any thread. */
json_t *upk_eval_agent_summary(const upk_eval_trial *ts, size_t n);
/** The cases of the tests file refused before they ran: [{case, reason}], `case` the 0-based
 * place in the file; NULL when none. New reference; any thread. */
json_t *upk_eval_refused_json(const upk_evalcases *c);

/** What the Agent Skills layout is written from, besides the trials. */
typedef struct upk_eval_layout {
  const char *skill_name, *skill_path;
  const upk_evalcases *cases;
  const upk_as_evals *evals; /* may be NULL: ids are case numbers */
  bool old_skill;            /* the without condition ran an older skill */
} upk_eval_layout;
typedef struct upk_eval_layout_plan upk_eval_layout_plan;
/** Every trial as one skill-creator run, with copies of all it borrows from `l`
 * (the trials' own strings must outlive the plan). Loop thread. NULL on ENOMEM. */
upk_eval_layout_plan *upk_eval_layout_plan_new(const upk_eval_layout *l, const upk_eval_trial *ts,
                                               size_t n);
/** Run i's agent directory (its workspace/ and stdout.jsonl become outputs) once it is
 * known; NULL: none. Returns 0 or -ENOMEM. */
int upk_eval_layout_set_dir(upk_eval_layout_plan *p, size_t i, const char *agent_dir);
/** Write the plan under `dir` (created whole or not at all): per eval and configuration,
 * run-N/{outputs/, grading.json, timing.json}, then benchmark.json (agentskills.h).
 * Blocking (thread pool). Returns 0 or a negative errno with `err`. */
int upk_eval_layout_write(const upk_eval_layout_plan *p, const char *dir, char *err, size_t errlen);
void upk_eval_layout_free(upk_eval_layout_plan *p);

/** The system prompt every trial gets (static text). */
const char *upk_eval_system_base(void);
/** The system prompt with the skill: the base, a blank line, then the skill
 * block. NULL skill_md: a copy of the base. malloc'd; NULL on ENOMEM. */
char *upk_eval_system_prompt(const char *skill_name, const char *skill_md);

/** The kernel check's result (kernel_service.h) as an assertion checker's
 * result: compiled PASS, compile errors FAIL, no toolkit SKIPPED, a worker
 * failure ERROR. */
void upk_eval_kcheck_from_json(const json_t *result, upk_kcheck_result *out);

#endif
