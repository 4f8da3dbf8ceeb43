/* Shared by eval_methods.c and gen_methods.c: one call's state from its
 * params to its answer, and the helpers that read what it needs. Not a
 * public API. Shared names: upk__em_ (the eval methods), upk__tr_ (trigger_eval.c). */
#ifndef UPK_EVAL_METHODS_INT_H
#define UPK_EVAL_METHODS_INT_H

#include <stdbool.h>
#include <uv.h>

#include "models/config.h"
#include "common/diag.h"
#include "daemon/eval/budget.h"
#include "daemon/eval/eval_service.h"
#include "skills/eval/evalcase.h"
#include "daemon/eval/gen_service.h"
#include "daemon/core/jobs.h"

enum { MAX_MODELS = 32, MAX_RUNS = 1000, MAX_CONCURRENCY = 256, TRACE_MAX = 64u << 20 };

typedef struct ecall ecall;
typedef struct trig_state trig_state;
typedef void (*ecall_fn)(ecall *c);

struct ecall {
  uv_work_t work;
  upk_job *job; /* NULL once answered or cancelled */
  bool in_work;
  ecall_fn load, run; /* thread pool, then loop */
  json_t *params, *init_options;
  char *workspace;
  bool agent;              /* an MCP session asked: files it names are read as eval_inputs.c says */
  const upk_options *opts; /* the command line's (for the agent's places: guard.h) */
  upk_config cfg;
  int code; /* load failed: JSON-RPC code, message, data */
  char err[512];
  json_t *data;
  /* What the load found. */
  upk_model models[MAX_MODELS];
  upk_agent_def agents[MAX_MODELS]; /* models[i] is agent:NAME when agents[i].name is set */
  size_t n_models;
  upk_model teacher, test_gen;
  upk_agent_def teacher_agent, test_gen_agent; /* name set: that one is agent:NAME */
  upk_model grader; /* params.grader, else config grader_model; has_grader when either */
  bool has_grader;
  char *skill_name, *skill_md, *runs_dir, *skills_dir, *trace, *output;
  char *skill_dir;                  /* the skill's folder (installed whole for agent runs) */
  char *skill_description;          /* its frontmatter's description */
  char *baseline_md, *baseline_dir; /* params.baselineSkill: the older version compared */
  upk_as_evals evals; /* the cases came from evals/evals.json: their ids, names, statements */
  trig_state *trig;   /* trigger mode (trigger_eval.c) */
  char *indexed_dir;  /* skills/eval of a name: the skill skills/get returns for it, or NULL */
  upk_evalcases cases;
  upk_diags case_diags;
  json_t *result; /* runs/list, runs/show */
  upk_eval *eval;
  upk_gen *gen;
  upk_budget budget; /* params.maxCalls / maxCostUsd over every call this request makes */
  bool dry_run;      /* params.dryRun: answer the plan, call nothing */
};

void upk__em_free(ecall *c);
/* Record a failure for the loop to answer; returns -1. */
int upk__em_fail(ecall *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *upk__em_str(const ecall *c, const char *key);
/* Read the file a client named (params.trace, params.tests, trigger queries) as eval_inputs.c
 * says: from an agent only beneath the workspace, the agents' session directories, the runs
 * directory and the user's condense.allowPaths, no link followed there (-EACCES outside them,
 * -ELOOP/-EXDEV for a link or ".." out); from an editor what the user can read. Never a FIFO, at
 * most `max` bytes. 0, or a negative errno with a message in why that never quotes the file. */
int upk__em_read_input(ecall *c, const char *given, size_t max, char **out, size_t *len, char *why,
                       size_t whylen);
/* A client's path: relative ones are in the workspace. malloc'd. */
char *upk__em_abs(const char *ws, const char *p);
int upk__em_resolve(ecall *c, const char *name, const char *what, upk_model *out);
/* A teacher: a model API, or an agent (agent:NAME[/MODEL]) whose definition goes in `agent`
 * (freed first; upk_agent_def_free it). */
int upk__em_resolve_teacher(ecall *c, const char *name, const char *what, upk_model *out,
                            upk_agent_def *agent);
/* A model or an agent (agent:NAME[/MODEL]) appended to c->models (and c->agents). */
int upk__em_resolve_target(ecall *c, const char *name, const char *what);
/* params[key] model names into c->models (agent:NAME[/MODEL] too: an agent
 * CLI, with its definition in c->agents), else config eval_model. */
int upk__em_load_models(ecall *c, const char *key);
int upk__em_read_text(ecall *c, const char *path, size_t max, char **out);
/* Load on the thread pool (config first, then `load`), then `run` on the loop. */
void upk__em_start(upk_job *job, json_t *params, ecall_fn load, ecall_fn run);
int upk__em_bad(upk_job *job, const char *msg);
upk_retry_policy upk__em_policy(const upk_config *cfg);
unsigned upk__em_uint(const ecall *c, const char *key, unsigned def);
/* Agent runs at once: params.maxParallel, else config max_parallel, else the core count. */
unsigned upk__em_max_parallel(const ecall *c);
/* The agent fields of one trial's result entry (added to `o`). */
void upk__em_trial_agent_json(json_t *o, const upk_eval_trial *t);

/* The project config's keys refused for want of trust (models/config.h c->cfg.refused) as
 * `configRefused` in `obj` (an answer or an error's data), when there are any. */
void upk__em_config_note(const ecall *c, json_t *obj);
/* skills/eval's result for an outcome: its summary, run id and dir, every trial. New reference;
 * NULL on ENOMEM. */
json_t *upk__em_eval_result(ecall *c, const upk_eval_outcome *o);

/* trigger_eval.c: skills/eval with params.trigger. */
/* thread pool: the queries, the split, the teacher; -1 after upk__em_fail */
int upk__tr_load(ecall *c, unsigned default_optimize, const char *holdout_key);
void upk__tr_run(ecall *c); /* loop: answers the job */
/* loop: skills/generate's result (borrowed) in, its skill's description refined and written,
 * the job answered with the result plus "trigger". */
void upk__tr_after_generate(ecall *c, json_t *result);
void upk__tr_free(ecall *c);

/* The params every method that calls models takes (eval_limits.c reads them). */
#define EM_LIMIT_PARAMS                                                                            \
  {"maxCalls", UPK_T_INTEGER, 0,                                                                   \
   "Stop after this many calls (model API calls: trials, grader, teacher, test writer; agent "     \
   "runs): no new one starts, those in flight finish, the result is partial and says why "         \
   "(stopped)."},                                                                                  \
      {"maxCostUsd", UPK_T_NUMBER, 0,                                                              \
       "Stop once the calls cost this many USD (config prices; agents' own reported cost); every " \
       "model API called needs a price."},                                                         \
  {                                                                                                \
    "dryRun", UPK_T_BOOLEAN, 0,                                                                    \
        "Answer the plan (trials, calls, estimated tokens and cost per model) and run nothing.",   \
        .def = "false"                                                                             \
  }

/* eval_limits.c: params.maxCalls, maxCostUsd and dryRun (thread pool, after the models are
 * resolved): a limit of 0 or less, or maxCostUsd with a model that has no price, is refused
 * (-1 after upk__em_fail). `extra` are the teacher and test writer (generate, optimize),
 * NULL-ended. */
int upk__em_limits_load(ecall *c, const upk_model *const *extra);
/* The plan of a dry run (loop): what would run and what it would cost. New reference. */
json_t *upk__em_eval_plan(ecall *c);
/* eval_ready.c: every model to be called (the targets, the grader, `extra`) has its key, its
 * server answers, its agent CLI is on PATH; -1 after upk__em_fail naming every way to a model. */
int upk__em_ready(ecall *c, const upk_model *const *extra);
json_t *upk__em_gen_plan(ecall *c);
/* Put the limits (and why a run stopped, if it did) into a result. */
void upk__em_limits_note(const ecall *c, json_t *r);
/* trigger_eval.c: the optimiser's teacher, NULL when not optimising; proposals at most; runs. */
const upk_model *upk__tr_teacher(const ecall *c);
unsigned upk__tr_optimize(const ecall *c);
unsigned upk__tr_runs(const ecall *c);

/* gen_methods.c */
extern const upk_param upk_gen_params[];
void upk_gen_handler(upk_job *job, json_t *params);
extern const upk_param upk_condense_params[];
void upk_condense_handler(upk_job *job, json_t *params);

#endif
