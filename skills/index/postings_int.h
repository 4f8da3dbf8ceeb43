/** Phrases' row lists kept between lookups, as FTS5 gave them, until any row changes
 * (ix->pcache_stale) or another connection commits; bounded, least recently used dropped first
 * (postings.c). Not API. */
#ifndef UPK_SKILLS_INDEX_POSTINGS_INT_H
#define UPK_SKILLS_INDEX_POSTINGS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "skills/index/rank_int.h"

/** The kept lists (ix->pcache), made at the first put. */
typedef struct upk__ix_pcache upk__ix_pcache;
/** A shorter list costs less to walk than to keep. */
#define UPK_IX_PCACHE_MIN_ROWS 32
/** A phrase's rows in table `which` (0: head, 1: body), if kept: *out
 * borrows them until the next put or clear. */
bool upk__ix_pcache_get(upk_index *ix, int which, const char *text, int len, upk__ix_postings *out);
/** Keep a phrase's rows: the cache takes rows->v (rows is then empty) when
 * it keeps them, else leaves it to the caller. */
void upk__ix_pcache_put(upk_index *ix, int which, const char *text, int len,
                        upk__ix_postings *rows);
/** A table's row count and total size in tokens, kept beside the lists. */
bool upk__ix_pcache_totals(upk_index *ix, int which, int64_t *rows, int64_t *tokens);
/** Keeps a table's row count and total size beside the lists. */
void upk__ix_pcache_set_totals(upk_index *ix, int which, int64_t rows, int64_t tokens);
/** A new lookup begins: what it uses counts as recently used. */
void upk__ix_pcache_next_lookup(upk_index *ix);
/** Drops every kept list and the totals. */
void upk__ix_pcache_clear(upk_index *ix);
/** How many times a kept list was used since the index was opened. */
size_t upk__ix_pcache_hits(const upk_index *ix);
/** Drops the cache itself (index close). */
void upk__ix_pcache_free(upk_index *ix);

#endif
