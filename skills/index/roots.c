/* The roots' rows (a few dozen), kept: joined to each placement of each hit they were a seek
 * each (four placements a hit at 10,000 skills, as four agents read the project's skills), and
 * the truncated roots, asked after every lookup, were a read transaction of their own (two
 * fcntl locks and a look at the WAL). Read again after a root row changed here (the update
 * hook, rank.c) or another connection committed (data_version, as the last lookup or fill step
 * read it); read each time inside a write (a scan's), which may yet roll back. */
#include "skills/index/db_int.h"
#include "skills/index/roots_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void upk__ix_roots_free(upk_index *ix) {
  for (size_t i = 0; i < ix->roots.n; i++)
    free(ix->roots.v[i].agent), free(ix->roots.v[i].dir);
  free(ix->roots.v);
  ix->roots.v = NULL;
  ix->roots.n = 0;
  ix->roots.ok = false;
}

int upk__ix_roots_read(upk_index *ix) {
  if (ix->roots.ok && ix->roots.version == ix->data_version)
    return 0;
  upk__ix_roots_free(ix);
  sqlite3_stmt *st = ix->st[ST_ROOTS];
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    ix->roots.v = upk_xreallocarray(ix->roots.v, ix->roots.n + 1, sizeof *ix->roots.v);
    const char *agent = (const char *)sqlite3_column_text(st, 1);
    ix->roots.v[ix->roots.n++] = (upk__ix_root_row){
        .id = sqlite3_column_int64(st, 0),
        .ord = sqlite3_column_int64(st, 5),
        .agent = agent && *agent ? upk_xstrdup(agent) : NULL,
        .dir = upk_xstrdup((const char *)sqlite3_column_text(st, 4)),
        .scope = sqlite3_column_int(st, 2),
        .priority = sqlite3_column_int(st, 3),
        .truncated = sqlite3_column_int(st, 6) != 0,
    };
  }
  sqlite3_reset(st);
  if (s != SQLITE_DONE) {
    upk__ix_roots_free(ix);
    return upk__ix_sql_fail(ix, "the roots");
  }
  ix->roots.ok = sqlite3_txn_state(ix->db, "main") != SQLITE_TXN_WRITE;
  ix->roots.version = ix->data_version;
  return 0;
}

const upk__ix_root_row *upk__ix_root_of(const upk_index *ix, int64_t id) {
  size_t lo = 0, hi = ix->roots.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ix->roots.v[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < ix->roots.n && ix->roots.v[lo].id == id ? &ix->roots.v[lo] : NULL;
}

/* Each truncated directory once, in the order of its first root (several agents may share
 * a directory as roots of their own). */
int upk_index_truncated(upk_index *ix, char ***dirs, size_t *n) {
  *dirs = NULL;
  *n = 0;
  int rc = upk__ix_roots_read(ix);
  if (rc)
    return rc;
  const upk__ix_root_row **cut = upk_xcalloc(ix->roots.n + 1, sizeof *cut);
  size_t m = 0;
  for (size_t i = 0; i < ix->roots.n; i++) {
    const upk__ix_root_row *r = &ix->roots.v[i];
    size_t k = 0;
    while (k < m && strcmp(cut[k]->dir, r->dir))
      k++;
    if (!r->truncated)
      continue;
    if (k == m)
      cut[m++] = r;
    else if (r->ord < cut[k]->ord)
      cut[k] = r;
  }
  for (size_t i = 1; i < m; i++) /* by their first root's order */
    for (size_t k = i; k > 0 && cut[k]->ord < cut[k - 1]->ord; k--) {
      const upk__ix_root_row *t = cut[k];
      cut[k] = cut[k - 1];
      cut[k - 1] = t;
    }
  *dirs = m ? upk_xcalloc(m, sizeof **dirs) : NULL;
  for (; *n < m; ++*n)
    (*dirs)[*n] = upk_xstrdup(cut[*n]->dir);
  free(cut);
  return 0;
}
