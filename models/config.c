#include "models/config.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "common/fileio.h"
#include "common/suggest.h"
#include "common/log.h"
#include "common/trust.h"
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

enum { CONFIG_MAX_BYTES = 1 << 20 };
#define DEFAULT_MODEL "sonnet"
#define DEFAULT_SKILLS_DIR "./skills"

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
  c->prices = json_object();
  c->trust = -1;
  c->refused = json_array();
}

void upk_config_free(upk_config *c) {
  free(c->skill_generation_model);
  free(c->eval_model);
  free(c->test_gen_model);
  free(c->skills_dir);
  free(c->runs_dir);
  free(c->git_host);
  free(c->audit_judge);
  free(c->audit_judge_failure);
  free(c->grader_model);
  json_decref(c->model_aliases);
  json_decref(c->agents);
  json_decref(c->prices);
  json_decref(c->sources);
  json_decref(c->refused);
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

/* prices: {MODEL: {input, output, cacheRead?}}: USD per million tokens, model by model (a later
 * layer's figures replace an earlier one's, field by field; see keep_user_prices for a
 * project's). Data, not a power: any layer may set them. */
static int set_prices(upk_config *c, const json_t *v, const char *where, char *err, size_t errlen) {
  const char *k, *f;
  json_t *x, *n;
  if (!json_is_object(v))
    return bad(err, errlen, where, "prices",
               "expected a mapping of model: {input, output, cacheRead} (USD per million tokens)");
  json_object_foreach((json_t *)v, k, x) {
    if (!json_is_object(x))
      return bad(err, errlen, where, "prices",
                 "every model maps to {input, output, cacheRead} (USD per million tokens)");
    json_object_foreach(x, f, n) {
      if (strcmp(f, "input") && strcmp(f, "output") && strcmp(f, "cacheRead"))
        return bad(err, errlen, where, "prices", "a price has input, output and cacheRead only");
      if (!json_is_number(n) || json_number_value(n) < 0 || json_number_value(n) > 1e6)
        return bad(err, errlen, where, "prices",
                   "a price is a number of USD per million tokens, from 0 to 1000000");
    }
    json_t *have = json_object_get(c->prices, k);
    if (have ? json_object_update(have, x) : json_object_set_new(c->prices, k, json_deep_copy(x)))
      return bad(err, errlen, where, "prices", "out of memory");
  }
  return 0;
}

/* A project's prices may raise the user's, never lower them: a cloned repository must not turn
 * the user's --max-cost-usd off by pricing a model at 0 (docs/security.md, "Project config"). */
static void keep_user_prices(const upk_config *c, json_t *layer) {
  const char *k, *f;
  json_t *x, *n;
  json_object_foreach(json_object_get(layer, "prices"), k, x) {
    json_object_foreach(x, f, n) {
      const json_t *mine = json_object_get(json_object_get(c->prices, k), f);
      if (json_is_number(n) && json_is_number(mine) &&
          json_number_value(mine) > json_number_value(n))
        json_object_set(x, f, (json_t *)mine);
    }
  }
}

/* skills: {gitHost: URL}: where owner/repo sources live. */
static int set_skills(upk_config *c, const json_t *v, const char *where, char *err, size_t errlen) {
  if (!json_is_object(v))
    return bad(err, errlen, where, "skills", "expected a mapping (gitHost: URL)");
  const json_t *host = json_object_get(v, "gitHost");
  return host ? set_string(&c->git_host, host, NULL, where, "skills.gitHost", err, errlen) : 0;
}

/* audit: {judge: MODEL, judgeFailure: warn|fail}: the second reader every audit gets. */
static int set_audit(upk_config *c, const json_t *v, const char *where, char *err, size_t errlen) {
  const char *k;
  const json_t *x;
  if (!json_is_object(v))
    return bad(err, errlen, where, "audit",
               "expected a mapping (judge: MODEL, judgeFailure: warn)");
  json_object_foreach((json_t *)v, k, x) {
    const char *s = json_string_value(x);
    if (!strcmp(k, "judge") && s && *s)
      set_string(&c->audit_judge, x, NULL, where, "audit.judge", err, errlen);
    else if (!strcmp(k, "judgeFailure") && s && (!strcmp(s, "warn") || !strcmp(s, "fail")))
      set_string(&c->audit_judge_failure, x, NULL, where, "audit.judgeFailure", err, errlen);
    else
      return bad(err, errlen, where, "audit",
                 "takes judge: MODEL (a string) and judgeFailure: warn or fail");
  }
  return 0;
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
  if (!strcmp(k, "audit"))
    return set_audit(c, v, where, err, errlen);
  if (!strcmp(k, "model_aliases"))
    return set_aliases(c, v, where, err, errlen);
  if (!strcmp(k, "agents"))
    return set_agents(c, v, where, err, errlen);
  if (!strcmp(k, "prices"))
    return set_prices(c, v, where, err, errlen);
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

/* ---- a config file checked key by key ---- */

/* Every key a config file may hold: upskilld's, upskill's own (auto_eval, fastagent_config are
 * upskill's and read by no one), and the editor settings the daemon reads from any layer. */
static const char *const KNOWN_KEYS[] = {"skill_generation_model",
                                         "model",
                                         "eval_model",
                                         "test_gen_model",
                                         "grader_model",
                                         "skills_dir",
                                         "runs_dir",
                                         "skills",
                                         "audit",
                                         "model_aliases",
                                         "agents",
                                         "prices",
                                         "max_parallel",
                                         "max_refine_attempts",
                                         "max_attempts",
                                         "request_timeout_ms",
                                         "connect_timeout_ms",
                                         "retry_backoff_ms",
                                         "auto_eval",
                                         "fastagent_config",
                                         "condense",
                                         "warmKernels"};
static const char *const SKILLS_KEYS[] = {"gitHost", "extraDirs", "maxDirs"};
#define NKEYS(a) (sizeof(a) / sizeof *(a))

static bool is_known(const char *k, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(k, v[i]))
      return true;
  return false;
}

/* Each scalar key of mapping node m and its line, as PREFIX + key. */
static void mapping_lines(yaml_document_t *doc, yaml_node_t *m, const char *prefix, json_t *out) {
  if (!m || m->type != YAML_MAPPING_NODE)
    return;
  for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = yaml_document_get_node(doc, pr->key);
    if (!k || k->type != YAML_SCALAR_NODE)
      continue;
    char name[256];
    snprintf(name, sizeof name, "%s%s", prefix, (const char *)k->data.scalar.value);
    json_object_set_new(out, name, json_integer((json_int_t)k->start_mark.line + 1));
    if (!*prefix && !strcmp(name, "skills"))
      mapping_lines(doc, yaml_document_get_node(doc, pr->value), "skills.", out);
  }
}

/* The line of each top-level key of a YAML document (and of skills.*, as "skills.K"). */
static json_t *key_lines(const char *text, size_t len) {
  yaml_parser_t p;
  yaml_document_t doc;
  json_t *out = json_object();
  if (!yaml_parser_initialize(&p))
    return out;
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  if (yaml_parser_load(&p, &doc)) {
    mapping_lines(&doc, yaml_document_get_root_node(&doc), "", out);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&p);
  return out;
}

static atomic_bool problems_in_answers;

void upk_config_problems_in_answers(bool yes) {
  atomic_store(&problems_in_answers, yes);
}

/* A problem with one key of a config file, recorded (c->refused, rule `rule`) and logged: the
 * rest of the file still applies. */
static void key_problem(upk_config *c, const char *path, const json_t *lines, const char *key,
                        const char *rule, const char *what) {
  char msg[1024];
  json_int_t line = json_integer_value(json_object_get(lines, key));
  snprintf(msg, sizeof msg, "%s:%lld: %s", path, (long long)(line ? line : 1), what);
  json_array_append_new(c->refused,
                        json_pack("{s:s,s:s,s:s,s:s,s:I}", "key", key, "rule", rule, "message", msg,
                                  "file", path, "line", line ? line : 1));
  upk_log(atomic_load(&problems_in_answers) ? UPK_LOG_INFO : UPK_LOG_WARN, "%s", msg);
}

static void unknown_key(upk_config *c, const char *path, const json_t *lines, const char *key,
                        const char *const *known, size_t n) {
  const char *base = strchr(key, '.') ? strchr(key, '.') + 1 : key;
  const char *near = upk_suggest(base, known, n);
  char what[512];
  snprintf(what, sizeof what, "unknown key '%s'%s%s%s: ignored", key,
           near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
  key_problem(c, path, lines, key, "config/unknown-key", what);
}

/* A config file's layer: each key applied on its own; an unknown key or a value of the wrong
 * type is reported with its line, and the rest still applies. -ENOMEM only. */
static int apply_file(upk_config *c, const json_t *layer, const char *path, const json_t *lines) {
  const char *k, *sk;
  json_t *v, *sv;
  char err[512];
  json_object_foreach((json_t *)layer, k, v) {
    if (!is_known(k, KNOWN_KEYS, NKEYS(KNOWN_KEYS))) {
      unknown_key(c, path, lines, k, KNOWN_KEYS, NKEYS(KNOWN_KEYS));
      continue;
    }
    json_object_foreach(!strcmp(k, "skills") ? v : NULL, sk, sv) {
      char full[300];
      snprintf(full, sizeof full, "skills.%s", sk);
      if (!is_known(sk, SKILLS_KEYS, NKEYS(SKILLS_KEYS)))
        unknown_key(c, path, lines, full, SKILLS_KEYS, NKEYS(SKILLS_KEYS));
    }
    int rc = apply_one(c, k, v, path, err, sizeof err);
    if (rc == -ENOMEM)
      return rc;
    if (rc) /* "PATH: KEY: what": the key and what is wrong, after the line */
      key_problem(c, path, lines, k, "config/bad-value",
                  strstr(err, ": ") ? strstr(err, ": ") + 2 : err);
  }
  return 0;
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

/* ---- the project layer: data unless the user trusts the project ------------------------- */

/* A project's upskill.config.yaml is a cloned repository's word. The keys below would let it
 * run a program, read the user's files, write outside the project or send the user's
 * credentials to a host it names; they take effect only when upk_trust_check() says YES.
 * Otherwise each is taken out of the layer before it is applied (the user's own value stays),
 * and recorded in c->refused with the rule and `upskillctl trust DIR` (docs/security.md). */
typedef struct gate {
  upk_config *c;
  const char *path, *dir;
  upk_trust trust;
} gate;

static void refuse_key(gate *g, const char *key, upk_power power) {
  char what[PATH_MAX + 256], msg[2048];
  snprintf(what, sizeof what, "%s: %s", g->path, key);
  upk_policy_refusal(msg, sizeof msg, UPK_ORIGIN_WORKSPACE, power, what, g->dir);
  if (g->trust == UPK_TRUST_CHANGED) {
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof msg - n,
             " (you trusted this project once, but its config changed since: review it, then "
             "trust it again)");
  }
  json_array_append_new(g->c->refused, json_pack("{s:s,s:s,s:s}", "key", key, "rule",
                                                 upk_power_rule(power), "message", msg));
  upk_log(UPK_LOG_INFO, "%s", msg); /* the answers and upskilld/status carry it */
}

/* An agent's environment variable: one that names a host sends the user's key there (trust/send);
 * any other can run code (PATH, LD_PRELOAD, NODE_OPTIONS, HOME, ...: trust/run). */
static upk_power env_power(const char *name) {
  static const char *const sends[] = {"URL", "HOST", "PROXY", "ENDPOINT", "DOMAIN", "SERVER", NULL};
  for (size_t i = 0; sends[i]; i++)
    if (strcasestr(name, sends[i])) /* http_proxy too */
      return UPK_POWER_SEND;
  return UPK_POWER_RUN;
}

/* agents.NAME.{command,modelArgs,env,loginFiles,stripEnv}; output, skillsDir (written beneath the
 * run's workspace, never through a link) and timeoutMs are data. */
static void gate_agents(gate *g, json_t *agents) {
  static const struct {
    const char *key;
    upk_power power;
  } keys[] = {
      {"command", UPK_POWER_RUN},     /* the program the project names */
      {"modelArgs", UPK_POWER_RUN},   /* its arguments: hooks, MCP servers, sandbox off */
      {"loginFiles", UPK_POWER_READ}, /* the user's files copied into the run */
      {"stripEnv", UPK_POWER_SEND},   /* given, the API key stays beside a copied login */
  };
  const char *name;
  json_t *def;
  char key[512];
  json_object_foreach(agents, name, def) {
    if (!json_is_object(def))
      continue; /* upk_config_apply says what is wrong with it */
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
      if (json_object_get(def, keys[i].key)) {
        snprintf(key, sizeof key, "agents.%s.%s", name, keys[i].key);
        refuse_key(g, key, keys[i].power);
        json_object_del(def, keys[i].key);
      }
    json_t *env = json_object_get(def, "env");
    if (!env)
      continue;
    const char *var;
    json_t *val;
    if (!json_is_object(env) || !json_object_size(env)) {
      snprintf(key, sizeof key, "agents.%s.env", name);
      refuse_key(g, key, UPK_POWER_RUN);
    }
    json_object_foreach(env, var, val) {
      (void)val;
      snprintf(key, sizeof key, "agents.%s.env.%s", name, var);
      refuse_key(g, key, env_power(var));
    }
    json_object_del(def, "env");
  }
}

/* Whether `rel`, a directory the project names for the daemon to write, leaves the project:
 * absolute, ~, a `..` step, or a link on the way (it could point anywhere). */
static bool leaves_project(const char *dir, const char *rel) {
  if (rel[0] == '/' || rel[0] == '~')
    return true;
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/", dir);
  if (n < 0 || (size_t)n >= sizeof path)
    return true;
  for (const char *p = rel; *p;) {
    const char *e = strchrnul(p, '/');
    size_t len = (size_t)(e - p);
    if (len == 2 && !strncmp(p, "..", 2))
      return true;
    if (len && !(len == 1 && *p == '.')) {
      if ((size_t)n + len + 2 >= sizeof path)
        return true;
      memcpy(path + n, p, len);
      n += (int)len;
      path[n] = '\0';
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return true;
      path[n++] = '/';
      path[n] = '\0';
    }
    p = *e ? e + 1 : e;
  }
  return false;
}

static void gate_layer(gate *g, json_t *layer) {
  json_t *agents = json_object_get(layer, "agents");
  if (json_is_object(agents))
    gate_agents(g, agents);
  json_t *skills = json_object_get(layer, "skills");
  if (json_is_object(skills) && json_object_get(skills, "gitHost")) {
    refuse_key(g, "skills.gitHost", UPK_POWER_SEND); /* git and its credential helpers ask it */
    json_object_del(skills, "gitHost");
  }
  static const char *const dirs[] = {"runs_dir", "skills_dir", NULL};
  for (size_t i = 0; dirs[i]; i++) {
    const char *v = json_string_value(json_object_get(layer, dirs[i]));
    if (v && leaves_project(g->dir, v)) {
      refuse_key(g, dirs[i], UPK_POWER_WRITE);
      json_object_del(layer, dirs[i]);
    }
  }
}

/* Read a whole small file; 1 when absent, 0 when read, else a negative errno. Through the one
 * reader (common/fileio.h): a FIFO is refused, not waited on; the size is capped first. */
static int slurp(const char *path, char **out, size_t *len) {
  *out = upk_read_file(path, CONFIG_MAX_BYTES, len);
  if (*out)
    return 0;
  return errno == ENOENT || errno == ENOTDIR ? 1 : -errno;
}

static int load_file(upk_config *c, const char *path, const char *project_dir, char *err,
                     size_t errlen) {
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
  json_t *lines = layer ? key_lines(text, len) : NULL;
  free(text);
  if (!layer) {
    snprintf(err, errlen, "%s:%s", path, yerr);
    return -EINVAL;
  }
  if (project_dir) { /* the project's layer: judged against the user's trust store */
    gate g = {c, path, project_dir, upk_trust_check(project_dir)};
    c->trust = (int)g.trust;
    if (g.trust != UPK_TRUST_YES && json_is_object(layer))
      gate_layer(&g, layer);
    if (json_is_object(layer) && json_object_get(layer, "audit")) { /* trusted or not */
      json_array_append_new(
          c->refused,
          json_pack("{s:s,s:s,s:s}", "key", "audit", "rule", "config/user-only", "message",
                    "the project's audit settings are ignored: which model reads the "
                    "skills you install, on your account, is yours to say (audit.judge "
                    "in ~/.config/upskilld/config.yaml, or upskillctl audit --judge)"));
      json_object_del(layer, "audit");
    }
    if (json_is_object(layer))
      keep_user_prices(c, layer);
  }
  rc = json_is_null(layer)      ? 0
       : !json_is_object(layer) ? upk_config_apply(c, layer, path, err, errlen)
                                : apply_file(c, layer, path, lines);
  if (rc == -ENOMEM)
    snprintf(err, errlen, "%s: out of memory", path);
  json_decref(lines);
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
    rc = load_file(c, path, NULL, err, errlen);
  }
  if (!rc && project_dir) {
    snprintf(path, sizeof path, "%s/upskill.config.yaml", project_dir);
    rc = load_file(c, path, project_dir, err, errlen);
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
  if ((xdg || home) &&
      snprintf(path, sizeof path, "%s%s/upskilld/config.yaml", xdg ? xdg : home,
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
