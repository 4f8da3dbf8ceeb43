/* Why a skill is a hit: which of the task's words it matched, in which fields (name,
 * description, headings, body). The ranking's kept rows say it for themselves (each phrase's
 * columns); a hit only the body ranked is found in the head's row lists, or, when the ranking
 * does not hold them all, its head text is read back and tokenized. Split from the query
 * (query.c), which ranks. */
#include "skills/index/query_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void upk__ix_note_fields(const part *p, const upk__ix_ranked *x, cand *c, int which) {
  for (int k = 0; k < p->nphrase; k++)
    c->fields[p->phrase_term[k]] |= which == HEAD ? x->cols[k] : (x->cols[k] ? UPK_FIELD_BODY : 0);
  c->known[which] = true;
}

/* Which phrases one column's text holds, token by token: a phrase of
 * several words must match them in a row, a prefix phrase its stem's start. */
typedef struct text_match {
  part *p;
  unsigned char bit;
  unsigned char at[MAX_PHRASES]; /* tokens of each phrase matched in a row so far */
  unsigned char *mask;
  cand *x;
  int col;
  int prev; /* the task word the column's previous token ended, or -1 */
} text_match;

static bool same(const char *stem, const char *tok, int ntok) {
  return (int)strlen(stem) == ntok && !memcmp(stem, tok, (size_t)ntok);
}

static int on_text_token(void *ctx, int flags, const char *tok, int ntok, int start, int end) {
  text_match *m = ctx;
  int hit = -1;
  for (int k = 0; k < m->p->nphrase; k++) {
    const stems *ps = &m->p->phrase[k];
    if (ps->n <= 0)
      continue;
    if (ps->prefix) {
      size_t n = strlen(ps->s[0]);
      if ((size_t)ntok >= n && !memcmp(tok, ps->s[0], n)) {
        m->mask[k] |= m->bit;
        hit = m->p->phrase_term[k];
      }
      continue;
    }
    if (same(ps->s[m->at[k]], tok, ntok))
      m->at[k]++;
    else
      m->at[k] = same(ps->s[0], tok, ntok);
    if (m->at[k] == ps->n) {
      m->mask[k] |= m->bit;
      m->at[k] = 0;
      hit = m->p->phrase_term[k];
    }
  }
  /* Counted for the learned order (ltr.c): the column's size, its
   * tokens that are task words, and task words side by side. */
  cand *x = m->x;
  if (x->ntok[m->col] < USHRT_MAX)
    x->ntok[m->col]++;
  if (hit >= 0 && x->hits[m->col] < USHRT_MAX)
    x->hits[m->col]++;
  if (hit >= 0 && m->prev >= 0 && hit != m->prev && m->col < 2 && x->pairs < USHRT_MAX)
    x->pairs++;
  m->prev = hit;
  return SQLITE_OK;
}

/* Which of the head's words a hit only the body ranked has, and in which fields: found in the
 * head's row lists when the ranking holds every phrase's (a seek in each), as the rows it
 * kept were (upk__ix_note_fields). */
void upk__ix_head_from_lists(const part *p, cand *x) {
  for (int k = 0; k < p->nphrase; k++) {
    const upk__ix_postings *l = &p->lists.rows[k];
    size_t at = upk__ix_seek(l, 0, x->doc);
    x->fields[p->phrase_term[k]] |= at < l->n && l->v[at].rowid == x->doc ? l->v[at].cols : 0;
  }
  x->known[HEAD] = true;
}

/* The same when they are not all there (or for the learned order's counts): the hit's name,
 * description and headings (a few hundred bytes) read back and tokenized by the index's own
 * tokenizer. Asking FTS5 for the one row instead seeks every phrase of the query in it. */
int upk__ix_head_fields(upk_index *ix, query *q, cand *x) {
  part *p = &q->part[HEAD];
  if (!p->nphrase)
    return 0;
  sqlite3_stmt *st = ix->st[ST_HEAD_TEXT];
  sqlite3_bind_int64(st, 1, x->doc);
  int s = sqlite3_step(st);
  unsigned char mask[MAX_PHRASES] = {0};
  x->text_read = true;
  for (int col = 0; s == SQLITE_ROW && col < 3; col++) {
    text_match m = {p, (unsigned char)(1u << col), {0}, mask, x, col, -1};
    const char *text = (const char *)sqlite3_column_text(st, col);
    if (text)
      ix->tok_api.xTokenize(ix->tok, &m, FTS5_TOKENIZE_DOCUMENT, text,
                            sqlite3_column_bytes(st, col), on_text_token);
  }
  sqlite3_reset(st);
  for (int k = 0; k < p->nphrase; k++)
    x->fields[p->phrase_term[k]] |= mask[k];
  return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : upk__ix_sql_fail(ix, "lookup: why");
}

static const char *const field_names[] = {"name", "description", "headings", "body"};

int upk__ix_fill_why(query *q, const cand *c, upk_index_hit *h) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&b, "");
  h->matches = upk_xcalloc((size_t)q->n + 1, sizeof *h->matches);
  for (int i = 0; i < q->n; i++) {
    if (!c->fields[i])
      continue;
    upk_index_match *m = &h->matches[h->n_matches++];
    m->term = upk_xstrdup(q->t[i].word);
    m->fields = c->fields[i];
    upk_buf_puts(&b, b.len ? "; " : "");
    upk_buf_puts(&b, q->t[i].word);
    const char *sep = " (";
    for (int f = 0; f < 4; f++)
      if (c->fields[i] & (1u << f)) {
        upk_buf_puts(&b, sep);
        upk_buf_puts(&b, field_names[f]);
        sep = ", ";
      }
    upk_buf_puts(&b, ")");
  }
  h->why = b.data;
  return h->why ? 0 : -ENOMEM;
}
