/** The posting store: the row lists of single words, compact, copied from FTS5 after the
 * merge (store.c). Not API.
 *
 * What it holds: per table (0: head, 1: body) and word as the index stores it (porter stem),
 * every row holding the word, as the rowid's delta from the row before (a varint) and the
 * word's count per column (head: a byte of columns, then a varint count per column; body:
 * a varint count): 2-4 bytes a row instead of FTS5's doclist with positions. FTS5 stays the
 * source of truth and the tokenizer; a lookup that finds a word here reads its rows at
 * ~20 instructions a row instead of ~720 through xQueryPhrase().
 *
 * Which words: those in at least UPK_IX_STORE_MIN_ROWS rows and fewer than half of a
 * table's rows (a lookup never asks more common ones), the longest lists first, within
 * UPK_IX_STORE_MAX_BYTES. Rarer words cost less to walk than to keep.
 *
 * Kept true: any row change (the update hook on %_docsize, rank.c) or another connection's
 * commit empties it at the next lookup or fill step, as the kept lists; the next fill
 * (upk_index_tidy(), on the skills queue) copies it again, and meanwhile lookups walk FTS5.
 *
 * Threads: one connection, one thread at a time. In the daemon every call (fill steps and
 * lookups alike) runs on the skills service's serial queue, never on the loop. */
#ifndef UPK_SKILLS_INDEX_STORE_INT_H
#define UPK_SKILLS_INDEX_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skills/index/rank_int.h"

/** The fewest rows of a word the store keeps. A word FTS5 walks costs a phrase query (~10 us,
 * its doclist sought in the index) whatever its rows; tasks name rare words: at 10,000 skills
 * keeping words of 8 rows or more, not 32, took 7 % off the test tasks' lookup (p50 0.91 ->
 * 0.85 ms) for 6 MiB more at 40,000 skills (RSS 100 -> 106 MiB; 2 rows or more: 131). */
#define UPK_IX_STORE_MIN_ROWS 8
/** The store's bound, all lists together (the encoded rows and their keys). */
#define UPK_IX_STORE_MAX_BYTES (48u << 20)
/** How long one fill step may run, at most about (a lookup queued behind it waits that). */
#define UPK_IX_STORE_STEP_NS 4000000ull

typedef struct upk__ix_store upk__ix_store;

/** The most columns a table has (the head's name, description, headings). */
#define UPK_IX_STORE_COLS 3

/** One row as stored: its rowid and its count in each column. */
typedef struct upk__ix_srow {
  int64_t rowid;
  uint32_t count[UPK_IX_STORE_COLS];
} upk__ix_srow;

/** Append a row to an encoded list (prev: the row before's rowid, 0 for the first) in
 * table `which`'s format. 0, or -ENOMEM / -EINVAL (rowids must grow). */
int upk__ix_store_encode(upk_buf *b, int which, int64_t prev, const upk__ix_srow *row);
/** Read the row at *p (end: the list's end) after `prev`; advances *p. false: malformed. */
bool upk__ix_store_decode(const unsigned char **p, const unsigned char *end, int which,
                          int64_t prev, upk__ix_srow *row);

/** One fill step, at most about UPK_IX_STORE_STEP_NS: 1 while more is to copy, 0 when the
 * store is complete, or a negative error (upk_index_errmsg()). */
int upk__ix_store_step(upk_index *ix);
/** Whether the store is not complete (a fill step has work). */
bool upk__ix_store_pending(const upk_index *ix);
/** A phrase's rows of table `which`, decoded as the ranking walks them (each row's weighted
 * count as bm25() sums it, with ix->w for the head, its size from the size cache, its
 * columns) with each row's bm25 term for the table's `rows` and `tokens`, into *out
 * (malloc'd, the caller frees it). false: not held (a prefix, a phrase of several words,
 * a word not copied, or a row's size not known). */
bool upk__ix_store_get(upk_index *ix, int which, const upk__ix_phrase *ph, int64_t rows,
                       int64_t tokens, upk__ix_postings *out);
/** A table's row count and total size in tokens, as FTS5 had them at the fill. */
bool upk__ix_store_totals(const upk_index *ix, int which, int64_t *rows, int64_t *tokens);
/** Empty it (a row changed, another connection committed, or tests); the next fill step
 * starts over. */
void upk__ix_store_clear(upk_index *ix);
/** Turn it off (tests) or on again (then empty); the kept lists are emptied too. */
void upk__ix_store_enable(upk_index *ix, bool on);
/** What it holds: lists, rows and bytes (for tests and the bench's figures). */
void upk__ix_store_size(const upk_index *ix, size_t *lists, size_t *rows, size_t *bytes);
/** The byte bound (tests lower it), 0: UPK_IX_STORE_MAX_BYTES. */
void upk__ix_store_set_max(upk_index *ix, size_t bytes);
/** Lists served to lookups since open (tests). */
size_t upk__ix_store_hits(const upk_index *ix);
/** Adds the upk_store_totals() function to FTS5 (index open): 0, or an error, noted. */
int upk__ix_store_init(upk_index *ix);
/** Frees it (index close). */
void upk__ix_store_free(upk_index *ix);

#endif
