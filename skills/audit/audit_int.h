/* The audit's parts (audit.c walks the skill and runs the detectors on each file; audit_yara.c
 * scans text; audit_lang.c names a file's language; adjudicate.c sets severities and counts).
 * Internal to skills/audit/. */
#ifndef UPK_AUDIT_INT_H
#define UPK_AUDIT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/audit.h"

/* ---- the pipeline: detectors, then adjudication ---- */

/* One file as every detector sees it. */
typedef struct upk__audit_file {
  const char *rel; /* its path in the skill */
  const char *data;
  size_t len;
  const char *lang;  /* upk__audit_lang's */
  int timeout_s;     /* the text rules' time for it (<= 0: the skill's time is spent) */
  size_t rules_from; /* the text rules' first finding (the intent layer judges those) */
} upk__audit_file;

/* What a detector's scan returns besides 0: the file needs nothing more (a binary: no more to
 * read, nor to adjudicate), or a negative errno when it could not finish (the detectors after
 * it and the file's adjudication do not run: what they would judge is incomplete). */
#define UPK__AUDIT_DONE 1

/* A detector: reads one file and adds what it finds to `findings` at the severity its rule
 * gives (audit.c runs them in a fixed order: size, binary, encoding, blobs, rules, intent). */
typedef struct upk__audit_detector {
  const char *name;
  int (*scan)(const upk__audit_file *f, upk_diags *findings);
} upk__audit_detector;

/** The one way a finding's severity changes once reported: set to `sev`, with `reason` (a
 * static string) recorded on it. Each change the audit makes goes through here. */
void upk__audit_adjust(upk_diag *d, upk_severity sev, const char *reason);
/** upk__audit_adjust that only ever raises: the way for a detector whose word may add or raise
 * but never lower (a model's judgement of another detector's finding). */
void upk__audit_raise(upk_diag *d, upk_severity sev, const char *reason);
/** The adjudication of one file's findings, out->items[from..], after its detectors: a high one
 * in a table's column of what not to do lowered (audit_table.c). */
void upk__audit_adjudicate_file(const upk__audit_file *f, upk_diags *out, size_t from);
/** The adjudication of a whole skill's findings, out->items[from..]: a download from the
 * skill's own publisher lowered (audit_publisher.c). */
void upk__audit_adjudicate_skill(upk_diags *out, size_t from, const char *skill_root);
/** The one count: high findings in out->items[from..]. */
int upk__audit_highs(const upk_diags *out, size_t from);

/** The language of a skill's file, from its extension and else its shebang: "sh", "python",
 * "js", "powershell", "ruby", "perl", "batch", "dockerfile", "markdown", "text" or "other". */
const char *upk__audit_lang(const char *rel, const char *data, size_t len);
/** Whether `lang` is a scripting language (not prose, not "other"). */
bool upk__audit_is_script(const char *lang);

/* The text the rules scan: long runs of one repeated unit cut short, offsets mapped back to
 * the file's (audit_runs.c). */
typedef struct upk__audit_view {
  const char *data; /* the file itself when nothing was cut */
  size_t len;
  char *own;
  size_t *vat, *oat, n; /* from view offset vat[i] on, the file's offset is oat[i] + ... */
} upk__audit_view;

void upk__audit_view_make(upk__audit_view *v, const char *data, size_t len);
size_t upk__audit_view_orig(const upk__audit_view *v, size_t at);
void upk__audit_view_free(upk__audit_view *v);

/** Scan one file's bytes with the rules, for at most `timeout_s` seconds: findings into `out`
 * (a Markdown file's code blocks scanned again as scripts). Returns 0, -EINVAL when the rules
 * did not compile, -ETIMEDOUT, -ENOMEM or -EIO. */
int upk__audit_scan(const char *rel, const char *data, size_t len, const char *lang, int timeout_s,
                    upk_diags *out);
/** Whether the secrets a match at data[at, at + n) names go to their own service: each
 * environment variable in it with a vendor word (GITHUB of GITHUB_TOKEN, SLACK of SLACK_BOT_TOKEN)
 * has that word in the host of a URL near the match (its line, the six before, the two after;
 * the whole file when those hold no URL); one without a vendor word (API_KEY) only as the value
 * of an API-key query parameter (`?key=`, `&access_token=`). */
bool upk__audit_own_service(const char *data, size_t len, size_t at, size_t n);
/** Lower to medium each high audit/download-exec finding of out->items[from..] whose evidence
 * names URLs that all belong to the metadata.author of the skill at `skill_root` (read only
 * when there is such a finding): the owner on a code host, or a label of the host. */
void upk__audit_publisher_own(upk_diags *out, size_t from, const char *skill_root);

/* High findings [from, out->len) of file `rel` (of language `lang`, upk__audit_lang's) that sit
 * in a table's column of what not to do (a CSV's or a Markdown table's "Don't", "Avoid", "Bad"
 * column) lowered to medium. */
void upk__audit_table_counter(const char *rel, const char *lang, const char *data, size_t len,
                              upk_diags *out, size_t from);
/** Whether the variable a match at data[at, at + n) deletes under (`rm -rf "$X"/` and a glob) is
 * one the file sets, reads, checks or defaults, or the shell stops on unset names (`set -u`), or
 * the login or a CI runner always sets: true drops the match (audit_unset.c). */
bool upk__audit_unset_var(const char *data, size_t len, size_t at, size_t n);
/* A Markdown code block: the file's bytes [at, at + len) (its content lines, whole) and the
 * language its info string names, or NULL for a detection rule (Sigma, YARA, KQL, SPL, Snort),
 * whose strings are what it searches for (audit_md.c). */
typedef struct upk__audit_block {
  size_t at, len;
  const char *lang;
} upk__audit_block;

/** The code blocks of a Markdown file to scan as scripts (fenced and indented; not other data
 * such as JSON, not one presented as what not to do), its detection rules, and the inline code
 * spans of steps that read as command lines (as shell; not in a paragraph that warns, quotes
 * or waits for the user's yes), in file order, into *out (the caller frees it). Returns their
 * number. */
size_t upk__audit_md_blocks(const char *data, size_t len, upk__audit_block **out);

/* Each line's start offset in a file the audit read (at most READ_MAX bytes, so an int
 * counts its lines); audit_lines.c. */
typedef struct upk__audit_lines {
  size_t *starts;
  int n;
} upk__audit_lines;

void upk__audit_lines_make(upk__audit_lines *l, const char *data, size_t len);
/** The zero-based line holding byte `off`. */
int upk__audit_line_of(const upk__audit_lines *l, size_t off);
void upk__audit_lines_free(upk__audit_lines *l);

/** NULL when the embedded rules compiled; else why not (a build defect). */
const char *upk__audit_rules_error(void);

#endif
