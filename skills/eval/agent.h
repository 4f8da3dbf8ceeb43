/** Agent CLIs as evaluation targets: Claude Code, Codex, or any command.
 *
 * A model id `agent:NAME[/MODEL]` names an agent instead of a model API. Each
 * run gets a fresh directory of its own:
 *
 *   DIR/workspace/   the agent's working directory; the skill under test is
 *                    installed where that agent reads project skills
 *                    (`.claude/skills/NAME/`, `.agents/skills/NAME/`) and the
 *                    case's files are written beside it
 *   DIR/home/        HOME (and CODEX_HOME below it): no user-level skill can
 *                    leak into the baseline; the agent's login files are
 *                    copied in from the user's home so it can still sign in
 *   DIR/tmp/         TMPDIR
 *   DIR/stdout.jsonl, DIR/stderr.txt   what the agent printed
 *
 * This module is plain C with no event loop: it builds the command line and
 * environment, prepares and inspects the directory (blocking: call it off the
 * loop), and reads the agent's JSON output into a typed result. The daemon
 * spawns the process (daemon/eval/agent_runner.c).
 */
#ifndef UPK_AGENT_H
#define UPK_AGENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** How an agent reports what it did. */
typedef enum {
  UPK_AGENT_OUT_CLAUDE, /* claude -p --output-format stream-json --verbose: one event a line */
  UPK_AGENT_OUT_CODEX,  /* codex exec --json: thread/turn/item events a line */
  UPK_AGENT_OUT_TEXT,   /* anything else: stdout is the answer */
} upk_agent_format;

/** An agent: built in (claude-code, codex) or from the config's `agents`.
 * Words of `command` and `model_args` may hold {prompt}, {workspace},
 * {model}, {home}, {dir}; `model_args` follow the command only when a model
 * is given. */
typedef struct upk_agent_def {
  char *name;
  char **command;    /* NULL-terminated */
  char **model_args; /* NULL-terminated */
  char *skills_dir;  /* in the workspace: ".claude/skills" */
  upk_agent_format format;
  char **strip_env;   /* variables removed from the agent's environment; NULL-terminated */
  char **set_env;     /* "NAME=VALUE" added (values expanded); NULL-terminated */
  char **login_files; /* paths under the user's home copied into the run's home */
  char *login_key;    /* stripped when a login file was copied, unless stripEnv is given */
  long timeout_ms;    /* a run is killed (its whole process group) after this */
  bool strip_given;   /* strip_env came from the config, not the default */
} upk_agent_def;

/** The definition of `name` ("claude-code", "codex", or a key of the
 * config's `agents` object, whose members override a built-in's: command
 * (array of strings), skillsDir, output ("claude" | "codex" | "text"),
 * stripEnv (array), env (object), loginFiles (array), timeoutMs). Returns 0,
 * -ENOENT (no such agent), -EINVAL (a bad member; `err` says which), -ENOMEM. */
int upk_agent_def_get(const json_t *agents_config, const char *name, upk_agent_def *out, char *err,
                      size_t errlen);
/** A deep copy. Returns 0 or -ENOMEM (dst then empty). */
int upk_agent_def_copy(upk_agent_def *dst, const upk_agent_def *src);
void upk_agent_def_free(upk_agent_def *d);
/** The built-in agent names, NULL-terminated. */
const char *const *upk_agent_builtins(void);

/** Split a model id "agent:NAME[/MODEL]" into name and model (either may be
 * truncated to its buffer). Returns 0, or -EINVAL when `id` is no agent id. */
int upk_agent_parse_id(const char *id, char *name, size_t nlen, char *model, size_t mlen);

/** One run to prepare. Strings are borrowed. */
typedef struct upk_agent_task {
  const upk_agent_def *def;
  const char *model;             /* the agent's --model; NULL or "": its default */
  const char *dir;               /* the run's directory (created) */
  const char *prompt;            /* the task */
  const char *skill_dir;         /* installed into the workspace; NULL: the baseline */
  const char *skill_name;        /* the folder name it is installed under */
  const char *skill_md;          /* used when skill_dir is NULL but a skill is wanted */
  const char *const *file_names; /* the case's files, written into the workspace */
  const char *const *file_texts;
  size_t n_files;
  const char *user_home; /* where login files are copied from; NULL: $HOME */
  bool git_baseline;     /* the runner commits the prepared workspace (a `diff` assertion) */
} upk_agent_task;

/** A prepared run: what to spawn. */
typedef struct upk_agent_launch {
  char **argv;     /* expanded, NULL-terminated */
  char **envp;     /* `base` less strip_env (and login_key when a login was
                      copied), with HOME, TMPDIR, CODEX_HOME and set_env */
  char *workspace; /* the working directory */
  char *stdout_path, *stderr_path;
} upk_agent_launch;

/** Create the run's directory tree, install the skill, write the files,
 * copy the login files and build the launch. `base` is the environment to
 * start from ("NAME=VALUE", NULL-terminated: normally environ). Blocking.
 * Returns 0 or a negative errno with `err`. */
int upk_agent_prepare(const upk_agent_task *t, char *const *base, upk_agent_launch *out, char *err,
                      size_t errlen);
void upk_agent_launch_free(upk_agent_launch *l);
void upk_strv_free(char **v);

/** What a run did, read from its output. Strings malloc'd. */
typedef struct upk_agent_result {
  char *answer;                     /* the final text; NULL when there is none */
  char *error;                      /* why the run failed; NULL when it did not */
  char *session_id;                 /* the agent's session or thread id */
  long input_tokens, output_tokens; /* summed over the run; -1 unknown */
  long cache_read_tokens;           /* -1 unknown */
  int turns;                        /* model round trips the agent reports; -1 unknown */
  double cost_usd;                  /* -1 unknown */
  double agent_ms;                  /* the agent's own duration; -1 unknown */
  json_t *tool_calls;               /* [{name, input}], in order */
  char **tools;                     /* the tools' names, in order (repeats kept) */
  size_t n_tools;
  int skill_loaded;     /* 1 loaded, 0 not, -1 cannot tell (text output) */
  char *skill_evidence; /* how it was loaded: "Skill tool", "read .../SKILL.md" */
  char **files;         /* files the run wrote in the workspace (see upk_agent_inspect) */
  char **previews;      /* per file: its text when it is small text (the first few files), else
                           NULL; what a grader is shown */
  size_t n_files;
} upk_agent_result;

/** Read an agent's stdout. `skill_name` is the skill whose loading is looked
 * for (NULL: none). Output that is not what `format` promises is an error in
 * r->error ("the agent printed no JSON: …"), never a crash. Returns 0 or
 * -ENOMEM. */
int upk_agent_parse(upk_agent_format format, const char *out, size_t len, const char *skill_name,
                    upk_agent_result *r);
/** After a run: the files it wrote in the workspace (new or changed; the
 * installed skill and untouched case files left out). Blocking. */
int upk_agent_inspect(const upk_agent_task *t, upk_agent_result *r);
void upk_agent_result_free(upk_agent_result *r);

#endif
