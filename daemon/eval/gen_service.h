/** Skill generation on the loop: a teacher model writes a SKILL.md from a
 * task (and a trace, condensed with skills/eval/condense, or an existing skill to
 * improve), strict validation sends it back with the diagnostics until it
 * passes, test cases are written and split into a refinement set and a
 * held-out set, the skill is evaluated (eval_service.h) with and without it
 * on the student models and refined with the whole skill and every failure,
 * the BEST attempt is kept, its final score taken on the held-out set, and
 * the skill saved atomically as a skill directory (SKILL.md + skill_meta.json
 * with its tests), then optionally installed through the skills library.
 *
 * Stages run one after another on the loop (completions) and the thread pool
 * (condensing, saving); a cancel at any point stops the current stage, and a
 * save is a temporary directory renamed into place, so a cancelled
 * generation never leaves half a skill. Loop thread only.
 */
#ifndef UPK_GEN_SERVICE_H
#define UPK_GEN_SERVICE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/eval/budget.h"
#include "skills/agents.h"
#include "models/models.h"
#include "daemon/core/session.h"

typedef struct upk_gen upk_gen;

/** What to generate. Everything is copied by upk_gen_start. */
typedef struct upk_gen_spec {
  const char *task;
  const char *trace;          /* an agent trace, raw (Markdown, JSON, JSONL); NULL: none */
  size_t trace_budget;        /* tokens for the condensed trace; 0: the default */
  const char *existing_skill; /* SKILL.md text of a skill to improve; NULL: none */
  const char *const *examples;
  size_t n_examples;
  upk_model teacher;  /* writes and refines the skill */
  upk_model test_gen; /* writes the test cases */
  /* name set: that one is an agent CLI (agent:NAME[/MODEL], gen_teacher.h), its model's id
   * the agent's --model; NULL or no name: a model API. */
  const upk_agent_def *teacher_agent, *test_gen_agent;
  const upk_model *eval_models;
  size_t n_eval_models;
  const upk_agent_def *eval_agents; /* per eval model: agent:NAME when name is set; may be NULL */
  unsigned max_parallel;            /* agent runs at once; 0: the core count */
  unsigned attempts;                /* skills evaluated at most (refinements + 1); 0: 2 */
  unsigned fix_attempts;            /* send-backs for a SKILL.md that fails validation; 0: 2 */
  size_t n_tests;                   /* cases to ask for; 0: 6 */
  double holdout;                   /* fraction held out for the final score; < 0: 0.34 */
  uint64_t seed;                    /* of the split */
  unsigned runs;                    /* per case and condition; 0: 1 */
  unsigned concurrency;             /* 0: 8 */
  bool kernel;                      /* allow compiles/resources assertions in the tests */
  upk_retry_policy policy;
  const char *skills_dir; /* the skill is saved in skills_dir/<name> ... */
  const char *output;     /* ... or exactly here */
  const char *runs_dir;   /* evaluations stored here; NULL: not stored */
  bool install;           /* then install through the skills library */
  const char *const *agents;
  size_t n_agents;
  upk_scope scope;
  upk_budget *budget; /* cost limits over every call (borrowed; NULL: none): once reached, the
                         best attempt evaluated so far is saved, without a held-out score */
} upk_gen_spec;

/** Progress: a stage name ("condense", "write", "validate", "tests", "eval",
 * "refine", "holdout", "save", "install") and what happens; `done` counts
 * every report (stages repeat while refining), `total` is 0: unknown. */
typedef void (*upk_gen_progress_cb)(void *arg, const char *stage, double done, double total,
                                    const char *msg);
/** The end: `result` (borrowed) on success, else a JSON-RPC error code and
 * message with `result` holding what is known (the stage, the attempts). */
typedef void (*upk_gen_done_cb)(void *arg, int code, const char *message, json_t *result);

/** Start; `done` runs exactly once unless cancelled (forget the handle there). `progress` and
 * `done` are called from the loop, never from inside this call: the first stage starts at the
 * loop's next turn. Returns 0 or a negative errno. */
int upk_gen_start(upk_server *s, const upk_gen_spec *spec, upk_gen_progress_cb progress,
                  upk_gen_done_cb done, void *arg, upk_gen **out);
/** Stop at once: `done` is not called; a save under way finishes or
 * leaves nothing, never half a skill. */
void upk_gen_cancel(upk_gen *g);

#endif
