/* Lookup: a task in plain words -> an FTS5 query -> bm25-ranked skills.
 *
 * The task is tokenized with the very tokenizer the index uses (porter over
 * unicode61, obtained from FTS5), so a word and the text it should match are
 * stemmed alike. Each kept word becomes a quoted FTS5 string and the strings
 * are OR-ed: only letters and digits ever reach the query, so quotes, `*`,
 * `-`, `^`, `:`, NEAR or AND in the task are never syntax. Ranking is FTS5's
 * bm25() with per-column weights; `why` comes from upk_why(), an auxiliary
 * function reporting which query phrase occurred in which column. */
#include "index_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 32     /* kept words per task: the rarest ones */
#define MAX_SEEN 256     /* distinct words considered */
#define MAX_TASK 8192    /* bytes of the task that are read */
#define MAX_PHRASES 96   /* words plus their expansions */
#define HEAD_BUDGET 6000 /* matched rows a lookup may rank, see mark_within_budget() */
#define BODY_BUDGET 2000
#define CANDIDATES 64 /* best rows taken from each table */

/* Words that say nothing about which skill fits: function words and the
 * filler of requests ("can you please help me..."). */
static const char *const stopwords[] = {
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "done", "down", "during", "each",
    "etc", "few", "for", "from", "further", "get", "gets", "getting", "got", "had", "has", "have",
    "having", "he", "hello", "help", "her", "here", "hers", "hey", "hi", "him", "his", "how", "i",
    "id", "if", "im", "in", "into", "is", "it", "its", "itself", "ive", "just", "let", "lets",
    "like", "me", "might", "more", "most", "much", "must", "my", "myself", "need", "needs", "no",
    "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "ours",
    "out", "over", "own", "please", "pls", "really", "same", "she", "should", "skill", "skills",
    "so", "some", "something", "such", "than", "thanks", "that", "the", "their", "theirs", "them",
    "then", "there", "these", "they", "thing", "things", "this", "those", "through", "to", "too",
    "under", "until", "up", "us", "very", "via", "want", "wants", "was", "we", "were", "what",
    "whats", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
    "you", "your", "yours", "yourself",
    /* conversational filler: how people talk about a task, not what it is */
    "actually", "already", "always", "anything", "around", "basically", "better", "best", "bit",
    "currently", "figure", "go", "goes", "going", "gone", "good", "great", "guess", "keep", "keeps",
    "kind", "last", "lot", "lots", "many", "maybe", "okay", "ok", "probably", "quick", "quickly",
    "right", "still", "stuff", "sure", "take", "takes", "taking", "today", "tomorrow", "trying",
    "try", "wanna", "way", "well", "yesterday"};

/* Abbreviations people type for words skills spell out. Each adds the full
 * form as an alternative (OR), it does not replace the word. */
static const char *const expansions[][2] = {{"k8s", "kubernetes"},
                                            {"kube", "kubernetes"},
                                            {"js", "javascript"},
                                            {"ts", "typescript"},
                                            {"py", "python"},
                                            {"pg", "postgresql"},
                                            {"postgres", "postgresql"},
                                            {"psql", "postgresql"},
                                            {"db", "database"},
                                            {"dbs", "database"},
                                            {"repo", "repository"},
                                            {"repos", "repository"},
                                            {"pr", "pull request"},
                                            {"prs", "pull request"},
                                            {"mr", "merge request"},
                                            {"env", "environment"},
                                            {"config", "configuration"},
                                            {"auth", "authentication"},
                                            {"perf", "performance"},
                                            {"deps", "dependencies"},
                                            {"docs", "documentation"},
                                            {"md", "markdown"},
                                            {"img", "image"},
                                            {"gh", "github"},
                                            {"tf", "terraform"},
                                            {"llm", "language model"},
                                            {"ml", "machine learning"},
                                            {"e2e", "end to end"},
                                            {"regex", "regular expression"},
                                            {"vuln", "vulnerability"},
                                            {"vulns", "vulnerability"},
                                            {"a11y", "accessibility"},
                                            {"i18n", "internationalization"},
                                            {"spreadsheet", "excel"},
                                            {"excel", "spreadsheet"},
                                            {"xlsx", "spreadsheet"},
                                            {"slides", "presentation"},
                                            {"powerpoint", "pptx"},
                                            {"deck", "presentation"},
                                            {"gpu", "cuda"},
                                            {"cicd", "pipeline"},
                                            {"ci", "pipeline"}};

/* A linear scan: ~150 short strcmp calls per word, and no shared state
 * between indexes used from different threads. */
static bool is_stopword(const char *w) {
  for (size_t i = 0; i < sizeof stopwords / sizeof *stopwords; i++)
    if (!strcmp(w, stopwords[i]))
      return true;
  return false;
}

/* ---- upk_why(): which phrase matched in which column ---- */

static void why_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nv,
                   sqlite3_value **v) {
  unsigned char mask[MAX_PHRASES] = {0};
  int np = api->xPhraseCount(fts), ninst = 0;
  if (np > MAX_PHRASES)
    np = MAX_PHRASES;
  if (api->xInstCount(fts, &ninst) != SQLITE_OK) {
    sqlite3_result_error(ctx, "upk_why: cannot read matches", -1);
    return;
  }
  for (int i = 0; i < ninst; i++) {
    int ph, col, off;
    if (api->xInst(fts, i, &ph, &col, &off) == SQLITE_OK && ph >= 0 && ph < np && col >= 0 &&
        col < 8)
      mask[ph] |= (unsigned char)(1u << col);
  }
  sqlite3_result_blob(ctx, mask, np, SQLITE_TRANSIENT);
}

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

int upk_ix_query_init(upk_index *ix) {
  ix->fts = get_fts5_api(ix->db);
  if (!ix->fts || ix->fts->iVersion < 2)
    return upk_ix_fail(ix, -ENOTSUP, "this SQLite has no FTS5 (needed for the skill index)");
  void *ud = NULL;
  const char *args[] = {"unicode61", "remove_diacritics", "2"};
  if (ix->fts->xFindTokenizer(ix->fts, "porter", &ud, &ix->tok_api) != SQLITE_OK ||
      ix->tok_api.xCreate(ud, args, 3, &ix->tok) != SQLITE_OK)
    return upk_ix_fail(ix, -ENOTSUP, "FTS5's porter tokenizer is not available");
  if (ix->fts->xCreateFunction(ix->fts, "upk_why", NULL, why_fn, NULL) != SQLITE_OK)
    return upk_ix_sql_fail(ix, "register upk_why");
  return 0;
}

void upk_ix_query_close(upk_index *ix) {
  if (ix->tok)
    ix->tok_api.xDelete(ix->tok);
  ix->tok = NULL;
}

/* ---- building the query ---- */

/* The two tables a lookup asks: what a skill says it is for (name,
 * description, headings) and its body. */
enum { HEAD, BODY };

typedef struct term {
  char word[64]; /* as written, lowercased (ASCII) */
  char stem[64]; /* as the index stores it */
  long df[2];    /* skills whose head / body contain the stem */
  bool use[2];   /* asked of the head / body table */
  bool prefix;   /* unknown word: match it as a prefix */
  int order;
  char camel[80]; /* "AccessDenied" as "access denied"; "" when not camel case */
} term;

typedef struct part {
  upk_ix_buf fts;               /* the FTS5 MATCH expression */
  int phrase_term[MAX_PHRASES]; /* phrase index -> t[] index */
  int nphrase;
} part;

typedef struct query {
  term t[MAX_SEEN];
  int n;
  const char *text;
  part part[2];
} query;

/* Identifiers from code and error messages ("AccessDenied", "useEffect")
 * name things skills write as words: split at lower-to-upper changes. out
 * gets the words lowercased and space-separated, or "" when there is no
 * such change. */
static void camel_words(const char *w, int n, char out[80]) {
  int k = 0, splits = 0;
  for (int i = 0; i < n && k < 78; i++) {
    unsigned char c = (unsigned char)w[i];
    if (i > 0 && isupper(c) &&
        (islower((unsigned char)w[i - 1]) || isdigit((unsigned char)w[i - 1]))) {
      out[k++] = ' ';
      splits++;
    }
    out[k++] = (char)tolower(c);
  }
  out[splits ? k : 0] = 0;
}

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
  camel_words(q->text + start, end - start, t->camel);
  t->order = q->n++;
  return SQLITE_OK;
}

static void stem_df(upk_index *ix, const char *stem, long df[2]) {
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
 * task's words fit there; the body gets its rarest words. This bounds a
 * lookup to about a millisecond on any index size. */
static void mark_within_budget(query *q, int which, long budget) {
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
  for (int k = 0; k < q->n && k < MAX_TERMS; k++) {
    term *t = &q->t[ix[k]];
    if (k >= 2 && sum + t->df[which] > budget)
      break;
    sum += t->df[which];
    t->use[which] = true;
  }
}

/* Which words of the task are asked, and of which table:
 *  - not stopwords, one-letter words or bare numbers ("5 percent"), unless
 *    nothing else is left ("how do I do this": better a weak match than none);
 *  - in a large index, only as many as the budgets allow, rarest first;
 *  - at most MAX_TERMS per table, the rarest: a long task's rare words are its
 *    subject. */
static void choose_terms(upk_index *ix, query *q) {
  int kept = 0;
  for (int i = 0; i < q->n; i++) {
    term *t = &q->t[i];
    bool number = strspn(t->word, "0123456789") == strlen(t->word);
    if (!is_stopword(t->word) && strlen(t->word) >= 2 && !number)
      q->t[kept++] = *t;
  }
  if (kept)
    q->n = kept;
  for (int i = 0; i < q->n; i++)
    stem_df(ix, q->t[i].stem, q->t[i].df);
  bool large = ix->n_docs >= 64;
  mark_within_budget(q, HEAD, large ? HEAD_BUDGET : LONG_MAX);
  mark_within_budget(q, BODY, large ? BODY_BUDGET : LONG_MAX);
  kept = 0;
  for (int i = 0; i < q->n; i++)
    if (q->t[i].use[HEAD] || q->t[i].use[BODY])
      q->t[kept++] = q->t[i];
  q->n = kept;
  /* A word no skill contains may be an abbreviation of one ("kube", "postgres"). */
  for (int i = 0; i < q->n; i++)
    q->t[i].prefix = !q->t[i].df[HEAD] && !q->t[i].df[BODY] && strlen(q->t[i].word) >= 4;
}

static void add_phrase(part *p, int term_ix, const char *text, bool prefix) {
  if (p->nphrase >= MAX_PHRASES)
    return;
  if (p->fts.len)
    upk_ix_buf_str(&p->fts, " OR ");
  upk_ix_buf_str(&p->fts, "\"");
  for (const char *c = text; *c; c++) /* the tokenizer never yields quotes; be sure */
    upk_ix_buf_add(&p->fts, c, *c == '"' ? 0 : 1);
  upk_ix_buf_str(&p->fts, prefix ? "\"*" : "\"");
  p->phrase_term[p->nphrase++] = term_ix;
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

/* An expansion found in over a quarter of a large index adds little to the
 * ranking but makes FTS5 walk a long posting list: leave it out. */
static bool too_common(upk_index *ix, int which, const char *text) {
  if (ix->n_docs < 64)
    return false;
  df_probe p = {ix, which, -1};
  ix->tok_api.xTokenize(ix->tok, &p, FTS5_TOKENIZE_QUERY, text, (int)strlen(text), on_probe_token);
  return p.min_df * 4 > ix->n_docs;
}

static void build_match(upk_index *ix, query *q, int which) {
  part *p = &q->part[which];
  for (int i = 0; i < q->n; i++) {
    if (!q->t[i].use[which])
      continue;
    add_phrase(p, i, q->t[i].word, q->t[i].prefix);
    if (q->t[i].camel[0])
      add_phrase(p, i, q->t[i].camel, false);
    for (size_t k = 0; k < sizeof expansions / sizeof *expansions; k++)
      if (!strcmp(q->t[i].word, expansions[k][0]) && !too_common(ix, which, expansions[k][1]))
        add_phrase(p, i, expansions[k][1], false);
  }
}

/* ---- running it ---- */

static bool agent_ok(const char *agent, const char *const *agents, size_t n) {
  if (!n || !agent || !*agent)
    return true;
  for (size_t i = 0; i < n; i++)
    if (agents[i] && !strcmp(agents[i], agent))
      return true;
  return false;
}

/* Fill hit->e from the document and its best visible placement for the
 * requested agents. Returns 1 when the skill qualifies, 0 when not. */
static int fill_entry(upk_index *ix, int64_t doc, const char *const *agents, size_t n_agents,
                      upk_index_entry *e) {
  sqlite3_stmt *info = ix->st[ST_DOC_INFO], *pl = ix->st[ST_DOC_PLACES];
  int ok = 0;
  sqlite3_bind_int64(info, 1, doc);
  if (sqlite3_step(info) != SQLITE_ROW || !sqlite3_column_int(info, 2))
    goto done; /* not usable: agents skip it, so do we */
  sqlite3_bind_int64(pl, 1, doc);
  while (sqlite3_step(pl) == SQLITE_ROW) {
    const char *agent = (const char *)sqlite3_column_text(pl, 0);
    if (!agent_ok(agent, agents, n_agents))
      continue;
    memset(e, 0, sizeof *e);
    e->agent = agent && *agent ? strdup(agent) : NULL;
    e->scope = (upk_index_scope)sqlite3_column_int(pl, 1);
    e->priority = sqlite3_column_int(pl, 2);
    e->dir = strdup((const char *)sqlite3_column_text(pl, 3));
    e->root = strdup((const char *)sqlite3_column_text(pl, 4));
    e->name = strdup((const char *)sqlite3_column_text(pl, 5));
    e->description = strdup((const char *)sqlite3_column_text(info, 0));
    e->path = strdup((const char *)sqlite3_column_text(info, 1));
    e->usable = true;
    e->tokens = (size_t)sqlite3_column_int64(info, 3);
    ok = e->dir && e->root && e->name && e->description && e->path ? 1 : -ENOMEM;
    break;
  }
done:
  sqlite3_reset(info);
  sqlite3_reset(pl);
  return ok;
}

/* A skill either table ranked among its best. */
typedef struct cand {
  int64_t doc;
  double score[2];                     /* -bm25 in the head and the body; 0: not ranked */
  double total;                        /* what the order is by */
  unsigned char fields[2 * MAX_TERMS]; /* per term: UPK_FIELD_* bits it matched */
} cand;

typedef struct cands {
  cand *v;
  size_t n;
} cands;

static cand *cand_of(cands *c, int64_t doc) {
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].doc == doc)
      return &c->v[i];
  c->v[c->n].doc = doc;
  return &c->v[c->n++];
}

/* Run one table's query; its best CANDIDATES rows join (or update) c. */
static int run_part(upk_index *ix, query *q, int which, cands *c) {
  part *p = &q->part[which];
  if (!p->nphrase)
    return 0;
  sqlite3_stmt *st = ix->st[which == HEAD ? ST_LOOKUP : ST_LOOKUP_BODY];
  sqlite3_bind_text(st, 1, p->fts.s, -1, SQLITE_STATIC);
  if (which == HEAD) {
    sqlite3_bind_text(st, 2, ix->rank, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, CANDIDATES);
  } else
    sqlite3_bind_int(st, 2, CANDIDATES);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    cand *x = cand_of(c, sqlite3_column_int64(st, 0));
    x->score[which] = -sqlite3_column_double(st, 1);
    const unsigned char *mask = sqlite3_column_blob(st, 2);
    int nmask = sqlite3_column_bytes(st, 2);
    for (int k = 0; k < nmask && k < p->nphrase; k++)
      if (mask[k])
        x->fields[p->phrase_term[k]] |= which == HEAD ? mask[k] & 7 : UPK_FIELD_BODY;
  }
  sqlite3_reset(st);
  return s == SQLITE_DONE ? 0 : upk_ix_sql_fail(ix, "lookup");
}

static const char *const field_names[] = {"name", "description", "headings", "body"};

static int fill_why(query *q, const cand *c, upk_index_hit *h) {
  upk_ix_buf b = {0};
  upk_ix_buf_str(&b, "");
  h->matches = calloc((size_t)q->n + 1, sizeof *h->matches);
  if (!h->matches)
    return -ENOMEM;
  for (int i = 0; i < q->n; i++) {
    if (!c->fields[i])
      continue;
    upk_index_match *m = &h->matches[h->n_matches++];
    m->term = strdup(q->t[i].word);
    m->fields = c->fields[i];
    upk_ix_buf_str(&b, b.len ? "; " : "");
    upk_ix_buf_str(&b, q->t[i].word);
    const char *sep = " (";
    for (int f = 0; f < 4; f++)
      if (c->fields[i] & (1u << f)) {
        upk_ix_buf_str(&b, sep);
        upk_ix_buf_str(&b, field_names[f]);
        sep = ", ";
      }
    upk_ix_buf_str(&b, ")");
  }
  h->why = b.s;
  return h->why ? 0 : -ENOMEM;
}

static int by_total(const void *a, const void *b) {
  const cand *x = a, *y = b;
  return x->total != y->total ? (x->total > y->total ? -1 : 1) : (x->doc < y->doc ? -1 : 1);
}

/* Both tables' best, ordered by head score + body weight x body score;
 * the first `limit` that qualify become hits. */
static int run_query(upk_index *ix, query *q, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out) {
  cands c = {calloc(2 * CANDIDATES, sizeof *c.v), 0};
  out->items = calloc(limit, sizeof *out->items);
  int rc = c.v && out->items ? 0 : -ENOMEM;
  if (!rc)
    rc = run_part(ix, q, HEAD, &c);
  if (!rc)
    rc = run_part(ix, q, BODY, &c);
  for (size_t i = 0; i < c.n; i++)
    c.v[i].total = c.v[i].score[HEAD] + ix->w.body * c.v[i].score[BODY];
  qsort(c.v, c.n, sizeof *c.v, by_total);
  for (size_t i = 0; !rc && i < c.n && out->len < limit; i++) {
    upk_index_hit *h = &out->items[out->len];
    int ok = fill_entry(ix, c.v[i].doc, agents, n_agents, &h->e);
    if (ok <= 0) {
      if (ok < 0)
        upk_index_entry_free(&h->e);
      rc = ok;
      continue;
    }
    h->score = c.v[i].total;
    rc = fill_why(q, &c.v[i], h);
    out->len++;
  }
  free(c.v);
  return rc;
}

int upk_index_lookup(upk_index *ix, const char *task, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out) {
  memset(out, 0, sizeof *out);
  const char *p = task;
  while (p && *p && isspace((unsigned char)*p))
    p++;
  if (!p || !*p)
    return upk_ix_fail(ix, -EINVAL,
                       "the task is empty: describe in a few words what you want to do");
  if (!limit)
    limit = 10;
  query *q = calloc(1, sizeof *q);
  if (!q)
    return -ENOMEM;
  q->text = task;
  size_t len = strlen(task);
  ix->tok_api.xTokenize(ix->tok, q, FTS5_TOKENIZE_QUERY, task,
                        (int)(len > MAX_TASK ? MAX_TASK : len), on_token);
  choose_terms(ix, q);
  build_match(ix, q, HEAD);
  build_match(ix, q, BODY);
  int rc = q->part[HEAD].nphrase || q->part[BODY].nphrase
               ? run_query(ix, q, limit, agents, n_agents, out)
               : 0;
  free(q->part[HEAD].fts.s);
  free(q->part[BODY].fts.s);
  free(q);
  if (rc)
    upk_index_hits_free(out);
  return rc;
}

void upk_index_hits_free(upk_index_hits *h) {
  for (size_t i = 0; i < h->len; i++) {
    upk_index_entry_free(&h->items[i].e);
    free(h->items[i].why);
    for (size_t k = 0; k < h->items[i].n_matches; k++)
      free(h->items[i].matches[k].term);
    free(h->items[i].matches);
  }
  free(h->items);
  h->items = NULL;
  h->len = 0;
}
