#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s) {
  return s ? strdup(s) : NULL;
}

/* Room for one more item. */
static int diags__grow(upk_diags *d) {
  if (d->len < d->cap)
    return 0;
  size_t cap = d->cap ? d->cap * 2 : 8;
  upk_diag *p = realloc(d->items, cap * sizeof *p);
  if (!p)
    return -ENOMEM;
  d->items = p;
  d->cap = cap;
  return 0;
}

int upk_diags_add(upk_diags *d, upk_severity sev, const char *code, const char *source,
                  upk_range range, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = upk_diags_vadd(d, sev, code, source, range, fmt, ap);
  va_end(ap);
  return rc;
}

int upk_diags_vadd(upk_diags *d, upk_severity sev, const char *code, const char *source,
                   upk_range range, const char *fmt, va_list ap) {
  if (diags__grow(d))
    return -ENOMEM;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  upk_diag *x = &d->items[d->len++];
  x->severity = sev;
  x->code = dup_or_null(code);
  x->source = dup_or_null(source);
  x->message = strdup(msg);
  x->file = NULL;
  x->range = range;
  return 0;
}

size_t upk_diags_count(const upk_diags *d, upk_severity sev) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += d->items[i].severity == sev;
  return n;
}

int upk_diags_take(upk_diags *to, upk_diags *from) {
  for (size_t i = 0; i < from->len; i++) {
    if (diags__grow(to))
      return -ENOMEM;
    to->items[to->len++] = from->items[i];
  }
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
  }
  free(d->items);
  d->items = NULL;
  d->len = d->cap = 0;
}

upk_range upk_range_line(int line, int col, int end_col) {
  upk_range r = {line, col, line, end_col};
  return r;
}
