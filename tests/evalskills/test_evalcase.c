/* Test cases: upskill's schema read in all its shapes, upskilld's assertions
 * in expected or in an "upskilld" validator_config, bad cases reported and
 * left out, files written that meta.c's strict reader (upskill's schema)
 * accepts, prompts, and the seeded split. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/eval/evalcase.h"
#include "skills/meta.h"

static upk_evalcases c;
static upk_diags d;

static void fini(void) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
}

TestSuite(evalcase, .fini = fini);

static int parse(const char *s) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
  return upk_evalcases_parse(s, strlen(s), &c, &d);
}

static const char *dump_diags(void) {
  static char buf[4096];
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < d.len && n < sizeof buf - 200; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s: %s\n", d.items[i].code, d.items[i].message);
  return buf;
}

static bool has_code(const char *code) {
  for (size_t i = 0; i < d.len; i++)
    if (strcmp(d.items[i].code, code) == 0)
      return true;
  return false;
}

Test(evalcase, upskill_shapes) {
  const char *list = "[{\"input\": \"a\", \"expected\": {\"contains\": \"x\"}}]";
  cr_assert_eq(parse(list), 0, "%s", dump_diags());
  cr_assert_eq(c.n, 1);
  cr_assert_eq(c.items[0].n_asserts, 1);
  cr_assert_eq(c.items[0].asserts[0].kind, UPK_ASSERT_CONTAINS);
  cr_assert_str_eq(c.items[0].asserts[0].values[0], "x");
  cr_assert_eq(parse("{\"cases\": [{\"input\": \"a\", \"expected\": {\"contains\": [\"x\", "
                     "\"y\"]}, \"context\": {\"files\": {\"k.cu\": \"int x;\"}}}]}"),
               0, "%s", dump_diags());
  cr_assert_eq(c.items[0].asserts[0].n_values, 2);
  cr_assert_str_eq(c.items[0].files[0].name, "k.cu");
  cr_assert_eq(parse("{\"metadata\": {\"version\": \"1.0\"}, \"tests\": [{\"input\": \"q\", "
                     "\"expected\": {\"contains\": [\"z\"]}, \"output_file\": null, "
                     "\"validator\": null, \"validator_config\": null}]}"),
               0, "%s", dump_diags());
  cr_assert_eq(c.n, 1);
  cr_assert_null(c.items[0].validator);
}

static const char EXTRAS[] =
    "{\"cases\": [{\"input\": \"Write a saxpy kernel\", \"expected\": {"
    "\"contains\": [\"__global__\"], \"not_contains\": \"cudaMallocManaged\", "
    "\"regex\": [\"blockIdx\\\\.x\"], \"compiles\": {\"arch\": \"sm_90\"}, "
    "\"resources\": {\"maxRegisters\": 64, \"noSpills\": true}}},"
    "{\"input\": \"Second\", \"expected\": {\"contains\": []}, \"validator\": \"upskilld\", "
    "\"validator_config\": {\"compiles\": true, \"regex\": \"x\"}}]}";

Test(evalcase, upskilld_assertions_in_both_places) {
  cr_assert_eq(parse(EXTRAS), 0, "%s", dump_diags());
  cr_assert_eq(c.n, 2);
  const upk_evalcase *a = &c.items[0];
  cr_assert_eq(a->n_asserts, 5);
  cr_assert_eq(a->asserts[1].kind, UPK_ASSERT_NOT_CONTAINS);
  cr_assert_str_eq(a->asserts[1].values[0], "cudaMallocManaged");
  cr_assert_str_eq(a->asserts[2].values[0], "blockIdx\\.x");
  cr_assert_str_eq(a->asserts[3].arch, "sm_90");
  cr_assert_eq(a->asserts[4].max_registers, 64);
  cr_assert(a->asserts[4].no_spills);
  const upk_evalcase *b = &c.items[1];
  cr_assert_eq(b->n_asserts, 2, "the empty contains carries nothing");
  cr_assert_eq(b->asserts[0].kind, UPK_ASSERT_COMPILES);
  cr_assert_null(b->asserts[0].arch);
  cr_assert_null(b->validator, "ours is not kept as a foreign validator");
}

Test(evalcase, bad_cases_reported_good_ones_kept) {
  const char *s =
      "[{\"input\": \"ok\", \"expected\": {\"contains\": \"a\"}},"
      " {\"input\": \"extra\", \"expected\": {\"contains\": \"a\"}, \"notes\": 1},"
      " {\"input\": \"nothing\", \"expected\": {\"contains\": []}},"
      " {\"input\": \"typo\", \"expected\": {\"contains\": \"a\", \"not_contain\": \"b\"}},"
      " {\"input\": \"limits\", \"expected\": {\"resources\": {}}},"
      " {\"input\": \"types\", \"expected\": {\"regex\": [1]}},"
      " {\"input\": \"vacuous\", \"expected\": {\"contains\": [\"a\", \"\"]}},"
      " {\"expected\": {\"contains\": \"a\"}},"
      " {\"input\": \"ok2\", \"expected\": {\"regex\": \"b+\"}}]";
  cr_assert_eq(parse(s), -EINVAL);
  cr_assert_eq(c.n, 2, "%s", dump_diags());
  cr_assert_str_eq(c.items[0].input, "ok");
  cr_assert_str_eq(c.items[1].input, "ok2");
  cr_assert(has_code("eval/unknown-key"));
  cr_assert(has_code("eval/no-assertion"));
  cr_assert(has_code("eval/unknown-assertion"));
  cr_assert(has_code("eval/no-limit"));
  cr_assert(has_code("eval/wrong-type"));
  cr_assert(has_code("eval/missing-field"));
  cr_assert(has_code("eval/empty"));
  cr_assert(strstr(dump_diags(), "cases[3]"), "diagnostics name the case");
  cr_assert_eq(parse("not json"), -EINVAL);
  cr_assert(has_code("eval/invalid-json"));
  cr_assert_eq(parse("{\"cases\": [{\"input\": \"a\", \"expected\": {\"contains\": \"a\"}, "
                     "\"validator\": \"json\", \"validator_config\": {\"strict\": true}}]}"),
               0, "a foreign validator is kept: %s", dump_diags());
  cr_assert_str_eq(c.items[0].validator, "json");
  cr_assert_str_eq(c.items[0].validator_config, "{\"strict\":true}");
}

Test(evalcase, written_files_pass_upskills_strict_schema) {
  cr_assert_eq(parse(EXTRAS), 0);
  char *text = upk_evalcases_dump(&c);
  cr_assert_not_null(text);
  cr_assert(strstr(text, "\"validator\": \"upskilld\""), "%s", text);
  upk_skill_meta m;
  upk_diags md = {0};
  cr_assert_eq(upk_meta_parse_tests(text, strlen(text), &m, &md), 0,
               "meta.c (extra=forbid) refuses what we wrote:\n%s", text);
  cr_assert_eq(m.n_tests, 2);
  cr_assert_str_eq(m.tests[0].contains[0], "__global__");
  upk_meta_free(&m);
  upk_diags_free(&md);
  upk_evalcases again;
  cr_assert_eq(upk_evalcases_parse(text, strlen(text), &again, &d), 0, "%s", dump_diags());
  cr_assert_eq(again.n, 2);
  cr_assert_eq(again.items[0].n_asserts, 5);
  cr_assert_eq(again.items[0].asserts[4].max_registers, 64);
  cr_assert_str_eq(again.items[0].asserts[3].arch, "sm_90");
  char *text2 = upk_evalcases_dump(&again);
  cr_assert_str_eq(text, text2, "a second round trip changes nothing");
  free(text2);
  upk_evalcases_free(&again);
  free(text);
}

Test(evalcase, through_skill_meta_json) {
  cr_assert_eq(parse(EXTRAS), 0);
  upk_skill_meta m;
  cr_assert_eq(upk_meta_init(&m), 0);
  cr_assert_eq(upk_evalcases_to_meta(&c, &m), 0);
  char dir[] = "/tmp/upk-evalcase-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/skill_meta.json", dir);
  cr_assert_eq(upk_meta_write(path, &m), 0);
  upk_meta_free(&m);
  upk_evalcases back;
  cr_assert_eq(upk_evalcases_read(path, &back, &d), 0, "%s", dump_diags());
  cr_assert_eq(back.n, 2);
  cr_assert_eq(back.items[0].n_asserts, 5);
  upk_skill_meta m2;
  upk_diags md = {0};
  cr_assert_eq(upk_meta_read(path, &m2, &md), 0);
  upk_evalcases viameta;
  cr_assert_eq(upk_evalcases_from_meta(&m2, &viameta, &d), 0, "%s", dump_diags());
  cr_assert_eq(viameta.items[0].n_asserts, 5);
  cr_assert_eq(viameta.items[1].asserts[0].kind, UPK_ASSERT_COMPILES);
  upk_evalcases_free(&viameta);
  upk_meta_free(&m2);
  upk_diags_free(&md);
  upk_evalcases_free(&back);
  snprintf(path, sizeof path, "%s/tests.json", dir);
  cr_assert_eq(upk_evalcases_write(path, &c), 0);
  cr_assert_eq(upk_evalcases_read(path, &back, &d), 0);
  cr_assert_eq(back.n, 2);
  upk_evalcases_free(&back);
  cr_assert_eq(upk_evalcases_read("/nonexistent/x.json", &back, &d), -ENOENT);
  unlink(path);
  snprintf(path, sizeof path, "%s/skill_meta.json", dir);
  unlink(path);
  rmdir(dir);
}

Test(evalcase, prompt_fences_files_safely) {
  cr_assert_eq(parse("[{\"input\": \"Fix this\", \"expected\": {\"contains\": \"a\"}, "
                     "\"context\": {\"files\": {\"README.md\": \"```\\ncode\\n```\\n\"}}}]"),
               0);
  char *p = upk_evalcase_prompt(&c.items[0]);
  cr_assert_str_eq(p, "Fix this\n\nREADME.md:\n````\n```\ncode\n```\n````\n");
  free(p);
}

static void add(upk_evalcases *cs, const char *input) {
  char *v[] = {"x"};
  upk_assertion a = {.kind = UPK_ASSERT_CONTAINS, .values = v, .n_values = 1};
  upk_evalcase e = {.input = (char *)input, .asserts = &a, .n_asserts = 1};
  cr_assert_eq(upk_evalcases_add(cs, &e), 0);
}

static void split(const upk_evalcases *cs, uint64_t seed, double f, char *held, size_t *nh) {
  size_t *r, *h, nr;
  cr_assert_eq(upk_evalcases_split(cs, seed, f, &r, &nr, &h, nh), 0);
  cr_assert_eq(nr + *nh, cs->n);
  held[0] = '\0';
  for (size_t i = 0; i < *nh; i++) {
    if (i)
      cr_assert_gt(h[i], h[i - 1], "ascending");
    strcat(held, cs->items[h[i]].input);
    strcat(held, ",");
    for (size_t j = 0; j < nr; j++)
      cr_assert_neq(r[j], h[i], "disjoint");
  }
  free(r);
  free(h);
}

Test(evalcase, split_is_deterministic_and_order_free) {
  upk_evalcases a = {0}, b = {0};
  const char *names[] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"};
  for (int i = 0; i < 10; i++)
    add(&a, names[i]);
  for (int i = 9; i >= 0; i--)
    add(&b, names[i]);
  char h1[256], h2[256], h3[256];
  size_t n1, n2, n3;
  split(&a, 42, 0.3, h1, &n1);
  split(&a, 42, 0.3, h2, &n2);
  cr_assert_eq(n1, 3);
  cr_assert_str_eq(h1, h2, "same seed, same split");
  split(&b, 42, 0.3, h3, &n3);
  /* b is reversed: the same cases are held out, listed in b's order. */
  for (char *tok = strtok(h3, ","); tok; tok = strtok(NULL, ","))
    cr_assert(strstr(h1, tok), "%s held out in one order but not the other", tok);
  bool differs = false;
  for (uint64_t seed = 1; seed < 8 && !differs; seed++) {
    split(&a, seed, 0.3, h2, &n2);
    differs = strcmp(h1, h2) != 0;
  }
  cr_assert(differs, "the seed matters");
  upk_evalcases_free(&a);
  upk_evalcases_free(&b);
}

Test(evalcase, split_sizes) {
  upk_evalcases a = {0};
  char held[64];
  size_t nh;
  add(&a, "only");
  split(&a, 1, 0.5, held, &nh);
  cr_assert_eq(nh, 0, "one case: all for refinement");
  add(&a, "two");
  split(&a, 1, 0.01, held, &nh);
  cr_assert_eq(nh, 1, "at least one held out");
  split(&a, 1, 0.99, held, &nh);
  cr_assert_eq(nh, 1, "at least one for refinement");
  split(&a, 1, 0, held, &nh);
  cr_assert_eq(nh, 0);
  size_t *r, *h, nr;
  cr_assert_eq(upk_evalcases_split(&a, 1, 1.0, &r, &nr, &h, &nh), -EINVAL);
  cr_assert_eq(upk_evalcases_split(&a, 1, -0.1, &r, &nr, &h, &nh), -EINVAL);
  upk_evalcases_free(&a);
}
