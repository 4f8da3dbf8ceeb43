/** Diagnostics: the one shape every check in upskilld reports in.
 *
 * Skill validation, kernel compile errors, lint, runtime failures and
 * install refusals all produce upk_diag values; the daemon turns them into
 * LSP Diagnostic objects (zero-based line/character ranges). Codes are stable
 * and documented in docs/diagnostics.md.
 */
#ifndef UPK_DIAG_H
#define UPK_DIAG_H

#include <stdarg.h>
#include <stddef.h>

typedef enum {
  UPK_SEV_ERROR = 1,
  UPK_SEV_WARNING = 2,
  UPK_SEV_INFO = 3,
  UPK_SEV_HINT = 4,
} upk_severity;

/** A zero-based range; end is exclusive. -1 lines mean "the whole file". */
typedef struct upk_range {
  int line, col, end_line, end_col;
} upk_range;

typedef struct upk_diag {
  upk_severity severity;
  char *code;    /* stable identifier, e.g. "skill/name-uppercase" */
  char *source;  /* "upskilld-skill", "nvrtc", "ptxas", ... */
  char *message; /* one sentence a person can act on */
  char *file;    /* path the range refers to; NULL: the file being checked */
  upk_range range;
  char *category;     /* optional (NULL): a group of codes, e.g. "reverse-shell" (the audit's) */
  char *evidence;     /* optional (NULL): the text the check matched, trimmed and escaped */
  const char *reason; /* optional (NULL): why the check raised or lowered the severity it first
                         gave (a static string; the audit's adjudication, audit_int.h) */
  char *rule;         /* optional (NULL): the rule that made it, by its own name (the audit's: a
                         YARA rule, or a row of the intent layer's severity table) */
} upk_diag;

typedef struct upk_diags {
  upk_diag *items;
  size_t len, cap;
} upk_diags;

/** Append a diagnostic; strings are copied. Returns 0 (memory exhaustion aborts, common/xalloc.h:
 * the int stays for the callers that still test it). */
int upk_diags_add(upk_diags *d, upk_severity sev, const char *code, const char *source,
                  upk_range range, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/** upk_diags_add for callers that wrap it in their own printf-like helper. */
int upk_diags_vadd(upk_diags *d, upk_severity sev, const char *code, const char *source,
                   upk_range range, const char *fmt, va_list ap);
/** upk_diags_vadd with "PREFIX: " before the message (the place in the input it is about):
 * the wrappers that name a file or a key on every message use this one. */
int upk_diags_vaddp(upk_diags *d, upk_severity sev, const char *code, const char *source,
                    upk_range range, const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 7, 0)));
/** Count diagnostics of a severity. */
size_t upk_diags_count(const upk_diags *d, upk_severity sev);
/** Move all of `from` to the end of `to` (from becomes empty). */
int upk_diags_take(upk_diags *to, upk_diags *from);
void upk_diags_free(upk_diags *d);

/** A range covering columns [col, end_col) of one line. */
upk_range upk_range_line(int line, int col, int end_col);

/** Replace, in place, every byte of `s` that is not part of a valid UTF-8 sequence by '?'
 * (text quoted from input, or cut by a fixed buffer, stays sendable as a JSON string).
 * upk_diags_add does it to every message. */
void upk_utf8_scrub(char *s);

/** UTF-16 code units in the first `bytes` bytes of UTF-8 text `s` (stops at a NUL). */
int upk_utf16_units(const char *s, size_t bytes);
/** Diagnostics [from, d->len) whose `file` is NULL count columns in bytes of `src`: make them
 * count UTF-16 code units, LSP's default, as the compiler's diagnostics do. */
void upk_diags_utf16_columns(upk_diags *d, size_t from, const char *src, size_t len);

#endif
