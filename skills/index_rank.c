/* Ranking a lookup's rows: FTS5's bm25, computed by an auxiliary function
 * of our own that also keeps the best rows and which phrases each matched.
 *
 * Why not bm25() itself: it reads each row's size in tokens through a nested
 * SELECT on the table's %_docsize (40 % of a lookup's instructions, counted
 * with callgrind at 10,000 skills), lists the row's phrase instances merged
 * and sorted (12 %), and a lookup then read each hit's text again to say
 * which words matched where (13 %). upk_rank scores every row exactly as
 * bm25() does (same idf from FTS5's own phrase counts, same k1 and b, same
 * per-column weights, summed in the same order: test_index checks the scores
 * are equal), but takes a row's size from a cache filled the first time FTS5
 * is asked for it, walks each phrase's positions once, and keeps the best
 * rows in a heap instead of SQLite sorting them.
 *
 * The cache is kept true by an update hook on the two %_docsize tables:
 * FTS5 writes a row's size there on every insert and delete, whatever
 * statement caused it, so a changed row's cached size is dropped as it
 * changes (a rolled-back change only drops a size that was still right). */
#include "index_int.h"

#include <errno.h>
#include <math.h>
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

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud) {
  (void)api;
  (void)fts;
  (*(int64_t *)ud)++;
  return SQLITE_OK;
}

/* Once a query: the average row size and each phrase's idf, as bm25() has them. */
static int rank_setup(const Fts5ExtensionApi *api, Fts5Context *fts, upk_ix_rank *r) {
  r->nphrase = api->xPhraseCount(fts);
  if (r->nphrase > UPK_IX_MAX_PHRASES)
    return SQLITE_RANGE;
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK)
    rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc != SQLITE_OK)
    return rc;
  r->avgdl = rows > 0 ? (double)tokens / (double)rows : 1;
  for (int i = 0; i < r->nphrase && rc == SQLITE_OK; i++) {
    int64_t hits = 0;
    rc = api->xQueryPhrase(fts, i, &hits, count_row);
    double idf = log(((double)rows - (double)hits + 0.5) / ((double)hits + 0.5));
    r->idf[i] = idf <= 0.0 ? 1e-6 : idf;
  }
  r->ready = rc == SQLITE_OK;
  return rc;
}

/* Better: a higher score, then (as FTS5 meets rows) a lower rowid. */
static bool better(const upk_ix_ranked *a, const upk_ix_ranked *b) {
  return a->score != b->score ? a->score > b->score : a->rowid < b->rowid;
}

/* best[] is a heap with the worst kept row on top. */
static void sift_down(upk_ix_ranked *h, size_t n, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, worst = i;
    if (l < n && better(&h[worst], &h[l]))
      worst = l;
    if (l + 1 < n && better(&h[worst], &h[l + 1]))
      worst = l + 1;
    if (worst == i)
      return;
    upk_ix_ranked t = h[i];
    h[i] = h[worst];
    h[worst] = t;
    i = worst;
  }
}

static void keep_row(upk_ix_rank *r, const upk_ix_ranked *x) {
  if (r->n < r->keep) {
    size_t i = r->n++;
    r->best[i] = *x;
    while (i > 0 && better(&r->best[(i - 1) / 2], &r->best[i])) {
      upk_ix_ranked t = r->best[i];
      r->best[i] = r->best[(i - 1) / 2];
      r->best[(i - 1) / 2] = t;
      i = (i - 1) / 2;
    }
  } else if (!r->unranked && better(x, &r->best[0])) {
    r->best[0] = *x;
    sift_down(r->best, r->n, 0);
  }
}

/* upk_rank(table, context): scores the current row into the context. */
static void rank_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *sctx, int nval,
                    sqlite3_value **val) {
  upk_index *ix = api->xUserData(fts);
  upk_ix_rank *r = nval == 1 ? sqlite3_value_pointer(val[0], "upk_ix_rank") : NULL;
  if (!r) {
    sqlite3_result_error(sctx, "upk_rank: called without its context", -1);
    return;
  }
  int rc = r->ready ? SQLITE_OK : rank_setup(api, fts, r);
  upk_ix_ranked x = {.rowid = api->xRowid(fts)};
  double freq[UPK_IX_MAX_PHRASES] = {0};
  for (int i = 0; i < r->nphrase && rc == SQLITE_OK; i++) {
    Fts5PhraseIter it;
    int col, off;
    for (rc = api->xPhraseFirst(fts, i, &it, &col, &off); rc == SQLITE_OK && col >= 0;
         api->xPhraseNext(fts, &it, &col, &off)) {
      freq[i] += col < r->ncols ? r->weight[col] : 1.0;
      x.cols[i] |= (unsigned char)(col < 8 ? 1u << col : 0);
    }
  }
  int size = 0;
  if (rc == SQLITE_OK)
    rc = row_size(ix, r->which, api, fts, x.rowid, &size);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(sctx, rc);
    return;
  }
  const double k1 = 1.2, b = 0.75; /* bm25()'s */
  for (int i = 0; i < r->nphrase; i++)
    x.score += r->idf[i] *
               ((freq[i] * (k1 + 1.0)) / (freq[i] + k1 * (1 - b + b * (double)size / r->avgdl)));
  r->rows++;
  keep_row(r, &x);
  sqlite3_result_double(sctx, -x.score); /* as bm25() answers: lower is better */
}

int upk_ix_rank_init(upk_index *ix) {
  if (ix->fts->xCreateFunction(ix->fts, "upk_rank", ix, rank_fn, NULL) != SQLITE_OK)
    return upk_ix_fail(ix, -ENOTSUP, "cannot add the upk_rank function to FTS5");
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

static int by_score(const void *a, const void *b) {
  const upk_ix_ranked *x = a, *y = b;
  return better(x, y) ? -1 : better(y, x) ? 1 : 0;
}

void upk_ix_rank_sort(upk_ix_rank *r) {
  if (!r->unranked)
    qsort(r->best, r->n, sizeof *r->best, by_score);
}
