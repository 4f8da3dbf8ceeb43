/** A lookup's rows ranked by bm25 as FTS5 computes it, by the upk_rank() auxiliary function
 * (ST_LOOKUP, ST_LOOKUP_BODY; rank.c). Not API. */
#ifndef UPK_SKILLS_INDEX_RANK_INT_H
#define UPK_SKILLS_INDEX_RANK_INT_H

#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdint.h>

#include "skills/index.h"

/** The most phrases of one table's query. */
#define UPK_IX_MAX_PHRASES 96
/** One phrase of a table's query, as the ranking walks and keeps its rows. */
typedef struct upk__ix_phrase {
  const char *text; /* as the MATCH has it, quoted: "word" or "word"* */
  int len;
  /* Its kept list's key: its tokens as the index stores them, on which alone its rows depend
   * ("deploying" and "deployment" are one list), or its text for a prefix or a phrase too
   * long to keep the tokens of. */
  const char *key;
  int key_len;
} upk__ix_phrase;
/** A row the ranking kept: its score and where each phrase occurs in it. */
typedef struct upk__ix_ranked {
  int64_t rowid;
  double score;                           /* -bm25(): higher is better */
  unsigned char cols[UPK_IX_MAX_PHRASES]; /* per phrase: bit c when it occurs in column c */
} upk__ix_ranked;
/** One row of one phrase, as a ranking notes it. */
typedef struct upk__ix_posting {
  int64_t rowid;
  double freq;        /* occurrences, each weighed by its column's weight, as bm25() sums them */
  double term;        /* the row's bm25 term for the phrase (its idf and the table's average
                       * size hold until a row changes, which empties the kept lists) */
  int size;           /* the row's tokens, all columns */
  unsigned char cols; /* bit c: in column c */
} upk__ix_posting;
/** One phrase's rows (a growable array). */
typedef struct upk__ix_postings {
  upk__ix_posting *v; /* in rowid order */
  size_t n, cap;
} upk__ix_postings;
/** The first index at or after `from` whose row is not below rowid: galloping, then a binary
 * search, so that rows asked in rowid order cost ~log(L / n) steps each over a list of L, not
 * log(L) (a binary search over the whole list) or L / n (a merge). */
static inline size_t upk__ix_seek(const upk__ix_postings *l, size_t from, int64_t rowid) {
  size_t lo = from, step = 1, hi = from;
  while (hi < l->n && l->v[hi].rowid < rowid) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > l->n)
    hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (l->v[mid].rowid < rowid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
/** A byte per rowid 0..max_rowid (rows.c), all zero, for marking a few rows while walking lists;
 * the caller leaves it zeroed. NULL past the rowids worth a byte each (16 Mi): merge instead. */
unsigned char *upk__ix_slots(upk_index *ix, int64_t max_rowid);
/** Each of rows[0..n)'s posting in list l, or NULL where it has none; rows in rowid order.
 * slot: NULL, or upk__ix_slots() with slot[rows[k]] == k + 1 for each k (n <= 255) and
 * covering l's rowids: then a list of a few rows per row asked is walked once, each row's
 * slot read (two loads a row), not galloped (a mispredicted branch per step). */
void upk__ix_find_rows(const upk__ix_postings *l, const int64_t *rows, size_t n,
                       const unsigned char *slot, const upk__ix_posting **out);
/** Frees the rankings' per-row arrays and the slots (rows.c), made again as needed. */
void upk__ix_rows_trim(upk_index *ix);
/** Adds the upk_rank() function to FTS5 and watches rows change: 0, or an error, noted. */
int upk__ix_rank_init(upk_index *ix);
/** Frees what the ranking keeps (its sizes, sums and kept lists). */
void upk__ix_rank_close(upk_index *ix);
/** At the start of a lookup's read transaction: drop what is cached when
 * another connection changed the file since the last lookup. */
int upk__ix_rank_begin(upk_index *ix);
/** Read the rows' sizes when not read yet, or when many rows changed since: 0, or an error,
 * noted. upk__ix_rank_begin() does it; so does the posting store's last fill step (tidy.c). */
int upk__ix_rank_sizes(upk_index *ix);
/** Drop what is cached when another connection changed the file or a row changed since the
 * last look (the kept lists, the posting store, the sizes): 0, or an error, noted. */
int upk__ix_rank_sync(upk_index *ix);
/** One table's ranking: the best `keep` rows of table `which` (0: fts,
 * 1: fts_body) for the OR of ph[0..n), best first, scored as bm25() scores
 * the OR (head columns weighed by ix->w); all: the AND instead, and the
 * first `keep` rows met, unordered. */
typedef struct upk__ix_rank_job {
  int which;
  const upk__ix_phrase *ph;
  int n;
  bool all;
  upk__ix_ranked *best;
  size_t keep;
} upk__ix_rank_job;
/** One row's bm25 term, as FTS5's bm25() computes it (its k1 and b): a
 * phrase's idf, the row's weighted count, its size and the average size. */
static inline double upk__ix_bm25(double idf, double tf, double len, double avgdl) {
  const double k1 = 1.2, b = 0.75;
  return idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1 - b + b * len / avgdl)));
}
/** A phrase's idf as bm25() has it: from the table's rows and the phrase's (never below
 * 1e-6: FTS5 clamps it so). */
static inline double upk__ix_idf(int64_t rows, size_t hits) {
  double idf = log(((double)rows - (double)hits + 0.5) / ((double)hits + 0.5));
  return idf <= 0.0 ? 1e-6 : idf;
}
/** A table's average row size in tokens, as bm25() has it. */
static inline double upk__ix_avgdl(int64_t rows, int64_t tokens) {
  return rows > 0 ? (double)tokens / (double)rows : 1;
}
/** One table's row lists for a job's phrases, walked or kept. */
typedef struct upk__ix_lists {
  upk__ix_postings rows[UPK_IX_MAX_PHRASES]; /* per phrase, each row's term filled */
  bool kept[UPK_IX_MAX_PHRASES];             /* borrowed from the kept lists: not ours */
  bool stored[UPK_IX_MAX_PHRASES];           /* decoded from the posting store, terms filled */
  bool walked;                               /* FTS5 walked the others: offer them to the cache */
  bool complete; /* every phrase's rows are here (an AND that met no row walked none) */
  int n;
  int64_t total_rows, tokens; /* the table's */
} upk__ix_lists;
/** Run a job with st (ST_LOOKUP or ST_LOOKUP_BODY): the rows put in
 * job->best, or a negative error (upk_index_errmsg() says it). The phrases'
 * lists stay in *lists (read them, e.g. upk__ix_joint_scores()) until
 * upk__ix_lists_release(), which the caller owes even on error. */
int upk__ix_rank_run(upk_index *ix, sqlite3_stmt *st, const upk__ix_rank_job *job,
                     upk__ix_lists *lists);
/** Offer the walked lists to the cache, free the rest. Call it only after
 * every table's lists are done with: a put may drop a borrowed list. */
void upk__ix_lists_release(upk_index *ix, const upk__ix_rank_job *job, upk__ix_lists *lists);

#endif
