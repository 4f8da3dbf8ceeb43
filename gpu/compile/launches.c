/* The launch scan: one forward pass over the file's tokens that keeps what each
 * name means (macros, constants, dim3 variables, parameters, the value an
 * `if (n == 16)` or a `case 16:` gives `n`) by scope, follows the preprocessor
 * conditionals it can decide, and records each launch site (launchsite.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/compile/launch_int.h"
#include "gpu/compile/launchpass.h"

enum { MAX_TOKENS = 4 << 20, MAX_PARENS = 256 };

/* ---- tokens ---- */

static int lex_into(lscan *s, upk_src_lexer *lx) {
  upk_src_token t;
  while (upk_src_lex_next(lx, &t)) {
    if (s->nt >= MAX_TOKENS)
      return -E2BIG;
    UPK_GROW(s->t, s->cap_t, s->nt + 1);
    s->t[s->nt++] = t;
  }
  return 0;
}

/* The headers' tokens, each part's end noted (the pass forgets open #ifs at each). */
static int lex_headers(lscan *s, const upk_launch_prelude *p) {
  s->hx = upk_xcalloc(p->n_headers + 1, sizeof *s->hx);
  s->ends = upk_xcalloc(p->n_headers + 2, sizeof *s->ends);
  s->ends[0] = s->nt;
  int rc = 0;
  for (size_t i = 0; i < p->n_headers && !rc; i++) {
    rc = upk_src_lex_open(&s->hx[s->n_hx], p->headers[i], p->header_lens[i]);
    if (!rc)
      rc = lex_into(s, &s->hx[s->n_hx++]);
    s->ends[i + 1] = s->nt;
  }
  return rc;
}

/* The request's defines as `#define N 128` lines, lexed ahead of the headers and the file. */
static int lex_all(lscan *s, const char *src, size_t len, const upk_launch_prelude *p) {
  static const upk_launch_prelude none;
  p = p ? p : &none;
  const char *const *defs = p->defines;
  size_t nd = p->n_defines;
  size_t cap = 1;
  for (size_t i = 0; i < nd; i++)
    cap += strlen(defs[i]) + 16;
  char *pre = upk_xmalloc(cap), *w = pre;
  for (size_t i = 0; i < nd; i++) {
    const char *eq = strchr(defs[i], '=');
    size_t left = cap - (size_t)(w - pre);
    w += eq ? snprintf(w, left, "#define %.*s %s\n", (int)(eq - defs[i]), defs[i], eq + 1)
            : snprintf(w, left, "#define %s 1\n", defs[i]);
  }
  *w = '\0';
  int rc = upk_src_lex_open(&s->pre, pre, (size_t)(w - pre));
  free(pre);
  if (!rc)
    rc = lex_into(s, &s->pre);
  if (!rc)
    rc = lex_headers(s, p);
  s->n_pre = s->nt;
  if (!rc)
    rc = upk_src_lex_open(&s->lx, src, len);
  return rc ? rc : lex_into(s, &s->lx);
}

/* ---- where names change ---- */

static bool operand(const upk_src_token *t) {
  return t->kind == UPK_TOK_IDENT || t->kind == UPK_TOK_NUMBER || upk_tok_is(t, ")") ||
         upk_tok_is(t, "]");
}

static bool touch(const upk_src_token *a, const upk_src_token *b, const char *ca, const char *cb) {
  return upk_tok_is(a, ca) && upk_tok_is(b, cb) && b->off == a->off + a->len;
}

/* Functions that take these arguments by value. */
static bool by_value(const upk_src_token *c) {
  static const char *const fns[] = {"if",
                                    "while",
                                    "switch",
                                    "for",
                                    "return",
                                    "sizeof",
                                    "dim3",
                                    "printf",
                                    "fprintf",
                                    "assert",
                                    "min",
                                    "max",
                                    "cudaLaunchKernel",
                                    "cudaLaunchCooperativeKernel",
                                    "cudaLaunchKernelEx",
                                    "cudaLaunchKernelExC",
                                    "cudaFuncSetAttribute",
                                    "static_cast",
                                    "defined",
                                    "alignof"};
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
    if (upk_tok_is(c, fns[i]))
      return true;
  return false;
}

/* Token `i`, a name, is changed here. `callee`: the token before the enclosing '(' or NULL. */
static bool changes(const lscan *s, size_t i, size_t a, size_t b, const upk_src_token *callee,
                    const upk_src_token *callee_prev) {
  const upk_src_token *t = s->t, *p = i > a ? &t[i - 1] : NULL, *n = i + 1 < b ? &t[i + 1] : NULL;
  const upk_src_token *n2 = i + 2 < b ? &t[i + 2] : NULL, *pp = i > a + 1 ? &t[i - 2] : NULL;
  if (p && (upk_tok_is(p, ".") || upk_tok_is(p, "->")))
    return false; /* a member of something else */
  bool typed = p && ((p->kind == UPK_TOK_IDENT && !upk_lstmt_word(p)) || upk_tok_is(p, "*") ||
                     upk_tok_is(p, "&"));
  if (n && upk_tok_is(n, "=") && !typed)
    return true;
  char op[2] = {n ? n->text[0] : 0, 0};
  if (n && n2 && n->len == 1 && strchr("+-*/%&|^", op[0]) && touch(n, n2, op, "="))
    return true;
  if (n && n2 &&
      (touch(n, n2, "+", "+") || touch(n, n2, "-", "-") || touch(n, n2, "<", "<=") ||
       touch(n, n2, ">", ">=")))
    return true;
  if (p && pp && (touch(pp, p, "+", "+") || touch(pp, p, "-", "-")))
    return true;
  if (p && upk_tok_is(p, "&") && !(pp && operand(pp)))
    return true;
  if (n && n2 && upk_tok_is(n, ".") && n2->kind == UPK_TOK_IDENT && i + 3 < b &&
      upk_tok_is(&t[i + 3], "="))
    return true; /* threads.x = 64 */
  bool bare = p && n && (upk_tok_is(p, "(") || upk_tok_is(p, ",")) &&
              (upk_tok_is(n, ",") || upk_tok_is(n, ")"));
  if (!bare || !callee)
    return false;
  if (callee->kind != UPK_TOK_IDENT)
    return !upk_tok_is(callee, ">>>");
  bool ctor = callee_prev && callee_prev->kind == UPK_TOK_IDENT; /* dim3 threads(a, b) */
  return !ctor && !by_value(callee);
}

void upk_lmutations(const lscan *s, size_t a, size_t b, void (*fn)(void *, size_t), void *arg) {
  size_t stack[MAX_PARENS], depth = 0, over = 0;
  for (size_t i = a; i < b; i++) {
    const upk_src_token *t = &s->t[i];
    if (t->directive)
      continue;
    if (upk_tok_is(t, "(")) {
      if (depth < MAX_PARENS)
        stack[depth++] = i;
      else
        over++;
    } else if (upk_tok_is(t, ")")) {
      if (over)
        over--;
      else if (depth)
        depth--;
    } else if (t->kind == UPK_TOK_IDENT) {
      size_t open = depth && !over ? stack[depth - 1] : SIZE_MAX;
      const upk_src_token *callee = open != SIZE_MAX && open > a ? &s->t[open - 1] : NULL;
      const upk_src_token *cprev = open != SIZE_MAX && open > a + 1 ? &s->t[open - 2] : NULL;
      if (over || changes(s, i, a, b, callee, cprev))
        fn(arg, i);
    }
  }
}

static void add_name(void *arg, size_t i) {
  lscan *s = arg;
  UPK_GROW(s->mutated, s->cap_mutated, s->n_mutated + 1);
  s->mutated[s->n_mutated++] = upk_xstrndup(s->t[i].text, s->t[i].len);
}

static int by_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* cfg.blockDim = ... assigned more than once: "cfg.blockDim" is a changed name. */
static void members_twice(lscan *s) {
  char **keys = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = s->n_pre; i + 3 < s->nt; i++) {
    const upk_src_token *t = &s->t[i];
    if (t->kind != UPK_TOK_IDENT || !upk_tok_is(t + 1, ".") || !upk_tok_is(t + 3, "=") ||
        !(upk_tok_is(t + 2, "blockDim") || upk_tok_is(t + 2, "dynamicSmemBytes")))
      continue;
    UPK_GROW(keys, cap, n + 1);
    keys[n++] = upk_xasprintf("%.*s.%.*s", (int)(t->len > 64 ? 64 : t->len), t->text, (int)t[2].len,
                              t[2].text);
  }
  if (n > 1)
    qsort(keys, n, sizeof *keys, by_str);
  for (size_t i = 0; i < n; i++) { /* "cfg.blockDim=": assigned; "cfg.blockDim": twice */
    bool first = i == 0 || strcmp(keys[i - 1], keys[i]);
    UPK_GROW(s->mutated, s->cap_mutated, s->n_mutated + 2);
    if (first)
      s->mutated[s->n_mutated++] = upk_xasprintf("%s=", keys[i]);
    if (first && i + 1 < n && !strcmp(keys[i], keys[i + 1]))
      s->mutated[s->n_mutated++] = upk_xstrdup(keys[i]);
  }
  for (size_t i = 0; i < n; i++) /* freed after: each is compared with the one before it */
    free(keys[i]);
  free(keys);
}

static void find_mutated(lscan *s) {
  upk_lmutations(s, s->n_pre, s->nt, add_name, s);
  members_twice(s);
  if (s->n_mutated > 1)
    qsort(s->mutated, s->n_mutated, sizeof *s->mutated, by_str);
}

/* ---- the scan ---- */

int upk_launches_scan(const char *src, size_t len, const upk_launch_prelude *pre,
                      upk_launches *out) {
  memset(out, 0, sizeof *out);
  lscan s = {0};
  int rc = lex_all(&s, src, len, pre);
  if (rc == -E2BIG) {
    out->truncated = true;
    rc = 0;
  }
  if (!rc) {
    find_mutated(&s);
    rc = upk_lpass_run(&s, out);
  }
  for (size_t i = 0; i < s.n_mutated; i++)
    free(s.mutated[i]);
  free(s.mutated);
  free(s.b);
  free(s.m);
  free(s.t);
  upk_src_lex_close(&s.lx);
  upk_src_lex_close(&s.pre);
  for (size_t i = 0; i < s.n_hx; i++)
    upk_src_lex_close(&s.hx[i]);
  free(s.hx);
  free(s.ends);
  if (rc)
    upk_launches_free(out);
  return rc;
}

void upk_launches_free(upk_launches *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].kernel);
    free(l->v[i].block_text);
    free(l->v[i].smem_text);
    free(l->v[i].why);
  }
  for (size_t i = 0; i < l->n_dyn; i++)
    free(l->dyn[i]);
  free(l->dyn);
  free(l->v);
  memset(l, 0, sizeof *l);
}
