#include "common/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static char *dup_or_null(const char *s) {
  return s ? upk_xstrdup(s) : NULL;
}

int upk_diags_add(upk_diags *d, upk_severity sev, const char *code, const char *source,
                  upk_range range, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = upk_diags_vadd(d, sev, code, source, range, fmt, ap);
  va_end(ap);
  return rc;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0: overlong forms, surrogates, values
 * above U+10FFFF and cut sequences are invalid, as jansson and JSON clients have them. */
static int utf8_seq(const unsigned char *s) {
  unsigned c = s[0];
  if (c < 0x80)
    return 1;
  int n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
      (c == 0xf4 && s[1] > 0x8f))
    return 0;
  return n;
}

void upk_utf8_scrub(char *s) {
  unsigned char *p = (unsigned char *)s;
  while (*p) {
    int n = utf8_seq(p);
    if (n)
      p += n;
    else
      *p++ = '?';
  }
}

int upk_diags_vadd(upk_diags *d, upk_severity sev, const char *code, const char *source,
                   upk_range range, const char *fmt, va_list ap) {
  return upk_diags_vaddp(d, sev, code, source, range, NULL, fmt, ap);
}

int upk_diags_vaddp(upk_diags *d, upk_severity sev, const char *code, const char *source,
                    upk_range range, const char *prefix, const char *fmt, va_list ap) {
  UPK_GROW(d->items, d->cap, d->len + 1);
  char msg[1024];
  int n = prefix ? snprintf(msg, sizeof msg, "%s: ", prefix) : 0;
  if (n < 0 || (size_t)n >= sizeof msg)
    n = 0;
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  upk_utf8_scrub(msg); /* messages quote input (and may cut it): they must stay JSON strings */
  upk_diag *x = &d->items[d->len++];
  x->severity = sev;
  x->code = dup_or_null(code);
  x->source = dup_or_null(source);
  x->message = upk_xstrdup(msg);
  x->file = NULL;
  x->range = range;
  x->category = x->evidence = x->rule = NULL;
  x->reason = NULL;
  return 0;
}

size_t upk_diags_count(const upk_diags *d, upk_severity sev) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += d->items[i].severity == sev;
  return n;
}

int upk_diags_take(upk_diags *to, upk_diags *from) {
  UPK_GROW(to->items, to->cap, to->len + from->len);
  for (size_t i = 0; i < from->len; i++)
    to->items[to->len++] = from->items[i];
  free(from->items);
  from->items = NULL;
  from->len = from->cap = 0;
  return 0;
}

void upk_diags_free(upk_diags *d) {
  for (size_t i = 0; i < d->len; i++) {
    free(d->items[i].code);
    free(d->items[i].source);
    free(d->items[i].message);
    free(d->items[i].file);
    free(d->items[i].category);
    free(d->items[i].evidence);
    free(d->items[i].rule);
  }
  free(d->items);
  d->items = NULL;
  d->len = d->cap = 0;
}

upk_range upk_range_line(int line, int col, int end_col) {
  upk_range r = {line, col, line, end_col};
  return r;
}

int upk_utf16_units(const char *s, size_t bytes) {
  int n = 0;
  for (size_t i = 0; i < bytes && s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xC0) != 0x80)
      n += c >= 0xF0 ? 2 : 1; /* a 4-byte sequence is a surrogate pair */
  }
  return n;
}

/* Byte column `col` of zero-based `line` in `src`, as UTF-16 units; unchanged when the line
 * is past the end. `starts` caches the start of each line seen so far. */
static int line_col_utf16(const char *src, size_t len, size_t **starts, size_t *n_starts, int line,
                          int col) {
  if (line < 0 || col <= 0)
    return col;
  if (!*n_starts) {
    size_t n = 1, k = 1;
    for (size_t i = 0; i < len; i++)
      n += src[i] == '\n';
    *starts = upk_xmalloc(n * sizeof **starts);
    (*starts)[0] = 0;
    for (size_t i = 0; i < len; i++)
      if (src[i] == '\n')
        (*starts)[k++] = i + 1;
    *n_starts = n;
  }
  if ((size_t)line >= *n_starts)
    return col;
  size_t at = (*starts)[line], end = (size_t)line + 1 < *n_starts ? (*starts)[line + 1] : len;
  size_t bytes = (size_t)col < end - at ? (size_t)col : end - at;
  return upk_utf16_units(src + at, bytes) + (col - (int)bytes); /* past the end: as given */
}

void upk_diags_utf16_columns(upk_diags *d, size_t from, const char *src, size_t len) {
  size_t *starts = NULL, n = 0;
  for (size_t i = from; src && i < d->len; i++) {
    upk_range *r = &d->items[i].range;
    if (d->items[i].file)
      continue;
    r->col = line_col_utf16(src, len, &starts, &n, r->line, r->col);
    r->end_col = line_col_utf16(src, len, &starts, &n, r->end_line, r->end_col);
  }
  free(starts);
}
