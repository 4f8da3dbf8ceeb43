/* The intent tests' shared reading of a result: the most severe finding and its rule id. */
#ifndef UPK_TESTS_AUDIT_INTENT_WORST_H
#define UPK_TESTS_AUDIT_INTENT_WORST_H

#include <stdio.h>
#include <string.h>

#include "common/diag.h"
#include "skills/audit/audit_intent.h"

/* The most severe of `d`'s findings (0 when none), its rule id into *id (a static buffer);
 * frees `d`. */
static inline int worst_of(upk_diags *d, const char **id) {
  static char code[64];
  int w = 0;
  code[0] = '\0';
  for (size_t i = 0; i < d->len; i++)
    if (!w || (int)d->items[i].severity < w) {
      w = (int)d->items[i].severity;
      snprintf(code, sizeof code, "%s", d->items[i].code);
    }
  *id = code;
  upk_diags_free(d);
  return w;
}

/* The most severe intent finding of a Markdown file (0 when none); its rule id into *id. */
static inline int worst_md(const char *text, const char **id) {
  upk_diags d = {0};
  upk__audit_intent("SKILL.md", text, strlen(text), 0, &d);
  return worst_of(&d, id);
}

/* The most severe intent finding of a data or source file named rel (0 when none). */
static inline int worst_file(const char *rel, const char *text, const char **id) {
  upk_diags d = {0};
  upk__audit_intent_data(rel, text, strlen(text), 0, &d);
  return worst_of(&d, id);
}

#endif
