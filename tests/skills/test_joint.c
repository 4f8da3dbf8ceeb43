/* The joint score's two row walks (skills/index/joint.c), on crafted row lists: the count of
 * skills with a word in head or body (by marks, or by a merge when a rowid is too large to
 * mark) and each candidate's posting found in a long list (by galloping). Each is checked
 * against a count or a sum made here row by row, so a row missed or counted twice fails. */
#include "tests/unit/unit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "skills/index/db_int.h"
#include "skills/index/joint_int.h"

/* A list of rows from..to stepping by step, each with freq f and size s. */
static upk__ix_postings list_of(int64_t from, int64_t to, int64_t step, double f, int s) {
  upk__ix_postings l = {calloc((size_t)((to - from) / step + 1), sizeof *l.v), 0, 0};
  cr_assert(l.v);
  for (int64_t r = from; r <= to; r += step)
    l.v[l.n++] = (upk__ix_posting){.rowid = r, .freq = f, .size = s, .cols = 1};
  l.cap = l.n;
  return l;
}

static bool has(const upk__ix_postings *l, int64_t rowid) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].rowid == rowid)
      return true;
  return false;
}

/* Skills in either list, counted one rowid at a time. */
static double union_by_hand(const upk__ix_postings *h, const upk__ix_postings *b) {
  size_t u = h->n;
  for (size_t i = 0; i < b->n; i++)
    u += !has(h, b->v[i].rowid);
  return (double)u;
}

static double idf_of(double n, double u) {
  return u * 2 < n ? log((n - u + 0.5) / (u + 0.5)) : 0;
}

/* Word 0: head rows 3, 6, ... and body rows 2, 4, ... (every sixth row in both); word 1: the
 * same head rows, body rows past the marks' bound. With word 1 both are merged; word 0 alone
 * is counted by marks. */
UTest(joint, union_of_head_and_body_rows) {
  const int64_t rows = 100000;
  upk__ix_postings h = list_of(3, 30000, 3, 1, 10), b = list_of(2, 20000, 2, 1, 10);
  upk__ix_postings far = list_of(INT64_C(1) << 25, (INT64_C(1) << 25) + 40, 1, 1, 10);
  upk_index ix = {0};
  upk__ix_joint j = {.n = 2};
  j.w[0].rows[0] = &h;
  j.w[0].rows[1] = &b;
  j.w[1].rows[0] = &h;
  j.w[1].rows[1] = &far;
  upk__ix_joint_prepare(&ix, &j, rows, 100 * rows, 100 * rows);
  double u0 = union_by_hand(&h, &b), u1 = union_by_hand(&h, &far);
  cr_assert_eq(u0, 10000 + 10000 - 3333, "the hand count itself: %g", u0);
  cr_assert_eq(j.w[0].idf, idf_of((double)rows, u0), "%.17g against %.17g", j.w[0].idf,
               idf_of((double)rows, u0));
  cr_assert_eq(j.w[1].idf, idf_of((double)rows, u1));
  /* by marks (twice: the marks must be left clean) */
  upk__ix_joint marks = {.n = 2};
  marks.w[0] = marks.w[1] = j.w[0];
  upk__ix_joint_prepare(&ix, &marks, rows, 100 * rows, 100 * rows);
  cr_assert_eq(marks.w[0].idf, j.w[0].idf);
  cr_assert_eq(marks.w[1].idf, j.w[0].idf);
  for (size_t r = 0; r < ix.slot_cap; r++)
    cr_assert_eq(ix.slot[r], 0, "row %zu left marked", r);
  free(h.v), free(b.v), free(far.v), free(ix.slot);
}

/* Candidates spread over a long list, some in it and some not (before its first row, between
 * rows, after its last): each one's joint score is the bm25 of its own posting, or none. */
UTest(joint, candidates_found_in_long_lists) {
  upk_index ix = {0}; /* every candidate has a posting in the head list or none at all */
  upk__ix_postings h = list_of(10, 50000, 5, 2, 40), b = list_of(7, 7, 1, 1, 40);
  upk__ix_joint j = {.n = 1};
  j.w[0].rows[0] = &h;
  j.w[0].rows[1] = &b;
  upk__ix_joint_prepare(&ix, &j, 200000, 20 * 200000, 20 * 200000);
  cr_assert_gt(j.w[0].idf, 0);
  const int64_t cand[] = {1, 7, 10, 11, 15, 20, 4995, 5000, 25001, 49995, 50000, 50005, 90000};
  size_t n = sizeof cand / sizeof *cand;
  double score[sizeof cand / sizeof *cand] = {0};
  uint64_t in_body[sizeof cand / sizeof *cand];
  cr_assert_eq(upk__ix_joint_scores(&ix, &j, cand, n, score, in_body), 0);
  for (size_t k = 0; k < n; k++) {
    bool in_head = has(&h, cand[k]), body = cand[k] == 7;
    double tf = (in_head ? 2 : 0) + (body ? 1 : 0), len = (in_head ? 40 : 0) + (body ? 40 : 0);
    double want = tf ? upk__ix_bm25(j.w[0].idf, tf, len, j.avgdl) : 0;
    cr_assert_eq(score[k], want, "row %lld: %.17g against %.17g", (long long)cand[k], score[k],
                 want);
    cr_assert_eq(in_body[k], body ? 1u : 0u, "row %lld", (long long)cand[k]);
  }
  free(h.v), free(b.v), free(ix.slot);
}

/* Short lists, walked once with each candidate's slot (upk__ix_find_rows), beside a long one
 * galloped, and candidates past every list's last row: the same sums as row by row, and every
 * slot left zero for the next walk. */
UTest(joint, candidates_found_in_short_lists) {
  upk_index ix = {0};
  upk__ix_postings h = list_of(4, 400, 4, 1, 30), b = list_of(6, 600, 6, 3, 50),
                   l = list_of(1, 60000, 1, 1, 20);
  upk__ix_joint j = {.n = 2};
  j.w[0].rows[0] = &h;
  j.w[0].rows[1] = &b;
  j.w[1].rows[0] = &l;
  upk__ix_joint_prepare(&ix, &j, 400000, 20 * 400000, 20 * 400000);
  cr_assert_gt(j.w[0].idf, 0);
  cr_assert_gt(j.w[1].idf, 0);
  int64_t cand[40];
  size_t n = 0;
  for (int64_t r = 2; r <= 800; r += 21)
    cand[n++] = r;
  cand[n++] = 70000;
  for (int pass = 0; pass < 2; pass++) {
    double score[40] = {0};
    uint64_t in_body[40];
    cr_assert_eq(upk__ix_joint_scores(&ix, &j, cand, n, score, in_body), 0);
    for (size_t k = 0; k < n; k++) {
      bool a = has(&h, cand[k]), c = has(&b, cand[k]), d = has(&l, cand[k]);
      double w0 = a || c ? upk__ix_bm25(j.w[0].idf, (a ? 1 : 0) + (c ? 3 : 0),
                                        (a ? 30 : 0) + (c ? 50 : 0), j.avgdl)
                         : 0;
      double want = w0 + (d ? upk__ix_bm25(j.w[1].idf, 1, 20, j.avgdl) : 0);
      cr_assert_eq(score[k], want, "pass %d, row %lld: %.17g against %.17g", pass,
                   (long long)cand[k], score[k], want);
      cr_assert_eq(in_body[k], c ? 1u : 0u, "row %lld", (long long)cand[k]);
    }
  }
  for (size_t r = 0; r < ix.slot_cap; r++)
    cr_assert_eq(ix.slot[r], 0, "row %zu left marked", r);
  free(h.v), free(b.v), free(l.v), free(ix.slot);
}
