/* The HTML writer (html.h). */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int upk_html_init(upk_html *h) {
  memset(h, 0, sizeof *h);
  h->f = upk_xmemstream(&h->buf, &h->len);
  return 0;
}

void upk_html_free(upk_html *h) {
  if (h->f)
    fclose(h->f);
  free(h->buf);
  memset(h, 0, sizeof *h);
}

char *upk_html_take(upk_html *h, size_t *len) {
  bool ok = h->f && fclose(h->f) == 0 && !h->oom;
  h->f = NULL;
  char *out = ok ? h->buf : NULL;
  if (len)
    *len = ok ? h->len : 0;
  if (!ok)
    free(h->buf);
  memset(h, 0, sizeof *h);
  return out;
}

static void append(upk_html *h, const char *s, size_t n) {
  if (h->f && !h->oom && n && fwrite(s, 1, n, h->f) != n)
    h->oom = true;
}

void upk_html_raw(upk_html *h, const char *markup) {
  append(h, markup, strlen(markup));
}

void upk_html_rawf(upk_html *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (h->f && !h->oom && vfprintf(h->f, fmt, ap) < 0)
    h->oom = true;
  va_end(ap);
}

/* Where to cut `text` to at most `max` bytes without splitting a UTF-8
 * sequence: back off over continuation bytes. */
static size_t cut_at(const char *text, size_t len, size_t max) {
  if (!max || len <= max)
    return len;
  while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
    max--;
  return max;
}

void upk_html_text_n(upk_html *h, const char *text, size_t max) {
  if (!text)
    return;
  size_t len = strlen(text), n = cut_at(text, len, max), run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)text[i];
    const char *rep = c == '&'    ? "&amp;"
                      : c == '<'  ? "&lt;"
                      : c == '>'  ? "&gt;"
                      : c == '"'  ? "&quot;"
                      : c == '\'' ? "&#39;"
                      /* C0 controls but tab and newlines are not allowed in HTML text */
                      : (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F
                          ? "\xEF\xBF\xBD"
                          : NULL;
    if (!rep)
      continue;
    append(h, text + run, i - run);
    upk_html_raw(h, rep);
    run = i + 1;
  }
  append(h, text + run, n - run);
  if (n < len)
    upk_html_raw(h, "\xE2\x80\xA6"); /* … */
}

void upk_html_text(upk_html *h, const char *text) {
  upk_html_text_n(h, text, 0);
}

void upk_html_textf(upk_html *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = upk_xvasprintf(fmt, ap);
  va_end(ap);
  upk_html_text(h, s);
  free(s);
}

void upk_html_elem(upk_html *h, const char *tag, const char *cls, const char *text) {
  if (cls)
    upk_html_rawf(h, "<%s class=\"%s\">", tag, cls);
  else
    upk_html_rawf(h, "<%s>", tag);
  upk_html_text(h, text);
  upk_html_rawf(h, "</%s>\n", tag);
}

/* Colours: baseline grey, with the skill blue, verdicts green / red / amber /
 * grey; each chart also says in text what a colour means. */
static const char STYLE[] =
    "<style>\n"
    ":root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--base:#8c959f;--skill:#0969da;"
    "--b2:#bf8700;--s2:#8250df;--pass:#2da44e;--fail:#cf222e;--error:#9a6700;--skip:#afb8c1}\n"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
    "max-width:1000px;margin:24px auto;padding:0 16px}\n"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid "
    "var(--line);padding-bottom:4px}\n"
    "table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid var(--line);padding:3px "
    "8px;text-align:left;vertical-align:top}th{background:#f6f8fa}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:8px 0}"
    "dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;font-family:ui-monospace,monospace}\n"
    "svg{display:block;max-width:100%;height:auto;margin:8px 0}svg text{font:12px system-ui,"
    "sans-serif;fill:var(--fg)}svg .axis{stroke:var(--line)}svg .zero{stroke:var(--muted)}\n"
    "svg .s0{fill:var(--base)}svg .s1{fill:var(--skill)}svg .s2{fill:var(--b2)}svg .s3{fill:"
    "var(--s2)}svg .err{stroke:var(--fg);stroke-width:1.5}svg .muted{fill:var(--muted)}\n"
    "svg .warps{fill:#0969da}svg .registers{fill:#cf222e}svg .shared-memory{fill:#8250df}"
    "svg .blocks{fill:#bf8700}svg .none{fill:var(--skip)}svg .mark{stroke:var(--fg);"
    "stroke-dasharray:4 3}svg .kept{stroke:var(--fg);stroke-width:2;fill:none}\n"
    ".legend span{display:inline-block;margin-right:14px}.sw{display:inline-block;width:10px;"
    "height:10px;margin-right:4px;vertical-align:middle}\n"
    ".sw.s0{background:var(--base)}.sw.s1{background:var(--skill)}.sw.s2{background:var(--b2)}"
    ".sw.s3{background:var(--s2)}\n"
    "td.cell{min-width:90px}td.pass{background:#dafbe1}td.fail{background:#ffebe9}"
    "td.mixed{background:#fff8c5}td.error{background:#fff1e5}td.skipped,td.none{background:"
    "#f6f8fa}\n"
    ".chip{display:inline-block;padding:0 5px;margin:1px;border-radius:3px;font-size:12px;"
    "color:#fff}.chip.pass{background:var(--pass)}.chip.fail{background:var(--fail)}"
    ".chip.error{background:var(--error)}.chip.skipped,.chip.pending{background:var(--skip);"
    "color:var(--fg)}\n"
    "details summary{cursor:pointer}pre{white-space:pre-wrap;word-break:break-word;background:"
    "#f6f8fa;padding:6px;margin:4px 0;max-height:24em;overflow:auto;font-size:12px}\n"
    ".muted{color:var(--muted)}.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 24px}"
    ".pair dd{overflow-wrap:anywhere}\n"
    "@media print{body{max-width:none;margin:0}details{break-inside:avoid}pre{max-height:none}"
    "h2{break-after:avoid}svg{break-inside:avoid}}\n"
    "</style>\n";

void upk_html_begin(upk_html *h, const char *title) {
  upk_html_raw(h, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>");
  upk_html_text(h, title);
  upk_html_raw(h, "</title>\n");
  upk_html_raw(h, STYLE);
  upk_html_raw(h, "</head>\n<body>\n");
  upk_html_elem(h, "h1", NULL, title);
}

void upk_html_end(upk_html *h) {
  upk_html_raw(h, "</body>\n</html>\n");
}

void upk_fmt_pct(char *buf, size_t len, double v, bool sign) {
  double pts = round(100 * v);
  if (!isfinite(v))
    snprintf(buf, len, "-");
  else /* no "-0%" */
    snprintf(buf, len, sign && pts != 0 ? "%+.0f%%" : "%.0f%%", pts == 0 ? 0.0 : pts);
}
