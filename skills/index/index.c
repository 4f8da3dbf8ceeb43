/* The skill index: storage (schema, cache file), roots, list, get, shadows.
 * Scanning lives in scan.c (walk.c, refresh.c), lookup in
 * query.c, upkeep (merge, posting store fill) in tidy.c. */
#include "skills/index/db_int.h"
#include "skills/index/roots_int.h"
#include "skills/index/store_int.h"
#include "skills/index/catalog_int.h"

#include "common/env_options.h"

#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fault.h"
#include "common/fileio.h"
#include "common/fnv1a.h"
#include "common/xalloc.h"

/* More segments than this in a table at open: a first index's merge was never done. */
#define MERGE_SEGMENTS 8

/* bm25 column weights: description first (a word there says most about what a skill is for),
 * the name a little less, headings least; `body` weighs the body table's bm25 against the
 * head's, `joint` one bm25 over head and body as one text (joint.c), added to both. Chosen on
 * bench/skills/rank_bench.py's tasks at 10,000 to 40,000 skills (bench/skills/results/). */
static const upk_index_weights default_weights = {3.0, 6.0, 1.0, 1.0, 10.0};

static const char *const scope_names[] = {"project", "user", "builtin", "extra"};

const char *upk_index_scope_name(upk_index_scope s) {
  return (unsigned)s < 4 ? scope_names[s] : "unknown";
}

int upk_index_scope_parse(const char *s, upk_index_scope *out) {
  for (int i = 0; s && i < 4; i++)
    if (!strcmp(s, scope_names[i])) {
      *out = (upk_index_scope)i;
      return 0;
    }
  return -EINVAL;
}

int upk__ix_fail(upk_index *ix, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ix->err, sizeof ix->err, fmt, ap);
  va_end(ap);
  return rc;
}

int upk__ix_sql_fail(upk_index *ix, const char *what) {
  int code = sqlite3_errcode(ix->db);
  int rc = code == SQLITE_NOMEM ? -ENOMEM : code == SQLITE_BUSY ? -EBUSY : -EIO;
  return upk__ix_fail(ix, rc, "index database: %s: %s", what, sqlite3_errmsg(ix->db));
}

const char *upk_index_errmsg(const upk_index *ix) {
  return ix ? ix->err : "no index";
}

static bool is_memory(const char *path);

int upk__ix_exec(upk_index *ix, const char *sql) {
  int f = is_memory(ix->db_path) ? 0 : upk_fault("index.exec"); /* only the file can fail */
  if (f)
    return upk__ix_fail(ix, f, "index database: %s", strerror(-f));
  char *msg = NULL;
  if (sqlite3_exec(ix->db, sql, NULL, NULL, &msg) == SQLITE_OK)
    return 0;
  int code = sqlite3_errcode(ix->db) & 0xff;
  int rc = upk__ix_fail(ix, code == SQLITE_BUSY || code == SQLITE_LOCKED ? -EBUSY : -EIO,
                        "index database: %s", msg ? msg : "error");
  sqlite3_free(msg);
  return rc;
}

int64_t upk__ix_scalar(upk_index *ix, const char *sql) {
  sqlite3_stmt *st;
  int64_t v = -1;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return -1;
  if (sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

char *upk__ix_abspath(const char *p) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  char cwd[PATH_MAX];
  if (p[0] != '/' && getcwd(cwd, sizeof cwd))
    upk_buf_puts(&b, cwd);
  upk_buf_puts(&b, "/");
  upk_buf_puts(&b, p);
  /* Collapse "//", "/./" and "/x/.." in place, lexically. */
  char *out = b.data, *w = b.data;
  for (const char *r = b.data; *r;) {
    while (*r == '/')
      r++;
    const char *e = strchr(r, '/');
    size_t n = e ? (size_t)(e - r) : strlen(r);
    if (n == 0 || (n == 1 && r[0] == '.')) {
    } else if (n == 2 && r[0] == '.' && r[1] == '.') {
      while (w > out && *--w != '/')
        ;
    } else {
      *w++ = '/';
      memmove(w, r, n);
      w += n;
    }
    r += n;
  }
  if (w == out)
    *w++ = '/';
  *w = 0;
  return out;
}

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS root(id INTEGER PRIMARY KEY, dir TEXT NOT NULL, real TEXT,"
    " agent TEXT NOT NULL DEFAULT '', scope INTEGER NOT NULL, priority INTEGER NOT NULL,"
    " ord INTEGER NOT NULL, max_depth INTEGER NOT NULL, truncated INTEGER NOT NULL DEFAULT 0,"
    " UNIQUE(dir, agent));"
    "CREATE TABLE IF NOT EXISTS doc(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,"
    " name TEXT NOT NULL, description TEXT NOT NULL, mtime INTEGER, size INTEGER, ino INTEGER,"
    " usable INTEGER NOT NULL, tokens INTEGER NOT NULL, diags TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS place(id INTEGER PRIMARY KEY, root INTEGER NOT NULL,"
    " dir TEXT NOT NULL, doc INTEGER NOT NULL, name TEXT NOT NULL, gen INTEGER NOT NULL,"
    " visible INTEGER NOT NULL DEFAULT 1, UNIQUE(root, dir));"
    "CREATE INDEX IF NOT EXISTS place_list ON place(name, visible DESC);" /* names; list pages in
                                                                             order */
    "CREATE INDEX IF NOT EXISTS place_doc ON place(doc);"
    /* What a scan's probe reads (ST_DOC_FIND), in the index it searches: no seek into the
     * table's rows, which hold each skill's description and diagnostics. */
    "CREATE INDEX IF NOT EXISTS doc_probe ON doc(path, mtime, size, ino, name);"
    /* Two FTS5 tables: what a skill says it is for (name, description,
     * headings) and its body. Their words are looked up apart: a head's
     * doclists are short, so a lookup can afford every word of the task
     * there, and a body's length does not dilute a match in the head. */
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(name, description, headings,"
    " tokenize='porter unicode61 remove_diacritics 2');"
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts_body USING fts5(body,"
    " tokenize='porter unicode61 remove_diacritics 2');"
    "CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(fts, 'row');"
    "CREATE VIRTUAL TABLE IF NOT EXISTS vocab_body USING fts5vocab(fts_body, 'row');"
    /* A snapshot of vocab's document counts: fts5vocab counts by walking a
     * term's whole doclist, too slow for every lookup. See upk__ix_snapshot_df. */
    "CREATE TABLE IF NOT EXISTS df(term TEXT PRIMARY KEY, head INTEGER NOT NULL,"
    " body INTEGER NOT NULL) WITHOUT ROWID;"
    /* What the last complete full scan walked (upk__ix_job.digest): a scan that walks the
     * same writes nothing. Any other write to doc or place (a refresh, roots changing)
     * deletes it first. */
    "CREATE TABLE IF NOT EXISTS scan_digest(id INTEGER PRIMARY KEY CHECK (id = 0),"
    " digest INTEGER NOT NULL);"
    /* The generation placements were last written with, written in the same transaction:
     * at open, max(gen) over every placement was a scan of the table (18-34 ms at 240,000
     * placements, on a restart's path). A file without the row falls back to that. */
    "CREATE TABLE IF NOT EXISTS scan_gen(id INTEGER PRIMARY KEY CHECK (id = 0),"
    " gen INTEGER NOT NULL);"
    /* Each document's entry of the MCP Skills listing (skills/catalog.h: files, digests,
     * frontmatter), built by the scan that parsed it; `epoch` is the index that built it
     * (upk_index.epoch): one built by another process is not trusted without a look at the
     * disk, for files may have changed while nothing watched them. */
    "CREATE TABLE IF NOT EXISTS catalog(doc INTEGER PRIMARY KEY, epoch INTEGER NOT NULL,"
    " record TEXT NOT NULL);"
    "CREATE TRIGGER IF NOT EXISTS catalog_gone AFTER DELETE ON doc BEGIN"
    " DELETE FROM catalog WHERE doc = old.id; END;"
    "CREATE TEMP TABLE IF NOT EXISTS touched(name TEXT PRIMARY KEY);"
    "CREATE TEMP TABLE IF NOT EXISTS cand(id INTEGER PRIMARY KEY);";

static const char *const stmt_sql[ST_COUNT] = {
    [ST_DOC_FIND] =
        "SELECT id, mtime, size, ino, name FROM doc INDEXED BY doc_probe WHERE path = ?1",
    [ST_DOC_INSERT] =
        "INSERT INTO doc(path, name, description, mtime, size, ino, usable, tokens,"
        " diags) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(path) DO NOTHING",
    [ST_DOC_UPDATE] = "UPDATE doc SET name = ?2, description = ?3, mtime = ?4, size = ?5,"
                      " ino = ?6, usable = ?7, tokens = ?8, diags = ?9 WHERE path = ?1",
    [ST_FTS_DELETE] = "DELETE FROM fts WHERE rowid = ?1",
    [ST_FTS_INSERT] = "INSERT INTO fts(rowid, name, description, headings) VALUES(?1, ?2, ?3, ?4)",
    [ST_BODY_DELETE] = "DELETE FROM fts_body WHERE rowid = ?1",
    [ST_BODY_INSERT] = "INSERT INTO fts_body(rowid, body) VALUES(?1, ?2)",
    [ST_PLACE_UPSERT] = "INSERT INTO place(root, dir, doc, name, gen) VALUES(?1, ?2, ?3, ?4, ?5)"
                        " ON CONFLICT(root, dir) DO UPDATE SET doc = excluded.doc,"
                        " name = excluded.name, gen = excluded.gen",
    [ST_TOUCH_SUB] = "INSERT OR IGNORE INTO touched(name) SELECT name FROM place WHERE root = ?1"
                     " AND " UPK_SUBTREE,
    [ST_CAND_SUB] = "INSERT OR IGNORE INTO cand(id) SELECT doc FROM place WHERE root = ?1"
                    " AND " UPK_SUBTREE,
    [ST_TOUCH_NAME] = "INSERT OR IGNORE INTO touched(name) VALUES(?1)",
    [ST_TOUCH_DOC] = "INSERT OR IGNORE INTO touched(name) SELECT name FROM place WHERE doc = ?1",
    [ST_CAND_DOC] = "INSERT OR IGNORE INTO cand(id) VALUES(?1)",
    [ST_SWEEP] = "DELETE FROM place WHERE root = ?1 AND gen < ?3 AND " UPK_SUBTREE,
    /* No ORDER BY: a sorter for a doc's few placements cost 22,000 instructions a hit; the
     * lookup picks the best that an agent asked for reads (fill_entry). */
    [ST_DOC_ENTRY] = "SELECT p.root, p.dir, p.name, d.description, d.path, d.tokens FROM doc d"
                     " JOIN place p ON p.doc = d.id WHERE d.id = ?1 AND d.usable AND p.visible",
    [ST_NAME_INSTALLED] = "SELECT DISTINCT p.doc FROM place p JOIN root r ON r.id = p.root"
                          " WHERE p.name = ?1 AND p.visible AND r.scope != ?2",
    [ST_VOCAB_DF] = "SELECT head, body FROM df WHERE term = ?1",
    [ST_TERM_HEAD] = "SELECT doc FROM vocab WHERE term = ?1",
    [ST_TERM_BODY] = "SELECT doc FROM vocab_body WHERE term = ?1",
    /* Stepped once: upk_rank() (rank.c), called for the first row,
     * ranks every row into its context (?2), with which word matched where;
     * ST_HEAD_TEXT serves a hit only the body ranked. */
    [ST_LOOKUP] = "SELECT upk_rank(fts, ?2) FROM fts WHERE fts MATCH ?1",
    [ST_LOOKUP_BODY] = "SELECT upk_rank(fts_body, ?2) FROM fts_body WHERE fts_body MATCH ?1",
    [ST_HEAD_TEXT] = "SELECT name, description, headings FROM fts WHERE rowid = ?1",
    [ST_DATA_VERSION] = "PRAGMA data_version",
    /* FTS5's own table of row sizes (a varint per column): see rank.c. */
    [ST_HEAD_SIZES] = "SELECT id, sz FROM fts_docsize",
    [ST_BODY_SIZES] = "SELECT id, sz FROM fts_body_docsize",
    [ST_ROOTS] = "SELECT id, agent, scope, priority, dir, ord, truncated FROM root ORDER BY id",
    [ST_BEGIN] = "BEGIN", /* a lookup's read transaction, not parsed at each lookup */
    [ST_COMMIT] = "COMMIT",
};

static bool is_memory(const char *path) {
  return !path || !*path || !strcmp(path, ":memory:");
}

static void unlink_db_files(const char *path) {
  static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
  char p[PATH_MAX];
  for (int i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s%s", path, sfx[i]);
    unlink(p);
  }
}

/* The directories above the index file (mkdir -p of its dirname). */
static int mkdirs(const char *path) {
  char *dir = upk_xstrdup(path);
  int rc = upk_mkdir_p(dirname(dir), 0700);
  free(dir);
  return rc;
}

/* A cache file of another schema version, or one SQLite cannot read, is not
 * worth keeping: it only holds what a scan rebuilds. */
static bool cache_usable(sqlite3 *db) {
  sqlite3_stmt *st;
  /* Another daemon of this project may hold the file (creating it, or writing): what cannot be
   * read now is not known to be another's, and deleting it would pull the index from under
   * that daemon. It is kept; setup_db then waits for it or fails saying why. The version and
   * the tables are read in one statement, so from one snapshot: read apart, another daemon's
   * schema committed between them looked like a file of tables without a version, not ours,
   * and was deleted under the nine that had it open. */
  if (sqlite3_prepare_v2(db,
                         "SELECT (SELECT user_version FROM pragma_user_version),"
                         " (SELECT count(*) FROM sqlite_master)",
                         -1, &st, NULL) != SQLITE_OK)
    return sqlite3_errcode(db) == SQLITE_BUSY || sqlite3_errcode(db) == SQLITE_LOCKED;
  int rc = sqlite3_step(st);
  int v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  bool empty = rc == SQLITE_ROW && sqlite3_column_int(st, 1) == 0;
  sqlite3_finalize(st);
  if (v == UPK_INDEX_SCHEMA || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
    return true;
  /* Version 0 is a fresh, empty file: usable. With tables it is not ours. */
  return v == 0 && empty;
}

/* SQLite's memory statistics take a global mutex on every allocation: 7 % of a lookup's time,
 * for figures nobody reads; a page cache's first slab (20 pages of 16 KiB, all touched) is 333
 * KiB of an idle daemon. Only settable before SQLite is initialized. */
static void no_memstatus(void) {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

static int open_db(upk_index *ix) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, no_memstatus);
  const char *path = is_memory(ix->db_path) ? ":memory:" : ix->db_path;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  for (int attempt = 0; attempt < 2; attempt++) {
    int opened = sqlite3_open_v2(path, &ix->db, flags, NULL);
    if (ix->db) /* daemons of one project share the file: wait for one another's locks */
      sqlite3_busy_timeout(ix->db, 5000);
    if (opened != SQLITE_OK) {
      int rc = upk__ix_fail(ix, -EIO, "cannot open the index database %s: %s", path,
                            ix->db ? sqlite3_errmsg(ix->db) : "out of memory");
      sqlite3_close(ix->db);
      ix->db = NULL;
      return rc;
    }
    if (!strcmp(path, ":memory:") || cache_usable(ix->db))
      return 0;
    sqlite3_close(ix->db);
    ix->db = NULL;
    unlink_db_files(path);
  }
  return upk__ix_fail(ix, -EIO, "the index cache %s cannot be rebuilt", path);
}

static int setup_db_once(upk_index *ix) {
  /* 16 KiB pages rather than 4 (it takes effect when the file is created): a first index
   * writes every page to the WAL and again at each checkpoint, a header and a page per
   * frame. 60,000 skills: 20-24 -> 16-17 s, daemon CPU 33 -> 28 s; lookups and
   * one-skill refreshes took the same time. */
  int rc;
  if ((rc = upk__ix_exec(ix, "PRAGMA page_size=16384")))
    return rc;
  /* A cache: losing it on a crash costs one rescan, so no fsyncs. */
  if (!is_memory(ix->db_path) && (rc = upk__ix_exec(ix, "PRAGMA journal_mode=WAL")))
    return rc;
  /* 32 MiB of page cache: a lookup's pages (the words' doclists, the hits'
   * rows) stay in it from one lookup to the next; with 8 MiB a lookup at
   * 10,000 skills read 36 pages back from the file (0.95 -> 0.79 ms). */
  if ((rc = upk__ix_exec(ix, "PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;"
                             "PRAGMA cache_size=" UPK_IX_CACHE_KIB)))
    return rc;
  /* IMMEDIATE: the write lock first, waited for (busy timeout), rather than a read lock that
   * another daemon's write makes fail at once when it would be upgraded. */
  if ((rc = upk__ix_exec(ix, "BEGIN IMMEDIATE")) || (rc = upk__ix_exec(ix, schema_sql))) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    if (strstr(ix->err, "fts5"))
      return upk__ix_fail(ix, -ENOTSUP, "this SQLite has no FTS5: %s", ix->err);
    return rc;
  }
  /* Merge FTS5 segments a little on every write (automerge 2) rather than
   * rarely and a lot: with the default (4) an occasional refresh of one skill
   * paid for a 20-100 ms merge; with 2 the worst is ~3 ms, and a full index
   * costs about the same. */
  if ((rc = upk__ix_exec(ix, "INSERT INTO fts(fts, rank) VALUES('automerge', 2);"
                             "INSERT INTO fts_body(fts_body, rank) VALUES('automerge', 2)"))) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
  }
  char v[64];
  snprintf(v, sizeof v, "PRAGMA user_version=%d; COMMIT", UPK_INDEX_SCHEMA);
  if ((rc = upk__ix_exec(ix, v)))
    return rc;
  for (int i = 0; i < ST_COUNT; i++)
    if (sqlite3_prepare_v3(ix->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &ix->st[i], NULL) !=
        SQLITE_OK)
      return upk__ix_sql_fail(ix, "prepare");
  return 0;
}

/* SQLite returns "database is locked" at once, without waiting, where waiting could deadlock:
 * ten daemons of one project creating the shared file together, one of them holding a read lock
 * while it asks to turn on WAL as another commits the schema. The one told so lets go of its
 * locks (the rollback) and starts again a little later; the others finish meanwhile. */
static int setup_db(upk_index *ix) {
  sqlite3_busy_timeout(ix->db, 5000);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    int rc = setup_db_once(ix);
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (rc != -EBUSY || t.tv_sec - t0.tv_sec >= 10)
      return rc;
    if (sqlite3_get_autocommit(ix->db) == 0)
      sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < ST_COUNT; i++) {
      sqlite3_finalize(ix->st[i]);
      ix->st[i] = NULL;
    }
    /* 10-50 ms, for up to 10 s */
    usleep(10000 + (unsigned)((getpid() + t.tv_nsec / 1000) % 40) * 1000);
  }
}

char *upk_index_default_path(const char *workspace) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  /* One file per workspace, stable across runs. */
  const char *ws = workspace ? workspace : "";
  uint64_t h = upk_fnv1a(UPK_FNV1A_INIT, ws, strlen(ws));
  if (xdg && xdg[0] == '/')
    return upk_xasprintf("%s/upskilld/index-v%d-%016llx.sqlite", xdg, UPK_INDEX_SCHEMA,
                         (unsigned long long)h);
  return upk_xasprintf("%s/.cache/upskilld/index-v%d-%016llx.sqlite", home ? home : "/tmp",
                       UPK_INDEX_SCHEMA, (unsigned long long)h);
}

int upk_index_open(upk_index **out, const upk_index_options *opt) {
  *out = NULL;
  upk_index *ix = upk_xcalloc(1, sizeof *ix);
  upk_index_options o = opt ? *opt : (upk_index_options){0};
  ix->max_dirs = o.max_dirs > 0 ? o.max_dirs : UPK_INDEX_MAX_DIRS;
  ix->w = default_weights;
  ix->keep_twins = o.keep_twins;
  ix->epoch = upk__ix_new_epoch(ix);
  if (o.weights.name || o.weights.description || o.weights.headings || o.weights.body ||
      o.weights.joint)
    ix->w = o.weights;
  else
    ix->learned = true; /* weights of one's own ask for the plain bm25 sum (test_rank) */
  /* Read once: lookups run on the thread pool, and getenv there races a setenv. */
  const char *dump = upk_env_opts()->rank_dump;
  ix->rank_dump = dump ? upk_xstrdup(dump) : NULL;
  ix->project_real = o.project_dir ? realpath(o.project_dir, NULL) : NULL;
  int rc = -ENOMEM;
  if (!is_memory(o.db_path)) {
    ix->db_path = upk_xstrdup(o.db_path);
    if ((rc = mkdirs(ix->db_path)) < 0) {
      upk__ix_fail(ix, rc, "cannot create the directory of %s: %s", ix->db_path, strerror(-rc));
      goto fail;
    }
  }
  if ((rc = open_db(ix)) || (rc = upk__ix_query_init(ix)) || (rc = setup_db(ix)))
    goto fail;
  ix->gen = upk__ix_scalar(
      ix, "SELECT coalesce((SELECT gen FROM scan_gen), (SELECT max(gen) FROM place), 0)");
  ix->n_docs = upk__ix_count_docs(ix);
  /* A first index that ended before its snapshot (upk_index_tidy() takes it at the end of
   * the merge): the next full scan takes it. */
  ix->df_stale =
      ix->n_docs > 0 && !upk__ix_scalar(ix, "SELECT count(*) FROM (SELECT 1 FROM df LIMIT 1)");
  /* ... and so did its merge: a daemon stopped seconds after a first index left the segments
   * of its batches, and the lookups of every later session were ten times slower (60,000
   * skills: 17 segments a table, 18 ms in-process against 1). An earlier version took the
   * statistics at the next restart all the same: then the segments say it (FTS5's own
   * merging as refreshes write keeps a few; reading their ids takes under a millisecond). */
  ix->merge_pending =
      ix->df_stale ||
      upk__ix_scalar(ix, "SELECT max((SELECT count(DISTINCT segid) FROM fts_idx),"
                         " (SELECT count(DISTINCT segid) FROM fts_body_idx))") > MERGE_SEGMENTS;
  *out = ix;
  return 0;
fail:
  if (ix->err[0])
    fprintf(stderr, "upskilld: %s\n", ix->err);
  upk_index_close(ix);
  return rc < 0 ? rc : -EIO;
}

void upk_index_close(upk_index *ix) {
  if (!ix)
    return;
  upk__ix_query_close(ix);
  upk__ix_job_free(ix);
  upk__ix_catalog_close(ix);
  for (int i = 0; i < ST_COUNT; i++)
    sqlite3_finalize(ix->st[i]);
  sqlite3_close(ix->db);
  free(ix->db_path);
  free(ix->rank_dump);
  free(ix->project_real);
  upk__ix_roots_free(ix);
  free(ix);
}

long upk__ix_count_docs(upk_index *ix) {
  return (long)upk__ix_scalar(ix, "SELECT count(*) FROM doc");
}

long upk_index_count(upk_index *ix) {
  return ix->n_docs;
}

/* ---- roots ---- */

static int upsert_root(upk_index *ix, sqlite3_stmt *st, const upk_index_root *r, int ord) {
  if (!r->dir || !*r->dir)
    return upk__ix_fail(ix, -EINVAL, "root %d has no directory", ord);
  char *dir = upk__ix_abspath(r->dir);
  if (!dir)
    return -ENOMEM;
  char *real = realpath(dir, NULL);
  int depth = r->max_depth < 1                     ? 1
              : r->max_depth > UPK_INDEX_MAX_DEPTH ? UPK_INDEX_MAX_DEPTH
                                                   : r->max_depth;
  sqlite3_reset(st);
  sqlite3_bind_text(st, 1, dir, -1, SQLITE_TRANSIENT);
  if (real && strcmp(real, dir))
    sqlite3_bind_text(st, 2, real, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(st, 2);
  sqlite3_bind_text(st, 3, r->agent ? r->agent : "", -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 4, r->scope);
  sqlite3_bind_int(st, 5, r->priority);
  sqlite3_bind_int(st, 6, ord);
  sqlite3_bind_int(st, 7, depth);
  int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : upk__ix_sql_fail(ix, "set roots");
  free(dir);
  free(real);
  return rc;
}

/* The roots as stored, as one string: equal before and after set_roots when
 * nothing about them changed (a restart), so shadowing need not be redone. */
static char *roots_signature(upk_index *ix) {
  static const char sql[] =
      "SELECT group_concat(id || '|' || dir || '|' || ifnull(real, '') || '|' || agent || '|' ||"
      " scope || '|' || priority || '|' || ord || '|' || max_depth, ';')"
      " FROM (SELECT * FROM root ORDER BY id)";
  sqlite3_stmt *st;
  char *out = NULL;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return NULL;
  if (sqlite3_step(st) == SQLITE_ROW)
    out = upk_xstrdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
  sqlite3_finalize(st);
  return out;
}

int upk_index_set_roots(upk_index *ix, const upk_index_root *roots, size_t n) {
  static const char sql[] =
      "INSERT INTO root(dir, real, agent, scope, priority, ord, max_depth)"
      " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(dir, agent) DO UPDATE SET"
      " real = excluded.real, scope = excluded.scope, priority = excluded.priority,"
      " ord = excluded.ord, max_depth = excluded.max_depth";
  sqlite3_stmt *st = NULL;
  upk__ix_job_free(ix);                    /* its roots may be gone */
  if (upk__ix_exec(ix, "BEGIN IMMEDIATE")) /* it writes: wait for another daemon's write */
    return -EIO;
  char *was = roots_signature(ix);
  if (upk__ix_exec(ix, "UPDATE root SET ord = -1")) {
    free(was);
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return -EIO;
  }
  int rc = sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) ? upk__ix_sql_fail(ix, "set roots") : 0;
  for (size_t i = 0; !rc && i < n; i++)
    rc = upsert_root(ix, st, &roots[i], (int)i);
  sqlite3_finalize(st);
  int before = sqlite3_total_changes(ix->db);
  if (!rc)
    rc = upk__ix_exec(ix, "DELETE FROM place WHERE root IN (SELECT id FROM root WHERE ord < 0);"
                          "DELETE FROM root WHERE ord < 0");
  /* Only a root that went away changes documents (a restart usually does not:
   * the statistics snapshot walks the whole FTS index, seconds for a registry). */
  bool gone = sqlite3_total_changes(ix->db) != before;
  if (!rc && gone)
    rc = upk__ix_drop_orphans(ix, true);
  char *now = rc ? NULL : roots_signature(ix);
  if (!rc && (!was || !now || strcmp(was, now))) /* a root's id may come back, its skills not */
    rc = upk__ix_exec(ix, "DELETE FROM scan_digest") ? -EIO : upk__ix_visibility(ix, true);
  free(was);
  free(now);
  if (!rc && gone)
    rc = upk__ix_snapshot_df(ix);
  if (rc || upk__ix_exec(ix, "COMMIT")) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return rc ? rc : -EIO;
  }
  ix->n_docs = upk__ix_count_docs(ix);
  return 0;
}

/* all: every document; else only those in the temp table `cand` (the ones
 * placements under a refreshed path pointed to), so a refresh does not scan
 * every document. */
int upk__ix_drop_orphans(upk_index *ix, bool all) {
  static const char sql_all[] =
      "DELETE FROM fts WHERE rowid IN (SELECT id FROM doc WHERE NOT EXISTS"
      " (SELECT 1 FROM place WHERE place.doc = doc.id));"
      "DELETE FROM fts_body WHERE rowid IN (SELECT id FROM doc WHERE NOT EXISTS"
      " (SELECT 1 FROM place WHERE place.doc = doc.id));"
      "DELETE FROM doc WHERE NOT EXISTS (SELECT 1 FROM place WHERE place.doc = doc.id)";
  static const char sql_cand[] =
      "DELETE FROM cand WHERE EXISTS (SELECT 1 FROM place WHERE place.doc = cand.id);"
      "DELETE FROM fts WHERE rowid IN (SELECT id FROM cand);"
      "DELETE FROM fts_body WHERE rowid IN (SELECT id FROM cand);"
      "DELETE FROM doc WHERE id IN (SELECT id FROM cand);"
      "DELETE FROM cand";
  return upk__ix_exec(ix, all ? sql_all : sql_cand);
}

/* The winner of a name for one agent: usable first (agents skip the others,
 * so those shadow nothing), then priority, scope, root order, path. */
int upk__ix_visibility(upk_index *ix, bool all) {
  static const char sql_all[] =
      "UPDATE place SET visible = v.rn = 1 FROM (SELECT p.id, row_number() OVER ("
      "PARTITION BY r.agent, p.name ORDER BY d.usable DESC, r.priority DESC, r.scope, r.ord,"
      " p.dir) AS rn FROM place p JOIN root r ON r.id = p.root JOIN doc d ON d.id = p.doc) AS v"
      " WHERE v.id = place.id AND place.visible != (v.rn = 1)";
  static const char sql_touched[] =
      "UPDATE place SET visible = v.rn = 1 FROM (SELECT p.id, row_number() OVER ("
      "PARTITION BY r.agent, p.name ORDER BY d.usable DESC, r.priority DESC, r.scope, r.ord,"
      " p.dir) AS rn FROM place p JOIN root r ON r.id = p.root JOIN doc d ON d.id = p.doc"
      " WHERE p.name IN (SELECT name FROM touched)) AS v"
      " WHERE v.id = place.id AND place.visible != (v.rn = 1)";
  return upk__ix_exec(ix, all ? sql_all : sql_touched);
}
