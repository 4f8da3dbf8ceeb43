/** A lookup's query as query.c builds and runs it: the task's words, each table's phrases and
 * rows, the candidates; why.c reads it to say which words each hit matched where. Included by
 * those two files only (its short type names are theirs). Not API. */
#ifndef UPK_SKILLS_INDEX_QUERY_INT_H
#define UPK_SKILLS_INDEX_QUERY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/dynbuf.h"
#include "skills/index.h"
#include "skills/index/db_int.h"
#include "skills/index/joint_int.h"
#include "skills/index/rank_int.h"

#define MAX_TERMS 32                   /* kept words per task: the rarest ones */
#define MAX_SEEN 256                   /* distinct words considered */
#define MAX_PHRASES UPK_IX_MAX_PHRASES /* words plus their expansions */
#define CANDIDATES 64                  /* best rows taken from each table */

/* The two tables a lookup asks: what a skill says it is for (name,
 * description, headings) and its body. */
enum { HEAD, BODY };

typedef struct upk__ix_term {
  char word[64]; /* as written, lowercased (ASCII) */
  char stem[64]; /* as the index stores it */
  long df[2];    /* skills whose head / body contain the stem */
  bool use[2];   /* asked of the head / body table */
  bool prefix;   /* unknown word: match it as a prefix */
  int order;
  char camel[80]; /* "AccessDenied" as "access denied"; "" when not camel case */
  int phrase[2];  /* the word's own phrase in the head's / body's query; -1: none */
} term;

/* A phrase of the query as the index stores it: its tokens' stems. */
typedef struct upk__ix_stems {
  char s[4][64];
  int n;
  bool prefix;
} stems;

typedef struct upk__ix_part {
  upk_buf fts;  /* the phrases, quoted as a MATCH has them, one after another */
  upk_buf keys; /* their kept lists' keys (upk__ix_phrase), one after another */
  size_t key_at[MAX_PHRASES];
  bool all_common;                /* every word in half the skills: rows with all, unranked */
  int phrase_term[MAX_PHRASES];   /* phrase index -> t[] index */
  size_t at[MAX_PHRASES];         /* where in fts each phrase is */
  upk__ix_phrase ph[MAX_PHRASES]; /* as a rank job takes them */
  stems phrase[MAX_PHRASES];      /* for matching a hit's head text (why.c) */
  int nphrase;
  upk__ix_rank_job job;
  upk__ix_lists lists; /* the phrases' rows, from the ranking until the lookup ends */
} part;

/* A skill either table ranked among its best. */
typedef struct upk__ix_cand {
  int64_t doc;
  double score[2];                     /* -bm25 in the head and the body; 0: not ranked */
  double total;                        /* what the order is by */
  double joint;                        /* one bm25 over the whole skill */
  unsigned char fields[2 * MAX_TERMS]; /* per term: UPK_FIELD_* bits it matched */
  bool known[2];                       /* fields noted from the head / body ranking */
  bool text_read;                      /* head text tokenized (why.c) */
  unsigned short ntok[3], hits[3];     /* name, description, headings: tokens, task words */
  unsigned short pairs;                /* two task words side by side in name / description */
} cand;

typedef struct upk__ix_cands {
  cand *v;
  size_t n;
} cands;

/* A lookup's working space (~150 KiB), kept in the index between lookups: a calloc of it
 * each time consolidated malloc's free small chunks first (3 % of a lookup). */
typedef struct upk__ix_query {
  int n;
  const char *text;
  part part[2];
  cand cand[2 * CANDIDATES]; /* both tables' best (run_query) */
  upk__ix_joint joint;       /* their joint scores' words (add_joint) */
  term t[MAX_SEEN];          /* last: t[0..n) each zeroed as met (on_token), the rest never read */
} query;

/** A kept row's phrases noted in c->fields: the head's columns, or the body. */
void upk__ix_note_fields(const part *p, const upk__ix_ranked *x, cand *c, int which);
/** Which of the head's words x has, and where, from the head's row lists: only when the
 * ranking holds every phrase's (q->part[HEAD].lists.complete). */
void upk__ix_head_from_lists(const part *p, cand *x);
/** The same from x's head text, read back and tokenized (with the learned order's counts):
 * 0, or an error, noted. */
int upk__ix_head_fields(upk_index *ix, query *q, cand *x);
/** h's why and matches, from c's fields: 0 or -ENOMEM. */
int upk__ix_fill_why(query *q, const cand *c, upk_index_hit *h);

#endif
