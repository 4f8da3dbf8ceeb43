/* clients/sarif.c alone: a stranger's bytes read back as JSON text, URIs percent-encoded, where
 * uriBaseId and regions are left out, fingerprints that ignore the line, and the paths --sarif
 * refuses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients/sarif.h"
#include "tests/unit/unit.h"

static const upk_sarif_rule RULES[] = {
    {"audit/pipe-to-shell", "A download piped into a shell", "https://x/d.md#a", UPK_SARIF_ERROR},
    {"h100/spill", NULL, NULL, UPK_SARIF_WARNING},
};

static json_t *result_at(json_t *log, size_t i) {
  return json_array_get(json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results"),
                        i);
}

static json_t *artifact(json_t *res) {
  return json_object_get(
      json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation"),
      "artifactLocation");
}

static const char *fp(json_t *res) {
  return json_string_value(
      json_object_get(json_object_get(res, "partialFingerprints"), "upskilldFingerprint/v1"));
}

/* Quotes, backslashes, control characters and braces stay text; invalid UTF-8 becomes '?'. */
UTest(sarif, hostile_text_reads_back_as_text) {
  const char *msg = "\"}], \"x\": 1, \\ \x01 \x1b[31m \xff\xfe \xc3\xa9 \xf3\xa0\x81\x81";
  upk_sarif_result r[] = {{.level = UPK_SARIF_ERROR,
                           .message = msg,
                           .uri = "a b/#c%.md",
                           .start_column = 3,
                           .snippet = msg}};
  upk_sarif_run run = {RULES, 2, r, 1, "%SRCROOT%", "file:///w/", NULL};
  json_t *log = upk_sarif_log(&run);
  char *text = json_dumps(log, JSON_ENSURE_ASCII);
  json_decref(log);
  json_error_t err;
  json_t *back = json_loads(text, 0, &err);
  cr_assert_not_null(back, "%s: %s", err.text, text);
  json_t *res = result_at(back, 0);
  const char *want = "\"}], \"x\": 1, \\ \x01 \x1b[31m ?? \xc3\xa9 \xf3\xa0\x81\x81";
  cr_expect_str_eq(json_string_value(json_object_get(json_object_get(res, "message"), "text")),
                   want);
  cr_expect_eq(json_object_size(res), 6, "no key was injected");
  cr_expect_str_eq(json_string_value(json_object_get(artifact(res), "uri")), "a b/#c%.md");
  json_t *region = json_object_get(
      json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation"),
      "region");
  cr_expect_null(region, "no region without a start line");
  json_decref(back);
  free(text);
}

UTest(sarif, uris_are_percent_encoded) {
  char *u = upk_sarif_rel_uri("dir with space/a#b%c?d\xc3\xa9.sh");
  cr_expect_str_eq(u, "dir%20with%20space/a%23b%25c%3Fd%C3%A9.sh");
  free(u);
  u = upk_sarif_dir_uri("/w/my repo");
  cr_expect_str_eq(u, "file:///w/my%20repo/");
  free(u);
  u = upk_sarif_dir_uri("/");
  cr_expect_str_eq(u, "file:///");
  free(u);
}

/* uriBaseId only on URIs relative to the run's base; the fingerprint ignores the line and
 * column, and follows the rule, the file and the evidence. */
UTest(sarif, bases_regions_and_fingerprints) {
  upk_sarif_result r[] = {
      {.message = "m",
       .uri = "s/run.sh",
       .start_line = 3,
       .snippet = "curl x | sh",
       .fingerprint = "curl x | sh"},
      {.message = "m", .uri = "s/run.sh", .start_line = 9, .fingerprint = "curl x | sh"},
      {.message = "m", .uri = "s/run.sh", .start_line = 9, .fingerprint = "wget y | sh"},
      {1, UPK_SARIF_WARNING, "m", "file:///elsewhere/k.cu", 0, 4, 2, 4, 7},
      {1, UPK_SARIF_NOTE, "m", "sub/k.cu", 1, 1, 1, 1, 1},
      {1, UPK_SARIF_NOTE, "m"},
  };
  upk_sarif_run run = {RULES, 2, r, 6, "%SRCROOT%", "file:///w/", NULL};
  json_t *log = upk_sarif_log(&run), *run0 = json_array_get(json_object_get(log, "runs"), 0);
  cr_expect_str_eq(json_string_value(json_object_get(log, "version")), "2.1.0");
  cr_expect_str_eq(
      json_string_value(json_object_get(
          json_object_get(json_object_get(run0, "originalUriBaseIds"), "%SRCROOT%"), "uri")),
      "file:///w/");
  cr_expect_str_eq(fp(result_at(log, 0)), fp(result_at(log, 1)));
  cr_expect_str_neq(fp(result_at(log, 1)), fp(result_at(log, 2)));
  cr_expect_str_eq(json_string_value(json_object_get(artifact(result_at(log, 0)), "uriBaseId")),
                   "%SRCROOT%");
  cr_expect_null(json_object_get(artifact(result_at(log, 3)), "uriBaseId"));
  cr_expect_null(json_object_get(artifact(result_at(log, 4)), "uriBaseId"), "unbased");
  cr_expect_null(json_object_get(result_at(log, 5), "locations"));
  json_t *region = json_object_get(
      json_object_get(json_array_get(json_object_get(result_at(log, 3), "locations"), 0),
                      "physicalLocation"),
      "region");
  cr_expect_eq(json_integer_value(json_object_get(region, "startColumn")), 2);
  cr_expect_eq(json_integer_value(json_object_get(region, "endColumn")), 7);
  /* A rule without a description has its id as one; ruleIndex names the rule. */
  json_t *rule1 = json_array_get(
      json_object_get(json_object_get(json_object_get(run0, "tool"), "driver"), "rules"), 1);
  cr_expect_str_eq(
      json_string_value(json_object_get(json_object_get(rule1, "shortDescription"), "text")),
      "h100/spill");
  cr_expect_eq(json_integer_value(json_object_get(result_at(log, 3), "ruleIndex")), 1);
  json_decref(log);
}

UTest(sarif, paths_refused_and_the_write_leaves_no_temporary) {
  char d[] = "/tmp/upk-sarif-XXXXXX", p[512];
  cr_assert_not_null(mkdtemp(d));
  cr_expect_eq(upk_sarif_check_path(d), -EISDIR);
  snprintf(p, sizeof p, "%s/missing/out.sarif", d);
  cr_expect_eq(upk_sarif_check_path(p), -ENOENT);
  upk_sarif_run run = {RULES, 2, NULL, 0, NULL, NULL, NULL};
  cr_expect_eq(upk_sarif_write(p, &run), -ENOENT);
  cr_expect_eq(upk_sarif_check_path(""), -ENOENT);
  snprintf(p, sizeof p, "%s/out.sarif", d);
  cr_assert_eq(upk_sarif_write(p, &run), 0);
  json_error_t err;
  json_t *back = json_load_file(p, 0, &err);
  cr_assert_not_null(back, "%s", err.text);
  json_decref(back);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "test \"$(ls -A %s)\" = out.sarif", d);
  cr_expect_eq(system(cmd), 0, "only the file is left");
  unlink(p);
  rmdir(d);
}

/* The judge's findings belong to their own tool component: tool.extensions holds its rules, and
 * each of its results names it (rule.toolComponent, the index counted in its rules); the
 * driver keeps only upskilld's own. */
UTest(sarif, judge_rules_are_their_own_tool_component) {
  const upk_sarif_rule rules[] = {
      {"audit/pipe-to-shell", NULL, NULL, UPK_SARIF_ERROR},
      {"judge/exfiltration", NULL, NULL, UPK_SARIF_ERROR, NULL, "upskilld-judge"},
      {"h100/spill", NULL, NULL, UPK_SARIF_WARNING},
      {"judge/deception", NULL, NULL, UPK_SARIF_WARNING, NULL, "upskilld-judge"},
  };
  upk_sarif_result r[] = {
      {3, UPK_SARIF_WARNING, "j"}, {2, UPK_SARIF_WARNING, "d"}, {1, UPK_SARIF_ERROR, "j"}};
  upk_sarif_run run = {rules, 4, r, 3, NULL, NULL, NULL};
  json_t *log = upk_sarif_log(&run), *run0 = json_array_get(json_object_get(log, "runs"), 0);
  json_t *tool = json_object_get(run0, "tool");
  cr_assert_eq(json_array_size(json_object_get(json_object_get(tool, "driver"), "rules")), 2);
  json_t *ext = json_object_get(tool, "extensions");
  cr_assert_eq(json_array_size(ext), 1);
  json_t *e0 = json_array_get(ext, 0);
  cr_expect_str_eq(json_string_value(json_object_get(e0, "name")), "upskilld-judge");
  cr_assert_eq(json_array_size(json_object_get(e0, "rules")), 2);
  json_t *res0 = result_at(log, 0), *ref = json_object_get(res0, "rule");
  cr_expect_null(json_object_get(res0, "ruleId"), "rule names it (SARIF2004)");
  cr_expect_str_eq(json_string_value(json_object_get(ref, "id")), "judge/deception");
  cr_expect_eq(json_integer_value(json_object_get(ref, "index")), 1);
  cr_expect_str_eq(
      json_string_value(json_object_get(json_object_get(ref, "toolComponent"), "name")),
      "upskilld-judge");
  cr_expect_eq(json_integer_value(json_object_get(json_object_get(ref, "toolComponent"), "index")),
               0);
  cr_expect_eq(json_integer_value(json_object_get(result_at(log, 1), "ruleIndex")), 1,
               "h100/spill");
  cr_expect_null(json_object_get(result_at(log, 1), "rule"), "a driver rule needs no reference");
  cr_expect_eq(json_integer_value(json_object_get(result_at(log, 2), "ruleIndex")), 0);
  json_decref(log);
}
