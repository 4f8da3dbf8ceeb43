/* Trace condensation: the events a trace is read into, and the follow-up of
 * each error (see condense.h, condense_int.h). Readers are condense_md.c,
 * condense_json.c and condense_codex.c; choosing and writing is
 * condense_render.c. */
#include "skills/eval/condense.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_int.h"
#include "common/fnv1a.h"
#include "common/xalloc.h"

/* Bounds that keep one error's follow-up, or one file's record of changed
 * lines, from crowding out the rest. */
enum { FIX_CAP = 3000, EXPLAIN_CAP = 1500, CHANGED_CAP = 4000, DIFF_LINES = 24 };

size_t upk_estimate_tokens(size_t bytes) {
  return (bytes + 3) / 4;
}

void upk__ct_init(ctrace *t) {
  memset(t, 0, sizeof *t);
  t->open_error = -1;
  t->pending = -1;
}

void upk__ct_free(ctrace *t) {
  for (size_t i = 0; i < t->n; i++) {
    cev *e = &t->v[i];
    free(e->text);
    free(e->detail);
    free(e->explain);
    free(e->fix);
    free(e->outcome);
    free(e->changed);
  }
  for (size_t i = 0; i < t->n_reads; i++) {
    free(t->read_path[i]);
    free(t->read_text[i]);
  }
  free(t->read_path);
  free(t->read_text);
  free(t->cmd_index);
  free(t->v);
  free(t->last_words);
  free(t->why);
  memset(t, 0, sizeof *t);
}

int upk__ct_reject(ctrace *t, const char *code, const char *fmt, ...) {
  va_list ap;
  t->why_code = code;
  va_start(ap, fmt);
  free(t->why);
  t->why = upk_xvasprintf(fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* Push an event taking ownership of text and detail (freed on failure). */
static cev *push(ctrace *t, cev_kind kind, char *text, char *detail) {
  UPK_GROW(t->v, t->cap, t->n + 1);
  cev *e = &t->v[t->n++];
  *e = (cev){.kind = kind, .text = text, .detail = detail, .count = 1};
  return e;
}

/* The first line of s, with "(+N lines)" when there are more. */
static char *first_line(const char *s) {
  const char *nl = strchr(s, '\n');
  if (!nl || !nl[1])
    return upk_xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
  size_t more = 0;
  for (const char *p = nl; *p; p++)
    more += *p == '\n' && p[1];
  return upk_xasprintf("%.*s … (+%zu lines)", (int)(nl - s), s, more);
}

/* ---- the follow-up of an error ------------------------------------------- */

/* One step after the open error: an edit, a command and how it went. */
static int follow(ctrace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int follow(ctrace *t, const char *fmt, ...) {
  static const char MORE[] = "- [… more steps left out]\n";
  if (t->open_error < 0)
    return 0;
  cev *e = &t->v[t->open_error];
  size_t have = e->fix ? strlen(e->fix) : 0;
  if (have && strstr(e->fix, MORE))
    return 0;
  va_list ap;
  va_start(ap, fmt);
  int rc = upk__ct_vappend(&e->fix, fmt, ap);
  va_end(ap);
  if (rc == 0 && strlen(e->fix) > FIX_CAP) { /* this step does not fit: say so instead */
    e->fix[have] = '\0';
    rc = upk__ct_append(&e->fix, MORE);
  }
  return rc;
}

/* The pending command's result is known: a success resolves the error that
 * was open when it ran. */
static int settle(ctrace *t, bool ok) {
  if (t->pending < 0)
    return 0;
  const char *cmd = t->v[t->pending].text;
  t->pending = -1;
  if (t->open_error < 0 || upk__ct_inspection(cmd) || !ok)
    return 0;
  cev *e = &t->v[t->open_error];
  char *line = first_line(cmd);
  free(e->outcome);
  e->outcome = line ? upk_xasprintf("`%s` then succeeded.", line) : NULL;
  int rc = line ? 0 : -ENOMEM;
  free(line);
  e->resolved = rc == 0;
  t->open_error = -1;
  return rc;
}

static void forget_words(ctrace *t) {
  free(t->last_words);
  t->last_words = NULL;
  t->words_open = false;
}

int upk__ct_finish(ctrace *t) {
  int rc = settle(t, true);
  if (rc == 0 && t->last_words) {
    rc = push(t, CEV_SUMMARY, t->last_words, NULL) ? 0 : -ENOMEM;
    t->last_words = NULL;
  }
  return rc;
}

/* ---- commands and their outputs ------------------------------------------ */

/* A looking-around command equal to cmd but for its numbers, among the
 * last 64 (such runs come together). Only those: -arch=sm_80 and
 * -arch=sm_90a differ in numbers, and that is the lesson. */
static long like_but_numbers(const ctrace *t, const char *cmd, size_t len) {
  for (size_t k = t->n, seen = 0; k > 0 && seen < 64; k--) {
    size_t i = k - 1;
    const char *a = t->v[i].text, *b = cmd, *end = cmd + len;
    if (t->v[i].kind != CEV_COMMAND || !upk__ct_inspection(a))
      continue;
    seen++;
    while (*a && b < end) {
      bool da = isdigit((unsigned char)*a), db = isdigit((unsigned char)*b);
      if (da && db) {
        while (isdigit((unsigned char)*a))
          a++;
        while (b < end && isdigit((unsigned char)*b))
          b++;
      } else if (*a++ != *b++) {
        break;
      }
    }
    if (!*a && b == end)
      return (long)i;
  }
  return -1;
}

/* ---- commands by hash: a long session runs thousands ---------------------- */

static size_t *cmd_slot(const ctrace *t, const char *cmd, size_t len) {
  size_t mask = t->cmd_cap - 1, i = upk_fnv1a(UPK_FNV1A_INIT, cmd, len) & mask;
  for (;; i = (i + 1) & mask) {
    size_t *slot = &t->cmd_index[i];
    const char *s = *slot ? t->v[*slot - 1].text : NULL;
    if (!s || (strlen(s) == len && !memcmp(s, cmd, len)))
      return slot;
  }
}

static long find_command(const ctrace *t, const char *cmd, size_t len) {
  size_t *slot = t->cmd_cap ? cmd_slot(t, cmd, len) : NULL;
  return slot && *slot ? (long)*slot - 1 : -1;
}

/* Index event ev, growing the table (kept at most half full). */
static int index_command(ctrace *t, size_t ev) {
  if (2 * (t->cmd_used + 1) > t->cmd_cap) {
    size_t cap = t->cmd_cap ? 2 * t->cmd_cap : 64, *table = upk_xcalloc(cap, sizeof *table);
    if (!table)
      return -ENOMEM;
    free(t->cmd_index);
    t->cmd_index = table;
    t->cmd_cap = cap;
    t->cmd_used = 0;
    for (size_t i = 0; i < ev; i++)
      if (t->v[i].kind == CEV_COMMAND) {
        *cmd_slot(t, t->v[i].text, strlen(t->v[i].text)) = i + 1;
        t->cmd_used++;
      }
  }
  *cmd_slot(t, t->v[ev].text, strlen(t->v[ev].text)) = ev + 1;
  t->cmd_used++;
  return 0;
}

int upk__ct_command(ctrace *t, const char *cmd) {
  int rc = settle(t, true);
  while (isspace((unsigned char)*cmd))
    cmd++;
  size_t len = strlen(cmd);
  while (len && isspace((unsigned char)cmd[len - 1]))
    len--;
  t->words_open = false;
  if (rc || !len)
    return rc;
  if (!upk__ct_inspection(cmd)) /* words followed by more work were not the last */
    forget_words(t);
  long same = find_command(t, cmd, len);
  if (same >= 0) {
    t->v[same].count++;
    t->pending = same;
    return 0;
  }
  long like = upk__ct_inspection(cmd) ? like_but_numbers(t, cmd, len) : -1;
  if (like >= 0) { /* grep src/mod0.cu, grep src/mod4.cu, ...: counted, not listed */
    t->v[like].similar++;
    t->pending = like;
    return 0;
  }
  char *copy = upk_xstrndup(cmd, len);
  if (!copy || !push(t, CEV_COMMAND, copy, NULL))
    return -ENOMEM;
  t->pending = (long)t->n - 1;
  return index_command(t, t->n - 1);
}

/* An error seen before with the same lines: hit again. */
static long same_error(const ctrace *t, const char *lines) {
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].kind == CEV_ERROR && strcmp(t->v[i].text, lines) == 0)
      return (long)i;
  return -1;
}

int upk__ct_output(ctrace *t, const char *cmd, const char *output, bool is_error) {
  /* What cat or grep print is code and logs, full of the word "error":
   * only their own failure (is_error) counts. */
  if (!output || (!is_error && ((cmd && upk__ct_inspection(cmd)) || !upk__ct_looks_error(output))))
    return settle(t, true);
  size_t lines = 0;
  char *text = upk__ct_error_lines(output, &lines), *label = cmd ? first_line(cmd) : NULL;
  if (!text || (cmd && !label)) {
    free(text);
    free(label);
    return -ENOMEM;
  }
  long same = same_error(t, text);
  int rc = 0;
  if (t->pending >= 0 && label) /* what the step that failed led to */
    rc = follow(t, "- ran `%s`: %s\n", label,
                same >= 0 && same == t->open_error ? "the same error came back"
                                                   : "it failed with another error");
  t->pending = -1;
  forget_words(t);
  if (rc == 0 && same >= 0) {
    t->open_error = same;
    t->v[same].count++;
  } else if (rc == 0) {
    cev *e = push(t, CEV_ERROR, text, label);
    text = label = NULL;
    if (!e)
      return -ENOMEM;
    e->lines = lines;
    t->open_error = (long)t->n - 1;
  }
  free(text);
  free(label);
  return rc;
}

/* ---- files ---------------------------------------------------------------- */

static cev *file_of(ctrace *t, const char *path) {
  for (size_t i = t->n; i > 0; i--)
    if (t->v[i - 1].kind == CEV_FILE && strcmp(t->v[i - 1].detail, path) == 0)
      return &t->v[i - 1];
  return NULL;
}

static int new_file(ctrace *t, const char *path, const char *content, cev **out) {
  char *p = upk_xstrdup(path), *c = content ? upk_xstrdup(content) : NULL;
  if (!p || (content && !c)) {
    free(p);
    free(c);
    return -ENOMEM;
  }
  *out = push(t, CEV_FILE, c, p);
  return *out ? 0 : -ENOMEM;
}

/* Remember what an edit brought in, for the view of the changed regions. */
static int note_changed(cev *f, const char *new_s) {
  size_t have = f->changed ? strlen(f->changed) : 0;
  if (have > CHANGED_CAP || !*new_s)
    return 0;
  return upk__ct_append(&f->changed, "%s\n", new_s);
}

int upk__ct_write(ctrace *t, const char *path, const char *content) {
  int rc = settle(t, true);
  forget_words(t);
  cev *f = rc ? NULL : file_of(t, path);
  if (rc == 0 && t->open_error >= 0) {
    char *d = f && f->text ? upk__ct_diff(f->text, content, DIFF_LINES) : NULL;
    rc = d ? follow(t, "- rewrote `%s`:\n\n~~~~diff\n%s~~~~\n\n", path, d)
           : follow(t, "- wrote `%s`\n", path);
    free(d);
  }
  if (rc)
    return rc;
  if (!f)
    return new_file(t, path, content, &f);
  char *copy = upk_xstrdup(content);
  if (f->text)
    rc = note_changed(f, content);
  free(f->text);
  f->text = copy;
  f->edited = false;
  return rc;
}

/* Replace the first `old_s` in *content by `new_s`; false when absent. */
static bool apply_edit(char **content, const char *old_s, const char *new_s) {
  char *at = *old_s ? strstr(*content, old_s) : NULL;
  if (!at)
    return false;
  char *out = upk_xasprintf("%.*s%s%s", (int)(at - *content), *content, new_s, at + strlen(old_s));
  free(*content);
  *content = out;
  return true;
}

/* "     1\tcode" or "     1→code" on every line: a numbered listing. */
static char *unnumbered(const char *s) {
  char *out = NULL;
  for (const char *p = s; *p;) {
    size_t n = strcspn(p, "\n"), k = strspn(p, " ");
    if (n == 0) { /* the blank end of the listing */
      p++;
      continue;
    }
    size_t d = strspn(p + k, "0123456789"), tab = p[k + d] == '\t' ? 1 : 0;
    size_t arrow = !tab && !strncmp(p + k + d, "→", 3) ? 3 : 0;
    if (!d || !(tab || arrow) || k + d > n) { /* not numbered: as it is */
      free(out);
      return upk_xstrdup(s);
    }
    if (upk__ct_append(&out, "%.*s\n", (int)(n - k - d - tab - arrow), p + k + d + tab + arrow))
      return NULL;
    p += n + (p[n] == '\n');
  }
  return out ? out : upk_xstrdup("");
}

int upk__ct_read(ctrace *t, const char *path, const char *content) {
  char *text = unnumbered(content);
  if (!text)
    return -ENOMEM;
  cev *f = file_of(t, path);
  if (f && !f->text) { /* edited before we saw it: this is its state now */
    f->text = text;
    f->edited = false;
    return 0;
  }
  for (size_t i = 0; i < t->n_reads; i++)
    if (!strcmp(t->read_path[i], path)) {
      free(t->read_text[i]);
      t->read_text[i] = text;
      return 0;
    }
  char **p = upk_xrealloc(t->read_path, (t->n_reads + 1) * sizeof *p);
  t->read_path = p ? p : t->read_path;
  char **q = p ? upk_xrealloc(t->read_text, (t->n_reads + 1) * sizeof *q) : NULL;
  t->read_text = q ? q : t->read_text;
  char *name = q ? upk_xstrdup(path) : NULL;
  if (!name) {
    free(text);
    return -ENOMEM;
  }
  t->read_path[t->n_reads] = name;
  t->read_text[t->n_reads++] = text;
  return 0;
}

static const char *seen(const ctrace *t, const char *path) {
  for (size_t i = 0; i < t->n_reads; i++)
    if (!strcmp(t->read_path[i], path))
      return t->read_text[i];
  return NULL;
}

int upk__ct_edit(ctrace *t, const char *path, const char *old_s, const char *new_s) {
  int rc = settle(t, true);
  forget_words(t);
  if (rc == 0 && t->open_error >= 0) {
    char *d = upk__ct_diff(old_s, new_s, DIFF_LINES);
    rc = d ? follow(t, "- edited `%s`:\n\n~~~~diff\n%s~~~~\n\n", path, d) : -ENOMEM;
    free(d);
  }
  cev *f = rc ? NULL : file_of(t, path);
  if (rc == 0 && !f)
    rc = new_file(t, path, seen(t, path), &f);
  if (rc)
    return rc;
  if (!(f->text && apply_edit(&f->text, old_s, new_s)))
    f->edited = true;
  return note_changed(f, new_s);
}

/* ---- prose ---------------------------------------------------------------- */

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

/* A fact of at most 600 bytes: a long one is cut at its last sentence end
 * (or space) before that, and says so. */
static int add_fact(ctrace *t, const char *s, size_t n, bool user, int score) {
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
  char *copy = upk_xasprintf("%.*s%s", (int)n, s, cut ? " (…)" : "");
  cev *e = push(t, CEV_FACT, copy, NULL);
  if (e) {
    e->user = user;
    e->score = score;
  }
  return e ? 0 : -ENOMEM;
}

/* The agent's words after an error explain it: kept whole up to a bound. */
static int explain(ctrace *t, const char *text) {
  cev *e = &t->v[t->open_error];
  size_t have = e->explain ? strlen(e->explain) : 0, n = strlen(text);
  if (have >= EXPLAIN_CAP)
    return 0;
  if (have + n > EXPLAIN_CAP) { /* whole sentences only */
    size_t keep = 0;
    for (size_t i = 0; text[i] && have + i < EXPLAIN_CAP; i += sentence_len(text + i) + 1)
      keep = i + sentence_len(text + i);
    if (!keep)
      return 0;
    return upk__ct_append(&e->explain, "%s%.*s …", have ? " " : "", (int)keep, text);
  }
  return upk__ct_append(&e->explain, "%s%s", have ? " " : "", text);
}

/* The agent's last prose: the closing summary, unless a tool follows. */
static int last_words(ctrace *t, const char *text) {
  if (t->words_open && t->last_words)
    return upk__ct_append(&t->last_words, "\n\n%s", text);
  free(t->last_words);
  t->last_words = upk_xstrdup(text);
  t->words_open = true;
  return t->last_words ? 0 : -ENOMEM;
}

static int facts(ctrace *t, const char *text) {
  for (const char *p = text; *p;) {
    size_t n = sentence_len(p);
    int score = n > 12 ? upk__ct_fact_score(p, n) : 0;
    if (score && add_fact(t, p, n, false, score))
      return -ENOMEM;
    p += n;
    while (isspace((unsigned char)*p) || *p == '-' || *p == '*')
      p++;
  }
  return 0;
}

int upk__ct_text(ctrace *t, bool user, const char *text) {
  while (isspace((unsigned char)*text))
    text++;
  if (!*text)
    return 0;
  if (user && !t->has_task) {
    t->has_task = true;
    char *copy = upk_xstrdup(text);
    return copy && push(t, CEV_TASK, copy, NULL) ? 0 : -ENOMEM;
  }
  if (user && t->n && t->v[t->n - 1].kind == CEV_TASK) { /* the task goes on */
    cev *task = &t->v[t->n - 1];
    return upk__ct_append(&task->text, "\n\n%s", text);
  }
  if (user) { /* a later instruction from the person: always a fact */
    t->words_open = false;
    return add_fact(t, text, strlen(text), true, 3);
  }
  int rc = t->open_error >= 0 ? explain(t, text) : 0;
  rc = rc ? rc : last_words(t, text);
  return rc ? rc : facts(t, text);
}
