/* Trace condensation: reading a Markdown agent log with cmark.
 *
 * Roles come from headings or paragraph prefixes ("## User", "Assistant:");
 * text before any marker is the person's. Shell blocks are commands ("$ "
 * lines, each followed by its output) or whole scripts; text/log/output
 * blocks are the previous command's output; other code blocks are files,
 * named by their info string ("```python src/app.py", "title=...") or by a
 * path in the paragraph just before them. */
#include <cmark.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_int.h"
#include "common/xalloc.h"

typedef struct {
  ctrace *t;
  bool user;      /* the role of the text being read */
  char *last_cmd; /* for output blocks */
  char path[256]; /* a path named just before a code block */
  size_t unnamed; /* code blocks without a name */
} mdread;

static bool word_in(const char *w, const char *const *set) {
  for (; *set; set++)
    if (strcasecmp(w, *set) == 0)
      return true;
  return false;
}

static const char *const SHELL[] = {
    "bash",          "sh",           "shell",      "zsh", "console", "terminal",
    "shell-session", "shellsession", "powershell", "ps1", NULL};
static const char *const OUTPUT[] = {"text",   "txt",    "output", "log", "plaintext",
                                     "stderr", "stdout", "",       NULL};

static bool path_like(const char *s, size_t n) {
  if (n == 0 || n >= 256 || !(memchr(s, '.', n) || memchr(s, '/', n)))
    return false;
  for (size_t i = 0; i < n; i++)
    if (isspace((unsigned char)s[i]) || s[i] == '`' || s[i] == '(' || s[i] == ',')
      return false;
  return isalnum((unsigned char)s[n - 1]) && s[0] != '.' ? true : s[0] == '.' && n > 2;
}

static int set_last(mdread *m, const char *cmd) {
  free(m->last_cmd);
  m->last_cmd = upk_xstrdup(cmd);
  return m->last_cmd ? 0 : -ENOMEM;
}

/* A shell session: "$ cmd" lines, each followed by its output. */
static int session(mdread *m, const char *code) {
  char *out = NULL;
  size_t out_len = 0;
  FILE *f = NULL;
  int rc = 0;
  for (const char *p = code; rc == 0 && *p;) {
    size_t n = strcspn(p, "\n");
    if (n >= 2 && p[0] == '$' && p[1] == ' ') {
      if (f && (fclose(f) || (rc = upk__ct_output(m->t, m->last_cmd, out, false))))
        rc = rc ? rc : -ENOMEM;
      free(out);
      out = NULL;
      f = NULL;
      char *cmd = upk_xstrndup(p + 2, n - 2);
      rc = rc ? rc : cmd ? upk__ct_command(m->t, cmd) : -ENOMEM;
      rc = rc ? rc : set_last(m, cmd);
      free(cmd);
    } else if (m->last_cmd) {
      if (!f)
        f = upk_xmemstream(&out, &out_len);
      fprintf(f, "%.*s\n", (int)n, p);
    }
    p += n + (p[n] == '\n');
  }
  if (f && fclose(f) == 0 && rc == 0)
    rc = upk__ct_output(m->t, m->last_cmd, out, false);
  free(out);
  return rc;
}

/* The name of a code block: the info string's second word or title=... */
static bool info_path(const char *info, char *path, size_t cap) {
  const char *t = strstr(info, "title=");
  const char *w = t ? t + 6 : info + strcspn(info, " \t");
  w += strspn(w, " \t\"'");
  size_t n = strcspn(w, " \t\"'}");
  if (!path_like(w, n) || n >= cap)
    return false;
  snprintf(path, cap, "%.*s", (int)n, w);
  return true;
}

static int code_block(mdread *m, cmark_node *node) {
  const char *info = cmark_node_get_fence_info(node), *code = cmark_node_get_literal(node);
  char lang[32];
  info = info ? info : "";
  code = code ? code : "";
  snprintf(lang, sizeof lang, "%.*s", (int)strcspn(info, " \t{"), info);
  bool prompts = strncmp(code, "$ ", 2) == 0 || strstr(code, "\n$ ");
  int rc = 0;
  char path[256];
  if (prompts && (word_in(lang, SHELL) || word_in(lang, OUTPUT)))
    rc = session(m, code);
  else if (word_in(lang, SHELL) && !m->path[0]) {
    rc = upk__ct_command(m->t, code);
    rc = rc ? rc : set_last(m, code);
  } else if (word_in(lang, OUTPUT) && !m->path[0] && !info_path(info, path, sizeof path))
    rc = upk__ct_output(m->t, m->last_cmd, code, false);
  else if (info_path(info, path, sizeof path))
    rc = upk__ct_write(m->t, path, code);
  else if (m->path[0])
    rc = upk__ct_write(m->t, m->path, code);
  else {
    snprintf(path, sizeof path, "(unnamed %s block %zu)", lang[0] ? lang : "code", ++m->unnamed);
    rc = upk__ct_write(m->t, path, code);
  }
  m->path[0] = '\0';
  return rc;
}

/* Plain text of a block, inline code kept; the last path-like inline code
 * (or "path:" word) is remembered for the next code block. */
static char *block_text(mdread *m, cmark_node *block) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  m->path[0] = '\0';
  cmark_iter *it = cmark_iter_new(block);
  cmark_event_type ev;
  while (it && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    cmark_node_type ty = cmark_node_get_type(n);
    const char *lit = cmark_node_get_literal(n);
    if (ev != CMARK_EVENT_ENTER)
      continue;
    if (ty == CMARK_NODE_TEXT)
      fputs(lit ? lit : "", f);
    else if (ty == CMARK_NODE_CODE) /* kept as code: names, flags, calls */
      fprintf(f, "`%s`", lit ? lit : "");
    else if (ty == CMARK_NODE_SOFTBREAK || ty == CMARK_NODE_LINEBREAK)
      fputc('\n', f);
    if (ty == CMARK_NODE_CODE && lit && path_like(lit, strlen(lit)))
      snprintf(m->path, sizeof m->path, "%s", lit);
  }
  cmark_iter_free(it);
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  size_t n = strlen(buf);
  while (n && isspace((unsigned char)buf[n - 1]))
    n--;
  if (!m->path[0] && n && buf[n - 1] == ':') { /* "Save this as src/x.cu:" */
    size_t s = n - 1;
    while (s && !isspace((unsigned char)buf[s - 1]))
      s--;
    if (path_like(buf + s, n - 1 - s))
      snprintf(m->path, sizeof m->path, "%.*s", (int)(n - 1 - s), buf + s);
  }
  return buf;
}

/* A role marker: a heading or a prefix such as "User:" / "**Assistant**". */
static int role_of(const char *text) {
  static const char *const users[] = {"user", "human", "you", "prompt", "task", NULL};
  static const char *const agents[] = {"assistant", "claude", "agent", "ai",
                                       "model",     "codex",  NULL};
  char w[24];
  size_t i = 0;
  while (*text && !isalpha((unsigned char)*text))
    text++;
  while (i < sizeof w - 1 && isalpha((unsigned char)text[i])) {
    w[i] = text[i];
    i++;
  }
  w[i] = '\0';
  const char *after = text + i;
  after += strspn(after, "*_ ");
  bool marker = *after == ':' || *after == '\0' || *after == '\n';
  if (!marker)
    return -1;
  return word_in(w, users) ? 1 : word_in(w, agents) ? 0 : -1;
}

static int prose(mdread *m, cmark_node *node, bool heading) {
  char *text = block_text(m, node);
  if (!text)
    return -ENOMEM;
  int role = role_of(text), rc = 0;
  if (role >= 0)
    m->user = role == 1;
  if (heading || (role >= 0 && strlen(text) < 24)) {
    free(text);
    return 0; /* only a marker */
  }
  const char *body = text;
  if (role >= 0) /* "User: do X" */
    body = strchr(text, ':') ? strchr(text, ':') + 1 : text;
  static const char *const starts[] = {"error", "fatal", "traceback", "exception", "panic", NULL};
  char first[16];
  snprintf(first, sizeof first, "%.*s", (int)strcspn(body + strspn(body, " "), " :["),
           body + strspn(body, " "));
  if (!m->user && word_in(first, starts))
    rc = upk__ct_output(m->t, m->last_cmd, body, true);
  else
    rc = upk__ct_text(m->t, m->user, body);
  free(text);
  return rc;
}

int upk__ct_read_markdown(ctrace *t, const char *text, size_t len) {
  cmark_node *doc = cmark_parse_document(text, len, CMARK_OPT_DEFAULT);
  cmark_iter *it = doc ? cmark_iter_new(doc) : NULL;
  mdread m = {.t = t, .user = true};
  int rc = it ? 0 : -ENOMEM;
  cmark_event_type ev;
  while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    cmark_node_type ty = cmark_node_get_type(n);
    if (ev != CMARK_EVENT_ENTER)
      continue;
    if (ty == CMARK_NODE_CODE_BLOCK)
      rc = code_block(&m, n);
    else if (ty == CMARK_NODE_HEADING || ty == CMARK_NODE_PARAGRAPH)
      rc = prose(&m, n, ty == CMARK_NODE_HEADING);
    else if (ty == CMARK_NODE_HTML_BLOCK) /* tool output pasted as <pre>... */
      rc = upk__ct_output(t, m.last_cmd, cmark_node_get_literal(n), false);
    if (rc == 0 && m.user == false && !t->has_task)
      t->has_task = true; /* the agent spoke first: no task text in this log */
  }
  cmark_iter_free(it);
  cmark_node_free(doc);
  free(m.last_cmd);
  return rc;
}
