/* Test cases: writing (upskill-readable), prompts, copies and the split. */
#include "skills/eval/evalcase.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/runs.h"
#include "common/xalloc.h"
#include "skills/eval/fence.h"

/* ---- JSON out ------------------------------------------------------------ */

static json_t *str_array(char *const *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++)
    if (json_array_append_new(a, json_string(v[i]))) {
      json_decref(a);
      return NULL;
    }
  return a;
}

static json_t *kernel_json(const upk_assertion *a) {
  if (a->kind == UPK_ASSERT_COMPILES)
    return a->arch ? json_pack("{s:s}", "arch", a->arch) : json_true();
  json_t *o = json_object();
  int rc = !o;
  if (!rc && a->max_registers > 0)
    rc = json_object_set_new(o, "maxRegisters", json_integer(a->max_registers));
  if (!rc && a->no_spills)
    rc = json_object_set_new(o, "noSpills", json_true());
  if (!rc && a->arch)
    rc = json_object_set_new(o, "arch", json_string(a->arch));
  if (rc) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* script, diff and kernel as evalcase.c reads them. */
static json_t *exec_json(const upk_assertion *a) {
  if (a->kind == UPK_ASSERT_SCRIPT)
    return json_pack("{s:s,s:I,s:i}", "command", a->values[0], "timeoutMs",
                     (json_int_t)(a->timeout_ms ? a->timeout_ms : UPK_ASSERT_SCRIPT_TIMEOUT_MS),
                     "exit", a->exit_code);
  if (a->kind == UPK_ASSERT_DIFF)
    return json_pack("{s:o,s:o,s:b}", "changed", str_array(a->values, a->n_values), "unchanged",
                     str_array(a->unchanged, a->n_unchanged), "only", a->only);
  json_t *o = json_pack("{s:s}", "path", a->values[0]);
  int rc = !o;
  if (!rc && a->arch)
    rc = json_object_set_new(o, "arch", json_string(a->arch));
  if (!rc && (a->max_registers || a->no_spills)) {
    upk_assertion lim = {
        .kind = UPK_ASSERT_RESOURCES, .max_registers = a->max_registers, .no_spills = a->no_spills};
    rc = json_object_set_new(o, "resources", kernel_json(&lim));
  }
  if (!rc && a->run)
    rc = json_object_set_new(o, "run", json_loads(a->run, 0, NULL));
  if (rc) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* upskilld's assertions as a validator_config object; NULL with *none set
 * when the case has only `contains`. */
static json_t *extras_json(const upk_evalcase *c, bool *none) {
  json_t *o = json_object();
  *none = true;
  for (size_t i = 0; o && i < c->n_asserts; i++) {
    const upk_assertion *a = &c->asserts[i];
    if (a->kind == UPK_ASSERT_CONTAINS)
      continue;
    *none = false;
    json_t *v = UPK_ASSERT_KIND_IS_LIST(a->kind)   ? str_array(a->values, a->n_values)
                : UPK_ASSERT_KIND_IS_EXEC(a->kind) ? exec_json(a)
                                                   : kernel_json(a);
    if (!v || json_object_set_new(o, upk_assert_kind_name(a->kind), v)) {
      json_decref(o);
      return NULL;
    }
  }
  if (o && *none) {
    json_decref(o);
    o = NULL;
  }
  return o;
}

static const upk_assertion *contains_of(const upk_evalcase *c) {
  for (size_t i = 0; i < c->n_asserts; i++)
    if (c->asserts[i].kind == UPK_ASSERT_CONTAINS)
      return &c->asserts[i];
  return NULL;
}

static json_t *case_json(const upk_evalcase *c) {
  json_t *o = json_object(), *files = NULL;
  int rc = !o || json_object_set_new(o, "input", json_string(c->input));
  if (!rc && c->n_files) {
    files = json_object();
    for (size_t i = 0; files && i < c->n_files; i++)
      rc |= json_object_set_new(files, c->files[i].name, json_string(c->files[i].content));
    rc |= json_object_set_new(o, "context", json_pack("{s:o}", "files", files));
  }
  const upk_assertion *ct = contains_of(c);
  json_t *contains = ct ? str_array(ct->values, ct->n_values) : json_array();
  rc |= json_object_set_new(o, "expected", json_pack("{s:o}", "contains", contains));
  if (c->output_file)
    rc |= json_object_set_new(o, "output_file", json_string(c->output_file));
  bool none;
  json_t *extras = extras_json(c, &none);
  if (!none)
    rc |= !extras || json_object_set_new(o, "validator", json_string(UPK_EVALCASE_VALIDATOR)) ||
          json_object_set_new(o, "validator_config", extras);
  else if (c->validator) {
    rc |= json_object_set_new(o, "validator", json_string(c->validator));
    if (c->validator_config)
      rc |= json_object_set_new(o, "validator_config", json_loads(c->validator_config, 0, NULL));
  }
  if (rc) {
    json_decref(o);
    return NULL;
  }
  return o;
}

char *upk_evalcases_dump(const upk_evalcases *c) {
  json_t *list = json_array();
  for (size_t i = 0; list && i < c->n; i++)
    if (json_array_append_new(list, case_json(&c->items[i]))) {
      json_decref(list);
      return NULL;
    }
  json_t *root = list ? json_pack("{s:o}", "cases", list) : NULL;
  char *text = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
  json_decref(root);
  char *out = text ? upk_xasprintf("%s\n", text) : NULL;
  free(text);
  return out;
}

int upk_evalcases_write(const char *path, const upk_evalcases *c) {
  char *text = upk_evalcases_dump(c);
  if (!text)
    return -ENOMEM;
  int rc = upk_write_file_atomic(path, text, strlen(text));
  free(text);
  return rc;
}

/* ---- into meta.h's structs ----------------------------------------------- */

static int meta_test_of(const upk_evalcase *c, upk_meta_test *t) {
  const upk_assertion *ct = contains_of(c);
  t->input = upk_xstrdup(c->input);
  t->contains = upk_xcalloc((ct ? ct->n_values : 0) + 1, sizeof *t->contains);
  t->contains_list = true;
  for (size_t i = 0; ct && i < ct->n_values; i++)
    t->contains[t->n_contains++] = upk_xstrdup(ct->values[i]);
  if (c->n_files) {
    t->context = t->context_files = UPK_JSON_SET;
    t->files = upk_xcalloc(c->n_files, sizeof *t->files);
    for (size_t i = 0; i < c->n_files; i++, t->n_files++)
      if (!(t->files[i].name = upk_xstrdup(c->files[i].name)) ||
          !(t->files[i].content = upk_xstrdup(c->files[i].content)))
        return -ENOMEM;
  }
  if (c->output_file && upk_opt_str_set(&t->output_file, c->output_file))
    return -ENOMEM;
  bool none;
  json_t *extras = extras_json(c, &none);
  const char *validator = none ? c->validator : UPK_EVALCASE_VALIDATOR;
  char *cfg = !none && extras ? json_dumps(extras, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
  json_decref(extras);
  if (!none && !cfg)
    return -ENOMEM;
  if (validator && upk_opt_str_set(&t->validator, validator)) {
    free(cfg);
    return -ENOMEM;
  }
  t->validator_config = cfg ? cfg : c->validator_config ? upk_xstrdup(c->validator_config) : NULL;
  t->validator_config_state = t->validator_config ? UPK_JSON_SET : UPK_JSON_ABSENT;
  return none || t->validator_config ? 0 : -ENOMEM;
}

int upk_evalcases_to_meta(const upk_evalcases *c, upk_skill_meta *m) {
  upk_skill_meta old = {.tests = m->tests, .n_tests = m->n_tests};
  upk_skill_meta fresh = {.tests = upk_xcalloc(c->n + 1, sizeof *fresh.tests)};
  if (!fresh.tests)
    return -ENOMEM;
  for (size_t i = 0; i < c->n; i++) {
    fresh.n_tests++;
    if (meta_test_of(&c->items[i], &fresh.tests[i])) {
      upk_meta_free(&fresh);
      return -ENOMEM;
    }
  }
  upk_meta_free(&old); /* only its tests: the rest of m is untouched */
  m->tests = fresh.tests;
  m->n_tests = fresh.n_tests;
  return 0;
}

/* ---- prompt -------------------------------------------------------------- */

char *upk_evalcase_prompt(const upk_evalcase *c) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&out, &len);
  fputs(c->input, f);
  for (size_t i = 0; i < c->n_files; i++) {
    size_t n = (size_t)upk_fence_len(c->files[i].content);
    const char *content = c->files[i].content;
    size_t clen = strlen(content);
    fprintf(f, "\n\n%s:\n%.*s\n%s%s%.*s\n", c->files[i].name, (int)n,
            "``````````````````````````````````", content,
            clen && content[clen - 1] == '\n' ? "" : "\n", (int)n,
            "``````````````````````````````````");
  }
  if (fclose(f)) {
    free(out);
    return NULL;
  }
  return out;
}

/* ---- copies -------------------------------------------------------------- */

static int copy_case(upk_evalcase *d, const upk_evalcase *s) {
  memset(d, 0, sizeof *d);
  d->input = upk_xstrdup(s->input);
  d->files = upk_xcalloc(s->n_files + 1, sizeof *d->files);
  d->asserts = upk_xcalloc(s->n_asserts + 1, sizeof *d->asserts);
  for (size_t i = 0; i < s->n_files; i++, d->n_files++)
    if (!(d->files[i].name = upk_xstrdup(s->files[i].name)) ||
        !(d->files[i].content = upk_xstrdup(s->files[i].content)))
      return -ENOMEM;
  for (size_t i = 0; i < s->n_asserts; i++, d->n_asserts++)
    if (upk_assertion_copy(&d->asserts[i], &s->asserts[i]))
      return -ENOMEM;
  char *const *src[] = {&s->output_file, &s->validator, &s->validator_config};
  char **dst[] = {&d->output_file, &d->validator, &d->validator_config};
  for (size_t i = 0; i < 3; i++)
    if (*src[i])
      *dst[i] = upk_xstrdup(*src[i]);
  return 0;
}

int upk_evalcases_add(upk_evalcases *c, const upk_evalcase *item) {
  upk_evalcase *p = upk_xrealloc(c->items, (c->n + 1) * sizeof *p);
  c->items = p;
  int rc = copy_case(&p[c->n], item);
  if (rc) {
    upk_evalcase_free(&p[c->n]);
    return rc;
  }
  c->n++;
  return 0;
}

/* ---- split --------------------------------------------------------------- */

/* splitmix64's finaliser: a well-mixed 64-bit permutation. */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* FNV-1a over the input, keyed by the seed, then mixed. */
static uint64_t case_key(uint64_t seed, const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL ^ mix64(seed + 0x9e3779b97f4a7c15ULL);
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return mix64(h);
}

typedef struct {
  uint64_t key;
  const char *input;
  size_t idx;
} ranked;

static int by_key(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  int c = strcmp(x->input, y->input);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int by_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

int upk_evalcases_split(const upk_evalcases *c, uint64_t seed, double holdout_fraction,
                        size_t **refine, size_t *n_refine, size_t **holdout, size_t *n_holdout) {
  *refine = *holdout = NULL;
  *n_refine = *n_holdout = 0;
  if (!(holdout_fraction >= 0 && holdout_fraction < 1))
    return -EINVAL;
  size_t k = c->n >= 2 && holdout_fraction > 0 ? (size_t)lround(c->n * holdout_fraction) : 0;
  if (c->n >= 2 && holdout_fraction > 0)
    k = k < 1 ? 1 : k > c->n - 1 ? c->n - 1 : k;
  ranked *r = upk_xcalloc(c->n + 1, sizeof *r);
  *refine = upk_xcalloc(c->n - k + 1, sizeof **refine);
  *holdout = upk_xcalloc(k + 1, sizeof **holdout);
  if (!r || !*refine || !*holdout) {
    free(r);
    free(*refine);
    free(*holdout);
    *refine = *holdout = NULL;
    return -ENOMEM;
  }
  for (size_t i = 0; i < c->n; i++)
    r[i] = (ranked){case_key(seed, c->items[i].input), c->items[i].input, i};
  qsort(r, c->n, sizeof *r, by_key);
  for (size_t i = 0; i < c->n; i++)
    if (i < k)
      (*holdout)[(*n_holdout)++] = r[i].idx;
    else
      (*refine)[(*n_refine)++] = r[i].idx;
  free(r);
  qsort(*holdout, *n_holdout, sizeof **holdout, by_size);
  qsort(*refine, *n_refine, sizeof **refine, by_size);
  return 0;
}
