/** Each document's stored entry of the MCP Skills listing (catalog.c). Not API. */
#ifndef UPK_SKILLS_INDEX_CATALOG_INT_H
#define UPK_SKILLS_INDEX_CATALOG_INT_H

#include <stdint.h>

#include "skills/index.h"

/** A stamp for this open's records, unlike any other process's. */
int64_t upk__ix_new_epoch(const upk_index *ix);
/** Store document doc's record (NULL: none, the listing builds it from disk and keeps it). */
int upk__ix_catalog_put(upk_index *ix, int64_t doc, const char *record);
/** The document at dir was found unchanged (its SKILL.md): drop the record this open stored
 * when it no longer describes the other files (a refresh after an edit): the listing builds
 * it again. */
int upk__ix_catalog_check(upk_index *ix, int64_t doc, const char *dir);
/** Finalizes the statements the records were read and written with. */
void upk__ix_catalog_close(upk_index *ix);

#endif
