/* The posting store (see store_int.h): single words' row lists, compact, copied from FTS5.
 *
 * Why: a lookup at 40,000 skills walks ~11,600 rows through FTS5's xQueryPhrase() at ~720
 * instructions a row (the doclist stepped, every position read, a callback), 85 % of its
 * instructions (bench/skills/results/ranking.md, "What a lookup costs, counted"). The kept lists of
 * postings.c hold 32 bytes a row and so only a fraction of the lists that matter; here a
 * row is 2-4 bytes and every list of a word a lookup may ask fits.
 *
 * Filled from fts5vocab's 'instance' view of each table (one word's doclist, as FTS5 stores
 * it, no tokenizer in between), in steps of a few milliseconds, after the merge. */
#include "skills/index/db_int.h"
#include "skills/index/postings_int.h"
#include "skills/index/store_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"

typedef struct slist {
  uint64_t hash; /* 0: empty slot */
  char *key;     /* the table's number, then "=stem" */
  unsigned char *data;
  uint32_t bytes, n;
} slist;

typedef struct fill_term {
  char *stem;
  int which;
  long df;
} fill_term;

enum { EMPTY, FILLING, FULL, OFF };

struct upk__ix_store {
  slist *slot;
  size_t cap, used; /* slots, lists */
  size_t rows, bytes, max_bytes, hits;
  int state;
  fill_term *terms; /* FILLING: what is left to copy, terms[next..nterms) */
  size_t nterms, next;
  sqlite3_stmt *inst[2]; /* a word's instances, per table */
  bool totals_known;
  int64_t total_rows[2], tokens[2];
};

/* ---- encoding ---- */

static int put_varint(upk_buf *b, uint64_t v) {
  unsigned char tmp[10];
  int n = 0;
  do {
    tmp[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return upk_buf_append(b, tmp, (size_t)n);
}

static bool get_varint_long(const unsigned char **p, const unsigned char *end, uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; *p < end && shift < 64; shift += 7) {
    unsigned char c = *(*p)++;
    x |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *v = x;
      return true;
    }
  }
  return false;
}

/* Most deltas and counts are one byte: that case inline. */
static inline bool get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v) {
  if (*p < end && !(**p & 0x80)) {
    *v = *(*p)++;
    return true;
  }
  return get_varint_long(p, end, v);
}

/* A head row's counts in one byte when each is 3 or less (2 bits a column, below SHAPE_WIDE);
 * else SHAPE_WIDE and a varint per column. */
#define SHAPE_WIDE 0x40

int upk__ix_store_encode(upk_buf *b, int which, int64_t prev, const upk__ix_srow *row) {
  if (row->rowid <= prev || prev < 0)
    return -EINVAL;
  int rc = put_varint(b, (uint64_t)(row->rowid - prev));
  if (which) /* the body: one column */
    return rc ? rc : row->count[0] ? put_varint(b, row->count[0]) : -EINVAL;
  unsigned char shape = 0;
  bool small = true;
  for (int c = 0; c < UPK_IX_STORE_COLS; c++) {
    small &= row->count[c] <= 3;
    shape |= (unsigned char)((row->count[c] & 3) << (2 * c));
  }
  if (!row->count[0] && !row->count[1] && !row->count[2])
    return -EINVAL;
  shape = small ? shape : SHAPE_WIDE;
  rc = rc ? rc : upk_buf_append(b, &shape, 1);
  for (int c = 0; c < UPK_IX_STORE_COLS && !rc && !small; c++)
    rc = put_varint(b, row->count[c]);
  return rc;
}

/* A head row's counts after its delta. */
static inline bool get_head(const unsigned char **p, const unsigned char *end, upk__ix_srow *row) {
  if (*p >= end)
    return false;
  unsigned char shape = *(*p)++;
  uint64_t v[UPK_IX_STORE_COLS] = {shape & 3, shape >> 2 & 3, shape >> 4 & 3};
  if (shape > SHAPE_WIDE || !shape)
    return false;
  for (int c = 0; c < UPK_IX_STORE_COLS && shape == SHAPE_WIDE; c++)
    if (!get_varint(p, end, &v[c]) || v[c] > UINT32_MAX)
      return false;
  for (int c = 0; c < UPK_IX_STORE_COLS; c++)
    row->count[c] = (uint32_t)v[c];
  return row->count[0] || row->count[1] || row->count[2];
}

bool upk__ix_store_decode(const unsigned char **p, const unsigned char *end, int which,
                          int64_t prev, upk__ix_srow *row) {
  uint64_t d, v;
  memset(row, 0, sizeof *row);
  if (!get_varint(p, end, &d) || !d || d > (uint64_t)(INT64_MAX - prev))
    return false;
  row->rowid = prev + (int64_t)d;
  if (!which)
    return get_head(p, end, row);
  if (!get_varint(p, end, &v) || !v || v > UINT32_MAX)
    return false;
  row->count[0] = (uint32_t)v;
  return true;
}

/* ---- the table of lists ---- */

static uint64_t key_hash(int which, const char *key, int len) {
  unsigned char w = (unsigned char)which;
  uint64_t h = upk_fnv1a(upk_fnv1a(UPK_FNV1A_INIT, &w, 1), key, (size_t)len);
  return h ? h : 1;
}

static slist *find_slot(const upk__ix_store *s, uint64_t h, int which, const char *key, int len) {
  for (size_t i = h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
    slist *e = &s->slot[i];
    if (!e->hash || (e->hash == h && e->key[0] == '0' + which &&
                     !strncmp(e->key + 1, key, (size_t)len) && !e->key[len + 1]))
      return e;
  }
}

/* Room for one more list: the table at most half full. */
static int grow(upk__ix_store *s) {
  if (s->cap && (s->used + 1) * 2 <= s->cap)
    return 0;
  size_t cap = s->cap ? 2 * s->cap : 4096;
  slist *old = s->slot, *v = upk_xcalloc(cap, sizeof *v);
  if (!v)
    return -ENOMEM;
  size_t ocap = s->cap;
  s->slot = v;
  s->cap = cap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].hash) {
      const char *k = old[i].key;
      *find_slot(s, old[i].hash, k[0] - '0', k + 1, (int)strlen(k + 1)) = old[i];
    }
  free(old);
  return 0;
}

/* Keep an encoded list (takes data). */
static int add_list(upk__ix_store *s, int which, const char *key, unsigned char *data, size_t bytes,
                    uint32_t n) {
  size_t klen = strlen(key), cost = bytes + klen + 2 + sizeof(slist);
  if (s->bytes + cost > s->max_bytes) { /* past the bound with its key: not kept */
    free(data);
    return 0;
  }
  if (grow(s)) {
    free(data);
    return -ENOMEM;
  }
  uint64_t h = key_hash(which, key, (int)klen);
  slist *e = find_slot(s, h, which, key, (int)klen);
  char *k = e->hash ? NULL : upk_xmalloc(klen + 2);
  if (!k) { /* held already (a word the fill met twice cannot be) or no memory */
    free(data);
    return e->hash ? 0 : -ENOMEM;
  }
  k[0] = (char)('0' + which);
  memcpy(k + 1, key, klen + 1);
  *e = (slist){h, k, data, (uint32_t)bytes, n};
  s->used++;
  s->rows += n;
  s->bytes += cost;
  return 0;
}

static void terms_free(upk__ix_store *s) {
  for (size_t i = 0; i < s->nterms; i++)
    free(s->terms[i].stem);
  free(s->terms);
  s->terms = NULL;
  s->nterms = s->next = 0;
}

static void lists_free(upk__ix_store *s) {
  for (size_t i = 0; i < s->cap; i++)
    if (s->slot[i].hash) {
      free(s->slot[i].key);
      free(s->slot[i].data);
    }
  free(s->slot);
  s->slot = NULL;
  s->cap = s->used = s->rows = s->bytes = 0;
}

static upk__ix_store *store_of(upk_index *ix) {
  if (!ix->store && (ix->store = upk_xcalloc(1, sizeof *ix->store)))
    ix->store->max_bytes = UPK_IX_STORE_MAX_BYTES;
  return ix->store;
}

void upk__ix_store_clear(upk_index *ix) {
  upk__ix_store *s = ix->store;
  if (!s)
    return;
  lists_free(s);
  terms_free(s);
  s->totals_known = false;
  if (s->state != OFF)
    s->state = EMPTY;
}

void upk__ix_store_free(upk_index *ix) {
  upk__ix_store *s = ix->store;
  if (!s)
    return;
  upk__ix_store_clear(ix);
  for (int w = 0; w < 2; w++)
    sqlite3_finalize(s->inst[w]);
  free(s);
  ix->store = NULL;
}

void upk__ix_store_enable(upk_index *ix, bool on) {
  upk__ix_store *s = store_of(ix);
  if (!s)
    return;
  upk__ix_store_clear(ix);
  upk__ix_pcache_clear(ix); /* what was kept either way goes: the next lookups walk or read */
  s->state = on ? EMPTY : OFF;
}

void upk__ix_store_set_max(upk_index *ix, size_t bytes) {
  upk__ix_store *s = store_of(ix);
  if (s)
    s->max_bytes = bytes ? bytes : UPK_IX_STORE_MAX_BYTES;
}

void upk__ix_store_size(const upk_index *ix, size_t *lists, size_t *rows, size_t *bytes) {
  const upk__ix_store *s = ix->store;
  *lists = s ? s->used : 0;
  *rows = s ? s->rows : 0;
  *bytes = s ? s->bytes : 0;
}

size_t upk__ix_store_hits(const upk_index *ix) {
  return ix->store ? ix->store->hits : 0;
}

bool upk__ix_store_pending(const upk_index *ix) {
  return !ix->store || ix->store->state == EMPTY || ix->store->state == FILLING;
}

bool upk__ix_store_totals(const upk_index *ix, int which, int64_t *rows, int64_t *tokens) {
  const upk__ix_store *s = ix->store;
  if (!s || !s->totals_known)
    return false;
  *rows = s->total_rows[which];
  *tokens = s->tokens[which];
  return true;
}

/* ---- a lookup's read ---- */

/* A row's weighted count, summed as note_posting() (rank.c) sums it walking the positions:
 * column by column, each occurrence adding its column's weight, so the double is the same. */
static double weighted(const upk_index *ix, int which, const upk__ix_srow *row,
                       unsigned char *cols) {
  const double w[UPK_IX_STORE_COLS] = {ix->w.name, ix->w.description, ix->w.headings};
  double f = 0;
  *cols = 0;
  for (int c = 0; c < (which ? 1 : UPK_IX_STORE_COLS); c++) {
    if (!row->count[c])
      continue;
    *cols |= (unsigned char)(1u << c);
    for (uint32_t k = 0; k < row->count[c]; k++)
      f += which ? 1.0 : w[c];
  }
  return f;
}

/* Each one-byte head shape's weighted count and columns, for this lookup's weights. */
typedef struct shapes {
  double freq[SHAPE_WIDE];
  unsigned char cols[SHAPE_WIDE];
} shapes;

static void shapes_fill(const upk_index *ix, shapes *t) {
  for (unsigned s = 1; s < SHAPE_WIDE; s++) {
    upk__ix_srow row = {0, {s & 3, s >> 2 & 3, s >> 4 & 3}};
    t->freq[s] = weighted(ix, 0, &row, &t->cols[s]);
  }
}

/* One row into *x: ~15 instructions for a one-byte delta and shape. size[0..cap): the table's
 * size cache. false: malformed, or a row whose size is not known (FTS5 answers for the list
 * then). Inlined with `which` a constant (decode_head, decode_body): the table's branches
 * were 5 % of a lookup's decode. */
static inline bool decode_row(const upk_index *ix, int which, const shapes *t, const uint32_t *size,
                              size_t cap, const unsigned char **p, const unsigned char *end,
                              int64_t prev, upk__ix_posting *x) {
  uint64_t d, v;
  /* prev is a row of this table (below cap): one compare bounds the delta and the row */
  if (!get_varint(p, end, &d) || !d || d >= (uint64_t)cap - (uint64_t)prev)
    return false;
  int64_t rowid = prev + (int64_t)d;
  uint32_t sz = size[rowid];
  if (!sz)
    return false;
  x->rowid = rowid;
  x->size = (int)(sz - 1);
  if (which) { /* each occurrence adds 1.0: the count, exactly */
    if (!get_varint(p, end, &v) || !v || v > UINT32_MAX)
      return false;
    x->freq = (double)v;
    x->cols = 1;
    return true;
  }
  if (*p < end && **p && **p < SHAPE_WIDE) {
    unsigned char s = *(*p)++;
    x->freq = t->freq[s];
    x->cols = t->cols[s];
    return true;
  }
  upk__ix_srow row;
  if (!get_head(p, end, &row))
    return false;
  x->freq = weighted(ix, 0, &row, &x->cols);
  return true;
}

/* Every row of list e, each with its bm25 term (as rank.c computes a walked row's, same
 * operands in the same order): one pass, no second one over the rows to score them. */
static inline bool decode_rows(upk_index *ix, int which, const shapes *t, const slist *e,
                               double idf, double avgdl, upk__ix_postings *out) {
  const unsigned char *p = e->data, *end = e->data + e->bytes;
  const uint32_t *size = ix->size[which];
  size_t cap = ix->size_cap[which];
  int64_t prev = 0;
  for (uint32_t i = 0; i < e->n; i++) {
    upk__ix_posting *x = &out->v[i];
    if (!decode_row(ix, which, t, size, cap, &p, end, prev, x))
      return false;
    x->term = upk__ix_bm25(idf, x->freq, (double)x->size, avgdl);
    prev = x->rowid;
  }
  out->n = e->n;
  return true;
}

static bool decode_head(upk_index *ix, const shapes *t, const slist *e, double idf, double avgdl,
                        upk__ix_postings *out) {
  return decode_rows(ix, 0, t, e, idf, avgdl, out);
}

static bool decode_body(upk_index *ix, const slist *e, double idf, double avgdl,
                        upk__ix_postings *out) {
  return decode_rows(ix, 1, NULL, e, idf, avgdl, out);
}

static bool decode_list(upk_index *ix, int which, const slist *e, int64_t rows, int64_t tokens,
                        upk__ix_postings *out) {
  double idf = upk__ix_idf(rows, e->n), avgdl = upk__ix_avgdl(rows, tokens);
  if (which)
    return decode_body(ix, e, idf, avgdl, out);
  shapes t;
  shapes_fill(ix, &t);
  return decode_head(ix, &t, e, idf, avgdl, out);
}

bool upk__ix_store_get(upk_index *ix, int which, const upk__ix_phrase *ph, int64_t rows,
                       int64_t tokens, upk__ix_postings *out) {
  upk__ix_store *s = ix->store;
  const char *key = ph->key;
  int key_len = ph->key_len;
  if (!s || !s->used || key_len < 2 || key[0] != '=' || memchr(key, ' ', (size_t)key_len))
    return false; /* the store holds single words; a prefix or a phrase is FTS5's */
  const slist *e = find_slot(s, key_hash(which, key, key_len), which, key, key_len);
  if (!e->hash)
    return false;
  upk__ix_postings p = {upk_xmalloc((e->n ? e->n : 1) * sizeof *p.v), 0, e->n};
  if (!p.v || !decode_list(ix, which, e, rows, tokens, &p)) {
    free(p.v);
    return false;
  }
  s->hits++;
  *out = p;
  return true;
}

/* ---- filling it, in steps ---- */

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* upk_store_totals(table, store): a table's row count and size in tokens, as bm25() reads
 * them (FTS5's own totals, not a sum of ours). */
static void totals_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *sctx,
                      int nval, sqlite3_value **val) {
  int64_t *out = nval == 1 ? sqlite3_value_pointer(val[0], "upk__ix_store") : NULL;
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = out ? api->xRowCount(fts, &rows) : SQLITE_MISUSE;
  if (rc == SQLITE_OK)
    rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc == SQLITE_OK) {
    out[0] = rows;
    out[1] = tokens;
    sqlite3_result_null(sctx);
  } else
    sqlite3_result_error_code(sctx, rc);
}

int upk__ix_store_init(upk_index *ix) {
  if (ix->fts->xCreateFunction(ix->fts, "upk_store_totals", ix, totals_fn, NULL) != SQLITE_OK)
    return upk__ix_fail(ix, -ENOTSUP, "cannot add the upk_store_totals function to FTS5");
  return 0;
}

static int read_totals(upk_index *ix, upk__ix_store *s) {
  static const char *const sql[2] = {"SELECT upk_store_totals(fts, ?1) FROM fts LIMIT 1",
                                     "SELECT upk_store_totals(fts_body, ?1) FROM fts_body"
                                     " LIMIT 1"};
  for (int w = 0; w < 2; w++) {
    int64_t t[2] = {0, 0};
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(ix->db, sql[w], -1, &st, NULL);
    if (rc == SQLITE_OK) {
      sqlite3_bind_pointer(st, 1, t, "upk__ix_store", NULL);
      rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
      return upk__ix_sql_fail(ix, "posting store: totals");
    s->total_rows[w] = t[0];
    s->tokens[w] = t[1];
  }
  s->totals_known = true;
  return 0;
}

static int by_df_desc(const void *a, const void *b) {
  const fill_term *x = a, *y = b;
  return x->df != y->df ? (x->df > y->df ? -1 : 1) : 0;
}

/* The words to copy: in at least UPK_IX_STORE_MIN_ROWS rows and fewer than half of the
 * table's (a lookup asks no more common one), from the df snapshot, the longest first. */
static int choose_terms(upk_index *ix, upk__ix_store *s) {
  sqlite3_stmt *st = NULL;
  /* Before the first merge ends the snapshot is not taken: FTS5's own counts (slower). */
  const char *sql = ix->df_stale ? "SELECT term, doc, 0 FROM vocab UNION ALL"
                                   " SELECT term, 0, doc FROM vocab_body"
                                 : "SELECT term, head, body FROM df";
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "posting store: words");
  size_t cap = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    for (int w = 0; w < 2; w++) {
      long df = (long)sqlite3_column_int64(st, 1 + w);
      if (df < UPK_IX_STORE_MIN_ROWS || df * 2 >= s->total_rows[w])
        continue;
      if (s->nterms == cap) {
        cap = cap ? 2 * cap : 1024;
        fill_term *v = upk_xreallocarray(s->terms, cap, sizeof *v);
        s->terms = v;
      }
      char *stem = upk_xstrdup((const char *)sqlite3_column_text(st, 0));
      s->terms[s->nterms++] = (fill_term){stem, w, df};
    }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE)
    return upk__ix_sql_fail(ix, "posting store: words");
  if (s->nterms)
    qsort(s->terms, s->nterms, sizeof *s->terms, by_df_desc);
  return 0;
}

static int fill_begin(upk_index *ix, upk__ix_store *s) {
  static const char *const sql[2] = {
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.upk_inst USING fts5vocab(main, fts, 'instance');",
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.upk_inst_body USING fts5vocab(main, fts_body,"
      " 'instance');"};
  static const char *const q[2] = {"SELECT doc, col FROM temp.upk_inst WHERE term = ?1",
                                   "SELECT doc, col FROM temp.upk_inst_body WHERE term = ?1"};
  for (int w = 0; w < 2; w++)
    if (!s->inst[w] &&
        (upk__ix_exec(ix, sql[w]) || sqlite3_prepare_v3(ix->db, q[w], -1, SQLITE_PREPARE_PERSISTENT,
                                                        &s->inst[w], NULL) != SQLITE_OK))
      return upk__ix_sql_fail(ix, "posting store: instances");
  int rc = read_totals(ix, s);
  if (!rc)
    rc = choose_terms(ix, s);
  if (!rc)
    s->state = FILLING;
  return rc;
}

/* A column's number from its name, as fts5vocab gives it. */
static int col_of(int which, const unsigned char *name) {
  if (which || !name)
    return 0;
  return name[0] == 'n' ? 0 : name[0] == 'd' ? 1 : 2;
}

/* One word's rows, encoded into *b: 0, 1 when it passed the bound, or an error. */
static int copy_term(upk_index *ix, upk__ix_store *s, const fill_term *t, upk_buf *b, uint32_t *n) {
  sqlite3_stmt *st = s->inst[t->which];
  sqlite3_bind_text(st, 1, t->stem, -1, SQLITE_STATIC);
  upk__ix_srow row = {.rowid = -1};
  int64_t prev = 0;
  int rc = 0, q;
  *n = 0;
  while (!rc && (q = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t doc = sqlite3_column_int64(st, 0);
    if (doc != row.rowid && row.rowid >= 0) {
      rc = upk__ix_store_encode(b, t->which, prev, &row);
      prev = row.rowid;
      ++*n;
      memset(&row, 0, sizeof row);
    }
    row.rowid = doc;
    row.count[col_of(t->which, sqlite3_column_text(st, 1))]++;
  }
  if (!rc && row.rowid >= 0) {
    rc = upk__ix_store_encode(b, t->which, prev, &row);
    ++*n;
  }
  bool failed = !rc && q != SQLITE_DONE;
  sqlite3_reset(st);
  if (failed)
    return upk__ix_sql_fail(ix, "posting store: a word's rows");
  return rc == -E2BIG || rc == -ENOMEM ? 1 : rc == -EINVAL ? -EIO : rc;
}

/* Keep a word's encoded rows (b's allocation is taken). */
static int keep_term(upk__ix_store *s, const fill_term *t, upk_buf *b, uint32_t n) {
  size_t klen = strlen(t->stem), bytes;
  char *key = upk_xmalloc(klen + 2);
  if (!key)
    return -ENOMEM;
  key[0] = '=';
  memcpy(key + 1, t->stem, klen + 1);
  unsigned char *data = (unsigned char *)upk_buf_take(b, &bytes);
  int rc = add_list(s, t->which, key, data, bytes, n);
  free(key);
  return rc;
}

/* Copy words until `until` (monotonic ns): 1 while some are left, 0 when done. */
static int fill_next(upk_index *ix, upk__ix_store *s, uint64_t until) {
  while (s->next < s->nterms) {
    const fill_term *t = &s->terms[s->next++];
    size_t room = s->max_bytes > s->bytes ? s->max_bytes - s->bytes : 0;
    upk_buf b = UPK_BUF_INIT(room);
    uint32_t n = 0;
    int rc = copy_term(ix, s, t, &b, &n);
    if (rc < 0) {
      upk_buf_free(&b);
      return rc;
    }
    if (rc == 0 && n && (rc = keep_term(s, t, &b, n)) < 0)
      return rc;
    upk_buf_free(&b);
    if (now_ns() >= until)
      break;
  }
  if (s->next < s->nterms)
    return 1;
  terms_free(s);
  s->state = FULL;
  return 0;
}

int upk__ix_store_step(upk_index *ix) {
  upk__ix_store *s = store_of(ix);
  if (!s || s->state == OFF || s->state == FULL)
    return 0;
  if (upk__ix_exec(ix, "BEGIN")) /* one snapshot for the step */
    return -EIO;
  int rc = upk__ix_rank_sync(ix); /* another's commit or a row changed: start over */
  if (!rc && s->state == EMPTY)
    rc = fill_begin(ix, s);
  if (!rc)
    rc = fill_next(ix, s, now_ns() + UPK_IX_STORE_STEP_NS);
  if (upk__ix_exec(ix, "COMMIT")) {
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return -EIO;
  }
  if (rc < 0)
    upk__ix_store_clear(ix);
  return rc;
}
