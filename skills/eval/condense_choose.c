/* Trace condensation: choosing within the budget (see condense.h). The
 * most valuable events (the task, the closing summary, errors, the
 * person's later words) are first placed in their shortest form, then made
 * richer in order of value while room is left; then files, facts and
 * commands take what remains, richest form first. What is left out is
 * listed; nothing is cut blindly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_choose.h"
#include "common/xalloc.h"

enum { HIGH_PASSES = 5, N_PASSES = 11, MAX_LISTED = 500 };

typedef struct {
  char **chosen; /* per event: the form kept, NULL if left out */
  int *level;
  size_t avail, used;
  bool sec_used[N_SEC];
  const char *summary_whole;
} plan;

/* Passes in order of value (see the file's comment). */
static bool in_pass(const cev *e, int pass) {
  switch (pass) {
  case 0:
    return e->kind == CEV_TASK;
  case 1:
    return e->kind == CEV_SUMMARY;
  case 2:
    return e->kind == CEV_ERROR && (e->resolved || e->fix || e->explain);
  case 3:
    return e->kind == CEV_ERROR && !(e->resolved || e->fix || e->explain);
  case 4:
    return e->kind == CEV_FACT && e->user;
  case 5:
    return e->kind == CEV_FILE && (e->changed || e->edited);
  case 6:
    return e->kind == CEV_FACT && !e->user && e->score >= 2;
  case 7:
    return e->kind == CEV_FILE && !(e->changed || e->edited);
  case 8:
    return e->kind == CEV_FACT && !e->user && e->score < 2;
  case 9:
    return e->kind == CEV_COMMAND && !upk__ct_inspection(e->text);
  default:
    return e->kind == CEV_COMMAND && upk__ct_inspection(e->text);
  }
}

static void keep(plan *p, const cev *e, size_t i, char *v, int level, size_t cost) {
  free(p->chosen[i]);
  p->chosen[i] = v;
  p->level[i] = level;
  p->used += cost;
  p->sec_used[upk__ct_section_of(e->kind)] = true;
  if (e->kind == CEV_SUMMARY)
    p->summary_whole = level == 0 ? e->text : NULL;
}

/* A fact that a kept task, summary or error already says word for word:
 * kept as said, at no cost. */
static bool said(plan *p, const ctrace *t, const cev *e, size_t i) {
  if (e->kind != CEV_FACT)
    return false;
  for (size_t k = 0; k < t->n; k++)
    if (p->chosen[k] && t->v[k].kind != CEV_FACT && strstr(p->chosen[k], e->text))
      return (p->chosen[i] = upk_xstrdup("")) != NULL;
  return false;
}

/* The first form that fits, the shortest or the richest first. */
static void place(plan *p, const ctrace *t, size_t i, bool shortest) {
  const cev *e = &t->v[i];
  if (said(p, t, e, i))
    return;
  int sec = upk__ct_section_of(e->kind);
  size_t head = p->sec_used[sec] ? 0 : upk__ct_heading_cost(sec);
  for (int k = 0; k < CT_LEVELS; k++) {
    int level = shortest ? CT_LEVELS - 1 - k : k;
    char *v = upk__ct_variant(e, level, p->summary_whole);
    size_t cost = v ? strlen(v) + head + 1 : 0;
    if (v && p->used + cost <= p->avail) {
      keep(p, e, i, v, level, cost);
      return;
    }
    free(v);
  }
}

/* A richer form of a kept event, if the difference fits. */
static void upgrade(plan *p, const cev *e, size_t i) {
  if (!p->chosen[i])
    return;
  size_t now = strlen(p->chosen[i]) + 1;
  for (int level = 0; level < p->level[i]; level++) {
    char *v = upk__ct_variant(e, level, p->summary_whole);
    size_t cost = v ? strlen(v) + 1 : 0;
    if (v && p->used - now + cost <= p->avail) {
      p->used -= now;
      keep(p, e, i, v, level, cost);
      return;
    }
    free(v);
  }
}

static void choose(plan *p, const ctrace *t) {
  for (int pass = 0; pass < HIGH_PASSES; pass++)
    for (size_t i = 0; i < t->n; i++)
      if (in_pass(&t->v[i], pass))
        place(p, t, i, true);
  for (int pass = 0; pass < HIGH_PASSES; pass++)
    for (size_t i = 0; i < t->n; i++)
      if (in_pass(&t->v[i], pass))
        upgrade(p, &t->v[i], i);
  for (int pass = HIGH_PASSES; pass < N_PASSES; pass++)
    for (size_t i = 0; i < t->n; i++)
      if (in_pass(&t->v[i], pass))
        place(p, t, i, false);
}

/* ---- what was left out ---------------------------------------------------- */

static const char *kind_name(cev_kind k) {
  static const char *const names[] = {
      [CEV_TASK] = "task",   [CEV_SUMMARY] = "summary", [CEV_COMMAND] = "command",
      [CEV_ERROR] = "error", [CEV_FILE] = "file",       [CEV_FACT] = "fact"};
  return names[k];
}

static char *label(const cev *e) {
  const char *s = e->kind == CEV_FILE    ? e->detail
                  : e->kind == CEV_ERROR ? upk__ct_error_headline(e->text)
                  : e->text              ? e->text
                                         : "";
  size_t n = strcspn(s, "\n");
  return upk_xasprintf("%.*s%s", (int)(n > 120 ? 120 : n), s, n > 120 ? " …" : "");
}

static int list_item(upk_condensed *c, const char *kind, char *what, size_t tokens, int shortened) {
  if (!what)
    return -ENOMEM;
  upk_condense_item *v = upk_xrealloc(c->left_out, (c->n_left_out + 1) * sizeof *v);
  c->left_out = v;
  v[c->n_left_out++] = (upk_condense_item){kind, what, tokens, shortened};
  return 0;
}

static int list_left_out(const plan *p, const ctrace *t, upk_condensed *c) {
  int rc = 0;
  if (t->bad_lines)
    rc = list_item(c, "line",
                   upk_xasprintf("%zu line%s that were not JSON (truncated or corrupt)",
                                 t->bad_lines, t->bad_lines == 1 ? "" : "s"),
                   0, 0);
  for (size_t i = 0; rc == 0 && i < t->n && c->n_left_out < MAX_LISTED; i++) {
    if (p->chosen[i] && (p->level[i] == 0 || !p->chosen[i][0]))
      continue;
    char *full = NULL; /* its richest form */
    for (int level = 0; !full && level < CT_LEVELS; level++)
      full = upk__ct_variant(&t->v[i], level, NULL);
    size_t tokens = upk_estimate_tokens(full ? strlen(full) : 0);
    free(full);
    rc = list_item(c, kind_name(t->v[i].kind), label(&t->v[i]), tokens, p->chosen[i] != NULL);
  }
  return rc;
}

/* ---- the whole ------------------------------------------------------------- */

static void count(const ctrace *t, upk_condensed *c) {
  for (size_t i = 0; i < t->n; i++) {
    const cev *e = &t->v[i];
    c->commands += e->kind == CEV_COMMAND;
    c->errors += e->kind == CEV_ERROR;
    c->fixes += e->kind == CEV_ERROR && (e->resolved || e->fix || e->explain);
    c->files += e->kind == CEV_FILE;
    c->facts += e->kind == CEV_FACT;
  }
}

static void plan_free(plan *p, size_t n) {
  for (size_t i = 0; p->chosen && i < n; i++)
    free(p->chosen[i]);
  free(p->chosen);
  free(p->level);
}

static size_t omitted_of(const plan *p, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += !p->chosen[i];
  return k;
}

/* Choose and render; when the header or separators push the text over the
 * budget, choose again with that much less room. */
static int condense_events(const ctrace *t, size_t budget, upk_condensed *c) {
  count(t, c);
  char *empty = upk__ct_render(NULL, t, c, t->n); /* the header alone: the widest it gets */
  size_t limit = budget * 4, head = empty ? strlen(empty) + 8 : 260;
  size_t avail = limit > head ? limit - head : 0;
  free(empty);
  for (int round = 0; round < 8; round++) {
    plan p = {.chosen = upk_xcalloc(t->n + 1, sizeof *p.chosen),
              .level = upk_xcalloc(t->n + 1, sizeof *p.level),
              .avail = avail};
    if (!p.chosen || !p.level) {
      plan_free(&p, t->n);
      return -ENOMEM;
    }
    choose(&p, t);
    size_t omitted = omitted_of(&p, t->n);
    char *text = upk__ct_render(p.chosen, t, c, omitted);
    size_t n = text ? strlen(text) : 0;
    int rc = text ? 0 : -ENOMEM;
    if (text && (n <= limit || avail == 0)) {
      c->text = text;
      c->tokens = upk_estimate_tokens(n);
      c->omitted = omitted;
      rc = list_left_out(&p, t, c);
      rc = rc ? rc : n <= limit ? 0 : -EINVAL;
      plan_free(&p, t->n);
      return rc;
    }
    free(text);
    plan_free(&p, t->n);
    if (rc)
      return rc;
    avail = avail > n - limit ? avail - (n - limit) : 0;
  }
  return -EINVAL;
}

static bool json_like(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && strchr(" \t\r\n", s[i]))
    i++;
  return i < len && (s[i] == '[' || s[i] == '{');
}

static int read_trace(ctrace *t, const char *trace, size_t len, upk_trace_format format,
                      upk_trace_format *f) {
  *f = format;
  if (format == UPK_TRACE_MARKDOWN || (format == UPK_TRACE_AUTO && !json_like(trace, len))) {
    *f = UPK_TRACE_MARKDOWN;
    return upk__ct_read_markdown(t, trace, len);
  }
  int rc = upk__ct_read_json(t, trace, len, f);
  if (rc == -EINVAL && format == UPK_TRACE_AUTO && t->not_json) {
    upk__ct_free(t); /* it only began like JSON: a Markdown log */
    upk__ct_init(t);
    *f = UPK_TRACE_MARKDOWN;
    rc = upk__ct_read_markdown(t, trace, len);
  }
  return rc;
}

/* The offset of the first byte that makes `s` not UTF-8 text (a NUL, or a byte
 * outside a well-formed UTF-8 sequence), or `len` when it is text. */
static size_t first_non_text(const char *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    unsigned c = p[i];
    if (c == 0)
      return i;
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t n = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    if (!n || i + n > len)
      return i;
    for (size_t k = 1; k < n; k++)
      if ((p[i + k] & 0xc0) != 0x80)
        return i;
    if ((c == 0xe0 && p[i + 1] < 0xa0) || (c == 0xed && p[i + 1] > 0x9f) ||
        (c == 0xf0 && p[i + 1] < 0x90) || (c == 0xf4 && p[i + 1] > 0x8f))
      return i;
    i += n;
  }
  return len;
}

int upk_condense(const char *trace, size_t len, upk_trace_format format, size_t budget,
                 upk_condensed *out) {
  memset(out, 0, sizeof *out);
  budget = budget ? budget : UPK_CONDENSE_DEFAULT_BUDGET;
  if (budget < UPK_CONDENSE_MIN_BUDGET) {
    snprintf(out->error, sizeof out->error, "the budget must be at least %d tokens",
             UPK_CONDENSE_MIN_BUDGET);
    out->error_code = "trace/budget";
    return -EINVAL;
  }
  out->source_tokens = upk_estimate_tokens(len);
  size_t bad = first_non_text(trace, len);
  if (bad < len) { /* a binary file: nothing in it is a trace, and it could not go out as JSON */
    snprintf(out->error, sizeof out->error,
             "not text: byte %zu is %s (a binary file?); expected UTF-8 text: a Markdown log, "
             "a JSON message array, or JSON lines",
             bad, trace[bad] ? "not UTF-8" : "NUL");
    out->error_code = "trace/unreadable";
    return -EINVAL;
  }
  ctrace t;
  upk__ct_init(&t);
  upk_trace_format f;
  int rc = read_trace(&t, trace, len, format, &f);
  rc = rc ? rc : upk__ct_finish(&t);
  out->format = f;
  if (rc == -EINVAL) {
    snprintf(out->error, sizeof out->error, "%s", t.why ? t.why : "the trace cannot be read");
    out->error_code = t.why_code ? t.why_code : "trace/not-json";
  }
  rc = rc ? rc : condense_events(&t, budget, out);
  upk__ct_free(&t);
  if (rc) {
    char why[sizeof out->error];
    const char *code = out->error_code;
    memcpy(why, out->error, sizeof why);
    upk_condensed_free(out);
    memcpy(out->error, why, sizeof why);
    out->error_code = code;
  }
  return rc;
}

void upk_condensed_free(upk_condensed *c) {
  free(c->text);
  for (size_t i = 0; i < c->n_left_out; i++)
    free(c->left_out[i].what);
  free(c->left_out);
  memset(c, 0, sizeof *c);
}
