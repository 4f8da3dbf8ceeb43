/** Internals shared by index.c (storage, list, get), the scan (scan.c,
 * walk.c, refresh.c; their own shared parts in scan_int.h)
 * and query.c (lookup). Not part of the API. */
#ifndef UPK_INDEX_INT_H
#define UPK_INDEX_INT_H

#include <sqlite3.h>
#include <stdint.h>
#include <sys/types.h>

#include "skills/index.h"
#include "common/dynbuf.h"
#include "common/strpool.h"

/* Bump when the schema or what is stored changes: older cache files are then
 * deleted and rebuilt instead of being read wrongly. */
#define UPK_INDEX_SCHEMA 4

/* Each connection's page cache (PRAGMA cache_size: negative is KiB). */
#define UPK_IX_CACHE_KIB "-32768"

/* sqlite3.h declares the FTS5 extension API (fts5_api, Fts5ExtensionApi). */

/* Prepared statements, made once per index. */
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
  ST_DOC_PLACES,
  ST_DOC_INFO,
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
  ST_COUNT
};

/* Per rowid, one table's ranking under way: score so far, phrases seen. */
typedef struct upk_ix_scratch {
  double *acc;
  unsigned char *count;
  size_t cap;
} upk_ix_scratch;

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
  struct upk_ix_job *job;     /* a stepped full scan under way, else NULL */
  long n_docs;                /* cached count for the idf-based term choices */
  bool df_stale;              /* `df` not snapshot since the first index: lookups ask fts5vocab */
  bool keep_twins;            /* upk_index_options' */
  bool learned;               /* the default weights: the best candidates' learned order */
  char *rank_dump;            /* UPSKILLD_RANK_DUMP at open: the pool's features go there */
  bool merge_pending;         /* the first index's merge has not ended (its snapshot with it) */
  char *parent, *parent_real; /* the last skill parent directory resolved, see resolve() */
  uint32_t *size[2];          /* rows' sizes in tokens + 1 (0: unknown), rank.c */
  size_t size_cap[2];
  bool size_loaded[2];          /* read from %_docsize since open (or another's commit) */
  int64_t data_version;         /* PRAGMA data_version when last looked */
  upk_ix_scratch scratch[2];    /* head / body ranking's per-row sums, see rank.c */
  struct upk_ix_pcache *pcache; /* phrases' rows kept between lookups, postings.c */
  bool pcache_stale;            /* a row changed since: drop them at the next lookup */
  int64_t epoch;                /* this open's stamp on the catalog records it builds */
  sqlite3_stmt *cat_st[3];      /* catalog.c's statements, made at first use */
  uint64_t listing_changes;     /* rows the listing reads, changed (entries.c) */
  bool listing_watched;         /* ... counted from the first upk_index_stamp on */
  char err[512];
};

/* index.c */
int upk_ix_fail(upk_index *ix, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int upk_ix_sql_fail(upk_index *ix, const char *what);
int upk_ix_exec(upk_index *ix, const char *sql);
/** Run `sql` and return the first column of the first row as an integer. */
int64_t upk_ix_scalar(upk_index *ix, const char *sql);
/** Counts the stored documents (a query; upk_index_count() returns the last count). */
long upk_ix_count_docs(upk_index *ix);
/** Recompute which placements are visible (shadowing); all = every name,
 * else only names in the temp table `touched`. */
int upk_ix_visibility(upk_index *ix, bool all);
/** Remove documents (and their FTS rows) no placement refers to any more:
 * all, or only the candidates noted in the temp table `cand`. */
int upk_ix_drop_orphans(upk_index *ix, bool all);
/** Rebuild the document-frequency snapshot used to choose query words. */
int upk_ix_snapshot_df(upk_index *ix);
/** Fill an entry from the standard column list (ENTRY_COLS) starting at col. */
int upk_ix_entry_from_row(sqlite3_stmt *st, int col, upk_index_entry *e);
/** Serialize diagnostics for storage; malloc'd ("" when none). */
char *upk_ix_diags_pack(const upk_diags *d);
/** Lexically normalize to an absolute path (no symlinks resolved). */
char *upk_ix_abspath(const char *p);

/* The placement columns every entry is built from, in upk_ix_entry_from_row's order. */
#define UPK_ENTRY_COLS                                                                             \
  "p.name, d.description, d.path, p.dir, r.dir, r.agent, r.scope, r.priority, p.visible, "         \
  "d.usable, d.tokens, d.diags"
/* Placements at or below ?2, as index ranges on (root, dir): '0' is the
 * byte after '/'. ?2 = '' is the whole root (every path starts with '/'):
 * an "?2 IS NULL OR" instead kept SQLite from using the index, and every
 * refresh then read all of a root's placements three times. */
#define UPK_SUBTREE "(dir = ?2 OR (dir > ?2 || '/' AND dir < ?2 || '0'))"
#define UPK_ENTRY_FROM "place p JOIN doc d ON d.id = p.doc JOIN root r ON r.id = p.root"

/* parse.c: a skill parsed into what the index stores. */
/* Bytes of a body's prose that are searched (code blocks left out). */
#define UPK_INDEX_BODY_MAX 4096
typedef struct upk_ix_parsed {
  int rc;      /* upk_skill_load's: negative when the skill cannot be loaded */
  upk_diags d; /* loading and lenient validation */
  char *name, *desc, *name_col, *body, *packed;
  char *catalog; /* the MCP Skills listing's record (skills/catalog.h); NULL: none */
  bool usable;
  size_t tokens;
} upk_ix_parsed;
/** Load and validate the skill in dir. Thread-safe: touches no index. */
void upk_ix_parse(const char *dir, upk_ix_parsed *out);
void upk_ix_parsed_free(upk_ix_parsed *p);
/** Helper threads parsing dirs[0..n) into out[] ahead of the caller. */
typedef struct upk_ix_pool upk_ix_pool;
int upk_ix_pool_start(upk_ix_pool **pool, const char *const *dirs, upk_ix_parsed *out, size_t n);
/** Wait until out[i] is parsed (parsing it here when no helper took it yet). Items are
 * waited for in order; waiting for i says that out[0..i) are done with. */
void upk_ix_pool_wait(upk_ix_pool *pool, size_t i);
/** Stop and join the helpers; frees what was parsed and not taken. NULL is fine. */
void upk_ix_pool_done(upk_ix_pool *pool);

/** Steps st (a statement that returns no rows) and resets it: 0 or -EIO, reported. */
int upk_ix_step_done(upk_index *ix, sqlite3_stmt *st, const char *what);

/* places.c: stored placements, for a full scan to find again. */
typedef struct upk_ix_place {
  int64_t id, root, doc;
  char *dir, *name;
  bool seen; /* found again by this scan (or written by it) */
} upk_ix_place;
typedef struct upk_ix_places {
  upk_ix_place *v; /* in the order they were stored */
  size_t n, cap;
  size_t next;         /* after the last one found: a scan mostly asks in this order */
  uint32_t *slots;     /* by (root, dir), 1 + an index into v (0: empty); built at a first miss */
  size_t mask;         /* slots - 1, a power of two minus one */
  upk_strpool strings; /* the places' dir and name */
} upk_ix_places;
int upk_ix_places_load(upk_index *ix, upk_ix_places *out);
upk_ix_place *upk_ix_places_find(upk_ix_places *ps, int64_t root, const char *dir);
/* The stored documents as a full scan's probe compares them (ST_DOC_FIND's columns), read in
 * one pass over the doc_probe index instead of a seek per skill. */
typedef struct upk_ix_doc {
  const char *path, *name;
  int64_t id, mtime, size, ino;
} upk_ix_doc;
typedef struct upk_ix_docs {
  upk_ix_doc *v; /* by path, as memcmp orders it (SQLite's BINARY) */
  size_t n, cap, next;
  upk_strpool strings;
} upk_ix_docs;
int upk_ix_docs_load(upk_index *ix, upk_ix_docs *out);
/** The stored document at path, or NULL. Asked in about path order, the one after the last
 * found is tried first. */
const upk_ix_doc *upk_ix_docs_find(upk_ix_docs *ds, const char *path);
void upk_ix_docs_free(upk_ix_docs *ds);
/** Note that a placement (of document doc, named name) goes or changes: its name's shadowing
 * is redone and its document dropped if nothing places it any more (touched, cand). */
int upk_ix_note_unplaced(upk_index *ix, const char *name, int64_t doc);
/** Delete the placements not seen (each noted unplaced); *removed counts them. */
int upk_ix_places_sweep(upk_index *ix, upk_ix_places *ps, size_t *removed);
void upk_ix_places_free(upk_ix_places *ps);

/* scan.c: forget a stepped scan (close, or a new one). */
void upk_ix_job_free(upk_index *ix);

/* words.c: words a task is not asked by, and the full forms of
 * abbreviations (*k: 0 first, then as left; NULL when there are no more). */
bool upk_ix_is_stopword(const char *w);
/** Whether the stopword list is in strcmp order, as the lookup's bsearch needs. */
bool upk_ix_stopwords_sorted(void);
const char *upk_ix_expansion(const char *word, size_t *k);
/** The thesaurus' other words for `word`, as upk_ix_expansion() walks them. */
const char *upk_ix_synonym(const char *word, size_t *k);

/* rank.c: a lookup's rows ranked by bm25 as FTS5 computes it, by the
 * upk_rank() auxiliary function (ST_LOOKUP, ST_LOOKUP_BODY). */
#define UPK_IX_MAX_PHRASES 96 /* phrases of one table's query */
typedef struct upk_ix_phrase {
  const char *text; /* as the MATCH has it, quoted: "word" or "word"* */
  int len;
  /* Its kept list's key: its tokens as the index stores them, on which alone its rows depend
   * ("deploying" and "deployment" are one list), or its text for a prefix or a phrase too
   * long to keep the tokens of. */
  const char *key;
  int key_len;
} upk_ix_phrase;
typedef struct upk_ix_ranked {
  int64_t rowid;
  double score;                           /* -bm25(): higher is better */
  unsigned char cols[UPK_IX_MAX_PHRASES]; /* per phrase: bit c when it occurs in column c */
} upk_ix_ranked;
/* One row of one phrase, as a ranking notes it. */
typedef struct upk_ix_posting {
  int64_t rowid;
  double freq;        /* occurrences, each weighed by its column's weight, as bm25() sums them */
  double term;        /* the row's bm25 term for the phrase (its idf and the table's average
                       * size hold until a row changes, which empties the kept lists) */
  int size;           /* the row's tokens, all columns */
  unsigned char cols; /* bit c: in column c */
} upk_ix_posting;
typedef struct upk_ix_postings {
  upk_ix_posting *v; /* in rowid order */
  size_t n, cap;
} upk_ix_postings;
int upk_ix_rank_init(upk_index *ix);
void upk_ix_rank_close(upk_index *ix);
/** At the start of a lookup's read transaction: drop what is cached when
 * another connection changed the file since the last lookup. */
int upk_ix_rank_begin(upk_index *ix);
/** One table's ranking: the best `keep` rows of table `which` (0: fts,
 * 1: fts_body) for the OR of ph[0..n), best first, scored as bm25() scores
 * the OR (head columns weighed by ix->w); all: the AND instead, and the
 * first `keep` rows met, unordered. */
typedef struct upk_ix_rank_job {
  int which;
  const upk_ix_phrase *ph;
  int n;
  bool all;
  upk_ix_ranked *best;
  size_t keep;
} upk_ix_rank_job;
/** One row's bm25 term, as FTS5's bm25() computes it (its k1 and b): a
 * phrase's idf, the row's weighted count, its size and the average size. */
static inline double upk_ix_bm25(double idf, double tf, double len, double avgdl) {
  const double k1 = 1.2, b = 0.75;
  return idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1 - b + b * len / avgdl)));
}
/* One table's row lists for a job's phrases, walked or kept. */
typedef struct upk_ix_lists {
  upk_ix_postings rows[UPK_IX_MAX_PHRASES]; /* per phrase, each row's term filled */
  bool kept[UPK_IX_MAX_PHRASES];            /* borrowed from the kept lists: not ours */
  bool walked;                              /* FTS5 walked the others: offer them to the cache */
  int n;
  int64_t total_rows, tokens; /* the table's */
} upk_ix_lists;
/** Run a job with st (ST_LOOKUP or ST_LOOKUP_BODY): the rows put in
 * job->best, or a negative error (upk_index_errmsg() says it). The phrases'
 * lists stay in *lists (read them, e.g. upk_ix_joint_scores()) until
 * upk_ix_lists_release(), which the caller owes even on error. */
int upk_ix_rank_run(upk_index *ix, sqlite3_stmt *st, const upk_ix_rank_job *job,
                    upk_ix_lists *lists);
/** Offer the walked lists to the cache, free the rest. Call it only after
 * every table's lists are done with: a put may drop a borrowed list. */
void upk_ix_lists_release(upk_index *ix, const upk_ix_rank_job *job, upk_ix_lists *lists);

/* joint.c: one bm25 over the whole skill, head and body as one text,
 * added to the two tables' scores (see there why). */
#define UPK_IX_JOINT_MAX 48 /* words (<= 64: a bit each), a task's words then their other forms */
typedef struct upk_ix_joint_word {
  const upk_ix_postings *rows[2]; /* the word's head / body rows; NULL: not walked */
  long df[2];                     /* skills with it in each table, for a table not walked */
  double idf;                     /* from the skills with it anywhere; 0: weighs nothing */
} upk_ix_joint_word;
typedef struct upk_ix_joint {
  upk_ix_joint_word w[UPK_IX_JOINT_MAX];
  int n;
  double avgdl; /* head plus body tokens, per skill */
} upk_ix_joint;
/** The idfs and the average size, from the head's rows and both tables' tokens. */
void upk_ix_joint_prepare(upk_ix_joint *j, int64_t rows, int64_t head_tokens, int64_t body_tokens);
/** The joint scores of rows[0..n) (rowid order), added to score[]; in_body[r]
 * gets bit k when word k is in row r's body. -1: no memory (nothing added). */
int upk_ix_joint_scores(const upk_index *ix, const upk_ix_joint *j, const int64_t *rows, size_t n,
                        double *score, uint64_t *in_body);

/* postings.c: phrases' row lists kept between lookups, as FTS5 gave
 * them, until any row changes (ix->pcache_stale) or another connection
 * commits; bounded, least recently used dropped first. */
typedef struct upk_ix_pcache upk_ix_pcache;
#define UPK_IX_PCACHE_MIN_ROWS 32 /* a shorter list costs less to walk than to keep */
/** A phrase's rows in table `which` (0: head, 1: body), if kept: *out
 * borrows them until the next put or clear. */
bool upk_ix_pcache_get(upk_index *ix, int which, const char *text, int len, upk_ix_postings *out);
/** Keep a phrase's rows: the cache takes rows->v (rows is then empty) when
 * it keeps them, else leaves it to the caller. */
void upk_ix_pcache_put(upk_index *ix, int which, const char *text, int len, upk_ix_postings *rows);
/** A table's row count and total size in tokens, kept beside the lists. */
bool upk_ix_pcache_totals(upk_index *ix, int which, int64_t *rows, int64_t *tokens);
void upk_ix_pcache_set_totals(upk_index *ix, int which, int64_t rows, int64_t tokens);
/** A new lookup begins: what it uses counts as recently used. */
void upk_ix_pcache_next_lookup(upk_index *ix);
void upk_ix_pcache_clear(upk_index *ix);
/** How many times a kept list was used since the index was opened. */
size_t upk_ix_pcache_hits(const upk_index *ix);
void upk_ix_pcache_free(upk_index *ix);

/* hits.c: a ranked document as a hit. */
/** Fill e from document doc and the visible placement of it the asked agents
 * (none: any) read first. 1: done; 0: no such placement, or the skill is not
 * usable (agents skip it); negative: an error (e then needs freeing). */
int upk_ix_fill_entry(upk_index *ix, int64_t doc, const char *const *agents, size_t n_agents,
                      upk_index_entry *e);
/** A built-in hit moved to an installed copy of its name, if the agents
 * have one: that is the copy they read. Among several, the one read first,
 * whether or not it ranked. */
int upk_ix_place_at_installed_copy(upk_index *ix, const char *const *agents, size_t n_agents,
                                   upk_index_entry *hit);

/* catalog.c: each document's stored entry of the MCP Skills listing. */
/** A stamp for this open's records, unlike any other process's. */
int64_t upk_ix_new_epoch(const upk_index *ix);
/** Store document doc's record (NULL: none, the listing builds it from disk). */
int upk_ix_catalog_put(upk_index *ix, int64_t doc, const char *record);
/** The document at dir/md was found unchanged (its SKILL.md): see that its record still
 * describes the other files, building it again when not (a refresh after an edit). */
int upk_ix_catalog_check(upk_index *ix, int64_t doc, const char *dir, const char *md);
void upk_ix_catalog_close(upk_index *ix);

/* query.c: set up the tokenizer and the why() function. */
int upk_ix_query_init(upk_index *ix);
void upk_ix_query_close(upk_index *ix);

/* ltr.c: the learned order of a lookup's best candidates. Each
 * candidate's features (what the lookup knows of it), one linear score. */
enum {
  UPK_LTR_HEAD,       /* -bm25 in the head table */
  UPK_LTR_BODY,       /* -bm25 in the body table */
  UPK_LTR_JOINT,      /* one bm25 over the whole skill (joint.c) */
  UPK_LTR_NAME,       /* share of the task's words (by idf) in the name */
  UPK_LTR_DESC,       /* ... in the description */
  UPK_LTR_HEADINGS,   /* ... in the headings */
  UPK_LTR_IN_BODY,    /* ... in the body */
  UPK_LTR_ANY,        /* ... anywhere */
  UPK_LTR_NAME_COVER, /* share of the name's words the task holds */
  UPK_LTR_PAIRS,      /* two task words side by side in name or description (at most 3) */
  UPK_LTR_BODY_LEN,   /* log(1 + body tokens) */
  UPK_LTR_DESC_LEN,   /* log(1 + description tokens) */
  UPK_LTR_DESC_DENSE, /* share of the description's tokens that are task words */
  UPK_LTR_COVER,      /* share of the task's words (by count) anywhere */
  UPK_LTR_HEAD_ONLY,  /* 1: only the head table ranked it */
  UPK_LTR_BODY_ONLY,  /* 1: only the body table ranked it */
  UPK_LTR_RAREST,     /* 1: the task's rarest word is in it */
  UPK_LTR_N
};
/** Candidates of a lookup given the learned order: the best by the tables' sum. */
#define UPK_LTR_POOL 24
double upk_ix_ltr_score(const double f[UPK_LTR_N]);
/** The weights are the tables' own sum (head + body + 10 x joint): no pass is needed. */
bool upk_ix_ltr_plain(void);
extern const char *const upk_ix_ltr_names[UPK_LTR_N];

#endif
