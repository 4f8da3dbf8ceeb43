/** The teacher's side of skill generation: the prompts sent to the teacher
 * model and the parsers for what it answers. Plain text in and out; the
 * daemon sends the prompts through its providers.
 *
 * Prompts ask for the SKILL.md inside a four-backtick ````markdown fence, so
 * the skill's own ``` blocks cannot close it, and for test cases as one JSON
 * object in upskill's schema plus upskilld's assertions (evalcase.h). The
 * parsers do not rely on the teacher obeying: a skill is found in any fence
 * (nested ``` blocks handled) or as raw text from its frontmatter, and test
 * cases are found in a ```json block, the whole answer, or the first JSON
 * value in surrounding prose, with trailing commas forgiven.
 */
#ifndef UPK_TEACHER_H
#define UPK_TEACHER_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/eval/assertion.h"
#include "common/diag.h"
#include "skills/eval/evalcase.h"

/** What the skill is to be written from (strings borrowed; NULL: absent). */
typedef struct upk_teacher_input {
  const char *task;
  const char *trace;           /* condensed trace (condense.h) */
  const char *const *examples; /* "input -> output" lines, upskill's -e */
  size_t n_examples;
  const char *existing_skill; /* a SKILL.md to improve */
  const char *name;           /* the skill's name when already chosen */
} upk_teacher_input;

/** One failed trial, for refinement (strings borrowed). */
typedef struct upk_teacher_failure {
  const char *model;
  const char *input;  /* the case's prompt */
  const char *answer; /* NULL when the call failed */
  const char *error;  /* why the call failed */
  const upk_assert_report *report;
} upk_teacher_failure;

/** Scores that frame a refinement request (NaN: unknown). */
typedef struct upk_teacher_scores {
  double with_skill, baseline;
  unsigned attempt, max_attempts;
} upk_teacher_scores;

/** The teacher's system prompt (static text). */
const char *upk_teacher_system(void);
/** Prompt: write a SKILL.md for the task (+ trace, examples, skill to improve). */
char *upk_teacher_skill_prompt(const upk_teacher_input *in);
/** Prompt: the SKILL.md failed validation; here are the diagnostics. */
char *upk_teacher_fix_prompt(const char *skill_md, const upk_diags *diags);
/** Prompt: write n test cases (3-10 when 0) for the skill. `kernel` allows
 * the compiles/resources assertions. */
char *upk_teacher_tests_prompt(const char *task, const char *skill_md, size_t n, bool kernel);
/** Prompt: improve the skill; the whole skill and every failure are sent.
 * Answers longer than 8 KB keep their first 5 KB and last 2 KB, the cut
 * marked with the number of bytes left out. */
char *upk_teacher_refine_prompt(const char *skill_md, const upk_teacher_failure *f, size_t n,
                                const upk_teacher_scores *scores);

/** Find the SKILL.md in an answer. Returns 0 with a malloc'd text, -ENOENT
 * when the answer holds none, -ENOMEM. */
int upk_teacher_extract_skill(const char *answer, char **skill_md);
/** Find test cases in an answer. Returns 0 when at least one good case was
 * found (diagnostics list any bad ones left out), -ENOENT when no JSON with
 * cases is in the answer, -ENOMEM. */
int upk_teacher_extract_cases(const char *answer, upk_evalcases *out, upk_diags *diags);

#endif
