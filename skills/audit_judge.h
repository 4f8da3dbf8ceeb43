/** The audit's second reader: the user's own model reads the whole skill beside the rules'
 * findings and may add findings the rules cannot see (a risk said only in prose). The skill is
 * hostile input to that reader, so what the judge says is checked, never trusted:
 *   - the skill's text reaches it as data between boundaries drawn at random per request;
 *   - its answer must validate against a fixed schema (upk_judge_parse), else it failed;
 *   - a judge finding counts only when its quote occurs (whitespace-normalised) in the file it
 *     names, as that file was sent; the others are listed as unverified, never counted;
 *   - it never removes or lowers a rule finding: its disagreement becomes a note.
 * Pure functions (no I/O beyond reading the skill's files, no model call): any thread.
 */
#ifndef UPK_AUDIT_JUDGE_H
#define UPK_AUDIT_JUDGE_H

#include <jansson.h>
#include <stddef.h>

#include "common/diag.h"

#define UPK_JUDGE_SOURCE "upskilld-judge"
/** Changes whenever the rubric or the schema does: part of the cache key. */
#define UPK_JUDGE_RUBRIC_VERSION "1"
/** What is sent of the skill's files by default, in bytes (about 4 bytes a token). */
#define UPK_JUDGE_BUDGET (96 * 1024)

/** What the judge reads of one skill, and what its answer is checked against. */
typedef struct upk_judge_input {
  char *system;      /* the fixed rubric and schema */
  char *prompt;      /* the findings and the skill's files, between the boundaries */
  char boundary[48]; /* this request's random boundary */
  char hash[65];     /* sha256 of the files sent, in order, with their names */
  json_t *files;     /* {rel: text}: exactly what was sent */
  json_t *left_out;  /* [{file, bytes, why}]: what was not sent (budget, binary, unreadable) */
  size_t rule_high;  /* the rules' high findings (a "safe" verdict is a note beside them) */
} upk_judge_input;

/** Read skill directory `dir` (its regular files, no link followed, at most `budget` bytes in
 * all, SKILL.md first) and the rules' findings `rules` into `in`. Returns 0 or a negative
 * errno when `dir` cannot be read. */
int upk_judge_prepare(const char *dir, const upk_diags *rules, size_t budget, upk_judge_input *in);
void upk_judge_input_free(upk_judge_input *in);

/** Parse and validate the judge's answer (a JSON object, fenced or not): {"verdict":
 * "safe"|"risky"|"malicious", "findings": [{category, severity: high|medium|low, file, quote,
 * why}], "disagree": [{code, file, why}] (optional)}. Returns 0 with *out (the caller frees),
 * or -EINVAL with the reason in `why`. */
int upk_judge_parse(const char *answer, json_t **out, char *why, size_t whylen);

/** Add the answer's verified findings to `out` (source UPK_JUDGE_SOURCE, code judge/CATEGORY,
 * the file and line of the quote); append the unverified ones to `unverified` and the judge's
 * disagreements with rule findings to `notes` (strings). Rule findings are never touched.
 * Returns the number of verified findings. */
size_t upk_judge_merge(const json_t *answer, const upk_judge_input *in, upk_diags *out,
                       json_t *unverified, json_t *notes);

/** Whether `quote` occurs in `text` with runs of white space taken as one space; *line (0-based)
 * is the line where it starts. */
int upk_judge_quote_line(const char *text, const char *quote, int *line);

#endif
