/* Agent CLIs as evaluation targets: definitions and ids (agent.h). */
#include "skills/eval/agent.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { DEFAULT_TIMEOUT_MS = 600000 }; /* upskill's CLI runners wait 600 s */

/* What the agents do by default (docs/skills.md, "Agents as targets"). */
typedef struct builtin {
  const char *name;
  const char *command[14];
  const char *model_args[3];
  const char *skills_dir;
  upk_agent_format format;
  const char *set_env[6];
  const char *login_files[4];
  const char *login_key;
} builtin;

static const builtin BUILTINS[] = {
    {"claude-code",
     {"claude", "-p", "{prompt}", "--output-format", "stream-json", "--verbose",
      "--permission-mode", "acceptEdits", NULL},
     {"--model", "{model}", NULL},
     ".claude/skills",
     UPK_AGENT_OUT_CLAUDE,
     /* An evaluation must not update the agent or send what it did anywhere. */
     {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
      "DISABLE_ERROR_REPORTING=1", NULL},
     {".claude/settings.json", ".claude/.credentials.json", NULL},
     "ANTHROPIC_API_KEY"},
    {"codex",
     /* Its sandbox may write the run's workspace and TMPDIR, never the machine's /tmp (it
      * marks every writable root's .git, .agents and .codex). */
     {"codex", "exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c",
      "sandbox_workspace_write.exclude_slash_tmp=true", "-C", "{workspace}", "{prompt}", NULL},
     {"-m", "{model}", NULL},
     ".agents/skills",
     UPK_AGENT_OUT_CODEX,
     {NULL},
     {".codex/config.toml", ".codex/auth.json", NULL},
     "OPENAI_API_KEY"},
    {"command", {NULL}, {NULL}, ".agents/skills", UPK_AGENT_OUT_TEXT, {NULL}, {NULL}, NULL},
};
enum { N_BUILTINS = sizeof BUILTINS / sizeof *BUILTINS };

const char *const *upk_agent_builtins(void) {
  static const char *const names[] = {"claude-code", "codex", "command", NULL};
  return names;
}

void upk_strv_free(char **v) {
  for (size_t i = 0; v && v[i]; i++)
    free(v[i]);
  free(v);
}

static char **strv_copy(const char *const *src) {
  size_t n = 0;
  while (src[n])
    n++;
  char **v = upk_xcalloc(n + 1, sizeof *v);
  for (size_t i = 0; v && i < n; i++)
    v[i] = upk_xstrdup(src[i]);
  return v;
}

/* A JSON array of strings as a NULL-terminated vector; `what` names it in errors. */
static int strv_from_json(const json_t *a, const char *what, char ***out, char *err,
                          size_t errlen) {
  size_t i, n = json_array_size(a);
  const json_t *v;
  if (!json_is_array(a)) {
    snprintf(err, errlen, "%s must be an array of strings", what);
    return -EINVAL;
  }
  char **s = upk_xcalloc(n + 1, sizeof *s);
  json_array_foreach(a, i, v) {
    if (!json_is_string(v)) {
      snprintf(err, errlen, "%s[%zu] must be a string", what, i);
      upk_strv_free(s);
      return -EINVAL;
    }
    s[i] = upk_xstrdup(json_string_value(v));
  }
  upk_strv_free(*out);
  *out = s;
  return 0;
}

static int env_from_json(const json_t *o, char ***out, char *err, size_t errlen) {
  const char *k;
  const json_t *v;
  size_t n = 0;
  if (!json_is_object(o)) {
    snprintf(err, errlen, "env must be an object of strings");
    return -EINVAL;
  }
  char **s = upk_xcalloc(json_object_size(o) + 1, sizeof *s);
  json_object_foreach((json_t *)o, k, v) {
    if (!json_is_string(v) || !*k || strchr(k, '=')) {
      snprintf(err, errlen, "env.%s must be a string with a plain name", k);
      upk_strv_free(s);
      return -EINVAL;
    }
    s[n++] = upk_xasprintf("%s=%s", k, json_string_value(v));
  }
  upk_strv_free(*out);
  *out = s;
  return 0;
}

static int from_builtin(const builtin *b, const char *name, upk_agent_def *d) {
  d->name = upk_xstrdup(name);
  d->command = strv_copy(b->command);
  d->model_args = strv_copy(b->model_args);
  d->skills_dir = upk_xstrdup(b->skills_dir);
  d->format = b->format;
  d->strip_env = strv_copy((const char *const[]){NULL});
  d->set_env = strv_copy(b->set_env);
  d->login_files = strv_copy(b->login_files);
  d->login_key = b->login_key ? upk_xstrdup(b->login_key) : NULL;
  d->timeout_ms = DEFAULT_TIMEOUT_MS;
  bool ok = d->name && d->command && d->model_args && d->skills_dir && d->strip_env && d->set_env &&
            d->login_files && (!b->login_key || d->login_key);
  return ok ? 0 : -ENOMEM;
}

static int parse_format(const char *s, upk_agent_format *f) {
  static const char *const names[] = {"claude", "codex", "text"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(s, names[i])) {
      *f = (upk_agent_format)i;
      return 0;
    }
  return -EINVAL;
}

/* The config's members over the defaults. */
static int apply_config(const json_t *c, upk_agent_def *d, char *err, size_t errlen) {
  const char *k;
  const json_t *v;
  int rc = 0;
  json_object_foreach((json_t *)c, k, v) {
    if (!strcmp(k, "command") || !strcmp(k, "modelArgs") || !strcmp(k, "stripEnv") ||
        !strcmp(k, "loginFiles")) {
      char ***dst = !strcmp(k, "command")     ? &d->command
                    : !strcmp(k, "modelArgs") ? &d->model_args
                    : !strcmp(k, "stripEnv")  ? &d->strip_env
                                              : &d->login_files;
      rc = strv_from_json(v, k, dst, err, errlen);
      d->strip_given |= !rc && !strcmp(k, "stripEnv");
    } else if (!strcmp(k, "env")) {
      rc = env_from_json(v, &d->set_env, err, errlen);
    } else if (!strcmp(k, "skillsDir") && json_is_string(v)) {
      free(d->skills_dir);
      rc = (d->skills_dir = upk_xstrdup(json_string_value(v))) ? 0 : -ENOMEM;
    } else if (!strcmp(k, "output") && json_is_string(v)) {
      if ((rc = parse_format(json_string_value(v), &d->format)))
        snprintf(err, errlen, "output must be \"claude\", \"codex\" or \"text\"");
    } else if (!strcmp(k, "timeoutMs") && json_is_integer(v) && json_integer_value(v) > 0) {
      d->timeout_ms = (long)json_integer_value(v);
    } else {
      snprintf(err, errlen,
               "unknown or mistyped member '%s' (command, modelArgs, skillsDir, output, stripEnv, "
               "env, loginFiles, timeoutMs)",
               k);
      rc = -EINVAL;
    }
    if (rc)
      return rc;
  }
  return 0;
}

int upk_agent_def_get(const json_t *agents_config, const char *name, upk_agent_def *out, char *err,
                      size_t errlen) {
  memset(out, 0, sizeof *out);
  const json_t *c = json_object_get(agents_config, name);
  const builtin *b = NULL;
  for (size_t i = 0; i < N_BUILTINS && !b; i++)
    if (!strcmp(BUILTINS[i].name, name))
      b = &BUILTINS[i];
  if (!b && !c) {
    snprintf(err, errlen,
             "no agent '%s' (built in: claude-code, codex; others from the config's agents)", name);
    return -ENOENT;
  }
  if (c && !json_is_object(c)) {
    snprintf(err, errlen, "agents.%s must be an object", name);
    return -EINVAL;
  }
  /* A new name starts from the generic command agent: text output. */
  int rc = from_builtin(b ? b : &BUILTINS[N_BUILTINS - 1], name, out);
  if (!rc && c && (rc = apply_config(c, out, err, errlen)) == -EINVAL) {
    char what[256];
    snprintf(what, sizeof what, "agents.%s: %s", name, err);
    snprintf(err, errlen, "%s", what);
  }
  if (!rc && !out->command[0]) {
    snprintf(err, errlen, "agents.%s.command must name the program and its arguments", name);
    rc = -EINVAL;
  }
  if (!rc && (!*out->skills_dir || out->skills_dir[0] == '/' || strstr(out->skills_dir, ".."))) {
    snprintf(err, errlen, "agents.%s.skillsDir must be a path inside the workspace", name);
    rc = -EINVAL;
  }
  if (rc) {
    if (rc == -ENOMEM)
      snprintf(err, errlen, "out of memory");
    upk_agent_def_free(out);
  }
  return rc;
}

int upk_agent_def_copy(upk_agent_def *dst, const upk_agent_def *src) {
  *dst = *src;
  dst->name = upk_xstrdup(src->name);
  dst->command = strv_copy((const char *const *)src->command);
  dst->model_args = strv_copy((const char *const *)src->model_args);
  dst->skills_dir = upk_xstrdup(src->skills_dir);
  dst->strip_env = strv_copy((const char *const *)src->strip_env);
  dst->set_env = strv_copy((const char *const *)src->set_env);
  dst->login_files = strv_copy((const char *const *)src->login_files);
  dst->login_key = src->login_key ? upk_xstrdup(src->login_key) : NULL;
  if (dst->name && dst->command && dst->model_args && dst->skills_dir && dst->strip_env &&
      dst->set_env && dst->login_files && (!src->login_key || dst->login_key))
    return 0;
  upk_agent_def_free(dst);
  return -ENOMEM;
}

void upk_agent_def_free(upk_agent_def *d) {
  free(d->name);
  upk_strv_free(d->command);
  upk_strv_free(d->model_args);
  free(d->skills_dir);
  upk_strv_free(d->strip_env);
  upk_strv_free(d->set_env);
  upk_strv_free(d->login_files);
  free(d->login_key);
  memset(d, 0, sizeof *d);
}

int upk_agent_parse_id(const char *id, char *name, size_t nlen, char *model, size_t mlen) {
  if (strncmp(id, "agent:", 6) != 0 || !id[6] || id[6] == '/')
    return -EINVAL;
  const char *p = id + 6, *slash = strchr(p, '/');
  size_t n = slash ? (size_t)(slash - p) : strlen(p);
  snprintf(name, nlen, "%.*s", (int)n, p);
  snprintf(model, mlen, "%s", slash ? slash + 1 : "");
  for (const char *c = name; *c; c++)
    if (!(*c == '-' || *c == '_' || *c == '.' || (*c >= 'a' && *c <= 'z') ||
          (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
      return -EINVAL;
  return slash && !slash[1] ? -EINVAL : 0;
}
