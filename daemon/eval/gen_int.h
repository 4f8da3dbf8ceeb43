/* Shared between gen_service.c (the pipeline) and gen_save.c (saving and
 * installing). Not a public API. */
#ifndef UPK_GEN_INT_H
#define UPK_GEN_INT_H

#include <stdatomic.h>

#include "skills/eval/condense.h"
#include "common/diag.h"
#include "daemon/core/defer.h"
#include "daemon/eval/eval_service.h"
#include "skills/eval/evalcase.h"
#include "daemon/eval/gen_service.h"
#include "daemon/eval/gen_teacher.h"
#include "skills/install.h"

/* One evaluated skill. */
typedef struct gen_attempt {
  char *skill_md;
  unsigned fixes;        /* validation send-backs it took */
  double rate, baseline; /* with-skill pass rate on the refinement set; baseline (attempt 1) */
  size_t passed, n;
  char run_id[40];
} gen_attempt;

struct upk_gen {
  upk_server *server;
  upk_gen_spec spec; /* strings and arrays below are our own copies */
  char *task, *trace_raw, *existing, *skills_dir, *output, *runs_dir, *workspace;
  char **examples, **agents;
  upk_model *eval_models;
  upk_agent_def *eval_agents; /* copied per eval model; NULL when none is an agent */
  upk_agent_def teacher_agent, test_gen_agent; /* name set: that teacher is an agent CLI */
  upk_gen_progress_cb progress;
  upk_gen_done_cb done;
  void *arg;
  atomic_bool cancelled;
  bool in_work;       /* a thread-pool or queue item holds us: it frees after a cancel */
  upk_deferred begin; /* the first stage starts from the loop, after upk_gen_start returns */
  uv_work_t work;
  upk_ask *ask;                                        /* the teacher being asked (gen_teacher.h) */
  void (*next)(struct upk_gen *g, const char *answer); /* gets the teacher's answer */
  const char *ask_model; /* the model asked (its name, for the budget's price) */
  upk_eval *eval;
  /* Pipeline state. */
  const char *stage;
  unsigned long steps; /* progress reported so far */
  upk_condensed condensed;
  bool has_condensed;
  char *draft; /* the SKILL.md being validated */
  unsigned fixes;
  upk_diags diags;
  upk_evalcases cases;
  size_t *refine, *holdout;
  size_t n_refine, n_holdout;
  gen_attempt *attempts;
  size_t n_attempts, best;
  char *refine_prompt; /* built when an attempt ends, sent after */
  json_t *final;       /* the held-out evaluation */
  double final_rate;
  /* Save and install. */
  char *name, *dest;
  bool replaced;
  int save_rc;
  char save_err[512];
  upk_install_result inst;
  int inst_rc;
  bool installed;
  long in_tokens, out_tokens; /* the teacher's and test writer's */
  double cost_usd;            /* what agent teachers reported they cost; 0: none */
  /* The generation's own run (kind "generation"): its attempts for runs/report. */
  char *record; /* summary.json's text, built on the loop, written with the save */
  char record_id[40];
};

/* gen_save.c: save the best attempt (thread pool), then install (skills queue);
 * calls upk__gen_finish at the end. */
void upk__gen_save(upk_gen *g);
/* gen_service.c */
void upk__gen_finish(upk_gen *g);
/* What every answer holds: stage, teacher, attempts, tests, models, tokens. */
json_t *upk__gen_base_result(const upk_gen *g);
void upk__gen_fail(upk_gen *g, int code, json_t *data, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void upk__gen_progress(upk_gen *g, const char *stage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void upk__gen_free(upk_gen *g);
/* The frontmatter's name of a SKILL.md; NULL when it has none. malloc'd. */
char *upk__gen_skill_name(const char *md);

#endif
