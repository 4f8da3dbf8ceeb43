/* Trace condensation: choosing events by priority within the budget and
 * writing them out as Markdown (see condense.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condense.h"
#include "condense_int.h"

enum { SEC_TASK, SEC_ERRORS, SEC_COMMANDS, SEC_FILES, SEC_FACTS, N_SEC };
static const char *const SEC_TITLES[N_SEC] = {"Task", "Errors and the fixes that followed",
                                              "Commands run", "Final files", "Key facts"};

static int section_of(cev_kind k) {
  static const int map[] = {[CEV_TASK] = SEC_TASK,
                            [CEV_COMMAND] = SEC_COMMANDS,
                            [CEV_ERROR] = SEC_ERRORS,
                            [CEV_FILE] = SEC_FILES,
                            [CEV_FACT] = SEC_FACTS};
  return map[k];
}

/* A fence longer than any backtick run inside, so content cannot close it. */
static int fence_len(const char *s) {
  int best = 0, run = 0;
  for (; s && *s; s++) {
    run = *s == '`' ? run + 1 : 0;
    best = run > best ? run : best;
  }
  return best < 3 ? 3 : best + 1;
}

static const char FENCE[] = "````````````````````````````````````````";

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0)
    s = NULL;
  va_end(ap);
  return s;
}

static size_t count_lines(const char *s) {
  size_t n = *s ? 1 : 0;
  for (; *s; s++)
    n += *s == '\n' && s[1];
  return n;
}

/* Declarations and other unindented lines that show a file's shape. */
static char *outline(const char *s) {
  char *buf = NULL;
  size_t len = 0, kept = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  for (const char *p = s; *p && kept < 40;) {
    size_t n = strcspn(p, "\n");
    bool decl = n > 0 && p[0] != ' ' && p[0] != '\t' && p[0] != '}' && p[0] != '{' &&
                (memchr(p, '(', n) || !strncmp(p, "#include", 8) || !strncmp(p, "#define", 7) ||
                 !strncmp(p, "class ", 6) || !strncmp(p, "struct ", 7) || !strncmp(p, "#", 1));
    if (decl) {
      fprintf(f, "%.*s\n", (int)(n > 200 ? 200 : n), p);
      kept++;
    }
    p += n + (p[n] == '\n');
  }
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  if (!kept) {
    free(buf);
    return NULL;
  }
  return buf;
}

static char *file_variant(const cev *e, int level) {
  if (!e->text)
    return level == 0 ? fmt("- `%s` (edited; its content is not in the trace)\n", e->detail) : NULL;
  int fl = fence_len(e->text);
  size_t tl = strlen(e->text);
  const char *nl = tl && e->text[tl - 1] == '\n' ? "" : "\n";
  if (level == 0)
    return fmt("### %s%s\n\n%.*s\n%s%s%.*s\n", e->detail, e->edited ? " (and later edited)" : "",
               fl, FENCE, e->text, nl, fl, FENCE);
  if (level == 1) {
    char *o = outline(e->text);
    char *s = o ? fmt("### %s (outline: %zu lines in all)\n\n%.*s\n%s%.*s\n", e->detail,
                      count_lines(e->text), fence_len(o), FENCE, o, fence_len(o), FENCE)
                : NULL;
    free(o);
    return s;
  }
  return level == 2 ? fmt("- `%s` (%zu lines)\n", e->detail, count_lines(e->text)) : NULL;
}

/* The first paragraph, or as many sentences as fit 600 bytes. */
static char *task_variant(const cev *e, int level) {
  if (level == 0)
    return fmt("%s\n", e->text);
  const char *para = strstr(e->text, "\n\n");
  if (level == 1)
    return para ? fmt("%.*s\n\n(The task goes on for %zu more lines.)\n", (int)(para - e->text),
                      e->text, count_lines(para + 2))
                : NULL;
  size_t cut = 0;
  for (size_t i = 0; e->text[i] && i < 600; i++)
    if (strchr(".!?\n", e->text[i]))
      cut = i + 1;
  return cut ? fmt("%.*s (shortened)\n", (int)cut, e->text) : NULL;
}

/* One line in backticks; a script (heredoc, loop) in a fenced block. */
static char *command_variant(const cev *e, int level) {
  char times[32] = "";
  if (e->count > 1)
    snprintf(times, sizeof times, " (run %zu times)", e->count);
  size_t lines = count_lines(e->text), first = strcspn(e->text, "\n");
  if (level == 0 && lines == 1 && !strchr(e->text, '`'))
    return fmt("- `%s`%s\n", e->text, times);
  if (level == 0 && lines <= 12) {
    int fl = fence_len(e->text);
    return fmt("-%s\n\n  %.*ssh\n%s\n  %.*s\n", times, fl, FENCE, e->text, fl, FENCE);
  }
  if (level == 1)
    return fmt("- `%.*s`%s (+%zu lines)\n", (int)(first > 300 ? 300 : first), e->text, times,
               lines - 1);
  return NULL;
}

static char *variant(const cev *e, int level) {
  switch (e->kind) {
  case CEV_TASK:
    return task_variant(e, level);
  case CEV_ERROR:
    if (level == 0)
      return fmt("- %s%s%s failed:\n\n  ```\n%s  ```\n%s%s%s%s%s", e->detail ? "`" : "",
                 e->detail ? e->detail : "a step", e->detail ? "`" : "", e->text,
                 e->diagnosis ? "  Diagnosis: " : "", e->diagnosis ? e->diagnosis : "",
                 e->diagnosis ? "\n" : "", e->fix ? "  Fix: " : "  (no fix followed)",
                 e->fix ? e->fix : "");
    if (level == 1) {
      size_t n = strcspn(e->text, "\n");
      return fmt("- %s: %.*s%s%s\n", e->detail ? e->detail : "error", (int)(n > 200 ? 200 : n),
                 e->text, e->fix ? " — fix: " : "", e->fix ? e->fix : "");
    }
    return NULL;
  case CEV_COMMAND:
    return command_variant(e, level);
  case CEV_FILE:
    return file_variant(e, level);
  case CEV_FACT:
    return level == 0 ? fmt("- %s\n", e->text) : NULL;
  }
  return NULL;
}

/* ---- choosing ------------------------------------------------------------ */

typedef struct {
  char **chosen; /* per event: the variant kept, NULL if left out */
  size_t avail, used;
  bool section_used[N_SEC];
  size_t omitted;
} plan;

static size_t heading_cost(int sec) {
  return strlen(SEC_TITLES[sec]) + 6; /* "\n## " + title + "\n\n" */
}

static int consider(plan *p, const ctrace *t, size_t i) {
  const cev *e = &t->v[i];
  int sec = section_of(e->kind);
  size_t head = p->section_used[sec] ? 0 : heading_cost(sec);
  for (int level = 0; level < 3; level++) {
    char *v = variant(e, level);
    if (!v)
      continue;
    size_t cost = strlen(v) + head + 1;
    if (p->used + cost <= p->avail) {
      p->chosen[i] = v;
      p->used += cost;
      p->section_used[sec] = true;
      return 0;
    }
    free(v);
  }
  p->omitted++;
  return 0;
}

/* Priority passes: the task, errors that were fixed, other errors, what the
 * person asked for later, final files, the agent's facts, commands that
 * changed something, then commands that only looked around. */
static bool in_pass(const cev *e, int pass) {
  switch (pass) {
  case 0:
    return e->kind == CEV_TASK;
  case 1:
    return e->kind == CEV_ERROR && e->fix;
  case 2:
    return e->kind == CEV_ERROR && !e->fix;
  case 3:
    return e->kind == CEV_FACT && e->user;
  case 4:
    return e->kind == CEV_FILE;
  case 5:
    return e->kind == CEV_FACT && !e->user;
  case 6:
    return e->kind == CEV_COMMAND && !ct_inspection(e->text);
  default:
    return e->kind == CEV_COMMAND && ct_inspection(e->text);
  }
}

static void choose(plan *p, const ctrace *t) {
  for (int pass = 0; pass < 8; pass++)
    for (size_t i = 0; i < t->n; i++)
      if (in_pass(&t->v[i], pass))
        consider(p, t, i);
}

static const char *format_name(upk_trace_format f) {
  return f == UPK_TRACE_JSON ? "JSON messages" : f == UPK_TRACE_JSONL ? "JSON lines" : "Markdown";
}

static char *render(const plan *p, const ctrace *t, const upk_condensed *c) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  fprintf(f,
          "# Condensed agent trace\n\n_%s, ~%zu tokens (bytes/4); %zu commands, %zu errors "
          "(%zu fixed), %zu files, %zu facts; %zu left out for the budget._\n",
          format_name(c->format), c->source_tokens, c->commands, c->errors, c->fixes, c->files,
          c->facts, p->omitted);
  for (int sec = 0; sec < N_SEC; sec++) {
    if (!p->section_used[sec])
      continue;
    fprintf(f, "\n## %s\n\n", SEC_TITLES[sec]);
    for (size_t i = 0; i < t->n; i++)
      if (p->chosen[i] && section_of(t->v[i].kind) == sec)
        fprintf(f, "%s%s", p->chosen[i], t->v[i].kind == CEV_ERROR ? "\n" : "");
  }
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}

static void plan_free(plan *p, size_t n) {
  for (size_t i = 0; p->chosen && i < n; i++)
    free(p->chosen[i]);
  free(p->chosen);
}

static void count(const ctrace *t, upk_condensed *c) {
  for (size_t i = 0; i < t->n; i++) {
    cev_kind k = t->v[i].kind;
    c->commands += k == CEV_COMMAND;
    c->errors += k == CEV_ERROR;
    c->fixes += k == CEV_ERROR && t->v[i].fix;
    c->files += k == CEV_FILE;
    c->facts += k == CEV_FACT;
  }
}

/* Choose and render; when the header or separators push the text over the
 * budget, choose again with that much less room. */
static int condense_events(const ctrace *t, size_t budget, upk_condensed *c) {
  count(t, c);
  size_t limit = budget * 4, avail = limit > 260 ? limit - 260 : 0;
  for (int round = 0; round < 8; round++) {
    plan p = {.chosen = calloc(t->n + 1, sizeof *p.chosen), .avail = avail};
    if (!p.chosen)
      return -ENOMEM;
    choose(&p, t);
    char *text = render(&p, t, c);
    size_t omitted = p.omitted;
    plan_free(&p, t->n);
    if (!text)
      return -ENOMEM;
    size_t n = strlen(text);
    if (n <= limit || avail == 0) {
      c->text = text;
      c->tokens = upk_estimate_tokens(n);
      c->omitted = omitted;
      return n <= limit ? 0 : -EINVAL;
    }
    free(text);
    avail = avail > n - limit ? avail - (n - limit) : 0;
  }
  return -EINVAL;
}

static upk_trace_format detect(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && strchr(" \t\r\n", s[i]))
    i++;
  if (i < len && (s[i] == '[' || s[i] == '{'))
    return UPK_TRACE_JSON; /* may turn out to be JSONL */
  return UPK_TRACE_MARKDOWN;
}

int upk_condense(const char *trace, size_t len, upk_trace_format format, size_t budget,
                 upk_condensed *out) {
  memset(out, 0, sizeof *out);
  budget = budget ? budget : UPK_CONDENSE_DEFAULT_BUDGET;
  if (budget < UPK_CONDENSE_MIN_BUDGET)
    return -EINVAL;
  out->source_tokens = upk_estimate_tokens(len);
  upk_trace_format f = format == UPK_TRACE_AUTO ? detect(trace, len) : format;
  ctrace t;
  ct_init(&t);
  bool jsonl = f == UPK_TRACE_JSONL;
  int rc = f == UPK_TRACE_MARKDOWN ? ct_read_markdown(&t, trace, len)
                                   : ct_read_json(&t, trace, len, &jsonl);
  if (rc == -EINVAL && format == UPK_TRACE_AUTO && f != UPK_TRACE_MARKDOWN) {
    ct_free(&t); /* looked like JSON but is not: read it as Markdown */
    ct_init(&t);
    f = UPK_TRACE_MARKDOWN;
    rc = ct_read_markdown(&t, trace, len);
  } else if (f != UPK_TRACE_MARKDOWN) {
    f = jsonl ? UPK_TRACE_JSONL : UPK_TRACE_JSON;
  }
  out->format = f;
  rc = rc ? rc : condense_events(&t, budget, out);
  ct_free(&t);
  if (rc)
    upk_condensed_free(out);
  return rc;
}

void upk_condensed_free(upk_condensed *c) {
  free(c->text);
  memset(c, 0, sizeof *c);
}
