/** The roots' rows, kept between lookups (roots.c): what each hit names (hits.c) and which
 * roots a scan cut (upk_index_truncated). Not API. */
#ifndef UPK_SKILLS_INDEX_ROOTS_INT_H
#define UPK_SKILLS_INDEX_ROOTS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "skills/index.h"

/** A root's row. */
typedef struct upk__ix_root_row {
  int64_t id, ord;
  char *agent, *dir; /* agent: NULL for none */
  int scope, priority;
  bool truncated;
} upk__ix_root_row;
/** The rows as the index has them now, read again when needed: 0, or an error, noted. */
int upk__ix_roots_read(upk_index *ix);
/** Root id's row among those read, or NULL. */
const upk__ix_root_row *upk__ix_root_of(const upk_index *ix, int64_t id);
/** Frees the rows kept. */
void upk__ix_roots_free(upk_index *ix);

#endif
