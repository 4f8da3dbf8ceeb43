/* The code blocks of a Markdown file, found with cmark: what an agent copies into a shell is a
 * script, so the audit scans each block as one, in the language its info string names; and a
 * step's inline command (`1. Reset the data: \`mongosh "$URI" --eval ...\``) is one too. */
#include "skills/audit/audit_int.h"

#include <cmark.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

#define BLOCKS_MAX 4096 /* past it, the rest of the file is still scanned as prose */
#define CONTEXT_MAX 1024

/* Which code blocks are scripts, and the words that present a block or a step as what not to do
 * or as waiting for the user: skills/audit/rules/markdown/words.yaml, each list with what it
 * means, made into C at build time by rules/intent_tables.py. */
#include "skills/audit/audit_md_words.h"
#define COUNT(list) (sizeof list / sizeof *list)

/* Info strings of code an agent runs, by the audit's language names. An info string not here
 * and not in FENCE_DATA is taken as shell: a block with no language is usually a command. */
static const struct {
  const char *info, *lang;
} LANGS[] = {
    {"sh", "sh"},
    {"bash", "sh"},
    {"zsh", "sh"},
    {"ksh", "sh"},
    {"shell", "sh"},
    {"console", "sh"},
    {"shell-session", "sh"},
    {"sh-session", "sh"},
    {"shellsession", "sh"},
    {"terminal", "sh"},
    {"fish", "sh"},
    {"python", "python"},
    {"py", "python"},
    {"python3", "python"},
    {"ipython", "python"},
    {"pycon", "python"},
    {"js", "js"},
    {"javascript", "js"},
    {"ts", "js"},
    {"typescript", "js"},
    {"jsx", "js"},
    {"tsx", "js"},
    {"node", "js"},
    {"mjs", "js"},
    {"cjs", "js"},
    {"powershell", "powershell"},
    {"ps1", "powershell"},
    {"pwsh", "powershell"},
    {"ps", "powershell"},
    {"posh", "powershell"},
    {"ruby", "ruby"},
    {"rb", "ruby"},
    {"perl", "perl"},
    {"pl", "perl"},
    {"bat", "batch"},
    {"batch", "batch"},
    {"cmd", "batch"},
    {"dos", "batch"},
    {"batchfile", "batch"},
    {"php", "php"},
    {"lua", "lua"},
    {"go", "go"},
    {"golang", "go"},
    {"awk", "awk"},
    {"dockerfile", "dockerfile"},
    {"docker", "dockerfile"},
    {"makefile", "make"},
    {"make", "make"},
};

static const char DETECT_LANG[] = "detection";

/* The info string's first word ("{.python}", "bash title=x", "py3") as the audit's language;
 * DETECT_LANG for a detection rule's language, NULL for data and languages the rules do not
 * read. */
static const char *info_lang(const char *info) {
  char w[32];
  size_t n = 0;
  while (*info == ' ' || *info == '{' || *info == '.')
    info++;
  while (*info && *info != ' ' && *info != '}' && *info != ',' && *info != ':' && n < sizeof w - 1)
    w[n++] = *info++;
  w[n] = '\0';
  if (!n)
    return "sh";
  for (size_t i = 0; i < COUNT(LANGS); i++)
    if (!strcasecmp(w, LANGS[i].info))
      return LANGS[i].lang;
  for (size_t i = 0; i < COUNT(FENCE_DETECTION); i++)
    if (!strcasecmp(w, FENCE_DETECTION[i]))
      return DETECT_LANG;
  for (size_t i = 0; i < COUNT(FENCE_DATA); i++)
    if (!strcasecmp(w, FENCE_DATA[i]))
      return !strcasecmp(w, "yaml") || !strcasecmp(w, "yml") ? "yaml" : NULL;
  return "sh";
}

/* A YAML block shaped as a Sigma rule (its `logsource:` and `detection:` keys). */
static bool sigma_shaped(const char *lit) {
  return lit && strstr(lit, "logsource:") && strstr(lit, "detection:");
}

/* The text under `n`, less the nodes of type `skip` (code blocks, or a paragraph's code spans:
 * a flag named --dangerously-... says nothing of how the step is presented), up to `cap`. */
static void node_text(cmark_node *n, cmark_node_type skip, char *buf, size_t cap, size_t *len) {
  for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
    const char *lit = cmark_node_get_literal(c);
    if (lit && cmark_node_get_type(c) != skip) {
      size_t k = strlen(lit);
      k = k < cap - 1 - *len ? k : cap - 1 - *len;
      memcpy(buf + *len, lit, k);
      *len += k;
    }
    node_text(c, skip, buf, cap, len);
  }
  buf[*len] = '\0';
}

static bool negation_quotes(const char *text) {
  for (size_t i = 0; i < COUNT(BLOCK_NEGATION); i++)
    for (const char *p = text; (p = strcasestr(p, BLOCK_NEGATION[i])); p++) {
      const char *w = p + strlen(BLOCK_NEGATION[i]);
      w += strspn(w, " ");
      for (size_t j = 0; j < COUNT(NEGATED_STEP); j++)
        if (!strncasecmp(w, NEGATED_STEP[j], strlen(NEGATED_STEP[j])))
          return true;
    }
  return false;
}

static bool quotes(const char *text) {
  for (size_t i = 0; i < COUNT(QUOTED); i++)
    if (strcasestr(text, QUOTED[i]))
      return true;
  return negation_quotes(text);
}

static bool says_quoted(cmark_node *n) {
  char buf[CONTEXT_MAX];
  size_t len = 0;
  node_text(n, CMARK_NODE_CODE_BLOCK, buf, sizeof buf, &len);
  return quotes(buf);
}

/* The block's first line is a comment that says so ("# BAD:", "// DANGEROUS: no validation"). */
static bool first_comment_quoted(const char *lit) {
  char line[CONTEXT_MAX];
  size_t n = strcspn(lit, "\n");
  n = n < sizeof line - 1 ? n : sizeof line - 1;
  memcpy(line, lit, n);
  line[n] = '\0';
  const char *p = line + strspn(line, " \t");
  bool comment = *p == '#' || !strncmp(p, "//", 2) || !strncmp(p, "--", 2) ||
                 !strncmp(p, "/*", 2) || !strncasecmp(p, "rem ", 4) || !strncmp(p, "::", 2);
  return comment && quotes(p);
}

/* Whether the paragraph just before the block, or the heading over it, presents it as an
 * example of what not to do (the file's prose scan still reports it, at prose severity). */
static bool quoted(cmark_node *block) {
  const char *lit = cmark_node_get_literal(block);
  if (lit && first_comment_quoted(lit))
    return true;
  cmark_node *p = cmark_node_previous(block);
  if (p &&
      (cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH ||
       cmark_node_get_type(p) == CMARK_NODE_HEADING) &&
      says_quoted(p))
    return true;
  for (; p; p = cmark_node_previous(p))
    if (cmark_node_get_type(p) == CMARK_NODE_HEADING)
      return says_quoted(p);
  return false;
}

typedef struct lines {
  const char *data;
  size_t len, at; /* the offset of line `line` (1-based, as cmark counts) */
  int line;
} lines;

/* The offset of 1-based line `want` (or len past the end); calls go forward. */
static size_t line_at(lines *l, int want) {
  while (l->line < want && l->at < l->len) {
    const char *nl = memchr(l->data + l->at, '\n', l->len - l->at);
    l->at = nl ? (size_t)(nl - l->data) + 1 : l->len;
    l->line++;
  }
  return l->line < want ? l->len : l->at;
}

/* The block's content lines as a slice of the file: a fenced block's lines follow its opening
 * fence (its literal has one line fewer than its span), an indented one's are its span. */
static bool block_slice(cmark_node *n, lines *l, upk__audit_block *b) {
  const char *lit = cmark_node_get_literal(n);
  int nl = 0, first = cmark_node_get_start_line(n);
  for (const char *p = lit ? lit : ""; *p; p++)
    nl += *p == '\n';
  if (!nl || first < l->line)
    return false;
  if (cmark_node_get_end_line(n) - first + 1 > nl)
    first++;
  b->at = line_at(l, first);
  b->len = line_at(l, first + nl) - b->at;
  return b->len > 0;
}

/* ---- inline code ---- */

#define SPANS_MAX 1024 /* inline commands of one file scanned as scripts; the rest as prose */
#define SPAN_MIN 8     /* bytes: shorter spans name a flag or a file, not a command line */

static bool asks_first(const char *text) {
  for (size_t i = 0; i < COUNT(CONSENT); i++)
    if (strcasestr(text, CONSENT[i]))
      return true;
  for (size_t i = 0; i < COUNT(WARNS); i++)
    if (strcasestr(text, WARNS[i]))
      return true;
  return false;
}

/* A code span that reads as a command line: a program's name, then its arguments. */
static bool command_shaped(const char *lit) {
  unsigned char c = (unsigned char)lit[0];
  return strlen(lit) >= SPAN_MIN && strchr(lit, ' ') &&
         ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '~' || c == '/' ||
          c == '$');
}

/* The paragraph holding a span presents its commands as steps to take: not as what not to do,
 * not under a heading that says so, and not only after the user's yes. */
static bool step_paragraph(cmark_node *para) {
  char buf[CONTEXT_MAX];
  size_t len = 0;
  node_text(para, CMARK_NODE_CODE, buf, sizeof buf, &len);
  if (quotes(buf) || asks_first(buf))
    return false;
  cmark_node *top = para;
  while (cmark_node_parent(top) &&
         cmark_node_get_type(cmark_node_parent(top)) != CMARK_NODE_DOCUMENT)
    top = cmark_node_parent(top);
  for (cmark_node *p = cmark_node_previous(top); p; p = cmark_node_previous(p))
    if (cmark_node_get_type(p) == CMARK_NODE_HEADING)
      return !says_quoted(p);
  return true;
}

typedef struct spans {
  lines first, last;   /* forward-only line offsets of the paragraphs' first and past-last lines */
  cmark_node *para;    /* the paragraph of the last span */
  bool step;           /* whether it presents steps */
  size_t from, to, at; /* its bytes, and where the next span's search starts */
} spans;

/* A command-shaped code span in a step, as a block of shell at its bytes in the file (the
 * first occurrence of its text after the paragraph's previous span; none when cmark changed
 * the text, as it does to a span that runs over a line break). */
static bool span_slice(spans *sp, cmark_node *n, upk__audit_block *b) {
  cmark_node *para = cmark_node_parent(n);
  const char *lit = cmark_node_get_literal(n);
  if (!para || cmark_node_get_type(para) != CMARK_NODE_PARAGRAPH || !lit || !command_shaped(lit))
    return false;
  if (para != sp->para) {
    sp->para = para;
    sp->step = step_paragraph(para);
    sp->from = sp->at = line_at(&sp->first, cmark_node_get_start_line(para));
    sp->to = line_at(&sp->last, cmark_node_get_end_line(para) + 1);
  }
  size_t k = strlen(lit);
  if (!sp->step || sp->at >= sp->to || k > sp->to - sp->at)
    return false;
  const char *hit = memmem(sp->first.data + sp->at, sp->to - sp->at, lit, k);
  if (!hit)
    return false;
  b->at = (size_t)(hit - sp->first.data);
  b->len = k;
  b->lang = "sh";
  sp->at = b->at + k;
  return true;
}

static int by_offset(const void *a, const void *b) {
  size_t x = ((const upk__audit_block *)a)->at, y = ((const upk__audit_block *)b)->at;
  return x < y ? -1 : x > y;
}

size_t upk__audit_md_blocks(const char *data, size_t len, upk__audit_block **out) {
  cmark_node *doc = cmark_parse_document(data, len, CMARK_OPT_DEFAULT);
  cmark_iter *it = cmark_iter_new(doc);
  lines l = {.data = data, .len = len, .line = 1};
  spans sp = {.first = l, .last = l};
  size_t n = 0, cap = 0, n_spans = 0;
  *out = NULL;
  for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE && n < BLOCKS_MAX;) {
    cmark_node *node = cmark_iter_get_node(it);
    upk__audit_block b = {0};
    if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(node) == CMARK_NODE_CODE &&
        n_spans < SPANS_MAX && span_slice(&sp, node, &b)) {
      if (n == cap)
        *out = upk_xrealloc(*out, (cap = cap ? cap * 2 : 8) * sizeof **out);
      (*out)[n++] = b;
      n_spans++;
      continue;
    }
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK)
      continue;
    b.lang = info_lang(cmark_node_get_fence_info(node));
    if (b.lang && !strcmp(b.lang, "yaml"))
      b.lang = sigma_shaped(cmark_node_get_literal(node)) ? DETECT_LANG : NULL;
    if (!b.lang || (b.lang != DETECT_LANG && quoted(node)))
      continue;
    if (b.lang == DETECT_LANG)
      b.lang = NULL;
    if (!block_slice(node, &l, &b))
      continue;
    if (n == cap)
      *out = upk_xrealloc(*out, (cap = cap ? cap * 2 : 8) * sizeof **out);
    (*out)[n++] = b;
  }
  cmark_iter_free(it);
  cmark_node_free(doc);
  if (n_spans && *out)
    qsort(*out, n, sizeof **out, by_offset);
  return n;
}
