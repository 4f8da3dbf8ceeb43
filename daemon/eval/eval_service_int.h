/* Shared by eval_service.c (the queue, judging, the store) and eval_agents.c
 * (agent trials, their directories, the Agent Skills layout). Not a public API. */
#ifndef UPK_EVAL_SERVICE_INT_H
#define UPK_EVAL_SERVICE_INT_H

#include <stdint.h>
#include <uv.h>

#include "daemon/eval/agent_runner.h"
#include "daemon/core/defer.h"
#include "daemon/eval/eval_service.h"
#include "daemon/kernels/kernel_service.h"
#include "skills/eval/runs.h"

typedef struct eval_trial eval_trial;
typedef struct gslot gslot;       /* one statement a grader is judging (eval_grade.c) */
typedef struct exec_job exec_job; /* a trial's script, diff and kernel checks (eval_exec.c) */

/* One model's Agent Skills layout: the plan and which trials it holds. */
typedef struct eval_layout_part {
  upk_eval_layout_plan *plan;
  size_t *idx, n;
} eval_layout_part;

/* One kernel check a trial waits for. */
typedef struct kslot {
  eval_trial *trial;
  size_t id; /* request id in the trial's report */
  upk_kcheck *handle;
  bool done;
} kslot;

struct eval_trial {
  upk_eval_trial t;
  upk_eval *e;
  upk_completion *comp;
  uint64_t started;
  kslot *slots;
  size_t n_slots;
  gslot *gslots;
  size_t n_gslots;
  bool submitting; /* kernel checks being submitted: don't finish yet */
  bool finished;
  const upk_agent_def *def; /* an agent trial: its agent; NULL: a model API */
  char *dir;                /* an agent trial's directory under the eval's agent root */
  upk_agent_run *arun;
  exec_job *exec; /* script, diff and kernel checks under way */
};

struct upk_eval {
  upk_server *server;
  upk_models *models;
  upk_eval_spec spec; /* strings borrowed, arrays copied; the store's strings owned: */
  char *own_runs_dir, *own_skill_name, *own_kind; /* the store runs on after a cancel */
  upk_model *model_copy;
  upk_model grader_copy;
  size_t *subset_copy;
  size_t *numbers; /* per case of spec.cases: its number in the tests file (copied at start: the
                      cases may be gone when a cancelled evaluation's trials drain) */
  json_t *refused; /* the cases refused before they ran ({case, reason}), or NULL */
  char *system_skill, *system_base;
  eval_trial *trials;
  size_t n, next, inflight, finished;
  upk_agent_def *defs; /* per model, copied; name NULL for an API */
  char *agent_root;    /* agent trials' directories; moved into the run when stored */
  unsigned agents_inflight;
  char *own_skill_dir, *own_baseline_dir;
  upk_eval_progress_cb progress;
  upk_eval_done_cb done;
  void *arg;
  uint64_t started;
  upk_deferred begin; /* the first trials start from the loop, after upk_eval_start returns */
  bool cancelled, storing;
  /* The end: stats, summary, store. */
  upk_evalstats stats;
  json_t *summary;
  char *summary_text;
  uv_work_t work;
  upk_run run;
  char store_err[256];
  eval_layout_part *layouts; /* the Agent Skills layout per model, planned on the loop */
  char layout_err[256];
};

/* eval_service.c */
double upk__eval_ms_since(uint64_t t0);
double upk__eval_wall_now(void);
void upk__eval_trial_finished(eval_trial *x);
/* Check the answer: assertions now, kernel checks later; finishes the trial when done. */
void upk__eval_judge(eval_trial *x);
/* The one place that moves the queue on; the last thing every callback does. */
void upk__eval_pump(upk_eval *e);
upk_eval_trial *upk__eval_flat_trials(const upk_eval *e);
/* eval_grade.c: {trials: how many errored, reasons: [{reason, count}] most frequent first,
 * failedModels: the models every trial of which errored}. */
json_t *upk__eval_errors_json(const upk_eval *e);

/* eval_grade.c: ask the grader about each `expect` statement (they stay skipped without one). */
void upk__eval_grade(eval_trial *x);
void upk__eval_cancel_grades(eval_trial *x);

/* eval_exec.c: run the trial's script, diff and kernel assertions (left PENDING by judge) in
 * its workspace `ws`; the trial finishes when they are decided. */
/* An answer's kernel check (eval_exec.c): `code` named `file_name`, for `arch` (NULL: the
 * assertions' default), with no flags; strings borrowed. */
upk_kernel_req upk__eval_kernel_req(upk_server *s, const char *code, const char *file_name,
                                    const char *arch);
void upk__eval_exec(eval_trial *x, const char *ws);
void upk__eval_cancel_exec(eval_trial *x);

/* eval_agents.c */
void upk__eval_start_agent(upk_eval *e, eval_trial *x);
int upk__eval_copy_agents(upk_eval *e, const upk_eval_spec *spec);
void upk__eval_plan_agent(upk_eval *e, eval_trial *x, size_t m);
int upk__eval_move_agent_runs(upk_eval *e); /* thread pool */
void upk__eval_plan_layout(upk_eval *e);
void upk__eval_write_layout(upk_eval *e); /* thread pool */
void upk__eval_free_layouts(upk_eval *e);
/* Remove `path` (taken) on the thread pool. */
void upk__eval_remove_later(uv_loop_t *loop, char *path);

#endif
