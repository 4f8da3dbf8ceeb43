/* The teacher's prompts say what they must (whole skill, every failure,
 * diagnostics with positions, the schema) and its answers are parsed from
 * messy text: nested fences, missing fences, prose around JSON, trailing
 * commas. Extracted skills are checked with the real validator. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/skill.h"
#include "skills/eval/teacher.h"
#include "skills/validate.h"

static void has(const char *text, const char *s) {
  cr_assert(strstr(text, s), "prompt lacks \"%s\":\n%s", s, text);
}

Test(prompts, skill_prompt) {
  const char *ex[] = {"saxpy on 1M floats -> a kernel with a grid-stride loop"};
  upk_teacher_input in = {.task = "Write fast CUDA kernels for H100",
                          .trace = "## Errors\n- x",
                          .examples = ex,
                          .n_examples = 1,
                          .name = "h100-kernels"};
  char *p = upk_teacher_skill_prompt(&in);
  has(p, "Write a skill for this task");
  has(p, "Write fast CUDA kernels for H100");
  has(p, "- saxpy on 1M floats -> a kernel with a grid-stride loop");
  has(p, "## Errors\n- x");
  has(p, "must be `h100-kernels`");
  has(p, "````markdown");
  has(p, "`name`: 1-64 characters");
  free(p);
  in.existing_skill = "---\nname: a\ndescription: b\n---\nbody with ```` fence\n";
  p = upk_teacher_skill_prompt(&in);
  has(p, "Improve a skill");
  has(p, "`````markdown\n---\nname: a"); /* a fence longer than the skill's own */
  free(p);
  cr_assert(strstr(upk_teacher_system(), "Agent Skills"));
}

Test(prompts, fix_prompt_lists_diagnostics_one_based) {
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, "skill/name-uppercase", "upskilld-skill",
                upk_range_line(1, 6, 9), "name must be lowercase");
  upk_diags_add(&d, UPK_SEV_WARNING, "skill/body-long", "upskilld-skill", (upk_range){-1, 0, -1, 0},
                "the body is long");
  char *p = upk_teacher_fix_prompt("---\nname: ABC\n---\n", &d);
  has(p, "- line 2, column 7: error [skill/name-uppercase]: name must be lowercase");
  has(p, "- warning [skill/body-long]: the body is long");
  has(p, "name: ABC");
  free(p);
  upk_diags_free(&d);
}

Test(prompts, tests_prompt) {
  char *p = upk_teacher_tests_prompt("Tile a GEMM", NULL, 5, false);
  has(p, "Write 5 test cases");
  has(p, "\"not_contains\"");
  has(p, "[0-9], not \\d");
  cr_assert_null(strstr(p, "\"compiles\""));
  free(p);
  p = upk_teacher_tests_prompt("Tile a GEMM", "---\nname: g\n---\n", 0, true);
  has(p, "Write 6 test cases");
  has(p, "\"compiles\": {\"arch\": \"sm_90a\"}");
  has(p, "\"resources\": {\"maxRegisters\": 128, \"noSpills\": true}");
  has(p, "will NOT see it");
  free(p);
}

Test(prompts, refine_sends_whole_skill_and_every_failure) {
  char skill[4000];
  strcpy(skill, "---\nname: k\ndescription: d\n---\n");
  for (int i = 0; i < 60; i++)
    strcat(skill, "Step with enough words to be long.\n");
  strcat(skill, "THE LAST LINE\n");
  upk_assert_result res = {.kind = UPK_ASSERT_REGEX,
                           .status = UPK_ASSERT_FAIL,
                           .label = "regex [\"__launch_bounds__\"]",
                           .reason = "the answer does not match /__launch_bounds__/"};
  upk_assert_report rep = {.results = &res, .n = 1, .failed = 1};
  char *big = malloc(20001);
  memset(big, 'x', 20000);
  big[20000] = '\0';
  memcpy(big + 19990, "TAIL", 4);
  upk_teacher_failure f[5];
  char inputs[5][32];
  for (int i = 0; i < 5; i++) {
    snprintf(inputs[i], sizeof inputs[i], "request number %d", i);
    f[i] = (upk_teacher_failure){
        .model = "haiku", .input = inputs[i], .answer = "short", .report = &rep};
  }
  f[3].answer = big;
  f[4].answer = NULL;
  f[4].error = "timed out after 60 s";
  upk_teacher_scores s = {.with_skill = 0.4, .baseline = NAN, .attempt = 1, .max_attempts = 3};
  char *p = upk_teacher_refine_prompt(skill, f, 5, &s);
  has(p, skill); /* all of it, not its first 500 characters */
  for (int i = 0; i < 5; i++)
    has(p, inputs[i]);
  has(p, "Every failure (5)");
  has(p, "regex [\"__launch_bounds__\"]: fail — the answer does not match /__launch_bounds__/");
  has(p, "[... 12832 bytes left out ...]");
  has(p, "TAIL");
  has(p, "No answer: timed out after 60 s");
  has(p, "Pass rate with the skill: 40 %");
  has(p, "(refinement 1 of 3)");
  cr_assert_null(strstr(p, "without it"), "unknown baseline is not printed");
  free(p);
  free(big);
}

/* ---- extracting a SKILL.md ----------------------------------------------- */

static const char SKILL[] = "---\nname: cuda-tiling\ndescription: Tile CUDA kernels for H100. "
                            "Use when writing GEMM or stencil kernels.\n---\n\n# Tiling\n\n"
                            "Build:\n\n```bash\nnvcc -arch=sm_90a k.cu\n```\n\nOutput:\n\n"
                            "```\nok\n```\n";

static char *extract(const char *answer) {
  char *s = NULL;
  int rc = upk_teacher_extract_skill(answer, &s);
  cr_assert_eq(rc, 0, "no skill found in:\n%s", answer);
  return s;
}

static void validates(const char *md) {
  upk_diags d = {0};
  size_t errors = upk_skill_validate_text(md, strlen(md), UPK_VALIDATE_STRICT, &d);
  cr_assert_eq(errors, 0, "extracted skill does not validate: %s", d.len ? d.items[0].message : "");
  upk_diags_free(&d);
}

Test(extract_skill, four_backtick_fence_with_inner_blocks) {
  char answer[2048];
  snprintf(answer, sizeof answer, "Here is the skill.\n\n````markdown\n%s````\n\nEnjoy!\n", SKILL);
  char *s = extract(answer);
  cr_assert_str_eq(s, SKILL);
  validates(s);
  free(s);
}

Test(extract_skill, three_backtick_fence_inner_labelled_and_trailing_example) {
  const char *inner = "---\nname: cuda-tiling\ndescription: Tile kernels. Use for GEMM.\n---\n\n"
                      "```bash\nnvcc k.cu\n```\n\nDone.\n";
  char answer[2048];
  snprintf(answer, sizeof answer,
           "Sure:\n\n```markdown\n%s```\n\nTry it with:\n\n```bash\nupskillctl validate .\n```\n",
           inner);
  char *s = extract(answer);
  cr_assert_str_eq(s, inner);
  free(s);
}

Test(extract_skill, three_backtick_fence_inner_bare_blocks) {
  const char *inner = "---\nname: cuda-tiling\ndescription: d\n---\n\nOutput:\n\n```\nok\n```\n\n"
                      "More text.\n";
  char answer[2048];
  snprintf(answer, sizeof answer, "```md\n%s```\n", inner);
  char *s = extract(answer);
  cr_assert_str_eq(s, inner);
  free(s);
}

Test(extract_skill, raw_answers) {
  char *s = extract(SKILL);
  cr_assert_str_eq(s, SKILL);
  free(s);
  char answer[2048];
  snprintf(answer, sizeof answer, "I wrote the following SKILL.md:\n\n%s", SKILL);
  s = extract(answer);
  cr_assert_str_eq(s, SKILL);
  validates(s);
  free(s);
  /* CRLF line ends from some providers. */
  s = extract("---\r\nname: x\r\ndescription: y\r\n---\r\nbody\r\n");
  cr_assert_str_eq(s, "---\nname: x\ndescription: y\n---\nbody\n");
  free(s);
}

Test(extract_skill, no_frontmatter_and_nothing) {
  char *s = extract("```markdown\n# Just a body\n\nsteps\n```\n");
  cr_assert_str_eq(s, "# Just a body\n\nsteps\n", "the validator will say what is missing");
  free(s);
  cr_assert_eq(upk_teacher_extract_skill("I cannot help with that.", &s), -ENOENT);
  cr_assert_null(s);
  cr_assert_eq(upk_teacher_extract_skill("Use ---\nseparators\n---\n", &s), -ENOENT);
}

/* ---- extracting test cases ----------------------------------------------- */

static upk_evalcases c;
static upk_diags d;

static void fini(void) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
}

TestSuite(extract_cases, .fini = fini);

static int cases(const char *answer) {
  upk_evalcases_free(&c);
  upk_diags_free(&d);
  return upk_teacher_extract_cases(answer, &c, &d);
}

Test(extract_cases, json_block_in_prose) {
  cr_assert_eq(cases("Here are 2 tests:\n\n```json\n{\"cases\": [\n"
                     "{\"input\": \"a\", \"expected\": {\"contains\": [\"x\", \"y\"]}},\n"
                     "{\"input\": \"b\", \"expected\": {\"regex\": \"[0-9]+ ms\"}}\n]}\n```\n"
                     "Let me know {if} you need more."),
               0);
  cr_assert_eq(c.n, 2);
  cr_assert_eq(c.items[1].asserts[0].kind, UPK_ASSERT_REGEX);
}

Test(extract_cases, trailing_commas_and_no_fence) {
  cr_assert_eq(
      cases("{\"cases\": [{\"input\": \"a\", \"expected\": {\"contains\": [\"x\",],},},]}"), 0);
  cr_assert_eq(c.n, 1);
  cr_assert_eq(cases("Sure! The test cases are [{\"input\": \"q\", \"expected\": {\"contains\": "
                     "\"k, with comma]\"}}] and that is all."),
               0);
  cr_assert_eq(c.n, 1);
  cr_assert_str_eq(c.items[0].asserts[0].values[0], "k, with comma]");
}

Test(extract_cases, skips_example_blocks_that_are_not_cases) {
  cr_assert_eq(
      cases("The format is:\n```json\n{\"input\": \"...\"}\n```\nAnd the cases:\n"
            "```json\n[{\"input\": \"real\", \"expected\": {\"contains\": \"r\"}}]\n```\n"),
      0);
  cr_assert_eq(c.n, 1);
  cr_assert_str_eq(c.items[0].input, "real");
}

Test(extract_cases, bad_cases_dropped_with_diagnostics) {
  cr_assert_eq(
      cases("```json\n[{\"input\": \"good\", \"expected\": {\"contains\": \"g\"}},"
            "{\"input\": \"bad\", \"expected\": {\"contains\": \"g\", \"fuzzy\": 1}}]\n```"),
      0);
  cr_assert_eq(c.n, 1);
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "eval/unknown-assertion");
}

Test(extract_cases, nothing_usable) {
  cr_assert_eq(cases("I could not write tests for this."), -ENOENT);
  cr_assert_eq(cases("```json\n{\"cases\": []}\n```"), -ENOENT);
  cr_assert_eq(cases("code: for (i = 0; i < n; i++) { a[i] = {0}; } [1, 2]"), -ENOENT);
}
