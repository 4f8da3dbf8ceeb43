/* One launch site: which kernel, with which block and dynamic shared memory, as
 * far as the source fixes them; and the matching of a launch to the compiled
 * kernels (template arguments compared where the launch writes them). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/compile/launchpass.h"

enum { MAX_ARGS = 8, TEXT_MAX = 160, BACK_MAX = 64 };

typedef struct span {
  size_t a, b;
} span;

/* Text of tokens [a, b), blanks dropped, at most TEXT_MAX bytes. */
static char *text_of(const lscan *s, size_t a, size_t b) {
  char buf[TEXT_MAX + 4];
  size_t n = 0;
  for (size_t i = a; i < b && n < TEXT_MAX; i++) {
    const upk_src_token *t = &s->t[i];
    if (t->directive)
      continue;
    size_t k = t->len < TEXT_MAX - n ? t->len : TEXT_MAX - n;
    memcpy(buf + n, t->text, k);
    n += k;
  }
  buf[n] = '\0';
  if (n == TEXT_MAX)
    memcpy(buf + n, "...", 4);
  return upk_xstrdup(buf);
}

/* The kernel as written, its template arguments evaluated where the scan can:
 * "MatrixMulCUDA<BS>" with BS 16 is "MatrixMulCUDA<16>". */
static char *kernel_text(const lscan *s, size_t a, size_t b, size_t at) {
  char out[TEXT_MAX * 2];
  size_t n = 0;
  size_t lt = a;
  while (lt < b && !upk_ltok(s, lt, "<"))
    lt++;
  char *head = text_of(s, a, lt);
  n = (size_t)snprintf(out, sizeof out, "%s", head);
  free(head);
  if (lt >= b)
    return upk_xstrdup(out);
  size_t start = lt + 1;
  for (size_t i = start; i < b && n < sizeof out - 8; i++) {
    bool end = i + 1 == b;
    if (!end && !(upk_ltok(s, i, ",")))
      continue;
    ev e = {.s = s};
    long long v = upk_leval(&e, start, i, at, s->nb);
    char *txt = e.bad ? text_of(s, start, i) : NULL;
    n += (size_t)snprintf(out + n, sizeof out - n, "%c", start == lt + 1 ? '<' : ',');
    if (txt)
      n += (size_t)snprintf(out + n, sizeof out - n, "%s", txt);
    else
      n += (size_t)snprintf(out + n, sizeof out - n, "%lld", v);
    free(txt);
    start = i + 1;
  }
  if (n < sizeof out - 2)
    snprintf(out + n, sizeof out - n, ">");
  return upk_xstrdup(out);
}

/* Top-level comma-separated arguments of [a, b). */
static size_t split(const lscan *s, size_t a, size_t b, span *out) {
  size_t n = 0, start = a;
  for (size_t i = a; i <= b && n < MAX_ARGS; i++) {
    if (i < b && (upk_ltok(s, i, "(") || upk_ltok(s, i, "{") || upk_ltok(s, i, "["))) {
      i = upk_lmatch(s, i, b);
      continue;
    }
    if (i == b || upk_ltok(s, i, ","))
      out[n++] = (span){start, i}, start = i + 1;
  }
  return n;
}

/* The name before `<<<`: name, ns::name, name<args>, (name). Returns its first token. */
static size_t kernel_before(const lscan *s, size_t end) {
  size_t i = end - 1;
  if (upk_ltok(s, i, ">")) { /* back over <...> */
    int depth = 0;
    for (size_t n = 0; n < BACK_MAX && i > 0; n++, i--) {
      depth += upk_ltok(s, i, ">") - upk_ltok(s, i, "<");
      if (depth == 0)
        break;
    }
    if (depth || i == 0)
      return end;
    i--;
  } else if (upk_ltok(s, i, ")")) {
    return end; /* (expr)<<<: the scan does not say which kernel */
  }
  if (s->t[i].kind != UPK_TOK_IDENT)
    return end;
  while (i >= 2 && upk_ltok(s, i - 1, "::") && s->t[i - 2].kind == UPK_TOK_IDENT)
    i -= 2;
  return i;
}

/* The kernel in a cudaLaunchKernel argument: (void *)k, reinterpret_cast<void *>(k), k<T>. */
static span kernel_arg(const lscan *s, span a) {
  static const char *const noise[] = {"void", "const", "reinterpret_cast", "static_cast", "&"};
  for (size_t i = a.a; i < a.b; i++) {
    bool skip = s->t[i].kind != UPK_TOK_IDENT;
    for (size_t k = 0; k < 5 && !skip; k++)
      skip = upk_ltok(s, i, noise[k]);
    if (upk_ltok(s, i, "<") && i > a.a && upk_ltok(s, i - 1, "reinterpret_cast"))
      while (i < a.b && !upk_ltok(s, i, ">"))
        i++;
    if (skip)
      continue;
    size_t end = i + 1;
    while (end + 1 < a.b && upk_ltok(s, end, "::"))
      end += 2;
    if (end < a.b && upk_ltok(s, end, "<")) {
      size_t close = end;
      while (close < a.b && !upk_ltok(s, close, ">"))
        close++;
      end = close < a.b ? close + 1 : end;
    }
    return (span){i, end};
  }
  return (span){a.b, a.b};
}

typedef struct site {
  span kernel, block, smem, config;
  bool has_smem;
  const char *via;
} site;

/* The block and shared memory of cudaLaunchKernelEx's config: its members' last assignments in
 * scope, else its aggregate initializer {grid, block, smem, ...}. */
static void config_args(const lscan *s, site *x, ev *e, size_t at, span cfg, span *block,
                        span *smem, size_t *limit) {
  size_t i = cfg.a;
  if (upk_ltok(s, i, "&"))
    i++;
  if (i + 1 != cfg.b || s->t[i].kind != UPK_TOK_IDENT) {
    upk_lwhy(e, "the launch configuration %.*s is not a variable", s->t[i].text, s->t[i].len);
    return;
  }
  const upk_src_token *n = &s->t[i];
  for (size_t k = s->nb; k-- > 0;) {
    const binding *b = &s->b[k];
    if (!b->owner || b->owner_len != n->len || memcmp(b->owner, n->text, n->len))
      continue;
    span *dst = b->len == 8 && !memcmp(b->name, "blockDim", 8) ? block : smem;
    if (dst->a == dst->b && b->kind != B_UNKNOWN)
      *dst = (span){b->a, b->b}, limit[dst == block ? 0 : 1] = k;
    else if (dst->a == dst->b)
      upk_lwhy(e, b->why, n->text, n->len);
  }
  long d = upk_llookup(s, n->text, n->len, at, s->nb);
  span args[MAX_ARGS];
  size_t na = d >= 0 && s->b[d].kind == B_CONFIG ? split(s, s->b[d].a, s->b[d].b, args) : 0;
  char key[96];
  /* The initializer's figure stands only where no assignment of the member anywhere can
   * replace it (one after this launch, in a loop, would). */
  snprintf(key, sizeof key, "%.*s.blockDim=", (int)(n->len > 64 ? 64 : n->len), n->text);
  if (block->a == block->b && na >= 2 && !upk_lis_mutated(s, key, strlen(key)))
    *block = args[1], limit[0] = (size_t)d;
  snprintf(key, sizeof key, "%.*s.dynamicSmemBytes=", (int)(n->len > 64 ? 64 : n->len), n->text);
  if (smem->a == smem->b && na >= 3 && !upk_lis_mutated(s, key, strlen(key)))
    *smem = args[2], limit[1] = (size_t)d;
  x->has_smem = true;
}

static void record(lpass *p, site *x, size_t at) {
  lscan *s = p->s;
  upk_launches *o = p->out;
  if (o->n >= UPK_MAX_LAUNCHES) {
    o->truncated = true;
    return;
  }
  UPK_GROW(o->v, o->cap, o->n + 1);
  upk_launch *l = &o->v[o->n++];
  memset(l, 0, sizeof *l);
  l->via = x->via;
  l->cond_line = p->state == 2 ? p->cond_line : -1;
  l->kernel =
      x->kernel.a < x->kernel.b ? kernel_text(s, x->kernel.a, x->kernel.b, at) : upk_xstrdup("?");
  upk_src_lex_pos(&s->lx, s->t[x->kernel.a < x->kernel.b ? x->kernel.a : at].off, &l->line,
                  &l->col);
  ev be = {.s = s}, se = {.s = s};
  size_t limit[2] = {s->nb, s->nb};
  span block = x->block, smem = x->smem;
  if (x->config.a < x->config.b)
    config_args(s, x, &be, at, x->config, &block, &smem, limit);
  long long d[3] = {0, 0, 0};
  if (s->overflow)
    upk_lwhy(&be, "the file declares too many names to follow%.*s", "", 0);
  else if (block.a < block.b)
    upk_leval_dim3(&be, block.a, block.b, at, limit[0], d);
  else
    upk_lwhy(&be, "no block size is given%.*s", "", 0);
  long long sm = 0;
  if (s->overflow)
    upk_lwhy(&se, "the file declares too many names to follow%.*s", "", 0);
  else if (smem.a < smem.b)
    sm = upk_leval(&se, smem.a, smem.b, at, limit[1]);
  else if (x->config.a < x->config.b)
    upk_lwhy(&se, "the configuration's dynamicSmemBytes is not set here%.*s", "", 0);
  long long threads = d[0] * d[1] * d[2];
  l->block_known = !be.bad && d[0] > 0 && d[1] > 0 && d[2] > 0 && threads <= (1 << 20);
  for (int k = 0; k < 3 && l->block_known; k++)
    l->block[k] = (int)d[k];
  l->smem_known = !se.bad && sm >= 0;
  l->smem = l->smem_known ? (long)sm : 0;
  l->block_text = block.a < block.b ? text_of(s, block.a, block.b) : NULL;
  l->smem_text = smem.a < smem.b ? text_of(s, smem.a, smem.b) : NULL;
  if (!l->block_known || !l->smem_known) {
    char why[440];
    snprintf(why, sizeof why, "%s%s%s%s%s", l->block_known ? "" : "block: ",
             l->block_known ? "" : (be.bad ? be.why : "not a positive size"),
             !l->block_known && !l->smem_known ? "; " : "",
             l->smem_known ? "" : "shared memory: ", l->smem_known ? "" : se.why);
    l->why = upk_xstrdup(why);
  }
}

size_t upk_lsite(lpass *p, size_t i) {
  lscan *s = p->s;
  site x = {.via = "<<<>>>"};
  span args[MAX_ARGS];
  if (upk_ltok(s, i, "<<<")) {
    size_t start = kernel_before(s, i), end = i + 1;
    for (; end < s->nt && !upk_ltok(s, end, ">>>") && !upk_ltok(s, end, ";"); end++)
      if (upk_ltok(s, end, "(") || upk_ltok(s, end, "{") || upk_ltok(s, end, "["))
        end = upk_lmatch(s, end, s->nt);
    if (end >= s->nt || !upk_ltok(s, end, ">>>"))
      return i;
    size_t n = split(s, i + 1, end, args);
    x.kernel = (span){start, start < i ? i : start};
    x.block = n >= 2 ? args[1] : (span){0, 0};
    x.smem = n >= 3 ? args[2] : (span){0, 0};
  } else {
    size_t open = upk_lnext(s, i);
    if (upk_ltok(s, open, "<")) { /* cudaLaunchKernel<T>( */
      size_t k = open;
      for (size_t n = 0; k < s->nt && n < BACK_MAX && !upk_ltok(s, k, ">"); n++)
        k = upk_lnext(s, k);
      open = upk_lnext(s, k);
    }
    if (!upk_ltok(s, open, "("))
      return i;
    size_t n = split(s, open + 1, upk_lmatch(s, open, s->nt), args);
    bool ex = upk_ltok(s, i, "cudaLaunchKernelEx") || upk_ltok(s, i, "cudaLaunchKernelExC");
    x.via = ex                                   ? "cudaLaunchKernelEx"
            : upk_ltok(s, i, "cudaLaunchKernel") ? "cudaLaunchKernel"
                                                 : "cudaLaunchCooperativeKernel";
    if (n < (ex ? 2u : 3u))
      return i;
    x.kernel = kernel_arg(s, ex ? args[1] : args[0]);
    if (ex)
      x.config = args[0];
    else
      x.block = args[2], x.smem = n >= 5 ? args[4] : (span){0, 0};
  }
  record(p, &x, i);
  return i;
}

int upk_launch_threads(const upk_launch *l) {
  return l->block_known ? l->block[0] * l->block[1] * l->block[2] : 0;
}

/* ---- launches to compiled kernels ---- */

/* "void ns::reduce4<int, 512u>" -> "reduce4" and "int, 512u" (template arguments, if any). */
static void parts(const char *name, const char **base, size_t *nbase, const char **args,
                  size_t *nargs) {
  const char *lt = strchr(name, '<');
  const char *end = lt ? lt : name + strlen(name), *b = name;
  for (const char *q = name; q < end; q++)
    if (*q == ' ' || *q == ':' || *q == '*' || *q == '&')
      b = q + 1;
  *base = b, *nbase = (size_t)(end - b);
  *args = lt ? lt + 1 : NULL;
  const char *gt = lt ? strrchr(lt, '>') : NULL;
  *nargs = gt ? (size_t)(gt - lt - 1) : 0;
}

/* The next top-level argument of [*p, end), trimmed. */
static bool next_arg(const char **p, const char *end, char *out, size_t cap) {
  if (*p >= end)
    return false;
  int depth = 0;
  const char *q = *p;
  for (; q < end && (depth || *q != ','); q++)
    depth += (*q == '<' || *q == '(') - (*q == '>' || *q == ')');
  const char *a = *p, *b = q;
  while (a < b && isspace((unsigned char)*a))
    a++;
  while (b > a && isspace((unsigned char)b[-1]))
    b--;
  snprintf(out, cap, "%.*s", (int)(b - a), a);
  *p = q < end ? q + 1 : end;
  return true;
}

static bool number_of(const char *s, long long *v) {
  if (!strcmp(s, "true") || !strcmp(s, "false")) {
    *v = s[0] == 't';
    return true;
  }
  char *end;
  *v = strtoll(s, &end, 0);
  while (*end && strchr("uUlL", *end))
    end++;
  return end != s && !*end;
}

static bool arg_matches(const char *w, const char *c) {
  static const char *const types[] = {"float", "double", "int",  "bool",  "char",
                                      "half",  "__half", "long", "short", "__nv_bfloat16"};
  long long wv, cv;
  if (number_of(w, &wv))
    return number_of(c, &cv) && wv == cv;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (!strcmp(w, types[i]))
      return !strcmp(c, w);
  return true; /* a name the scan could not read (T, blockSize): any */
}

bool upk_launch_matches(const char *written, const char *name) {
  const char *wb, *wa, *cb, *ca;
  size_t nwb, nwa, ncb, nca;
  parts(written, &wb, &nwb, &wa, &nwa);
  parts(name, &cb, &ncb, &ca, &nca);
  if (nwb != ncb || memcmp(wb, cb, nwb))
    return false;
  if (!wa || !ca)
    return true;
  const char *wp = wa, *cp = ca;
  char w[TEXT_MAX], c[TEXT_MAX];
  while (next_arg(&wp, wa + nwa, w, sizeof w) && next_arg(&cp, ca + nca, c, sizeof c))
    if (!arg_matches(w, c))
      return false;
  return true;
}
