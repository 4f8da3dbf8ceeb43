/* The executable assertions (script, diff, kernel): read from a case's `expected`, from an
 * "upskilld" validator_config and from a skill's evals/evals.json; bad specs refused with one
 * clear diagnostic each (a missing command, a bad timeout, a bad glob, a kernel path out of the
 * workspace); written back and read again unchanged; left to the caller in an agent run and
 * skipped elsewhere; diff patterns and kernel verdicts decided as docs/eval.md says. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/eval/agentskills.h"
#include "skills/eval/evalcase.h"

static upk_evalcases c;
static upk_diags d;

static void fini(void) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
}

TestSuite(exec_assert, .fini = fini);

static int parse(const char *s) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
  return upk_evalcases_parse(s, strlen(s), &c, &d);
}

static const char *diags(void) {
  static char buf[4096];
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < d.len && n < sizeof buf - 200; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s: %s\n", d.items[i].code, d.items[i].message);
  return buf;
}

/* One bad case: refused with `code` and a message holding `words`. */
static void refused(const char *expected, const char *code, const char *words) {
  char doc[2048];
  snprintf(doc, sizeof doc, "[{\"input\": \"q\", \"expected\": %s}]", expected);
  cr_assert_eq(parse(doc), -EINVAL, "%s was accepted", expected);
  cr_assert_eq(c.n, 0);
  cr_assert_eq(d.len, 1, "one message for %s: %s", expected, diags());
  cr_assert_str_eq(d.items[0].code, code, "%s", diags());
  cr_assert(strstr(d.items[0].message, words), "%s: %s", expected, diags());
}

Test(exec_assert, parse_all_three) {
  const char *doc = "[{\"input\": \"write k.cu\", \"expected\": {"
                    "\"script\": {\"command\": \"make test\", \"timeoutMs\": 5000, \"exit\": 2},"
                    "\"diff\": {\"changed\": [\"src/**\", \"k.cu\"], \"unchanged\": "
                    "[\"README.md\"], \"only\": true},"
                    "\"kernel\": {\"path\": \"src/k.cu\", \"arch\": \"sm_80\", \"resources\": "
                    "{\"maxRegisters\": 64, "
                    "\"noSpills\": true}, \"run\": {\"grid\": [1]}}}},"
                    " {\"input\": \"b\", \"validator\": \"upskilld\", \"validator_config\": "
                    "{\"script\": \"true\"}}]";
  cr_assert_eq(parse(doc), 0, "%s", diags());
  cr_assert_eq(c.n, 2);
  const upk_assertion *a = c.items[0].asserts;
  cr_assert_eq(c.items[0].n_asserts, 3);
  cr_assert_eq(a[0].kind, UPK_ASSERT_SCRIPT);
  cr_assert_str_eq(a[0].values[0], "make test");
  cr_assert_eq(a[0].timeout_ms, 5000);
  cr_assert_eq(a[0].exit_code, 2);
  cr_assert_eq(a[1].kind, UPK_ASSERT_DIFF);
  cr_assert_eq(a[1].n_values, 2);
  cr_assert_str_eq(a[1].unchanged[0], "README.md");
  cr_assert(a[1].only);
  cr_assert_eq(a[2].kind, UPK_ASSERT_KERNEL);
  cr_assert_str_eq(a[2].values[0], "src/k.cu");
  cr_assert_str_eq(a[2].arch, "sm_80");
  cr_assert_eq(a[2].max_registers, 64);
  cr_assert(a[2].no_spills);
  cr_assert_str_eq(a[2].run, "{\"grid\":[1]}");
  cr_assert_eq(c.items[1].asserts[0].kind, UPK_ASSERT_SCRIPT, "in validator_config too");
  cr_assert_eq(c.items[1].asserts[0].timeout_ms, 0, "the default deadline");

  /* written back (validator_config) and read again: the same */
  char *text = upk_evalcases_dump(&c);
  cr_assert_not_null(text);
  upk_evalcases again;
  upk_diags d2 = {0};
  cr_assert_eq(upk_evalcases_parse(text, strlen(text), &again, &d2), 0, "%s", text);
  const upk_assertion *b = again.items[0].asserts;
  cr_assert_str_eq(b[0].values[0], "make test");
  cr_assert_eq(b[0].exit_code, 2);
  cr_assert_eq(b[1].n_unchanged, 1);
  cr_assert(b[1].only);
  cr_assert_str_eq(b[2].values[0], "src/k.cu");
  cr_assert_eq(b[2].max_registers, 64);
  cr_assert_str_eq(b[2].run, "{\"grid\":[1]}");
  /* a copy is deep */
  upk_assertion copy;
  cr_assert_eq(upk_assertion_copy(&copy, &b[1]), 0);
  cr_assert_str_eq(copy.unchanged[0], "README.md");
  upk_assertion_free(&copy);
  upk_evalcases_free(&again);
  upk_diags_free(&d2);
  free(text);
}

Test(exec_assert, bad_specs_refused) {
  refused("{\"script\": \"\"}", "eval/wrong-type", "non-empty command");
  refused("{\"script\": {\"timeoutMs\": 100}}", "eval/wrong-type", "non-empty command");
  refused("{\"script\": {\"command\": \"x\", \"timeoutMs\": -5}}", "eval/wrong-type", "timeoutMs");
  refused("{\"script\": {\"command\": \"x\", \"timeoutMs\": 99999999}}", "eval/wrong-type",
          "timeoutMs");
  refused("{\"script\": {\"command\": \"x\", \"exit\": 256}}", "eval/wrong-type", "exit");
  refused("{\"script\": {\"command\": \"x\", \"shell\": \"bash\"}}", "eval/wrong-type", "shell");
  refused("{\"diff\": {\"changed\": [\"/etc/passwd\"]}}", "eval/bad-glob", "absolute");
  refused("{\"diff\": {\"changed\": [\"../x\"]}}", "eval/bad-glob", "'..'");
  refused("{\"diff\": {\"unchanged\": [\"a**b\"]}}", "eval/bad-glob", "'**'");
  refused("{\"diff\": {\"changed\": [\"[ab\"]}}", "eval/bad-glob", "unclosed");
  refused("{\"diff\": {\"changed\": [\"\"]}}", "eval/bad-glob", "empty");
  refused("{\"diff\": {\"changed\": \"x\"}}", "eval/wrong-type", "list");
  refused("{\"diff\": {}}", "eval/empty", "asserts nothing");
  refused("{\"kernel\": {\"path\": \"../x.cu\"}}", "eval/outside", "../x.cu");
  refused("{\"kernel\": {\"path\": \"/tmp/x.cu\"}}", "eval/outside", "/tmp/x.cu");
  refused("{\"kernel\": {\"path\": \"a/../../x.cu\"}}", "eval/outside", "inside the workspace");
  refused("{\"kernel\": {\"path\": \"*.cu\"}}", "eval/outside", "*.cu");
  refused("{\"kernel\": \"k.cu\"}", "eval/wrong-type", "path");
  refused("{\"kernel\": {\"path\": \"k.cu\", \"resources\": {}}}", "eval/no-limit", "no limit");
  refused("{\"kernel\": {\"path\": \"k.cu\", \"run\": true}}", "eval/wrong-type", "run");
  refused("{\"kernel\": {\"path\": \"k.cu\", \"run\": {\"reference\": {\"path\": \"/etc/r.cu\"}}}}",
          "eval/outside", "reference.path");
  refused(
      "{\"kernel\": {\"path\": \"k.cu\", \"run\": {\"args\": [{\"init\": {\"file\": \"/x\"}}]}}}",
      "eval/outside", "args[].init.file");
  refused("{\"kernel\": {\"path\": \"k.cu\", \"run\": {\"reference\": {\"pytorch\": {}}}}}",
          "eval/outside", "Python on the host");
  refused("{\"scripts\": \"x\"}", "eval/unknown-assertion", "script, diff, kernel");
}

Test(exec_assert, in_a_skill_s_evals_json) {
  char dir[] = "/tmp/upk-exec-assert-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof path, "%s/evals", dir);
  cr_assert_eq(mkdir(path, 0755), 0);
  snprintf(path, sizeof path, "%s/evals/evals.json", dir);
  FILE *f = fopen(path, "w");
  fputs("{\"skill_name\": \"k\", \"evals\": [{\"id\": 1, \"prompt\": \"write k.cu\", "
        "\"expectations\": [\"it writes a kernel\"], \"expected\": {\"kernel\": {\"path\": "
        "\"k.cu\"}, \"diff\": {\"changed\": [\"k.cu\"], \"only\": true}, \"script\": "
        "\"nvcc -c k.cu\"}}]}",
        f);
  fclose(f);
  cr_assert_eq(upk_agentskills_read_evals(dir, &c, &d), 0, "%s", diags());
  cr_assert_eq(c.n, 1);
  bool kinds[3] = {false, false, false};
  for (size_t i = 0; i < c.items[0].n_asserts; i++) {
    upk_assert_kind k = c.items[0].asserts[i].kind;
    if (UPK_ASSERT_KIND_IS_EXEC(k))
      kinds[k - UPK_ASSERT_SCRIPT] = true;
  }
  cr_assert(kinds[0] && kinds[1] && kinds[2], "script, diff and kernel read from evals.json");
  unlink(path);
  snprintf(path, sizeof path, "%s/evals", dir);
  rmdir(path);
  rmdir(dir);
}

Test(exec_assert, left_to_the_caller_only_in_an_agent_run) {
  cr_assert_eq(parse("[{\"input\": \"q\", \"expected\": {\"script\": \"true\", \"diff\": "
                     "{\"changed\": [\"a\"]}, \"kernel\": {\"path\": \"k.cu\"}}}]"),
               0, "%s", diags());
  const upk_assertion *a = c.items[0].asserts;
  upk_assert_report r;
  /* a model over an API: no workspace */
  cr_assert_eq(upk_assert_evaluate_in(a, 3, "answer", NULL, NULL, &r), 0);
  for (size_t i = 0; i < 3; i++) {
    cr_assert_eq(r.results[i].status, UPK_ASSERT_SKIPPED);
    cr_assert(strstr(r.results[i].reason, "workspace"), "%s", r.results[i].reason);
  }
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_SKIPPED, "skipped, never a pass");
  upk_assert_report_free(&r);
  /* an agent run whose caller runs nothing: skipped */
  upk_assert_env env = {.workspace = "/nonexistent"};
  cr_assert_eq(upk_assert_evaluate_in(a, 3, "answer", &env, NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_SKIPPED);
  upk_assert_report_free(&r);
  /* the daemon's agent run: pending until decided */
  env.exec = true;
  cr_assert_eq(upk_assert_evaluate_in(a, 3, "answer", &env, NULL, &r), 0);
  cr_assert_eq(r.pending, 3);
  cr_assert(!upk_assert_report_done(&r));
  cr_assert_str_eq(r.results[0].label, "script \"true\"");
  cr_assert(strstr(r.results[1].label, "diff {changed: [a]"), "%s", r.results[1].label);
  cr_assert(strstr(r.results[2].label, "kernel {path: k.cu"), "%s", r.results[2].label);
  for (size_t i = 0; i < 3; i++)
    cr_assert_eq(upk_assert_report_decide(&r, i, UPK_ASSERT_PASS, "evidence"), 0);
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_PASS);
  upk_assert_report_free(&r);
}

Test(exec_assert, globs) {
  cr_assert(upk_assert_glob("k.cu", "k.cu"));
  cr_assert(!upk_assert_glob("k.cu", "src/k.cu"), "a name is not matched in subdirectories");
  cr_assert(upk_assert_glob("*.cu", "k.cu"));
  cr_assert(!upk_assert_glob("*.cu", "src/k.cu"), "* stays within one part");
  cr_assert(upk_assert_glob("**/*.cu", "k.cu"), "** matches no part too");
  cr_assert(upk_assert_glob("**/*.cu", "a/b/k.cu"));
  cr_assert(upk_assert_glob("src/**", "src/a/b.c"));
  cr_assert(!upk_assert_glob("src/**", "srcx/a"));
  cr_assert(upk_assert_glob("src/**/test_?.c", "src/x/y/test_1.c"));
  cr_assert(upk_assert_glob("src/**/test_?.c", "src/test_1.c"));
  cr_assert(!upk_assert_glob("src", "src/a.c"), "a directory's name matches nothing beneath it");
  cr_assert(upk_assert_glob("[ab].txt", "a.txt"));
  cr_assert_null(upk_assert_glob_check("src/**/k[0-9].cu"));
  cr_assert_not_null(upk_assert_glob_check("src//k.cu"));
  cr_assert_not_null(upk_assert_glob_check("./k.cu"));
}

Test(exec_assert, diff_decisions) {
  char *changed[] = {"kernel.cu", "out.txt", "notes/a.md"};
  char *want[] = {"*.cu", "notes/**"}, *keep[] = {"README.md", "out.txt"};
  upk_assertion a = {.kind = UPK_ASSERT_DIFF, .values = want, .n_values = 2};
  char *why = NULL;
  cr_assert_eq(upk_assert_diff_decide(&a, changed, 3, &why), UPK_ASSERT_PASS);
  cr_assert_null(why);
  a.only = true;
  cr_assert_eq(upk_assert_diff_decide(&a, changed, 3, &why), UPK_ASSERT_FAIL);
  cr_assert(strstr(why, "\"out.txt\" changed"), "%s", why);
  free(why);
  a.only = false;
  a.unchanged = keep;
  a.n_unchanged = 2;
  cr_assert_eq(upk_assert_diff_decide(&a, changed, 3, &why), UPK_ASSERT_FAIL);
  cr_assert(strstr(why, "unchanged: \"out.txt\""), "%s", why);
  free(why);
  a.n_unchanged = 0;
  cr_assert_eq(upk_assert_diff_decide(&a, NULL, 0, &why), UPK_ASSERT_FAIL, "nothing changed");
  cr_assert(strstr(why, "no changed path matches \"*.cu\""), "%s", why);
  free(why);
}

Test(exec_assert, kernel_decisions) {
  char *path[] = {"k.cu"};
  upk_assertion a = {.kind = UPK_ASSERT_KERNEL, .values = path, .n_values = 1, .max_registers = 32};
  upk_kcheck_kernel ks[] = {{"scale", 40, 0, 0}};
  upk_kcheck_result res = {.status = UPK_ASSERT_PASS, .kernels = ks, .n_kernels = 1};
  char *why = NULL;
  cr_assert_eq(upk_assert_kernel_decide(&a, &res, &why), UPK_ASSERT_FAIL);
  cr_assert(strstr(why, "uses 40 registers (limit 32)"), "%s", why);
  free(why);
  a.max_registers = 64;
  cr_assert_eq(upk_assert_kernel_decide(&a, &res, &why), UPK_ASSERT_PASS);
  cr_assert_str_eq(why, "compiled for sm_90a: scale (40 registers, no spills)");
  free(why);
  upk_kcheck_result bad = {.status = UPK_ASSERT_FAIL, .reason = "k.cu:2: expected a ';'"};
  cr_assert_eq(upk_assert_kernel_decide(&a, &bad, &why), UPK_ASSERT_FAIL);
  cr_assert_str_eq(why, "k.cu does not compile for sm_90a: k.cu:2: expected a ';'");
  free(why);
  upk_kcheck_result none = {.status = UPK_ASSERT_SKIPPED, .reason = "no CUDA toolkit"};
  cr_assert_eq(upk_assert_kernel_decide(&a, &none, &why), UPK_ASSERT_SKIPPED, "never a pass");
  free(why);
}
