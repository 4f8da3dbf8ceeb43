/* Asking the teacher (gen_teacher.h). A model API is one upk_complete. An
 * agent teacher is three steps: make a private directory (thread pool) ->
 * the agent run (agent_runner.h) -> remove the directory (thread pool) while
 * the reply goes to the caller. */
#include "daemon/eval/gen_teacher.h"

#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/eval/agent_runner.h"
#include "daemon/models/models_service.h"
#include "skills/fsutil.h"

enum { PROMPT_ARG_MAX = 100 * 1024 };
#define PROMPT_FILE "TASK.md"
#define PROMPT_POINTER                                                                             \
  "Your task is in the file " PROMPT_FILE " in the current directory. Read all of it, then do "    \
  "what it says and answer exactly as it asks."

struct upk_ask {
  upk_server *server;
  upk_ask_cb cb;
  void *arg;
  upk_completion *comp; /* the API teacher's call */
  /* An agent teacher. */
  upk_agent_def def;
  char *model, *prompt;
  char *dir; /* the private run directory, once made */
  int mk_rc;
  uv_work_t work;
  bool in_work, cancelled;
  upk_agent_run *run;
  /* What the run gave, kept while its directory is removed (thread pool). */
  char *answer, *error;
  long in_tokens, out_tokens;
  double cost_usd;
};

static void ask_free(upk_ask *a) {
  upk_agent_def_free(&a->def);
  free(a->model);
  free(a->prompt);
  free(a->dir);
  free(a->answer);
  free(a->error);
  free(a);
}

/* ---- a model API ---- */

static void on_completion(void *arg, const upk_completion_result *r) {
  upk_ask *a = arg;
  a->comp = NULL;
  upk_ask_reply rep = {.input_tokens = -1, .output_tokens = -1, .cost_usd = -1};
  if (r->error) {
    rep.error = r->message;
    rep.kind = upk_merr_name(r->error);
  } else {
    rep.text = r->answer->text ? r->answer->text : "";
    rep.input_tokens = r->answer->input_tokens;
    rep.output_tokens = r->answer->output_tokens;
  }
  a->cb(a->arg, &rep);
  ask_free(a);
}

static int ask_api(upk_ask *a, const upk_ask_spec *spec, char *err, size_t errlen) {
  json_t *msgs = json_pack("[{s:s,s:s}]", "role", "user", "content", spec->prompt);
  upk_models *models = upk_models_get(a->server);
  upk_chat chat = {spec->system, msgs, spec->max_tokens, -1};
  int rc = !msgs || !models ? -ENOMEM
                            : upk_complete(models, spec->model, &chat, &spec->policy, on_completion,
                                           NULL, a, &a->comp, err, errlen);
  if (rc == -ENOMEM && (!msgs || !models))
    snprintf(err, errlen, "out of memory");
  json_decref(msgs);
  return rc;
}

/* ---- an agent ---- */

/* After a cancel, or a failure to start: the directory goes, off the loop. */
static void rm_work(uv_work_t *w) {
  upk_ask *a = w->data;
  if (a->dir && upk_rmtree_at(AT_FDCWD, a->dir))
    upk_log(UPK_LOG_WARN, "teacher: cannot remove %s", a->dir);
}

static void rm_done(uv_work_t *w, int status) {
  (void)status;
  ask_free(w->data);
}

static void remove_and_free(upk_ask *a) {
  a->work.data = a;
  if (!a->dir || uv_queue_work(upk_session_loop(a->server), &a->work, rm_work, rm_done))
    ask_free(a);
}

/* The runner already made any non-zero exit an error quoting stderr's tail (agent_runner.c),
 * even with an answer printed; an empty answer fails the ask too. Then the directory goes. */
static void end_work(uv_work_t *w) {
  upk_ask *a = w->data;
  if (!a->error && (!a->answer || !*a->answer)) {
    a->error = upk_xstrdup("the agent gave no final answer");
  }
  for (size_t n = a->error ? strlen(a->error) : 0; n && a->error[n - 1] == ' ';)
    a->error[--n] = '\0'; /* the parser's flattened newline: the message ends where it does */
  rm_work(w);
}

static void end_done(uv_work_t *w, int status) {
  upk_ask *a = w->data;
  a->in_work = false;
  if (!a->cancelled) {
    const char *why = a->error ? a->error : status ? "the agent's run could not be read" : NULL;
    upk_ask_reply rep = {why ? NULL : a->answer, why,           why ? "agent" : NULL,
                         a->in_tokens,           a->out_tokens, a->cost_usd};
    a->cb(a->arg, &rep);
  }
  ask_free(a);
}

static void on_agent(void *arg, const upk_agent_outcome *o) {
  upk_ask *a = arg;
  upk_agent_result *res = o->result;
  a->run = NULL;
  a->answer = res->answer; /* stolen: the runner frees what is left */
  res->answer = NULL;
  a->error = res->error;
  res->error = NULL;
  a->in_tokens = res->input_tokens;
  a->out_tokens = res->output_tokens;
  a->cost_usd = res->cost_usd;
  a->work.data = a;
  a->in_work = true;
  if (uv_queue_work(upk_session_loop(a->server), &a->work, end_work, end_done)) {
    a->in_work = false; /* the directory stays: the loop is going away */
    upk_ask_reply rep = {NULL, "cannot queue reading the agent's run", "agent", -1, -1, -1};
    a->cb(a->arg, &rep);
    ask_free(a);
  }
}

static void mk_work(uv_work_t *w) {
  upk_ask *a = w->data;
  char dir[PATH_MAX];
  a->mk_rc = upk_private_tmpdir("teacher", dir, sizeof dir);
  if (!a->mk_rc)
    a->dir = upk_xstrdup(dir);
}

static void fail_later(upk_ask *a, const char *what, const char *detail) {
  char why[600];
  snprintf(why, sizeof why, "%s: %s", what, detail);
  upk_ask_reply rep = {.error = why, .kind = "agent", -1, -1, -1};
  a->cb(a->arg, &rep);
  remove_and_free(a);
}

static void mk_done(uv_work_t *w, int status) {
  upk_ask *a = w->data;
  a->in_work = false;
  if (a->cancelled) {
    remove_and_free(a);
    return;
  }
  if (status || a->mk_rc) {
    fail_later(a, "cannot make the teacher's run directory",
               strerror(a->mk_rc ? -a->mk_rc : ECANCELED));
    return;
  }
  /* Linux takes at most 128 KiB in one argument: a longer prompt (a skill to improve, every
   * failure of a refinement) goes into the workspace as a file the short prompt points at. */
  const char *name = PROMPT_FILE, *text = a->prompt;
  bool big = strlen(a->prompt) > PROMPT_ARG_MAX;
  upk_agent_task t = {.def = &a->def,
                      .model = a->model,
                      .dir = a->dir,
                      .prompt = big ? PROMPT_POINTER : a->prompt,
                      .file_names = big ? &name : NULL,
                      .file_texts = big ? &text : NULL,
                      .n_files = big};
  int rc = upk_agent_run_start(upk_session_loop(a->server), &t, on_agent, a, &a->run);
  if (rc)
    fail_later(a, "cannot start the agent", rc == -ENOMEM ? "out of memory" : uv_strerror(rc));
}

/* Claude Code takes a system prompt of its own (appended to its own); any other agent gets
 * it before the prompt. A system text that looks like a placeholder is never put in argv. */
static int agent_prompt(upk_ask *a, const upk_ask_spec *spec) {
  const char *sys = spec->system;
  const char *prog = a->def.command && a->def.command[0] ? a->def.command[0] : "";
  const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
  bool claude = a->def.format == UPK_AGENT_OUT_CLAUDE && !strcmp(base, "claude");
  if (sys && *sys && claude && !strchr(sys, '{')) {
    size_t n = 0;
    while (a->def.command[n])
      n++;
    char **v = upk_xrealloc(a->def.command, (n + 3) * sizeof *v);
    if (!v)
      return -ENOMEM;
    a->def.command = v;
    v[n] = upk_xstrdup("--append-system-prompt");
    v[n + 1] = upk_xstrdup(sys);
    v[n + 2] = NULL;
    if (!v[n] || !v[n + 1]) {
      free(v[n]);
      free(v[n + 1]);
      v[n] = v[n + 1] = NULL;
      return -ENOMEM;
    }
    a->prompt = upk_xstrdup(spec->prompt);
  } else if (sys && *sys) {
    a->prompt = upk_xasprintf("%s\n\n%s", sys, spec->prompt);
  } else {
    a->prompt = upk_xstrdup(spec->prompt);
  }
  return a->prompt ? 0 : -ENOMEM;
}

static int ask_agent(upk_ask *a, const upk_ask_spec *spec, char *err, size_t errlen) {
  if (upk_agent_def_copy(&a->def, spec->agent) || agent_prompt(a, spec) ||
      !(a->model = upk_xstrdup(spec->model ? spec->model->id : ""))) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }
  a->work.data = a;
  a->in_work = true;
  int rc = uv_queue_work(upk_session_loop(a->server), &a->work, mk_work, mk_done);
  if (rc) {
    a->in_work = false;
    snprintf(err, errlen, "cannot queue the teacher's run: %s", uv_strerror(rc));
  }
  return rc;
}

int upk_ask_start(upk_server *s, const upk_ask_spec *spec, upk_ask_cb cb, void *arg, upk_ask **out,
                  char *err, size_t errlen) {
  if (!spec->prompt) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }
  upk_ask *a = upk_xcalloc(1, sizeof *a);
  if (!a) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }
  a->server = s;
  a->cb = cb;
  a->arg = arg;
  bool agent = spec->agent && spec->agent->name;
  int rc = agent ? ask_agent(a, spec, err, errlen) : ask_api(a, spec, err, errlen);
  if (rc) {
    ask_free(a);
    return rc;
  }
  *out = a;
  return 0;
}

void upk_ask_cancel(upk_ask *a) {
  if (!a || a->cancelled)
    return;
  a->cancelled = true;
  if (a->comp) {
    upk_completion_cancel(a->comp);
    ask_free(a);
  } else if (a->run) {
    upk_agent_run_cancel(a->run); /* kills the group; its callback is not called */
    a->run = NULL;
    remove_and_free(a);
  } /* else on the thread pool: mk_done or end_done sees `cancelled` and frees */
}
