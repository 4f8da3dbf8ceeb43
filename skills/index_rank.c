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
 * and size -- then merges the phrases' row lists (sorted by rowid) and
 * scores each row once. Same idf, k1, b, column weights and order of
 * summing as bm25(): test_rank checks the scores are equal. The statement
 * is stepped once; FTS5 never walks the OR.
 *
 * A row's size comes from a cache filled the first time FTS5 is asked for
 * it. The cache is kept true by an update hook on the two %_docsize tables:
 * FTS5 writes a row's size there on every insert and delete, whatever
 * statement caused it, so a changed row's cached size is dropped as it
 * changes (a rolled-back change only drops what was still right). Another
 * connection's commits (a second daemon on the same workspace) are seen by
 * PRAGMA data_version at each lookup's start: then the cache is emptied. */
#include "index_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE_MAX_ROWID (1 << 24) /* rows past this are not cached: asked of FTS5 each time */

static const char *const docsize_table[2] = {"fts_docsize", "fts_body_docsize"};

static void on_change(void *ud, int op, const char *db, const char *table, sqlite3_int64 rowid) {
  upk_index *ix = ud;
  (void)op;
  (void)db;
  for (int w = 0; w < 2; w++)
    if (rowid >= 0 && (size_t)rowid < ix->size_cap[w] && !strcmp(table, docsize_table[w]))
      ix->size[w][rowid] = 0;
}

int upk_ix_rank_begin(upk_index *ix) {
  sqlite3_stmt *st = ix->st[ST_DATA_VERSION];
  int rc = sqlite3_step(st);
  int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW)
    return upk_ix_sql_fail(ix, "lookup: data version");
  if (v != ix->data_version) { /* another connection committed: nothing cached holds */
    for (int w = 0; w < 2; w++)
      if (ix->size[w])
        memset(ix->size[w], 0, ix->size_cap[w] * sizeof *ix->size[w]);
    ix->data_version = v;
  }
  return 0;
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
  if (rc != SQLITE_OK || rowid < 0 || rowid >= SIZE_MAX_ROWID || *out < 0)
    return rc;
  if ((size_t)rowid >= ix->size_cap[which]) {
    size_t cap = ix->size_cap[which] ? ix->size_cap[which] : 4096;
    while (cap <= (size_t)rowid)
      cap *= 2;
    c = realloc(ix->size[which], cap * sizeof *c);
    if (!c)
      return SQLITE_OK; /* not cached: still scored */
    memset(c + ix->size_cap[which], 0, (cap - ix->size_cap[which]) * sizeof *c);
    ix->size[which] = c;
    ix->size_cap[which] = cap;
  }
  c[rowid] = (uint32_t)*out + 1;
  return SQLITE_OK;
}

/* ---- scoring ---- */

/* One row of one phrase. */
typedef struct posting {
  int64_t rowid;
  double freq;        /* occurrences, each weighed by its column's weight, as bm25() sums them */
  int size;           /* the row's tokens, all columns */
  unsigned char cols; /* bit c: in column c */
} posting;

typedef struct postings {
  posting *v;
  size_t n, cap;
} postings;

typedef struct rank_ctx {
  upk_index *ix;
  int which, nph;
  bool all; /* rows with every phrase, the first met; else the best of any */
  upk_ix_ranked *best;
  size_t keep, n;
  postings *rows;       /* per phrase */
  const double *weight; /* head: name, description, headings; body: NULL (1) */
  bool done;
  int rc;
} rank_ctx;

/* xQueryPhrase()'s callback: one row of the phrase. */
static int note_posting(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud) {
  rank_ctx *r = ((rank_ctx **)ud)[0];
  postings *p = ((postings **)ud)[1];
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 256;
    posting *v = realloc(p->v, cap * sizeof *v);
    if (!v)
      return SQLITE_NOMEM;
    p->v = v;
    p->cap = cap;
  }
  posting *x = &p->v[p->n];
  memset(x, 0, sizeof *x);
  x->rowid = api->xRowid(fts);
  Fts5PhraseIter it;
  int col, off, rc;
  for (rc = api->xPhraseFirst(fts, 0, &it, &col, &off); rc == SQLITE_OK && col >= 0;
       api->xPhraseNext(fts, &it, &col, &off)) {
    x->freq += r->weight && col < 3 ? r->weight[col] : 1.0;
    x->cols |= (unsigned char)(col < 8 ? 1u << col : 0);
  }
  if (rc == SQLITE_OK)
    rc = row_size(r->ix, r->which, api, fts, x->rowid, &x->size);
  if (rc == SQLITE_OK)
    p->n++;
  return rc;
}

/* Better: a higher score, then (as FTS5 meets rows) a lower rowid. */
static bool better(const upk_ix_ranked *a, const upk_ix_ranked *b) {
  return a->score != b->score ? a->score > b->score : a->rowid < b->rowid;
}

static void swap(upk_ix_ranked *a, upk_ix_ranked *b) {
  upk_ix_ranked t = *a;
  *a = *b;
  *b = t;
}

/* best[] is a heap with the worst kept row on top. */
static void keep_row(rank_ctx *r, const upk_ix_ranked *x) {
  upk_ix_ranked *h = r->best;
  if (r->n < r->keep) {
    size_t i = r->n++;
    h[i] = *x;
    for (; i > 0 && better(&h[(i - 1) / 2], &h[i]); i = (i - 1) / 2)
      swap(&h[i], &h[(i - 1) / 2]);
    return;
  }
  if (!better(x, &h[0]))
    return;
  h[0] = *x;
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, worst = i;
    if (l < r->n && better(&h[worst], &h[l]))
      worst = l;
    if (l + 1 < r->n && better(&h[worst], &h[l + 1]))
      worst = l + 1;
    if (worst == i)
      return;
    swap(&h[i], &h[worst]);
    i = worst;
  }
}

/* The phrases' row lists, each in rowid order, merged: every row scored
 * once, its phrases' terms summed in the phrases' order as bm25() sums
 * them (a phrase a row lacks adds exactly 0 there). */
static void merge_rows(rank_ctx *r, const double *idf, double avgdl) {
  const double k1 = 1.2, b = 0.75; /* bm25()'s */
  size_t at[UPK_IX_MAX_PHRASES] = {0};
  for (;;) {
    int64_t row = INT64_MAX;
    for (int i = 0; i < r->nph; i++)
      if (at[i] < r->rows[i].n && r->rows[i].v[at[i]].rowid < row)
        row = r->rows[i].v[at[i]].rowid;
    if (row == INT64_MAX || (r->all && r->n == r->keep))
      return;
    upk_ix_ranked x = {.rowid = row};
    int has = 0;
    for (int i = 0; i < r->nph; i++) {
      const posting *p = at[i] < r->rows[i].n ? &r->rows[i].v[at[i]] : NULL;
      if (!p || p->rowid != row)
        continue;
      x.score += idf[i] *
                 ((p->freq * (k1 + 1.0)) / (p->freq + k1 * (1 - b + b * (double)p->size / avgdl)));
      x.cols[i] = p->cols;
      has++;
      at[i]++;
    }
    if (!r->all || has == r->nph)
      keep_row(r, &x);
  }
}

/* The whole ranking, from the statement's first row: each phrase's rows,
 * their idf as bm25() has it, then the merge. */
static int rank_all(rank_ctx *r, const Fts5ExtensionApi *api, Fts5Context *fts) {
  if (api->xPhraseCount(fts) != r->nph)
    return SQLITE_ERROR; /* the caller's phrases and FTS5's no longer line up */
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK)
    rc = api->xColumnTotalSize(fts, -1, &tokens);
  double avgdl = rows > 0 ? (double)tokens / (double)rows : 1, idf[UPK_IX_MAX_PHRASES];
  for (int i = 0; i < r->nph && rc == SQLITE_OK; i++) {
    void *ud[2] = {r, &r->rows[i]};
    rc = api->xQueryPhrase(fts, i, ud, note_posting);
    double hits = (double)r->rows[i].n;
    idf[i] = log(((double)rows - hits + 0.5) / (hits + 0.5));
    if (idf[i] <= 0.0)
      idf[i] = 1e-6;
  }
  if (rc == SQLITE_OK)
    merge_rows(r, idf, avgdl);
  return rc;
}

/* upk_rank(table, context): the first row ranks them all into the context. */
static void rank_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *sctx, int nval,
                    sqlite3_value **val) {
  rank_ctx *r = nval == 1 ? sqlite3_value_pointer(val[0], "upk_ix_rank") : NULL;
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

int upk_ix_rank_init(upk_index *ix) {
  if (ix->fts->xCreateFunction(ix->fts, "upk_rank", ix, rank_fn, NULL) != SQLITE_OK)
    return upk_ix_fail(ix, -ENOTSUP, "cannot add the upk_rank function to FTS5");
  ix->data_version = -1;
  sqlite3_update_hook(ix->db, on_change, ix);
  return 0;
}

void upk_ix_rank_close(upk_index *ix) {
  if (ix->db)
    sqlite3_update_hook(ix->db, NULL, NULL);
  for (int w = 0; w < 2; w++) {
    free(ix->size[w]);
    ix->size[w] = NULL;
    ix->size_cap[w] = 0;
  }
}

/* Best first. */
static void sort_best(upk_ix_ranked *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t k = i; k > 0 && better(&v[k], &v[k - 1]); k--)
      swap(&v[k], &v[k - 1]);
}

int upk_ix_rank_rows(upk_index *ix, int which, const upk_ix_phrase *ph, int n, bool all,
                     upk_ix_ranked *best, size_t keep) {
  if (n <= 0)
    return 0;
  if (n > UPK_IX_MAX_PHRASES)
    return upk_ix_fail(ix, -E2BIG, "lookup: %d phrases (at most %d)", n, UPK_IX_MAX_PHRASES);
  postings rows[UPK_IX_MAX_PHRASES] = {0};
  rank_ctx r = {.ix = ix,
                .which = which,
                .nph = n,
                .all = all,
                .best = best,
                .keep = keep,
                .rows = rows,
                .weight = which == 0 ? &ix->w.name : NULL};
  upk_ix_buf e = {0};
  for (int i = 0; i < n; i++) {
    upk_ix_buf_str(&e, i ? (all ? " AND " : " OR ") : "");
    upk_ix_buf_add(&e, ph[i].text, (size_t)ph[i].len);
  }
  int rc = e.s ? 0 : -ENOMEM;
  if (!rc) {
    sqlite3_stmt *st = ix->st[which == 0 ? ST_LOOKUP : ST_LOOKUP_BODY];
    sqlite3_bind_text(st, 1, e.s, -1, SQLITE_STATIC);
    sqlite3_bind_pointer(st, 2, &r, "upk_ix_rank", NULL);
    int s = sqlite3_step(st); /* the first row ranks them all */
    if (s != SQLITE_ROW && s != SQLITE_DONE)
      rc = r.rc == SQLITE_ERROR
               ? upk_ix_fail(ix, -EIO, "lookup: the query's phrases do not line up")
               : upk_ix_sql_fail(ix, "lookup");
    sqlite3_reset(st);
  }
  for (int i = 0; i < n; i++)
    free(rows[i].v);
  free(e.s);
  if (rc)
    return rc;
  if (!all)
    sort_best(best, r.n);
  return (int)r.n;
}
