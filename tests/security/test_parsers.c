/* Hostile YAML (issue 44, point 7; docs/security.md "Parsers"): a stranger's SKILL.md
 * frontmatter and a project's upskill.config.yaml are parsed by libyaml into trees the daemon
 * keeps. A frontmatter of 80,000 keys cost 21 s (a linear search per key): it is refused at
 * once with the key cap named. A duplicate key is an error. A scalar holding NUL (YAML's "\0"
 * escape, or a raw NUL byte) was cut at the NUL ("ab\0c" installed as "ab"): it is refused
 * wherever YAML scalars are taken (SKILL.md, the catalog's frontmatter JSON, the config). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/diag.h"
#include "models/config.h"
#include "skills/catalog.h"
#include "skills/skill.h"

/* A generous bound: the old code took 21 s for 80,000 keys; the fixed one answers in
 * milliseconds, under ASan too. This is a regression guard, not a benchmark. */
#define BOUND_S 3.0

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* "---\nname: wide\ndescription: d\nk0: v\nk1: v\n...---\nbody\n" with n extra keys. */
static char *wide_skill(size_t n, size_t *len) {
  char *buf = NULL;
  size_t blen = 0;
  FILE *f = open_memstream(&buf, &blen);
  fputs("---\nname: wide\ndescription: A skill with too many keys.\n", f);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "k%zu: v\n", i);
  fputs("---\n# Body\n", f);
  fclose(f);
  *len = blen;
  return buf;
}

static const upk_diag *find_in(const upk_diags *d, const char *needle) {
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].severity == UPK_SEV_ERROR && strstr(d->items[i].message, needle))
      return &d->items[i];
  return NULL;
}

/* What parsing reported: fatal problems in `d`, the rest in the skill's own issues. */
static const upk_skill *cur;
static const upk_diag *find_diag(const upk_diags *d, const char *needle) {
  const upk_diag *x = find_in(d, needle);
  return x ? x : cur ? find_in(&cur->issues, needle) : NULL;
}

static char *dump_diags(const upk_diags *d) {
  static char out[4096];
  size_t n = 0;
  out[0] = '\0';
  for (int k = 0; k < 2; k++) {
    const upk_diags *x = k ? (cur ? &cur->issues : NULL) : d;
    for (size_t i = 0; x && i < x->len && n < sizeof out - 1; i++)
      n += (size_t)snprintf(out + n, sizeof out - n, "[%s] %s\n", x->items[i].code,
                            x->items[i].message);
  }
  return out;
}

Test(parsers, frontmatter_80000_keys_refused_quickly) {
  size_t len;
  char *text = wide_skill(80000, &len);
  upk_skill s = {0};
  upk_diags d = {0};
  cur = &s;
  double t0 = now_s();
  int rc = upk_skill_parse(text, len, NULL, &s, &d);
  double took = now_s() - t0;
  cr_assert_eq(rc, 0);
  cr_assert_lt(took, BOUND_S, "80,000 frontmatter keys took %.1f s", took);
  const upk_diag *e = find_diag(&d, "keys");
  cr_assert(e, "no error names the key cap: %s", dump_diags(&d));
  cr_assert(strstr(e->message, "1000"), "the cap is not named: %s", e->message);
  upk_skill_free(&s);
  upk_diags_free(&d);

  /* The catalog's frontmatter JSON (skills/get, resources) takes the same parser. */
  json_t *out = NULL;
  char why[512] = "";
  t0 = now_s();
  rc = upk_catalog_frontmatter(text, len, &out, why, sizeof why);
  took = now_s() - t0;
  cr_assert_neq(rc, 0, "80,000 keys accepted by the catalog");
  cr_assert_lt(took, BOUND_S, "catalog: 80,000 keys took %.1f s", took);
  cr_assert(strstr(why, "keys"), "catalog: %s", why);
  free(text);
}

Test(parsers, frontmatter_under_the_cap_is_fine) {
  size_t len;
  char *text = wide_skill(500, &len);
  upk_skill s = {0};
  upk_diags d = {0};
  cur = &s;
  cr_assert_eq(upk_skill_parse(text, len, NULL, &s, &d), 0);
  cr_assert_null(find_diag(&d, "keys"), "%s", dump_diags(&d));
  cr_assert_str_eq(s.name, "wide");
  upk_skill_free(&s);
  upk_diags_free(&d);
  free(text);
}

Test(parsers, frontmatter_duplicate_key_is_an_error) {
  const char *text = "---\nname: dup\ndescription: one\ndescription: two\n---\n# Body\n";
  upk_skill s = {0};
  upk_diags d = {0};
  cur = &s;
  cr_assert_eq(upk_skill_parse(text, strlen(text), NULL, &s, &d), 0);
  cr_assert(find_diag(&d, "duplicate key 'description'"), "%s", dump_diags(&d));
  upk_skill_free(&s);
  upk_diags_free(&d);
}

/* A SKILL.md whose description holds NUL: refused, never cut to "ab". */
static void assert_nul_refused(const char *text, size_t len) {
  upk_skill s = {0};
  upk_diags d = {0};
  cur = &s;
  cr_assert_eq(upk_skill_parse(text, len, NULL, &s, &d), 0);
  cr_assert(find_diag(&d, "NUL"), "a NUL in a scalar was not refused: %s", dump_diags(&d));
  cr_assert(!s.description || strcmp(s.description, "ab") != 0,
            "the value was cut at the NUL: \"%s\"", s.description);
  upk_skill_free(&s);
  upk_diags_free(&d);
  json_t *out = NULL;
  char why[512] = "";
  cr_assert_neq(upk_catalog_frontmatter(text, len, &out, why, sizeof why), 0,
                "catalog accepted it: %s", out ? json_dumps(out, 0) : "");
  cr_assert(strstr(why, "NUL"), "catalog: %s", why);
}

Test(parsers, frontmatter_nul_escape_refused) {
  const char text[] = "---\nname: nul\ndescription: \"ab\\0c\"\n---\n# Body\n";
  assert_nul_refused(text, sizeof text - 1);
}

Test(parsers, frontmatter_nul_escape_in_key_refused) {
  const char text[] = "---\nname: nul\ndescription: fine\n\"na\\0me\": x\n---\n# Body\n";
  assert_nul_refused(text, sizeof text - 1);
}

Test(parsers, frontmatter_raw_nul_refused) {
  const char text[] = "---\nname: nul\ndescription: \"ab\0c\"\n---\n# Body\n";
  assert_nul_refused(text, sizeof text - 1);
}

Test(parsers, frontmatter_raw_nul_plain_refused) {
  const char text[] = "---\nname: nul\ndescription: ab\0c\n---\n# Body\n";
  assert_nul_refused(text, sizeof text - 1);
}

static void assert_config_refused(const char *text, size_t len, const char *needle) {
  char err[512] = "";
  json_t *j = upk_yaml_to_json(text, len, err, sizeof err);
  cr_assert_null(j, "accepted: %s", j ? json_dumps(j, JSON_COMPACT) : "");
  cr_assert(strstr(err, needle), "the error does not say \"%s\": %s", needle, err);
}

Test(parsers, config_nul_escape_refused) {
  const char text[] = "model: \"ab\\0c\"\n";
  assert_config_refused(text, sizeof text - 1, "NUL");
}

Test(parsers, config_nul_escape_in_key_refused) {
  const char text[] = "agents:\n  \"claude-code\\0x\":\n    timeoutMs: 5\n";
  assert_config_refused(text, sizeof text - 1, "NUL");
}

Test(parsers, config_raw_nul_refused) {
  const char text[] = "model: ab\0c\n";
  assert_config_refused(text, sizeof text - 1, "NUL");
}

Test(parsers, config_duplicate_key_refused) {
  const char text[] = "model: a\nmodel: b\n";
  assert_config_refused(text, sizeof text - 1, "duplicate key 'model'");
}

Test(parsers, config_80000_keys_refused_quickly) {
  char *buf = NULL;
  size_t blen = 0;
  FILE *f = open_memstream(&buf, &blen);
  fputs("model_aliases:\n", f);
  for (int i = 0; i < 80000; i++)
    fprintf(f, "  a%d: sonnet\n", i);
  fclose(f);
  double t0 = now_s();
  char err[512] = "";
  json_t *j = upk_yaml_to_json(buf, blen, err, sizeof err);
  double took = now_s() - t0;
  /* libyaml loads the whole document before the cap is seen: linear, ~1.5 s under ASan */
  cr_assert_lt(took, 4 * BOUND_S, "80,000 config keys took %.1f s", took);
  cr_assert_null(j, "80,000 keys in one mapping accepted");
  cr_assert(strstr(err, "keys"), "%s", err);
  free(buf);
}
