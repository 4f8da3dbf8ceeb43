/** upskillctl's output reaches a terminal only as text.
 *
 * What upskillctl prints carries text it did not write: skill names and descriptions, audit
 * findings and their evidence, compiler messages, a trace, a model's answer. A stranger's
 * `\x1b]0;…\x07` would retitle the terminal, `\x1b[2J` clear it, a bidi override (U+202E)
 * reorder what the reader sees. ctl_term_guard() puts a filter under stdout and stderr, the one
 * choke point every print goes through: control characters other than newline and tab (ESC,
 * CR, BEL, DEL, the C1 range) and the bidi controls are written as visible escapes (`\x1b`,
 * `\u202e`). JSON output holds no raw control character (jansson escapes them), and the
 * escapes this writes inside a JSON string are JSON's own, so --json stays valid and means the
 * same. */
#ifndef UPK_CTL_TERM_H
#define UPK_CTL_TERM_H

#include <stddef.h>
#include <stdio.h>

/** Install the filter under stdout and stderr (before anything is printed). */
void ctl_term_guard(void);

/** Write upskillctl's own control sequence (the progress line's `\r\033[K`) to f's terminal,
 * past the filter, after what f holds. */
void ctl_term_raw(FILE *f, const char *seq);

/** in[0, n) escaped into out (room for 6 * n bytes); *used: the bytes of in consumed (all but
 * a UTF-8 sequence the end cuts). Returns the bytes written to out. */
size_t ctl_term_escape(const char *in, size_t n, char *out, size_t *used);

#endif
