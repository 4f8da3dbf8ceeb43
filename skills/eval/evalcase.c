/* Test cases: reading upskill's schema plus upskilld's assertions (see
 * evalcase.h). Writing, prompts and the split are in evalcase_io.c. */
#include "skills/eval/evalcase.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/skill.h"
#include "common/fileio.h"
#include "common/xalloc.h"

/* Where diagnostics go while reading one case. */
typedef struct {
  upk_diags *diags;
  char where[48]; /* "cases[3]" */
  bool bad;
} reader;

static void fail(reader *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(reader *r, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vaddp(r->diags, UPK_SEV_ERROR, code, "upskilld-eval", upk_skill_whole_file(), r->where,
                  fmt, ap);
  va_end(ap);
  r->bad = true;
}

size_t upk_evalcases_count_kind(const upk_evalcases *c, upk_assert_kind k) {
  size_t n = 0;
  for (size_t i = 0; c && i < c->n; i++)
    for (size_t j = 0; j < c->items[i].n_asserts; j++)
      n += c->items[i].asserts[j].kind == k;
  return n;
}

void upk_evalcase_free(upk_evalcase *c) {
  free(c->input);
  for (size_t i = 0; i < c->n_files; i++) {
    free(c->files[i].name);
    free(c->files[i].content);
  }
  free(c->files);
  for (size_t i = 0; i < c->n_asserts; i++)
    upk_assertion_free(&c->asserts[i]);
  free(c->asserts);
  free(c->output_file);
  free(c->validator);
  free(c->validator_config);
  memset(c, 0, sizeof *c);
}

void upk_evalcases_free(upk_evalcases *c) {
  for (size_t i = 0; i < c->n; i++)
    upk_evalcase_free(&c->items[i]);
  free(c->items);
  for (size_t i = 0; i < c->n_refused; i++)
    free(c->refused[i].reason);
  free(c->refused);
  memset(c, 0, sizeof *c);
}

/* Append an assertion, moving *a into the case. */
static int push_assert(upk_evalcase *c, upk_assertion *a) {
  upk_assertion *p = upk_xrealloc(c->asserts, (c->n_asserts + 1) * sizeof *p);
  c->asserts = p;
  p[c->n_asserts++] = *a;
  memset(a, 0, sizeof *a);
  return 0;
}

static const upk_assertion *find_kind(const upk_evalcase *c, upk_assert_kind k) {
  for (size_t i = 0; i < c->n_asserts; i++)
    if (c->asserts[i].kind == k)
      return &c->asserts[i];
  return NULL;
}

/* ---- assertions from JSON ------------------------------------------------ */

/* A string or a list of strings, as upskill's `contains` is. */
static int str_list(reader *r, json_t *v, const char *key, upk_assertion *a) {
  size_t n = json_is_array(v) ? json_array_size(v) : 1;
  a->values = upk_xcalloc(n + 1, sizeof *a->values);
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_is_array(v) ? json_array_get(v, i) : v;
    if (!json_is_string(s)) {
      fail(r, "eval/wrong-type", "%s must be a string or a list of strings", key);
      return 0;
    }
    if (!*json_string_value(s)) { /* "" is in every answer: it proves nothing */
      fail(r, "eval/empty", "%s holds an empty string", key);
      return 0;
    }
    a->values[a->n_values++] = upk_xstrdup(json_string_value(s));
  }
  return 0;
}

static int compiles(reader *r, json_t *v, upk_assertion *a) {
  json_t *arch = json_is_object(v) ? json_object_get(v, "arch") : json_is_string(v) ? v : NULL;
  if (json_is_false(v) || !(json_is_true(v) || json_is_string(v) || json_is_object(v))) {
    fail(r, "eval/wrong-type", "compiles must be true, an arch string or {\"arch\": ...}");
    return 0;
  }
  if (json_is_object(v) && json_object_size(v) > (arch ? 1u : 0u))
    fail(r, "eval/unknown-key", "compiles takes only \"arch\"");
  if (arch && (!json_is_string(arch) || !*json_string_value(arch))) {
    fail(r, "eval/wrong-type", "compiles.arch must be a string such as \"sm_90a\"");
    return 0;
  }
  if (arch)
    a->arch = upk_xstrdup(json_string_value(arch));
  return 0;
}

static int resources(reader *r, json_t *v, upk_assertion *a) {
  if (!json_is_object(v)) {
    fail(r, "eval/wrong-type", "resources must be an object {maxRegisters, noSpills, arch}");
    return 0;
  }
  const char *key;
  json_t *m;
  json_object_foreach(v, key, m) {
    if (strcmp(key, "maxRegisters") == 0 && json_is_integer(m) && json_integer_value(m) > 0 &&
        json_integer_value(m) <= 255)
      a->max_registers = (int)json_integer_value(m);
    else if (strcmp(key, "noSpills") == 0 && json_is_boolean(m))
      a->no_spills = json_is_true(m);
    else if (strcmp(key, "arch") == 0 && json_is_string(m) && *json_string_value(m)) {
      a->arch = upk_xstrdup(json_string_value(m));
    } else
      fail(r, "eval/wrong-type",
           "resources.%s: expected maxRegisters (1-255), noSpills (boolean) or arch (string)", key);
  }
  if (!a->max_registers && !a->no_spills)
    fail(r, "eval/no-limit", "resources sets no limit (maxRegisters or noSpills: true)");
  return 0;
}

/* ---- executable assertions (agent runs) ---------------------------------- */

/* "cmd" or {"command", "timeoutMs"?, "exit"?}. */
static void script(reader *r, json_t *v, upk_assertion *a) {
  json_t *cmd = json_is_object(v) ? json_object_get(v, "command") : v;
  const char *key;
  json_t *m;
  if (!json_is_string(cmd) || !*json_string_value(cmd)) {
    fail(r, "eval/wrong-type",
         "script must be a command string or {\"command\", \"timeoutMs\"?, \"exit\"?} with a "
         "non-empty command");
    return;
  }
  json_object_foreach(json_is_object(v) ? v : NULL, key, m) {
    json_int_t n = json_integer_value(m);
    if (strcmp(key, "command") == 0)
      continue;
    if (strcmp(key, "timeoutMs") == 0 && json_is_integer(m) && n > 0 &&
        n <= UPK_ASSERT_SCRIPT_TIMEOUT_MAX_MS)
      a->timeout_ms = (long)n;
    else if (strcmp(key, "exit") == 0 && json_is_integer(m) && n >= 0 && n <= 255)
      a->exit_code = (int)n;
    else
      fail(r, "eval/wrong-type",
           "script.%s: expected timeoutMs (1-%ld ms) or exit (an exit status, 0-255)", key,
           UPK_ASSERT_SCRIPT_TIMEOUT_MAX_MS);
  }
  a->values = upk_xcalloc(2, sizeof *a->values);
  a->values[a->n_values++] = upk_xstrdup(json_string_value(cmd));
}

/* A list of diff patterns, each checked. */
static void patterns(reader *r, json_t *v, const char *key, char ***out, size_t *n) {
  if (!json_is_array(v)) {
    fail(r, "eval/wrong-type", "diff.%s must be a list of paths or globs", key);
    return;
  }
  *out = upk_xcalloc(json_array_size(v) + 1, sizeof **out);
  size_t i;
  json_t *p;
  json_array_foreach(v, i, p) {
    const char *why = json_is_string(p) ? upk_assert_glob_check(json_string_value(p)) : NULL;
    if (!json_is_string(p))
      fail(r, "eval/wrong-type", "diff.%s[%zu] must be a string", key, i);
    else if (why)
      fail(r, "eval/bad-glob", "diff.%s[%zu] \"%s\": %s", key, i, json_string_value(p), why);
    else
      (*out)[(*n)++] = upk_xstrdup(json_string_value(p));
  }
}

/* {"changed"?: [...], "unchanged"?: [...], "only"?: bool}. */
static void diff(reader *r, json_t *v, upk_assertion *a) {
  const char *key;
  json_t *m;
  if (!json_is_object(v)) {
    fail(r, "eval/wrong-type", "diff must be an object {changed, unchanged, only}");
    return;
  }
  json_object_foreach(v, key, m) {
    if (strcmp(key, "changed") == 0)
      patterns(r, m, key, &a->values, &a->n_values);
    else if (strcmp(key, "unchanged") == 0)
      patterns(r, m, key, &a->unchanged, &a->n_unchanged);
    else if (strcmp(key, "only") == 0 && json_is_boolean(m))
      a->only = json_is_true(m);
    else
      fail(r, "eval/wrong-type",
           "diff.%s: expected changed (list), unchanged (list) or only (boolean)", key);
  }
  if (!a->n_values && !a->n_unchanged && !a->only && !r->bad)
    fail(r, "eval/empty", "diff asserts nothing (changed, unchanged or only: true)");
}

/* A run spec in a case may not make the worker read a file: the case may be a stranger's. */
static const char *run_names_a_file(json_t *run) {
  json_t *ref = json_object_get(run, "reference"), *arg;
  size_t i;
  if (json_object_get(ref, "path") || json_object_get(ref, "file"))
    return "reference.path / reference.file";
  if (json_object_get(ref, "pytorch"))
    return "reference.pytorch (Python on the host)";
  json_array_foreach(json_object_get(run, "args"), i, arg) {
    if (json_object_get(json_object_get(arg, "init"), "file"))
      return "args[].init.file";
  }
  return NULL;
}

/* {"path", "arch"?, "resources"?: {...}, "run"?: {...}}. */
static int kernel(reader *r, json_t *v, upk_assertion *a) {
  json_t *path = json_object_get(v, "path"), *res = json_object_get(v, "resources");
  const char *key;
  json_t *m;
  if (!json_is_object(v) || !json_is_string(path) || !*json_string_value(path)) {
    fail(r, "eval/wrong-type",
         "kernel must be {\"path\": \"kernel.cu\", \"arch\"?, "
         "\"resources\"?, \"run\"?}");
    return 0;
  }
  if (upk_assert_glob_check(json_string_value(path)) || strpbrk(json_string_value(path), "*?[")) {
    fail(r, "eval/outside", "kernel.path \"%s\" is not a file's path inside the workspace",
         json_string_value(path));
    return 0;
  }
  a->values = upk_xcalloc(2, sizeof *a->values);
  a->values[a->n_values++] = upk_xstrdup(json_string_value(path));
  json_object_foreach(v, key, m) {
    if (strcmp(key, "path") == 0 || strcmp(key, "resources") == 0)
      continue;
    if (strcmp(key, "arch") == 0 && json_is_string(m) && *json_string_value(m))
      a->arch = upk_xstrdup(json_string_value(m));
    else if (strcmp(key, "run") == 0 && json_is_object(m) && run_names_a_file(m))
      fail(r, "eval/outside",
           "kernel.run: %s is not allowed in a test case; give the reference inline "
           "(reference.name or reference.source) and inputs by value",
           run_names_a_file(m));
    else if (strcmp(key, "run") == 0 && json_is_object(m)) {
      if (!(a->run = json_dumps(m, JSON_COMPACT)))
        return -ENOMEM;
    } else
      fail(r, "eval/wrong-type",
           "kernel.%s: expected path, arch (string), resources (object) or run (object)", key);
  }
  if (res && !json_is_null(res)) {
    char *arch = a->arch; /* kernel.arch wins over kernel.resources.arch */
    a->arch = NULL;
    resources(r, res, a);
    if (arch) {
      free(a->arch);
      a->arch = arch;
    }
  }
  return 0;
}

static int one_assert(reader *r, upk_evalcase *c, upk_assert_kind kind, json_t *v) {
  char key[32];
  snprintf(key, sizeof key, "%s", upk_assert_kind_name(kind));
  if (find_kind(c, kind)) {
    fail(r, "eval/duplicate", "'%s' is given twice", key);
    return 0;
  }
  upk_assertion a = {.kind = kind};
  int rc = 0;
  if (kind == UPK_ASSERT_SCRIPT)
    script(r, v, &a);
  else if (kind == UPK_ASSERT_DIFF)
    diff(r, v, &a);
  else
    rc = kind == UPK_ASSERT_COMPILES    ? compiles(r, v, &a)
         : kind == UPK_ASSERT_RESOURCES ? resources(r, v, &a)
         : kind == UPK_ASSERT_KERNEL    ? kernel(r, v, &a)
                                        : str_list(r, v, key, &a);
  if (rc == 0 && kind != UPK_ASSERT_CONTAINS && UPK_ASSERT_KIND_IS_LIST(kind) && a.n_values == 0 &&
      !r->bad)
    fail(r, "eval/empty", "'%s' lists nothing", key);
  return rc ? (upk_assertion_free(&a), rc) : push_assert(c, &a);
}

/* The assertions of an object (expected, or an upskilld validator_config).
 * `contains` is upskill's and belongs only in expected. */
static int assertions_of(reader *r, json_t *obj, upk_evalcase *c, bool in_expected) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    upk_assert_kind kind;
    if (upk_assert_kind_parse(key, &kind) != 0 || (kind == UPK_ASSERT_CONTAINS && !in_expected)) {
      fail(r, "eval/unknown-assertion",
           "unknown assertion '%s' (contains, not_contains, regex, compiles, resources, expect, "
           "files, tools, script, diff, kernel)",
           key);
      continue;
    }
    int rc = one_assert(r, c, kind, v);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- one case ------------------------------------------------------------ */

static int read_files(reader *r, json_t *ctx, upk_evalcase *c) {
  if (!ctx || json_is_null(ctx))
    return 0;
  json_t *files = json_is_object(ctx) ? json_object_get(ctx, "files") : NULL;
  if (!json_is_object(ctx) || json_object_size(ctx) > (files ? 1u : 0u) ||
      (files && !json_is_null(files) && !json_is_object(files))) {
    fail(r, "eval/wrong-type", "context must be {\"files\": {name: content}}");
    return 0;
  }
  if (!files || json_is_null(files))
    return 0;
  c->files = upk_xcalloc(json_object_size(files) + 1, sizeof *c->files);
  const char *name;
  json_t *content;
  json_object_foreach(files, name, content) {
    if (!json_is_string(content)) {
      fail(r, "eval/wrong-type", "context.files['%s'] must be a string", name);
      continue;
    }
    upk_meta_file *f = &c->files[c->n_files++];
    f->name = upk_xstrdup(name);
    f->content = upk_xstrdup(json_string_value(content));
  }
  return 0;
}

static int opt_string(reader *r, json_t *obj, const char *key, char **out) {
  json_t *v = json_object_get(obj, key);
  if (!v || json_is_null(v))
    return 0;
  if (!json_is_string(v)) {
    fail(r, "eval/wrong-type", "%s must be a string or null", key);
    return 0;
  }
  *out = upk_xstrdup(json_string_value(v));
  return 0;
}

/* validator / validator_config: ours carries assertions, a foreign one is kept. */
static int read_validator(reader *r, json_t *obj, upk_evalcase *c) {
  char *name = NULL;
  int rc = opt_string(r, obj, "validator", &name);
  json_t *cfg = json_object_get(obj, "validator_config");
  if (rc || (cfg && !json_is_null(cfg) && !json_is_object(cfg))) {
    if (!rc)
      fail(r, "eval/wrong-type", "validator_config must be an object or null");
    free(name);
    return rc;
  }
  if (name && strcmp(name, UPK_EVALCASE_VALIDATOR) == 0) {
    free(name);
    return json_is_object(cfg) ? assertions_of(r, cfg, c, false) : 0;
  }
  c->validator = name;
  if (json_is_object(cfg) &&
      !(c->validator_config = json_dumps(cfg, JSON_COMPACT | JSON_ENSURE_ASCII)))
    return -ENOMEM;
  return 0;
}

static bool has_extras(const upk_evalcase *c) {
  for (size_t i = 0; i < c->n_asserts; i++)
    if (c->asserts[i].kind != UPK_ASSERT_CONTAINS)
      return true;
  return false;
}

static int read_expected(reader *r, json_t *exp, upk_evalcase *c) {
  if (!exp || json_is_null(exp))
    return 0; /* upskill requires it; a case with other assertions does not */
  if (!json_is_object(exp)) {
    fail(r, "eval/wrong-type", "expected must be an object");
    return 0;
  }
  json_t *contains = json_object_get(exp, "contains");
  /* An empty list is what a case with only upskilld assertions carries for
   * upskill's sake: nothing to check. */
  if (json_is_array(contains) && json_array_size(contains) == 0)
    contains = NULL;
  int rc = contains ? one_assert(r, c, UPK_ASSERT_CONTAINS, contains) : 0;
  if (rc)
    return rc;
  json_t *rest = json_deep_copy(exp);
  if (!rest)
    return -ENOMEM;
  json_object_del(rest, "contains");
  rc = assertions_of(r, rest, c, true);
  json_decref(rest);
  return rc;
}

static int read_case(reader *r, json_t *obj, upk_evalcase *c) {
  static const char *const keys[] = {"input",       "context",   "expected",
                                     "output_file", "validator", "validator_config"};
  if (!json_is_object(obj)) {
    fail(r, "eval/wrong-type", "a test case must be an object");
    return 0;
  }
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    size_t i = 0;
    while (i < 6 && strcmp(key, keys[i]) != 0)
      i++;
    if (i == 6)
      fail(r, "eval/unknown-key", "unexpected key '%s' (upskill's test cases forbid extra keys)",
           key);
  }
  json_t *in = json_object_get(obj, "input");
  if (!json_is_string(in) || !*json_string_value(in))
    fail(r, "eval/missing-field", "'input' must be a non-empty string");
  else
    c->input = upk_xstrdup(json_string_value(in));
  int rc = read_files(r, json_object_get(obj, "context"), c);
  rc = rc ? rc : read_expected(r, json_object_get(obj, "expected"), c);
  rc = rc ? rc : opt_string(r, obj, "output_file", &c->output_file);
  bool extras_in_expected = has_extras(c);
  rc = rc ? rc : read_validator(r, obj, c);
  if (rc == 0 && c->validator && extras_in_expected)
    fail(r, "eval/validator-conflict",
         "validator '%s' cannot be combined with upskilld's assertions", c->validator);
  if (rc == 0 && !r->bad && c->n_asserts == 0)
    fail(r, "eval/no-assertion", "the case asserts nothing, so it cannot fail");
  return rc;
}

size_t upk_evalcases_number(const upk_evalcases *c, size_t i) {
  return i < c->n && c->items[i].number ? c->items[i].number - 1 : i;
}

/* Case i of the file was read into *c, with diagnostics from `from` on: kept under its number,
 * or (bad) freed and listed as refused with its first error. */
static void keep_or_refuse(upk_evalcases *out, upk_evalcase *c, const reader *r, size_t i,
                           size_t from) {
  if (!r->bad) {
    c->number = i + 1;
    out->n++;
    return;
  }
  upk_evalcase_free(c);
  const char *why = "refused";
  for (size_t k = from; k < r->diags->len; k++)
    if (r->diags->items[k].severity == UPK_SEV_ERROR) {
      why = r->diags->items[k].message;
      break;
    }
  size_t w = strlen(r->where); /* the message starts "cases[2]: " */
  if (!strncmp(why, r->where, w) && !strncmp(why + w, ": ", 2))
    why += w + 2;
  out->refused = upk_xrealloc(out->refused, (out->n_refused + 1) * sizeof *out->refused);
  out->refused[out->n_refused++] = (upk_evalcase_refusal){i, upk_xstrdup(why)};
}

/* Read every case of a JSON list, keeping the good ones. */
static int read_cases(json_t *list, const char *name, upk_evalcases *out, upk_diags *diags,
                      bool *bad) {
  out->items = upk_xcalloc(json_array_size(list) + 1, sizeof *out->items);
  for (size_t i = 0; i < json_array_size(list); i++) {
    reader r = {.diags = diags};
    snprintf(r.where, sizeof r.where, "%s[%zu]", name, i);
    upk_evalcase *c = &out->items[out->n];
    size_t from = diags->len;
    int rc = read_case(&r, json_array_get(list, i), c);
    if (rc) {
      upk_evalcase_free(c);
      return rc;
    }
    keep_or_refuse(out, c, &r, i, from);
    *bad |= r.bad;
  }
  return 0;
}

int upk_evalcases_parse(const char *text, size_t len, upk_evalcases *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  reader r = {.diags = diags, .where = "tests"};
  if (!root) {
    fail(&r, "eval/invalid-json", "not valid JSON: %s (line %d, column %d)", err.text, err.line,
         err.column);
    return -EINVAL;
  }
  const char *name = "cases";
  json_t *list = root;
  if (json_is_object(root) && json_object_get(root, "cases"))
    list = json_object_get(root, "cases");
  else if (json_is_object(root) &&
           (json_object_get(root, "tests") || json_object_get(root, "metadata"))) {
    list = json_object_get(root, "tests"); /* a whole skill_meta.json */
    name = "tests";
  }
  bool bad = false;
  int rc = 0;
  if (list && json_is_null(list))
    ; /* skill_meta.json with "tests": null: no cases */
  else if (!json_is_array(list))
    fail(&r, "eval/wrong-type",
         "expected a list of test cases, {\"cases\": [...]} or a "
         "skill_meta.json with \"tests\"");
  else
    rc = read_cases(list, name, out, diags, &bad);
  json_decref(root);
  if (rc) {
    upk_evalcases_free(out);
    return rc;
  }
  return bad || r.bad ? -EINVAL : 0;
}

/* ---- from meta.h's structs ----------------------------------------------- */

static int case_from_meta(reader *r, const upk_meta_test *t, upk_evalcase *c) {
  if (!t->input || !(c->input = upk_xstrdup(t->input)))
    return t->input ? -ENOMEM : (fail(r, "eval/missing-field", "no input"), 0);
  c->files = upk_xcalloc(t->n_files + 1, sizeof *c->files);
  for (size_t i = 0; i < t->n_files; i++, c->n_files++)
    if (!(c->files[i].name = upk_xstrdup(t->files[i].name)) ||
        !(c->files[i].content = upk_xstrdup(t->files[i].content)))
      return -ENOMEM;
  upk_assertion a = {.kind = UPK_ASSERT_CONTAINS, .n_values = t->n_contains, .values = t->contains};
  upk_assertion copy;
  if (t->n_contains && (upk_assertion_copy(&copy, &a) || push_assert(c, &copy)))
    return -ENOMEM;
  if (t->output_file.value)
    c->output_file = upk_xstrdup(t->output_file.value);
  json_t *cfg = t->validator_config ? json_loads(t->validator_config, 0, NULL) : NULL;
  json_t *obj = json_object();
  int rc = obj ? 0 : -ENOMEM;
  if (!rc && t->validator.value)
    rc = json_object_set_new(obj, "validator", json_string(t->validator.value)) ? -ENOMEM : 0;
  if (!rc && cfg)
    rc = json_object_set(obj, "validator_config", cfg) ? -ENOMEM : 0;
  rc = rc ? rc : read_validator(r, obj, c);
  json_decref(cfg);
  json_decref(obj);
  if (rc == 0 && !r->bad && c->n_asserts == 0)
    fail(r, "eval/no-assertion", "the case asserts nothing, so it cannot fail");
  return rc;
}

int upk_evalcases_from_meta(const upk_skill_meta *m, upk_evalcases *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  out->items = upk_xcalloc(m->n_tests + 1, sizeof *out->items);
  bool bad = false;
  for (size_t i = 0; i < m->n_tests; i++) {
    reader r = {.diags = diags};
    snprintf(r.where, sizeof r.where, "tests[%zu]", i);
    upk_evalcase *c = &out->items[out->n];
    size_t from = diags->len;
    int rc = case_from_meta(&r, &m->tests[i], c);
    if (rc) {
      upk_evalcase_free(c);
      upk_evalcases_free(out);
      return rc;
    }
    keep_or_refuse(out, c, &r, i, from);
    bad |= r.bad;
  }
  return bad ? -EINVAL : 0;
}

int upk_evalcases_read(const char *path, upk_evalcases *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  char *buf = NULL;
  size_t len = 0;
  /* Not through a link, never waiting on a FIFO, capped before a byte is read. */
  int rc = upk_read_in_dir(path, UPK_SKILL_MAX_BYTES, &buf, &len);
  if (rc)
    upk_diags_add(diags, UPK_SEV_ERROR, "eval/unreadable", "upskilld-eval", upk_skill_whole_file(),
                  "Cannot read %s: %s", path, upk_read_error(rc));
  else
    rc = upk_evalcases_parse(buf, len, out, diags);
  free(buf);
  return rc;
}
