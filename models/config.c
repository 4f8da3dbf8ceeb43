#include "models/config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/fileio.h"
#include "common/xalloc.h"

const upk_provider_def upk_provider_defs[] = {
    {"anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"},
    {"openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"},
    {"generic", "GENERIC_API_KEY", "GENERIC_BASE_URL", NULL},
    {0},
};

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

const char *upk_provider_url(const upk_provider_def *p) {
  const char *v = env(p->url_env);
  return v ? v : p->default_url;
}

int upk_provider_configured(const upk_provider_def *p) {
  /* Local OpenAI-compatible servers usually need no key, only a URL. */
  return p->default_url ? env(p->key_env) != NULL : env(p->url_env) != NULL;
}

const char *upk_provider_key(const upk_provider_def *p) {
  return env(p->key_env);
}

const upk_provider_def *upk_provider_find(const char *name) {
  for (const upk_provider_def *p = upk_provider_defs; p->name; p++)
    if (!strcmp(p->name, name))
      return p;
  return NULL;
}

enum { YAML_MAX_DEPTH = 32, YAML_MAX_NODES = 100000, CONFIG_MAX_BYTES = 1 << 20 };
#define DEFAULT_MODEL "sonnet"
#define DEFAULT_SKILLS_DIR "./skills"

/* ---- YAML to JSON ---------------------------------------------------------------------- */

/* A plain (unquoted) scalar typed as YAML 1.2's core schema does. */
static json_t *plain_scalar(const char *s) {
  if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"))
    return json_null();
  if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
    return json_true();
  if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
    return json_false();
  char *end;
  errno = 0;
  long long i = strtoll(s, &end, 10);
  if (!*end && !errno)
    return json_integer(i);
  double d = strtod(s, &end);
  if (!*end && isfinite(d) && strpbrk(s, "0123456789"))
    return json_real(d);
  return json_string(s);
}

static json_t *node_json(yaml_document_t *doc, yaml_node_t *n, int depth, int *budget) {
  if (!n || depth > YAML_MAX_DEPTH || --*budget < 0)
    return NULL;
  if (n->type == YAML_SCALAR_NODE) {
    const char *v = (const char *)n->data.scalar.value;
    return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? plain_scalar(v) : json_string(v);
  }
  if (n->type == YAML_SEQUENCE_NODE) {
    json_t *a = json_array();
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
      json_t *v = node_json(doc, yaml_document_get_node(doc, *it), depth + 1, budget);
      if (!v || json_array_append_new(a, v)) {
        json_decref(a);
        return NULL;
      }
    }
    return a;
  }
  if (n->type != YAML_MAPPING_NODE)
    return NULL;
  json_t *o = json_object();
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    json_t *v = node_json(doc, yaml_document_get_node(doc, p->value), depth + 1, budget);
    if (!k || k->type != YAML_SCALAR_NODE || !v) { /* a mapping or sequence as a key */
      json_decref(v);
      json_decref(o);
      return NULL;
    }
    if (json_object_set_new(o, (const char *)k->data.scalar.value, v)) {
      json_decref(o);
      return NULL;
    }
  }
  return o;
}

json_t *upk_yaml_to_json(const char *text, size_t len, char *err, size_t errlen) {
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  json_t *out = NULL;
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errlen, "%zu:%zu: %s", parser.problem_mark.line + 1,
             parser.problem_mark.column + 1, parser.problem ? parser.problem : "invalid YAML");
    yaml_parser_delete(&parser);
    return NULL;
  }
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  int budget = YAML_MAX_NODES;
  out = root ? node_json(&doc, root, 0, &budget) : json_object(); /* empty file: no settings */
  if (!out)
    snprintf(err, errlen, "1:1: nested too deeply, too large, or a non-scalar mapping key");
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return out;
}

/* ---- layers --------------------------------------------------------------------------- */

void upk_config_defaults(upk_config *c) {
  memset(c, 0, sizeof *c);
  c->skill_generation_model = upk_xstrdup(DEFAULT_MODEL);
  c->skills_dir = upk_xstrdup(DEFAULT_SKILLS_DIR);
  c->max_refine_attempts = 2;
  /* Current model ids; a config file's model_aliases can point them elsewhere. */
  c->model_aliases =
      json_pack("{s:s,s:s,s:s}", "opus", "anthropic.claude-opus-4-5", "sonnet",
                "anthropic.claude-sonnet-4-5", "haiku", "anthropic.claude-haiku-4-5");
  c->request_timeout_ms = 120000;
  c->connect_timeout_ms = 10000;
  c->max_attempts = 4;
  c->retry_backoff_ms = 500;
  c->sources = json_array();
  c->agents = json_object();
}

void upk_config_free(upk_config *c) {
  free(c->skill_generation_model);
  free(c->eval_model);
  free(c->test_gen_model);
  free(c->skills_dir);
  free(c->runs_dir);
  free(c->git_host);
  free(c->grader_model);
  json_decref(c->model_aliases);
  json_decref(c->agents);
  json_decref(c->sources);
  memset(c, 0, sizeof *c);
}

static int bad(char *err, size_t errlen, const char *where, const char *key, const char *what) {
  snprintf(err, errlen, "%s: %s: %s", where, key, what);
  return -EINVAL;
}

/* null restores the default `def` (NULL for the settings that fall back to another): a
 * `model: ~` must not leave the daemon without a teacher model. */
static int set_string(char **field, const json_t *v, const char *def, const char *where,
                      const char *key, char *err, size_t errlen) {
  if (json_is_null(v)) {
    free(*field);
    *field = def ? upk_xstrdup(def) : NULL;
    return def && !*field ? -ENOMEM : 0;
  }
  if (!json_is_string(v) || !json_string_length(v))
    return bad(err, errlen, where, key, "expected a non-empty string");
  free(*field);
  *field = upk_xstrdup(json_string_value(v));
  return *field ? 0 : -ENOMEM;
}

static int set_long(long *field, const json_t *v, long lo, long hi, const char *where,
                    const char *key, char *err, size_t errlen) {
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
    char what[96];
    snprintf(what, sizeof what, "expected an integer from %ld to %ld", lo, hi);
    return bad(err, errlen, where, key, what);
  }
  *field = (long)json_integer_value(v);
  return 0;
}

static int set_aliases(upk_config *c, const json_t *v, const char *where, char *err,
                       size_t errlen) {
  const char *k;
  json_t *x;
  if (!json_is_object(v))
    return bad(err, errlen, where, "model_aliases", "expected a mapping of alias: model");
  json_object_foreach((json_t *)v, k, x) {
    if (!json_is_string(x) || !json_string_length(x))
      return bad(err, errlen, where, "model_aliases", "every alias maps to a model name string");
    json_object_set(c->model_aliases, k, x);
  }
  return 0;
}

/* agents: {NAME: {command, env, ...}}: agent CLIs as evaluation targets
 * (skills/eval/agent.h reads the members). A later layer's members override
 * an earlier one's, agent by agent. */
static int set_agents(upk_config *c, const json_t *v, const char *where, char *err, size_t errlen) {
  const char *k;
  json_t *x;
  if (!json_is_object(v))
    return bad(err, errlen, where, "agents", "expected a mapping of agent name: settings");
  json_object_foreach((json_t *)v, k, x) {
    if (!json_is_object(x))
      return bad(err, errlen, where, "agents", "every agent maps to a mapping of settings");
    json_t *have = json_object_get(c->agents, k);
    if (have ? json_object_update(have, x) : json_object_set_new(c->agents, k, json_deep_copy(x)))
      return bad(err, errlen, where, "agents", "out of memory");
  }
  return 0;
}

/* skills: {gitHost: URL}: where owner/repo sources live. */
static int set_skills(upk_config *c, const json_t *v, const char *where, char *err, size_t errlen) {
  if (!json_is_object(v))
    return bad(err, errlen, where, "skills", "expected a mapping (gitHost: URL)");
  const json_t *host = json_object_get(v, "gitHost");
  return host ? set_string(&c->git_host, host, NULL, where, "skills.gitHost", err, errlen) : 0;
}

static int apply_one(upk_config *c, const char *k, const json_t *v, const char *where, char *err,
                     size_t errlen) {
  long n;
  int rc;
  if (!strcmp(k, "skill_generation_model") || !strcmp(k, "model"))
    return set_string(&c->skill_generation_model, v, DEFAULT_MODEL, where, k, err, errlen);
  if (!strcmp(k, "eval_model"))
    return set_string(&c->eval_model, v, NULL, where, k, err, errlen);
  if (!strcmp(k, "test_gen_model"))
    return set_string(&c->test_gen_model, v, NULL, where, k, err, errlen);
  if (!strcmp(k, "grader_model"))
    return set_string(&c->grader_model, v, NULL, where, k, err, errlen);
  if (!strcmp(k, "skills_dir"))
    return set_string(&c->skills_dir, v, DEFAULT_SKILLS_DIR, where, k, err, errlen);
  if (!strcmp(k, "runs_dir"))
    return set_string(&c->runs_dir, v, NULL, where, k, err, errlen);
  if (!strcmp(k, "skills"))
    return set_skills(c, v, where, err, errlen);
  if (!strcmp(k, "model_aliases"))
    return set_aliases(c, v, where, err, errlen);
  if (!strcmp(k, "agents"))
    return set_agents(c, v, where, err, errlen);
  if (!strcmp(k, "max_parallel")) {
    rc = set_long(&n, v, 1, 256, where, k, err, errlen);
    c->max_parallel = rc ? c->max_parallel : (int)n;
    return rc;
  }
  if (!strcmp(k, "max_refine_attempts")) {
    rc = set_long(&n, v, 0, 100, where, k, err, errlen);
    c->max_refine_attempts = rc ? c->max_refine_attempts : (int)n;
    return rc;
  }
  if (!strcmp(k, "max_attempts")) {
    rc = set_long(&n, v, 1, 20, where, k, err, errlen);
    c->max_attempts = rc ? c->max_attempts : (int)n;
    return rc;
  }
  if (!strcmp(k, "request_timeout_ms"))
    return set_long(&c->request_timeout_ms, v, 1, 3600000, where, k, err, errlen);
  if (!strcmp(k, "connect_timeout_ms"))
    return set_long(&c->connect_timeout_ms, v, 1, 600000, where, k, err, errlen);
  if (!strcmp(k, "retry_backoff_ms"))
    return set_long(&c->retry_backoff_ms, v, 0, 600000, where, k, err, errlen);
  return 0; /* upskill's other keys (auto_eval, fastagent_config, ...) and editor settings */
}

int upk_config_apply(upk_config *c, const json_t *layer, const char *where, char *err,
                     size_t errlen) {
  const char *k;
  json_t *v;
  if (!json_is_object(layer))
    return bad(err, errlen, where, "(top level)", "expected a mapping");
  json_object_foreach((json_t *)layer, k, v) {
    int rc = apply_one(c, k, v, where, err, errlen);
    if (rc)
      return rc;
  }
  return 0;
}

/* Read a whole small file; 1 when absent, 0 when read, else a negative errno. Through the one
 * reader (common/fileio.h): a FIFO is refused, not waited on; the size is capped first. */
static int slurp(const char *path, char **out, size_t *len) {
  *out = upk_read_file(path, CONFIG_MAX_BYTES, len);
  if (*out)
    return 0;
  return errno == ENOENT || errno == ENOTDIR ? 1 : -errno;
}

static int load_file(upk_config *c, const char *path, char *err, size_t errlen) {
  char *text = NULL, yerr[256];
  size_t len = 0;
  int rc = slurp(path, &text, &len);
  if (rc == 1)
    return 0;
  if (rc) {
    snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    return rc;
  }
  json_t *layer = upk_yaml_to_json(text, len, yerr, sizeof yerr);
  free(text);
  if (!layer) {
    snprintf(err, errlen, "%s:%s", path, yerr);
    return -EINVAL;
  }
  rc = json_is_null(layer) ? 0 : upk_config_apply(c, layer, path, err, errlen);
  json_decref(layer);
  if (!rc)
    json_array_append_new(c->sources, json_string(path));
  return rc;
}

static int load_files(upk_config *c, const char *project_dir, char *err, size_t errlen) {
  char path[PATH_MAX];
  const char *xdg = env("XDG_CONFIG_HOME"), *home = env("HOME");
  int rc = 0;
  if (xdg || home) {
    snprintf(path, sizeof path, "%s%s/upskilld/config.yaml", xdg ? xdg : home,
             xdg ? "" : "/.config");
    rc = load_file(c, path, err, errlen);
  }
  if (!rc && project_dir) {
    snprintf(path, sizeof path, "%s/upskill.config.yaml", project_dir);
    rc = load_file(c, path, err, errlen);
  }
  return rc;
}

int upk_config_load(upk_config *c, const char *project_dir, const json_t *init_options, char *err,
                    size_t errlen) {
  upk_config_defaults(c);
  int rc = load_files(c, project_dir, err, errlen);
  if (!rc && json_is_object(init_options)) {
    const json_t *own = json_object_get(init_options, "upskilld");
    rc = upk_config_apply(c, json_is_object(own) ? own : init_options, "initializationOptions", err,
                          errlen);
  }
  if (rc) {
    upk_config_free(c);
    upk_config_defaults(c);
  }
  return rc;
}

const char *upk_config_alias(const upk_config *c, const char *name) {
  return json_string_value(json_object_get(c->model_aliases, name));
}

/* ---- the user's own lists ---- */

/* Append layer[section][key]'s strings to out. */
static void add_strings(json_t *out, const json_t *layer, const char *section, const char *key) {
  json_t *v = json_object_get(json_object_get(layer, section), key), *e;
  size_t i;
  if (json_is_string(v))
    json_array_append(out, v);
  json_array_foreach(v, i, e) {
    if (json_is_string(e))
      json_array_append(out, e);
  }
}

json_t *upk_config_user_list(const json_t *init_options, const char *section, const char *key) {
  json_t *out = json_array();
  char path[PATH_MAX], *text = NULL, yerr[256];
  size_t len = 0;
  const char *xdg = env("XDG_CONFIG_HOME"), *home = env("HOME");
  if ((xdg || home) && snprintf(path, sizeof path, "%s%s/upskilld/config.yaml", xdg ? xdg : home,
                                xdg ? "" : "/.config") < (int)sizeof path &&
      slurp(path, &text, &len) == 0) {
    json_t *layer = upk_yaml_to_json(text, len, yerr, sizeof yerr);
    add_strings(out, layer, section, key);
    json_decref(layer);
    free(text);
  }
  const json_t *own = json_object_get(init_options, "upskilld");
  add_strings(out, json_is_object(own) ? own : init_options, section, key);
  return out;
}
