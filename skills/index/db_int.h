/** The index's storage, shared by every file of skills/index/: the open index (struct
 * upk_index), its prepared statements and the SQL every module builds on (index.c). Not API.
 * Shared names (every header of this room): upk__ix_. */
#ifndef UPK_SKILLS_INDEX_DB_INT_H
#define UPK_SKILLS_INDEX_DB_INT_H

#include <sqlite3.h>
#include <stdint.h>
#include <sys/types.h>

#include "skills/index.h"
#include "common/dynbuf.h"
#include "common/strpool.h"

/** Bump when the schema or what is stored changes: older cache files are then
 * deleted and rebuilt instead of being read wrongly. */
#define UPK_INDEX_SCHEMA 4

/** Each connection's page cache (PRAGMA cache_size: negative is KiB). */
#define UPK_IX_CACHE_KIB "-32768"

/* sqlite3.h declares the FTS5 extension API (fts5_api, Fts5ExtensionApi). */

/** Prepared statements, made once per index (ix->st). */
enum {
  ST_DOC_FIND,
  ST_DOC_INSERT,
  ST_DOC_UPDATE,
  ST_FTS_DELETE,
  ST_FTS_INSERT,
  ST_BODY_DELETE,
  ST_BODY_INSERT,
  ST_PLACE_UPSERT,
  ST_TOUCH_SUB,
  ST_CAND_SUB,
  ST_TOUCH_NAME,
  ST_TOUCH_DOC,
  ST_CAND_DOC,
  ST_SWEEP,
  ST_DOC_ENTRY,
  ST_NAME_INSTALLED,
  ST_VOCAB_DF,
  ST_TERM_HEAD, /* a term's document count from fts5vocab itself, while `df` is stale */
  ST_TERM_BODY,
  ST_LOOKUP,
  ST_LOOKUP_BODY,
  ST_HEAD_TEXT,
  ST_DATA_VERSION,
  ST_HEAD_SIZES,
  ST_BODY_SIZES,
  ST_ROOTS,
  ST_BEGIN,
  ST_COMMIT,
  ST_COUNT
};

/** Per rowid, one table's ranking under way: score so far, phrases seen. */
typedef struct upk__ix_scratch {
  double *acc;
  unsigned char *count;
  size_t cap;
  int64_t *touched; /* the rows met, each once */
  size_t touched_cap;
  void *heap; /* the best rows so far */
  size_t heap_cap;
} upk__ix_scratch;

/** An open index: its connection, statements and what every module keeps of it. */
struct upk_index {
  sqlite3 *db;
  char *db_path;
  int max_dirs;
  upk_index_weights w;
  sqlite3_stmt *st[ST_COUNT];
  fts5_api *fts;
  fts5_tokenizer tok_api;
  Fts5Tokenizer *tok;
  int64_t gen;                /* scan generation: placements not re-marked are removed */
  struct upk__ix_job *job;    /* a stepped full scan under way, else NULL */
  long n_docs;                /* cached count for the idf-based term choices */
  bool df_stale;              /* `df` not snapshot since the first index: lookups ask fts5vocab */
  bool keep_twins;            /* upk_index_options' */
  bool learned;               /* the default weights: the best candidates' learned order */
  char *rank_dump;            /* UPSKILLD_RANK_DUMP at open: the pool's features go there */
  char *project_real;         /* upk_index_options' project_dir made real, or NULL */
  bool merge_pending;         /* the first index's merge has not ended (its snapshot with it) */
  char *parent, *parent_real; /* the last skill parent directory resolved, see resolve() */
  uint32_t *size[2];          /* rows' sizes in tokens + 1 (0: unknown), rank.c */
  size_t size_cap[2];
  bool size_loaded[2];      /* read from %_docsize since open (or another's commit) */
  uint32_t size_changed[2]; /* rows written since they were read, see upk__ix_rank_begin */
  int64_t data_version;     /* PRAGMA data_version when last looked */
  struct {                  /* the roots' rows, kept (roots.c) */
    bool ok;
    int64_t version;
    struct upk__ix_root_row *v; /* by id */
    size_t n;
  } roots;
  upk__ix_scratch scratch[2];     /* head / body ranking's per-row sums, see rank.c */
  unsigned char *slot;            /* per rowid, zero between uses: upk__ix_slots() */
  struct upk__ix_query *lookup_q; /* a lookup's working space, kept (query.c) */
  size_t slot_cap;
  struct upk__ix_pcache *pcache; /* phrases' rows kept between lookups, postings.c */
  bool pcache_stale;             /* a row changed since: drop them at the next lookup */
  struct upk__ix_store *store;   /* single words' rows, compact, store.c */
  int64_t epoch;                 /* this open's stamp on the catalog records it builds */
  sqlite3_stmt *cat_st[3];       /* catalog.c's statements, made at first use */
  uint64_t listing_changes;      /* rows the listing reads, changed (entries.c) */
  bool listing_watched;          /* ... counted from the first upk_index_stamp on */
  char err[512];
};

/* index.c, save where another file is named. */
/** Notes the error message upk_index_errmsg() returns, and returns rc. */
int upk__ix_fail(upk_index *ix, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Notes SQLite's last error on `what` and returns it as -ENOMEM, -EBUSY or -EIO. */
int upk__ix_sql_fail(upk_index *ix, const char *what);
/** Runs `sql` (statements that return no rows): 0, or the error, noted. */
int upk__ix_exec(upk_index *ix, const char *sql);
/** Run `sql` and return the first column of the first row as an integer. */
int64_t upk__ix_scalar(upk_index *ix, const char *sql);
/** Step a statement that returns no row once and reset it: SQLITE_DONE, or the step's error. */
static inline int upk__ix_step_once(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc;
}
/** Counts the stored documents (a query; upk_index_count() returns the last count). */
long upk__ix_count_docs(upk_index *ix);
/** Recompute which placements are visible (shadowing); all = every name,
 * else only names in the temp table `touched`. */
int upk__ix_visibility(upk_index *ix, bool all);
/** Remove documents (and their FTS rows) no placement refers to any more:
 * all, or only the candidates noted in the temp table `cand`. */
int upk__ix_drop_orphans(upk_index *ix, bool all);
/** Rebuild the document-frequency snapshot used to choose query words. */
int upk__ix_snapshot_df(upk_index *ix);
/** Fill an entry from the standard column list (ENTRY_COLS) starting at col (entries.c). */
int upk__ix_entry_from_row(sqlite3_stmt *st, int col, upk_index_entry *e);
/** Serialize diagnostics for storage; malloc'd ("" when none) (entries.c). */
char *upk__ix_diags_pack(const upk_diags *d);
/** Lexically normalize to an absolute path (no symlinks resolved). */
char *upk__ix_abspath(const char *p);

/** The placement columns every entry is built from, in upk__ix_entry_from_row's order. */
#define UPK_ENTRY_COLS                                                                             \
  "p.name, d.description, d.path, p.dir, r.dir, r.agent, r.scope, r.priority, p.visible, "         \
  "d.usable, d.tokens, d.diags"
/** Placements at or below ?2, as index ranges on (root, dir): '0' is the
 * byte after '/'. ?2 = '' is the whole root (every path starts with '/'):
 * an "?2 IS NULL OR" instead kept SQLite from using the index, and every
 * refresh then read all of a root's placements three times. */
#define UPK_SUBTREE "(dir = ?2 OR (dir > ?2 || '/' AND dir < ?2 || '0'))"
/** The joins UPK_ENTRY_COLS reads from. */
#define UPK_ENTRY_FROM "place p JOIN doc d ON d.id = p.doc JOIN root r ON r.id = p.root"

/** Steps st (a statement that returns no rows) and resets it: 0 or -EIO, reported (walk.c). */
int upk__ix_step_done(upk_index *ix, sqlite3_stmt *st, const char *what);

/* What index.c calls of the other files when it opens and closes an index. */
/** Forgets a stepped scan (close, or a new one) and frees it; none is fine (scan.c). */
void upk__ix_job_free(upk_index *ix);
/** Sets up the tokenizer, the why() function and the ranking: 0, or an error that
 * upk_index_errmsg() says (query.c). */
int upk__ix_query_init(upk_index *ix);
/** Frees what upk__ix_query_init() set up (query.c). */
void upk__ix_query_close(upk_index *ix);
/** Frees the lookups' working space, made again by the next lookup (query.c). */
void upk__ix_query_trim(upk_index *ix);

#endif
