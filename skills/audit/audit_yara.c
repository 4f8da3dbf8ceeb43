/* The audit's text rules: YARA rule files (skills/audit/rules/, embedded at build time) compiled
 * once and scanned over each file's bytes, each match a finding on its line. */
#include "skills/audit/audit_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <yara.h>

#include "common/xalloc.h"
#include "skills/cmark_lazy.h"
#include "skills/audit/audit_rules.h"
#include "skills/unicode.h"

#define LINES_PER_RULE 5 /* findings of one rule in one file: the rest say nothing new */
#define EVIDENCE_MAX 200 /* bytes of evidence, before escaping */

static YR_RULES *rules;
static char compile_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The build's saved rules, read as a stream from the bytes linked into the binary. */
struct blob_reader {
  const unsigned char *at, *end;
};

static size_t read_blob(void *ptr, size_t size, size_t count, void *user_data) {
  struct blob_reader *b = user_data;
  size_t left = (size_t)(b->end - b->at);
  if (!size || count > left / size)
    return 0; /* libyara asks for whole items: a short blob is a failed load */
  memcpy(ptr, b->at, size * count);
  b->at += size * count;
  return count;
}

int upk__audit_rules_load(const unsigned char *at, const unsigned char *end, YR_RULES **out) {
  struct blob_reader b = {at, end};
  YR_STREAM stream = {.user_data = &b, .read = read_blob};
  *out = NULL;
  if (!at || end <= at || yr_rules_load_stream(&stream, out) != ERROR_SUCCESS) {
    *out = NULL; /* libyara may leave it set on failure */
    return -1;
  }
  /* libyara reads the relocations until a read comes back short, so a form cut inside them
   * loads: a whole one is read to its last byte. */
  if (b.at == b.end)
    return 0;
  yr_rules_destroy(*out);
  *out = NULL;
  return -1;
}

/* Once per process: libyara's state and the rules live until exit (yr_finalize would race a
 * pool thread still scanning). The rules the build compiled load in milliseconds; the rule text
 * is compiled (about 0.4 s of CPU) only when they do not load, as when the libyara found at run
 * time saves another format version than the one the binary was built with. */
static void load_rules(void) {
  const char *no_markdown = upk_cmark_error(); /* the Markdown detectors would see nothing */
  if (no_markdown) {
    snprintf(compile_error, sizeof compile_error, "%s", no_markdown);
    return;
  }
  if (yr_initialize() != ERROR_SUCCESS) {
    snprintf(compile_error, sizeof compile_error, "libyara could not start");
    return;
  }
  if (upk__audit_rules_load(upk__audit_rules_yarc, upk__audit_rules_yarc_end, &rules) == 0)
    return;
  upk__audit_rules_compile(&rules, compile_error, sizeof compile_error);
}

const char *upk__audit_rules_error(void) {
  pthread_once(&once, load_rules);
  return rules ? NULL : compile_error;
}

/* ---- evidence ---- */

/* Characters shown escaped in evidence: controls and what a reader cannot see. */
static bool shown_escaped(uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xAD ||
         (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF || cp == 0x3164 || cp == 0x115F ||
         cp == 0x1160 || cp == 0x180E || (cp >= 0xE0000 && cp <= 0xE007F);
}

/* s[0..n) as printable UTF-8: invisible characters as \u{XXXX}, bad bytes as \xHH. */
static char *escape(const char *s, size_t n) {
  size_t cap = n * 10 + 1, o = 0;
  char *out = upk_xmalloc(cap);
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t k = upk_u8_decode(s + i, n - i, &cp);
    if (!k)
      o += (size_t)snprintf(out + o, cap - o, "\\x%02X", (unsigned char)s[i]);
    else if (cp == '\t')
      out[o++] = ' ';
    else if (shown_escaped(cp))
      o += (size_t)snprintf(out + o, cap - o, "\\u{%04X}", (unsigned)cp);
    else
      memcpy(out + o, s + i, k), o += k;
    i += k ? k : 1;
  }
  out[o] = '\0';
  return out;
}

/* The match's line, cut to a window around the match, trimmed, escaped. */
static char *evidence(const char *d, size_t len, size_t line_start, size_t at) {
  size_t end = at; /* the match's line only, even where the match ran past its end */
  while (end < len && d[end] != '\n' && end - at < EVIDENCE_MAX)
    end++;
  size_t from = line_start + 60 < at ? at - 60 : line_start;
  if (end - from > EVIDENCE_MAX)
    end = from + EVIDENCE_MAX;
  while (from > line_start && ((unsigned char)d[from] & 0xC0) == 0x80)
    from--; /* not inside a character */
  while (end < len && end > from && ((unsigned char)d[end] & 0xC0) == 0x80)
    end--;
  while (from < end && (d[from] == ' ' || d[from] == '\t'))
    from++;
  while (end > from &&
         (d[end - 1] == ' ' || d[end - 1] == '\t' || d[end - 1] == '\r' || d[end - 1] == '\n'))
    end--;
  return escape(d + from, end - from);
}

/* ---- scan ---- */

typedef struct scan {
  const char *rel, *data, *lang;
  size_t len;
  bool prose, block; /* Markdown or text; a pass over a Markdown code block */
  upk_diags *out;
  upk__audit_lines lines; /* the offset of each line's start */
  upk__audit_view view;   /* what libyara scans; its offsets map to data's from base on */
  size_t base;            /* where the scanned part starts: 0, or a Markdown code block */
  size_t from;            /* out's first finding from this file */
} scan;

static upk_severity severity_named(const char *name) {
  return !name                     ? 0
         : !strcmp(name, "high")   ? UPK_SEV_ERROR
         : !strcmp(name, "medium") ? UPK_SEV_WARNING
         : !strcmp(name, "low")    ? UPK_SEV_INFO
                                   : 0;
}

typedef struct rule_meta {
  const char *id, *category, *message;
  const char *name; /* the rule's own: its identifier in its .yar file */
  upk_severity sev;
  bool own_service; /* drop matches that send a secret to its own service (audit_own.c) */
  bool unset_var;   /* drop deletes under a variable the file sets or checks (audit_unset.c) */
} rule_meta;

/* The rule's meta; false when it is not a finding (no id or severity). The severity is the one
 * named after the file's language (e.g. dockerfile = "medium"), else `block` in a Markdown code
 * block, else `prose` in Markdown and text, else `severity`. */
static bool read_meta(const YR_RULE *rule, const scan *s, rule_meta *m) {
  const YR_META *meta;
  const char *sev = NULL, *prose_sev = NULL, *lang_sev = NULL, *block_sev = NULL;
  memset(m, 0, sizeof *m);
  m->name = rule->identifier;
  yr_rule_metas_foreach(rule, meta) {
    if (meta->type != META_TYPE_STRING)
      continue;
    if (!strcmp(meta->identifier, "id"))
      m->id = meta->string;
    else if (!strcmp(meta->identifier, "category"))
      m->category = meta->string;
    else if (!strcmp(meta->identifier, "message"))
      m->message = meta->string;
    else if (!strcmp(meta->identifier, "severity"))
      sev = meta->string;
    else if (!strcmp(meta->identifier, "prose"))
      prose_sev = meta->string;
    else if (!strcmp(meta->identifier, "block"))
      block_sev = meta->string;
    else if (!strcmp(meta->identifier, "own_service"))
      m->own_service = true;
    else if (!strcmp(meta->identifier, "unset_var"))
      m->unset_var = true;
    else if (!strcmp(meta->identifier, s->lang))
      lang_sev = meta->string;
  }
  m->sev = severity_named(lang_sev                ? lang_sev
                          : s->block && block_sev ? block_sev
                          : s->prose && prose_sev ? prose_sev
                                                  : sev);
  return m->id && m->sev;
}

/* Another rule with the same id already reported this line: keep the more severe one. */
static bool merged(scan *s, const rule_meta *m, int line, char **ev) {
  for (size_t i = s->from; i < s->out->len; i++) {
    upk_diag *d = &s->out->items[i];
    if (d->range.line != line || strcmp(d->code, m->id))
      continue;
    if (m->sev < d->severity) {
      upk__audit_adjust(d, m->sev, "a more severe rule of the same id matched this line");
      free(d->message);
      d->message = upk_xstrdup(m->message ? m->message : m->id);
      free(d->evidence);
      d->evidence = *ev;
      *ev = NULL;
      free(d->rule);
      d->rule = upk_xstrdup(m->name);
    }
    free(*ev);
    return true;
  }
  return false;
}

static void add_finding(scan *s, const rule_meta *m, int line, int col, int end_col, char *ev) {
  if (merged(s, m, line, &ev))
    return;
  upk_range r = line < 0 ? (upk_range){-1, 0, -1, 0} : upk_range_line(line, col, end_col);
  upk_diags_add(s->out, m->sev, m->id, UPK_AUDIT_SOURCE, r, "%s", m->message ? m->message : m->id);
  upk_diag *d = &s->out->items[s->out->len - 1];
  d->file = upk_xstrdup(s->rel);
  d->category = m->category ? upk_xstrdup(m->category) : NULL;
  d->evidence = ev;
  d->rule = upk_xstrdup(m->name);
}

/* A match, copied out of libyara's record (which may sit unaligned in its arena). */
typedef struct hit {
  size_t at, len;
} hit;

/* The next public match from *p on (a string's list starts at ctx->matches[idx].head). */
static bool next_hit(const scan *s, const YR_MATCH **p, hit *h) {
  while (*p) {
    YR_MATCH m;
    memcpy(&m, (const void *)*p, sizeof m);
    *p = m.next;
    if (m.is_private)
      continue;
    size_t at = (size_t)(m.base + m.offset);
    h->at = s->base + upk__audit_view_orig(&s->view, at);
    h->len = s->base + upk__audit_view_orig(&s->view, at + (size_t)m.match_length) - h->at;
    return true;
  }
  return false;
}

/* One match: a finding on its line unless this rule already has one there. */
static void report_match(scan *s, const rule_meta *m, hit h, int *lines, int *n) {
  size_t at = h.at, n_bytes = h.len;
  while (n_bytes > 1 && at < s->len && (s->data[at] == '\n' || s->data[at] == ' ')) {
    at++; /* a pattern that starts at a line's start matches the newline before it */
    n_bytes--;
  }
  if (at >= s->len)
    return;
  int line = upk__audit_line_of(&s->lines, at);
  for (int i = 0; i < *n; i++)
    if (lines[i] == line)
      return;
  lines[(*n)++] = line;
  size_t ls = s->lines.starts[line];
  size_t le = ls;
  while (le < s->len && s->data[le] != '\n')
    le++;
  size_t end = at + n_bytes < le ? at + n_bytes : le;
  int col = upk_utf16_units(s->data + ls, at - ls);
  int end_col = col + upk_utf16_units(s->data + at, end - at);
  add_finding(s, m, line, col, end_col, evidence(s->data, s->len, ls, at));
}

/* A lock file holds hundreds of registry URLs, each a $veto match: the list grows (to YARA's
 * own cap on a string's matches), so a match past the first few is still vetoed. */
#define VETOES_MAX (1u << 20)
#define NEG_LINES_MAX 1024 /* a translation file: a right-to-left letter on each line */

typedef struct veto {
  size_t *at, n, cap;            /* the $veto* matches' offsets, sorted */
  int neg[NEG_LINES_MAX], n_neg; /* distinct lines holding a $neg* match, in file order */
} veto;

static int cmp_offset(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* Matches of the rule's $veto* strings: a reported match that holds one is dropped (a
 * well-known vendor's installer inside a download piped to a shell). */
/* The line a match is on (as report_match: one that starts at a line's start holds the
 * newline before it). */
static int match_line(const scan *s, hit h) {
  size_t at = h.at;
  while (at + 1 < s->len && at + 1 < h.at + h.len && (s->data[at] == '\n' || s->data[at] == ' '))
    at++;
  return at < s->len ? upk__audit_line_of(&s->lines, at) : -1;
}

static void collect_vetoes(const scan *s, YR_SCAN_CONTEXT *ctx, const YR_RULE *rule, veto *v) {
  const YR_STRING *str;
  hit h;
  v->at = NULL;
  v->n = v->cap = 0;
  v->n_neg = 0;
  yr_rule_strings_foreach(rule, str) {
    const YR_MATCH *p = ctx->matches[str->idx].head;
    while (!strncmp(str->identifier, "$veto", 5) && v->n < VETOES_MAX && next_hit(s, &p, &h)) {
      v->at = upk_xgrow(v->at, &v->cap, v->n + 1, sizeof *v->at);
      v->at[v->n++] = h.at;
    }
    while (!strncmp(str->identifier, "$neg", 4) && v->n_neg < NEG_LINES_MAX &&
           next_hit(s, &p, &h)) {
      int line = match_line(s, h);
      if (!v->n_neg || v->neg[v->n_neg - 1] != line)
        v->neg[v->n_neg++] = line;
    }
  }
  if (v->n > 1)
    qsort(v->at, v->n, sizeof *v->at, cmp_offset); /* two $veto strings' lists interleave */
}

/* A match holding a $veto* match, or on a line holding a $neg* match (a negation or a
 * warning: "never run curl | sh", "do not ignore the user"), is not reported. */
static bool vetoed(const scan *s, const veto *v, hit h) {
  size_t lo = 0, hi = v->n; /* the first veto at or after the match's start */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v->at[mid] < h.at)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < v->n && v->at[lo] < h.at + h.len)
    return true;
  int line = match_line(s, h);
  for (int i = 0; i < v->n_neg; i++)
    if (v->neg[i] == line)
      return true;
  return false;
}

/* A matching rule: a finding per line its strings matched (context strings, named $ctx*,
 * only make the condition true; $veto* ones drop the matches they fall in), or one for the
 * whole file when the rule has no other strings. */
static int on_match(YR_SCAN_CONTEXT *ctx, int message, void *data, void *user) {
  scan *s = user;
  rule_meta m;
  if (message != CALLBACK_MSG_RULE_MATCHING || !read_meta(data, s, &m))
    return CALLBACK_CONTINUE;
  const YR_RULE *rule = data;
  const YR_STRING *str;
  int lines[LINES_PER_RULE], n = 0, reportable = 0;
  veto v;
  hit h;
  collect_vetoes(s, ctx, rule, &v);
  yr_rule_strings_foreach(rule, str) {
    if (!strncmp(str->identifier, "$ctx", 4) || !strncmp(str->identifier, "$veto", 5) ||
        !strncmp(str->identifier, "$neg", 4))
      continue;
    reportable++;
    const YR_MATCH *p = ctx->matches[str->idx].head;
    while (n < LINES_PER_RULE && next_hit(s, &p, &h))
      if (!vetoed(s, &v, h) &&
          !(m.own_service && upk__audit_own_service(s->data, s->len, h.at, h.len)) &&
          !(m.unset_var && upk__audit_unset_var(s->data, s->len, h.at, h.len)))
        report_match(s, &m, h, lines, &n);
  }
  free(v.at);
  if (!reportable) /* a condition on the file alone */
    add_finding(s, &m, -1, 0, 0, NULL);
  return CALLBACK_CONTINUE;
}

/* One pass of the rules over data[base, base + n) as language `lang`, for at most
 * `timeout_s`, with scanner `sc` (its externals and callback set here): 0, -ETIMEDOUT or
 * -EIO. */
static int scan_with(scan *s, YR_SCANNER *sc, size_t base, size_t n, const char *lang,
                     int timeout_s) {
  s->lang = lang;
  s->prose = !strcmp(lang, "markdown") || !strcmp(lang, "text");
  s->block = base > 0 || n < s->len;
  s->base = base;
  yr_scanner_define_string_variable(sc, "lang", lang);
  yr_scanner_define_boolean_variable(sc, "is_prose", s->prose);
  yr_scanner_define_boolean_variable(sc, "is_script", upk__audit_is_script(lang));
  yr_scanner_set_callback(sc, on_match, s);
  yr_scanner_set_timeout(sc, timeout_s);
  upk__audit_view_make(&s->view, s->data + base, n);
  int rc = yr_scanner_scan_mem(sc, (const uint8_t *)s->view.data, s->view.len);
  upk__audit_view_free(&s->view);
  if (rc == ERROR_SCAN_TIMEOUT)
    return -ETIMEDOUT;
  return rc != ERROR_SUCCESS && rc != ERROR_TOO_MANY_MATCHES ? -EIO : 0;
}

/* scan_with on a scanner of its own: 0, -ETIMEDOUT, -ENOMEM or -EIO. */
static int scan_part(scan *s, size_t base, size_t n, const char *lang, int timeout_s) {
  YR_SCANNER *sc = NULL;
  if (yr_scanner_create(rules, &sc) != ERROR_SUCCESS)
    return -ENOMEM;
  int rc = scan_with(s, sc, base, n, lang, timeout_s);
  yr_scanner_destroy(sc);
  return rc;
}

/* A detection rule's block (b->lang NULL): the prose scan's high findings on its lines are
 * medium, since the attacks it quotes are what it searches logs for. */
static void demote_detection(scan *s, const upk__audit_block *b) {
  int first = upk__audit_line_of(&s->lines, b->at),
      last = upk__audit_line_of(&s->lines, b->at + b->len - 1);
  for (size_t i = s->from; i < s->out->len; i++) {
    upk_diag *d = &s->out->items[i];
    if (d->severity == UPK_SEV_ERROR && d->range.line >= first && d->range.line <= last)
      upk__audit_adjust(d, UPK_SEV_WARNING,
                        "inside a detection rule (Sigma, YARA, KQL, SPL, Snort): what it "
                        "searches logs for, not what it runs");
  }
}

/* A Markdown file's code blocks, each scanned again as a script of its language: findings on
 * the file's own lines, merged with the prose scan's (the more severe kept). The file's scan
 * time covers them all. */
static int scan_blocks(scan *s, int timeout_s) {
  upk__audit_block *b;
  size_t n = upk__audit_md_blocks(s->data, s->len, &b);
  time_t end = time(NULL) + timeout_s;
  YR_SCANNER *sc = NULL; /* one for every block and inline command: a file may hold hundreds */
  int rc = n && yr_scanner_create(rules, &sc) != ERROR_SUCCESS ? -ENOMEM : 0;
  for (size_t i = 0; i < n && !rc; i++) {
    time_t left = end - time(NULL);
    if (!b[i].lang)
      demote_detection(s, &b[i]);
    else
      rc = left > 0 ? scan_with(s, sc, b[i].at, b[i].len, b[i].lang, (int)left) : -ETIMEDOUT;
  }
  if (sc)
    yr_scanner_destroy(sc);
  free(b);
  return rc;
}

int upk__audit_scan(const char *rel, const char *data, size_t len, const char *lang, int timeout_s,
                    upk_diags *out) {
  if (upk__audit_rules_error())
    return -EINVAL;
  scan s = {.rel = rel, .data = data, .len = len, .out = out, .from = out->len};
  upk__audit_lines_make(&s.lines, s.data, s.len);
  time_t start = time(NULL);
  int rc = scan_part(&s, 0, len, lang, timeout_s);
  if (!rc && !strcmp(lang, "markdown"))
    rc = scan_blocks(&s, timeout_s - (int)(time(NULL) - start));
  upk__audit_lines_free(&s.lines);
  return rc;
}
