/* One bm25 over the whole skill, head and body as one text, added to the
 * two tables' scores.
 *
 * Why: the two tables' scores each saturate a word on their own and weigh
 * it by their own idf and length. A skill whose body says a word many times
 * then gains from it twice, and a word rare in heads but common in bodies
 * weighs as if rare. One bm25 over the skill (the plain FTS5 baseline's
 * model) counts a word once: its weighted count in the head plus its count
 * in the body, saturated once, its idf from the skills that have it
 * anywhere, the length the skill's whole. Neither model alone won: at
 * 20,000 skills the two tables lost first places to the baseline, and one
 * bm25 alone lost them at 10,000 (docs/skills.md). Their sum, chosen on the
 * tuning set, beat the baseline at both sizes.
 *
 * It is a second stage: it scores only the candidates the tables ranked,
 * from the row lists the ranking already holds (one merge of each word's
 * lists against the candidates), so it walks nothing more. */
#include "skills/index/db_int.h"
#include "skills/index/joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define MARK_MAX_ROWID (1 << 24) /* a byte per row up to here: 16 MiB at most */

/* The largest rowid of the lists both of whose tables are at hand, or -1. */
static int64_t max_joint_rowid(const upk__ix_joint *j) {
  int64_t max = -1;
  for (int k = 0; k < j->n; k++)
    for (int t = 0; t < 2 && j->w[k].rows[0] && j->w[k].rows[1]; t++) {
      const upk__ix_postings *l = j->w[k].rows[t];
      if (l->n && l->v[0].rowid < 0)
        return -1; /* never in the index (ids from 1): the merge below copes */
      if (l->n && l->v[l->n - 1].rowid > max)
        max = l->v[l->n - 1].rowid;
    }
  return max;
}

/* Rows in both of two lists sorted by rowid. mark: zeroed, one byte per rowid of either list,
 * left zeroed; NULL: a merge instead. The merge's branch per step cost 7 % of a lookup's
 * instructions over the dev tasks at 40,000 skills; a mark per row is two stores and a load. */
static size_t count_both(const upk__ix_postings *h, const upk__ix_postings *b,
                         unsigned char *mark) {
  size_t both = 0;
  if (mark) {
    for (size_t i = 0; i < b->n; i++)
      mark[b->v[i].rowid] = 1;
    for (size_t i = 0; i < h->n; i++)
      both += mark[h->v[i].rowid];
    for (size_t i = 0; i < b->n; i++)
      mark[b->v[i].rowid] = 0;
    return both;
  }
  size_t i = 0, k = 0;
  while (i < h->n && k < b->n) {
    int64_t x = h->v[i].rowid, y = b->v[k].rowid;
    both += x == y;
    i += x <= y;
    k += y <= x;
  }
  return both;
}

/* Skills with the word in head or body: counted when both lists are at
 * hand (both sorted by rowid), else estimated as if the tables were
 * independent (a table's list is not walked when the word is too common
 * there for the budget: its count is the snapshot's). */
static double union_count(const upk__ix_joint_word *w, double rows, unsigned char *mark) {
  const upk__ix_postings *h = w->rows[0], *b = w->rows[1];
  if (h && b)
    return (double)(h->n + b->n - count_both(h, b, mark));
  double a = h ? (double)h->n : (double)w->df[0], c = b ? (double)b->n : (double)w->df[1];
  return rows > 0 ? a + c - a * c / rows : a + c;
}

void upk__ix_joint_prepare(upk__ix_joint *j, int64_t rows, int64_t head_tokens,
                           int64_t body_tokens) {
  double n = (double)rows;
  j->avgdl = rows > 0 ? (double)(head_tokens + body_tokens) / n : 1;
  if (j->avgdl <= 0)
    j->avgdl = 1;
  int64_t max = max_joint_rowid(j);
  /* the index's ids run from 1 up, about as many as its skills; past MARK_MAX_ROWID, merge */
  unsigned char *mark = max >= 0 && max < MARK_MAX_ROWID ? upk_xcalloc((size_t)max + 1, 1) : NULL;
  for (int k = 0; k < j->n; k++) {
    upk__ix_joint_word *w = &j->w[k];
    double u = union_count(w, n, mark);
    /* In half the skills or more the word weighs nothing (FTS5's bm25 has
     * 1e-6 there): its rows are left alone. */
    w->idf = (w->rows[0] || w->rows[1]) && u * 2 < n ? log((n - u + 0.5) / (u + 0.5)) : 0;
  }
  free(mark);
}

/* A row's size in one table: its posting's, else the size cache's (loaded
 * for every row at the lookup's start), else none (a skill with no body). */
static double size_in(const upk_index *ix, int which, int64_t rowid, const upk__ix_posting *p) {
  if (p)
    return p->size;
  if (rowid >= 0 && (size_t)rowid < ix->size_cap[which] && ix->size[which][rowid])
    return ix->size[which][rowid] - 1;
  return 0;
}

/* Each row's posting in a list, for rows[0..n) in rowid order: one pass, each step a gallop
 * from the last (a binary search per row and word over the whole list was 8 % of a lookup's
 * instructions; a merge, stepping every row of the list, 4 %). */
static void find_all(const upk__ix_postings *l, const int64_t *rows, size_t n,
                     const upk__ix_posting **out) {
  size_t i = 0;
  for (size_t k = 0; k < n; k++) {
    out[k] = NULL;
    if (!l)
      continue;
    i = upk__ix_seek(l, i, rows[k]);
    if (i < l->n && l->v[i].rowid == rows[k])
      out[k] = &l->v[i];
  }
}

int upk__ix_joint_scores(const upk_index *ix, const upk__ix_joint *j, const int64_t *rows, size_t n,
                         double *score, uint64_t *in_body) {
  const upk__ix_posting **h = upk_xmalloc(2 * n * sizeof *h), **t = h + n;
  memset(in_body, 0, n * sizeof *in_body);
  for (int k = 0; k < j->n; k++) {
    const upk__ix_joint_word *w = &j->w[k];
    find_all(w->rows[0], rows, n, h);
    find_all(w->rows[1], rows, n, t);
    for (size_t r = 0; r < n; r++) {
      in_body[r] |= t[r] ? (uint64_t)1 << k : 0;
      if (!w->idf || (!h[r] && !t[r]))
        continue;
      double tf = (h[r] ? h[r]->freq : 0) + (t[r] ? t[r]->freq : 0);
      double len = size_in(ix, 0, rows[r], h[r]) + size_in(ix, 1, rows[r], t[r]);
      score[r] += upk__ix_bm25(w->idf, tf, len, j->avgdl);
    }
  }
  free(h);
  return 0;
}
