/* One-path refreshes: the part of each root a changed path touches is
 * walked again, inside one transaction for a burst of paths. */
#include "skills/index/scan_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* Is path inside (or equal to) base? Sets *rest to what follows "base/". */
static bool under(const char *path, const char *base, const char **rest) {
  size_t n = strlen(base);
  if (strncmp(path, base, n))
    return false;
  if (path[n] == 0 || (n == 1 && base[0] == '/')) {
    *rest = path + (n == 1 ? 1 : n);
    return true;
  }
  if (path[n] != '/')
    return false;
  *rest = path + n + 1;
  return true;
}

/* The (root, sub) pairs one refresh has rescanned: a burst of events for
 * one skill (a temporary file, its rename over SKILL.md) is one rescan. */
typedef struct done_set {
  char **v;
  size_t n;
} done_set;

/* Whether root/sub was already rescanned; notes it when not. */
static bool done_before(done_set *d, int64_t root, const char *sub) {
  char key[PATH_MAX + 32];
  snprintf(key, sizeof key, "%lld:%s", (long long)root, sub ? sub : "");
  for (size_t i = 0; i < d->n; i++)
    if (!strcmp(d->v[i], key))
      return true;
  char **p = upk_xrealloc(d->v, (d->n + 1) * sizeof *p);
  if (p && (p[d->n] = upk_xstrdup(key))) {
    d->v = p;
    d->n++;
  } else if (p)
    d->v = p;
  return false;
}

static int rescan_once(scan *sc, done_set *done, const char *dir, const char *sub) {
  return done_before(done, sc->root, sub) ? 0 : upk__ix_scan_root(sc, dir, sub);
}

/* Refresh the part of one root that `path` touches. Returns 1 when the path
 * belongs to this root, 0 when not, or a negative errno. */
static int refresh_root(scan *sc, sqlite3_stmt *roots, const char *path, done_set *done) {
  const char *dir = (const char *)sqlite3_column_text(roots, 1);
  const char *bases[2] = {dir, (const char *)sqlite3_column_text(roots, 2)};
  for (int i = 0; i < 2; i++) {
    const char *rest;
    if (!bases[i] || !under(path, bases[i], &rest))
      continue;
    if (!*rest)
      return rescan_once(sc, done, dir, NULL) ?: 1;
    size_t n = strcspn(rest, "/");
    char sub[PATH_MAX];
    snprintf(sub, sizeof sub, "%s/%.*s", dir, (int)n, rest);
    if (upk__ix_skipped_name(sub + strlen(dir) + 1))
      return 1;
    return rescan_once(sc, done, dir, sub) ?: 1;
  }
  return 0;
}

/* A path outside every root can still be a skill some root links to (a
 * symlinked skill directory): refresh the placements of that document. */
static int refresh_linked(upk_index *ix, const char *path, upk_diags *diags) {
  static const char sql[] =
      "SELECT r.id, r.dir, r.real, r.max_depth, r.scope, p.dir FROM place p"
      " JOIN doc d ON d.id = p.doc"
      " JOIN root r ON r.id = p.root WHERE d.path = ?1 || '/SKILL.md' OR d.path = ?1 ||"
      " '/skill.md'";
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "refresh");
  char cand[PATH_MAX];
  snprintf(cand, sizeof cand, "%s", path);
  int count = 0, rc = 0;
  for (int up = 0; !rc && !count && up <= UPK_INDEX_MAX_DEPTH && cand[1]; up++) {
    sqlite3_bind_text(st, 1, cand, -1, SQLITE_STATIC);
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
      scan sc;
      upk__ix_init_scan(&sc, ix, st, diags, NULL);
      rc = upk__ix_scan_root(&sc, (const char *)sqlite3_column_text(st, 1),
                             (const char *)sqlite3_column_text(st, 5));
      count++;
    }
    sqlite3_reset(st);
    char *slash = strrchr(cand, '/');
    *(slash == cand ? slash + 1 : slash) = 0;
  }
  sqlite3_finalize(st);
  return rc ? rc : count;
}

/* Refresh one path inside the caller's transaction: the number of roots (or
 * linked documents) it belongs to, or a negative errno. */
static int refresh_one(upk_index *ix, const char *path, upk_diags *diags, done_set *done) {
  char *abs = upk__ix_abspath(path);
  if (!abs)
    return -ENOMEM;
  sqlite3_stmt *roots;
  int rc = sqlite3_prepare_v2(ix->db, upk__ix_roots_sql, -1, &roots, NULL)
               ? upk__ix_sql_fail(ix, "refresh")
               : 0;
  int count = 0;
  while (!rc && sqlite3_step(roots) == SQLITE_ROW) {
    scan sc;
    upk__ix_init_scan(&sc, ix, roots, diags, NULL);
    int r = refresh_root(&sc, roots, abs, done);
    if (r < 0)
      rc = r;
    else
      count += r;
  }
  sqlite3_finalize(roots);
  if (!rc && !count)
    count = rc = refresh_linked(ix, abs, diags);
  free(abs);
  return rc < 0 ? rc : count;
}

int upk_index_refresh_many(upk_index *ix, const char *const *paths, size_t n, upk_diags *diags) {
  for (size_t i = 0; i < n; i++)
    if (!paths[i] || !*paths[i])
      return upk__ix_fail(ix, -EINVAL, "refresh: no path given");
  int rc = upk__ix_begin(ix), outside = 0;
  done_set done = {0};
  for (size_t i = 0; !rc && i < n; i++) {
    int r = refresh_one(ix, paths[i], diags, &done);
    if (r < 0)
      rc = r;
    else
      outside += r == 0;
  }
  for (size_t i = 0; i < done.n; i++)
    free(done.v[i]);
  free(done.v);
  rc = upk__ix_finish(ix, rc, false);
  return rc ? rc : outside;
}

int upk_index_refresh(upk_index *ix, const char *path, upk_diags *diags) {
  if (!path || !*path)
    return upk__ix_fail(ix, -EINVAL, "refresh: no path given");
  done_set done = {0};
  int rc = upk__ix_begin(ix), count = rc ? 0 : refresh_one(ix, path, diags, &done);
  for (size_t i = 0; i < done.n; i++)
    free(done.v[i]);
  free(done.v);
  if (count < 0) {
    rc = count;
    count = 0;
  }
  rc = upk__ix_finish(ix, rc, false);
  return rc ? rc : count;
}
