/* The index's upkeep once a scan has written: FTS5's segments merged, the df snapshot the
 * first index deferred, the posting store filled (store.c), and memory given back. Each a
 * step of a few milliseconds, on the skills queue between lookups (skills_service.c). */
#include "skills/index/db_int.h"
#include "skills/index/rank_int.h"
#include "skills/index/store_int.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <stdio.h>

void upk_index_release_memory(upk_index *ix, bool cache) {
  if (cache) {
    sqlite3_db_release_memory(ix->db);
    upk__ix_query_trim(ix); /* made again by the next lookup */
  }
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

bool upk_index_cache_small(upk_index *ix) {
  int used = 0, high = 0;
  return sqlite3_db_status(ix->db, SQLITE_DBSTATUS_CACHE_USED, &used, &high, 0) != SQLITE_OK ||
         used < (1 << 20);
}

/* FTS5's incremental merge with a negative page count merges segments of
 * every level (an 'optimize' in steps); a command that found nothing to do
 * changes fewer than two rows (the FTS5 documentation's test). */
int upk_index_tidy(upk_index *ix, int pages) {
  static const char *const table[] = {"fts", "fts_body"};
  bool more = false;
  for (int i = 0; i < 2; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO %s(%s, rank) VALUES('merge', %d)", table[i], table[i],
             -(pages > 0 ? pages : 1));
    int before = sqlite3_total_changes(ix->db);
    if (upk__ix_exec(ix, sql))
      return -EIO;
    more |= sqlite3_total_changes(ix->db) - before >= 2;
  }
  if (!more)
    ix->merge_pending = false;
  if (!more && ix->df_stale) { /* merged: the snapshot deferred by the first index */
    if (upk__ix_exec(ix, "BEGIN") || upk__ix_snapshot_df(ix) || upk__ix_exec(ix, "COMMIT")) {
      sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
      return -EIO;
    }
    ix->df_stale = false;
  }
  return more;
}

int upk_index_fill(upk_index *ix) {
  if (ix->job)
    return 0; /* a scan's writes would empty it again */
  int rc = upk__ix_store_step(ix);
  /* filled: the rows' sizes read now, between requests, not by the next lookup (after a first
   * index of 10,000 skills the first lookup took 7.5 ms, those after it ~0.9) */
  return rc ? rc : upk__ix_rank_sizes(ix); /* a lookup still checks data_version first */
}

bool upk_index_fill_pending(const upk_index *ix) {
  return !ix->job && (ix->pcache_stale || upk__ix_store_pending(ix)); /* stale: emptied next */
}

void upk_index_fill_size(const upk_index *ix, size_t *lists, size_t *rows, size_t *bytes) {
  upk__ix_store_size(ix, lists, rows, bytes);
}

bool upk_index_merge_pending(const upk_index *ix) {
  return ix->merge_pending;
}

/* Refresh the df snapshot: one pass over the FTS index (~50 ms for 10,000
 * skills), done after full scans. Refreshes leave it slightly stale; it only
 * steers which words a lookup uses (never the bm25 scores, which FTS5
 * computes from its own statistics), and a word it does not know yet is
 * matched as a prefix, which includes the word itself. */
int upk__ix_snapshot_df(upk_index *ix) {
  return upk__ix_exec(ix, "DELETE FROM df; INSERT INTO df SELECT term, doc, 0 FROM vocab;"
                          "INSERT INTO df SELECT term, 0, doc FROM vocab_body WHERE true"
                          " ON CONFLICT(term) DO UPDATE SET body = excluded.body");
}
