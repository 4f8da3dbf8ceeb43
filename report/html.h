/** A small writer for self-contained HTML reports with inline SVG charts.
 *
 * One growing buffer (an open_memstream stream); every function appends. Text that came from
 * outside (model names, prompts, answers, kernel names) goes through upk_html_text, which escapes &
 * < > " ' and replaces control characters, so it is safe in element content and in quoted
 * attributes alike; upk_html_raw is for the writer's own markup only. Numbers in SVG are printed
 * with one decimal so that the same data gives the same bytes (reports diff cleanly). An allocation
 * failure is remembered and reported once by upk_html_take. Plain C: no JSON, no libuv, no
 * protocol.
 */
#ifndef UPK_REPORT_HTML_H
#define UPK_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct upk_html {
  FILE *f; /* NULL: could not open, or taken */
  char *buf;
  size_t len;
  bool oom;
} upk_html;

/** Returns 0 or -ENOMEM (then every append is a no-op and take gives NULL). */
int upk_html_init(upk_html *h);
void upk_html_free(upk_html *h);
/** The document (NUL-terminated, *len without the NUL); the writer is empty
 * after. NULL when an allocation failed on the way. */
char *upk_html_take(upk_html *h, size_t *len);

/** Trusted markup, as is. */
void upk_html_raw(upk_html *h, const char *markup);
void upk_html_rawf(upk_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Untrusted text, escaped; NULL writes nothing. At most `max` bytes of it
 * (0: all), cut on a UTF-8 boundary and followed by an ellipsis when cut. */
void upk_html_text_n(upk_html *h, const char *text, size_t max);
void upk_html_text(upk_html *h, const char *text);
/** Formatted, then escaped (for text built from untrusted parts). */
void upk_html_textf(upk_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** <tag class="cls">text</tag>, text escaped; cls may be NULL. */
void upk_html_elem(upk_html *h, const char *tag, const char *cls, const char *text);

/** <!doctype html> ... <body>: charset, viewport, the report's stylesheet
 * (inline; prints well), and <h1>title</h1>. No script. */
void upk_html_begin(upk_html *h, const char *title);
void upk_html_end(upk_html *h);

/** A rate in [0, 1] as whole percent points, "42%" ("+42%" with sign), or
 * "-" for NaN. */
void upk_fmt_pct(char *buf, size_t len, double v, bool sign);

#endif
