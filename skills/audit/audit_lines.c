/* Where each line of a file starts, and the line an offset is on: every audit layer reports
 * findings at their line (audit_yara.c, audit_intent.c). */
#include <stdlib.h>

#include "common/xalloc.h"
#include "skills/audit/audit_int.h"

void upk__audit_lines_make(upk__audit_lines *l, const char *data, size_t len) {
  size_t n = 1;
  for (size_t i = 0; i < len; i++)
    n += data[i] == '\n';
  l->starts = upk_xmalloc(n * sizeof *l->starts);
  l->starts[0] = 0;
  for (size_t i = 0, k = 1; i < len; i++)
    if (data[i] == '\n')
      l->starts[k++] = i + 1;
  l->n = (int)n;
}

int upk__audit_line_of(const upk__audit_lines *l, size_t off) {
  int lo = 0, hi = l->n;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (l->starts[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void upk__audit_lines_free(upk__audit_lines *l) {
  free(l->starts);
  l->starts = NULL;
  l->n = 0;
}
