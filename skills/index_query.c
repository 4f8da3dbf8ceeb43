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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 32     /* kept words per task: the rarest ones */
#define MAX_SEEN 256     /* distinct words considered */
#define MAX_TASK 8192    /* bytes of the task that are read */
#define MAX_PHRASES 96   /* words plus their expansions */
#define ROW_BUDGET 16000 /* matched rows a lookup may rank, see within_budget() */

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

typedef struct term {
  char word[64]; /* as written, lowercased (ASCII) */
  char stem[64]; /* as the index stores it */
  long df;       /* skills containing the stem */
  bool prefix;   /* unknown word: match it as a prefix */
  int order;
  char camel[80]; /* "AccessDenied" as "access denied"; "" when not camel case */
} term;

typedef struct query {
  term t[MAX_SEEN];
  int n;
  const char *text;
  upk_ix_buf fts;               /* the FTS5 MATCH expression */
  int phrase_term[MAX_PHRASES]; /* phrase index -> t[] index */
  int nphrase;
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

static long stem_df(upk_index *ix, const char *stem) {
  sqlite3_stmt *st = ix->st[ST_VOCAB_DF];
  sqlite3_bind_text(st, 1, stem, -1, SQLITE_STATIC);
  long df = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  return df;
}

static int cmp_df(const void *a, const void *b) {
  const term *x = a, *y = b;
  return x->df != y->df ? (x->df < y->df ? -1 : 1) : x->order - y->order;
}

static int cmp_order(const void *a, const void *b) {
  return ((const term *)a)->order - ((const term *)b)->order;
}

static void keep_rarest(query *q, int n) {
  if (q->n <= n)
    return;
  qsort(q->t, (size_t)q->n, sizeof *q->t, cmp_df);
  q->n = n;
  qsort(q->t, (size_t)q->n, sizeof *q->t, cmp_order);
}

/* FTS5 ranks every row the query matches (~2 us each with bm25), so the
 * words' document counts, summed, are what a lookup costs. Keep the rarest
 * words while the sum stays within ROW_BUDGET (always the two rarest): the
 * words left out are the most common of the task, the ones bm25 weighs
 * least. This bounds a lookup to a few milliseconds on any index size. */
static void within_budget(query *q) {
  qsort(q->t, (size_t)q->n, sizeof *q->t, cmp_df);
  long sum = 0;
  int k = 0;
  while (k < q->n && (k < 2 || sum + q->t[k].df <= ROW_BUDGET))
    sum += q->t[k++].df;
  q->n = k;
  qsort(q->t, (size_t)q->n, sizeof *q->t, cmp_order);
}

/* Which words of the task go into the query:
 *  - not stopwords, one-letter words or bare numbers ("5 percent"), unless
 *    nothing else is left ("how do I do this": better a weak match than none);
 *  - in a large index, only as many as within_budget() allows: the common
 *    words go first. (Dropping every word of idf < 1 as well, as this did,
 *    lost words that decide the ranking: on bench/skills/dev_tasks.tsv the
 *    plain FTS5 baseline then found more skills first than lookup did.)
 *  - at most MAX_TERMS, the rarest: a long task's rare words are its subject. */
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
    q->t[i].df = stem_df(ix, q->t[i].stem);
  if (ix->n_docs >= 64)
    within_budget(q);
  keep_rarest(q, MAX_TERMS);
  /* A word no skill contains may be an abbreviation of one ("kube", "postgres"). */
  for (int i = 0; i < q->n; i++)
    q->t[i].prefix = q->t[i].df == 0 && strlen(q->t[i].word) >= 4;
}

static void add_phrase(query *q, int term_ix, const char *text, bool prefix) {
  if (q->nphrase >= MAX_PHRASES)
    return;
  if (q->fts.len)
    upk_ix_buf_str(&q->fts, " OR ");
  upk_ix_buf_str(&q->fts, "\"");
  for (const char *c = text; *c; c++) /* the tokenizer never yields quotes; be sure */
    upk_ix_buf_add(&q->fts, c, *c == '"' ? 0 : 1);
  upk_ix_buf_str(&q->fts, prefix ? "\"*" : "\"");
  q->phrase_term[q->nphrase++] = term_ix;
}

typedef struct df_probe {
  upk_index *ix;
  long max_df; /* the rarest token's document frequency */
} df_probe;

static int on_probe_token(void *ctx, int flags, const char *tok, int ntok, int start, int end) {
  df_probe *p = ctx;
  char stem[64];
  if (ntok <= 0 || ntok >= (int)sizeof stem)
    return SQLITE_OK;
  memcpy(stem, tok, (size_t)ntok);
  stem[ntok] = '\0';
  long df = stem_df(p->ix, stem);
  if (p->max_df < 0 || df < p->max_df)
    p->max_df = df;
  return SQLITE_OK;
}

/* An expansion found in over a quarter of a large index adds little to the
 * ranking but makes FTS5 walk a long posting list: leave it out. */
static bool too_common(upk_index *ix, const char *text) {
  if (ix->n_docs < 64)
    return false;
  df_probe p = {ix, -1};
  ix->tok_api.xTokenize(ix->tok, &p, FTS5_TOKENIZE_QUERY, text, (int)strlen(text), on_probe_token);
  return p.max_df * 4 > ix->n_docs;
}

static void build_match(upk_index *ix, query *q) {
  for (int i = 0; i < q->n; i++) {
    add_phrase(q, i, q->t[i].word, q->t[i].prefix);
    if (q->t[i].camel[0])
      add_phrase(q, i, q->t[i].camel, false);
    for (size_t k = 0; k < sizeof expansions / sizeof *expansions; k++)
      if (!strcmp(q->t[i].word, expansions[k][0]) && !too_common(ix, expansions[k][1]))
        add_phrase(q, i, expansions[k][1], false);
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

static const char *const field_names[] = {"name", "description", "headings", "body"};

static int fill_why(query *q, const unsigned char *mask, int nmask, upk_index_hit *h) {
  unsigned fields[MAX_SEEN] = {0};
  for (int p = 0; p < nmask && p < q->nphrase; p++)
    fields[q->phrase_term[p]] |= mask[p];
  upk_ix_buf b = {0};
  upk_ix_buf_str(&b, "");
  h->matches = calloc((size_t)q->n + 1, sizeof *h->matches);
  if (!h->matches)
    return -ENOMEM;
  for (int i = 0; i < q->n; i++) {
    if (!fields[i])
      continue;
    upk_index_match *m = &h->matches[h->n_matches++];
    m->term = strdup(q->t[i].word);
    m->fields = fields[i];
    upk_ix_buf_str(&b, b.len ? "; " : "");
    upk_ix_buf_str(&b, q->t[i].word);
    const char *sep = " (";
    for (int f = 0; f < 4; f++)
      if (fields[i] & (1u << f)) {
        upk_ix_buf_str(&b, sep);
        upk_ix_buf_str(&b, field_names[f]);
        sep = ", ";
      }
    upk_ix_buf_str(&b, ")");
  }
  h->why = b.s;
  return h->why ? 0 : -ENOMEM;
}

static int run_query(upk_index *ix, query *q, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out) {
  sqlite3_stmt *st = ix->st[ST_LOOKUP];
  sqlite3_bind_text(st, 1, q->fts.s, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, ix->rank, -1, SQLITE_STATIC);
  out->items = calloc(limit, sizeof *out->items);
  int rc = out->items ? 0 : -ENOMEM, s;
  while (!rc && out->len < limit && (s = sqlite3_step(st)) == SQLITE_ROW) {
    upk_index_hit *h = &out->items[out->len];
    int ok = fill_entry(ix, sqlite3_column_int64(st, 0), agents, n_agents, &h->e);
    if (ok <= 0) {
      if (ok < 0)
        upk_index_entry_free(&h->e);
      rc = ok;
      continue;
    }
    h->score = -sqlite3_column_double(st, 1);
    rc = fill_why(q, sqlite3_column_blob(st, 2), sqlite3_column_bytes(st, 2), h);
    out->len++;
  }
  if (!rc && out->len < limit && s != SQLITE_DONE)
    rc = upk_ix_sql_fail(ix, "lookup");
  sqlite3_reset(st);
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
  build_match(ix, q);
  int rc = q->nphrase ? run_query(ix, q, limit, agents, n_agents, out) : 0;
  free(q->fts.s);
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
