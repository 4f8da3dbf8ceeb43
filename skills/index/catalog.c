/* Each document's stored entry of the MCP Skills listing (skills/catalog.h). The listing's
 * first walk builds the entries a page lacks and stores them here (upk_index_catalog_keep); a
 * later page reads these rows and touches no file (pages of 667 skills took 170-300 ms at
 * 40,000 skills while each walked, stat'ed and hashed its skills' files). The scan stores none:
 * hashing every file of every skill was a third of indexing, for a listing most sessions never
 * ask for; it drops the entry of a skill it finds changed. */
#include "skills/index/db_int.h"
#include "skills/index/catalog_int.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "skills/catalog.h"
#include "common/xalloc.h"

enum { CAT_PUT, CAT_GET, CAT_DEL };

static const char *const cat_sql[] = {
    [CAT_PUT] = "INSERT OR REPLACE INTO catalog(doc, epoch, record) VALUES(?1, ?2, ?3)",
    [CAT_GET] = "SELECT record, epoch FROM catalog WHERE doc = ?1",
    [CAT_DEL] = "DELETE FROM catalog WHERE doc = ?1",
};

int64_t upk__ix_new_epoch(const upk_index *ix) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  /* time, process and address: two opens, in one process or two, never share one */
  uint64_t e = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
               ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)ix;
  return (int64_t)(e >> 1) | 1;
}

static sqlite3_stmt *stmt(upk_index *ix, int which) {
  if (!ix->cat_st[which] &&
      sqlite3_prepare_v3(ix->db, cat_sql[which], -1, SQLITE_PREPARE_PERSISTENT, &ix->cat_st[which],
                         NULL) != SQLITE_OK) {
    upk__ix_sql_fail(ix, "store a listing entry");
    return NULL;
  }
  return ix->cat_st[which];
}

int upk__ix_catalog_put(upk_index *ix, int64_t doc, const char *record) {
  sqlite3_stmt *st = stmt(ix, record ? CAT_PUT : CAT_DEL);
  if (!st)
    return -EIO;
  sqlite3_bind_int64(st, 1, doc);
  if (record) {
    sqlite3_bind_int64(st, 2, ix->epoch);
    sqlite3_bind_text(st, 3, record, -1, SQLITE_STATIC);
  }
  return upk__ix_step_done(ix, st, "store a listing entry");
}

int upk__ix_catalog_check(upk_index *ix, int64_t doc, const char *dir) {
  sqlite3_stmt *st = stmt(ix, CAT_GET);
  if (!st)
    return -EIO;
  sqlite3_bind_int64(st, 1, doc);
  char *record = NULL;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 1) == ix->epoch)
    record = upk_xstrdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_reset(st);
  /* Another open's entry is checked by the page that reads it (it must be: files may have
   * changed while no daemon watched); this open's is trusted there, so it goes when stale. */
  int rc =
      record && !upk_catalog_record_current(record, dir) ? upk__ix_catalog_put(ix, doc, NULL) : 0;
  free(record);
  return rc;
}

int upk_index_catalog_keep(upk_index *ix, upk_index_entry *const *entries, size_t n) {
  if (!n)
    return 0;
  if (upk__ix_exec(ix, "BEGIN IMMEDIATE")) /* another daemon's write: waited for, then given up */
    return -EBUSY;
  uint64_t changes = __atomic_load_n(&ix->listing_changes, __ATOMIC_RELAXED);
  int rc = 0;
  for (size_t i = 0; !rc && i < n; i++)
    if (entries[i]->catalog)
      rc = upk__ix_catalog_put(ix, entries[i]->catalog_doc, entries[i]->catalog);
  if (rc || upk__ix_exec(ix, "COMMIT")) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return rc ? rc : -EIO;
  }
  /* Not a change of any page kept: these are the records the page being built was built
   * from. A kept page holds only this open's records (a page with another's or none is never
   * kept), and those are not stored again; one dropped since (a refresh) counted then. */
  __atomic_store_n(&ix->listing_changes, changes, __ATOMIC_RELAXED);
  return 0;
}

void upk__ix_catalog_close(upk_index *ix) {
  for (size_t i = 0; i < sizeof ix->cat_st / sizeof *ix->cat_st; i++) {
    sqlite3_finalize(ix->cat_st[i]);
    ix->cat_st[i] = NULL;
  }
}
