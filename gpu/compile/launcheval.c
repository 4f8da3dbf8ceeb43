/* Constant expressions of launch sites: integers, dim3 and the names they use,
 * evaluated over token ranges. A name's definition is evaluated where it is used
 * (a macro, textually) or where it was declared (a variable), so what it reads
 * is what the compiler would have read. Anything else is unknown, with why. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/launch_int.h"

enum { STEP_BUDGET = 200000, MAX_DEPTH = 24, MAX_NEST = 64 };
static const long long VALUE_MAX = 1LL << 40; /* larger is no block or shared size */

bool upk_ltok(const lscan *s, size_t i, const char *text) {
  return i < s->nt && upk_tok_is(&s->t[i], text);
}

size_t upk_lmatch(const lscan *s, size_t i, size_t end) {
  int depth = 0;
  for (size_t j = i; j < end; j++) {
    const upk_src_token *t = &s->t[j];
    if (t->kind != UPK_TOK_PUNCT || t->len != 1)
      continue;
    char c = t->text[0];
    depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
    if (depth == 0)
      return j;
  }
  return end;
}

static bool same(const binding *b, const char *name, size_t len) {
  return !b->owner && b->len == len && !memcmp(b->name, name, len);
}

long upk_llookup(const lscan *s, const char *name, size_t len, size_t pos, size_t limit) {
  for (size_t i = s->nm; i-- > 0;)
    if (s->m[i].at < pos && same(&s->m[i], name, len))
      return -2 - (long)i;
  long refine = -1;
  for (size_t i = s->nb; i-- > 0;) {
    const binding *b = &s->b[i];
    if (!same(b, name, len))
      continue;
    if (b->kind == B_REFINE) {
      if (refine < 0)
        refine = (long)i;
      continue;
    }
    if (i >= limit) /* declared after the code that reads it: another variable */
      continue;
    return refine >= 0 && s->b[refine].target == i ? refine : (long)i;
  }
  return -1;
}

void upk_lwhy(ev *e, const char *fmt, const char *name, size_t len) {
  if (!e->bad)
    snprintf(e->why, sizeof e->why, fmt, (int)(len > 60 ? 60 : len), name);
  e->bad = true;
}

bool upk_lis_mutated(const lscan *s, const char *name, size_t len) {
  size_t lo = 0, hi = s->n_mutated;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strncmp(s->mutated[mid], name, len);
    if (c == 0 && s->mutated[mid][len] != '\0')
      c = 1;
    if (c == 0)
      return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

int upk_ltype_size(const char *n, size_t len) {
  static const struct {
    const char *name;
    int size;
  } T[] = {{"char", 1},     {"uchar", 1},    {"int8_t", 1},   {"uint8_t", 1},       {"bool", 1},
           {"short", 2},    {"half", 2},     {"__half", 2},   {"__nv_bfloat16", 2}, {"int16_t", 2},
           {"uint16_t", 2}, {"int", 4},      {"unsigned", 4}, {"uint", 4},          {"float", 4},
           {"int32_t", 4},  {"uint32_t", 4}, {"long", 8},     {"double", 8},        {"size_t", 8},
           {"int64_t", 8},  {"uint64_t", 8}, {"float2", 8},   {"int2", 8},          {"uint2", 8},
           {"half2", 4},    {"__half2", 4},  {"float4", 16},  {"int4", 16},         {"uint4", 16},
           {"double2", 16}, {"char4", 4},    {"uchar4", 4}};
  for (size_t i = 0; i < sizeof T / sizeof *T; i++)
    if (strlen(T[i].name) == len && !memcmp(T[i].name, n, len))
      return T[i].size;
  return 0;
}

/* ---- the parser: precedence climbing over [p, b) ---- */

typedef struct pr {
  ev *e;
  size_t p, b, pos, limit;
} pr;

static const upk_src_token *peek(pr *x) {
  return x->p < x->b ? &x->e->s->t[x->p] : NULL;
}

static bool at(pr *x, const char *s) {
  return x->p < x->b && upk_tok_is(&x->e->s->t[x->p], s);
}

/* Two one-character tokens that touch: "<" "<" is a shift. */
static bool at2(pr *x, char c) {
  const upk_src_token *t = x->e->s->t;
  char s[2] = {c, 0};
  return x->p + 1 < x->b && upk_tok_is(&t[x->p], s) && upk_tok_is(&t[x->p + 1], s) &&
         t[x->p + 1].off == t[x->p].off + 1 &&
         !(x->p + 2 < x->b && upk_tok_is(&t[x->p + 2], "=") && t[x->p + 2].off == t[x->p].off + 2);
}

static long long ternary(pr *x);

static long long fail(pr *x, const char *why) {
  const upk_src_token *t = peek(x);
  upk_lwhy(x->e, why, t ? t->text : "", t ? t->len : 0);
  x->p = x->b;
  return 0;
}

static long long number(pr *x, const upk_src_token *t) {
  char num[40];
  size_t n = 0;
  for (size_t i = 0; i < t->len && n + 1 < sizeof num; i++)
    if (t->text[i] != '\'')
      num[n++] = t->text[i];
  num[n] = '\0';
  char *end;
  long long v = strtoll(num, &end, 0);
  while (*end && strchr("uUlLzZ", *end))
    end++;
  x->p++;
  if (*end || v < 0 || v > VALUE_MAX)
    return upk_lwhy(x->e, "%.*s is not an integer this scan reads", t->text, t->len), 0;
  return v;
}

/* Integer type words of a cast or a sizeof: their count, 0 when not one. */
static size_t int_type(pr *x, size_t i, size_t end, int *size) {
  const upk_src_token *t = x->e->s->t;
  size_t n = 0;
  *size = 0;
  for (; i < end && t[i].kind == UPK_TOK_IDENT; i++, n++) {
    int sz = upk_ltype_size(t[i].text, t[i].len);
    if (!sz && !upk_tok_is(&t[i], "const") && !upk_tok_is(&t[i], "signed"))
      return 0;
    *size = sz > *size ? sz : *size;
  }
  return n;
}

static long long dim3_member(pr *x, const upk_src_token *t);
static long long name_value(pr *x, const upk_src_token *t);

/* `defined X` / `defined(X)` in an #if: 1, 0, or unknown for a name the file never defines. */
static long long defined(pr *x) {
  bool paren = x->p + 1 < x->b && upk_tok_is(&x->e->s->t[x->p + 1], "(");
  size_t n = x->p + 1 + paren;
  if (n >= x->b || x->e->s->t[n].kind != UPK_TOK_IDENT)
    return fail(x, "defined without a name%.*s");
  const upk_src_token *t = &x->e->s->t[n];
  x->p = n + 1 + paren;
  long i = upk_llookup(x->e->s, t->text, t->len, x->pos, 0);
  if (i <= -2)
    return x->e->s->m[-2 - i].kind != B_UNDEF;
  upk_lwhy(x->e, "whether %.*s is defined is not known here", t->text, t->len);
  return 0;
}

static long long primary(pr *x) {
  const upk_src_token *t = peek(x);
  if (!t)
    return fail(x, "an expression ends early%.*s");
  if (++x->e->steps > STEP_BUDGET)
    return fail(x, "the expression is too large to follow%.*s");
  if (t->kind == UPK_TOK_NUMBER)
    return number(x, t);
  if (at(x, "(")) {
    size_t close = upk_lmatch(x->e->s, x->p, x->b);
    if (close >= x->b)
      return fail(x, "unbalanced parentheses at %.*s");
    pr in = {x->e, x->p + 1, close, x->pos, x->limit};
    if (x->e->nest >= MAX_NEST)
      return fail(x, "the expression nests too deeply%.*s");
    x->e->nest++;
    long long v = ternary(&in);
    x->e->nest--;
    if (in.p != close && !x->e->bad)
      upk_lwhy(x->e, "%.*s is not an expression this scan reads", t->text, 1);
    x->p = close + 1;
    return v;
  }
  if (upk_tok_is(t, "sizeof") && x->p + 1 < x->b && upk_tok_is(t + 1, "(")) {
    size_t close = upk_lmatch(x->e->s, x->p + 1, x->b);
    int size = 0;
    size_t n = int_type(x, x->p + 2, close, &size);
    if (!n || x->p + 2 + n != close || !size) {
      const upk_src_token *in = t + 2;
      upk_lwhy(x->e, "sizeof(%.*s) is not of a built-in type", in->text, in->len);
      x->p = x->b;
      return 0;
    }
    x->p = close + 1;
    return size;
  }
  if (x->e->pp && upk_tok_is(t, "defined"))
    return defined(x);
  if (t->kind == UPK_TOK_IDENT) {
    if (x->p + 2 < x->b && upk_tok_is(t + 1, "."))
      return dim3_member(x, t);
    return name_value(x, t);
  }
  return fail(x, "'%.*s' is not in an expression this scan reads");
}

static long long unary(pr *x) {
  if (x->e->nest >= MAX_NEST)
    return fail(x, "the expression nests too deeply%.*s");
  if (at(x, "-") || at(x, "+") || at(x, "!") || at(x, "~")) {
    char op = peek(x)->text[0];
    x->p++;
    x->e->nest++;
    long long v = unary(x);
    x->e->nest--;
    return op == '-' ? -v : op == '!' ? !v : op == '~' ? ~v : v;
  }
  if (at(x, "(")) { /* a cast to an integer type */
    int size;
    size_t n = int_type(x, x->p + 1, x->b, &size);
    if (n && x->p + 1 + n < x->b && upk_tok_is(&x->e->s->t[x->p + 1 + n], ")")) {
      x->p += n + 2;
      return unary(x);
    }
  }
  if (at(x, "static_cast") || at(x, "int") || at(x, "unsigned") || at(x, "size_t")) {
    size_t open = x->p + 1;
    if (upk_ltok(x->e->s, open, "<")) /* static_cast<T>(...): skip <T> */
      while (open < x->b && !upk_tok_is(&x->e->s->t[open], ">"))
        open++;
    open += upk_tok_is(&x->e->s->t[x->p], "static_cast");
    if (open < x->b && upk_tok_is(&x->e->s->t[open], "(")) {
      x->p = open;
      return primary(x);
    }
  }
  return primary(x);
}

static bool mul_ok(long long a, long long b, long long *r) {
  return !__builtin_mul_overflow(a, b, r) && *r <= VALUE_MAX && *r >= -VALUE_MAX;
}

/* v OP r for the operators that cannot fail. */
static long long plain(const char *op, long long v, long long r) {
  if (!strcmp(op, "||"))
    return v || r;
  if (!strcmp(op, "&&"))
    return v && r;
  if (!strcmp(op, "=="))
    return v == r;
  if (!strcmp(op, "!="))
    return v != r;
  if (!strcmp(op, "<="))
    return v <= r;
  if (!strcmp(op, ">="))
    return v >= r;
  switch (op[0]) {
  case '|':
    return v | r;
  case '^':
    return v ^ r;
  case '&':
    return v & r;
  case '<':
    return v < r;
  case '>':
    return v > r;
  case '+':
    return v + r;
  default:
    return v - r;
  }
}

/* v OP r, or unknown with why (overflow, division by zero, out of range). */
static long long apply(pr *x, const char *op, long long v, long long r) {
  long long out = 0;
  if (!strcmp(op, "<<") || !strcmp(op, "*")) {
    bool shift = op[0] == '<';
    if ((shift && (r < 0 || r >= 40)) || !mul_ok(v, shift ? 1LL << r : r, &out))
      upk_lwhy(x->e, "%.*s overflows", op, strlen(op));
  } else if (!strcmp(op, ">>")) {
    out = r >= 0 && r < 63 ? v >> r : 0;
  } else if (!strcmp(op, "/") || !strcmp(op, "%")) {
    if (r == 0)
      upk_lwhy(x->e, "%.*s divides by zero", op, 1);
    else
      out = op[0] == '/' ? v / r : v % r;
  } else {
    out = plain(op, v, r);
  }
  if (out > VALUE_MAX || out < -VALUE_MAX)
    upk_lwhy(x->e, "%.*s is out of range", op, strlen(op));
  return out;
}

/* One level of binary operators; `level` 0 is the loosest. */
static long long binary(pr *x, int level) {
  static const char *const ops[][4] = {
      {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
      {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  if (level == 10)
    return unary(x);
  long long v = binary(x, level + 1);
  for (;;) {
    const char *op = NULL;
    if (level == 7) {
      op = at2(x, '<') ? "<<" : at2(x, '>') ? ">>" : NULL;
    } else {
      for (int i = 0; i < 4 && ops[level][i]; i++)
        if (at(x, ops[level][i]) && !(level == 6 && (at2(x, '<') || at2(x, '>'))))
          op = ops[level][i];
    }
    if (!op || x->e->bad)
      return v;
    x->p += level == 7 ? 2 : 1;
    long long r = binary(x, level + 1);
    v = apply(x, op, v, r);
  }
}

static long long ternary(pr *x) {
  long long c = binary(x, 0);
  if (!at(x, "?"))
    return c;
  x->p++;
  if (x->e->nest >= MAX_NEST)
    return fail(x, "the expression nests too deeply%.*s");
  x->e->nest++;
  long long a = ternary(x);
  if (!at(x, ":"))
    return fail(x, "a ?: without ':' at %.*s");
  x->p++;
  long long b = ternary(x);
  x->e->nest--;
  return c ? a : b;
}

long long upk_leval(ev *e, size_t a, size_t b, size_t pos, size_t limit) {
  if (a >= b) {
    upk_lwhy(e, "an empty expression%.*s", "", 0);
    return 0;
  }
  for (size_t i = a; i < b; i++)
    if (e->s->t[i].kind == UPK_TOK_HASH) {
      upk_lwhy(e, "the expression spans a preprocessor directive%.*s", "", 0);
      return 0;
    }
  pr x = {e, a, b, pos, limit};
  long long v = ternary(&x);
  if (x.p != b && !e->bad)
    upk_lwhy(e, "'%.*s' is not in an expression this scan reads", e->s->t[x.p].text,
             e->s->t[x.p].len);
  return e->bad ? 0 : v;
}

/* ---- names ---- */

static const binding *resolve(ev *e, const char *name, size_t len, size_t pos, size_t limit) {
  long i = upk_llookup(e->s, name, len, pos, limit);
  if (i == -1) {
    upk_lwhy(e, "%.*s is not a constant this scan can read", name, len);
    return NULL;
  }
  const binding *b = i <= -2 ? &e->s->m[-2 - i] : &e->s->b[i];
  if (b->kind == B_UNKNOWN || b->kind == B_UNDEF || b->kind == B_FMACRO) {
    upk_lwhy(e,
             b->kind == B_UNDEF    ? "%.*s is #undef'd"
             : b->kind == B_FMACRO ? "%.*s is a function-like macro"
                                   : b->why,
             name, len);
    return NULL;
  }
  if (e->depth >= MAX_DEPTH) {
    upk_lwhy(e, "%.*s is defined through too many names", name, len);
    return NULL;
  }
  return b;
}

/* Where a binding's own names are looked up: a macro's where it is used, a variable's where
 * it was declared. */
static void scope_of(const ev *e, const binding *b, size_t pos, size_t limit, size_t *bpos,
                     size_t *blimit) {
  bool macro = b >= e->s->m && b < e->s->m + e->s->nm;
  *bpos = macro ? pos : b->at;
  *blimit = macro ? limit : (size_t)(b - e->s->b);
}

static long long name_value(pr *x, const upk_src_token *t) {
  ev *e = x->e;
  x->p++;
  if (x->p < x->b && (at(x, "(") || at(x, "::"))) {
    upk_lwhy(e,
             at(x, "(") ? "%.*s(...) is a call this scan does not evaluate"
                        : "%.*s::... is a qualified name this scan does not read",
             t->text, t->len);
    x->p = x->b;
    return 0;
  }
  const binding *b = resolve(e, t->text, t->len, x->pos, x->limit);
  if (!b)
    return 0;
  if (b->kind == B_REFINE)
    return b->value;
  if (b->kind == B_DIM3) {
    upk_lwhy(e, "%.*s is a dim3 where a number is needed", t->text, t->len);
    return 0;
  }
  size_t bpos, blimit;
  scope_of(e, b, x->pos, x->limit, &bpos, &blimit);
  e->depth++;
  long long v = upk_leval(e, b->a, b->b, bpos, blimit);
  e->depth--;
  return v;
}

/* name.x / .y / .z of a dim3. */
static long long dim3_member(pr *x, const upk_src_token *t) {
  const upk_src_token *m = t + 2;
  int which = upk_tok_is(m, "x") ? 0 : upk_tok_is(m, "y") ? 1 : upk_tok_is(m, "z") ? 2 : -1;
  if (which < 0)
    return fail(x, "a member (%.*s...) is not read by this scan");
  long long d[3];
  bool ok = upk_leval_dim3(x->e, x->p, x->p + 1, x->pos, x->limit, d);
  x->p += 3;
  return ok ? d[which] : 0;
}

/* (x, y, z) of an argument list [a, b): omitted ones are 1. */
static bool dim3_args(ev *e, size_t a, size_t b, size_t pos, size_t limit, long long out[3]) {
  size_t n = 0, start = a;
  out[0] = out[1] = out[2] = 1;
  for (size_t i = a; i <= b && !e->bad; i++) {
    if (i < b && (upk_ltok(e->s, i, "(") || upk_ltok(e->s, i, "{") || upk_ltok(e->s, i, "["))) {
      i = upk_lmatch(e->s, i, b);
      continue;
    }
    if (i < b && !upk_ltok(e->s, i, ","))
      continue;
    if (n == 3) {
      upk_lwhy(e, "dim3 takes three sizes%.*s", "", 0);
      break;
    }
    out[n++] = upk_leval(e, start, i, pos, limit);
    start = i + 1;
  }
  return !e->bad;
}

bool upk_leval_dim3(ev *e, size_t a, size_t b, size_t pos, size_t limit, long long out[3]) {
  const lscan *s = e->s;
  while (b - a >= 2 && upk_ltok(s, a, "(") && upk_lmatch(s, a, b) == b - 1)
    a++, b--;
  out[0] = out[1] = out[2] = 1;
  if (b > a + 1 && upk_ltok(s, a, "dim3") && (upk_ltok(s, a + 1, "(") || upk_ltok(s, a + 1, "{")) &&
      upk_lmatch(s, a + 1, b) == b - 1)
    return dim3_args(e, a + 2, b - 1, pos, limit, out);
  if (b > a && upk_ltok(s, a, "{") && upk_lmatch(s, a, b) == b - 1)
    return dim3_args(e, a + 1, b - 1, pos, limit, out);
  if (b == a + 1 && s->t[a].kind == UPK_TOK_IDENT) {
    const binding *d = resolve(e, s->t[a].text, s->t[a].len, pos, limit);
    if (!d)
      return false;
    if (d->kind == B_REFINE) {
      out[0] = d->value;
      return true;
    }
    size_t bpos, blimit;
    scope_of(e, d, pos, limit, &bpos, &blimit);
    e->depth++;
    bool ok = d->kind == B_DIM3 && d->args ? dim3_args(e, d->a, d->b, bpos, blimit, out)
                                           : upk_leval_dim3(e, d->a, d->b, bpos, blimit, out);
    e->depth--;
    return ok;
  }
  out[0] = upk_leval(e, a, b, pos, limit);
  return !e->bad;
}

bool upk_lstmt_word(const upk_src_token *t) {
  static const char *const kw[] = {
      "return",    "else",      "case",     "do",     "goto",          "throw",
      "co_return", "co_yield",  "new",      "delete", "sizeof",        "typedef",
      "using",     "namespace", "struct",   "class",  "enum",          "union",
      "operator",  "template",  "typename", "public", "private",       "protected",
      "if",        "while",     "for",      "switch", "static_assert", "decltype"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (upk_tok_is(t, kw[i]))
      return true;
  return false;
}
