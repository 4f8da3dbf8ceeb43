/* SKILL.md frontmatter: libyaml events into a small tree with positions, the
 * YAML features skills-ref's strictyaml refuses, and the lenient retry of
 * `key: text: more` with the value quoted (the client guide's advice). */
#include "skills/frontmatter.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "skills/unicode.h"
#include "common/xalloc.h"

enum { MAX_DEPTH = 64, MAX_REPAIRS = 32 };

#define UPK_STR_(x) #x
#define UPK_STR(x) UPK_STR_(x)

static const char COLON_PROBLEM[] = "mapping values are not allowed in this context";

static void node_free(fm_node *n) {
  if (!n)
    return;
  for (size_t i = 0; i < n->n; i++)
    node_free(n->kids[i]);
  free(n->kids);
  free(n->text);
  free(n);
}

void fm_doc_free(fm_doc *doc) {
  node_free(doc->root);
  free(doc->issues);
  free(doc->repairs);
  memset(doc, 0, sizeof *doc);
}

const fm_node *fm_map_get(const fm_node *map, const char *key) {
  const fm_node *found = NULL;
  if (!map || map->kind != FM_MAP)
    return NULL;
  for (size_t i = 0; i + 1 < map->n; i += 2)
    if (map->kids[i]->kind == FM_SCALAR && strcmp(map->kids[i]->text, key) == 0)
      found = map->kids[i + 1];
  return found;
}

static fm_pos pos_of(yaml_mark_t m) {
  fm_pos p = {(int)m.line, (int)m.column};
  return p;
}

static int add_issue(fm_doc *doc, fm_issue_kind kind, yaml_mark_t m) {
  fm_issue *p = upk_xrealloc(doc->issues, (doc->n_issues + 1) * sizeof *p);
  doc->issues = p;
  doc->issues[doc->n_issues].kind = kind;
  doc->issues[doc->n_issues++].pos = pos_of(m);
  return 0;
}

static int add_kid(fm_node *parent, fm_node *kid) {
  UPK_GROW(parent->kids, parent->cap, parent->n + 1);
  parent->kids[parent->n++] = kid;
  return 0;
}

/* Anchored scalars, so that an alias (which strictyaml refuses, but PyYAML and
 * js-yaml resolve) still yields a value in lenient loading. */
typedef struct {
  char *name;
  const fm_node *node;
} anchor;

typedef struct {
  fm_doc *doc;
  fm_node *stack[MAX_DEPTH];
  int depth;
  anchor *anchors;
  size_t n_anchors;
  int docs;
  size_t nodes;
} builder;

/* on_event's answers besides 0 and -ENOMEM: why the document is refused. */
enum { EV_MORE_DOCS = 1, EV_TOO_DEEP, EV_NUL, EV_TOO_MANY_KEYS, EV_TOO_LARGE };

static fm_node *new_node(fm_kind kind, const yaml_event_t *ev) {
  fm_node *n = upk_xcalloc(1, sizeof *n);
  n->kind = kind;
  n->start = pos_of(ev->start_mark);
  n->end = pos_of(ev->end_mark);
  return n;
}

static int remember_anchor(builder *b, const char *name, const fm_node *node) {
  anchor *p = upk_xrealloc(b->anchors, (b->n_anchors + 1) * sizeof *p);
  b->anchors = p;
  p[b->n_anchors].name = upk_xstrdup(name);
  p[b->n_anchors++].node = node;
  return p[b->n_anchors - 1].name ? 0 : -ENOMEM;
}

static const char *resolve_alias(builder *b, const char *name) {
  for (size_t i = b->n_anchors; i-- > 0;)
    if (strcmp(b->anchors[i].name, name) == 0 && b->anchors[i].node->kind == FM_SCALAR)
      return b->anchors[i].node->text;
  return "";
}

/* Hang a finished or opened node under the current container (or make it the
 * root). A second root means a second document, which strictyaml refuses. */
static int attach(builder *b, fm_node *n) {
  if (++b->nodes > FM_MAX_NODES) {
    node_free(n);
    return EV_TOO_LARGE;
  }
  if (b->depth > 0) {
    fm_node *parent = b->stack[b->depth - 1];
    if (parent->kind == FM_MAP && parent->n >= 2 * FM_MAX_KEYS) {
      node_free(n);
      return EV_TOO_MANY_KEYS;
    }
    return add_kid(parent, n);
  }
  if (b->doc->root) {
    node_free(n);
    return EV_MORE_DOCS;
  }
  b->doc->root = n;
  return 0;
}

static int on_scalar(builder *b, const yaml_event_t *ev) {
  /* libyaml gives the decoded length: a "\0" escape would cut the C string short */
  if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length))
    return EV_NUL;
  fm_node *n = new_node(FM_SCALAR, ev);
  if (!n)
    return -ENOMEM;
  n->text = upk_xstrndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
  n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  if (!n->text) {
    node_free(n);
    return -ENOMEM;
  }
  int rc = 0;
  if (ev->data.scalar.tag)
    rc = add_issue(b->doc, FM_ISSUE_TAG, ev->start_mark);
  if (!rc && ev->data.scalar.anchor) {
    rc = add_issue(b->doc, FM_ISSUE_ANCHOR, ev->start_mark);
    if (!rc)
      rc = remember_anchor(b, (const char *)ev->data.scalar.anchor, n);
  }
  if (rc) {
    node_free(n);
    return rc;
  }
  return attach(b, n);
}

static int on_alias(builder *b, const yaml_event_t *ev) {
  fm_node *n = new_node(FM_SCALAR, ev);
  if (!n)
    return -ENOMEM;
  n->text = upk_xstrdup(resolve_alias(b, (const char *)ev->data.alias.anchor));
  if (!n->text || add_issue(b->doc, FM_ISSUE_ALIAS, ev->start_mark)) {
    node_free(n);
    return -ENOMEM;
  }
  return attach(b, n);
}

static int on_open(builder *b, const yaml_event_t *ev, fm_kind kind) {
  bool flow = kind == FM_MAP ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                             : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
  const yaml_char_t *tag =
      kind == FM_MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
  const yaml_char_t *anch =
      kind == FM_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
  if (b->depth == MAX_DEPTH)
    return EV_TOO_DEEP;
  fm_node *n = new_node(kind, ev);
  if (!n)
    return -ENOMEM;
  n->flow = flow;
  int rc = flow ? add_issue(b->doc, FM_ISSUE_FLOW, ev->start_mark) : 0;
  if (!rc && tag)
    rc = add_issue(b->doc, FM_ISSUE_TAG, ev->start_mark);
  if (!rc && anch)
    rc = add_issue(b->doc, FM_ISSUE_ANCHOR, ev->start_mark);
  if (!rc)
    rc = attach(b, n);
  else
    node_free(n);
  if (rc == 0)
    b->stack[b->depth++] = n;
  return rc;
}

static int on_event(builder *b, const yaml_event_t *ev) {
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    return on_scalar(b, ev);
  case YAML_ALIAS_EVENT:
    return on_alias(b, ev);
  case YAML_MAPPING_START_EVENT:
    return on_open(b, ev, FM_MAP);
  case YAML_SEQUENCE_START_EVENT:
    return on_open(b, ev, FM_SEQ);
  case YAML_MAPPING_END_EVENT:
  case YAML_SEQUENCE_END_EVENT:
    b->stack[b->depth - 1]->end = pos_of(ev->end_mark);
    b->depth--;
    return 0;
  case YAML_DOCUMENT_START_EVENT:
    return ++b->docs > 1 ? EV_MORE_DOCS : 0;
  default:
    return 0;
  }
}

static void set_problem(fm_doc *doc, const char *msg, fm_pos pos) {
  doc->failed = true;
  snprintf(doc->problem, sizeof doc->problem, "%s", msg);
  doc->problem_pos = pos;
}

/* One libyaml pass over the text. Returns 0 (doc->failed tells whether the
 * YAML was valid) or -ENOMEM. */
static int parse_once(const char *yaml, size_t len, fm_doc *doc) {
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p))
    return -ENOMEM;
  yaml_parser_set_input_string(&p, (const unsigned char *)yaml, len);
  yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
  builder b = {.doc = doc};
  int rc = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev)) {
      if (p.error == YAML_MEMORY_ERROR) {
        rc = -ENOMEM;
      } else if (p.context) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s, %s", p.context, p.problem ? p.problem : "syntax error");
        set_problem(doc, msg, pos_of(p.problem_mark));
      } else {
        set_problem(doc, p.problem ? p.problem : "syntax error", pos_of(p.problem_mark));
      }
      break;
    }
    int r = on_event(&b, &ev);
    bool done = ev.type == YAML_STREAM_END_EVENT;
    static const char *const why[] = {
        [EV_MORE_DOCS] = "expected a single document, found more than one",
        [EV_TOO_DEEP] = "nesting too deep",
        [EV_NUL] = "a value holds a NUL character (\\0), which would cut it short: refused",
        [EV_TOO_MANY_KEYS] =
            "more than " UPK_STR(FM_MAX_KEYS) " keys in one mapping: refused "
                                              "(a skill's frontmatter has a handful of fields)",
        [EV_TOO_LARGE] = "more than " UPK_STR(FM_MAX_NODES) " values: refused",
    };
    if (r > 0)
      set_problem(doc, why[r], pos_of(ev.start_mark));
    yaml_event_delete(&ev);
    if (r < 0)
      rc = r;
    if (r || done)
      break;
  }
  for (size_t i = 0; i < b.n_anchors; i++)
    free(b.anchors[i].name);
  free(b.anchors);
  yaml_parser_delete(&p);
  return rc;
}

/* ---- the lenient retry for `key: text: more` ---------------------------- */

typedef struct {
  const char *s;
  size_t *start; /* line start offsets; start[n] = len */
  size_t n;
} lines;

static int lines_init(lines *l, const char *s, size_t len) {
  size_t cap = 16;
  l->s = s;
  l->n = 0;
  l->start = upk_xmalloc(cap * sizeof *l->start);
  l->start[l->n++] = 0;
  for (size_t i = 0; i < len; i++) {
    bool br = s[i] == '\n' || (s[i] == '\r' && (i + 1 == len || s[i + 1] != '\n'));
    if (!br)
      continue;
    UPK_GROW(l->start, cap, l->n + 2);
    l->start[l->n++] = i + 1;
  }
  l->start[l->n] = len;
  return 0;
}

/* Line `i` without its line break: [*b, *e). */
static void line_span(const lines *l, size_t i, size_t *b, size_t *e) {
  *b = l->start[i];
  *e = l->start[i + 1];
  while (*e > *b && (l->s[*e - 1] == '\n' || l->s[*e - 1] == '\r'))
    (*e)--;
}

static size_t indent_of(const char *s, size_t b, size_t e) {
  size_t i = b;
  while (i < e && s[i] == ' ')
    i++;
  return i - b;
}

static bool blank_or_comment(const char *s, size_t b, size_t e) {
  size_t i = b + indent_of(s, b, e);
  while (i < e && (s[i] == ' ' || s[i] == '\t'))
    i++;
  return i == e || s[i] == '#';
}

/* The offset where a plain `key: value` line's value starts, or 0 when the
 * line is not of that shape (quoted, flow or block values are left alone). */
static size_t value_start(const char *s, size_t b, size_t e) {
  size_t i = b + indent_of(s, b, e);
  if (i == e || strchr("-#'\"?[{&*!|>%@`", s[i]))
    return 0;
  for (; i + 1 < e; i++)
    if (s[i] == ':' && (s[i + 1] == ' ' || s[i + 1] == '\t'))
      break;
  if (i + 1 >= e)
    return 0;
  i++;
  while (i < e && (s[i] == ' ' || s[i] == '\t'))
    i++;
  if (i == e || strchr("'\"[{|>&*!%@`#", s[i]))
    return 0;
  return i;
}

/* A plain scalar ends at " #" (a comment) and at trailing blanks. */
static size_t content_end(const char *s, size_t b, size_t e) {
  for (size_t i = b; i + 1 < e; i++)
    if ((s[i] == ' ' || s[i] == '\t') && s[i + 1] == '#') {
      e = i;
      break;
    }
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
    e--;
  return e;
}

static size_t cps(const char *s, size_t b, size_t e) {
  size_t n = 0;
  for (size_t i = b; i < e; i++)
    n += ((unsigned char)s[i] & 0xC0) != 0x80;
  return n;
}

/* Find the `key: value` line that the error on line `err` belongs to. */
static long key_line(const lines *l, size_t err, size_t err_col) {
  size_t b, e;
  line_span(l, err, &b, &e);
  size_t v = value_start(l->s, b, e);
  if (v && cps(l->s, b, v) <= err_col)
    return (long)err;
  size_t ind = indent_of(l->s, b, e);
  for (size_t i = err; i-- > 0;) {
    line_span(l, i, &b, &e);
    if (blank_or_comment(l->s, b, e))
      continue;
    if (indent_of(l->s, b, e) >= ind)
      continue;
    return value_start(l->s, b, e) ? (long)i : -1;
  }
  return -1;
}

/* Append s[b..e) with single quotes doubled. */
static char *put_quoted(char *o, const char *s, size_t b, size_t e) {
  for (size_t i = b; i < e; i++) {
    if (s[i] == '\'')
      *o++ = '\'';
    *o++ = s[i];
  }
  return o;
}

/* Rewrite the plain value on line k (and its more-indented continuation
 * lines) as a single-quoted scalar. Returns the new text or NULL. */
static char *quote_value(const lines *l, size_t len, size_t k, fm_repair *rep) {
  size_t b, e;
  line_span(l, k, &b, &e);
  size_t ind = indent_of(l->s, b, e), v = value_start(l->s, b, e), last = k;
  for (size_t i = k + 1; i < l->n; i++) {
    size_t cb, ce;
    line_span(l, i, &cb, &ce);
    size_t ci = cb + indent_of(l->s, cb, ce);
    while (ci < ce && (l->s[ci] == ' ' || l->s[ci] == '\t'))
      ci++;
    if (ci == ce)
      continue; /* blank lines belong to the value only if more text follows */
    if (l->s[ci] == '#' || indent_of(l->s, cb, ce) <= ind)
      break;
    last = i;
  }
  char *out = upk_xmalloc(len * 2 + 3), *o = out;
  memcpy(o, l->s, v);
  o += v;
  *o++ = '\'';
  size_t tail = 0;
  for (size_t i = k; i <= last; i++) {
    size_t cb, ce;
    line_span(l, i, &cb, &ce);
    size_t from = i == k ? v : cb, to = content_end(l->s, from, ce);
    o = put_quoted(o, l->s, from, to);
    if (i == last) {
      *o++ = '\'';
      rep->end_col = (int)cps(l->s, cb, to);
      tail = to;
    } else {
      memcpy(o, l->s + to, l->start[i + 1] - to); /* comment + line break */
      o += l->start[i + 1] - to;
    }
  }
  memcpy(o, l->s + tail, len - tail);
  o += len - tail;
  *o = '\0';
  rep->line = (int)k;
  rep->col = (int)cps(l->s, b, v);
  rep->last_line = (int)last;
  return out;
}

static int add_repair(fm_doc *doc, const fm_repair *r) {
  fm_repair *p = upk_xrealloc(doc->repairs, (doc->n_repairs + 1) * sizeof *p);
  doc->repairs = p;
  doc->repairs[doc->n_repairs++] = *r;
  return 0;
}

/* Try to quote the value the colon error points into. Returns the repaired
 * text, or NULL when the error is of another kind or cannot be fixed. */
static char *try_repair(const char *text, size_t len, fm_doc *doc) {
  if (!doc->failed || strcmp(doc->problem, COLON_PROBLEM) != 0)
    return NULL;
  lines l;
  if (lines_init(&l, text, len)) {
    free(l.start);
    return NULL;
  }
  char *fixed = NULL;
  fm_repair rep = {.error = doc->problem_pos};
  size_t err = (size_t)doc->problem_pos.line;
  long k = err < l.n ? key_line(&l, err, (size_t)doc->problem_pos.col) : -1;
  if (k >= 0)
    fixed = quote_value(&l, len, (size_t)k, &rep);
  if (fixed && add_repair(doc, &rep)) {
    free(fixed);
    fixed = NULL;
  }
  free(l.start);
  return fixed;
}

/* After the retries, the value nodes of repaired lines end where the
 * original text ended (the added quotes are not the author's). */
static void fix_marks(fm_node *n, const fm_doc *doc) {
  if (!n)
    return;
  for (size_t i = 0; i < doc->n_repairs; i++) {
    const fm_repair *r = &doc->repairs[i];
    if (n->kind == FM_SCALAR && n->start.line == r->line && n->start.col == r->col) {
      n->end.line = r->last_line;
      n->end.col = r->end_col;
    }
  }
  for (size_t i = 0; i < n->n; i++)
    fix_marks(n->kids[i], doc);
}

static void reset_tree(fm_doc *doc) {
  node_free(doc->root);
  doc->root = NULL;
  free(doc->issues);
  doc->issues = NULL;
  doc->n_issues = 0;
  doc->failed = false;
  doc->problem[0] = '\0';
}

int fm_parse(const char *yaml, size_t len, fm_doc *doc) {
  memset(doc, 0, sizeof *doc);
  const char *nul = memchr(yaml, 0, len);
  if (nul) { /* libyaml would say "control characters are not allowed" */
    int line = 0, col = 0;
    for (const char *c = yaml; c < nul; c++)
      if (*c == '\n')
        line++, col = 0;
      else
        col += ((unsigned char)*c & 0xC0) != 0x80;
    set_problem(doc, "a NUL byte (\\0), which would cut a value short: refused",
                (fm_pos){line, col});
    return 0;
  }
  char *cur = NULL;
  const char *text = yaml;
  int rc = parse_once(text, len, doc);
  char first[sizeof doc->problem];
  fm_pos first_pos = doc->problem_pos;
  memcpy(first, doc->problem, sizeof first);
  for (int i = 0; rc == 0 && doc->failed && i < MAX_REPAIRS; i++) {
    char *next = try_repair(text, len, doc);
    if (!next)
      break;
    reset_tree(doc);
    free(cur);
    cur = next;
    text = next;
    len = strlen(next);
    rc = parse_once(text, len, doc);
  }
  if (rc == 0 && doc->failed) {
    /* The retries did not make it valid: report the author's first error. */
    reset_tree(doc);
    doc->failed = true;
    memcpy(doc->problem, first, sizeof first);
    doc->problem_pos = first_pos;
    free(doc->repairs);
    doc->repairs = NULL;
    doc->n_repairs = 0;
  }
  fix_marks(doc->root, doc);
  free(cur);
  return rc;
}
