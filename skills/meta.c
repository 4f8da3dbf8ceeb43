/* skill_meta.json in upskill's schema (see meta.h), with jansson. */
#include "skills/meta.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "skills/skill.h"
#include "skills/skill_internal.h"
#include "common/xalloc.h"

/* Reading state: where diagnostics go and whether the file conforms. */
typedef struct {
  upk_diags *diags;
  bool bad;
} reader;

static void fail(reader *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(reader *r, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vaddp(r->diags, UPK_SEV_ERROR, code, UPK_SKILL_SOURCE, upk_skill_whole_file(),
                  "skill_meta.json", fmt, ap);
  va_end(ap);
  r->bad = true;
}

int upk_opt_str_set(upk_opt_str *o, const char *v) {
  free(o->value);
  o->value = v ? upk_xstrdup(v) : NULL;
  o->state = v ? UPK_JSON_SET : UPK_JSON_NULL;
  return v && !o->value ? -ENOMEM : 0;
}

/* An optional string member: absent, null or a string. */
static void get_opt_str(reader *r, json_t *obj, const char *key, const char *where,
                        upk_opt_str *o) {
  json_t *v = json_object_get(obj, key);
  o->state = !v ? UPK_JSON_ABSENT : json_is_null(v) ? UPK_JSON_NULL : UPK_JSON_SET;
  if (o->state != UPK_JSON_SET)
    return;
  if (!json_is_string(v)) {
    fail(r, "meta/wrong-type", "%s%s must be a string or null", where, key);
    o->state = UPK_JSON_ABSENT;
    return;
  }
  o->value = upk_xstrdup(json_string_value(v));
}

static char *compact(json_t *v) {
  return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
}

static const char *const META_KEYS[] = {"version",      "generated_by",   "generated_at",
                                        "source_task",  "test_pass_rate", "license",
                                        "compatibility"};

static bool known(const char *key, const char *const *keys, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(key, keys[i]) == 0)
      return true;
  return false;
}

static void read_metadata(reader *r, json_t *md, upk_skill_meta *m) {
  if (!md)
    return;
  if (!json_is_object(md)) {
    fail(r, "meta/wrong-type", "metadata must be an object");
    return;
  }
  upk_opt_str *strs[] = {&m->version, &m->generated_by, &m->generated_at, &m->source_task,
                         NULL,        &m->license,      &m->compatibility};
  for (size_t i = 0; i < 7; i++)
    if (strs[i])
      get_opt_str(r, md, META_KEYS[i], "metadata.", strs[i]);
  json_t *rate = json_object_get(md, "test_pass_rate");
  m->test_pass_rate_state = !rate                ? UPK_JSON_ABSENT
                            : json_is_null(rate) ? UPK_JSON_NULL
                                                 : UPK_JSON_SET;
  if (rate && json_is_number(rate))
    m->test_pass_rate = json_number_value(rate);
  else if (m->test_pass_rate_state == UPK_JSON_SET) {
    fail(r, "meta/wrong-type", "metadata.test_pass_rate must be a number or null");
    m->test_pass_rate_state = UPK_JSON_ABSENT;
  }
  const char *key;
  json_t *v;
  size_t n = json_object_size(md);
  m->extra_keys = upk_xcalloc(n + 1, sizeof *m->extra_keys);
  m->extra_json = upk_xcalloc(n + 1, sizeof *m->extra_json);
  json_object_foreach(md, key, v) {
    if (known(key, META_KEYS, 7) || !m->extra_keys || !m->extra_json)
      continue;
    m->extra_keys[m->n_extra] = upk_xstrdup(key);
    m->extra_json[m->n_extra++] = compact(v);
  }
}

static const char *const TEST_KEYS[] = {"input",       "context",   "expected",
                                        "output_file", "validator", "validator_config"};

static void reject_unknown(reader *r, json_t *obj, const char *const *keys, size_t n,
                           const char *where) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    if (!known(key, keys, n))
      fail(r, "meta/unknown-key",
           "%s: unexpected key '%s' (upskill's test cases forbid extra keys)", where, key);
  }
}

static void read_context(reader *r, json_t *ctx, const char *where, upk_meta_test *t) {
  static const char *const keys[] = {"files"};
  t->context = !ctx ? UPK_JSON_ABSENT : json_is_null(ctx) ? UPK_JSON_NULL : UPK_JSON_SET;
  if (t->context != UPK_JSON_SET)
    return;
  if (!json_is_object(ctx)) {
    fail(r, "meta/wrong-type", "%s.context must be an object or null", where);
    t->context = UPK_JSON_ABSENT;
    return;
  }
  char sub[64];
  snprintf(sub, sizeof sub, "%s.context", where);
  reject_unknown(r, ctx, keys, 1, sub);
  json_t *files = json_object_get(ctx, "files");
  t->context_files = !files ? UPK_JSON_ABSENT : json_is_null(files) ? UPK_JSON_NULL : UPK_JSON_SET;
  if (t->context_files != UPK_JSON_SET)
    return;
  if (!json_is_object(files)) {
    fail(r, "meta/wrong-type", "%s.files must be an object of file name to content", sub);
    t->context_files = UPK_JSON_ABSENT;
    return;
  }
  t->files = upk_xcalloc(json_object_size(files) + 1, sizeof *t->files);
  const char *name;
  json_t *content;
  json_object_foreach(files, name, content) {
    if (!json_is_string(content)) {
      fail(r, "meta/wrong-type", "%s.files['%s'] must be a string", sub, name);
      continue;
    }
    if (t->files) {
      t->files[t->n_files].name = upk_xstrdup(name);
      t->files[t->n_files++].content = upk_xstrdup(json_string_value(content));
    }
  }
}

static void read_expected(reader *r, json_t *exp, const char *where, upk_meta_test *t) {
  static const char *const keys[] = {"contains"};
  if (!exp) {
    fail(r, "meta/missing-field", "%s: missing required field 'expected'", where);
    return;
  }
  if (!json_is_object(exp)) {
    fail(r, "meta/wrong-type", "%s.expected must be an object", where);
    return;
  }
  char sub[64];
  snprintf(sub, sizeof sub, "%s.expected", where);
  reject_unknown(r, exp, keys, 1, sub);
  json_t *c = json_object_get(exp, "contains");
  if (!c) {
    fail(r, "meta/missing-field", "%s: missing required field 'contains'", sub);
    return;
  }
  t->contains_list = json_is_array(c);
  size_t n = t->contains_list ? json_array_size(c) : 1;
  t->contains = upk_xcalloc(n + 1, sizeof *t->contains);
  for (size_t i = 0; i < n && t->contains; i++) {
    json_t *v = t->contains_list ? json_array_get(c, i) : c;
    if (!json_is_string(v)) {
      fail(r, "meta/wrong-type", "%s.contains must be a string or a list of strings", sub);
      break;
    }
    t->contains[t->n_contains++] = upk_xstrdup(json_string_value(v));
  }
}

static void read_test(reader *r, json_t *obj, size_t idx, upk_meta_test *t) {
  char where[32];
  snprintf(where, sizeof where, "tests[%zu]", idx);
  if (!json_is_object(obj)) {
    fail(r, "meta/wrong-type", "%s must be an object", where);
    return;
  }
  reject_unknown(r, obj, TEST_KEYS, 6, where);
  json_t *in = json_object_get(obj, "input");
  if (!in)
    fail(r, "meta/missing-field", "%s: missing required field 'input'", where);
  else if (!json_is_string(in))
    fail(r, "meta/wrong-type", "%s.input must be a string", where);
  else
    t->input = upk_xstrdup(json_string_value(in));
  read_context(r, json_object_get(obj, "context"), where, t);
  read_expected(r, json_object_get(obj, "expected"), where, t);
  get_opt_str(r, obj, "output_file", "", &t->output_file);
  get_opt_str(r, obj, "validator", "", &t->validator);
  json_t *vc = json_object_get(obj, "validator_config");
  t->validator_config_state = !vc                ? UPK_JSON_ABSENT
                              : json_is_null(vc) ? UPK_JSON_NULL
                                                 : UPK_JSON_SET;
  if (vc && json_is_object(vc))
    t->validator_config = compact(vc);
  else if (t->validator_config_state == UPK_JSON_SET) {
    fail(r, "meta/wrong-type", "%s.validator_config must be an object or null", where);
    t->validator_config_state = UPK_JSON_ABSENT;
  }
}

static void read_tests(reader *r, json_t *tests, upk_skill_meta *m) {
  if (!tests || json_is_null(tests))
    return;
  if (!json_is_array(tests)) {
    fail(r, "meta/wrong-type", "tests must be a list");
    return;
  }
  m->tests = upk_xcalloc(json_array_size(tests) + 1, sizeof *m->tests);
  for (size_t i = 0; m->tests && i < json_array_size(tests); i++)
    read_test(r, json_array_get(tests, i), i, &m->tests[m->n_tests++]);
}

static json_t *load_json(reader *r, const char *text, size_t len) {
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  if (!root) {
    int line = err.line > 0 ? err.line - 1 : 0, col = err.column > 0 ? err.column - 1 : 0;
    upk_sdiag(r->diags, UPK_SEV_ERROR, "meta/invalid-json", upk_range_line(line, col, col + 1),
              "skill_meta.json is not valid JSON: %s (line %d, column %d)", err.text, line + 1,
              col + 1);
    r->bad = true;
  }
  return root;
}

int upk_meta_parse(const char *text, size_t len, upk_skill_meta *out, upk_diags *diags) {
  static const char *const top[] = {"metadata", "tests"};
  memset(out, 0, sizeof *out);
  reader r = {diags, false};
  json_t *root = load_json(&r, text, len);
  if (!root)
    return -EINVAL;
  if (!json_is_object(root)) {
    fail(&r, "meta/not-object", "the top level must be an object {\"metadata\", \"tests\"}");
  } else {
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
      if (!known(key, top, 2))
        upk_sdiag(diags, UPK_SEV_WARNING, "meta/unknown-key", upk_skill_whole_file(),
                  "skill_meta.json: unknown top-level key '%s' is ignored", key);
    }
    read_metadata(&r, json_object_get(root, "metadata"), out);
    read_tests(&r, json_object_get(root, "tests"), out);
  }
  json_decref(root);
  return r.bad ? -EINVAL : 0;
}

int upk_meta_parse_tests(const char *text, size_t len, upk_skill_meta *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  reader r = {diags, false};
  json_t *root = load_json(&r, text, len);
  if (!root)
    return -EINVAL;
  json_t *cases = json_is_object(root) ? json_object_get(root, "cases") : root;
  if (!json_is_array(cases))
    fail(&r, "meta/wrong-type", "a tests file is a list of test cases or {\"cases\": [...]}");
  else
    read_tests(&r, cases, out);
  json_decref(root);
  return r.bad ? -EINVAL : 0;
}

int upk_meta_read(const char *path, upk_skill_meta *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  /* The skill's own file: not a link, not a FIFO, not over 10 MB (common/fileio.h). */
  char *buf = NULL;
  size_t len = 0;
  int rc = upk_read_in_dir(path, UPK_SKILL_MAX_BYTES, &buf, &len);
  if (rc == -EFBIG)
    upk_sdiag(diags, UPK_SEV_ERROR, "meta/unreadable", upk_skill_whole_file(),
              "Cannot read %s: larger than 10 MB", path);
  else if (rc)
    upk_sdiag(diags, UPK_SEV_ERROR, "meta/unreadable", upk_skill_whole_file(), "Cannot read %s: %s",
              path, upk_read_error(rc));
  else
    rc = upk_meta_parse(buf, len, out, diags);
  free(buf);
  return rc;
}

/* ---- writing ------------------------------------------------------------ */

/* Set obj[key] unless absent; a NULL value is JSON null. Steals v. */
static int put(json_t *obj, const char *key, upk_json_state st, json_t *v) {
  if (st == UPK_JSON_ABSENT) {
    json_decref(v);
    return 0;
  }
  if (st == UPK_JSON_NULL) {
    json_decref(v);
    v = json_null();
  }
  return v ? json_object_set_new(obj, key, v) : -1;
}

static int put_str(json_t *obj, const char *key, const upk_opt_str *o) {
  return put(obj, key, o->state, o->value ? json_string(o->value) : NULL);
}

/* JSON text kept verbatim (unknown metadata, validator_config) back to a value. */
static json_t *parsed(const char *text) {
  return text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

static json_t *dump_metadata(const upk_skill_meta *m) {
  json_t *md = json_object();
  const upk_opt_str *strs[] = {&m->version, &m->generated_by, &m->generated_at, &m->source_task,
                               NULL,        &m->license,      &m->compatibility};
  int rc = 0;
  for (size_t i = 0; md && i < 7; i++)
    rc |= strs[i] ? put_str(md, META_KEYS[i], strs[i])
                  : put(md, META_KEYS[i], m->test_pass_rate_state, json_real(m->test_pass_rate));
  for (size_t i = 0; md && i < m->n_extra; i++)
    rc |= json_object_set_new(md, m->extra_keys[i], parsed(m->extra_json[i]));
  if (rc) {
    json_decref(md);
    return NULL;
  }
  return md;
}

static json_t *dump_test(const upk_meta_test *t) {
  json_t *o = json_object(), *ctx = NULL, *files = NULL, *contains = NULL;
  int rc = !o || !t->input || json_object_set_new(o, "input", json_string(t->input));
  if (t->context == UPK_JSON_SET) {
    ctx = json_object();
    files = json_object();
    for (size_t i = 0; files && i < t->n_files; i++)
      rc |= json_object_set_new(files, t->files[i].name, json_string(t->files[i].content));
    rc |= put(ctx, "files", t->context_files, files);
  }
  rc |= put(o, "context", t->context, ctx);
  contains = t->contains_list || t->n_contains != 1 ? json_array() : json_string(t->contains[0]);
  for (size_t i = 0; json_is_array(contains) && i < t->n_contains; i++)
    rc |= json_array_append_new(contains, json_string(t->contains[i]));
  json_t *exp = json_object();
  rc |= !exp || json_object_set_new(exp, "contains", contains);
  rc |= json_object_set_new(o, "expected", exp);
  rc |= put_str(o, "output_file", &t->output_file);
  rc |= put_str(o, "validator", &t->validator);
  rc |= put(o, "validator_config", t->validator_config_state, parsed(t->validator_config));
  if (rc) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* Python writes floats in their shortest round-trip form (0.8, not
 * 0.80000000000000004): find the precision that gives it. */
static int real_precision(double v) {
  char buf[64];
  for (int p = 1; p < 17; p++) {
    snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      return p;
  }
  return 17;
}

/* Python writes \u00e9 where jansson writes \u00E9. */
static void lowercase_escapes(char *t) {
  for (; *t; t++) {
    if (*t != '\\' || !t[1])
      continue;
    if (t[1] == 'u')
      for (int i = 2; i < 6 && t[i]; i++)
        t[i] = (char)tolower((unsigned char)t[i]);
    t++;
  }
}

char *upk_meta_dump(const upk_skill_meta *m) {
  json_t *root = json_object(), *tests = json_array(), *md = dump_metadata(m);
  int rc = !root || !tests || !md;
  rc |= json_object_set_new(root, "metadata", md);
  for (size_t i = 0; !rc && i < m->n_tests; i++)
    rc |= json_array_append_new(tests, dump_test(&m->tests[i]));
  rc |= json_object_set_new(root, "tests", tests);
  int prec = m->test_pass_rate_state == UPK_JSON_SET ? real_precision(m->test_pass_rate) : 17;
  char *text =
      rc ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(prec));
  json_decref(root);
  if (!text)
    return NULL;
  lowercase_escapes(text);
  size_t n = strlen(text);
  char *out = upk_xrealloc(text, n + 2);
  out[n] = '\n';
  out[n + 1] = '\0';
  return out;
}

int upk_meta_write(const char *path, const upk_skill_meta *m) {
  char *text = upk_meta_dump(m);
  if (!text)
    return -ENOMEM;
  int rc = upk_write_file_atomic(path, text, strlen(text));
  free(text);
  return rc;
}

int upk_meta_init(upk_skill_meta *m) {
  memset(m, 0, sizeof *m);
  upk_opt_str *nulls[] = {&m->generated_by, &m->generated_at, &m->source_task, &m->license,
                          &m->compatibility};
  for (size_t i = 0; i < 5; i++)
    nulls[i]->state = UPK_JSON_NULL;
  m->test_pass_rate_state = UPK_JSON_NULL;
  return upk_opt_str_set(&m->version, "1.0");
}

int upk_meta_add_test(upk_skill_meta *m, const char *input, const char *const *contains, size_t n) {
  upk_meta_test *p = upk_xrealloc(m->tests, (m->n_tests + 1) * sizeof *p);
  m->tests = p;
  upk_meta_test *t = &m->tests[m->n_tests++];
  memset(t, 0, sizeof *t);
  t->input = upk_xstrdup(input);
  t->contains = upk_xcalloc(n + 1, sizeof *t->contains);
  t->contains_list = true;
  for (size_t i = 0; t->contains && i < n; i++)
    if ((t->contains[t->n_contains++] = upk_xstrdup(contains[i])) == NULL)
      return -ENOMEM;
  return t->input && t->contains ? 0 : -ENOMEM;
}

static void free_test(upk_meta_test *t) {
  free(t->input);
  for (size_t i = 0; i < t->n_files; i++) {
    free(t->files[i].name);
    free(t->files[i].content);
  }
  free(t->files);
  for (size_t i = 0; i < t->n_contains; i++)
    free(t->contains[i]);
  free(t->contains);
  free(t->output_file.value);
  free(t->validator.value);
  free(t->validator_config);
}

void upk_meta_free(upk_skill_meta *m) {
  if (!m)
    return;
  upk_opt_str *strs[] = {&m->version,     &m->generated_by, &m->generated_at,
                         &m->source_task, &m->license,      &m->compatibility};
  for (size_t i = 0; i < 6; i++)
    free(strs[i]->value);
  for (size_t i = 0; i < m->n_extra; i++) {
    free(m->extra_keys[i]);
    free(m->extra_json[i]);
  }
  free(m->extra_keys);
  free(m->extra_json);
  for (size_t i = 0; i < m->n_tests; i++)
    free_test(&m->tests[i]);
  free(m->tests);
  memset(m, 0, sizeof *m);
}
