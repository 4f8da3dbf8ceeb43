/** Agent Skills' eval layout (Anthropic's skill-creator, anthropics/skills
 * skills/skill-creator: references/schemas.md, scripts/aggregate_benchmark.py,
 * eval-viewer/generate_review.py), read and written, so that evals written for
 * skill-creator run here and upskilld's runs open in its viewer and scripts.
 *
 * Reading: `<skill>/evals/evals.json`, {"skill_name", "evals": [{"id",
 * "prompt", "expected_output"?, "files"?: [paths relative to the skill],
 * "expectations"? | "assertions"?: [statements], "eval_name"? | "name"?,
 * "expected"?: upskilld's assertions (evalcase.h)}]} (a bare list of evals is
 * read too; unknown members are ignored). Each eval becomes an upk_evalcase:
 * prompt -> input, files -> context files (their text), `expected` -> its
 * assertions, then one assertion per statement: a statement that quotes
 * literals in double quotes (ASCII or curly) or backticks becomes `contains`
 * of those literals ("The output includes \"John Smith\"", "mentions `warp
 * shuffle`"); any other statement, and one worded as a negation, an
 * alternative or a hedge ("does not mention \"x\"", "\"a\" or \"b\"", "at least
 * one of ..."), becomes UPK_ASSERT_EXPECT (values[0] the statement) for a
 * grader to judge.
 * Single quotes are not read as quotes (they are apostrophes too often).
 *
 * Writing: under one directory, for the Python readers' discovery rules:
 *
 *   <dir>/eval-<id>[-<name>]/eval_metadata.json   {eval_id, eval_name, prompt, assertions}
 *   <dir>/eval-.../<configuration>/eval_metadata.json   the same (the viewer looks
 *                                                  beside the run directory, not above)
 *   <dir>/eval-.../<configuration>/run-<n>/outputs/     answer.md, transcript.jsonl,
 *                                                  the workspace's files, metrics.json
 *   <dir>/eval-.../<configuration>/run-<n>/grading.json, timing.json
 *   <dir>/benchmark.json, benchmark.md
 *
 * benchmark.json holds what aggregate_benchmark.py computes from these files
 * (sample standard deviation, values rounded to 4 places as Python's
 * round(), delta = first configuration - second from the rounded means),
 * with three differences: with_skill is the first configuration (the script
 * sorts directory names, so next to old_skill it would come second and the
 * delta would change sign), runs_per_configuration is counted (the script
 * writes 3), and runs carry eval_name and model. grading.json's timing has no
 * total_duration_seconds, so that the script reads time and tokens from
 * timing.json (it takes tokens from there only when grading.json gives no
 * time); a run's tokens are input + output tokens, or, when unknown, its
 * output_chars, as the script falls back.
 */
#ifndef UPK_AGENTSKILLS_H
#define UPK_AGENTSKILLS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"
#include "skills/eval/evalcase.h"

/** Where a skill keeps its evals, relative to the skill directory. */
#define UPK_AGENTSKILLS_EVALS "evals/evals.json"
/** The largest context file read for an eval. */
#define UPK_AGENTSKILLS_FILE_MAX (1u << 20)

/** What an eval has besides its case, parallel to upk_evalcases' items. */
typedef struct upk_as_eval {
  int id;                /* the eval's integer id (its place in the list when it has none) */
  char *name;            /* eval_name, else name, else "eval-<id>" */
  char *expected_output; /* the human-readable description of success; NULL when absent */
  char **sources;        /* one per assertion of the case: the statement it was made from;
                            NULL for assertions from `expected` */
  size_t n_sources;      /* the case's n_asserts */
} upk_as_eval;

typedef struct upk_as_evals {
  upk_as_eval *items;
  size_t n;
  char *skill_name; /* the document's skill_name; NULL when absent */
} upk_as_evals;

/** Parse evals.json text. Context files are read below skill_dir (NULL: an
 * eval with files is bad). A bad eval (wrong types, no prompt, a duplicate
 * id, a file that is missing, over UPK_AGENTSKILLS_FILE_MAX, not UTF-8 text or
 * outside the skill) is reported, naming its id and the path, and left out;
 * the good ones are kept. An eval with nothing to check is kept with a
 * warning. Returns 0, -EINVAL (unusable JSON or some eval bad: diagnostics,
 * source "upskilld-eval", say where; diags may be NULL) or -ENOMEM. */
int upk_agentskills_parse_evals(const char *text, size_t len, const char *skill_dir,
                                upk_evalcases *out, upk_diags *diags);
/** upk_agentskills_parse_evals, also giving each case's id, name and the
 * statements behind its assertions in *info (may be NULL; freed with
 * upk_as_evals_free, also on error). */
int upk_agentskills_parse_evals_info(const char *text, size_t len, const char *skill_dir,
                                     upk_evalcases *out, upk_as_evals *info, upk_diags *diags);
/** Read <skill_dir>/evals/evals.json (same returns, plus a negative errno when
 * it cannot be read; the diagnostics name the file). */
int upk_agentskills_read_evals(const char *skill_dir, upk_evalcases *out, upk_diags *diags);
/** upk_agentskills_read_evals with *info as in upk_agentskills_parse_evals_info. */
int upk_agentskills_read_evals_info(const char *skill_dir, upk_evalcases *out, upk_as_evals *info,
                                    upk_diags *diags);
void upk_as_evals_free(upk_as_evals *e);

/** The literals a statement quotes, when it can be checked as `contains`:
 * *out gets malloc'd copies (n >= 1), or NULL and n = 0 when the statement
 * quotes nothing or is worded as a negation, an alternative or a hedge.
 * Returns 0 or -ENOMEM. Free with upk_agentskills_literals_free. */
int upk_agentskills_literals(const char *statement, char ***out, size_t *n);
void upk_agentskills_literals_free(char **v, size_t n);

/** One graded statement of a run (strings borrowed). */
typedef struct upk_as_expectation {
  const char *text; /* the statement */
  bool passed;
  const char *evidence; /* why; NULL: "" */
} upk_as_expectation;

/** One run of one eval in one configuration (everything borrowed). */
typedef struct upk_as_run {
  int eval_id;
  const char *eval_name;     /* NULL: "eval-<id>"; the same for every run of an eval */
  const char *prompt;        /* the same for every run of an eval */
  const char *configuration; /* "with_skill", "without_skill" or "old_skill" */
  unsigned run_number;       /* 1-based, unique per eval and configuration */
  const char *model;         /* e.g. "agent:claude-code"; may be NULL */
  const upk_as_expectation *expectations;
  size_t n_expectations;
  const char *answer;                /* the agent's final text (outputs/answer.md); may be NULL */
  const char *workspace;             /* a directory whose files are the run's outputs, copied into
                                        outputs/ (only files_created when given; all of it otherwise,
                                        less .git, symlinks and special files); may be NULL */
  const char *transcript_path;       /* copied as outputs/transcript.jsonl; may be NULL */
  long input_tokens, output_tokens;  /* -1 unknown */
  int turns;                         /* -1 unknown (metrics' total_steps) */
  double cost_usd;                   /* -1 unknown */
  double duration_ms;                /* -1 unknown */
  const char *started_at, *ended_at; /* ISO 8601 UTC; may be NULL */
  const char *const *tool_names;     /* tool_calls: a count per tool (a name given twice adds up) */
  const unsigned *tool_counts;
  size_t n_tools;
  const char *const *files_created; /* workspace-relative; empty: the workspace's files */
  size_t n_files_created;
  int skill_loaded;  /* 1, 0, -1 unknown */
  const char *error; /* why the run failed, or NULL */
} upk_as_run;

/** The directory name of an eval: "eval-<id>-<name>" with the name reduced
 * to [A-Za-z0-9._-] (at most 64 bytes), or "eval-<id>" when the name is NULL,
 * empty after that or "eval-<id>" itself. Returns the length snprintf would. */
int upk_agentskills_eval_dir(int eval_id, const char *eval_name, char *buf, size_t len);

/** Write the layout (see the header comment) for these runs into `dir`, which
 * must not exist or be an empty directory (its parents are created).
 * Everything is written into a temporary sibling, "<dir>.tmp-XXXXXX", which is
 * then renamed to `dir`: a reader sees all of it or nothing, and a failure
 * leaves nothing behind. A workspace file named like one written here
 * (answer.md, metrics.json, transcript.jsonl at the top of outputs/) is left
 * out and listed in grading.json's "upskilld"."outputs_skipped". skill_path
 * may be NULL. Returns 0, or a negative errno with `err` saying why: -EINVAL
 * (bad runs: an unknown configuration, run 0, a repeated run, one eval with
 * two names or prompts, no runs), -EEXIST (dir not empty), -EFBIG (a
 * workspace over fsutil.h's tree limits), or what the file system said. */
int upk_agentskills_write(const char *dir, const char *skill_name, const char *skill_path,
                          const upk_as_run *runs, size_t n, char *err, size_t errlen);

#endif
