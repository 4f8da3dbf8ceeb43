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

/* The largest rowid of the words' lists, or -1 (none, or a rowid below 0). */
static int64_t max_joint_rowid(const upk__ix_joint *j) {
  int64_t max = -1;
  for (int k = 0; k < j->n; k++)
    for (int t = 0; t < 2; t++) {
      if (!j->w[k].rows[t])
        continue;
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

void upk__ix_joint_prepare(upk_index *ix, upk__ix_joint *j, int64_t rows, int64_t head_tokens,
                           int64_t body_tokens) {
  double n = (double)rows;
  j->avgdl = rows > 0 ? (double)(head_tokens + body_tokens) / n : 1;
  if (j->avgdl <= 0)
    j->avgdl = 1;
  j->max_rowid = max_joint_rowid(j);
  /* the index's ids run from 1 up, about as many as its skills; past the slots', merge */
  unsigned char *mark = upk__ix_slots(ix, j->max_rowid);
  for (int k = 0; k < j->n; k++) {
    upk__ix_joint_word *w = &j->w[k];
    double u = union_count(w, n, mark);
    /* In half the skills or more the word weighs nothing (FTS5's bm25 has
     * 1e-6 there): its rows are left alone. */
    w->idf = (w->rows[0] || w->rows[1]) && u * 2 < n ? log((n - u + 0.5) / (u + 0.5)) : 0;
  }
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

/* Each row's posting in a list (NULL: none, or no list), for rows[0..n) in rowid order. */
static void find_all(const upk__ix_postings *l, const int64_t *rows, size_t n,
                     const unsigned char *slot, const upk__ix_posting **out) {
  if (l)
    upk__ix_find_rows(l, rows, n, slot, out);
  else
    memset(out, 0, n * sizeof *out);
}

int upk__ix_joint_scores(upk_index *ix, const upk__ix_joint *j, const int64_t *rows, size_t n,
                         double *score, uint64_t *in_body) {
  const upk__ix_posting **h = upk_xmalloc((2 * n + 1) * sizeof *h), **t = h + n;
  memset(in_body, 0, n * sizeof *in_body);
  /* each row's place, for the lists walked rather than galloped (upk__ix_find_rows); a row
   * may be in no list here (one too common to walk): the slots cover it too */
  int64_t top = n && rows[n - 1] > j->max_rowid ? rows[n - 1] : j->max_rowid;
  unsigned char *slot =
      n && n <= UINT8_MAX && j->max_rowid >= 0 && rows[0] >= 0 ? upk__ix_slots(ix, top) : NULL;
  for (size_t r = 0; slot && r < n; r++)
    slot[rows[r]] = (unsigned char)(r + 1);
  for (int k = 0; k < j->n; k++) {
    const upk__ix_joint_word *w = &j->w[k];
    find_all(w->rows[0], rows, n, slot, h);
    find_all(w->rows[1], rows, n, slot, t);
    for (size_t r = 0; r < n; r++) {
      in_body[r] |= t[r] ? (uint64_t)1 << k : 0;
      if (!w->idf || (!h[r] && !t[r]))
        continue;
      double tf = (h[r] ? h[r]->freq : 0) + (t[r] ? t[r]->freq : 0);
      double len = size_in(ix, 0, rows[r], h[r]) + size_in(ix, 1, rows[r], t[r]);
      score[r] += upk__ix_bm25(w->idf, tf, len, j->avgdl);
    }
  }
  for (size_t r = 0; slot && r < n; r++)
    slot[rows[r]] = 0;
  free(h);
  return 0;
}
