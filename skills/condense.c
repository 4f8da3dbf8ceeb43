/* Trace condensation: events, the budgeted choice, the Markdown out (see
 * condense.h). Readers are in condense_md.c and condense_json.c. */
#include "condense.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condense_int.h"

size_t upk_estimate_tokens(size_t bytes) {
  return (bytes + 3) / 4;
}

void ct_init(ctrace *t) {
  memset(t, 0, sizeof *t);
  t->open_error = -1;
}

void ct_free(ctrace *t) {
  for (size_t i = 0; i < t->n; i++) {
    free(t->v[i].text);
    free(t->v[i].detail);
    free(t->v[i].diagnosis);
    free(t->v[i].fix);
  }
  free(t->v);
  memset(t, 0, sizeof *t);
}

/* Push an event taking ownership of text and detail (freed on failure). */
static cev *push(ctrace *t, cev_kind kind, char *text, char *detail) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 32;
    cev *p = realloc(t->v, cap * sizeof *p);
    if (!p) {
      free(text);
      free(detail);
      return NULL;
    }
    t->v = p;
    t->cap = cap;
  }
  cev *e = &t->v[t->n++];
  *e = (cev){.kind = kind, .text = text, .detail = detail, .count = 1};
  return e;
}

static char *dupn(const char *s, size_t n) {
  return s ? strndup(s, n) : NULL;
}

/* The first line of s, with "(+N lines)" when there are more. */
static char *first_line(const char *s) {
  const char *nl = strchr(s, '\n');
  if (!nl || !nl[1])
    return dupn(s, nl ? (size_t)(nl - s) : strlen(s));
  size_t more = 0;
  for (const char *p = nl; *p; p++)
    more += *p == '\n' && p[1];
  char *out = NULL;
  return asprintf(&out, "%.*s … (+%zu lines)", (int)(nl - s), s, more) < 0 ? NULL : out;
}

/* ---- error detection ----------------------------------------------------- */

static bool has_ci(const char *hay, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (strncasecmp(hay + i, needle, k) == 0)
      return true;
  return false;
}

/* One line: an error marker, and not a report of zero errors. */
static bool line_is_error(const char *s, size_t n) {
  static const char *const yes[] = {"error",
                                    "failed",
                                    "failure",
                                    "traceback",
                                    "fatal",
                                    "exception",
                                    "panic:",
                                    "segmentation fault",
                                    "core dumped",
                                    "undefined reference",
                                    "no such file",
                                    "not found",
                                    "permission denied",
                                    "cannot ",
                                    "could not",
                                    "exit code 1",
                                    "exit status 1",
                                    "assertion",
                                    "unresolved",
                                    "mismatch"};
  static const char *const no[] = {"0 error",    "no error",  "without error", "0 failed",
                                   "error-free", "errors: 0", "failed: 0"};
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (has_ci(s, n, no[i]))
      return false;
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    if (has_ci(s, n, yes[i]))
      return true;
  return false;
}

bool ct_looks_error(const char *text) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    if (line_is_error(p, n))
      return true;
    p += n + (p[n] == '\n');
  }
  return false;
}

/* The lines worth keeping from a failing output: those that say what went
 * wrong (at most 8, each at most 300 bytes), else its last 3 lines. */
static char *error_lines(const char *out) {
  char *buf = NULL;
  size_t len = 0, kept = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  for (const char *p = out; *p && kept < 8;) {
    size_t n = strcspn(p, "\n");
    if (line_is_error(p, n)) {
      fprintf(f, "%.*s%s\n", (int)(n > 300 ? 300 : n), p, n > 300 ? " …" : "");
      kept++;
    }
    p += n + (p[n] == '\n');
  }
  if (!kept) {
    const char *end = out + strlen(out), *p = end;
    for (int lines = 0; p > out && lines < 4; p--)
      lines += p[-1] == '\n';
    fprintf(f, "%.*s", (int)(end - p > 900 ? 900 : end - p), p + (*p == '\n'));
  }
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* ---- events -------------------------------------------------------------- */

static int close_error(ctrace *t, char *fix) {
  if (t->open_error < 0 || !fix) {
    free(fix);
    return fix || t->open_error < 0 ? 0 : -ENOMEM;
  }
  cev *e = &t->v[t->open_error];
  e->fix = fix;
  t->open_error = -1;
  return 0;
}

/* Looking around (ls, cat, grep ...) changes nothing: it is not a fix. */
bool ct_inspection(const char *cmd) {
  static const char *const words[] = {"ls",   "cat", "pwd",  "head", "tail",
                                      "grep", "rg",  "find", "echo", "which",
                                      "less", "wc",  "tree", "file", "stat"};
  size_t n = strcspn(cmd, " \t\n;|&");
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == n && strncmp(cmd, words[i], n) == 0)
      return true;
  return strncmp(cmd, "git status", 10) == 0 || strncmp(cmd, "git diff", 8) == 0 ||
         strncmp(cmd, "git log", 7) == 0;
}

int ct_command(ctrace *t, const char *cmd) {
  while (isspace((unsigned char)*cmd))
    cmd++;
  size_t len = strlen(cmd);
  while (len && isspace((unsigned char)cmd[len - 1]))
    len--;
  if (!len)
    return 0;
  char *copy = strndup(cmd, len), *line = copy ? first_line(copy) : NULL, *fix = NULL;
  int rc = line ? 0 : -ENOMEM;
  if (rc == 0 && t->open_error >= 0 && !ct_inspection(copy) && asprintf(&fix, "ran `%s`", line) < 0)
    rc = -ENOMEM;
  free(line);
  rc = rc ? rc : fix ? close_error(t, fix) : 0;
  for (size_t i = 0; rc == 0 && i < t->n; i++)
    if (t->v[i].kind == CEV_COMMAND && strcmp(t->v[i].text, copy) == 0) {
      t->v[i].count++;
      free(copy);
      return 0;
    }
  if (rc) {
    free(copy);
    return rc;
  }
  return push(t, CEV_COMMAND, copy, NULL) ? 0 : -ENOMEM;
}

int ct_output(ctrace *t, const char *cmd, const char *output, bool is_error) {
  if (!output || (!is_error && !ct_looks_error(output)))
    return 0;
  char *lines = error_lines(output), *detail = cmd ? first_line(cmd) : NULL;
  if (!lines || (cmd && !detail)) {
    free(lines);
    free(detail);
    return -ENOMEM;
  }
  if (!push(t, CEV_ERROR, lines, detail))
    return -ENOMEM;
  t->open_error = (long)t->n - 1;
  return 0;
}

static cev *file_of(ctrace *t, const char *path) {
  for (size_t i = t->n; i > 0; i--)
    if (t->v[i - 1].kind == CEV_FILE && strcmp(t->v[i - 1].detail, path) == 0)
      return &t->v[i - 1];
  return NULL;
}

int ct_write(ctrace *t, const char *path, const char *content) {
  char *fix = NULL;
  if (t->open_error >= 0 && asprintf(&fix, "rewrote `%s`", path) < 0)
    return -ENOMEM;
  int rc = close_error(t, fix);
  cev *f = file_of(t, path);
  char *copy = strdup(content);
  if (rc || !copy) {
    free(copy);
    return rc ? rc : -ENOMEM;
  }
  if (f) {
    free(f->text);
    f->text = copy;
    f->edited = false;
    return 0;
  }
  char *p = strdup(path);
  return p && push(t, CEV_FILE, copy, p) ? 0 : -ENOMEM;
}

/* Replace the first `old_s` in *content by `new_s`; false when absent. */
static bool apply_edit(char **content, const char *old_s, const char *new_s) {
  char *at = *old_s ? strstr(*content, old_s) : NULL;
  if (!at)
    return false;
  char *out = NULL;
  if (asprintf(&out, "%.*s%s%s", (int)(at - *content), *content, new_s, at + strlen(old_s)) < 0)
    return false;
  free(*content);
  *content = out;
  return true;
}

int ct_edit(ctrace *t, const char *path, const char *old_s, const char *new_s) {
  char *fix = NULL, *o = first_line(old_s), *n = first_line(new_s);
  int rc = o && n ? 0 : -ENOMEM;
  if (rc == 0 && t->open_error >= 0 && asprintf(&fix, "edited `%s`: `%s` → `%s`", path, o, n) < 0)
    rc = -ENOMEM;
  free(o);
  free(n);
  rc = rc ? rc : close_error(t, fix);
  if (rc)
    return rc;
  cev *f = file_of(t, path);
  if (f && f->text && apply_edit(&f->text, old_s, new_s))
    return 0;
  if (f) {
    f->edited = true;
    return 0;
  }
  char *p = strdup(path);
  cev *e = p ? push(t, CEV_FILE, NULL, p) : NULL;
  if (e)
    e->edited = true;
  return e ? 0 : -ENOMEM;
}

/* ---- prose --------------------------------------------------------------- */

static bool explains(const char *s, size_t n) {
  static const char *const cues[] = {"because",   "must ",       "need to",    "needs ",
                                     "requires",  "important",   "note:",      "note that",
                                     "the issue", "the problem", "root cause", "turns out",
                                     "instead",   "do not",      "don't",      "never ",
                                     "always ",   "the fix",     "fixed by",   "works"};
  for (size_t i = 0; i < sizeof cues / sizeof *cues; i++)
    if (has_ci(s, n, cues[i]))
      return true;
  return false;
}

/* Length of the sentence at s: up to . ! ? before a space, or a newline. */
static size_t sentence_len(const char *s) {
  size_t i = 0;
  for (; s[i]; i++) {
    if (s[i] == '\n')
      return i;
    if (strchr(".!?", s[i]) && (!s[i + 1] || isspace((unsigned char)s[i + 1])))
      return i + 1;
  }
  return i;
}

/* A fact of at most 600 bytes: a person's long message is cut at its last
 * sentence end (or space) before that, and says so. */
static int add_fact(ctrace *t, const char *s, size_t n, bool user) {
  bool cut = n > 600;
  if (cut) {
    size_t end = 0, space = 0;
    for (size_t i = 0; i < 600; i++) {
      if (strchr(".!?", s[i]) && isspace((unsigned char)s[i + 1]))
        end = i + 1;
      if (isspace((unsigned char)s[i]))
        space = i;
    }
    n = end ? end : space ? space : 600;
  }
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].kind == CEV_FACT && strlen(t->v[i].text) == n && !strncmp(t->v[i].text, s, n))
      return 0;
  char *copy = NULL;
  if (asprintf(&copy, "%.*s%s", (int)n, s, cut ? " (…)" : "") < 0)
    return -ENOMEM;
  cev *e = push(t, CEV_FACT, copy, NULL);
  if (e)
    e->user = user;
  return e ? 0 : -ENOMEM;
}

int ct_text(ctrace *t, bool user, const char *text) {
  while (isspace((unsigned char)*text))
    text++;
  if (!*text)
    return 0;
  if (user && !t->has_task) {
    t->has_task = true;
    char *copy = strdup(text);
    return copy && push(t, CEV_TASK, copy, NULL) ? 0 : -ENOMEM;
  }
  if (user && t->n && t->v[t->n - 1].kind == CEV_TASK) { /* the task goes on */
    char *more = NULL;
    if (asprintf(&more, "%s\n\n%s", t->v[t->n - 1].text, text) < 0)
      return -ENOMEM;
    free(t->v[t->n - 1].text);
    t->v[t->n - 1].text = more;
    return 0;
  }
  if (user) /* a later instruction from the person: always a fact */
    return add_fact(t, text, strlen(text), true);
  bool diagnosing = t->open_error >= 0 && !t->v[t->open_error].diagnosis;
  for (const char *p = text; *p;) {
    size_t n = sentence_len(p);
    if (diagnosing && n > 0) {
      if (!(t->v[t->open_error].diagnosis = dupn(p, n > 400 ? 400 : n)))
        return -ENOMEM;
      diagnosing = false;
    } else if (n > 12 && explains(p, n) && add_fact(t, p, n, false)) {
      return -ENOMEM;
    }
    p += n;
    while (isspace((unsigned char)*p) || *p == '-' || *p == '*')
      p++;
  }
  return 0;
}
