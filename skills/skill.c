/* Reading SKILL.md: the file, its frontmatter (frontmatter.c) and its body
 * (body.c). The frontmatter is cut out the way skills-ref does it
 * (content.split("---", 2)), so that the parse errors read as skills-ref's. */
#include "skills/skill.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/frontmatter.h"
#include "skills/meta.h"
#include "skills/skill_internal.h"
#include "skills/unicode.h"
#include "common/map.h"
#include "common/xalloc.h"

upk_range upk_skill_whole_file(void) {
  upk_range r = {-1, 0, -1, 0};
  return r;
}

typedef struct {
  upk_skill *s;
  upk_diags *diags;
  char *text; /* the file without BOM, bad UTF-8 bytes and NULs replaced by '?' */
  size_t len;
  upk_linemap lm;
  int fm_line;      /* where the YAML text starts: line ... */
  size_t fm_cp_col; /* ... and code point column */
} parser;

static int issue(parser *p, upk_severity sev, const char *code, upk_range r, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int issue(parser *p, upk_severity sev, const char *code, upk_range r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = upk_diags_vadd(&p->s->issues, sev, code, UPK_SKILL_SOURCE, r, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- paths -------------------------------------------------------------- */

static char *strip_slashes(const char *s, size_t n) {
  while (n > 1 && s[n - 1] == '/')
    n--;
  return upk_xstrndup(s, n);
}

/* The directory name skills-ref compares with `name` is Path.name of what was
 * given; "." or ".." mean the directory they resolve to. */
static char *dir_name_of(const char *dir) {
  const char *slash = strrchr(dir, '/');
  const char *base = slash && slash[1] ? slash + 1 : dir;
  if (strcmp(base, ".") && strcmp(base, "..") && strcmp(base, "/") && *base)
    return upk_xstrdup(base);
  char real[PATH_MAX];
  if (!realpath(dir, real))
    return upk_xstrdup(base);
  slash = strrchr(real, '/');
  return upk_xstrdup(slash && slash[1] ? slash + 1 : real);
}

static int set_paths(upk_skill *s, const char *file) {
  const char *slash = strrchr(file, '/');
  s->path = upk_xstrdup(file);
  s->skill_file = upk_xstrdup(slash ? slash + 1 : file);
  s->dir = slash ? strip_slashes(file, (size_t)(slash - file) + (slash == file)) : upk_xstrdup(".");
  s->dir_name = s->dir ? dir_name_of(s->dir) : NULL;
  return s->path && s->skill_file && s->dir && s->dir_name ? 0 : -ENOMEM;
}

/* ---- text hygiene ------------------------------------------------------- */

/* Replace each byte that is not UTF-8 (and NUL) by '?': positions stay put and
 * libyaml and cmark get text they accept. */
static size_t sanitize(char *t, size_t len, size_t *first) {
  size_t bad = 0;
  for (size_t i = 0; i < len;) {
    if ((unsigned char)t[i] - 1u < 0x7fu) { /* ASCII but NUL, most of any skill: no decoding */
      i++;
      continue;
    }
    uint32_t cp;
    size_t k = upk_u8_decode(t + i, len - i, &cp);
    if (k && cp != 0) {
      i += k;
      continue;
    }
    if (bad++ == 0)
      *first = i;
    t[i++] = '?';
  }
  return bad;
}

/* The first "\r\n": memchr finds the rare '\r' many times faster than memmem
 * finds the pair, and every skill is searched whole. */
static const char *find_crlf(const char *t, size_t len) {
  for (const char *r = t; (r = memchr(r, '\r', len - (size_t)(r - t))); r++)
    if ((size_t)(r - t) + 1 < len && r[1] == '\n')
      return r;
  return NULL;
}

static int prepare(parser *p, const char *text, size_t len, bool *bom) {
  *bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
  if (*bom)
    text += 3, len -= 3;
  p->text = upk_xmalloc(len + 1);
  memcpy(p->text, text, len);
  p->text[len] = '\0';
  p->len = len;
  unsigned char first_byte = 0;
  size_t first = 0, bad = sanitize(p->text, len, &first);
  if (bad)
    first_byte = (unsigned char)text[first];
  int rc = upk_lm_init(&p->lm, p->text, len);
  if (rc)
    return rc;
  if (*bom)
    rc = issue(p, UPK_SEV_ERROR, "skill/bom", upk_range_line(0, 0, 3),
               "SKILL.md starts with a UTF-8 byte order mark, so skills-ref reports \"SKILL.md "
               "must start with YAML frontmatter (---)\": save it as UTF-8 without BOM");
  if (!rc && bad && !first_byte) { /* a NUL would cut a value short wherever it is read */
    int line = upk_lm_line(&p->lm, first), col = upk_lm_col(&p->lm, first);
    rc = issue(p, UPK_SEV_ERROR, "skill/invalid-utf8", upk_range_line(line, col, col + 1),
               "SKILL.md holds a NUL byte (\\0) at line %d, column %d (%zu bad byte%s): refused; "
               "remove it",
               line + 1, col + 1, bad, bad == 1 ? "" : "s");
  } else if (!rc && bad) {
    int line = upk_lm_line(&p->lm, first), col = upk_lm_col(&p->lm, first);
    rc = issue(p, UPK_SEV_ERROR, "skill/invalid-utf8", upk_range_line(line, col, col + 1),
               "SKILL.md is not valid UTF-8: byte 0x%02X at line %d, column %d (%zu bad byte%s, "
               "read as '?'); save the file as UTF-8",
               first_byte, line + 1, col + 1, bad, bad == 1 ? "" : "s");
  }
  const char *crlf = find_crlf(p->text, len);
  if (!rc && crlf) {
    int line = upk_lm_line(&p->lm, (size_t)(crlf - p->text));
    int end = upk_lm_col(&p->lm, (size_t)(crlf - p->text));
    rc = issue(p, UPK_SEV_WARNING, "skill/crlf", upk_range_line(line, end, end),
               "SKILL.md has CRLF line endings; Anthropic's quick_validate.py then finds no "
               "frontmatter: use LF");
  }
  return rc;
}

/* ---- frontmatter -------------------------------------------------------- */

static size_t fm_offset(const parser *p, fm_pos pos) {
  size_t col = (size_t)pos.col + (pos.line == 0 ? p->fm_cp_col : 0);
  return upk_lm_offset(&p->lm, p->fm_line + pos.line, col);
}

static upk_range fm_range(const parser *p, fm_pos a, fm_pos b) {
  size_t ob = fm_offset(p, a), oe = fm_offset(p, b);
  /* Block nodes end at the start of the next line: stop at the content. */
  while (oe > ob && strchr("\r\n \t", p->text[oe - 1]))
    oe--;
  return upk_lm_range(&p->lm, ob, oe);
}

static upk_range fm_point(const parser *p, fm_pos a, int *line1, int *col1) {
  size_t off = fm_offset(p, a);
  upk_range r = upk_lm_range(&p->lm, off, off);
  r.end_col++;
  *line1 = r.line + 1;
  *col1 = r.col + 1;
  return r;
}

static int fatal(parser *p, const char *code, upk_range r, const char *msg) {
  return upk_sdiag(p->diags, UPK_SEV_ERROR, code, r, "%s", msg);
}

/* The key of a `key: value` line, for the quoting advice ("key" if none). */
static void key_on_line(const parser *p, int line, char *key, size_t cap) {
  size_t b = p->lm.start[line < 0 || (size_t)line >= p->lm.n ? 0 : line];
  size_t e = upk_lm_line_end(&p->lm, line);
  while (b < e && p->text[b] == ' ')
    b++;
  const char *colon = memchr(p->text + b, ':', e - b);
  size_t n = colon ? (size_t)(colon - (p->text + b)) : 0;
  if (n == 0 || n >= cap || memchr(p->text + b, ' ', n))
    snprintf(key, cap, "key");
  else
    snprintf(key, cap, "%.*s", (int)n, p->text + b);
}

static int invalid_yaml(parser *p, const fm_doc *doc) {
  int line, col;
  upk_range r = fm_point(p, doc->problem_pos, &line, &col);
  char msg[900];
  int n = snprintf(msg, sizeof msg, "Invalid YAML in frontmatter: %s (line %d, column %d)",
                   doc->problem, line, col);
  if (strstr(doc->problem, "mapping values are not allowed")) {
    char key[64];
    key_on_line(p, r.line, key, sizeof key);
    snprintf(msg + n, sizeof msg - (size_t)n,
             ". A value containing \": \" must be quoted (%s: \"...\") or written as a block "
             "scalar (%s: >-)",
             key, key);
  }
  return fatal(p, "skill/invalid-yaml", r, msg);
}

/* Diagnostics [from, len) in the order of their lines. */
static void sort_issues(upk_diags *d, size_t from) {
  for (size_t i = from + 1; i < d->len; i++) {
    upk_diag x = d->items[i];
    size_t j = i;
    for (; j > from && (d->items[j - 1].range.line > x.range.line ||
                        (d->items[j - 1].range.line == x.range.line &&
                         d->items[j - 1].range.col > x.range.col));
         j--)
      d->items[j] = d->items[j - 1];
    d->items[j] = x;
  }
}

static int yaml_issues(parser *p, const fm_doc *doc) {
  static const char *const codes[] = {"skill/yaml-flow-style", "skill/yaml-tag",
                                      "skill/yaml-anchor", "skill/yaml-anchor"};
  static const char *const what[] = {
      ("flow style ([...] or {...}) is not allowed by skills-ref's strict YAML; write it in "
       "block style, or quote it if it is text"),
      "explicit tags (!!str, !name) are not allowed by skills-ref's strict YAML; remove the tag",
      "anchors (&name) are not allowed by skills-ref's strict YAML; repeat the value instead",
      "aliases (*name) are not allowed by skills-ref's strict YAML; repeat the value instead"};
  int rc = 0;
  size_t from = p->s->issues.len;
  for (size_t i = 0; rc == 0 && i < doc->n_issues; i++) {
    int line, col;
    upk_range r = fm_point(p, doc->issues[i].pos, &line, &col);
    rc = issue(p, UPK_SEV_ERROR, codes[doc->issues[i].kind], r,
               "Invalid YAML in frontmatter (line %d, column %d): %s", line, col,
               what[doc->issues[i].kind]);
  }
  for (size_t i = 0; rc == 0 && i < doc->n_repairs; i++) {
    const fm_repair *x = &doc->repairs[i];
    int line, col;
    fm_point(p, x->error, &line, &col);
    fm_pos a = {x->line, x->col}, b = {x->last_line, x->end_col};
    upk_range r = fm_range(p, a, b);
    char key[64];
    key_on_line(p, r.line, key, sizeof key);
    rc = issue(p, UPK_SEV_ERROR, "skill/yaml-unquoted-colon", r,
               "Invalid YAML in frontmatter: mapping values are not allowed in this context "
               "(line %d, column %d). The value of '%s' contains \": \": quote it (%s: \"...\") "
               "or use a block scalar (%s: >-); it was read as if quoted",
               line, col, key, key, key);
  }
  sort_issues(&p->s->issues, from);
  return rc;
}

/* Python's repr() of a string, as str(dict) writes metadata values that are
 * not scalars. */
static void py_repr_str(const char *s, char *o, size_t cap, size_t *n) {
  char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
  char tmp[8];
#define PUT(c) (*n + 1 < cap ? (void)(o[(*n)++] = (c)) : (void)0)
  PUT(q);
  for (; *s; s++) {
    const char *e = *s == '\\'   ? "\\\\"
                    : *s == '\n' ? "\\n"
                    : *s == '\r' ? "\\r"
                    : *s == '\t' ? "\\t"
                                 : NULL;
    if (*s == q)
      snprintf(tmp, sizeof tmp, "\\%c", q), e = tmp;
    /* PUT evaluates its argument only while there is room: `e` moves outside it (a full
     * buffer and an escaped character looped forever: found by fuzz_skill_md). */
    for (; e && *e; e++)
      PUT(*e);
    if (!e)
      PUT(*s);
  }
  PUT(q);
  o[*n] = '\0';
}

static void py_repr(const fm_node *v, char *o, size_t cap, size_t *n) {
  if (v->kind == FM_SCALAR) {
    py_repr_str(v->text, o, cap, n);
    return;
  }
  bool map = v->kind == FM_MAP;
  PUT(map ? '{' : '[');
  for (size_t i = 0; i < v->n; i++) {
    if (i)
      PUT(','), PUT(' ');
    py_repr(v->kids[i], o, cap, n);
    if (map && ++i < v->n) {
      PUT(':'), PUT(' ');
      py_repr(v->kids[i], o, cap, n);
    }
  }
  PUT(map ? '}' : ']');
  o[*n] = '\0';
#undef PUT
}

static char *value_string(const fm_node *v) {
  if (v->kind == FM_SCALAR)
    return upk_xstrdup(v->text);
  char buf[4096];
  size_t n = 0;
  buf[0] = '\0';
  py_repr(v, buf, sizeof buf, &n);
  return upk_xstrdup(buf);
}

static int take_metadata(upk_skill *s, const fm_node *m) {
  size_t pairs = m->n / 2;
  s->meta_keys = upk_xcalloc(pairs + 1, sizeof *s->meta_keys);
  s->meta_values = upk_xcalloc(pairs + 1, sizeof *s->meta_values);
  for (size_t i = 0; i + 1 < m->n; i += 2) {
    char *k = value_string(m->kids[i]), *v = value_string(m->kids[i + 1]);
    s->meta_keys[s->n_meta] = k;
    s->meta_values[s->n_meta++] = v;
    if (!k || !v)
      return -ENOMEM;
  }
  return 0;
}

static char *scalar_dup(const fm_node *map, const char *key, bool *oom) {
  const fm_node *v = fm_map_get(map, key);
  if (!v || v->kind != FM_SCALAR)
    return NULL;
  char *r = upk_xstrdup(v->text);
  *oom |= !r;
  return r;
}

/* `seen` holds the keys so far: a duplicate is found by hash, not by a search per key. */
static int add_field(parser *p, upk_map *seen, const fm_node *k, const fm_node *v) {
  upk_skill *s = p->s;
  if (upk_map_get(seen, k->text)) {
    int line, col;
    upk_range r = fm_point(p, k->start, &line, &col);
    r.end_col = fm_range(p, k->start, k->end).end_col;
    if (issue(p, UPK_SEV_ERROR, "skill/yaml-duplicate-key", r,
              "Invalid YAML in frontmatter (line %d, column %d): duplicate key '%s'; the last "
              "one is used",
              line, col, k->text))
      return -ENOMEM;
  }
  upk_map_set(seen, k->text, (void *)k);
  upk_skill_field *f = upk_xrealloc(s->fields, (s->n_fields + 1) * sizeof *f);
  s->fields = f;
  f = &s->fields[s->n_fields++];
  f->key = upk_xstrdup(k->text);
  f->is_scalar = v->kind == FM_SCALAR;
  f->value = f->is_scalar ? upk_xstrdup(v->text) : NULL;
  f->key_range = fm_range(p, k->start, k->end);
  f->value_range = fm_range(p, v->start, v->end);
  return f->key && (f->value || !f->is_scalar) ? 0 : -ENOMEM;
}

static int warn_type(parser *p, const fm_node *v, const char *code, const char *fmt,
                     const char *arg) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, arg);
  return issue(p, UPK_SEV_WARNING, code, fm_range(p, v->start, v->end), "%s", msg);
}

/* Types skills-ref does not check but the specification defines. */
static int type_warnings(parser *p, const fm_node *root) {
  const fm_node *m = fm_map_get(root, "metadata"), *v;
  int rc = 0;
  if (m && m->kind != FM_MAP)
    rc = warn_type(p, m, "skill/metadata-not-map",
                   "Field 'metadata' should be a map of string keys to string values%s", "");
  for (size_t i = 1; !rc && m && m->kind == FM_MAP && i < m->n; i += 2)
    if (m->kids[i]->kind != FM_SCALAR && m->kids[i - 1]->kind == FM_SCALAR)
      rc = warn_type(p, m->kids[i], "skill/metadata-value-not-string",
                     "metadata '%s' should be a string; it is read as its Python str() form",
                     m->kids[i - 1]->text);
  if (!rc && (v = fm_map_get(root, "allowed-tools")) && v->kind != FM_SCALAR)
    rc = warn_type(p, v, "skill/allowed-tools-not-string",
                   "Field 'allowed-tools' should be one space-separated string, e.g. "
                   "\"Bash(git:*) Read\"%s",
                   "");
  if (!rc && (v = fm_map_get(root, "license")) && v->kind != FM_SCALAR)
    rc = warn_type(p, v, "skill/license-not-string",
                   "Field 'license' should be a string (a license name or a bundled file)%s", "");
  return rc;
}

static int take_fields(parser *p, const fm_node *root) {
  upk_skill *s = p->s;
  upk_map seen = {0};
  int frc = 0;
  for (size_t i = 0; !frc && i + 1 < root->n; i += 2) {
    const fm_node *k = root->kids[i];
    if (k->kind != FM_SCALAR) {
      int line, col;
      upk_range r = fm_point(p, k->start, &line, &col);
      if (issue(p, UPK_SEV_ERROR, "skill/yaml-complex-key", r,
                "Invalid YAML in frontmatter (line %d, column %d): keys must be plain text; "
                "this one is ignored",
                line, col))
        frc = -ENOMEM;
      continue;
    }
    frc = add_field(p, &seen, k, root->kids[i + 1]) ? -ENOMEM : 0;
  }
  upk_map_clear(&seen);
  if (frc)
    return frc;
  bool oom = false;
  s->name = scalar_dup(root, "name", &oom);
  s->description = scalar_dup(root, "description", &oom);
  s->license = scalar_dup(root, "license", &oom);
  s->compatibility = scalar_dup(root, "compatibility", &oom);
  s->allowed_tools = scalar_dup(root, "allowed-tools", &oom);
  const fm_node *m = fm_map_get(root, "metadata");
  if (oom || type_warnings(p, root))
    return -ENOMEM;
  return m && m->kind == FM_MAP ? take_metadata(s, m) : 0;
}

static int load_yaml(parser *p, size_t fb, size_t fe) {
  fm_doc doc;
  int rc = fm_parse(p->text + fb, fe - fb, &doc);
  if (rc == 0 && doc.failed) {
    rc = invalid_yaml(p, &doc);
  } else if (rc == 0 && (!doc.root || doc.root->kind != FM_MAP)) {
    upk_range r = doc.root ? fm_range(p, doc.root->start, doc.root->end) : upk_range_line(0, 0, 3);
    rc =
        fatal(p, "skill/frontmatter-not-mapping", r, "SKILL.md frontmatter must be a YAML mapping");
  } else if (rc == 0) {
    p->s->has_frontmatter = true;
    rc = yaml_issues(p, &doc);
    if (rc == 0)
      rc = take_fields(p, doc.root);
  }
  fm_doc_free(&doc);
  return rc;
}

/* A line holding only "---" (and trailing blanks): how agents find the
 * frontmatter's ends. */
static bool dash_line(const parser *p, size_t line) {
  size_t b = p->lm.start[line], e = upk_lm_line_end(&p->lm, (int)line);
  if (e - b < 3 || memcmp(p->text + b, "---", 3) != 0)
    return false;
  for (size_t i = b + 3; i < e; i++)
    if (p->text[i] != ' ' && p->text[i] != '\t')
      return false;
  return true;
}

static size_t next_line_if_blank(const parser *p, size_t off) {
  int line = upk_lm_line(&p->lm, off);
  size_t e = upk_lm_line_end(&p->lm, line);
  for (size_t i = off; i < e; i++)
    if (p->text[i] != ' ' && p->text[i] != '\t')
      return off;
  return p->lm.start[line + 1];
}

/* skills-ref: content.startswith("---"), then content.split("---", 2). Where
 * agents' line-based reading finds a later closing line, that is used (and
 * the difference reported). Sets *body to where the Markdown starts. */
static int split(parser *p, size_t *body) {
  *body = 0;
  if (p->len < 3 || memcmp(p->text, "---", 3) != 0)
    return fatal(p, "skill/no-frontmatter",
                 upk_range_line(0, 0, upk_lm_col(&p->lm, upk_lm_line_end(&p->lm, 0))),
                 "SKILL.md must start with YAML frontmatter (---)");
  const char *close = memmem(p->text + 3, p->len - 3, "---", 3);
  if (!close)
    return fatal(p, "skill/frontmatter-not-closed", upk_range_line(0, 0, 3),
                 "SKILL.md frontmatter not properly closed with ---");
  size_t idx = (size_t)(close - p->text), cl = 0;
  for (size_t i = 1; dash_line(p, 0) && i < p->lm.n && !cl; i++)
    if (dash_line(p, i))
      cl = i;
  if (cl && p->lm.start[cl] > idx) {
    upk_range r = upk_lm_range(&p->lm, idx, idx + 3);
    if (issue(p, UPK_SEV_ERROR, "skill/frontmatter-dashes", r,
              "skills-ref ends the frontmatter at the first \"---\" in the file, here on line %d "
              "instead of the closing line %zu: do not write \"---\" inside the frontmatter",
              r.line + 1, cl + 1))
      return -ENOMEM;
  }
  size_t fb = 3, fe = idx;
  if (cl) {
    fb = p->lm.start[1], fe = p->lm.start[cl];
    p->fm_line = 1, p->fm_cp_col = 0;
    p->s->fm_end_line = (int)cl;
    *body = p->lm.start[cl + 1];
  } else {
    p->fm_line = 0, p->fm_cp_col = 3;
    p->s->fm_end_line = upk_lm_line(&p->lm, idx);
    *body = next_line_if_blank(p, idx + 3);
  }
  return load_yaml(p, fb, fe);
}

int upk_skill_parse(const char *text, size_t len, const char *path, upk_skill *out,
                    upk_diags *diags) {
  memset(out, 0, sizeof *out);
  out->fm_end_line = -1;
  if (len > UPK_SKILL_MAX_BYTES) {
    upk_sdiag(diags, UPK_SEV_ERROR, "skill/too-large", upk_skill_whole_file(),
              "SKILL.md is %zu bytes; files over 10 MB (%u bytes) are refused", len,
              UPK_SKILL_MAX_BYTES);
    return -EFBIG;
  }
  if (path && set_paths(out, path))
    return -ENOMEM;
  parser p = {.s = out, .diags = diags};
  bool bom;
  size_t body = 0;
  int rc = prepare(&p, text ? text : "", text ? len : 0, &bom);
  if (rc == 0)
    rc = split(&p, &body);
  if (rc == 0) {
    out->body = upk_xstrdup(p.text + body);
    out->body_line = upk_lm_line(&p.lm, body);
    rc = out->body ? upk_skill_scan_body(out, &p.lm, body) : -ENOMEM;
    out->tokens = upk_skill_tokens(p.text, p.len);
  }
  upk_lm_free(&p.lm);
  free(p.text);
  return rc;
}

void upk_skill_free(upk_skill *s) {
  if (!s)
    return;
  free(s->path);
  free(s->dir);
  free(s->dir_name);
  free(s->name);
  free(s->description);
  free(s->license);
  free(s->compatibility);
  free(s->allowed_tools);
  for (size_t i = 0; i < s->n_fields; i++) {
    free(s->fields[i].key);
    free(s->fields[i].value);
  }
  free(s->fields);
  for (size_t i = 0; i < s->n_meta; i++) {
    free(s->meta_keys[i]);
    free(s->meta_values[i]);
  }
  free(s->meta_keys);
  free(s->meta_values);
  free(s->body);
  for (size_t i = 0; i < s->n_headings; i++)
    free(s->headings[i].text);
  free(s->headings);
  for (size_t i = 0; i < s->n_code; i++)
    free(s->code[i].lang);
  free(s->code);
  for (size_t i = 0; i < s->n_refs; i++)
    free(s->refs[i].target);
  free(s->refs);
  free(s->skill_file);
  upk_diags_free(&s->issues);
  if (s->meta) {
    upk_meta_free(s->meta);
    free(s->meta);
  }
  memset(s, 0, sizeof *s);
  s->fm_end_line = -1;
}
