/* Trace condensation: each event's forms, richest first (condense_int.h),
 * and writing the chosen ones out as Markdown (see condense.h). Choosing
 * is condense_choose.c. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_choose.h"
#include "common/xalloc.h"
#include "skills/eval/fence.h"

static const char *const SEC_TITLES[N_SEC] = {
    "Task",         "Errors and what followed them", "Final state of changed files", "Key facts",
    "Commands run", "The agent's closing summary"};

int upk__ct_section_of(cev_kind k) {
  static const int map[] = {
      [CEV_TASK] = SEC_TASK,    [CEV_SUMMARY] = SEC_SUMMARY, [CEV_COMMAND] = SEC_COMMANDS,
      [CEV_ERROR] = SEC_ERRORS, [CEV_FILE] = SEC_FILES,      [CEV_FACT] = SEC_FACTS};
  return map[k];
}

size_t upk__ct_heading_cost(int sec) {
  return strlen(SEC_TITLES[sec]) + 6; /* "\n## " + title + "\n\n" */
}

static const char FENCE[] = "````````````````````````````````````````";

static size_t count_lines(const char *s) {
  size_t n = *s ? 1 : 0;
  for (; *s; s++)
    n += *s == '\n' && s[1];
  return n;
}

/* Whole sentences from the start of s that fit cap bytes (0: none). */
static size_t sentences_within(const char *s, size_t cap) {
  size_t cut = 0;
  for (size_t i = 0; s[i] && i < cap; i++)
    if (strchr(".!?\n", s[i]) && (!s[i + 1] || isspace((unsigned char)s[i + 1])))
      cut = i + 1;
  return cut;
}

/* ---- files ---------------------------------------------------------------- */

typedef bool (*line_pred)(const char *line, size_t n, const char *arg);

/* The lines of s that pred keeps, `ctx` lines around each, gaps marked. */
static char *pick_lines(const char *s, line_pred pred, const char *arg, size_t ctx, size_t *kept) {
  size_t n = count_lines(s) + 1, i = 0;
  const char **at = upk_xmalloc(n * sizeof *at);
  unsigned char *keep = upk_xcalloc(n, 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  *kept = 0;
  for (const char *p = s; *p && i < n; i++, p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
    at[i] = p;
  n = i;
  for (i = 0; i < n; i++)
    if (pred(at[i], strcspn(at[i], "\n"), arg))
      for (size_t k = i > ctx ? i - ctx : 0; k < n && k <= i + ctx; k++)
        keep[k] = 1;
  for (i = 0; i < n; i++) {
    if (keep[i]) {
      size_t w = strcspn(at[i], "\n");
      fprintf(f, "%.*s\n", (int)(w > 200 ? 200 : w), at[i]);
      ++*kept;
    } else if (i == 0 || keep[i - 1]) {
      fputs("…\n", f);
    }
  }
  if (fclose(f)) {
    free(buf);
    buf = NULL;
  }
  free(at);
  free(keep);
  return buf;
}

/* A line an edit brought in (trimmed, at least 4 bytes). */
static bool changed_line(const char *s, size_t n, const char *changed) {
  while (n && isspace((unsigned char)*s))
    s++, n--;
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  if (n < 4)
    return false;
  for (const char *p = changed; *p;) {
    size_t k = strcspn(p, "\n");
    const char *q = p;
    p += k + (p[k] == '\n');
    while (k && isspace((unsigned char)*q))
      q++, k--;
    while (k && isspace((unsigned char)q[k - 1]))
      k--;
    if (k == n && !memcmp(q, s, n))
      return true;
  }
  return false;
}

/* Declarations and other unindented lines that show a file's shape. */
static bool decl_line(const char *p, size_t n, const char *unused) {
  (void)unused;
  return n > 0 && p[0] != ' ' && p[0] != '\t' && p[0] != '}' && p[0] != '{' &&
         (memchr(p, '(', n) || !strncmp(p, "class ", 6) || !strncmp(p, "struct ", 7) ||
          !strncmp(p, "#", 1) || !strncmp(p, "def ", 4));
}

/* The lines of e's content that pred keeps, fenced under a heading. */
static char *fenced_view(const cev *e, const char *what, line_pred pred, const char *arg,
                         size_t ctx) {
  size_t kept = 0;
  char *body = pick_lines(e->text, pred, arg, ctx, &kept);
  char *s = body && kept ? upk_xasprintf("### %s (%s: %zu lines in all)\n\n%.*s\n%s%.*s\n",
                                         e->detail, what, count_lines(e->text), upk_fence_len(body),
                                         FENCE, body, upk_fence_len(body), FENCE)
                         : NULL;
  free(body);
  return s;
}

static char *file_variant(const cev *e, int level) {
  if (!e->text)
    return level == 0
               ? upk_xasprintf("- `%s` (edited; its content is not in the trace)\n", e->detail)
               : NULL;
  size_t lines = count_lines(e->text);
  if (level == 0 && lines <= 150) {
    int fl = upk_fence_len(e->text);
    size_t tl = strlen(e->text);
    return upk_xasprintf("### %s%s\n\n%.*s\n%s%s%.*s\n", e->detail,
                         e->edited ? " (and later edited)" : "", fl, FENCE, e->text,
                         tl && e->text[tl - 1] == '\n' ? "" : "\n", fl, FENCE);
  }
  if (level == 1 && e->changed)
    return fenced_view(e, "the changed regions", changed_line, e->changed, 3);
  if (level == 2)
    return fenced_view(e, "outline", decl_line, NULL, 0);
  return level == 3 ? upk_xasprintf("- `%s` (%zu lines)\n", e->detail, lines) : NULL;
}

/* ---- prose ---------------------------------------------------------------- */

/* The first paragraph, or as many sentences as fit 600 bytes. */
static char *task_variant(const cev *e, int level) {
  if (level == 0)
    return upk_xasprintf("%s\n", e->text);
  const char *para = strstr(e->text, "\n\n");
  if (level == 1)
    return para ? upk_xasprintf("%.*s\n\n(The task goes on for %zu more lines.)\n",
                                (int)(para - e->text), e->text, count_lines(para + 2))
                : NULL;
  size_t cut = sentences_within(e->text, 600);
  return level == 2 && cut ? upk_xasprintf("%.*s (shortened)\n", (int)cut, e->text) : NULL;
}

/* Whole; else its sentences that state facts; else its start. */
static char *summary_variant(const cev *e, int level) {
  if (level == 0)
    return upk_xasprintf("%s\n", e->text);
  if (level == 1) {
    char *out = NULL;
    for (const char *p = e->text; *p;) {
      size_t n = sentences_within(p, 400);
      n = n ? n : strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0);
      if ((p == e->text || upk__ct_fact_score(p, n) >= 2) &&
          upk__ct_append(&out, "%.*s ", (int)n, p))
        break;
      p += n;
      p += strspn(p, " \n");
    }
    char *s = out ? upk_xasprintf("%s(shortened)\n", out) : NULL;
    free(out);
    return s;
  }
  size_t cut = sentences_within(e->text, 400);
  return level == 2 && cut ? upk_xasprintf("%.*s (shortened)\n", (int)cut, e->text) : NULL;
}

/* One line in backticks; a script (heredoc, loop) in a fenced block. */
static char *command_variant(const cev *e, int level) {
  char times[64] = "";
  if (e->count > 1 || e->similar)
    snprintf(times, sizeof times, " (run %zu time%s%s%.0zu%s)", e->count, e->count > 1 ? "s" : "",
             e->similar ? "; and " : "", e->similar, e->similar ? " more like it" : "");
  size_t lines = count_lines(e->text), first = strcspn(e->text, "\n");
  if (level == 0 && lines == 1 && !strchr(e->text, '`'))
    return upk_xasprintf("- `%s`%s\n", e->text, times);
  if (level == 0 && lines <= 12) {
    int fl = upk_fence_len(e->text);
    return upk_xasprintf("-%s\n\n  %.*ssh\n%s\n  %.*s\n", times, fl, FENCE, e->text, fl, FENCE);
  }
  if (level == 1)
    return upk_xasprintf("- `%.*s`%s (+%zu lines)\n", (int)(first > 300 ? 300 : first), e->text,
                         times, lines - 1);
  return NULL;
}

/* ---- errors --------------------------------------------------------------- */

static char *error_head(const cev *e) {
  char times[48] = "";
  if (e->count > 1)
    snprintf(times, sizeof times, " (hit %zu times)", e->count);
  return e->detail ? upk_xasprintf("`%s` failed%s", e->detail, times)
                   : upk_xasprintf("A step failed%s", times);
}

/* The first k lines of s: their length. */
static size_t first_lines(const char *s, int k) {
  const char *p = s;
  for (; k > 0 && *p; k--)
    p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0);
  return (size_t)(p - s);
}

/* Full: the lines with context, the agent's words, every step, how it
 * ended. Level 1: the first lines, the first sentences, the steps. */
static char *error_full(const cev *e, int level, bool explained_below) {
  char *head = error_head(e), *out = NULL;
  const char *ex = explained_below ? NULL : e->explain;
  size_t tl = level ? first_lines(e->text, 4) : strlen(e->text);
  size_t exn = ex ? strlen(ex) : 0;
  if (ex && level) {
    size_t cut = sentences_within(ex, 300);
    exn = cut ? cut : exn < 300 ? exn : 300;
  }
  int fl = upk_fence_len(e->text);
  int rc = head ? upk__ct_append(&out, "### %s\n\n%.*s\n%.*s%s%.*s\n\n", head, fl, FENCE, (int)tl,
                                 e->text, tl < strlen(e->text) ? "[…]\n" : "", fl, FENCE)
                : -ENOMEM;
  if (rc == 0 && ex)
    rc =
        upk__ct_append(&out, "The agent: %.*s%s\n\n", (int)exn, ex, exn < strlen(ex) ? " (…)" : "");
  if (rc == 0 && explained_below)
    rc = upk__ct_append(&out, "The agent explained it in its closing summary (below).\n\n");
  if (rc == 0 && e->fix)
    rc = upk__ct_append(&out, "What followed:\n\n%s", e->fix);
  if (rc == 0)
    rc = upk__ct_append(&out, "%s%s\n", e->fix ? "- " : "",
                        e->outcome   ? e->outcome
                        : e->fix     ? "No command was seen to succeed after it."
                        : e->explain ? "No edit or command followed: the agent's words are the fix."
                                     : "Nothing was changed or run after it.");
  free(head);
  if (rc) {
    free(out);
    return NULL;
  }
  return out;
}

/* One line: the first error line, the first line brought in, how it ended
 * (level 2, or the agent's first words); level 3: the first error line. */
static char *error_line(const cev *e, int level, bool explained_below) {
  char *head = error_head(e);
  const char *ex = level == 2 && !explained_below ? e->explain : NULL,
             *plus = e->fix ? strstr(e->fix, "\n+") : NULL;
  const char *first = upk__ct_error_headline(e->text);
  size_t n = strcspn(first, "\n"), pn = plus ? strcspn(plus + 1, "\n") : 0;
  if (level == 3)
    plus = NULL, pn = 0;
  size_t en = ex && !e->outcome ? sentences_within(ex, 200) : 0;
  char *out = head ? upk_xasprintf("- %s: %.*s%s%.*s%s%s%s%.*s\n", head, (int)(n > 200 ? 200 : n),
                                   first, plus ? " — changed to `" : "", (int)(pn > 160 ? 160 : pn),
                                   plus ? plus + 1 : "", plus ? "`" : "", e->outcome ? " — " : "",
                                   e->outcome ? e->outcome
                                   : en       ? " — "
                                              : "",
                                   (int)en, ex ? ex : "")
                   : NULL;
  free(head);
  return out;
}

static char *error_variant(const cev *e, int level, bool explained_below) {
  return level < 2 ? error_full(e, level, explained_below) : error_line(e, level, explained_below);
}

char *upk__ct_variant(const cev *e, int level, const char *summary_whole) {
  switch (e->kind) {
  case CEV_TASK:
    return task_variant(e, level);
  case CEV_SUMMARY:
    return summary_variant(e, level);
  case CEV_ERROR: /* the closing summary already says it: not twice */
    return error_variant(e, level,
                         summary_whole && e->explain && e->explain[0] &&
                             strstr(summary_whole, e->explain));
  case CEV_COMMAND:
    return command_variant(e, level);
  case CEV_FILE:
    return file_variant(e, level);
  case CEV_FACT:
    return level == 0 ? upk_xasprintf("- %s\n", e->text) : NULL;
  }
  return NULL;
}

/* ---- writing -------------------------------------------------------------- */

const char *upk_trace_format_name(upk_trace_format f) {
  return f == UPK_TRACE_JSON    ? "JSON messages"
         : f == UPK_TRACE_JSONL ? "JSON lines"
         : f == UPK_TRACE_CODEX ? "Codex rollout"
                                : "Markdown";
}

char *upk__ct_render(char *const *chosen, const ctrace *t, const upk_condensed *c, size_t omitted) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fprintf(f,
          "# Condensed agent trace\n\n_%s, ~%zu tokens (bytes/4); %zu commands, %zu errors "
          "(%zu followed by a fix or an explanation), %zu files, %zu facts; %zu left out for the "
          "budget._\n",
          upk_trace_format_name(c->format), c->source_tokens, c->commands, c->errors, c->fixes,
          c->files, c->facts, omitted);
  for (int sec = 0; chosen && sec < N_SEC; sec++) {
    bool head = false;
    for (size_t i = 0; i < t->n; i++) {
      if (!chosen[i] || !chosen[i][0] || upk__ct_section_of(t->v[i].kind) != sec)
        continue;
      if (!head)
        fprintf(f, "\n## %s\n\n", SEC_TITLES[sec]);
      head = true;
      fprintf(f, "%s%s", chosen[i], t->v[i].kind == CEV_ERROR && chosen[i][0] == '#' ? "\n" : "");
    }
  }
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}
