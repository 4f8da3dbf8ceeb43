/* The launch scan's forward pass: scopes, declarations, refinements and the
 * preprocessor conditionals, token by token; launch sites go to launchsite.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/compile/launchpass.h"

enum { MAX_BINDINGS = 8192, REFINE_SPAN = 20000, TEMPLATE_SPAN = 512 };

size_t upk_lnext(const lscan *s, size_t i) {
  size_t j = i + 1;
  while (j < s->nt && s->t[j].directive)
    j++;
  return j;
}

static binding *push(lpass *p, binding b) {
  lscan *s = p->s;
  if (s->nb >= MAX_BINDINGS) {
    s->overflow = true;
    return NULL;
  }
  UPK_GROW(s->b, s->cap_b, s->nb + 1);
  s->b[s->nb] = b;
  return &s->b[s->nb++];
}

static void push_macro(lpass *p, binding b) {
  lscan *s = p->s;
  UPK_GROW(s->m, s->cap_m, s->nm + 1);
  s->m[s->nm++] = b;
}

static void close_scope(lpass *p) {
  lscan *s = p->s;
  if (p->depth == 0)
    return;
  while (s->nb && s->b[s->nb - 1].depth >= p->depth)
    s->nb--;
  while (p->nsw && p->sw[p->nsw - 1].depth >= p->depth)
    p->nsw--;
  if (p->kdepth && p->depth == p->kdepth)
    p->kdepth = 0;
  p->depth--;
}

/* `;`: an unbraced statement's refinement ends; a prototype's parameters go. */
static void end_statement(lpass *p) {
  lscan *s = p->s;
  while (s->nb && p->paren == 0 &&
         ((s->b[s->nb - 1].stmt && s->b[s->nb - 1].depth == p->depth) ||
          (s->b[s->nb - 1].param && s->b[s->nb - 1].depth == p->depth + 1)))
    s->nb--;
  p->stmt_kind = -1;
}

/* ---- the preprocessor ---- */

static void region(lpass *p) {
  p->state = 1;
  p->cond_line = -1;
  for (size_t i = 0; i < p->nfr; i++) {
    if (p->fr[i].state == 0) {
      p->state = 0;
      return;
    }
    if (p->fr[i].state == 2)
      p->state = 2, p->cond_line = p->fr[i].line;
  }
  if (p->fr_over)
    p->state = 2;
}

/* An #if's condition [a, b): 0, 1, or 2 when not known. */
static int condition(lpass *p, size_t a, size_t b, size_t at) {
  ev e = {.s = p->s, .pp = true};
  long long v = upk_leval(&e, a, b, at, 0);
  return e.bad ? 2 : v != 0;
}

/* #ifndef X right before #define X: an include guard or a default value. */
static bool guard_idiom(const lscan *s, size_t name, size_t end) {
  return end + 2 < s->nt && s->t[end].kind == UPK_TOK_HASH &&
         upk_tok_is(&s->t[end + 1], "define") && s->t[end + 2].len == s->t[name].len &&
         !memcmp(s->t[end + 2].text, s->t[name].text, s->t[name].len);
}

static int ifdef_state(lpass *p, size_t name, size_t end, bool neg) {
  const lscan *s = p->s;
  long i = upk_llookup(s, s->t[name].text, s->t[name].len, name, 0);
  if (i <= -2) {
    bool def = s->m[-2 - i].kind != B_UNDEF;
    return def != neg;
  }
  if (neg && guard_idiom(s, name, end))
    return 1;
  return 2;
}

static void open_frame(lpass *p, int state, int line) {
  if (p->nfr >= MAX_FRAMES) {
    p->fr_over++;
    return;
  }
  bool parent_off = p->state == 0;
  p->fr[p->nfr++] = (frame){parent_off ? 0 : state, parent_off ? 1 : state, line};
}

static void branch(lpass *p, const upk_src_token *kw, size_t a, size_t end, int line) {
  if (p->fr_over) {
    p->fr_over -= upk_tok_is(kw, "endif");
    return;
  }
  if (!p->nfr)
    return;
  frame *f = &p->fr[p->nfr - 1];
  if (upk_tok_is(kw, "endif")) {
    p->nfr--;
    return;
  }
  int cond = upk_tok_is(kw, "else") ? 1 : condition(p, a, end, a);
  if (f->taken == 1)
    f->state = 0;
  else if (f->taken == 2 || cond == 2)
    f->state = 2, f->taken = 2, f->line = line;
  else
    f->state = cond, f->taken = cond;
}

static void define(lpass *p, size_t hash, size_t name, size_t end) {
  const lscan *s = p->s;
  const upk_src_token *n = &s->t[name];
  if (n->kind != UPK_TOK_IDENT)
    return;
  bool fn =
      name + 1 < end && upk_tok_is(&s->t[name + 1], "(") && s->t[name + 1].off == n->off + n->len;
  binding b = {.name = n->text, .len = n->len, .depth = -1, .at = hash, .a = name + 1, .b = end};
  b.kind = fn ? B_FMACRO : p->state == 2 ? B_UNKNOWN : B_MACRO;
  b.why = "%.*s is defined under an #if this scan cannot decide";
  push_macro(p, b);
}

/* A directive from its '#'; returns the index after it. */
static size_t directive(lpass *p, size_t hash) {
  const lscan *s = p->s;
  size_t end = hash + 1;
  while (end < s->nt && s->t[end].directive == s->t[hash].directive &&
         s->t[end].kind != UPK_TOK_HASH && (end < s->n_pre) == (hash < s->n_pre))
    end++;
  if (end == hash + 1)
    return end;
  const upk_src_token *kw = &s->t[hash + 1];
  int line = -1, col;
  if (hash >= s->n_pre)
    upk_src_lex_pos(&s->lx, kw->off, &line, &col);
  size_t a = hash + 2;
  if (upk_tok_is(kw, "if"))
    open_frame(p, p->state ? condition(p, a, end, a) : 0, line);
  else if ((upk_tok_is(kw, "ifdef") || upk_tok_is(kw, "ifndef")) && a < end)
    open_frame(p, p->state ? ifdef_state(p, a, end, upk_tok_is(kw, "ifndef")) : 0, line);
  else if (upk_tok_is(kw, "elif") || upk_tok_is(kw, "else") || upk_tok_is(kw, "endif"))
    branch(p, kw, a, end, line);
  else if (p->state && upk_tok_is(kw, "define") && a < end)
    define(p, hash, a, end);
  else if (p->state && upk_tok_is(kw, "undef") && a < end)
    push_macro(p, (binding){.name = s->t[a].text, .len = s->t[a].len, .kind = B_UNDEF, .at = hash});
  region(p);
  return end;
}

/* ---- declarations ---- */

enum { T_NONE = -1, T_UNKNOWN, T_INT, T_DIM3, T_CONFIG };

static size_t lprev(const lscan *s, size_t i) {
  while (i > 0) {
    i--;
    if (!s->t[i].directive)
      return i;
  }
  return SIZE_MAX;
}

static bool word_in(const upk_src_token *t, const char *const *w, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (upk_tok_is(t, w[i]))
      return true;
  return false;
}

/* The type the words before a declared name give it. */
static int decl_type(const lscan *s, size_t name, bool *is_const) {
  static const char *const ints[] = {"int",     "unsigned", "signed",   "long",    "short",
                                     "size_t",  "uint",     "uint32_t", "int32_t", "uint64_t",
                                     "int64_t", "auto",     "char"};
  static const char *const skip[] = {"static",   "inline", "__host__", "extern",    "volatile",
                                     "register", "std",    "::",       "__device__"};
  int type = T_NONE;
  *is_const = false;
  size_t i = name;
  for (int n = 0; n < 8 && (i = lprev(s, i)) != SIZE_MAX; n++) {
    const upk_src_token *t = &s->t[i];
    if (upk_tok_is(t, "*") || upk_tok_is(t, "&") || upk_tok_is(t, "&&") || upk_tok_is(t, ">"))
      return T_UNKNOWN;
    if ((t->kind != UPK_TOK_IDENT && !upk_tok_is(t, "::")) || upk_lstmt_word(t))
      break;
    if (upk_tok_is(t, "const") || upk_tok_is(t, "constexpr"))
      *is_const = true;
    else if (upk_tok_is(t, "dim3"))
      type = T_DIM3;
    else if (upk_tok_is(t, "cudaLaunchConfig_t"))
      type = T_CONFIG;
    else if (word_in(t, ints, sizeof ints / sizeof *ints))
      type = type == T_NONE ? T_INT : type;
    else if (!word_in(t, skip, sizeof skip / sizeof *skip))
      return T_UNKNOWN;
  }
  return type == T_NONE ? T_UNKNOWN : type;
}

/* End of an initializer from `a`: the ',' ';' or unmatched ')' at depth 0. */
static size_t init_end(const lscan *s, size_t a) {
  for (size_t i = a; i < s->nt; i++) {
    if (s->t[i].directive)
      continue;
    if (upk_ltok(s, i, "(") || upk_ltok(s, i, "{") || upk_ltok(s, i, "["))
      i = upk_lmatch(s, i, s->nt);
    else if (upk_ltok(s, i, ",") || upk_ltok(s, i, ";") || upk_ltok(s, i, ")") ||
             upk_ltok(s, i, "}"))
      return i;
  }
  return s->nt;
}

static bool declares(const lpass *p, size_t i, size_t next) {
  static const char *const follow[] = {"=", "(", "{", ";", ",", ")", "[", ":"};
  const lscan *s = p->s;
  if (next >= s->nt || !word_in(&s->t[next], follow, 8) || p->prev == SIZE_MAX ||
      upk_lstmt_word(&s->t[i]))
    return false;
  const upk_src_token *t = &s->t[p->prev];
  if (upk_tok_is(t, ",") && p->paren == 0)
    return p->stmt_kind != T_NONE;
  return (t->kind == UPK_TOK_IDENT && !upk_lstmt_word(t)) || upk_tok_is(t, "*") ||
         upk_tok_is(t, "&") || upk_tok_is(t, "&&") || upk_tok_is(t, ">");
}

static void declare(lpass *p, size_t i, size_t next) {
  lscan *s = p->s;
  bool is_const = p->stmt_const;
  int type =
      upk_tok_is(&s->t[p->prev], ",") && p->paren == 0 ? p->stmt_kind : decl_type(s, i, &is_const);
  binding b = {.name = s->t[i].text, .len = s->t[i].len, .depth = p->depth, .at = i};
  b.kind = type == T_DIM3     ? B_DIM3
           : type == T_CONFIG ? B_CONFIG
           : type == T_INT    ? B_INT
                              : B_UNKNOWN;
  b.why = "%.*s is not of a type this scan reads";
  if (p->paren == 0)
    p->stmt_kind = type, p->stmt_const = is_const;
  if (upk_ltok(s, next, "=")) {
    b.a = upk_lnext(s, next), b.b = init_end(s, b.a);
    if (b.kind == B_CONFIG && upk_ltok(s, b.a, "{") && upk_lmatch(s, b.a, s->nt) + 1 == b.b)
      b.a++, b.b--, b.args = true;
  } else if (upk_ltok(s, next, "(") || upk_ltok(s, next, "{")) {
    b.a = next + 1, b.b = upk_lmatch(s, next, s->nt), b.args = true;
  } else if (b.kind != B_UNKNOWN) {
    b.kind = B_UNKNOWN, b.why = "%.*s has no initializer this scan reads";
  }
  if (p->paren > 0)
    b.kind = B_UNKNOWN, b.why = "%.*s is a parameter", b.param = true, b.depth = p->depth + 1;
  else if (b.kind == B_CONFIG && !b.args)
    b.kind = B_UNKNOWN;
  else if (p->state == 2 && b.kind != B_UNKNOWN)
    b.kind = B_UNKNOWN, b.why = "%.*s is declared under an #if this scan cannot decide";
  else if (!is_const && b.kind != B_UNKNOWN && b.kind != B_CONFIG &&
           upk_lis_mutated(s, b.name, b.len))
    b.kind = B_UNKNOWN, b.why = "%.*s is changed in the file";
  push(p, b);
}

/* cfg.blockDim = ...; / cfg.dynamicSmemBytes = ...; of a cudaLaunchConfig_t. */
static bool member(lpass *p, size_t i) {
  lscan *s = p->s;
  size_t dot = upk_lnext(s, i), m = upk_lnext(s, dot), eq = upk_lnext(s, m);
  if (!upk_ltok(s, dot, ".") || !upk_ltok(s, eq, "=") ||
      !(upk_ltok(s, m, "blockDim") || upk_ltok(s, m, "dynamicSmemBytes")))
    return false;
  char key[160];
  snprintf(key, sizeof key, "%.*s.%.*s", (int)(s->t[i].len > 64 ? 64 : s->t[i].len), s->t[i].text,
           (int)s->t[m].len, s->t[m].text);
  binding b = {.name = s->t[m].text,
               .len = s->t[m].len,
               .depth = p->depth,
               .at = i,
               .owner = s->t[i].text,
               .owner_len = s->t[i].len};
  b.kind = upk_ltok(s, m, "blockDim") ? B_DIM3 : B_INT;
  b.a = upk_lnext(s, eq), b.b = init_end(s, b.a);
  if (upk_lis_mutated(s, key, strlen(key)))
    b.kind = B_UNKNOWN, b.why = "%.*s is assigned more than once in the file";
  else if (p->state == 2)
    b.kind = B_UNKNOWN, b.why = "%.*s is assigned under an #if this scan cannot decide";
  push(p, b);
  return true;
}

/* ---- what a branch tells of a name: if (n == 16), case 16: ---- */

typedef struct hit {
  const lscan *s;
  const upk_src_token *name;
  bool found;
} hit;

static void same_name(void *arg, size_t i) {
  hit *h = arg;
  const upk_src_token *t = &h->s->t[i];
  h->found |= t->len == h->name->len && !memcmp(t->text, h->name->text, t->len);
}

/* Whether `name` keeps its value over [a, b): nothing there changes it, and the span is
 * bounded (a longer one is not looked at: the value is then not known). */
static bool steady(const lscan *s, size_t name, size_t a, size_t b) {
  if (b > s->nt || b < a || b - a > REFINE_SPAN)
    return false;
  hit h = {s, &s->t[name], false};
  upk_lmutations(s, a, b, same_name, &h);
  return !h.found;
}

/* The value of a literal token, or -1. */
static long long literal_at(const lscan *s, size_t i) {
  if (i >= s->nt || s->t[i].kind != UPK_TOK_NUMBER)
    return -1;
  ev e = {.s = s};
  long long v = upk_leval(&e, i, i + 1, i, 0);
  return e.bad ? -1 : v;
}

/* What `name` means here, when a branch may narrow it: a variable or a parameter. */
static long narrowable(const lscan *s, size_t name) {
  long i = upk_llookup(s, s->t[name].text, s->t[name].len, name, s->nb);
  return i >= 0 && (s->b[i].kind == B_INT || s->b[i].kind == B_UNKNOWN) ? i : -1;
}

/* if (n == 16) / if (16 == n): n is 16 in the statement or block that follows. */
static void if_refine(lpass *p, size_t i) {
  lscan *s = p->s;
  size_t k[6];
  k[0] = upk_lnext(s, i);
  for (int j = 1; j < 6; j++)
    k[j] = upk_lnext(s, k[j - 1]);
  if (!upk_ltok(s, k[0], "(") || !upk_ltok(s, k[2], "==") || !upk_ltok(s, k[4], ")"))
    return;
  bool lit_first = s->t[k[1]].kind == UPK_TOK_NUMBER;
  size_t name = lit_first ? k[3] : k[1];
  long long v = literal_at(s, lit_first ? k[1] : k[3]);
  long target = s->t[name].kind == UPK_TOK_IDENT ? narrowable(s, name) : -1;
  if (v < 0 || target < 0)
    return;
  bool braced = upk_ltok(s, k[5], "{");
  size_t end = braced ? upk_lmatch(s, k[5], s->nt) : init_end(s, k[5]);
  if (!steady(s, name, k[5], end))
    return;
  push(p, (binding){.name = s->t[name].text,
                    .len = s->t[name].len,
                    .kind = B_REFINE,
                    .depth = braced ? p->depth + 1 : p->depth,
                    .stmt = !braced,
                    .at = i,
                    .value = v,
                    .target = (size_t)target});
}

/* switch (n) {: each `case 16:` reached only from its label makes n 16 until the next. */
static void switch_open(lpass *p, size_t i) {
  lscan *s = p->s;
  size_t open = upk_lnext(s, i), name = upk_lnext(s, open), close = upk_lnext(s, name);
  size_t body = upk_lnext(s, close);
  if (!upk_ltok(s, open, "(") || !upk_ltok(s, close, ")") || !upk_ltok(s, body, "{") ||
      s->t[name].kind != UPK_TOK_IDENT || p->nsw >= MAX_SWITCHES)
    return;
  long target = narrowable(s, name);
  if (target < 0 || !steady(s, name, body, upk_lmatch(s, body, s->nt)))
    return;
  p->sw[p->nsw++] = (swframe){name, p->depth + 1, -1, (size_t)target};
}

static void case_label(lpass *p, size_t i, bool is_default) {
  lscan *s = p->s;
  swframe *w = p->nsw ? &p->sw[p->nsw - 1] : NULL;
  if (!w || w->depth != p->depth)
    return;
  if (w->refine >= 0 && (size_t)w->refine < s->nb)
    s->b[w->refine].len = 0; /* the previous label's value ends here */
  w->refine = -1;
  size_t lit = upk_lnext(s, i), colon = upk_lnext(s, lit), after = upk_lnext(s, colon);
  bool entered_only_here =
      upk_ltok(s, p->prev, "{") || (upk_ltok(s, p->prev, ";") && upk_ltok(s, p->prev2, "break"));
  long long v = literal_at(s, lit);
  if (is_default || v < 0 || !upk_ltok(s, colon, ":") || !entered_only_here ||
      upk_ltok(s, after, "case") || upk_ltok(s, after, "default"))
    return;
  const upk_src_token *n = &s->t[w->name];
  if (push(p, (binding){.name = n->text,
                        .len = n->len,
                        .kind = B_REFINE,
                        .depth = p->depth,
                        .is_case = true,
                        .at = i,
                        .value = v,
                        .target = w->target}))
    w->refine = (long)s->nb - 1;
}

/* ---- template parameters, kernel bodies, the loop ---- */

/* template <class T, int BS = 128>: each name is unknown in what the template declares. */
static size_t template_params(lpass *p, size_t lt) {
  lscan *s = p->s;
  int angle = 0;
  size_t i = lt;
  for (size_t n = 0; i < s->nt && n < TEMPLATE_SPAN; i = upk_lnext(s, i), n++) {
    if (upk_ltok(s, i, "(")) {
      i = upk_lmatch(s, i, s->nt);
      continue;
    }
    angle += upk_ltok(s, i, "<") - upk_ltok(s, i, ">");
    if (angle == 0 || upk_ltok(s, i, ";") || upk_ltok(s, i, "{"))
      break;
    size_t next = upk_lnext(s, i);
    if (s->t[i].kind == UPK_TOK_IDENT && angle == 1 &&
        (upk_ltok(s, next, ",") || upk_ltok(s, next, ">") || upk_ltok(s, next, "=")))
      push(p, (binding){.name = s->t[i].text,
                        .len = s->t[i].len,
                        .kind = B_UNKNOWN,
                        .depth = p->depth + 1,
                        .param = true,
                        .at = i,
                        .why = "%.*s is a template parameter"});
  }
  return i < s->nt ? i : s->nt - 1;
}

static void extern_shared(lpass *p) {
  upk_launches *o = p->out;
  if (!p->kdepth) {
    o->dyn_outside = true;
    return;
  }
  const upk_src_token *k = &p->s->t[p->kname];
  if (o->n_dyn && strlen(o->dyn[o->n_dyn - 1]) == k->len &&
      !memcmp(o->dyn[o->n_dyn - 1], k->text, k->len))
    return;
  UPK_GROW(o->dyn, o->cap_dyn, o->n_dyn + 1);
  o->dyn[o->n_dyn++] = upk_xstrndup(k->text, k->len);
}

static void open_brace(lpass *p) {
  p->depth++;
  p->stmt_kind = T_NONE;
  if (p->global && p->kname != SIZE_MAX && p->paren == 0)
    p->kdepth = p->depth;
  p->global = false;
}

static bool launch_call(const upk_src_token *t) {
  return upk_tok_is(t, "cudaLaunchKernel") || upk_tok_is(t, "cudaLaunchCooperativeKernel") ||
         upk_tok_is(t, "cudaLaunchKernelEx") || upk_tok_is(t, "cudaLaunchKernelExC");
}

static size_t ident(lpass *p, size_t i) {
  lscan *s = p->s;
  const upk_src_token *t = &s->t[i];
  size_t next = upk_lnext(s, i);
  if (upk_tok_is(t, "template") && upk_ltok(s, next, "<"))
    return template_params(p, next);
  if (upk_tok_is(t, "if"))
    if_refine(p, i);
  else if (upk_tok_is(t, "switch"))
    switch_open(p, i);
  else if (upk_tok_is(t, "case") || upk_tok_is(t, "default"))
    case_label(p, i, upk_tok_is(t, "default"));
  else if (upk_tok_is(t, "__global__"))
    p->global = true, p->kname = SIZE_MAX;
  else if (upk_tok_is(t, "extern") && upk_ltok(s, next, "__shared__"))
    extern_shared(p);
  else if (launch_call(t))
    upk_lsite(p, i);
  else if (p->global && p->paren == 0 && upk_ltok(s, next, "("))
    p->kname = i;
  if (!member(p, i) && declares(p, i, next))
    declare(p, i, next);
  return i;
}

static size_t code_token(lpass *p, size_t i) {
  const upk_src_token *t = &p->s->t[i];
  if (t->kind == UPK_TOK_IDENT)
    return ident(p, i);
  if (upk_tok_is(t, "{"))
    open_brace(p);
  else if (upk_tok_is(t, "}"))
    close_scope(p), p->stmt_kind = T_NONE;
  else if (upk_tok_is(t, ";"))
    end_statement(p), p->global = false;
  else if (upk_tok_is(t, "("))
    p->paren++;
  else if (upk_tok_is(t, ")"))
    p->paren -= p->paren > 0;
  else if (upk_tok_is(t, "<<<"))
    upk_lsite(p, i);
  return i;
}

int upk_lpass_run(lscan *s, upk_launches *out) {
  lpass p = {.s = s,
             .out = out,
             .prev = SIZE_MAX,
             .prev2 = SIZE_MAX,
             .stmt_kind = T_NONE,
             .state = 1,
             .cond_line = -1,
             .kname = SIZE_MAX};
  size_t part = 0;
  for (size_t i = 0; i < s->nt;) {
    if (s->ends && part <= s->n_hx && i >= s->ends[part]) { /* a header ends: its #ifs too */
      p.nfr = p.fr_over = 0;
      region(&p);
      while (part <= s->n_hx && i >= s->ends[part])
        part++;
    }
    if (s->t[i].kind == UPK_TOK_HASH) {
      i = directive(&p, i);
      continue;
    }
    if (s->t[i].directive || p.state == 0 || i < s->n_pre) {
      i++;
      continue;
    }
    size_t last = code_token(&p, i);
    p.prev2 = p.prev;
    p.prev = last;
    i = last + 1;
  }
  return 0;
}
