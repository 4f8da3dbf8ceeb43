/** Helpers shared by the skills sources (not part of the API). */
#ifndef UPK_SKILL_INTERNAL_H
#define UPK_SKILL_INTERNAL_H

#include <stddef.h>

#include "common/diag.h"
#include "skills/skill.h"

/** Line starts of a text, for turning byte offsets into LSP positions. A line
 * ends at "\n", "\r\n" or a lone "\r" (as libyaml and cmark count them). */
typedef struct upk_linemap {
  const char *text;
  size_t len;
  size_t *start; /* start[i]: offset of line i; start[n] == len */
  size_t n;
} upk_linemap;

int upk_lm_init(upk_linemap *lm, const char *text, size_t len);
void upk_lm_free(upk_linemap *lm);
/** The line holding byte offset `off`. */
int upk_lm_line(const upk_linemap *lm, size_t off);
/** The UTF-16 column of byte offset `off` on its line. */
int upk_lm_col(const upk_linemap *lm, size_t off);
/** Byte offset of the `cp_col`-th code point of `line` (clamped to the line). */
size_t upk_lm_offset(const upk_linemap *lm, int line, size_t cp_col);
/** Byte offset just past the content of `line` (before its line break). */
size_t upk_lm_line_end(const upk_linemap *lm, int line);
/** The range of bytes [b, e). */
upk_range upk_lm_range(const upk_linemap *lm, size_t b, size_t e);

/** upk_diags_add with the skills source. */
int upk_sdiag(upk_diags *d, upk_severity sev, const char *code, upk_range r, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Fill headings, code blocks, references and body_lines from s->body
 * (which starts at byte `body_off` of the text `lm` maps). */
int upk_skill_scan_body(upk_skill *s, const upk_linemap *lm, size_t body_off);
/** upskill's token estimate: whitespace-separated words x 1.3. */
size_t upk_skill_tokens(const char *text, size_t len);

#endif
