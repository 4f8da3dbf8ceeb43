/* A kernel's name without its template arguments (kernel_name.h). */
#include "report/kernel_name.h"

#include <string.h>

const char *upk_kernel_base_name(const char *name, size_t *n) {
  const char *lt = strchr(name, '<'), *b = name;
  const char *end = lt ? lt : name + strlen(name);
  for (const char *q = name; q < end; q++)
    if (*q == ' ')
      b = q + 1;
  *n = (size_t)(end - b);
  return b;
}
