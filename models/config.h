/** Daemon configuration that is not a command-line flag: model providers,
 * and the settings read from YAML files and initializationOptions. */
#ifndef UPK_CONFIG_H
#define UPK_CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "models/yaml_json.h" /* upk_yaml_to_json, which the config files are read with */

typedef struct upk_provider_def {
  const char *name;        /* anthropic, openai, generic */
  const char *key_env;     /* where the API key comes from */
  const char *url_env;     /* where a base URL override comes from */
  const char *default_url; /* NULL: must be configured (generic servers) */
} upk_provider_def;

/** The known providers, terminated by a zeroed entry. */
extern const upk_provider_def upk_provider_defs[];

/** The base URL in use for a provider (env override or default); NULL if none. */
const char *upk_provider_url(const upk_provider_def *p);
/** Whether a provider can be called: a key (or, for generic, a URL) is set. */
int upk_provider_configured(const upk_provider_def *p);
/** The provider's API key from the environment; NULL when unset or empty. */
const char *upk_provider_key(const upk_provider_def *p);
/** The provider named `name` ("anthropic", "openai", "generic"); NULL if unknown. */
const upk_provider_def *upk_provider_find(const char *name);

/** Settings, merged from (later wins): built-in defaults,
 * `$XDG_CONFIG_HOME/upskilld/config.yaml` (else `~/.config/upskilld/config.yaml`),
 * the project's `upskill.config.yaml`, and initializationOptions (its
 * `upskilld` object when present, else the whole object).
 *
 * Keys (upskill's own, plus the daemon's HTTP knobs):
 *   skill_generation_model (alias: model), eval_model, test_gen_model,
 *   skills_dir, runs_dir, max_refine_attempts,
 *   model_aliases: {alias: model name} (opus/sonnet/haiku built in),
 *   request_timeout_ms, connect_timeout_ms, max_attempts, retry_backoff_ms.
 */
typedef struct upk_config {
  char *skill_generation_model; /* default "sonnet" */
  char *eval_model;             /* NULL: use skill_generation_model */
  char *test_gen_model;         /* NULL: use skill_generation_model */
  char *grader_model;           /* judges `expect` statements in evals; NULL: none */
  char *skills_dir;             /* default "./skills" */
  char *runs_dir;               /* NULL: $XDG_STATE_HOME/upskilld/runs */
  char *git_host;               /* skills.gitHost: owner/repo's host; NULL: https://github.com */
  char *audit_judge;            /* audit.judge: the model every audit asks (the user's file only) */
  char *audit_judge_failure;    /* audit.judgeFailure: "warn" (NULL) or "fail" */
  int max_refine_attempts;      /* default 2, as upskill */
  json_t *model_aliases;        /* object: alias -> model name */
  json_t *agents;               /* object: agent name -> settings (skills/eval/agent.h) */
  json_t
      *prices;      /* object: model ("provider.id", "agent:NAME") -> {input, output, cacheRead}
                       in USD per million tokens (daemon/eval/budget.h); a project's only raise them */
  int max_parallel; /* agent runs at once; 0: the core count */
  long request_timeout_ms; /* whole completion, retries included; default 120000 */
  long connect_timeout_ms; /* default 10000 */
  int max_attempts;        /* tries per completion; default 4 */
  long retry_backoff_ms;   /* first retry delay before jitter; default 500 */
  json_t *sources;         /* array of the files that were read */
  /* The project layer's standing (common/trust.h upk_trust), or -1 when there was no project
   * config to judge; and the keys it set that were refused because the project is not trusted:
   * [{key, rule, message}], in the order met (docs/security.md, "Project config"); also, from
   * either config file, an unknown key (rule config/unknown-key, the nearest known key in its
   * message) and a value of the wrong type (config/bad-value), each with file and line: the
   * rest of the file still applies. */
  int trust;
  json_t *refused;
} upk_config;

/** Fill `c` with the defaults only. */
void upk_config_defaults(upk_config *c);
/** How a config file's problems (an unknown key, a wrong value) are logged besides being recorded
 * in `refused`: at warn (the default), or at info where the client prints them from the answers
 * (configRefused, upskilld/status), so that a person reads each once (upskilld
 * --config-problems=answers, which upskillctl passes to the daemon it spawns). */
void upk_config_problems_in_answers(bool yes);
/** Load every layer. `project_dir` and `init_options` may be NULL. The project's layer is data
 * until the user trusts the project (common/trust.h upk_trust_check): untrusted or changed, its
 * agents.*.command, modelArgs, env, loginFiles and stripEnv, skills.gitHost, and runs_dir or
 * skills_dir leaving the project are refused (left out, the rest applied) and listed in
 * c->refused; c->trust says the standing. The user's file and `init_options` are the user's
 * own: never gated. Missing files are skipped; an unreadable or malformed file is an error
 * (-EINVAL, or the errno) with "PATH:LINE: what" in `err`; a file's unknown key or value of the
 * wrong type is listed in c->refused (above), the rest applied; in init_options it is an error.
 * Reads files: call it off the loop. On error `c` holds the defaults and nothing to free beyond
 * upk_config_free. */
int upk_config_load(upk_config *c, const char *project_dir, const json_t *init_options, char *err,
                    size_t errlen);
/** Merge one layer: a JSON object of the keys above (`where` names it in errors). */
int upk_config_apply(upk_config *c, const json_t *layer, const char *where, char *err,
                     size_t errlen);
/** The model name an alias stands for, or NULL when `name` is no alias. */
const char *upk_config_alias(const upk_config *c, const char *name);
void upk_config_free(upk_config *c);

/** The strings the user's own layers list under section.key (condense.allowPaths): the user's
 * config file, then initializationOptions (under "upskilld" when present). Never a project's
 * upskill.config.yaml: what widens a power comes from the user only (docs/security.md). A string
 * stands for a list of one. A new array (caller owns), empty when none says anything. */
json_t *upk_config_user_list(const json_t *init_options, const char *section, const char *key);

#endif
