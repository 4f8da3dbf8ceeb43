/* The placements a full scan expects to find again, held in memory.
 *
 * A restart rescans the whole tree. Stamping every placement it finds again
 * rewrote every row (40,000 for 10,000 skills seen by four agents) and then
 * recomputed every name's shadowing: seconds for nothing when the tree had
 * not changed. With the stored placements in memory, a scan writes only what
 * changed and deletes only what it did not find.
 *
 * They are read in the order they were stored, which is the order a walk
 * finds them in (roots in order, each folder's entries sorted), but for those
 * added since: read in (root, dir) order instead, each row was a seek from
 * the index into the table, 150 ms of a restart at 240,000 placements (60,000
 * skills, four agents), against ~40 ms in table order. The scan asks for
 * them in walk order, so the one after the last found is nearly always the
 * next asked; the others are found by a hash of (root, dir), built at the
 * first miss. */
#include "skills/index/db_int.h"
#include "skills/index/places_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"

/* Room for element n of *v (elements of `size` bytes, *cap of them): doubled when full, at most
 * UINT32_MAX (the hash stores indexes in 32 bits). False: past that. */
static bool room_for(void **v, size_t *cap, size_t n, size_t size) {
  if (n >= UINT32_MAX - 1)
    return false;
  *v = upk_xgrow(*v, cap, n < 1024 ? 1024 : n + 1, size); /* 1024 at first */
  return true;
}

/* Runs sql, handing each row to add(st, out): 0, add's error, or the statement's (reported). */
static int each_row(upk_index *ix, const char *sql, const char *what,
                    int (*add)(sqlite3_stmt *st, void *out), void *out) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL))
    return upk__ix_sql_fail(ix, what);
  int rc = 0, s;
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW)
    rc = add(st, out);
  if (!rc && s != SQLITE_DONE)
    rc = upk__ix_sql_fail(ix, what);
  sqlite3_finalize(st);
  return rc;
}

static const char *pooled(upk_strpool *pool, sqlite3_stmt *st, int col) {
  return upk_strpool_dup(pool, (const char *)sqlite3_column_text(st, col));
}

static int add_place(sqlite3_stmt *st, void *out) {
  upk__ix_places *ps = out;
  if (!room_for((void **)&ps->v, &ps->cap, ps->n, sizeof *ps->v))
    return -ENOMEM;
  upk__ix_place *p = &ps->v[ps->n++];
  *p = (upk__ix_place){.id = sqlite3_column_int64(st, 0),
                       .root = sqlite3_column_int64(st, 1),
                       .dir = (char *)pooled(&ps->strings, st, 2),
                       .doc = sqlite3_column_int64(st, 3),
                       .name = (char *)pooled(&ps->strings, st, 4)};
  return p->dir && p->name ? 0 : -ENOMEM;
}

int upk__ix_places_load(upk_index *ix, upk__ix_places *out) {
  memset(out, 0, sizeof *out);
  int rc =
      each_row(ix, "SELECT id, root, dir, doc, name FROM place", "read placements", add_place, out);
  if (rc)
    upk__ix_places_free(out);
  return rc;
}

static bool same_key(int64_t root, const char *dir, const upk__ix_place *p) {
  return root == p->root && !strcmp(dir, p->dir);
}

static size_t key_hash(int64_t root, const char *dir) {
  uint64_t h = upk_fnv1a(upk_fnv1a(UPK_FNV1A_INIT, &root, sizeof root), dir, strlen(dir));
  return (size_t)(h ^ h >> 29);
}

/* Open addressing at most half full. False: no memory (the caller searches linearly). */
static bool build_slots(upk__ix_places *ps) {
  size_t size = upk_pow2_at_least(ps->n * 2, 16);
  ps->slots = upk_xcalloc(size, sizeof *ps->slots);
  ps->mask = size - 1;
  for (size_t i = 0; i < ps->n; i++) {
    size_t k = key_hash(ps->v[i].root, ps->v[i].dir) & ps->mask;
    while (ps->slots[k])
      k = (k + 1) & ps->mask;
    ps->slots[k] = (uint32_t)i + 1;
  }
  return true;
}

static upk__ix_place *found(upk__ix_places *ps, size_t i) {
  ps->next = i + 1;
  return &ps->v[i];
}

upk__ix_place *upk__ix_places_find(upk__ix_places *ps, int64_t root, const char *dir) {
  if (ps->next < ps->n && same_key(root, dir, &ps->v[ps->next]))
    return found(ps, ps->next);
  if (!ps->n)
    return NULL;
  if (!ps->slots && !build_slots(ps)) {
    for (size_t i = 0; i < ps->n; i++)
      if (same_key(root, dir, &ps->v[i]))
        return found(ps, i);
    return NULL;
  }
  for (size_t k = key_hash(root, dir) & ps->mask; ps->slots[k]; k = (k + 1) & ps->mask)
    if (same_key(root, dir, &ps->v[ps->slots[k] - 1]))
      return found(ps, ps->slots[k] - 1);
  return NULL;
}

static int add_doc(sqlite3_stmt *st, void *out) {
  upk__ix_docs *ds = out;
  if (!room_for((void **)&ds->v, &ds->cap, ds->n, sizeof *ds->v))
    return -ENOMEM;
  upk__ix_doc *d = &ds->v[ds->n++];
  *d = (upk__ix_doc){.path = pooled(&ds->strings, st, 0),
                     .name = pooled(&ds->strings, st, 1),
                     .id = sqlite3_column_int64(st, 2),
                     .mtime = sqlite3_column_int64(st, 3),
                     .size = sqlite3_column_int64(st, 4),
                     .ino = sqlite3_column_int64(st, 5)};
  return d->path && d->name ? 0 : -ENOMEM;
}

int upk__ix_docs_load(upk_index *ix, upk__ix_docs *out) {
  memset(out, 0, sizeof *out);
  int rc = each_row(ix,
                    "SELECT path, name, id, mtime, size, ino FROM doc INDEXED BY doc_probe"
                    " ORDER BY path",
                    "read documents", add_doc, out);
  if (rc)
    upk__ix_docs_free(out);
  return rc;
}

const upk__ix_doc *upk__ix_docs_find(upk__ix_docs *ds, const char *path) {
  if (ds->next < ds->n && !strcmp(path, ds->v[ds->next].path))
    return &ds->v[ds->next++];
  size_t lo = 0, hi = ds->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(path, ds->v[mid].path);
    if (!c) {
      ds->next = mid + 1;
      return &ds->v[mid];
    }
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

void upk__ix_docs_free(upk__ix_docs *ds) {
  upk_strpool_free(&ds->strings);
  free(ds->v);
  memset(ds, 0, sizeof *ds);
}

int upk__ix_note_unplaced(upk_index *ix, const char *name, int64_t doc) {
  sqlite3_bind_text(ix->st[ST_TOUCH_NAME], 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(ix->st[ST_CAND_DOC], 1, doc);
  return upk__ix_step_done(ix, ix->st[ST_TOUCH_NAME], "note skill name") ||
                 upk__ix_step_done(ix, ix->st[ST_CAND_DOC], "note skill document")
             ? -EIO
             : 0;
}

int upk__ix_places_sweep(upk_index *ix, upk__ix_places *ps, size_t *removed) {
  sqlite3_stmt *st;
  *removed = 0;
  if (sqlite3_prepare_v2(ix->db, "DELETE FROM place WHERE id = ?1", -1, &st, NULL))
    return upk__ix_sql_fail(ix, "sweep removed skills");
  int rc = 0;
  for (size_t i = 0; !rc && i < ps->n; i++) {
    if (ps->v[i].seen)
      continue;
    if ((rc = upk__ix_note_unplaced(ix, ps->v[i].name, ps->v[i].doc)))
      break;
    sqlite3_bind_int64(st, 1, ps->v[i].id);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : upk__ix_sql_fail(ix, "sweep removed skills");
    sqlite3_reset(st);
    *removed += (size_t)sqlite3_changes(ix->db);
  }
  sqlite3_finalize(st);
  return rc;
}

void upk__ix_places_free(upk__ix_places *ps) {
  upk_strpool_free(&ps->strings);
  free(ps->slots);
  free(ps->v);
  memset(ps, 0, sizeof *ps);
}
