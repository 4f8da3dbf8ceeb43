/** Test cases for skill evaluation, in upskill's schema plus assertions that
 * can fail a bad skill.
 *
 * upskill's test case (see meta.h): {"input", "context"?: {"files"},
 * "expected": {"contains": str | [str]}, "output_file"?, "validator"?,
 * "validator_config"?}. Read here as well:
 *
 *   "expected": {"contains": ..., "not_contains": str | [str],
 *                "regex": str | [str],
 *                "compiles": true | "sm_90" | {"arch": "sm_90"},
 *                "resources": {"maxRegisters": 64, "noSpills": true, "arch"?: "sm_90a"},
 *                "expect": [str], "files": [str], "tools": [str],
 *                "script": "cmd" | {"command", "timeoutMs"?, "exit"?},
 *                "diff": {"changed"?: [glob], "unchanged"?: [glob], "only"?: bool},
 *                "kernel": {"path", "arch"?, "resources"?: {...}, "run"?: {...}}}
 *
 * and the same extra members inside "validator_config" when "validator" is
 * "upskilld". Written back, the extras always go to that validator_config, so
 * every file written here is one upskill itself reads (an unknown validator
 * falls back to `contains` there) and one meta.c's strict reader accepts.
 *
 * A case must assert something: a case with no assertion cannot fail. Bad
 * cases are reported as diagnostics and left out; the good ones are kept.
 */
#ifndef UPK_EVALCASE_H
#define UPK_EVALCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skills/eval/assertion.h"
#include "common/diag.h"
#include "skills/meta.h"

/** The validator name under which the extra assertions travel. */
#define UPK_EVALCASE_VALIDATOR "upskilld"

typedef struct upk_evalcase {
  char *input;
  upk_meta_file *files; /* context.files, in order */
  size_t n_files;
  upk_assertion *asserts; /* contains first (when present), then the others */
  size_t n_asserts;
  char *output_file;      /* kept for upskill; NULL when absent or null */
  char *validator;        /* a foreign validator name, kept verbatim; never "upskilld" */
  char *validator_config; /* its config as compact JSON text */
  size_t number;          /* 1 + its place in the tests file; 0: its place in the list */
} upk_evalcase;

/** A case of the tests file left out because it was refused: its place and the first reason. */
typedef struct upk_evalcase_refusal {
  size_t number; /* 0-based place in the tests file, as upk_evalcases_number */
  char *reason;  /* the first error diagnostic's message */
} upk_evalcase_refusal;

typedef struct upk_evalcases {
  upk_evalcase *items;
  size_t n;
  upk_evalcase_refusal *refused; /* the cases left out, in file order */
  size_t n_refused;
} upk_evalcases;

/** The 0-based number the user knows case i by: its place in the tests file it was read from
 * (cases refused before it keep their numbers), else its place in the list. */
size_t upk_evalcases_number(const upk_evalcases *c, size_t i);

/** Parse a tests document: a bare list, {"cases": [...]} or a whole
 * skill_meta.json ({"metadata", "tests"}). Returns 0 when every case was
 * good, -EINVAL when the JSON is unusable or some case was bad (diagnostics
 * say which; the good cases are in *out), -ENOMEM. */
int upk_evalcases_parse(const char *text, size_t len, upk_evalcases *out, upk_diags *diags);
/** Read a tests file or skill_meta.json (same returns, plus -errno for I/O): not through a
 * link, never a FIFO (-EINVAL), at most UPK_SKILL_MAX_BYTES (-EFBIG); common/fileio.h. */
int upk_evalcases_read(const char *path, upk_evalcases *out, upk_diags *diags);
/** The cases of a skill_meta.json already read with meta.h. */
int upk_evalcases_from_meta(const upk_skill_meta *m, upk_evalcases *out, upk_diags *diags);
/** Replace m's tests with these cases (for upk_meta_write). Returns 0 or -ENOMEM. */
int upk_evalcases_to_meta(const upk_evalcases *c, upk_skill_meta *m);
/** {"cases": [...]} as JSON text (indent 2, final newline), upskill-readable. */
char *upk_evalcases_dump(const upk_evalcases *c);
/** Write upk_evalcases_dump atomically. */
int upk_evalcases_write(const char *path, const upk_evalcases *c);

/** The user prompt of a case as upskill builds it: the input, then each
 * context file as a fenced block under its name. The same text is sent with
 * and without the skill. malloc'd; NULL on ENOMEM. */
char *upk_evalcase_prompt(const upk_evalcase *c);

/** How many assertions of kind `k` the cases hold (a `script` runs a program: the caller
 * decides whether their source may; docs/security.md "Eval scripts"). */
size_t upk_evalcases_count_kind(const upk_evalcases *c, upk_assert_kind k);

/** Append a deep copy of a case. */
int upk_evalcases_add(upk_evalcases *c, const upk_evalcase *item);
void upk_evalcase_free(upk_evalcase *c);
void upk_evalcases_free(upk_evalcases *c);

/** A deterministic split into a refinement set and a held-out set: each case
 * is ranked by a keyed hash of (seed, its input), so the split depends on the
 * seed and the cases' content, not on their order or the platform. With n >= 2
 * and fraction > 0 the held-out set gets round(n * fraction) cases, at least 1
 * and at most n - 1; with n < 2 or fraction 0 everything is for refinement. Index arrays are
 * malloc'd, in ascending order. Returns 0, -EINVAL (fraction outside [0, 1)), -ENOMEM. */
int upk_evalcases_split(const upk_evalcases *c, uint64_t seed, double holdout_fraction,
                        size_t **refine, size_t *n_refine, size_t **holdout, size_t *n_holdout);

#endif
