/* The placements a full scan expects to find again, held in memory.
 *
 * A restart rescans the whole tree. Stamping every placement it finds again
 * rewrote every row (40,000 for 10,000 skills seen by four agents) and then
 * recomputed every name's shadowing: seconds for nothing when the tree had
 * not changed. With the stored placements in memory, sorted as the (root,
 * dir) index returns them, a scan writes only what changed and deletes only
 * what it did not find. */
#include "index_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int upk_ix_places_load(upk_index *ix, upk_ix_places *out) {
  memset(out, 0, sizeof *out);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, "SELECT id, root, dir, doc, name FROM place ORDER BY root, dir",
                         -1, &st, NULL))
    return upk_ix_sql_fail(ix, "read placements");
  size_t cap = 0;
  int rc = 0, s;
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
    if (out->n == cap) {
      cap = cap ? cap * 2 : 1024;
      upk_ix_place *p = realloc(out->v, cap * sizeof *p);
      if (!p) {
        rc = -ENOMEM;
        break;
      }
      out->v = p;
    }
    upk_ix_place *p = &out->v[out->n];
    p->id = sqlite3_column_int64(st, 0);
    p->root = sqlite3_column_int64(st, 1);
    p->dir = upk_strpool_dup(&out->strings, (const char *)sqlite3_column_text(st, 2));
    p->doc = sqlite3_column_int64(st, 3);
    p->name = upk_strpool_dup(&out->strings, (const char *)sqlite3_column_text(st, 4));
    p->seen = false;
    out->n++;
    if (!p->dir || !p->name)
      rc = -ENOMEM;
  }
  if (!rc && s != SQLITE_DONE)
    rc = upk_ix_sql_fail(ix, "read placements");
  sqlite3_finalize(st);
  if (rc)
    upk_ix_places_free(out);
  return rc;
}

/* The (root, dir) index orders text with memcmp, as strcmp does. */
static int cmp_key(int64_t root, const char *dir, const upk_ix_place *p) {
  if (root != p->root)
    return root < p->root ? -1 : 1;
  return strcmp(dir, p->dir);
}

upk_ix_place *upk_ix_places_find(upk_ix_places *ps, int64_t root, const char *dir) {
  /* A full scan walks each root in name order, as the places are sorted: the one after the
   * last found is nearly always the one asked for, and 18 string compares are saved. */
  if (ps->next < ps->n && !cmp_key(root, dir, &ps->v[ps->next]))
    return &ps->v[ps->next++];
  size_t lo = 0, hi = ps->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_key(root, dir, &ps->v[mid]);
    if (!c) {
      ps->next = mid + 1;
      return &ps->v[mid];
    }
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

int upk_ix_note_unplaced(upk_index *ix, const char *name, int64_t doc) {
  sqlite3_bind_text(ix->st[ST_TOUCH_NAME], 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(ix->st[ST_CAND_DOC], 1, doc);
  return upk_ix_step_done(ix, ix->st[ST_TOUCH_NAME], "note skill name") ||
                 upk_ix_step_done(ix, ix->st[ST_CAND_DOC], "note skill document")
             ? -EIO
             : 0;
}

int upk_ix_places_sweep(upk_index *ix, upk_ix_places *ps, size_t *removed) {
  sqlite3_stmt *st;
  *removed = 0;
  if (sqlite3_prepare_v2(ix->db, "DELETE FROM place WHERE id = ?1", -1, &st, NULL))
    return upk_ix_sql_fail(ix, "sweep removed skills");
  int rc = 0;
  for (size_t i = 0; !rc && i < ps->n; i++) {
    if (ps->v[i].seen)
      continue;
    if ((rc = upk_ix_note_unplaced(ix, ps->v[i].name, ps->v[i].doc)))
      break;
    sqlite3_bind_int64(st, 1, ps->v[i].id);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : upk_ix_sql_fail(ix, "sweep removed skills");
    sqlite3_reset(st);
    *removed += (size_t)sqlite3_changes(ix->db);
  }
  sqlite3_finalize(st);
  return rc;
}

void upk_ix_places_free(upk_ix_places *ps) {
  upk_strpool_free(&ps->strings);
  free(ps->v);
  memset(ps, 0, sizeof *ps);
}
