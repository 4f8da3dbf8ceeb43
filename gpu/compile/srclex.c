/* The lexer: translation phases 1-3, as much of them as CUDA source needs.
 * One forward pass with bounded look-ahead and no recursion, so garbage and
 * huge inputs cost linear time. */
#include "gpu/compile/srclex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static bool is_id_start(unsigned char c) {
  return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool is_id_char(unsigned char c) {
  return is_id_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

bool upk_tok_is(const upk_src_token *t, const char *s) {
  size_t n = strlen(s);
  return t->kind != UPK_TOK_STRING && t->kind != UPK_TOK_CHAR && t->kind != UPK_TOK_HEADER &&
         t->len == n && !memcmp(t->text, s, n);
}

/* Phase 2: drop backslash-newlines, remembering where, so positions can be
 * mapped back to the original text. */
static int splice(upk_src_lexer *lx, const char *src, size_t len) {
  size_t nl = 0;
  for (size_t i = 0; i < len; i++)
    nl += src[i] == '\n';
  lx->buf = upk_xmalloc(len + 1);
  lx->splice_at = upk_xmalloc((nl + 1) * sizeof *lx->splice_at);
  lx->splice_cum = upk_xmalloc((nl + 1) * sizeof *lx->splice_cum);
  lx->line_start = upk_xmalloc((nl + 1) * sizeof *lx->line_start);
  lx->line_start[lx->n_lines++] = 0;
  size_t removed = 0;
  for (size_t i = 0; i < len; i++) {
    size_t skip = 0;
    if (src[i] == '\\' && i + 1 < len && src[i + 1] == '\n')
      skip = 2;
    else if (src[i] == '\\' && i + 2 < len && src[i + 1] == '\r' && src[i + 2] == '\n')
      skip = 3;
    if (skip) {
      removed += skip;
      lx->splice_at[lx->n_splice] = lx->len;
      lx->splice_cum[lx->n_splice++] = removed;
      lx->line_start[lx->n_lines++] = i + skip;
      i += skip - 1;
      continue;
    }
    if (src[i] == '\n')
      lx->line_start[lx->n_lines++] = i + 1;
    lx->buf[lx->len++] = src[i];
  }
  lx->buf[lx->len] = '\0';
  return 0;
}

int upk_src_lex_open(upk_src_lexer *lx, const char *src, size_t len) {
  memset(lx, 0, sizeof *lx);
  lx->bol = true;
  int rc = splice(lx, src ? src : "", src ? len : 0);
  if (rc)
    upk_src_lex_close(lx);
  return rc;
}

void upk_src_lex_close(upk_src_lexer *lx) {
  free(lx->buf);
  free(lx->splice_at);
  free(lx->splice_cum);
  free(lx->line_start);
  memset(lx, 0, sizeof *lx);
}

/* Index of the last element of sorted `v` that is <= x, or -1. */
static long last_le(const size_t *v, size_t n, size_t x) {
  long lo = 0, hi = (long)n - 1, ans = -1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    if (v[mid] <= x)
      ans = mid, lo = mid + 1;
    else
      hi = mid - 1;
  }
  return ans;
}

void upk_src_lex_pos(const upk_src_lexer *lx, size_t off, int *line, int *col) {
  long s = last_le(lx->splice_at, lx->n_splice, off);
  size_t orig = off + (s >= 0 ? lx->splice_cum[s] : 0);
  long l = last_le(lx->line_start, lx->n_lines, orig);
  if (l < 0)
    l = 0;
  *line = (int)l;
  *col = (int)(orig - lx->line_start[l]);
}

/* Blanks and comments; a newline ends a directive. */
static void skip_blanks(upk_src_lexer *lx) {
  const char *b = lx->buf;
  while (lx->pos < lx->len) {
    char c = b[lx->pos];
    if (c == '\n') {
      lx->bol = true;
      lx->directive = 0;
      lx->dir_state = 0;
      lx->pos++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\0') {
      lx->pos++;
    } else if (c == '/' && b[lx->pos + 1] == '/') {
      while (lx->pos < lx->len && b[lx->pos] != '\n')
        lx->pos++;
    } else if (c == '/' && b[lx->pos + 1] == '*') {
      const char *end = NULL;
      for (size_t i = lx->pos + 2; i + 1 < lx->len; i++)
        if (b[i] == '*' && b[i + 1] == '/') {
          end = b + i;
          break;
        }
      lx->pos = end ? (size_t)(end - b) + 2 : lx->len; /* unterminated: to the end */
    } else {
      return;
    }
  }
}

/* "..." or '...' from the quote at lx->pos; an unterminated one stops at the newline. */
static void lex_quoted(upk_src_lexer *lx, char q) {
  const char *b = lx->buf;
  size_t i = lx->pos + 1;
  while (i < lx->len && b[i] != q && b[i] != '\n')
    i += (b[i] == '\\' && i + 1 < lx->len && b[i + 1] != '\n') ? 2 : 1;
  lx->pos = i < lx->len && b[i] == q ? i + 1 : i;
}

/* R"delim( ... )delim" from the quote at lx->pos; unterminated: to the end. */
static void lex_raw(upk_src_lexer *lx) {
  const char *b = lx->buf;
  size_t d0 = lx->pos + 1, i = d0;
  while (i < lx->len && i - d0 <= 16 && !strchr(" ()\\\t\n\"", b[i]))
    i++;
  if (i >= lx->len || b[i] != '(') {
    lex_quoted(lx, '"');
    return;
  }
  size_t dl = i - d0;
  for (size_t j = i + 1; j + 1 + dl < lx->len; j++)
    if (b[j] == ')' && !memcmp(b + j + 1, b + d0, dl) && b[j + 1 + dl] == '"') {
      lx->pos = j + dl + 2;
      return;
    }
  lx->pos = lx->len;
}

/* An identifier that prefixes a literal: L u U u8, and the raw forms. */
static int literal_prefix(const char *s, size_t n) {
  static const char *const plain[] = {"L", "u", "U", "u8"};
  static const char *const raw[] = {"R", "LR", "uR", "UR", "u8R"};
  for (size_t i = 0; i < 4; i++)
    if (strlen(plain[i]) == n && !memcmp(plain[i], s, n))
      return 1;
  for (size_t i = 0; i < 5; i++)
    if (strlen(raw[i]) == n && !memcmp(raw[i], s, n))
      return 2;
  return 0;
}

static void lex_number(upk_src_lexer *lx) {
  const char *b = lx->buf;
  size_t i = lx->pos + 1;
  while (i < lx->len) {
    unsigned char c = b[i];
    if (strchr("eEpP", c) && i + 1 < lx->len && (b[i + 1] == '+' || b[i + 1] == '-'))
      i += 2;
    else if (is_id_char(c) || c == '.')
      i++;
    else if (c == '\'' && i + 1 < lx->len && is_id_char((unsigned char)b[i + 1]))
      i += 2;
    else
      break;
  }
  lx->pos = i;
}

static void lex_punct(upk_src_lexer *lx) {
  static const char *const multi[] = {"<<<", ">>>", "::", "->", "&&", "||", "==", "!=", "<=", ">="};
  const char *p = lx->buf + lx->pos;
  size_t left = lx->len - lx->pos;
  for (size_t i = 0; i < sizeof multi / sizeof *multi; i++) {
    size_t n = strlen(multi[i]);
    if (left >= n && !memcmp(p, multi[i], n)) {
      lx->pos += n;
      return;
    }
  }
  lx->pos++;
}

/* `#include <...>`: the header name up to '>' (or the end of the line). */
static void lex_header(upk_src_lexer *lx, upk_src_token *t) {
  size_t i = lx->pos + 1;
  while (i < lx->len && lx->buf[i] != '>' && lx->buf[i] != '\n')
    i++;
  t->kind = UPK_TOK_HEADER;
  t->text = lx->buf + lx->pos + 1;
  t->len = i - lx->pos - 1;
  t->off = lx->pos + 1;
  lx->pos = i < lx->len && lx->buf[i] == '>' ? i + 1 : i;
}

static void lex_ident(upk_src_lexer *lx, upk_src_token *t) {
  const char *b = lx->buf;
  size_t i = lx->pos;
  while (i < lx->len && is_id_char((unsigned char)b[i]))
    i++;
  int pre =
      i < lx->len && (b[i] == '"' || b[i] == '\'') ? literal_prefix(b + lx->pos, i - lx->pos) : 0;
  if (!pre) {
    t->kind = UPK_TOK_IDENT;
    lx->pos = i;
    return;
  }
  t->kind = b[i] == '"' ? UPK_TOK_STRING : UPK_TOK_CHAR;
  lx->pos = i;
  if (pre == 2 && b[i] == '"')
    lex_raw(lx);
  else
    lex_quoted(lx, b[i]);
}

/* What a directive's first tokens mean for the next one. */
static void directive_state(upk_src_lexer *lx, const upk_src_token *t) {
  if (lx->dir_state == 1 && t->kind == UPK_TOK_IDENT &&
      (upk_tok_is(t, "include") || upk_tok_is(t, "include_next") || upk_tok_is(t, "import")))
    lx->dir_state = 2;
  else
    lx->dir_state = 0;
}

bool upk_src_lex_next(upk_src_lexer *lx, upk_src_token *t) {
  skip_blanks(lx);
  if (lx->pos >= lx->len)
    return false;
  const char *b = lx->buf;
  unsigned char c = b[lx->pos];
  size_t start = lx->pos;
  bool bol = lx->bol;
  lx->bol = false;
  t->off = start;
  t->text = b + start;
  /* `%:` is C++'s other spelling of `#` (a digraph): `%:include` is an #include too */
  size_t hash = c == '#' ? 1 : c == '%' && lx->pos + 1 < lx->len && b[lx->pos + 1] == ':' ? 2 : 0;
  if (bol && hash) {
    lx->pos += hash;
    lx->directive = ++lx->n_directives;
    lx->dir_state = 1;
    t->kind = UPK_TOK_HASH;
    t->len = hash;
    t->directive = lx->directive;
    return true;
  }
  t->directive = lx->directive;
  if (lx->dir_state == 2 && c == '<') {
    lx->dir_state = 0;
    lex_header(lx, t);
    return true;
  }
  if (is_id_start(c)) {
    lex_ident(lx, t);
  } else if (is_digit(c) || (c == '.' && is_digit((unsigned char)b[lx->pos + 1]))) {
    t->kind = UPK_TOK_NUMBER;
    lex_number(lx);
  } else if (c == '"' || c == '\'') {
    t->kind = c == '"' ? UPK_TOK_STRING : UPK_TOK_CHAR;
    lex_quoted(lx, (char)c);
  } else {
    t->kind = UPK_TOK_PUNCT;
    lex_punct(lx);
  }
  t->len = lx->pos - start;
  directive_state(lx, t);
  return true;
}
