/* Ranking a lookup's rows: bm25 exactly as FTS5's bm25() computes it, by an
 * auxiliary function of our own (upk_rank) that walks each phrase's rows
 * once and keeps the best rows, with which phrases each matched where.
 *
 * Why not bm25() over the OR of the phrases: FTS5 then walks each phrase's
 * rows twice (once alone to count them for the idf, once merged into the
 * OR), merges a dozen phrase iterators at every row, reads every row's size
 * through a nested SELECT on %_docsize (40 % of a lookup, callgrind at
 * 10,000 skills), and a lookup read each hit's text again to say which
 * words matched where (13 %). upk_rank, called for the OR's first row,
 * walks each phrase's rows with xQueryPhrase() -- that walk counts the rows
 * for the idf, as bm25() does, and also notes each row's weighted frequency
 * and size -- then adds each phrase's terms to per-row sums, phrase after
 * phrase, and keeps the best rows in a heap. Same idf, k1, b, column
 * weights and order of summing as bm25(): test_rank checks the scores are
 * equal. The statement is stepped once; FTS5 never walks the OR.
 *
 * A row's size comes from a cache filled the first time FTS5 is asked for
 * it. The cache is kept true by an update hook on the two %_docsize tables:
 * FTS5 writes a row's size there on every insert and delete, whatever
 * statement caused it, so a changed row's cached size is dropped as it
 * changes (a rolled-back change only drops what was still right). Another
 * connection's commits (a second daemon on the same workspace) are seen by
 * PRAGMA data_version at each lookup's start: then the cache is emptied. */
#include "skills/index/db_int.h"
#include "skills/index/postings_int.h"
#include "skills/index/rank_int.h"
#include "skills/index/store_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define SIZE_MAX_ROWID (1 << 24) /* rows past this are not cached: asked of FTS5 each time */
#define SIZE_RELOAD_ROWS 256     /* rows written since the sizes were read: past this, read all */

static const char *const docsize_table[2] = {"fts_docsize", "fts_body_docsize"};

static void on_change(void *ud, int op, const char *db, const char *table, sqlite3_int64 rowid) {
  upk_index *ix = ud;
  (void)op;
  (void)db;
  if (!strcmp(table, "root"))
    ix->roots.ok = false; /* read again (roots.c) */
  for (int w = 0; w < 2; w++)
    if (!strcmp(table, docsize_table[w])) {
      ix->pcache_stale = true; /* a row's text changed: every kept list may be wrong */
      if (rowid >= 0 && (size_t)rowid < ix->size_cap[w])
        ix->size[w][rowid] = 0;
      ix->size_changed[w]++;
    }
}

/* Make room for rows up to `rowid` in a table's size cache. */
static bool size_fit(upk_index *ix, int which, int64_t rowid) {
  if (rowid < 0 || rowid >= SIZE_MAX_ROWID)
    return false;
  if ((size_t)rowid < ix->size_cap[which])
    return true;
  size_t cap =
      upk_pow2_at_least((size_t)rowid + 1, ix->size_cap[which] ? ix->size_cap[which] : 4096);
  uint32_t *c = upk_xrealloc(ix->size[which], cap * sizeof *c);
  memset(c + ix->size_cap[which], 0, (cap - ix->size_cap[which]) * sizeof *c);
  ix->size[which] = c;
  ix->size_cap[which] = cap;
  return true;
}

/* A row's size in tokens, all columns: cached + 1 (0: not known). */
static int row_size(upk_index *ix, int which, const Fts5ExtensionApi *api, Fts5Context *fts,
                    int64_t rowid, int *out) {
  uint32_t *c = ix->size[which];
  if (rowid >= 0 && (size_t)rowid < ix->size_cap[which] && c[rowid]) {
    *out = (int)(c[rowid] - 1);
    return SQLITE_OK;
  }
  int rc = api->xColumnSize(fts, -1, out);
  if (rc == SQLITE_OK && *out >= 0 && size_fit(ix, which, rowid))
    ix->size[which][rowid] = (uint32_t)*out + 1;
  return rc;
}

/* The sum of a %_docsize blob's varints (one per column, SQLite's varint
 * format), or -1 when it does not read as that. */
static long docsize_total(const unsigned char *p, int n) {
  long total = 0;
  for (int i = 0; i < n;) {
    uint32_t v = 0;
    int k = 0;
    for (; i < n && k < 5; k++, i++) {
      v = (v << 7) | (p[i] & 0x7f);
      if (!(p[i] & 0x80))
        break;
    }
    if (i >= n || k == 5)
      return -1; /* cut short, or longer than a column's count can be */
    i++;
    total += v;
  }
  return total;
}

/* Every row's size at once, from FTS5's %_docsize table, the first time a
 * table is ranked: filled row by row instead, each a nested statement,
 * the first lookups over a large index were the slowest (60,000 skills:
 * p99 21 ms). Reading the 60,000 rows takes ~20 ms. A blob that does not
 * read as FTS5's is left for xColumnSize() to answer. */
static int load_sizes(upk_index *ix, int which) {
  ix->size_changed[which] = 0;
  sqlite3_stmt *st = ix->st[which == 0 ? ST_HEAD_SIZES : ST_BODY_SIZES];
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t id = sqlite3_column_int64(st, 0);
    const unsigned char *blob = sqlite3_column_blob(st, 1);
    long total = docsize_total(blob, sqlite3_column_bytes(st, 1));
    if (blob && total >= 0 && total < UINT32_MAX && size_fit(ix, which, id))
      ix->size[which][id] = (uint32_t)total + 1;
  }
  sqlite3_reset(st);
  ix->size_loaded[which] = true;
  return s == SQLITE_DONE ? 0 : upk__ix_sql_fail(ix, "lookup: row sizes");
}

int upk__ix_rank_sync(upk_index *ix) {
  sqlite3_stmt *st = ix->st[ST_DATA_VERSION];
  int rc = sqlite3_step(st);
  int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW)
    return upk__ix_sql_fail(ix, "lookup: data version");
  if (v != ix->data_version) { /* another connection committed: nothing cached holds */
    for (int w = 0; w < 2; w++)
      if (ix->size[w])
        memset(ix->size[w], 0, ix->size_cap[w] * sizeof *ix->size[w]);
    ix->size_loaded[0] = ix->size_loaded[1] = false;
    ix->data_version = v;
    ix->pcache_stale = true;
  }
  if (ix->pcache_stale) {
    upk__ix_pcache_clear(ix);
    upk__ix_store_clear(ix);
  }
  ix->pcache_stale = false;
  return 0;
}

int upk__ix_rank_sizes(upk_index *ix) {
  /* A row written since the sizes were read has none (on_change): every kept list holding it
   * is then walked through FTS5 again, not read from the posting store. One edited skill
   * heals as its lists are walked; a first index that a lookup met half way (an agent asks
   * as the session starts) left most rows so, and lookups at 40,000 skills took p50 1.30 ms
   * / p99 5.4 ms against 1.11 / 2.1 after a restart: past SIZE_RELOAD_ROWS, all are read
   * again (~20 ms at 60,000 skills, once). */
  int rc = 0;
  for (int w = 0; w < 2 && !rc; w++)
    if (!ix->size_loaded[w] || ix->size_changed[w] > SIZE_RELOAD_ROWS)
      rc = load_sizes(ix, w);
  return rc;
}

int upk__ix_rank_begin(upk_index *ix) {
  int rc = upk__ix_rank_sync(ix);
  if (rc)
    return rc;
  upk__ix_pcache_next_lookup(ix);
  return upk__ix_rank_sizes(ix);
}

/* ---- scoring ---- */

typedef struct rank_ctx {
  upk_index *ix;
  int which, nph;
  bool all; /* rows with every phrase, the first met; else the best of any */
  upk__ix_ranked *best;
  size_t keep, n;
  upk__ix_postings *rows; /* per phrase */
  const bool *kept;       /* per phrase: its rows came from the cache, terms filled */
  const bool *stored;     /* per phrase: decoded from the posting store, terms filled */
  double idf[UPK_IX_MAX_PHRASES], avgdl;
  int asked[UPK_IX_MAX_PHRASES], n_asked; /* the phrases the MATCH asks, see rank_by_fts5() */
  bool weighed;                           /* the head: name, description, headings weigh weight[] */
  double weight[3];
  bool done;
  int rc;
  int64_t total_rows, tokens; /* the table's, when done */
} rank_ctx;

/* xQueryPhrase()'s callback: one row of the phrase. */
static int note_posting(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud) {
  rank_ctx *r = ((rank_ctx **)ud)[0];
  upk__ix_postings *p = ((upk__ix_postings **)ud)[1];
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 256;
    upk__ix_posting *v = upk_xrealloc(p->v, cap * sizeof *v);
    p->v = v;
    p->cap = cap;
  }
  upk__ix_posting *x = &p->v[p->n];
  memset(x, 0, sizeof *x);
  x->rowid = api->xRowid(fts);
  Fts5PhraseIter it;
  int col, off, rc;
  for (rc = api->xPhraseFirst(fts, 0, &it, &col, &off); rc == SQLITE_OK && col >= 0;
       api->xPhraseNext(fts, &it, &col, &off)) {
    x->freq += r->weighed && col < 3 ? r->weight[col] : 1.0;
    x->cols |= (unsigned char)(col < 8 ? 1u << col : 0);
  }
  if (rc == SQLITE_OK)
    rc = row_size(r->ix, r->which, api, fts, x->rowid, &x->size);
  if (rc == SQLITE_OK)
    p->n++;
  return rc;
}

/* A row being kept. */
typedef struct kept {
  int64_t rowid;
  double score;
} kept;

/* Better: a higher score, then (as FTS5 meets rows) a lower rowid. */
static bool better(const kept *a, const kept *b) {
  return a->score != b->score ? a->score > b->score : a->rowid < b->rowid;
}

static void swap(kept *a, kept *b) {
  kept t = *a;
  *a = *b;
  *b = t;
}

/* h[0..*n) is a heap of at most `keep` rows, the worst on top. */
static void keep_row(kept *h, size_t *n, size_t keep, kept x) {
  if (*n < keep) {
    size_t i = (*n)++;
    h[i] = x;
    for (; i > 0 && better(&h[(i - 1) / 2], &h[i]); i = (i - 1) / 2)
      swap(&h[i], &h[(i - 1) / 2]);
    return;
  }
  if (!better(&x, &h[0]))
    return;
  h[0] = x;
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, worst = i;
    if (l < *n && better(&h[worst], &h[l]))
      worst = l;
    if (l + 1 < *n && better(&h[worst], &h[l + 1]))
      worst = l + 1;
    if (worst == i)
      return;
    swap(&h[i], &h[worst]);
    i = worst;
  }
}

/* Per rowid, for one table's ranking: the score summed so far and how many
 * phrases the row has. All zero between rankings. */
static int scratch_fit(upk__ix_scratch *s, int64_t max_rowid) {
  if (max_rowid < 0 || (size_t)max_rowid < s->cap)
    return 0;
  size_t cap = upk_pow2_at_least((size_t)max_rowid + 1, s->cap ? s->cap : 4096);
  s->acc = upk_xreallocarray(s->acc, cap, sizeof *s->acc);
  s->count = upk_xrealloc(s->count, cap);
  memset(s->acc + s->cap, 0, (cap - s->cap) * sizeof *s->acc);
  memset(s->count + s->cap, 0, cap - s->cap);
  s->cap = cap;
  return 0;
}

/* Which columns each kept row best[0..n) has each phrase in: the rows taken in rowid order,
 * each phrase's list walked or galloped once (a binary search per row and phrase over the
 * whole list was a third of the ranking's time). max_rowid: the lists' largest. */
static void note_cols(const rank_ctx *r, upk__ix_ranked *best, size_t n, int64_t max_rowid) {
  size_t *order = upk_xmalloc((n + 1) * sizeof *order);
  int64_t *rows = upk_xmalloc((n + 1) * sizeof *rows);
  const upk__ix_posting **at = upk_xmalloc((n + 1) * sizeof *at);
  for (size_t k = 0; k < n; k++) {
    size_t j = k;
    for (; j > 0 && best[order[j - 1]].rowid > best[k].rowid; j--)
      order[j] = order[j - 1];
    order[j] = k;
  }
  for (size_t k = 0; k < n; k++)
    rows[k] = best[order[k]].rowid;
  unsigned char *slot = n <= UINT8_MAX ? upk__ix_slots(r->ix, max_rowid) : NULL;
  for (size_t k = 0; slot && k < n; k++)
    slot[rows[k]] = (unsigned char)(k + 1);
  for (int i = 0; i < r->nph; i++) {
    upk__ix_find_rows(&r->rows[i], rows, n, slot, at);
    for (size_t k = 0; k < n; k++)
      best[order[k]].cols[i] = at[k] ? at[k]->cols : 0;
  }
  for (size_t k = 0; slot && k < n; k++)
    slot[rows[k]] = 0;
  free(order), free(rows), free(at);
}

/* One row's term of phrase i's sum, as bm25() computes it. */
static inline double bm25_term(double idf, const upk__ix_posting *p, double avgdl) {
  return upk__ix_bm25(idf, p->freq, (double)p->size, avgdl);
}

/* Each row's terms summed into acc[row], phrase after phrase, count[row] its phrases; the rows
 * met, each once, into touched: their number. The sums are in locals the stores cannot alias
 * (a byte store may alias anything: the loop read s->acc and s->count again at every row);
 * a row met is noted without a branch. */
static size_t sum_rows(const rank_ctx *r, double *restrict acc, unsigned char *restrict count,
                       int64_t *touched) {
  size_t nt = 0;
  for (int i = 0; i < r->nph; i++)
    for (const upk__ix_posting *p = r->rows[i].v, *end = p + r->rows[i].n; p < end; p++) {
      int64_t row = p->rowid;
      touched[nt] = row;
      nt += !count[row]++;
      acc[row] += p->term;
    }
  return nt;
}

/* Every row scored from the phrases' row lists, phrase by phrase: a row's
 * terms are summed in the phrases' order, as bm25() sums them (a phrase a
 * row lacks adds exactly 0 there). Then the best (all: the first rows, in
 * rowid order, with every phrase) go to r->best. */
static int score_rows(rank_ctx *r, upk__ix_scratch *s) {
  int64_t max_rowid = -1;
  size_t total = 0;
  for (int i = 0; i < r->nph; i++)
    if (r->rows[i].n) {
      if (r->rows[i].v[0].rowid < 0)
        return SQLITE_RANGE; /* the index's rowids are its documents' ids, from 1 */
      total += r->rows[i].n;
      if (r->rows[i].v[r->rows[i].n - 1].rowid > max_rowid)
        max_rowid = r->rows[i].v[r->rows[i].n - 1].rowid;
    }
  if (s->touched_cap < total + 1) {
    s->touched_cap = upk_pow2_at_least(total + 1, 4096);
    free(s->touched);
    s->touched = upk_xmalloc(s->touched_cap * sizeof *s->touched);
  }
  if (s->heap_cap < r->keep + 1) {
    s->heap_cap = r->keep + 1;
    free(s->heap);
    s->heap = upk_xmalloc(s->heap_cap * sizeof(kept));
  }
  int64_t *touched = s->touched;
  kept *heap = s->heap;
  if (scratch_fit(s, max_rowid) || max_rowid >= (int64_t)s->cap)
    return SQLITE_NOMEM;
  double *restrict acc = s->acc;
  unsigned char *restrict count = s->count;
  size_t nt = sum_rows(r, acc, count, touched), n = 0;
  if (r->all) /* every matching row is in the first phrase's list, in rowid order */
    for (size_t k = 0; k < r->rows[0].n && n < r->keep; k++) {
      int64_t row = r->rows[0].v[k].rowid;
      if (count[row] == r->nph)
        heap[n++] = (kept){row, acc[row]};
    }
  else
    for (size_t k = 0; k < nt; k++) {
      double score = acc[touched[k]];
      /* a full heap's worst beats a lower score whatever the rowid: most rows stop here,
       * without keep_row()'s call and two compares (3 % of a lookup's instructions) */
      if (n == r->keep && n && score < heap[0].score)
        continue;
      keep_row(heap, &n, r->keep, (kept){touched[k], score});
    }
  for (size_t k = 0; k < nt; k++) {
    acc[touched[k]] = 0;
    count[touched[k]] = 0;
  }
  if (!r->all) /* best first */
    for (size_t i = 1; i < n; i++)
      for (size_t k = i; k > 0 && better(&heap[k], &heap[k - 1]); k--)
        swap(&heap[k], &heap[k - 1]);
  for (size_t k = 0; k < n; k++) {
    r->best[k].rowid = heap[k].rowid;
    r->best[k].score = heap[k].score;
  }
  note_cols(r, r->best, n, max_rowid);
  r->n = n;
  return 0;
}

/* Every row scored, from each phrase's rows and the table's totals: the
 * idf as bm25() has it (from the phrase's row count), each walked row's
 * term (a kept row has its own), then the sums. */
static int rank_rows(rank_ctx *r, int64_t rows, int64_t tokens) {
  r->avgdl = upk__ix_avgdl(rows, tokens);
  for (int i = 0; i < r->nph; i++) {
    r->idf[i] = upk__ix_idf(rows, r->rows[i].n);
    if (!r->kept[i] && !r->stored[i])
      for (upk__ix_posting *p = r->rows[i].v, *end = p + r->rows[i].n; p < end; p++)
        p->term = bm25_term(r->idf[i], p, r->avgdl);
  }
  return score_rows(r, &r->ix->scratch[r->which]);
}

/* The whole ranking, from the statement's first row: the table's totals,
 * the rows of each phrase the MATCH asks (those not kept from an earlier
 * lookup: FTS5's phrase k is the job's phrase r->asked[k]), the sums. */
static int rank_all(rank_ctx *r, const Fts5ExtensionApi *api, Fts5Context *fts) {
  if (api->xPhraseCount(fts) != r->n_asked)
    return SQLITE_ERROR; /* the caller's phrases and FTS5's no longer line up */
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK)
    rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc == SQLITE_OK) {
    upk__ix_pcache_set_totals(r->ix, r->which, rows, tokens);
    r->total_rows = rows;
    r->tokens = tokens;
  }
  for (int k = 0; k < r->n_asked && rc == SQLITE_OK; k++) {
    void *ud[2] = {r, &r->rows[r->asked[k]]};
    rc = api->xQueryPhrase(fts, k, ud, note_posting);
  }
  return rc == SQLITE_OK ? rank_rows(r, rows, tokens) : rc;
}

/* upk_rank(table, context): the first row ranks them all into the context. */
static void rank_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *sctx, int nval,
                    sqlite3_value **val) {
  rank_ctx *r = nval == 1 ? sqlite3_value_pointer(val[0], "upk__ix_rank") : NULL;
  if (!r) {
    sqlite3_result_error(sctx, "upk_rank: called without its context", -1);
    return;
  }
  if (!r->done) {
    r->done = true;
    r->rc = rank_all(r, api, fts);
  }
  if (r->rc != SQLITE_OK)
    sqlite3_result_error_code(sctx, r->rc);
  else
    sqlite3_result_null(sctx);
}

int upk__ix_rank_init(upk_index *ix) {
  if (ix->fts->xCreateFunction(ix->fts, "upk_rank", ix, rank_fn, NULL) != SQLITE_OK)
    return upk__ix_fail(ix, -ENOTSUP, "cannot add the upk_rank function to FTS5");
  if (upk__ix_store_init(ix))
    return -ENOTSUP;
  ix->data_version = -1;
  sqlite3_update_hook(ix->db, on_change, ix);
  return 0;
}

void upk__ix_rank_close(upk_index *ix) {
  if (ix->db)
    sqlite3_update_hook(ix->db, NULL, NULL);
  upk__ix_pcache_free(ix);
  upk__ix_store_free(ix);
  for (int w = 0; w < 2; w++) {
    free(ix->size[w]);
    ix->size_loaded[w] = false;
    ix->size[w] = NULL;
    ix->size_cap[w] = 0;
  }
  upk__ix_rows_trim(ix);
}

/* Step the job's statement once: its first row ranks them all (rank_fn).
 * The MATCH asks only the phrases whose rows are not kept: FTS5 would
 * otherwise open each kept one's doclist to merge it into the OR. When no
 * row has them, the kept lists are all there is (an AND: nothing). */
static int rank_by_fts5(upk_index *ix, sqlite3_stmt *st, const upk__ix_rank_job *job, rank_ctx *r) {
  upk_buf e = UPK_BUF_INIT(SIZE_MAX);
  for (int k = 0; k < r->n_asked; k++) {
    const upk__ix_phrase *ph = &job->ph[r->asked[k]];
    upk_buf_puts(&e, k ? (job->all ? " AND " : " OR ") : "");
    upk_buf_append(&e, ph->text, (size_t)ph->len);
  }
  if (!e.data)
    return -ENOMEM;
  int rc = 0;
  sqlite3_bind_text(st, 1, e.data, -1, SQLITE_STATIC);
  sqlite3_bind_pointer(st, 2, r, "upk__ix_rank", NULL);
  int s = sqlite3_step(st);
  if (s != SQLITE_ROW && s != SQLITE_DONE)
    rc = r->rc == SQLITE_ERROR
             ? upk__ix_fail(ix, -EIO, "lookup: the query's phrases do not line up with FTS5's")
             : upk__ix_sql_fail(ix, "lookup");
  sqlite3_reset(st);
  free(e.data);
  return rc;
}

/* Rank from kept lists only (and the table's kept totals). */
static int rank_kept(upk_index *ix, rank_ctx *r, int64_t rows, int64_t tokens) {
  int s = rank_rows(r, rows, tokens);
  return s == SQLITE_OK ? 0
                        : upk__ix_fail(ix, s == SQLITE_NOMEM ? -ENOMEM : -EIO, "lookup: ranking");
}

int upk__ix_rank_run(upk_index *ix, sqlite3_stmt *st, const upk__ix_rank_job *job,
                     upk__ix_lists *lists) {
  int n = job->n;
  memset(lists, 0, sizeof *lists);
  if (n <= 0)
    return 0;
  if (n > UPK_IX_MAX_PHRASES)
    return upk__ix_fail(ix, -E2BIG, "lookup: %d phrases (at most %d)", n, UPK_IX_MAX_PHRASES);
  lists->n = n;
  bool totals = upk__ix_pcache_totals(ix, job->which, &lists->total_rows, &lists->tokens);
  rank_ctx r = {.ix = ix,
                .which = job->which,
                .nph = n,
                .all = job->all,
                .best = job->best,
                .keep = job->keep,
                .rows = lists->rows,
                .kept = lists->kept,
                .stored = lists->stored,
                .weighed = job->which == 0,
                .weight = {ix->w.name, ix->w.description, ix->w.headings}};
  if (!totals && upk__ix_store_totals(ix, job->which, &lists->total_rows, &lists->tokens)) {
    upk__ix_pcache_set_totals(ix, job->which, lists->total_rows, lists->tokens);
    totals = true; /* FTS5's, read when the store was filled, and nothing changed since */
  }
  for (int i = 0; i < n; i++) /* kept lists count only with the totals they were kept with */
    if (!totals || !(lists->kept[i] = upk__ix_pcache_get(ix, job->which, job->ph[i].key,
                                                         job->ph[i].key_len, &lists->rows[i])))
      if (!totals ||
          !(lists->stored[i] = upk__ix_store_get(ix, job->which, &job->ph[i], lists->total_rows,
                                                 lists->tokens, &lists->rows[i])))
        r.asked[r.n_asked++] = i;
  int rc = 0;
  if (r.n_asked)
    rc = rank_by_fts5(ix, st, job, &r);
  if (r.done) { /* the MATCH's first row ranked: its totals are the table's */
    lists->total_rows = r.total_rows;
    lists->tokens = r.tokens;
  }
  /* Every list kept, or the MATCH met no row: the kept lists are all there is
   * (an AND whose asked phrases have no row in common has none). */
  if (!rc && !r.done && r.n_asked < n && (!r.n_asked || !job->all))
    rc = rank_kept(ix, &r, lists->total_rows, lists->tokens);
  lists->walked = !rc && r.done;
  /* asked and not walked: an OR that met no row (each phrase has none), or an AND */
  lists->complete = !rc && (r.done || !r.n_asked || !job->all);
  return rc ? rc : (int)r.n;
}

/* A list walked by a job is kept for the next ones (each row's term with
 * it: its idf and average size hold until a row changes, and that empties
 * the cache). */
void upk__ix_lists_release(upk_index *ix, const upk__ix_rank_job *job, upk__ix_lists *lists) {
  for (int i = 0; i < lists->n; i++) {
    if (lists->kept[i])
      continue; /* borrowed from the cache: not ours to free */
    if (lists->walked && !lists->stored[i] && lists->rows[i].n >= UPK_IX_PCACHE_MIN_ROWS)
      upk__ix_pcache_put(ix, job->which, job->ph[i].key, job->ph[i].key_len, &lists->rows[i]);
    free(lists->rows[i].v);
  }
  memset(lists, 0, sizeof *lists);
}
