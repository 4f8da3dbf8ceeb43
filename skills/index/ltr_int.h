/** The learned order of a lookup's best candidates (ltr.c): each candidate's features (what
 * the lookup knows of it), one linear score. Not API. */
#ifndef UPK_SKILLS_INDEX_LTR_INT_H
#define UPK_SKILLS_INDEX_LTR_INT_H

#include <stdbool.h>

enum {
  UPK_LTR_HEAD,       /* -bm25 in the head table */
  UPK_LTR_BODY,       /* -bm25 in the body table */
  UPK_LTR_JOINT,      /* one bm25 over the whole skill (joint.c) */
  UPK_LTR_NAME,       /* share of the task's words (by idf) in the name */
  UPK_LTR_DESC,       /* ... in the description */
  UPK_LTR_HEADINGS,   /* ... in the headings */
  UPK_LTR_IN_BODY,    /* ... in the body */
  UPK_LTR_ANY,        /* ... anywhere */
  UPK_LTR_NAME_COVER, /* share of the name's words the task holds */
  UPK_LTR_PAIRS,      /* two task words side by side in name or description (at most 3) */
  UPK_LTR_BODY_LEN,   /* log(1 + body tokens) */
  UPK_LTR_DESC_LEN,   /* log(1 + description tokens) */
  UPK_LTR_DESC_DENSE, /* share of the description's tokens that are task words */
  UPK_LTR_COVER,      /* share of the task's words (by count) anywhere */
  UPK_LTR_HEAD_ONLY,  /* 1: only the head table ranked it */
  UPK_LTR_BODY_ONLY,  /* 1: only the body table ranked it */
  UPK_LTR_RAREST,     /* 1: the task's rarest word is in it */
  UPK_LTR_N
};
/** Candidates of a lookup given the learned order: the best by the tables' sum. */
#define UPK_LTR_POOL 24
/** The learned linear score of one candidate's features. */
double upk__ix_ltr_score(const double f[UPK_LTR_N]);
/** The weights are the tables' own sum (head + body + 10 x joint): no pass is needed. */
bool upk__ix_ltr_plain(void);
/** Each feature's name, as the dump (UPSKILLD_RANK_DUMP) and ltr_fit.py write it. */
extern const char *const upk__ix_ltr_names[UPK_LTR_N];

#endif
