/* Full scans, stepped: the walk lists every root's skill directories
 * (walk.c), then they are indexed a chunk at a time with parsing on
 * helper threads, so the daemon answers between steps.
 *
 * Every scan stamps the placements it finds with a new generation; whatever
 * a scan covered but did not stamp has disappeared and is swept. */
#include "skills/index/scan_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/skill.h"
#include "skills/validate.h"
#include "common/xalloc.h"

void upk__ix_init_scan(scan *sc, upk_index *ix, sqlite3_stmt *roots, upk_diags *diags,
                       upk_index_stats *st) {
  memset(sc, 0, sizeof *sc);
  sc->ix = ix;
  sc->diags = diags;
  sc->st = st;
  sc->root = sqlite3_column_int64(roots, 0);
  sc->max_depth = sqlite3_column_int(roots, 3);
  sc->within = sqlite3_column_int(roots, 4) == UPK_INDEX_PROJECT ? ix->project_real : NULL;
  sc->gen = ix->gen;
}

enum { ROOTS_MAX = 256 }; /* roots whose directory limit is noted (there are a few dozen) */

int upk__ix_begin(upk_index *ix) {
  upk__ix_forget_parent(ix);
  if (ix->job) {
    ix->job->no_digest = ix->job->wide = true;
    upk__ix_docs_free(&ix->job->docs); /* this pass may change them */
  }
  if (upk__ix_exec(ix, "BEGIN IMMEDIATE; DELETE FROM touched; DELETE FROM cand;"
                       "DELETE FROM scan_digest"))
    return -EIO;
  ix->gen++;
  return upk__ix_note_gen(ix, ix->gen);
}

/* The generation this transaction writes placements with (see scan_gen). */
int upk__ix_note_gen(upk_index *ix, int64_t gen) {
  char sql[96];
  snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO scan_gen(id, gen) VALUES(0, %lld)",
           (long long)gen);
  return upk__ix_exec(ix, sql) ? -EIO : 0;
}

/* all: a full pass. every: every document and name is looked at again, not only the ones
 * noted (tables cand and touched). changed: whether any document was parsed or placement
 * removed; when not, a full pass keeps the word statistics (a walk of the whole FTS index,
 * seconds for a registry) and the orphan sweep. restat: whether a full pass changed enough
 * for the statistics to be taken again (see complete()). */
static int finish_pass(upk_index *ix, int rc, bool all, bool every, bool changed, bool restat) {
  if (!rc && changed)
    rc = upk__ix_drop_orphans(ix, every);
  if (!rc && changed)
    rc = upk__ix_visibility(ix, every);
  /* The first index leaves the document-frequency snapshot to the end of the merge after it
   * (upk_index_tidy()): over segments not merged yet it took seconds at 60,000 skills, while
   * lookups can ask fts5vocab for their few words meanwhile. */
  bool defer = all && changed && ix->job && ix->job->bulk;
  /* ... and so does a scan while that merge is still to end (a restart after a session
   * stopped first): taken over the unmerged segments, 0.9 s of a restart at 60,000. */
  bool snapshot = !defer && all && !ix->merge_pending && ((changed && restat) || ix->df_stale);
  if (!rc && defer)
    rc = upk__ix_exec(ix, "DELETE FROM df");
  else if (!rc && snapshot)
    rc = upk__ix_snapshot_df(ix);
  if (!rc)
    rc = upk__ix_exec(ix, "COMMIT");
  if (!rc && (defer || snapshot))
    ix->df_stale = defer;
  if (!rc && defer)
    ix->merge_pending = true;
  if (rc)
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
  if (changed || rc) /* counting reads a whole index: 60 ms at 60,000 skills */
    ix->n_docs = upk__ix_count_docs(ix);
  return rc;
}

int upk__ix_finish(upk_index *ix, int rc, bool all) {
  return finish_pass(ix, rc, all, all, true, true);
}

static void report_shadows(upk_index *ix, upk_diags *diags) {
  upk_index_shadow *sh;
  size_t n;
  if (!diags || upk_index_shadows(ix, &sh, &n))
    return;
  upk_range whole = {-1, 0, -1, 0};
  for (size_t i = 0; i < n; i++)
    if (!upk_diags_add(diags, UPK_SEV_INFO, "index/shadowed", "upskilld-index", whole,
                       "skill '%s' (%s) is shadowed%s%s by %s (%s)", sh[i].name,
                       upk_index_scope_name(sh[i].shadowed_scope), sh[i].agent ? " for " : "",
                       sh[i].agent ? sh[i].agent : "", sh[i].winner,
                       upk_index_scope_name(sh[i].winner_scope)))
      diags->items[diags->len - 1].file = upk_xstrdup(sh[i].shadowed);
  upk_index_shadows_free(sh, n);
}

const char upk__ix_roots_sql[] = "SELECT id, dir, real, max_depth, scope FROM root ORDER BY ord";

void upk__ix_job_free(upk_index *ix) {
  upk__ix_forget_parent(ix);
  struct upk__ix_job *j = ix->job;
  if (!j)
    return;
  for (size_t i = 0; i < j->n; i++)
    free(j->items[i].name);
  upk_strpool_free(&j->strings);
  for (size_t i = 0; i < j->n_roots; i++) {
    free(j->roots[i].real);
    free(j->roots[i].dir);
  }
  free(j->items);
  free(j->roots);
  upk__ix_places_free(&j->known);
  upk__ix_docs_free(&j->docs);
  free(j);
  ix->job = NULL;
}

/* The same directory, already walked through an earlier root: its skills
 * again, under this root's path. */
static int copy_root(scan *sc, const job_root *from, const char *dir) {
  struct upk__ix_job *j = sc->collect;
  size_t plen = strlen(from->dir);
  /* Agents that read the same directory by the same name (most of them) share the paths:
   * 180,000 copies fewer for 60,000 skills. */
  bool same_dir = !strcmp(dir, from->dir);
  /* The items are the earlier root's, which the digest holds: which root, and under what
   * name, is all that is new. */
  size_t k = (size_t)(from - j->roots);
  upk__ix_digest(&j->digest, &k, sizeof k);
  for (size_t i = from->first; i < from->first + from->count; i++) {
    char path[PATH_MAX];
    const char *p = j->items[i].dir;
    if (!same_dir) {
      snprintf(path, sizeof path, "%s%s", dir, j->items[i].dir + plen);
      p = path;
    }
    found_file f = j->items[i].f; /* upk__ix_note_skill() may move the items */
    int rc = upk__ix_note_skill(sc, p, j->items[i].md, &f, same_dir);
    if (rc)
      return rc;
    j->items[j->n - 1].same = i + 1;
  }
  sc->limit_hit = from->limit_hit;
  return 0;
}

static int remember_root(struct upk__ix_job *j, const char *real, const scan *sc, const char *dir,
                         size_t first) {
  job_root *p = upk_xrealloc(j->roots, (j->n_roots + 1) * sizeof *p);
  j->roots = p;
  p[j->n_roots] = (job_root){upk_xstrdup(real), sc->max_depth, upk_xstrdup(dir),  first,
                             j->n - first,      sc->limit_hit, sc->within != NULL};
  if (!p[j->n_roots].real || !p[j->n_roots].dir)
    return -ENOMEM;
  j->n_roots++;
  return 0;
}

/* Walk one root for a stepped scan; note whether it hit the directory limit. */
static int collect_root(scan *sc, sqlite3_stmt *roots, sqlite3_stmt *mark) {
  struct upk__ix_job *j = sc->collect;
  const char *dir = (const char *)sqlite3_column_text(roots, 1);
  const char *real = (const char *)sqlite3_column_text(roots, 2);
  real = real ? real : dir;
  const job_root *seen = NULL;
  for (size_t i = 0; i < j->n_roots && !seen; i++)
    if (!strcmp(j->roots[i].real, real) && j->roots[i].max_depth == sc->max_depth &&
        j->roots[i].within == (sc->within != NULL))
      seen = &j->roots[i];
  size_t first = j->n;
  int64_t key[3] = {sc->root, sc->max_depth, sc->ix->max_dirs};
  upk__ix_digest(&j->digest, key, sizeof key);
  upk__ix_digest_str(&j->digest, dir); /* where it resolves to: the walk adds it */
  int rc;
  if (seen) {
    rc = copy_root(sc, seen, dir);
  } else {
    struct stat sb;
    if (!stat(dir, &sb)) {
      sc->dev[0] = sb.st_dev;
      sc->ino[0] = sb.st_ino;
      sc->depth = 1;
    }
    rc = upk__ix_walk(sc, dir, 0);
    if (!rc)
      rc = remember_root(j, real, sc, dir, first);
  }
  upk__ix_digest(&j->digest, &sc->limit_hit, sizeof sc->limit_hit);
  sqlite3_bind_int(mark, 1, sc->limit_hit);
  sqlite3_bind_int64(mark, 2, sc->root);
  return rc;
}

/* The roots' directory limits, written after the walk (the reading statement finalized) in one
 * write transaction that waits for another daemon's: a write from inside a read of the roots
 * could not wait (SQLite answers "database is locked" at once), and a walk may be long. */
static int mark_roots(upk_index *ix, const int64_t *ids, const int *hit, size_t n) {
  if (!n)
    return 0;
  sqlite3_stmt *mark = NULL;
  if (upk__ix_exec(ix, "BEGIN IMMEDIATE"))
    return -EIO;
  int rc =
      sqlite3_prepare_v2(ix->db, "UPDATE root SET truncated = ?1 WHERE id = ?2", -1, &mark, NULL)
          ? upk__ix_sql_fail(ix, "scan")
          : 0;
  for (size_t i = 0; !rc && i < n; i++) {
    sqlite3_bind_int(mark, 1, hit[i]);
    sqlite3_bind_int64(mark, 2, ids[i]);
    rc = upk__ix_step_done(ix, mark, "note the directory limit");
  }
  sqlite3_finalize(mark);
  if (rc || upk__ix_exec(ix, "COMMIT")) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return rc ? rc : -EIO;
  }
  return 0;
}

/* Whether the last complete full scan walked what this one did (upk__ix_job.digest). */
static bool same_digest(upk_index *ix, uint64_t digest) {
  sqlite3_stmt *st;
  bool same = false;
  if (sqlite3_prepare_v2(ix->db, "SELECT digest FROM scan_digest", -1, &st, NULL) == SQLITE_OK) {
    same = sqlite3_step(st) == SQLITE_ROW && (uint64_t)sqlite3_column_int64(st, 0) == digest;
    sqlite3_finalize(st);
  }
  return same;
}

int upk_index_scan_begin(upk_index *ix, size_t *total, upk_diags *diags) {
  upk__ix_job_free(ix);
  struct upk__ix_job *j = upk_xcalloc(1, sizeof *j);
  clock_gettime(CLOCK_MONOTONIC, &j->t0);
  j->gen = ++ix->gen;
  j->bulk = ix->n_docs == 0;
  j->digest = 0xcbf29ce484222325ULL; /* FNV-1a's offset basis */
  ix->job = j;
  sqlite3_stmt *roots = NULL, *mark = NULL;
  int rc = sqlite3_prepare_v2(ix->db, upk__ix_roots_sql, -1, &roots, NULL) ||
                   sqlite3_prepare_v2(ix->db, "UPDATE root SET truncated = ?1 WHERE id = ?2", -1,
                                      &mark, NULL)
               ? upk__ix_sql_fail(ix, "scan")
               : 0;
  int64_t ids[ROOTS_MAX];
  int hit[ROOTS_MAX];
  size_t n = 0;
  while (!rc && sqlite3_step(roots) == SQLITE_ROW) {
    scan sc;
    upk__ix_init_scan(&sc, ix, roots, diags, &j->st);
    sc.collect = j;
    rc = collect_root(&sc, roots, mark);
    if (!rc && n < ROOTS_MAX) {
      ids[n] = sc.root;
      hit[n++] = sc.limit_hit;
    }
  }
  sqlite3_finalize(roots);
  sqlite3_finalize(mark);
  if (!rc)
    rc = mark_roots(ix, ids, hit, n);
  if (!rc) {
    j->unchanged = !j->bulk && same_digest(ix, j->digest);
    if (!j->unchanged)
      rc = upk__ix_places_load(ix, &j->known);
    if (!rc && !j->unchanged && !j->bulk) /* the first index finds nothing stored */
      rc = upk__ix_docs_load(ix, &j->docs);
  }
  if (rc) {
    upk__ix_job_free(ix);
    return rc;
  }
  if (total)
    *total = j->n;
  return 0;
}

/* The first index of an empty index is written in bulk:
 *  - FTS5 does not merge segments as they are written (`automerge` 0, else 2, index.c):
 *    merging as it wrote was a fifth of the time (60,000 skills: 31.8 -> 25.4 s). Its
 *    segments are merged after it (upk_index_tidy(), which the daemon runs in steps). The
 *    setting is stored with the index: the next open sets 2 again should the scan not end.
 *  - The page cache is 8 MiB, not the lookups' 32: writing 10,000 skills through the bigger
 *    one took 3.7 -> 4.2 s (its pages recycled colder). */
static int set_bulk(upk_index *ix, bool bulk) {
  char sql[256];
  snprintf(sql, sizeof sql,
           "INSERT INTO fts(fts, rank) VALUES('automerge', %d);"
           "INSERT INTO fts_body(fts_body, rank) VALUES('automerge', %d);"
           "PRAGMA cache_size=%s",
           bulk ? 0 : 2, bulk ? 0 : 2, bulk ? "-8192" : UPK_IX_CACHE_KIB);
  return upk__ix_exec(ix, sql);
}

static int store_digest(upk_index *ix, uint64_t digest) {
  char sql[96];
  snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO scan_digest(id, digest) VALUES(0, %lld)",
           (long long)digest);
  return upk__ix_exec(ix, sql);
}

/* A scan that walked what the last complete one did: every item is as stored. */
static void take_as_stored(struct upk__ix_job *j) {
  for (size_t i = j->next; i < j->n; i++)
    j->st.unchanged += !j->items[i].same;
  j->st.skills += j->n - j->next;
  j->st.same_tree = true;
  j->next = j->n;
}

/* The last step: whatever the walk did not find again is gone. */
static int complete(upk_index *ix, struct upk__ix_job *j, int rc) {
  if (!rc && j->bulk)
    rc = set_bulk(ix, false);
  if (!rc)
    rc = upk__ix_places_sweep(ix, &j->known, &j->st.removed);
  if (!rc && !j->unchanged && !j->no_digest)
    rc = store_digest(ix, j->digest);
  /* A restart that finds a few skills changed leaves the word statistics as stale as a
   * refresh does (they steer which words a lookup asks, never a score; a word they lack is
   * asked as a prefix): taking them again walks the whole FTS index, 0.58 s of a 1.4 s
   * restart at 60,000 skills with one skill edited. A twentieth changed takes them again. */
  bool restat = (j->st.parsed + j->st.removed) * 20 >= (size_t)ix->n_docs;
  /* Else only the names and documents the scan noted are looked at again: shadowing redone
   * for every name and every document checked for a placement took 0.6 s of a 1.2 s restart
   * at 60,000 skills with one skill edited while the daemon was down. */
  bool every = j->bulk || j->wide || restat;
  return finish_pass(ix, rc, true, every, j->st.parsed || j->st.removed || j->placed, restat);
}

#define SCAN_CHUNK 1024

/* Place a document for a full scan: a placement stored as it is only needs
 * to be noted as found (no write, and its name's shadowing is unchanged). */
static int place_again(struct upk__ix_job *j, scan *sc, const char *dir, int64_t doc,
                       const char *name) {
  upk__ix_place *p = upk__ix_places_find(&j->known, sc->root, dir);
  if (p)
    p->seen = true;
  if (p && p->doc == doc && !strcmp(p->name, name)) {
    if (sc->st)
      sc->st->skills++;
    return 0;
  }
  j->placed = true;
  int rc = p ? upk__ix_note_unplaced(sc->ix, p->name, p->doc) : 0;
  return rc ? rc : upk__ix_place_doc(sc, dir, doc, name);
}

/* The pass over one item of a stepped scan. */
static scan item_scan(upk_index *ix, struct upk__ix_job *j, const job_item *it, upk_diags *diags) {
  return (scan){.ix = ix,
                .diags = diags,
                .st = &j->st,
                .gen = j->gen,
                .root = it->root,
                .full = j->bulk,
                .docs = j->docs.n ? &j->docs : NULL};
}

/* One chunk of a stepped scan, items [from, to): documents found unchanged
 * are placed as they are; the others are parsed on helper threads while this
 * thread stores them in order. */
static int scan_items(upk_index *ix, struct upk__ix_job *j, size_t from, size_t to,
                      upk_diags *diags) {
  size_t n = to - from, k = 0;
  /* Not zeroed: upk__ix_probe_doc() sets every field it reads, and most items (found unchanged)
   * never use their 8 KB slot. calloc's zeroing of the whole array, 2 MB per chunk, was a fifth of
   * a restart's time. */
  probe *pr = upk_xmalloc((n ? n : 1) * sizeof *pr);
  upk__ix_parsed *parsed = upk_xcalloc(n ? n : 1, sizeof *parsed);
  const char **dirs = upk_xcalloc(n ? n : 1, sizeof *dirs);
  size_t *todo = upk_xcalloc(n ? n : 1, sizeof *todo); /* item -> its parse slot + 1; 0: none */
  int rc = pr && parsed && dirs && todo ? 0 : -ENOMEM;
  upk__ix_forget_parent(ix);                  /* chunks can be minutes apart */
  for (size_t i = from; !rc && i < to; i++) { /* which documents need parsing */
    job_item *it = &j->items[i];
    scan sc = item_scan(ix, j, it, diags);
    if (it->same)
      continue;
    int r = upk__ix_probe_doc(&sc, it->dir, it->md, &it->f, &pr[k], &it->name);
    if (r == 1)
      it->doc = pr[k].id;
    else if (r == 0) {
      dirs[k] = it->dir;
      todo[i - from] = ++k;
    } else if (r == -1)
      j->no_digest = true;
    else
      rc = r;
  }
  upk__ix_pool *pool = NULL;
  if (!rc && k)
    rc = upk__ix_pool_start(&pool, dirs, parsed, k);
  for (size_t i = from; !rc && i < to; i++) {
    job_item *it = &j->items[i];
    scan sc = item_scan(ix, j, it, diags);
    const job_item *o = it->same ? &j->items[it->same - 1] : NULL;
    size_t slot = todo[i - from];
    if (slot) {
      upk__ix_pool_wait(pool, slot - 1);
      it->doc = upk__ix_store_doc(&sc, &pr[slot - 1], &parsed[slot - 1], &it->name);
      upk__ix_parsed_free(&parsed[slot - 1]);
      rc = it->doc < 0 ? (int)it->doc : 0;
      j->no_digest |= it->doc == 0;
    }
    if (rc)
      break;
    if (o && o->doc > 0) /* parsed (or found unchanged) through the earlier root */
      rc = place_again(j, &sc, it->dir, o->doc, o->name);
    else if (!o && it->doc > 0)
      rc = place_again(j, &sc, it->dir, it->doc, it->name);
  }
  upk__ix_pool_done(pool);
  free(pr);
  free(parsed);
  free(dirs);
  free(todo);
  return rc;
}

int upk_index_scan_step(upk_index *ix, size_t max, upk_index_stats *stats, upk_diags *diags) {
  struct upk__ix_job *j = ix->job;
  if (!j)
    return upk__ix_fail(ix, -EINVAL, "no scan under way");
  if (upk__ix_exec(ix, "BEGIN IMMEDIATE")) { /* e.g. another daemon held the file past the
                                              * busy timeout: the scan is given up, not left
                                              * "under way" forever with nobody to step it */
    upk__ix_job_free(ix);
    return -EIO;
  }
  size_t to = max < j->n - j->next ? j->next + max : j->n, parsed = j->st.parsed;
  int rc = j->bulk && j->next == 0 ? set_bulk(ix, true) : 0;
  if (j->unchanged)
    take_as_stored(j);
  else if (!rc && j->next == 0) /* this scan writes: the digest stands for no tree until it ends */
    rc = upk__ix_exec(ix, "DELETE FROM scan_digest; DELETE FROM touched; DELETE FROM cand")
             ? -EIO
             : upk__ix_note_gen(ix, j->gen);
  while (!rc && j->next < to) { /* in chunks: what is held per item is bounded */
    size_t end = to - j->next > SCAN_CHUNK ? j->next + SCAN_CHUNK : to;
    rc = scan_items(ix, j, j->next, end, diags);
    j->next = end;
  }
  bool more = j->next < j->n;
  if (more) {
    if (rc || upk__ix_exec(ix, "COMMIT")) {
      sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
      upk__ix_job_free(ix);
      return rc ? rc : -EIO;
    }
    if (j->st.parsed != parsed) /* a restart's steps store nothing: no recount */
      ix->n_docs = upk__ix_count_docs(ix);
    return 1;
  }
  rc = complete(ix, j, rc);
  if (!rc)
    report_shadows(ix, diags);
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  j->st.ms = (double)(t1.tv_sec - j->t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - j->t0.tv_nsec) / 1e6;
  if (stats)
    *stats = j->st;
  upk__ix_job_free(ix);
  return rc;
}

bool upk_index_scanning(const upk_index *ix, size_t *done, size_t *total) {
  const struct upk__ix_job *j = ix ? ix->job : NULL;
  if (done)
    *done = j ? j->next : 0;
  if (total)
    *total = j ? j->n : 0;
  return j != NULL;
}

int upk_index_scan(upk_index *ix, upk_index_stats *stats, upk_diags *diags) {
  if (stats)
    memset(stats, 0, sizeof *stats);
  int rc = upk_index_scan_begin(ix, NULL, diags);
  return rc ? rc : upk_index_scan_step(ix, SIZE_MAX, stats, diags);
}

void upk_index_strings_free(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}
