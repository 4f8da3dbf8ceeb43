/* skill_meta.json in upskill's schema: reading, writing byte-for-byte as
 * Python's json.dumps(indent=2) does, nulls and omissions kept, extra keys
 * in test cases refused, and the file next to a SKILL.md. */
#include "tests/skills/skill_helpers.h"

#include "skills/meta.h"
#include "skills/skill.h"
#include "skills/validate.h"

TestSuite(meta, .init = th_setup, .fini = th_teardown);

static upk_skill_meta m;
static upk_diags d;

static int parse(const char *text) {
  upk_meta_free(&m);
  upk_diags_free(&d);
  return upk_meta_parse(text, strlen(text), &m, &d);
}

/* Written by Python: json.dumps(meta, indent=2) + "\n". */
static const char FULL[] =
    "{\n  \"metadata\": {\n    \"version\": \"1.0\",\n    \"generated_by\": \"sonnet\",\n    "
    "\"generated_at\": \"2026-02-18T10:00:00Z\",\n    \"source_task\": \"Write a caf\\u00e9 "
    "menu\",\n    \"test_pass_rate\": 0.8,\n    \"license\": null,\n    \"compatibility\": "
    "null\n  },\n  \"tests\": [\n    {\n      \"input\": \"Make a menu\",\n      \"context\": "
    "{\n        \"files\": {\n          \"a.txt\": \"hello\"\n        }\n      },\n      "
    "\"expected\": {\n        \"contains\": [\n          \"menu\",\n          \"caf\\u00e9\"\n  "
    "      ]\n      },\n      \"output_file\": null,\n      \"validator\": null,\n      "
    "\"validator_config\": null\n    },\n    {\n      \"input\": \"Second\",\n      "
    "\"expected\": {\n        \"contains\": \"x\"\n      },\n      \"validator\": \"json\",\n    "
    "  \"validator_config\": {\n        \"strict\": true,\n        \"n\": [\n          1,\n      "
    "    2\n        ]\n      }\n    }\n  ]\n}\n";

static const char DEFAULTS[] =
    "{\n  \"metadata\": {\n    \"version\": \"1.0\",\n    \"generated_by\": null,\n    "
    "\"generated_at\": null,\n    \"source_task\": null,\n    \"test_pass_rate\": null,\n    "
    "\"license\": null,\n    \"compatibility\": null\n  },\n  \"tests\": []\n}\n";

Test(meta, reads_upskill_file) {
  cr_assert_eq(parse(FULL), 0, "%s", th_dump(&d));
  cr_assert_str_eq(m.version.value, "1.0");
  cr_assert_str_eq(m.generated_by.value, "sonnet");
  cr_assert_str_eq(m.source_task.value, "Write a café menu");
  cr_assert_eq(m.test_pass_rate_state, UPK_JSON_SET);
  cr_assert_float_eq(m.test_pass_rate, 0.8, 1e-12);
  cr_assert_eq(m.license.state, UPK_JSON_NULL);
  cr_assert_null(m.license.value);
  cr_assert_eq(m.n_tests, 2);
  const upk_meta_test *t = &m.tests[0];
  cr_assert_str_eq(t->input, "Make a menu");
  cr_assert_eq(t->context, UPK_JSON_SET);
  cr_assert_eq(t->n_files, 1);
  cr_assert_str_eq(t->files[0].name, "a.txt");
  cr_assert_str_eq(t->files[0].content, "hello");
  cr_assert(t->contains_list);
  cr_assert_eq(t->n_contains, 2);
  cr_assert_str_eq(t->contains[1], "café");
  cr_assert_eq(t->output_file.state, UPK_JSON_NULL);
  t = &m.tests[1];
  cr_assert_eq(t->context, UPK_JSON_ABSENT);
  cr_assert_not(t->contains_list);
  cr_assert_str_eq(t->contains[0], "x");
  cr_assert_eq(t->output_file.state, UPK_JSON_ABSENT);
  cr_assert_str_eq(t->validator.value, "json");
  cr_assert_str_eq(t->validator_config, "{\"strict\":true,\"n\":[1,2]}");
}

Test(meta, round_trip_is_byte_identical) {
  cr_assert_eq(parse(FULL), 0);
  char *out = upk_meta_dump(&m);
  cr_assert_str_eq(out, FULL);
  free(out);
}

Test(meta, defaults_match_upskill) {
  upk_meta_free(&m);
  cr_assert_eq(upk_meta_init(&m), 0);
  char *out = upk_meta_dump(&m);
  cr_assert_str_eq(out, DEFAULTS);
  free(out);
  cr_assert_eq(parse(DEFAULTS), 0);
  out = upk_meta_dump(&m);
  cr_assert_str_eq(out, DEFAULTS);
  free(out);
}

Test(meta, absent_members_stay_absent) {
  const char *t = "{\"metadata\": {\"version\": \"2\"}, \"tests\": [{\"input\": \"i\", "
                  "\"expected\": {\"contains\": []}, \"context\": {}}]}";
  cr_assert_eq(parse(t), 0, "%s", th_dump(&d));
  char *out = upk_meta_dump(&m);
  cr_assert_str_eq(out, "{\n  \"metadata\": {\n    \"version\": \"2\"\n  },\n  \"tests\": [\n    "
                        "{\n      \"input\": \"i\",\n      \"context\": {},\n      \"expected\": "
                        "{\n        \"contains\": []\n      }\n    }\n  ]\n}\n");
  free(out);
}

Test(meta, floats_in_shortest_form) {
  upk_meta_free(&m);
  upk_meta_init(&m);
  m.test_pass_rate_state = UPK_JSON_SET;
  m.test_pass_rate = 1.0;
  char *out = upk_meta_dump(&m);
  cr_assert(strstr(out, "\"test_pass_rate\": 1.0,"), "%s", out);
  free(out);
  m.test_pass_rate = 0.1 + 0.2;
  out = upk_meta_dump(&m);
  cr_assert(strstr(out, "\"test_pass_rate\": 0.30000000000000004,"), "%s", out);
  free(out);
}

Test(meta, unknown_metadata_kept) {
  cr_assert_eq(parse("{\"metadata\": {\"version\": \"1.0\", \"owner\": {\"team\": \"x\"}}, "
                     "\"tests\": []}"),
               0);
  cr_assert_eq(m.n_extra, 1);
  cr_assert_str_eq(m.extra_keys[0], "owner");
  char *out = upk_meta_dump(&m);
  cr_assert(strstr(out, "\"owner\": {\n      \"team\": \"x\"\n    }"), "%s", out);
  free(out);
}

Test(meta, extra_key_in_test_refused) {
  cr_assert_eq(parse("{\"metadata\": {}, \"tests\": [{\"input\": \"i\", \"expected\": "
                     "{\"contains\": \"x\"}, \"verifiers\": []}]}"),
               -EINVAL);
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "meta/unknown-key");
  cr_assert_str_eq(d.items[0].message, "skill_meta.json: tests[0]: unexpected key 'verifiers' "
                                       "(upskill's test cases forbid extra keys)");
  cr_assert_eq(m.n_tests, 1); /* what could be read is kept */
}

Test(meta, extra_key_nested_refused) {
  cr_assert_eq(parse("{\"tests\": [{\"input\": \"i\", \"expected\": {\"contains\": \"x\", "
                     "\"regex\": \"y\"}, \"context\": {\"files\": {}, \"env\": {}}}]}"),
               -EINVAL);
  cr_assert_eq(d.len, 2, "%s", th_dump(&d));
  cr_assert_str_eq(d.items[0].message, "skill_meta.json: tests[0].context: unexpected key 'env' "
                                       "(upskill's test cases forbid extra keys)");
}

Test(meta, required_fields_and_types) {
  cr_assert_eq(parse("{\"tests\": [{\"expected\": {}}, {\"input\": 3, \"expected\": "
                     "{\"contains\": [1]}}, 7]}"),
               -EINVAL);
  cr_assert_str_eq(d.items[0].message, "skill_meta.json: tests[0]: missing required field 'input'");
  cr_assert_str_eq(d.items[1].message,
                   "skill_meta.json: tests[0].expected: missing required field 'contains'");
  cr_assert_str_eq(d.items[2].message, "skill_meta.json: tests[1].input must be a string");
  cr_assert_str_eq(d.items[3].message,
                   "skill_meta.json: tests[1].expected.contains must be a string or a list of "
                   "strings");
  cr_assert_str_eq(d.items[4].message, "skill_meta.json: tests[2] must be an object");
  cr_assert_str_eq(d.items[0].code, "meta/missing-field");
  cr_assert_str_eq(d.items[2].code, "meta/wrong-type");
}

Test(meta, metadata_types) {
  cr_assert_eq(parse("{\"metadata\": {\"version\": 1, \"test_pass_rate\": \"high\"}}"), -EINVAL);
  cr_assert_str_eq(d.items[0].message,
                   "skill_meta.json: metadata.version must be a string or null");
  cr_assert_str_eq(d.items[1].message,
                   "skill_meta.json: metadata.test_pass_rate must be a number or null");
}

Test(meta, invalid_json_has_position) {
  cr_assert_eq(parse("{\n  \"metadata\": {,}\n}"), -EINVAL);
  cr_assert_str_eq(d.items[0].code, "meta/invalid-json");
  cr_assert_eq(d.items[0].range.line, 1);
  cr_assert(strncmp(d.items[0].message, "skill_meta.json is not valid JSON: ", 35) == 0);
  cr_assert_eq(parse("[1, 2]"), -EINVAL);
  cr_assert_str_eq(d.items[0].code, "meta/not-object");
  cr_assert_eq(parse("{\"metadata\": {}, \"metadata\": {}}"), -EINVAL); /* duplicate keys */
}

Test(meta, tests_file_list_or_cases) {
  upk_meta_free(&m);
  const char *a = "[{\"input\": \"a\", \"expected\": {\"contains\": [\"x\", \"y\"]}}]";
  cr_assert_eq(upk_meta_parse_tests(a, strlen(a), &m, &d), 0);
  cr_assert_eq(m.n_tests, 1);
  upk_meta_free(&m);
  const char *b = "{\"cases\": [{\"input\": \"a\", \"expected\": {\"contains\": \"x\"}}, "
                  "{\"input\": \"b\", \"expected\": {\"contains\": \"y\"}}]}";
  cr_assert_eq(upk_meta_parse_tests(b, strlen(b), &m, &d), 0);
  cr_assert_eq(m.n_tests, 2);
  cr_assert_str_eq(m.tests[1].input, "b");
}

Test(meta, write_and_read_back) {
  upk_meta_free(&m);
  upk_meta_init(&m);
  upk_opt_str_set(&m.generated_by, "upskilld");
  const char *want[] = {"cudaFuncSetAttribute", "48 KB"};
  cr_assert_eq(upk_meta_add_test(&m, "Use 100 KB of shared memory", want, 2), 0);
  cr_assert_eq(upk_meta_write(th_path("skill_meta.json"), &m), 0);
  upk_skill_meta back;
  upk_diags_free(&d);
  cr_assert_eq(upk_meta_read(th_path("skill_meta.json"), &back, &d), 0, "%s", th_dump(&d));
  cr_assert_str_eq(back.generated_by.value, "upskilld");
  cr_assert_eq(back.n_tests, 1);
  cr_assert_str_eq(back.tests[0].contains[1], "48 KB");
  char *a = upk_meta_dump(&m), *b = upk_meta_dump(&back);
  cr_assert_str_eq(a, b);
  free(a);
  free(b);
  upk_meta_free(&back);
  cr_assert_eq(upk_meta_read(th_path("missing.json"), &back, &d), -ENOENT);
}

Test(meta, loaded_with_the_skill) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\ndescription: d\n---\n");
  th_write("my-skill/skill_meta.json", FULL);
  upk_skill s;
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_load(th_path("my-skill"), &s, &d), 0);
  cr_assert_not_null(s.meta);
  cr_assert_eq(s.meta->n_tests, 2);
  cr_assert_eq(s.issues.len, 0);
  upk_skill_free(&s);
}

Test(meta, invalid_meta_is_a_strict_error_and_lenient_warning) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\ndescription: d\n---\n");
  th_write("my-skill/skill_meta.json", "{\"tests\": [{\"input\": \"i\", \"expected\": "
                                       "{\"contains\": \"x\"}, \"extra\": 1}]}");
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_validate_path(th_path("my-skill"), UPK_VALIDATE_STRICT, &d), 1);
  cr_assert_str_eq(d.items[0].code, "meta/unknown-key");
  cr_assert_str_eq(d.items[0].file, th_path("my-skill/skill_meta.json"));
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_validate_path(th_path("my-skill"), UPK_VALIDATE_LENIENT, &d), 0);
  cr_assert_eq(d.items[0].severity, UPK_SEV_WARNING);
}

/* A skill_meta.json's size comes from outside: past UPK_SKILL_MAX_BYTES it is refused with a
 * diagnostic (the graceful failure common/xalloc.h keeps for such sizes), not read. */
Test(meta, oversize_meta_is_refused) {
  FILE *f = fopen(th_path("skill_meta.json"), "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fseek(f, 3 * UPK_SKILL_MAX_BYTES, SEEK_SET), 0); /* sparse, well over */
  fputc(' ', f);
  fclose(f);
  upk_skill_meta m;
  upk_diags_free(&d);
  cr_assert_eq(upk_meta_read(th_path("skill_meta.json"), &m, &d), -EFBIG);
  cr_assert_str_eq(d.items[0].code, "meta/unreadable");
  cr_assert(strstr(d.items[0].message, "larger than 10 MB"), "%s", d.items[0].message);
}
