/** One bm25 over the whole skill, head and body as one text, added to the two tables' scores
 * (joint.c: see there why). Not API. */
#ifndef UPK_SKILLS_INDEX_JOINT_INT_H
#define UPK_SKILLS_INDEX_JOINT_INT_H

#include <stdint.h>

#include "skills/index/rank_int.h"

/** The most words (<= 64: a bit each), a task's words then their other forms. */
#define UPK_IX_JOINT_MAX 48
/** One word of the joint score: its rows in each table and its idf. */
typedef struct upk__ix_joint_word {
  const upk__ix_postings *rows[2]; /* the word's head / body rows; NULL: not walked */
  long df[2];                      /* skills with it in each table, for a table not walked */
  double idf;                      /* from the skills with it anywhere; 0: weighs nothing */
} upk__ix_joint_word;
/** A lookup's words for the joint score and the average skill's size. */
typedef struct upk__ix_joint {
  upk__ix_joint_word w[UPK_IX_JOINT_MAX];
  int n;
  double avgdl;      /* head plus body tokens, per skill */
  int64_t max_rowid; /* the words' lists' largest rowid; -1: none, or one below 0 */
} upk__ix_joint;
/** The idfs and the average size, from the head's rows and both tables' tokens. */
void upk__ix_joint_prepare(upk_index *ix, upk__ix_joint *j, int64_t rows, int64_t head_tokens,
                           int64_t body_tokens);
/** The joint scores of rows[0..n) (rowid order), added to score[]; in_body[r]
 * gets bit k when word k is in row r's body. -1: no memory (nothing added). */
int upk__ix_joint_scores(upk_index *ix, const upk__ix_joint *j, const int64_t *rows, size_t n,
                         double *score, uint64_t *in_body);

#endif
