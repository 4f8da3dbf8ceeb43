/* The Markdown body of SKILL.md (cmark) and the position bookkeeping shared
 * by the skills sources. */
#include <cmark.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/cmark_lazy.h"
#include "skills/skill_internal.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

/* ---- line map ------------------------------------------------------------ */

int upk_lm_init(upk_linemap *lm, const char *text, size_t len) {
  size_t cap = 64;
  lm->text = text;
  lm->len = len;
  lm->n = 0;
  lm->start = upk_xmalloc(cap * sizeof *lm->start);
  lm->start[lm->n++] = 0;
  /* Without a '\r' (nearly every file) a line ends only at '\n', and memchr
   * finds those many bytes at a time. */
  bool cr = memchr(text, '\r', len) != NULL;
  for (size_t i = 0; i < len; i++) {
    if (!cr) {
      const char *nl = memchr(text + i, '\n', len - i);
      if (!nl)
        break;
      i = (size_t)(nl - text);
    } else if (text[i] != '\n' && (text[i] != '\r' || (i + 1 < len && text[i + 1] == '\n')))
      continue;
    UPK_GROW(lm->start, cap, lm->n + 2);
    lm->start[lm->n++] = i + 1;
  }
  lm->start[lm->n] = len;
  return 0;
}

void upk_lm_free(upk_linemap *lm) {
  free(lm->start);
  lm->start = NULL;
  lm->n = 0;
}

int upk_lm_line(const upk_linemap *lm, size_t off) {
  size_t lo = 0, hi = lm->n; /* last line whose start <= off */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (lm->start[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return (int)lo;
}

int upk_lm_col(const upk_linemap *lm, size_t off) {
  if (off > lm->len)
    off = lm->len;
  size_t b = lm->start[upk_lm_line(lm, off)];
  return (int)upk_u16_len(lm->text + b, off - b);
}

size_t upk_lm_line_end(const upk_linemap *lm, int line) {
  if (line < 0 || (size_t)line >= lm->n)
    return lm->len;
  size_t b = lm->start[line], e = lm->start[line + 1];
  while (e > b && (lm->text[e - 1] == '\n' || lm->text[e - 1] == '\r'))
    e--;
  return e;
}

size_t upk_lm_offset(const upk_linemap *lm, int line, size_t cp_col) {
  if (line < 0)
    return 0;
  if ((size_t)line >= lm->n)
    return lm->len;
  size_t i = lm->start[line], e = upk_lm_line_end(lm, line);
  while (i < e && cp_col > 0) {
    i++;
    while (i < e && ((unsigned char)lm->text[i] & 0xC0) == 0x80)
      i++;
    cp_col--;
  }
  return i;
}

upk_range upk_lm_range(const upk_linemap *lm, size_t b, size_t e) {
  upk_range r = {upk_lm_line(lm, b), upk_lm_col(lm, b), upk_lm_line(lm, e), upk_lm_col(lm, e)};
  return r;
}

int upk_sdiag(upk_diags *d, upk_severity sev, const char *code, upk_range r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = upk_diags_vadd(d, sev, code, UPK_SKILL_SOURCE, r, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- tokens ------------------------------------------------------------- */

/* Python's str.split() separators below 0x80; the loop below reads one per byte. */
static const bool ASCII_SPACE[0x80] = {['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
                                       [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [' '] = 1};

size_t upk_skill_tokens(const char *text, size_t len) {
  size_t words = 0, i = 0;
  bool in_word = false;
  while (i < len) {
    unsigned char c = (unsigned char)text[i];
    if (c < 0x80) { /* ASCII, nearly every byte of a skill: no decoding, no table search */
      bool space = ASCII_SPACE[c];
      words += !space && !in_word;
      in_word = !space;
      i++;
      continue;
    }
    uint32_t cp;
    size_t k = upk_u8_decode(text + i, len - i, &cp);
    bool space = k && upk_u_isspace(cp);
    if (!space && !in_word)
      words++;
    in_word = !space;
    i += k ? k : 1;
  }
  return words * 13 / 10;
}

/* ---- body --------------------------------------------------------------- */

typedef struct {
  upk_skill *s;
  const upk_linemap *lm;
  size_t body_off;
  int line0;
} scan;

/* File offset of cmark's (1-based line, 1-based byte column) in the body. */
static size_t body_offset(const scan *sc, int line, int col) {
  size_t off;
  if (line <= 1)
    off = sc->body_off + (size_t)(col > 0 ? col - 1 : 0);
  else if ((size_t)(sc->line0 + line - 1) < sc->lm->n)
    off = sc->lm->start[sc->line0 + line - 1] + (size_t)(col > 0 ? col - 1 : 0);
  else
    off = sc->lm->len;
  return off > sc->lm->len ? sc->lm->len : off;
}

/* Offset in the body of the line after cmark's 1-based `line`. */
static size_t body_line_end(const scan *sc, int line) {
  size_t k = (size_t)(sc->line0 + line), off = k < sc->lm->n ? sc->lm->start[k] : sc->lm->len;
  off = off > sc->lm->len ? sc->lm->len : off;
  return off > sc->body_off ? off - sc->body_off : 0;
}

static int file_line(const scan *sc, cmark_node *n) {
  return sc->line0 + cmark_node_get_start_line(n) - 1;
}

static void plain_text(cmark_node *n, char *buf, size_t cap, size_t *len) {
  for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
    cmark_node_type t = cmark_node_get_type(c);
    const char *lit = t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE ? cmark_node_get_literal(c)
                      : t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK ? " "
                                                                               : NULL;
    if (lit) {
      size_t k = strlen(lit);
      if (*len + k >= cap)
        k = cap - 1 - *len;
      memcpy(buf + *len, lit, k);
      *len += k;
      buf[*len] = '\0';
    } else {
      plain_text(c, buf, cap, len);
    }
  }
}

static int add_heading(scan *sc, cmark_node *n) {
  upk_skill *s = sc->s;
  upk_skill_heading *p = upk_xrealloc(s->headings, (s->n_headings + 1) * sizeof *p);
  s->headings = p;
  char buf[1024] = "";
  size_t len = 0;
  plain_text(n, buf, sizeof buf, &len);
  upk_skill_heading *h = &s->headings[s->n_headings];
  h->level = cmark_node_get_heading_level(n);
  h->line = file_line(sc, n);
  h->text = upk_xstrdup(buf);
  s->n_headings++;
  return 0;
}

static int add_code(scan *sc, cmark_node *n) {
  upk_skill *s = sc->s;
  upk_skill_code *p = upk_xrealloc(s->code, (s->n_code + 1) * sizeof *p);
  s->code = p;
  const char *info = cmark_node_get_fence_info(n);
  size_t k = 0;
  while (info && info[k] && !isspace((unsigned char)info[k]))
    k++;
  size_t at = body_offset(sc, cmark_node_get_start_line(n), cmark_node_get_start_column(n));
  char c = at < sc->lm->len ? sc->lm->text[at] : 0;
  upk_skill_code *x = &s->code[s->n_code];
  x->line = file_line(sc, n);
  x->fenced = c == '`' || c == '~';
  x->start = body_line_end(sc, cmark_node_get_start_line(n) - 1); /* whole lines */
  x->end = body_line_end(sc, cmark_node_get_end_line(n));
  if (x->end < x->start)
    x->end = x->start;
  x->lang = upk_xstrndup(info ? info : "", k);
  s->n_code++;
  return 0;
}

static int add_ref(scan *sc, const char *target, size_t len, size_t off) {
  upk_skill *s = sc->s;
  upk_skill_ref *p = upk_xrealloc(s->refs, (s->n_refs + 1) * sizeof *p);
  s->refs = p;
  upk_skill_ref *r = &s->refs[s->n_refs];
  r->target = upk_xstrndup(target, len);
  size_t end = off + len > sc->lm->len ? sc->lm->len : off + len;
  r->range = upk_lm_range(sc->lm, off, end);
  s->n_refs++;
  return 0;
}

/* Link destinations that name a file of the skill: no scheme, not absolute,
 * not a fragment. */
static bool relative_url(const char *u) {
  if (!*u || *u == '#' || *u == '/' || *u == '\\')
    return false;
  const char *p = u;
  if (isalpha((unsigned char)*p)) {
    while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
      p++;
    if (*p == ':')
      return false;
  }
  return true;
}

static int hexval(int c) {
  return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* cmark percent-encodes destinations; decode them and drop ?query/#fragment. */
static char *url_target(const char *u) {
  char *t = upk_xmalloc(strlen(u) + 1), *o = t;
  for (const char *p = u; *p && *p != '#' && *p != '?'; p++) {
    int h, l;
    if (*p == '%' && (h = hexval((unsigned char)p[1])) >= 0 &&
        (l = hexval((unsigned char)p[2])) >= 0) {
      *o++ = (char)(h * 16 + l);
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  size_t n = (size_t)(o - t); /* its length, known: GCC -O1 misreads a strlen of t + 2 */
  if (n >= 2 && t[0] == '.' && t[1] == '/')
    memmove(t, t + 2, n - 1);
  return t;
}

static int on_link(scan *sc, cmark_node *n) {
  const char *url = cmark_node_get_url(n);
  if (!url || !relative_url(url))
    return 0;
  char *t = url_target(url);
  if (!t)
    return -ENOMEM;
  int rc = 0;
  if (*t) {
    size_t b = body_offset(sc, cmark_node_get_start_line(n), cmark_node_get_start_column(n));
    size_t e = body_offset(sc, cmark_node_get_end_line(n), cmark_node_get_end_column(n) + 1);
    const char *hit = e > b ? memmem(sc->lm->text + b, e - b, t, strlen(t)) : NULL;
    rc = add_ref(sc, t, strlen(t), hit ? (size_t)(hit - sc->lm->text) : b);
  }
  free(t);
  return rc;
}

static const char *const REF_DIRS[] = {"scripts/", "references/", "assets/"};

/* Length of a path token starting with one of the skill's resource folders
 * at s[i] (an optional "./" first), or 0. */
static size_t path_token(const char *s, size_t i, size_t n) {
  /* Asked at every character of the body's text: the cheapest tests first, a
   * switch rather than strchr (a first index parses every skill). */
  if (i > 0)
    switch (s[i - 1]) {
    case ' ':
    case '\t':
    case '(':
    case '[':
    case '"':
    case '\'':
    case '<':
    case '`':
      break;
    default:
      return 0;
    }
  if (s[i] != '.' && s[i] != 's' && s[i] != 'r' && s[i] != 'a')
    return 0;
  size_t j = i;
  if (n - j >= 2 && s[j] == '.' && s[j + 1] == '/')
    j += 2;
  bool dir = false;
  for (size_t d = 0; d < sizeof REF_DIRS / sizeof *REF_DIRS && !dir; d++)
    if (strncmp(s + j, REF_DIRS[d], strlen(REF_DIRS[d])) == 0)
      dir = true;
  if (!dir)
    return 0;
  size_t e = j;
  while (e < n && !isspace((unsigned char)s[e]) && !strchr("`'\"()<>[]{},;|*", s[e]))
    e++;
  while (e > j && strchr(".:!?", s[e - 1]))
    e--;
  return e - i;
}

/* Paths named in text or in a code span: `scripts/x.py`, references/y.md. */
static int on_text(scan *sc, cmark_node *n) {
  const char *lit = cmark_node_get_literal(n);
  size_t len = lit ? strlen(lit) : 0;
  size_t b = body_offset(sc, cmark_node_get_start_line(n), cmark_node_get_start_column(n));
  size_t line_end = upk_lm_line_end(sc->lm, upk_lm_line(sc->lm, b));
  for (size_t i = 0; i < len; i++) {
    size_t k = path_token(lit, i, len);
    if (!k)
      continue;
    const char *t = lit + i;
    size_t tl = k;
    if (tl >= 2 && t[0] == '.' && t[1] == '/')
      t += 2, tl -= 2;
    const char *hit = line_end > b ? memmem(sc->lm->text + b, line_end - b, t, tl) : NULL;
    size_t off = hit ? (size_t)(hit - sc->lm->text) : b;
    if (hit)
      b = off + tl;
    if (add_ref(sc, t, tl, off))
      return -ENOMEM;
    i += k - 1;
  }
  return 0;
}

static size_t count_lines(const char *t, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 == len || t[i + 1] != '\n')))
      n++;
  return n + (len > 0 && t[len - 1] != '\n' && t[len - 1] != '\r');
}

static int visit(scan *sc, cmark_node *n, int *in_link) {
  switch (cmark_node_get_type(n)) {
  case CMARK_NODE_HEADING:
    return add_heading(sc, n);
  case CMARK_NODE_CODE_BLOCK:
    return add_code(sc, n);
  case CMARK_NODE_LINK:
  case CMARK_NODE_IMAGE:
    ++*in_link;
    return on_link(sc, n);
  case CMARK_NODE_TEXT:
  case CMARK_NODE_CODE:
    return *in_link ? 0 : on_text(sc, n);
  default:
    return 0;
  }
}

int upk_skill_scan_body(upk_skill *s, const upk_linemap *lm, size_t body_off) {
  size_t len = strlen(s->body);
  s->body_lines = count_lines(s->body, len);
  const char *no_reader = upk_cmark_error();
  if (no_reader) /* the body's links and headings unread: said, not passed over */
    return upk_diags_add(&s->issues, UPK_SEV_ERROR, "skill/markdown-unread", UPK_SKILL_SOURCE,
                         upk_range_line(upk_lm_line(lm, body_off), 0, 0),
                         "The body was not read as Markdown: %s", no_reader)
               ? -ENOMEM
               : 0;
  cmark_node *doc = cmark_parse_document(s->body, len, CMARK_OPT_DEFAULT);
  if (!doc)
    return -ENOMEM;
  scan sc = {s, lm, body_off, upk_lm_line(lm, body_off)};
  cmark_iter *it = cmark_iter_new(doc);
  int rc = 0, in_link = 0;
  cmark_event_type ev;
  while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    cmark_node_type t = cmark_node_get_type(n);
    if (ev == CMARK_EVENT_EXIT && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE))
      in_link--;
    else if (ev == CMARK_EVENT_ENTER)
      rc = visit(&sc, n, &in_link);
  }
  cmark_iter_free(it);
  cmark_node_free(doc);
  return rc;
}
