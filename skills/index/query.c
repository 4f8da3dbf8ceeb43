/* Lookup: a task in plain words -> an FTS5 query -> bm25-ranked skills.
 *
 * The task is tokenized with the very tokenizer the index uses (porter over
 * unicode61, obtained from FTS5), so a word and the text it should match are
 * stemmed alike. Each kept word becomes a quoted FTS5 string and the strings
 * are OR-ed: only letters and digits ever reach the query, so quotes, `*`,
 * `-`, `^`, `:`, NEAR or AND in the task are never syntax. Ranking is FTS5's
 * bm25() with per-column weights; `why` comes from each hit's own text,
 * tokenized again and matched against the query's phrases. */
#include "skills/index/db_int.h"
#include "skills/index/hits_int.h"
#include "skills/index/joint_int.h"
#include "skills/index/ltr_int.h"
#include "skills/index/postings_int.h"
#include "skills/index/query_int.h"
#include "skills/index/rank_int.h"
#include "skills/index/words_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define MAX_TASK 8192 /* bytes of the task that are read */
/* Matched rows a lookup may rank in the head, see mark_within_budget(): 3
 * in 10 skills' worth, within [3,000, 4,500]. A head word's list grows with
 * the index, and a fixed 3,000 asked ever fewer of a task's words: at 20,000
 * skills (4,480) it ranked 3 more first places of 240 tasks (docs/skills.md).
 * Past 4,500 the gain was within a task at 20,000 skills. At 40,000 (issue
 * 47, rank_bench.py's dev half) the budgets left out words the bare FTS5
 * baseline asks, and lookup lost to it (r@1 / r@5 of 240: 93 / 131 against
 * 99 / 140): 6 rows in 10 skills up to 12,000 and the body's 16 rarest words
 * within 20,000 rows gave 100 / 151 (105 / 155 with joint 10); 10 rows in 10
 * skills up to 20,000 and 30,000 body rows 106 / 159, for more time a lookup. */
#define HEAD_BUDGET_MIN 3000
#define HEAD_BUDGET_MAX 12000
#define BODY_BUDGET 20000 /* the body's middling words tell near-duplicates apart */
#define MAX_BODY_TERMS 16 /* a body row's cost grows with the words asked of it */
/* Words a table has no row of, asked of it anyway (as prefixes where no skill has them: an
 * abbreviation, "kube"; or for their other forms: "k8s", a camelCase name). Sorted rarest,
 * they came first, and a pasted log's hashes and identifiers took every place: 40 of them
 * beside "CUDA kernel illegal memory access" and the lookup found nothing. */
#define MAX_UNKNOWN 4

static fts5_api *get_fts5_api(sqlite3 *db) {
  fts5_api *api = NULL;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
  sqlite3_step(st);
  sqlite3_finalize(st);
  return api;
}

int upk__ix_query_init(upk_index *ix) {
  ix->fts = get_fts5_api(ix->db);
  if (!ix->fts || ix->fts->iVersion < 2)
    return upk__ix_fail(ix, -ENOTSUP, "this SQLite has no FTS5 (needed for the skill index)");
  void *ud = NULL;
  const char *args[] = {"unicode61", "remove_diacritics", "2"};
  if (ix->fts->xFindTokenizer(ix->fts, "porter", &ud, &ix->tok_api) != SQLITE_OK ||
      ix->tok_api.xCreate(ud, args, 3, &ix->tok) != SQLITE_OK)
    return upk__ix_fail(ix, -ENOTSUP, "FTS5's porter tokenizer is not available");
  return upk__ix_rank_init(ix);
}

void upk__ix_query_trim(upk_index *ix) {
  upk__ix_rows_trim(ix);
  free(ix->lookup_q);
  ix->lookup_q = NULL;
}

void upk__ix_query_close(upk_index *ix) {
  upk__ix_query_trim(ix);
  upk__ix_rank_close(ix);
  if (ix->tok)
    ix->tok_api.xDelete(ix->tok);
  ix->tok = NULL;
}

/* ---- building the query ---- */

static int on_token(void *ctx, int flags, const char *tok, int ntok, int start, int end) {
  query *q = ctx;
  if (q->n >= MAX_SEEN || ntok <= 0 || ntok >= 64 || end - start >= 64 || end <= start)
    return SQLITE_OK;
  for (int i = 0; i < q->n; i++) /* one term per stem */
    if ((int)strlen(q->t[i].stem) == ntok && !memcmp(q->t[i].stem, tok, (size_t)ntok))
      return SQLITE_OK;
  term *t = &q->t[q->n];
  memset(t, 0, sizeof *t);
  memcpy(t->stem, tok, (size_t)ntok);
  for (int i = 0; i < end - start; i++)
    t->word[i] = (char)tolower((unsigned char)q->text[start + i]);
  upk__ix_camel_words(q->text + start, end - start, t->camel);
  t->order = q->n++;
  return SQLITE_OK;
}

static long vocab_df(upk_index *ix, int which, const char *stem) {
  sqlite3_stmt *st = ix->st[which == HEAD ? ST_TERM_HEAD : ST_TERM_BODY];
  sqlite3_bind_text(st, 1, stem, -1, SQLITE_STATIC);
  long df = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  return df;
}

static void stem_df(upk_index *ix, const char *stem, long df[2]) {
  if (ix->df_stale) { /* the snapshot is not taken yet (after a first index, until merged) */
    df[HEAD] = vocab_df(ix, HEAD, stem);
    df[BODY] = vocab_df(ix, BODY, stem);
    return;
  }
  sqlite3_stmt *st = ix->st[ST_VOCAB_DF];
  sqlite3_bind_text(st, 1, stem, -1, SQLITE_STATIC);
  bool row = sqlite3_step(st) == SQLITE_ROW;
  df[HEAD] = row ? (long)sqlite3_column_int64(st, 0) : 0;
  df[BODY] = row ? (long)sqlite3_column_int64(st, 1) : 0;
  sqlite3_reset(st);
}

/* FTS5 ranks every row a query matches (~1 us each with bm25), so the
 * words' document counts, summed, are what a lookup costs. For each table,
 * the rarest words are asked while that sum stays within the table's budget
 * (always the two rarest): the words left out are the task's most common,
 * the ones bm25 weighs least. A head's doclists are short, so most of a
 * task's words fit there; the body gets its rarest words.
 *
 * A word in half the skills or more weighs nothing at all: FTS5's bm25
 * clamps its idf to 1e-6 (in one public registry, "capability" and "needed"
 * end three descriptions in four). Ranking its rows was the slowest lookup
 * there is (15,000 rows for "Use when this capability is needed", 25 ms),
 * for no change in the order: such a word is not asked. Returns true when
 * every word is that common: the caller then asks for rows with all of them. */
static bool mark_within_budget(query *q, int which, long budget, int max_terms,
                               long weightless_df) {
  int ix[MAX_SEEN];
  for (int i = 0; i < q->n; i++) /* insertion sort by df: n is small */
    for (int k = i; k >= 0; k--) {
      if (k == 0 || q->t[ix[k - 1]].df[which] <= q->t[i].df[which]) {
        ix[k] = i;
        break;
      }
      ix[k] = ix[k - 1];
    }
  long sum = 0;
  int used = 0, unknown = 0;
  for (int k = 0; k < q->n && used < max_terms; k++) {
    term *t = &q->t[ix[k]];
    if (!t->df[which] && unknown++ >= MAX_UNKNOWN)
      continue; /* the first ones, in the task's order (the sort is stable) */
    if (t->df[which] >= weightless_df || (used >= 2 && sum + t->df[which] > budget))
      break; /* in df order: the rest are as common */
    sum += t->df[which];
    t->use[which] = true;
    used++;
  }
  return q->n > 0 && used == 0;
}

/* Which words of the task are asked, and of which table:
 *  - not stopwords or one-letter words ("a", "5"), unless nothing else is
 *    left ("how do I do this": better a weak match than none). Numbers of two
 *    digits or more are kept: versions and identifiers ("CUDA 12", "sm_90",
 *    "issue 042") tell apart skills whose other words are the same, and being
 *    rare they weigh much (a common one, "10", weighs little: its idf);
 *  - in a large index, only as many as the budgets allow, rarest first;
 *  - at most MAX_TERMS of the head and MAX_BODY_TERMS of the body, the
 *    rarest: a long task's rare words are its subject; of the words a table
 *    has no row of, only the first MAX_UNKNOWN. */
static void choose_terms(upk_index *ix, query *q) {
  int kept = 0;
  for (int i = 0; i < q->n; i++) {
    term *t = &q->t[i];
    if (!upk__ix_is_stopword(t->word) && strlen(t->word) >= 2)
      q->t[kept++] = *t;
  }
  if (kept)
    q->n = kept;
  for (int i = 0; i < q->n; i++)
    stem_df(ix, q->t[i].stem, q->t[i].df);
  bool large = ix->n_docs >= 64;
  long weightless = large ? (ix->n_docs + 1) / 2 : LONG_MAX;
  long head = ix->n_docs * 6 / 10;
  head = head < HEAD_BUDGET_MIN ? HEAD_BUDGET_MIN : head > HEAD_BUDGET_MAX ? HEAD_BUDGET_MAX : head;
  long budget[2] = {large ? head : LONG_MAX, large ? BODY_BUDGET : LONG_MAX};
  int max_terms[2] = {MAX_TERMS, MAX_BODY_TERMS};
  for (int w = HEAD; w <= BODY; w++)
    if ((q->part[w].all_common = mark_within_budget(q, w, budget[w], max_terms[w], weightless)))
      for (int i = 0; i < q->n && i < MAX_TERMS; i++)
        q->t[i].use[w] = true;
  kept = 0;
  for (int i = 0; i < q->n; i++)
    if (q->t[i].use[HEAD] || q->t[i].use[BODY])
      q->t[kept++] = q->t[i];
  q->n = kept;
  /* A word no skill contains may be an abbreviation of one ("kube", "postgres"); a number
   * no skill contains is no abbreviation ("2024" is not "20240101"). */
  for (int i = 0; i < q->n; i++)
    q->t[i].prefix = !q->t[i].df[HEAD] && !q->t[i].df[BODY] && strlen(q->t[i].word) >= 4 &&
                     strspn(q->t[i].word, "0123456789") != strlen(q->t[i].word);
}

static int on_phrase_token(void *ctx, int flags, const char *tok, int ntok, int start, int end) {
  stems *ps = ctx;
  if (ps->n >= 0 && ps->n < 4 && ntok > 0 && ntok < 64) {
    memcpy(ps->s[ps->n], tok, (size_t)ntok);
    ps->s[ps->n++][ntok] = '\0';
  } else
    ps->n = -1; /* longer than kept: not matched on text (half a phrase is no match) */
  return SQLITE_OK;
}

/* A phrase of the table's query: its text quoted into p->fts, and its
 * stems. One the tokenizer finds no token in is left out: FTS5 would drop
 * it too, and its phrases would then no longer line up with ours. */
static int add_phrase(upk_index *ix, part *p, int term_ix, const char *text, bool prefix) {
  if (p->nphrase >= MAX_PHRASES)
    return -1;
  stems *ps = &p->phrase[p->nphrase];
  ps->n = 0;
  ps->prefix = prefix;
  ix->tok_api.xTokenize(ix->tok, ps, FTS5_TOKENIZE_QUERY, text, (int)strlen(text), on_phrase_token);
  if (!ps->n)
    return -1;
  p->at[p->nphrase] = p->fts.len;
  upk_buf_puts(&p->fts, "\"");
  for (const char *c = text; *c; c++) /* the tokenizer never yields quotes; be sure */
    upk_buf_append(&p->fts, c, *c == '"' ? 0 : 1);
  upk_buf_puts(&p->fts, prefix ? "\"*" : "\"");
  p->ph[p->nphrase].len = (int)(p->fts.len - p->at[p->nphrase]);
  p->key_at[p->nphrase] = p->keys.len;
  if (!prefix && ps->n > 0)
    for (int k = 0; k < ps->n; k++) {
      upk_buf_puts(&p->keys, k ? " " : "=");
      upk_buf_puts(&p->keys, ps->s[k]);
    }
  else
    upk_buf_append(&p->keys, p->fts.data + p->at[p->nphrase], (size_t)p->ph[p->nphrase].len);
  p->ph[p->nphrase].key_len = (int)(p->keys.len - p->key_at[p->nphrase]);
  p->phrase_term[p->nphrase] = term_ix;
  return p->nphrase++;
}

typedef struct df_probe {
  upk_index *ix;
  int which;
  long min_df; /* the rarest token's document frequency */
} df_probe;

static int on_probe_token(void *ctx, int flags, const char *tok, int ntok, int start, int end) {
  df_probe *p = ctx;
  char stem[64];
  long df[2];
  if (ntok <= 0 || ntok >= (int)sizeof stem)
    return SQLITE_OK;
  memcpy(stem, tok, (size_t)ntok);
  stem[ntok] = '\0';
  stem_df(p->ix, stem, df);
  if (p->min_df < 0 || df[p->which] < p->min_df)
    p->min_df = df[p->which];
  return SQLITE_OK;
}

static long phrase_df(upk_index *ix, int which, const char *text) {
  df_probe p = {ix, which, -1};
  ix->tok_api.xTokenize(ix->tok, &p, FTS5_TOKENIZE_QUERY, text, (int)strlen(text), on_probe_token);
  return p.min_df < 0 ? 0 : p.min_df;
}

/* Whether to ask for an abbreviation's full form too. Only where the index
 * mostly spells the word out (the full form in 4 times as many skills): an
 * index that uses "repo", "ci" or "js" itself already matches them, and
 * asking both forms counted each of those skills' words twice (on the
 * held-out tasks, 4 of 85 right skills fell out of the top 5 that way; the
 * dev part ranked the same either way). And not when the full form is in a
 * quarter of a large index: little weight, a long posting list to walk. */
static bool worth_expanding(upk_index *ix, int which, const term *t, const char *full) {
  long full_df = phrase_df(ix, which, full);
  if (ix->n_docs >= 64 && full_df * 4 > ix->n_docs)
    return false;
  return t->df[which] * 4 <= full_df;
}

/* A thesaurus word is asked when some skill has it, and not when a
 * quarter of a large index does: little weight, a long row list to walk. */
static bool worth_synonym(upk_index *ix, int which, const char *other) {
  long df = phrase_df(ix, which, other);
  return df > 0 && (ix->n_docs < 64 || df * 4 <= ix->n_docs);
}

static void build_match(upk_index *ix, query *q, int which) {
  part *p = &q->part[which];
  for (int i = 0; i < q->n; i++) {
    q->t[i].phrase[which] = -1;
    if (!q->t[i].use[which])
      continue;
    q->t[i].phrase[which] = add_phrase(ix, p, i, q->t[i].word, q->t[i].prefix);
    if (p->all_common)
      continue; /* alternatives have no place in an AND */
    if (q->t[i].camel[0])
      add_phrase(ix, p, i, q->t[i].camel, false);
    const char *full;
    for (size_t k = 0; (full = upk__ix_expansion(q->t[i].word, &k));)
      if (worth_expanding(ix, which, &q->t[i], full))
        add_phrase(ix, p, i, full, false);
    for (size_t k = 0; (full = upk__ix_synonym(q->t[i].word, &k));)
      if (worth_synonym(ix, which, full))
        add_phrase(ix, p, i, full, false);
  }
  for (int k = 0; k < p->nphrase; k++) { /* the buffers have stopped moving */
    p->ph[k].text = p->fts.data + p->at[k];
    p->ph[k].key = p->keys.data + p->key_at[k];
  }
}

/* ---- running it ---- */

static cand *cand_of(cands *c, int64_t doc) {
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].doc == doc)
      return &c->v[i];
  c->v[c->n].doc = doc;
  return &c->v[c->n++];
}

/* Rank both tables' rows; their best CANDIDATES join c. The phrases' rows
 * stay in q->part[].lists for the joint score. */
static int run_parts(upk_index *ix, query *q, cands *c) {
  static const int stmt[2] = {ST_LOOKUP, ST_LOOKUP_BODY};
  upk__ix_ranked best[CANDIDATES];
  for (int w = HEAD; w <= BODY; w++) {
    part *p = &q->part[w];
    p->job = (upk__ix_rank_job){.which = w,
                                .ph = p->ph,
                                .n = p->nphrase,
                                .all = p->all_common,
                                .best = best,
                                .keep = CANDIDATES};
    int found = upk__ix_rank_run(ix, ix->st[stmt[w]], &p->job, &p->lists);
    if (found < 0)
      return found;
    for (int i = 0; i < found; i++) {
      cand *x = cand_of(c, best[i].rowid);
      x->score[w] = best[i].score;
      upk__ix_note_fields(&q->part[w], &best[i], x, w);
    }
  }
  return 0;
}

/* A table's rows and tokens: from its ranking, else as kept (a table no
 * phrase was asked of). */
static void table_totals(upk_index *ix, const part *p, int which, int64_t *rows, int64_t *tokens) {
  *rows = p->lists.total_rows;
  *tokens = p->lists.tokens;
  if (!*rows && !upk__ix_pcache_totals(ix, which, rows, tokens))
    *rows = *tokens = 0;
}

static int by_doc(const void *a, const void *b) {
  const cand *x = a, *y = b;
  return (x->doc > y->doc) - (x->doc < y->doc);
}

/* The phrase of table `which` with the same text as phrase k of `other`, or -1. */
static int twin_phrase(const part *p, const part *other, int k) {
  for (int i = 0; i < p->nphrase; i++)
    if (p->ph[i].len == other->ph[k].len &&
        !memcmp(p->ph[i].text, other->ph[k].text, (size_t)p->ph[i].len))
      return i;
  return -1;
}

/* A word's other phrases (its camelCase split, an abbreviation's full
 * form, the thesaurus' words) are joint words of their own: the joint score
 * is the largest part of the order, and a skill found only by a word's
 * other form got none of it (the decoy with the task's plain words won).
 * Each is counted from its own rows in each table it was asked of. */
static void add_joint_alternatives(const query *q, upk__ix_joint *j, int *term_of) {
  for (int w = HEAD; w <= BODY; w++) {
    const part *p = &q->part[w], *o = &q->part[!w];
    for (int k = 0; k < p->nphrase && !p->all_common && j->n < UPK_IX_JOINT_MAX; k++) {
      int i = p->phrase_term[k], t = twin_phrase(o, p, k);
      if (q->t[i].phrase[w] == k || (w == BODY && t >= 0))
        continue; /* the word's own phrase, or already joined from the head */
      upk__ix_joint_word *x = &j->w[j->n];
      x->rows[w] = &p->lists.rows[k];
      x->rows[!w] = t >= 0 && !o->all_common ? &o->lists.rows[t] : NULL;
      x->df[w] = (long)p->lists.rows[k].n;
      x->df[!w] = 0; /* not asked there: the word's own count in that table is no guide */
      term_of[j->n++] = i;
    }
  }
}

/* Each candidate's joint score (joint.c), from each word's own
 * phrase's rows in either table; a word found in a candidate's body adds
 * the body to its why. An AND's rows (every word in half the skills) are
 * not all of a word's rows, and weigh nothing there anyway. */
static int add_joint(upk_index *ix, query *q, cands *c) {
  int64_t rows, head_tokens, body_tokens, body_rows;
  table_totals(ix, &q->part[HEAD], HEAD, &rows, &head_tokens);
  table_totals(ix, &q->part[BODY], BODY, &body_rows, &body_tokens);
  if (!rows || !c->n)
    return 0; /* no head rows known: the order stays the tables' */
  upk__ix_joint *j = &q->joint;
  int64_t *doc = upk_xmalloc(c->n * sizeof *doc);
  double *score = upk_xcalloc(c->n, sizeof *score);
  uint64_t *in_body = upk_xmalloc(c->n * sizeof *in_body);
  int term_of[UPK_IX_JOINT_MAX], rc = -ENOMEM;
  for (int i = 0; i < q->n && j->n < UPK_IX_JOINT_MAX; i++) {
    upk__ix_joint_word *w = &j->w[j->n];
    for (int t = HEAD; t <= BODY; t++) {
      int k = q->t[i].phrase[t];
      w->rows[t] = k >= 0 && !q->part[t].all_common ? &q->part[t].lists.rows[k] : NULL;
      w->df[t] = q->t[i].df[t];
    }
    if (w->rows[HEAD] || w->rows[BODY])
      term_of[j->n++] = i;
  }
  add_joint_alternatives(q, j, term_of);
  upk__ix_joint_prepare(ix, j, rows, head_tokens, body_tokens);
  qsort(c->v, c->n, sizeof *c->v, by_doc); /* the lists' order */
  for (size_t i = 0; i < c->n; i++)
    doc[i] = c->v[i].doc;
  if (upk__ix_joint_scores(ix, j, doc, c->n, score, in_body))
    goto done;
  for (size_t i = 0; i < c->n; i++) {
    c->v[i].joint = score[i];
    c->v[i].total += ix->w.joint * score[i];
    for (int k = 0; k < j->n; k++)
      c->v[i].fields[term_of[k]] |= in_body[i] >> k & 1 ? UPK_FIELD_BODY : 0;
  }
  rc = 0;
done:
  free(doc), free(score), free(in_body);
  return rc;
}

static int by_total(const void *a, const void *b) {
  const cand *x = a, *y = b;
  return x->total != y->total ? (x->total > y->total ? -1 : 1) : (x->doc < y->doc ? -1 : 1);
}

/* A hit of the same name already taken: the same skill seen in another
 * place (installed and built in, or two agents' copies) is reported once,
 * where its best copy ranked. */
static bool name_taken(const upk_index_hits *out, const char *name) {
  for (size_t k = 0; k < out->len; k++)
    if (!strcmp(out->items[k].e.name, name))
      return true;
  return false;
}

/* A row's body size in tokens + 1 as the ranking cached it (0: unknown). */
static uint32_t body_size(const upk_index *ix, int64_t doc) {
  return doc >= 0 && (size_t)doc < ix->size_cap[BODY] ? ix->size[BODY][doc] : 0;
}

/* A hit whose skill is the same text as one already taken under another
 * name (registries copy a skill into many repositories): the same
 * description, file size estimate, body size in tokens and body score.
 * It adds nothing a user could choose between, and would take a place of
 * the top few from a different skill. from[k] is hit k's candidate. */
static bool twin_taken(const upk_index *ix, const upk_index_hits *out, const cand *const *from,
                       const upk_index_entry *e, const cand *c) {
  uint32_t size = body_size(ix, c->doc);
  if (ix->keep_twins || !size || !e->description || !e->description[0])
    return false;
  for (size_t k = 0; k < out->len; k++)
    if (out->items[k].e.tokens == e->tokens && body_size(ix, from[k]->doc) == size &&
        from[k]->score[BODY] == c->score[BODY] && out->items[k].e.description &&
        !strcmp(out->items[k].e.description, e->description))
      return true;
  return false;
}

/* A task word's weight in the shares of the learned order: its idf, from
 * the larger of its two tables' document counts (never 0: a rare word of
 * a tiny index still counts). */
static double term_idfs(const upk_index *ix, const query *q, double *idf) {
  double n = ix->n_docs > 0 ? (double)ix->n_docs : 1, sum = 0;
  for (int i = 0; i < q->n; i++) {
    long df = q->t[i].df[HEAD] > q->t[i].df[BODY] ? q->t[i].df[HEAD] : q->t[i].df[BODY];
    idf[i] = log(1 + n / ((double)df + 1));
    sum += idf[i];
  }
  return sum;
}

static void ltr_features(const upk_index *ix, const query *q, const double *idf, double sum,
                         const cand *x, double f[UPK_LTR_N]) {
  static const int share_of[4] = {UPK_LTR_NAME, UPK_LTR_DESC, UPK_LTR_HEADINGS, UPK_LTR_IN_BODY};
  memset(f, 0, UPK_LTR_N * sizeof *f);
  f[UPK_LTR_HEAD] = x->score[HEAD];
  f[UPK_LTR_BODY] = x->score[BODY];
  f[UPK_LTR_JOINT] = x->joint;
  int rarest = -1;
  for (int i = 0; i < q->n && sum > 0; i++) {
    for (int b = 0; b < 4; b++)
      f[share_of[b]] += x->fields[i] & (1u << b) ? idf[i] / sum : 0;
    f[UPK_LTR_ANY] += x->fields[i] ? idf[i] / sum : 0;
    f[UPK_LTR_COVER] += x->fields[i] ? 1.0 / q->n : 0;
    rarest = rarest < 0 || idf[i] > idf[rarest] ? i : rarest;
  }
  f[UPK_LTR_RAREST] = rarest >= 0 && x->fields[rarest];
  f[UPK_LTR_DESC_DENSE] = x->ntok[1] ? (double)x->hits[1] / x->ntok[1] : 0;
  f[UPK_LTR_HEAD_ONLY] = x->score[BODY] == 0;
  f[UPK_LTR_BODY_ONLY] = x->score[HEAD] == 0;
  f[UPK_LTR_NAME_COVER] = x->ntok[0] ? (double)x->hits[0] / x->ntok[0] : 0;
  f[UPK_LTR_PAIRS] = x->pairs < 3 ? x->pairs : 3;
  uint32_t body = body_size(ix, x->doc);
  f[UPK_LTR_BODY_LEN] = log1p(body ? body - 1 : 0);
  f[UPK_LTR_DESC_LEN] = log1p(x->ntok[1]);
}

/* For bench/skills/ltr_fit.py: the task, then each pooled candidate's path,
 * place in the tables' order and features. Only when the daemon's
 * environment named a file when the index was opened (UPSKILLD_RANK_DUMP;
 * the operator's, not a client's); the write is slow and for benches only. */
static void dump_pool(upk_index *ix, const query *q, const cand *v, size_t n,
                      double (*f)[UPK_LTR_N], const char *path, const char *const *agents,
                      size_t n_agents) {
  FILE *out = path ? fopen(path, "a") : NULL;
  if (!out)
    return;
  fputs("Q\t", out);
  for (const char *c = q->text; *c; c++)
    fputc(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c, out);
  fputc('\n', out);
  for (size_t i = 0; i < n; i++) {
    upk_index_entry e = {0};
    if (upk__ix_fill_entry(ix, v[i].doc, agents, n_agents, &e) > 0 && e.path) {
      fprintf(out, "C\t%s\t%zu", e.path, i);
      for (int k = 0; k < UPK_LTR_N; k++)
        fprintf(out, "\t%.6g", f[i][k]);
      fputc('\n', out);
    }
    upk_index_entry_free(&e);
  }
  fclose(out);
}

/* The pool of the tables' best (c->v sorted by their sum) in the learned
 * order (ltr.c); the rest stay behind it in their order. */
static int learned_order(upk_index *ix, query *q, cands *c, const char *const *agents,
                         size_t n_agents) {
  const char *dump = ix->rank_dump;
  if (upk__ix_ltr_plain() && !dump)
    return 0; /* the tables' order is the learned one: nothing to compute */
  size_t n = c->n < UPK_LTR_POOL ? c->n : UPK_LTR_POOL;
  double idf[MAX_SEEN], f[UPK_LTR_POOL][UPK_LTR_N];
  double sum = term_idfs(ix, q, idf);
  for (size_t i = 0; i < n; i++) {
    cand *x = &c->v[i];
    int rc = x->text_read ? 0 : upk__ix_head_fields(ix, q, x);
    if (rc)
      return rc;
    ltr_features(ix, q, idf, sum, x, f[i]);
    x->total = upk__ix_ltr_score(f[i]);
  }
  dump_pool(ix, q, c->v, n, f, dump, agents, n_agents);
  qsort(c->v, n, sizeof *c->v, by_total);
  return 0;
}

/* Both tables' best, ordered by head score + body weight x body score +
 * joint weight x joint score; the first `limit` that qualify, one per name,
 * become hits. */
static int run_query(upk_index *ix, query *q, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out) {
  cands c = {q->cand, 0};
  out->items = upk_xcalloc(limit, sizeof *out->items);
  const cand **from = upk_xcalloc(limit, sizeof *from);
  int rc = c.v && out->items && from ? 0 : -ENOMEM;
  if (!rc)
    rc = run_parts(ix, q, &c);
  for (size_t i = 0; i < c.n; i++)
    c.v[i].total = c.v[i].score[HEAD] + ix->w.body * c.v[i].score[BODY];
  if (!rc && ix->w.joint)
    rc = add_joint(ix, q, &c);
  qsort(c.v, c.n, sizeof *c.v, by_total);
  if (!rc && ix->learned)
    rc = learned_order(ix, q, &c, agents, n_agents);
  for (size_t i = 0; !rc && i < c.n && out->len < limit; i++) {
    upk_index_hit *h = &out->items[out->len];
    int ok = upk__ix_fill_entry(ix, c.v[i].doc, agents, n_agents, &h->e);
    if (ok <= 0) {
      if (ok < 0)
        upk_index_entry_free(&h->e);
      rc = ok;
      continue;
    }
    if (name_taken(out, h->e.name) || twin_taken(ix, out, from, &h->e, &c.v[i])) {
      upk_index_entry_free(&h->e);
      continue;
    }
    h->score = c.v[i].total;
    from[out->len] = &c.v[i];
    if (!c.v[i].known[HEAD] && !c.v[i].text_read && q->part[HEAD].lists.complete)
      upk__ix_head_from_lists(&q->part[HEAD], &c.v[i]);
    else if (!c.v[i].known[HEAD] && !c.v[i].text_read)
      rc = upk__ix_head_fields(ix, q, &c.v[i]);
    if (!rc)
      rc = upk__ix_fill_why(q, &c.v[i], h);
    out->len++;
  }
  for (int w = HEAD; w <= BODY; w++) /* after both: a put may drop a list the other borrowed */
    upk__ix_lists_release(ix, &q->part[w].job, &q->part[w].lists);
  for (size_t i = 0; !rc && i < out->len; i++)
    if (out->items[i].e.scope == UPK_INDEX_BUILTIN)
      rc = upk__ix_place_at_installed_copy(ix, agents, n_agents, &out->items[i].e);
  free(from);
  return rc;
}

int upk_index_lookup(upk_index *ix, const char *task, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out) {
  memset(out, 0, sizeof *out);
  const char *p = task;
  while (p && *p && isspace((unsigned char)*p))
    p++;
  if (!p || !*p)
    return upk__ix_fail(ix, -EINVAL,
                        "the task is empty: describe in a few words what you want to do");
  if (!limit)
    limit = 10;
  if (!ix->lookup_q)
    ix->lookup_q = upk_xmalloc(sizeof *ix->lookup_q);
  query *q = ix->lookup_q;
  memset(q, 0, offsetof(query, t));
  for (int w = HEAD; w <= BODY; w++) {
    upk_buf_init(&q->part[w].fts, SIZE_MAX);
    upk_buf_init(&q->part[w].keys, SIZE_MAX);
  }
  /* One read transaction for all of the lookup's statements, the words'
   * document counts included: each statement outside one begins and ends
   * its own, two fcntl locks and a look at the WAL for commits each (~17
   * a lookup at 10,000 skills, 47 fcntl calls). Inside a scan's
   * transaction, that one serves. */
  bool own = sqlite3_get_autocommit(ix->db);
  if (own && upk__ix_step_once(ix->st[ST_BEGIN]) != SQLITE_DONE)
    own = false; /* the statements still work, each on its own */
  int rc = upk__ix_rank_begin(ix);
  q->text = task;
  size_t len = strlen(task);
  ix->tok_api.xTokenize(ix->tok, q, FTS5_TOKENIZE_QUERY, task,
                        (int)(len > MAX_TASK ? MAX_TASK : len), on_token);
  if (!rc) {
    choose_terms(ix, q);
    build_match(ix, q, HEAD);
    build_match(ix, q, BODY);
  }
  if (!rc && (q->part[HEAD].nphrase || q->part[BODY].nphrase))
    rc = run_query(ix, q, limit, agents, n_agents, out);
  if (own)
    upk__ix_step_once(ix->st[ST_COMMIT]);
  for (int w = HEAD; w <= BODY; w++) {
    free(q->part[w].fts.data);
    free(q->part[w].keys.data);
  }
  if (rc)
    upk_index_hits_free(out);
  return rc;
}
