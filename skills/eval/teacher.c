/* The teacher's prompts (see teacher.h); the parsers are in teacher_parse.c. */
#include "skills/eval/teacher.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "skills/eval/fence.h"

static const char SYSTEM[] =
    "You write Agent Skills: folders of instructions that coding agents (Claude Code, Codex, "
    "Cursor and others) load on demand. A skill is a SKILL.md file: YAML frontmatter, then a "
    "Markdown body. You write for another model, not for a person: concrete steps, exact "
    "commands, the mistakes to avoid and why, no filler. You answer exactly in the format asked.";

/* The rules a SKILL.md must meet, as the validator (validate.h) checks them. */
static const char RULES[] =
    "Rules for SKILL.md (checked by a strict validator):\n"
    "- It starts with YAML frontmatter between `---` lines with `name` and `description`.\n"
    "- `name`: 1-64 characters, lowercase letters, digits and single hyphens; no leading or "
    "trailing hyphen.\n"
    "- `description`: at most 1024 characters, no angle brackets; say what the skill does AND "
    "when to use it (the words a user's request would contain), since agents choose skills by "
    "their description alone.\n"
    "- Optional fields: `license`, `compatibility` (at most 500 characters), `metadata` (a map "
    "of strings), `allowed-tools`. No other top-level fields.\n"
    "- The body: under 500 lines; the procedure first, then pitfalls and checks; code blocks "
    "with their language; no placeholders like TODO.\n";

static const char ANSWER_FORMAT[] =
    "Answer with the complete SKILL.md inside one fenced block opened with four backticks and "
    "the word markdown (````markdown) and closed with four backticks (````), so that the "
    "skill's own ``` code blocks stay inside it. Nothing else is needed.\n";

const char *upk_teacher_system(void) {
  return SYSTEM;
}

static const char TICKS[] = "````````````````````````````````````````";

static void fenced(FILE *f, const char *lang, const char *text) {
  int n = upk_fence_len(text);
  size_t len = strlen(text);
  fprintf(f, "%.*s%s\n%s%s%.*s\n", n, TICKS, lang, text, len && text[len - 1] == '\n' ? "" : "\n",
          n, TICKS);
}

/* Close the stream; only then does *buf hold the text. */
static char *finish(FILE *f, char **buf) {
  if (fclose(f)) {
    free(*buf);
    return NULL;
  }
  return *buf;
}

char *upk_teacher_skill_prompt(const upk_teacher_input *in) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fprintf(f, "%s a skill for this task:\n\n", in->existing_skill ? "Improve" : "Write");
  fenced(f, "text", in->task ? in->task : "");
  if (in->name)
    fprintf(f, "\nThe skill's name must be `%s`.\n", in->name);
  if (in->n_examples) {
    fputs("\nExamples of what the skill should make an agent do (input -> output):\n", f);
    for (size_t i = 0; i < in->n_examples; i++)
      fprintf(f, "- %s\n", in->examples[i]);
  }
  if (in->trace) {
    fputs("\nAn agent already did this task. Below is its trace, condensed: the errors it hit, "
          "each with what followed (its edits as diffs, the command that then succeeded, its own "
          "explanation), its final files, the facts it stated and its closing summary. The fix "
          "may be stated only in its words. Turn what worked, and what went wrong first, into "
          "instructions; do not narrate the trace.\n\n",
          f);
    fenced(f, "markdown", in->trace);
  }
  if (in->existing_skill) {
    fputs("\nThe current skill, to improve (keep what is right, fix what is wrong or missing):\n\n",
          f);
    fenced(f, "markdown", in->existing_skill);
  }
  fprintf(f, "\n%s\n%s", RULES, ANSWER_FORMAT);
  return finish(f, &buf);
}

static const char *sev_name(upk_severity s) {
  return s == UPK_SEV_ERROR ? "error" : s == UPK_SEV_WARNING ? "warning" : "note";
}

char *upk_teacher_fix_prompt(const char *skill_md, const upk_diags *diags) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fputs("The SKILL.md you wrote does not pass validation. Here it is, then every problem the "
        "validator found (lines and columns count from 1):\n\n",
        f);
  fenced(f, "markdown", skill_md);
  fputc('\n', f);
  for (size_t i = 0; diags && i < diags->len; i++) {
    const upk_diag *d = &diags->items[i];
    if (d->range.line >= 0)
      fprintf(f, "- line %d, column %d: %s [%s]: %s\n", d->range.line + 1, d->range.col + 1,
              sev_name(d->severity), d->code ? d->code : "-", d->message ? d->message : "");
    else
      fprintf(f, "- %s [%s]: %s\n", sev_name(d->severity), d->code ? d->code : "-",
              d->message ? d->message : "");
  }
  fprintf(f, "\nFix every error (and the warnings where you can) without losing content.\n%s\n%s",
          RULES, ANSWER_FORMAT);
  return finish(f, &buf);
}

static const char TESTS_SCHEMA[] =
    "{\"cases\": [\n"
    "  {\"input\": \"what a user would ask\",\n"
    "   \"context\": {\"files\": {\"name.ext\": \"file content the request refers to\"}},\n"
    "   \"expected\": {\n"
    "     \"contains\": [\"phrase a good answer must contain\", \"another\"],\n"
    "     \"not_contains\": [\"phrase a wrong answer would contain\"],\n"
    "     \"regex\": [\"POSIX extended regex a good answer matches\"]%s}}\n"
    "]}\n";

static const char KERNEL_ASSERTIONS[] =
    ",\n     \"compiles\": {\"arch\": \"sm_90a\"},\n"
    "     \"resources\": {\"maxRegisters\": 128, \"noSpills\": true}";

char *upk_teacher_tests_prompt(const char *task, const char *skill_md, size_t n, bool kernel) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fprintf(f, "Write %zu test cases that tell whether a model does this task well:\n\n", n ? n : 6);
  fenced(f, "text", task ? task : "");
  if (skill_md) {
    fputs("\nThe skill being tested (the model will NOT see it in the baseline runs):\n\n", f);
    fenced(f, "markdown", skill_md);
  }
  fputs("\nEach case is one request a user would make and the assertions its answer must "
        "meet. Assertions are case-insensitive. `contains` items must all appear, `not_contains` "
        "items must all be absent, every `regex` must match (POSIX extended: write [0-9], not "
        "\\d). Write assertions that a plausible but wrong answer fails: not words that merely "
        "echo the request, not whole sentences. Give every case at least two assertions and "
        "vary the requests (easy, tricky, an edge case). context.files is optional.\n",
        f);
  if (kernel)
    fputs("Where the answer should contain a CUDA kernel, add `compiles` (the kernel's code "
          "blocks are compiled for that arch) and, where it matters, `resources` (register limit "
          "per thread, no spills).\n",
          f);
  fputs("\nAnswer with one JSON object in a ```json block, of this shape:\n\n```json\n", f);
  fprintf(f, TESTS_SCHEMA, kernel ? KERNEL_ASSERTIONS : "");
  fputs("```\n", f);
  return finish(f, &buf);
}

/* An answer in full up to 8 KB; longer ones keep their head and tail. */
static void answer_block(FILE *f, const char *answer) {
  size_t n = strlen(answer);
  if (n <= 8192) {
    fenced(f, "text", answer);
    return;
  }
  char *cut = upk_xasprintf("%.*s\n[... %zu bytes left out ...]\n%s", 5120, answer, n - 5120 - 2048,
                            answer + n - 2048);
  fenced(f, "text", cut);
  free(cut);
}

static void failure(FILE *f, size_t i, const upk_teacher_failure *x) {
  fprintf(f, "\n### Failure %zu%s%s\n\nRequest:\n\n", i + 1, x->model ? " — model " : "",
          x->model ? x->model : "");
  fenced(f, "text", x->input ? x->input : "");
  if (!x->answer) {
    fprintf(f, "\nNo answer: %s\n", x->error ? x->error : "the call failed");
    return;
  }
  fputs("\nAnswer:\n\n", f);
  answer_block(f, x->answer);
  fputs("\nAssertions:\n", f);
  for (size_t k = 0; x->report && k < x->report->n; k++) {
    const upk_assert_result *r = &x->report->results[k];
    fprintf(f, "- %s: %s%s%s\n", r->label ? r->label : upk_assert_kind_name(r->kind),
            upk_assert_status_name(r->status), r->reason ? " — " : "", r->reason ? r->reason : "");
  }
}

char *upk_teacher_refine_prompt(const char *skill_md, const upk_teacher_failure *fl, size_t n,
                                const upk_teacher_scores *s) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fputs("A skill was evaluated: models answered test requests with it loaded, and the answers "
        "were checked. Improve the skill so that they pass.\n",
        f);
  if (s && isfinite(s->with_skill))
    fprintf(f, "\nPass rate with the skill: %.0f %%", 100 * s->with_skill);
  if (s && isfinite(s->baseline))
    fprintf(f, "; without it: %.0f %%", 100 * s->baseline);
  if (s && s->max_attempts)
    fprintf(f, " (refinement %u of %u)", s->attempt, s->max_attempts);
  fputs("\n\nThe whole current skill:\n\n", f);
  fenced(f, "markdown", skill_md);
  fprintf(f, "\n## Every failure (%zu)\n", n);
  for (size_t i = 0; i < n; i++)
    failure(f, i, &fl[i]);
  fputs("\nFind what the failures have in common and fix the skill's instructions, not the "
        "individual answers: the skill will be scored on other requests too. Keep its name. "
        "If an assertion looks wrong, still make the skill lead to answers that satisfy the "
        "intent behind it.\n\n",
        f);
  fprintf(f, "%s\n%s", RULES, ANSWER_FORMAT);
  return finish(f, &buf);
}
