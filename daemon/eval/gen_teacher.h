/** Asking the teacher: one prompt to a model API (models.h) or, when the
 * teacher is `agent:NAME[/MODEL]`, to that agent CLI run headless
 * (agent_runner.h) in a private directory of its own: an empty workspace, no
 * skill installed, its own HOME and TMPDIR, removed afterwards. The agent's
 * final answer is the teacher's reply; its tokens and cost are what it
 * reports. Loop thread only.
 */
#ifndef UPK_GEN_TEACHER_H
#define UPK_GEN_TEACHER_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/core/session.h"
#include "models/models.h"
#include "skills/eval/agent.h"

typedef struct upk_ask upk_ask;

/** What to ask. Everything is copied by upk_ask_start. */
typedef struct upk_ask_spec {
  const upk_model *model;     /* the API model; for an agent, model->id is its --model ("": none) */
  const upk_agent_def *agent; /* set (name != NULL): the teacher is this agent; NULL: the API */
  const char *system;         /* NULL: none; an agent gets it as it allows (see gen_teacher.c) */
  const char *prompt;
  long max_tokens;         /* API only */
  upk_retry_policy policy; /* API only: an agent has its own timeoutMs */
} upk_ask_spec;

/** The reply; borrowed for the callback's duration. */
typedef struct upk_ask_reply {
  const char *text;                 /* the answer; NULL when error is set */
  const char *error;                /* why it failed, one line; NULL on success */
  const char *kind;                 /* the failure's kind (an upk_merr name, or "agent") */
  long input_tokens, output_tokens; /* -1 unknown */
  double cost_usd;                  /* what an agent reports it cost; -1 unknown */
} upk_ask_reply;

typedef void (*upk_ask_cb)(void *arg, const upk_ask_reply *r);

/** Start; `cb` runs exactly once unless cancelled, from the loop, never from inside this call.
 * Returns 0 or a negative errno with `err`. */
int upk_ask_start(upk_server *s, const upk_ask_spec *spec, upk_ask_cb cb, void *arg, upk_ask **out,
                  char *err, size_t errlen);
/** Stop: an agent's whole process group is killed and its directory removed; `cb` is not
 * called. NULL is fine. */
void upk_ask_cancel(upk_ask *a);

#endif
