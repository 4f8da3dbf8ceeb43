/* The scan: kernels, includes, __CUDA_ARCH__ regions and host-code hints,
 * read from the lexer's tokens in one forward pass (no backtracking, no
 * recursion), so garbage and huge inputs cost linear time. */
#include "gpu/compile/srcscan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* ---- The scan ---- */

/* Bounds for pathological input: condition text, a chain's accumulated
 * condition, and the regions recorded (later ones are not: their code reads as
 * unguarded). */
enum { COND_MAX = 1024, ACC_MAX = 1024, MAX_REGIONS = 10000 };

/* One #if ... #endif chain being read. */
typedef struct chain {
  char *acc; /* "!(A) && !(B)": no earlier branch of the chain was taken */
  bool arch; /* some condition of the chain mentions __CUDA_ARCH */
  long open; /* the recorded branch still open, or -1 */
} chain;

typedef struct scan {
  upk_src_lexer lx;
  upk_src_facts *f;
  size_t cap_k, cap_i, cap_r, n_chains, cap_chains;
  chain *chains;
  upk_src_token raw_back, code_back, last[3]; /* last[2]: the token just read */
  bool has_raw_back, has_code_back;
  int err;
  /* The declaration being read. */
  bool global, templ, saw_extern, have_name;
  int lb[2], cd[3], cd_line, cd_col, angle;
  upk_src_token name;
} scan;

static bool raw_next(scan *s, upk_src_token *t) {
  if (!s->has_raw_back)
    return upk_src_lex_next(&s->lx, t);
  *t = s->raw_back;
  s->has_raw_back = false;
  return true;
}

static bool mentions_arch(const char *cond) {
  return strstr(cond, "__CUDA_ARCH") != NULL;
}

static char *cat3(const char *a, const char *b, const char *c) {
  size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
  char *r = upk_xmalloc(na + nb + nc + 1);
  if (r) {
    memcpy(r, a, na);
    memcpy(r + na, b, nb);
    memcpy(r + na + nb, c, nc + 1);
  }
  return r;
}

static int record_region(scan *s, chain *c, const char *cond, int line) {
  upk_src_facts *f = s->f;
  if (f->n_regions >= MAX_REGIONS)
    return 0;
  UPK_GROW(f->regions, s->cap_r, f->n_regions + 1);
  char *dup = upk_xstrdup(cond);
  f->regions[f->n_regions] = (upk_src_region){dup, line, line};
  c->open = (long)f->n_regions++;
  return 0;
}

static void end_branch(scan *s, chain *c, int line) {
  if (c->open >= 0)
    s->f->regions[c->open].end_line = line;
  c->open = -1;
}

static int chain_open(scan *s, const char *cond, int line) {
  UPK_GROW(s->chains, s->cap_chains, s->n_chains + 1);
  chain *c = &s->chains[s->n_chains];
  *c = (chain){cat3("!", cond, ""), mentions_arch(cond), -1};
  if (!c->acc)
    return -ENOMEM;
  s->n_chains++;
  return c->arch ? record_region(s, c, cond, line) : 0;
}

/* #elif: this branch holds when no earlier one did and its own condition does. */
static int chain_elif(scan *s, const char *cond, int line) {
  if (!s->n_chains)
    return 0;
  chain *c = &s->chains[s->n_chains - 1];
  end_branch(s, c, line);
  char *mine = cat3(c->acc, " && ", cond), *neg = cat3(c->acc, " && !", cond);
  if (!mine || !neg) {
    free(mine), free(neg);
    return -ENOMEM;
  }
  if (strlen(neg) > ACC_MAX) { /* a pathological chain: stop tracking it exactly */
    free(neg);
    neg = upk_xstrdup("(__upk_unknown__)");
  }
  free(c->acc);
  c->acc = neg;
  c->arch = c->arch || mentions_arch(cond);
  int rc = neg ? 0 : -ENOMEM;
  if (!rc && c->arch)
    rc = record_region(s, c, mine, line);
  free(mine);
  return rc;
}

static int chain_else(scan *s, int line) {
  if (!s->n_chains)
    return 0;
  chain *c = &s->chains[s->n_chains - 1];
  end_branch(s, c, line);
  return c->arch ? record_region(s, c, c->acc, line) : 0;
}

static void chain_close(scan *s, int line) {
  if (!s->n_chains)
    return;
  chain *c = &s->chains[--s->n_chains];
  end_branch(s, c, line);
  free(c->acc);
}

/* A directive's tokens joined as written (no comments): tokens that touch stay
 * together, others get one space. */
typedef struct text {
  char buf[COND_MAX];
  size_t n, end_off;
  bool over;
} text;

static void text_add(text *x, const upk_src_token *t) {
  bool gap = x->n && t->off != x->end_off;
  if (x->over || x->n + t->len + gap + 1 > COND_MAX) {
    x->over = true;
    return;
  }
  if (gap)
    x->buf[x->n++] = ' ';
  memcpy(x->buf + x->n, t->text, t->len);
  x->n += t->len;
  x->buf[x->n] = '\0';
  x->end_off = t->off + t->len;
}

static int conditional(scan *s, const upk_src_token *kw, const text *x, int line) {
  char cond[COND_MAX + 32];
  const char *body = x->over || !x->n ? "__upk_unknown__" : x->buf;
  bool def = upk_tok_is(kw, "ifdef") || upk_tok_is(kw, "elifdef");
  bool ndef = upk_tok_is(kw, "ifndef") || upk_tok_is(kw, "elifndef");
  snprintf(cond, sizeof cond, def ? "(defined %s)" : ndef ? "(!defined %s)" : "(%s)", body);
  if (upk_tok_is(kw, "if") || upk_tok_is(kw, "ifdef") || upk_tok_is(kw, "ifndef"))
    return chain_open(s, cond, line);
  if (upk_tok_is(kw, "elif") || upk_tok_is(kw, "elifdef") || upk_tok_is(kw, "elifndef"))
    return chain_elif(s, cond, line);
  if (upk_tok_is(kw, "else"))
    return chain_else(s, line);
  if (upk_tok_is(kw, "endif"))
    chain_close(s, line);
  return 0;
}

static bool starts_with(const char *s, size_t n, const char *prefix) {
  size_t p = strlen(prefix);
  return n >= p && !memcmp(s, prefix, p);
}

static int probe_add(scan *s, size_t off, size_t n, bool angled, bool computed, bool probe);

static int include(scan *s, const upk_src_token *t) {
  bool angled = t->kind == UPK_TOK_HEADER;
  if (!angled && (t->kind != UPK_TOK_STRING || t->text[0] != '"'))
    return probe_add(s, t->off, t->len, false, true, false); /* #include MACRO */
  size_t off = t->off + !angled, n = t->len;
  if (!angled)
    n = n >= 2 && t->text[n - 1] == '"' ? n - 2 : n - 1;
  upk_src_facts *f = s->f;
  UPK_GROW(f->includes, s->cap_i, f->n_includes + 1);
  upk_src_include *inc = &f->includes[f->n_includes];
  *inc = (upk_src_include){.target = upk_xstrndup(s->lx.buf + off, n), .angled = angled};
  f->n_includes++;
  int l2, c2;
  upk_src_lex_pos(&s->lx, off, &inc->line, &inc->col);
  upk_src_lex_pos(&s->lx, off + n, &l2, &c2);
  inc->end_col = l2 == inc->line ? c2 : inc->col + (int)n;
  const char *p = s->lx.buf + off;
  if (angled && ((n == 8 && !memcmp(p, "iostream", 8)) || starts_with(p, n, "torch/") ||
                 starts_with(p, n, "ATen/") || starts_with(p, n, "pybind11/")))
    f->has_host_code = true;
  return 0;
}

/* __has_include(...) / __has_include_next(...) inside a directive: `st` is 0 outside, 1 after
 * the name, 2 after its '(' and 3 inside <...> that started at `lt`. */
typedef struct probe_state {
  int st;
  upk_src_token lt;
} probe_state;

/* An include or probe the scan cannot read as a name (`computed`: a macro), or a probe. */
static int probe_add(scan *s, size_t off, size_t n, bool angled, bool computed, bool probe) {
  upk_src_facts *f = s->f;
  UPK_GROW(f->includes, s->cap_i, f->n_includes + 1);
  upk_src_include *inc = &f->includes[f->n_includes++];
  *inc = (upk_src_include){.target = upk_xstrndup(s->lx.buf + off, n),
                           .angled = angled,
                           .probe = probe,
                           .computed = computed};
  int l2, c2;
  upk_src_lex_pos(&s->lx, off, &inc->line, &inc->col);
  upk_src_lex_pos(&s->lx, off + n, &l2, &c2);
  inc->end_col = l2 == inc->line ? c2 : inc->col + (int)n;
  return 0;
}

static int probe_token(scan *s, probe_state *p, const upk_src_token *t) {
  switch (p->st) {
  case 0:
    p->st = upk_tok_is(t, "__has_include") || upk_tok_is(t, "__has_include_next");
    return 0;
  case 1:
    p->st = upk_tok_is(t, "(") ? 2 : 0; /* `defined(__has_include)` names it only */
    return 0;
  case 2:
    if (upk_tok_is(t, "<")) {
      p->st = 3, p->lt = *t;
      return 0;
    }
    p->st = 0;
    if (t->kind == UPK_TOK_STRING && t->text[0] == '"' && t->len >= 2)
      return probe_add(s, t->off + 1, t->len - 2, false, false, true);
    return probe_add(s, t->off, t->len, false, true, true);
  default:
    if (!upk_tok_is(t, ">"))
      return 0;
    p->st = 0;
    return probe_add(s, p->lt.off + 1, t->off - p->lt.off - 1, true, false, true);
  }
}

/* A whole directive from its '#'. */
static int directive(scan *s, const upk_src_token *hash) {
  upk_src_token kw, t, first = {0};
  int line, col;
  upk_src_lex_pos(&s->lx, hash->off, &line, &col);
  if (!raw_next(s, &kw))
    return 0;
  if (kw.directive != hash->directive) {
    s->raw_back = kw, s->has_raw_back = true;
    return 0;
  }
  text x = {.n = 0};
  bool have_first = false;
  probe_state probe = {0};
  int rc = probe_token(s, &probe, &kw);
  while (!rc && raw_next(s, &t)) {
    if (t.directive != hash->directive) {
      s->raw_back = t, s->has_raw_back = true;
      break;
    }
    if (!have_first)
      first = t, have_first = true;
    text_add(&x, &t);
    rc = probe_token(s, &probe, &t);
  }
  if (rc)
    return rc;
  if (upk_tok_is(&kw, "include") || upk_tok_is(&kw, "include_next") || upk_tok_is(&kw, "import"))
    return have_first ? include(s, &first) : 0;
  return conditional(s, &kw, &x, line);
}

static void host_hints(scan *s, const upk_src_token *t) {
  static const char *const host[] = {
      "cudaMalloc",      "cudaMemcpy",   "cudaLaunchKernel", "cudaFree", "cudaDeviceSynchronize",
      "PYBIND11_MODULE", "TORCH_LIBRARY"};
  upk_src_facts *f = s->f;
  const upk_src_token *p1 = &s->last[1], *p0 = &s->last[0];
  if (t->kind == UPK_TOK_IDENT) {
    for (size_t i = 0; i < sizeof host / sizeof *host; i++)
      f->has_host_code |= starts_with(t->text, t->len, host[i]);
    f->has_smem_optin |= upk_tok_is(t, "cudaFuncAttributeMaxDynamicSharedMemorySize") ||
                         upk_tok_is(t, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES");
  }
  f->has_host_code |= upk_tok_is(t, "<<<") || (upk_tok_is(t, "::") && upk_tok_is(p1, "torch"));
  if (upk_tok_is(t, "(") && upk_tok_is(p1, "main") &&
      (upk_tok_is(p0, "int") || upk_tok_is(p0, "void") || upk_tok_is(p0, "auto")))
    f->has_host_code = true;
}

/* The next token outside directives (directives are handled on the way). */
static bool code_next(scan *s, upk_src_token *t) {
  if (s->has_code_back) {
    *t = s->code_back;
    s->has_code_back = false;
    return true;
  }
  for (;;) {
    if (s->err || !raw_next(s, t))
      return false;
    if (t->kind == UPK_TOK_HASH)
      s->err = directive(s, t);
    else if (!t->directive)
      break;
  }
  s->last[0] = s->last[1];
  s->last[1] = s->last[2];
  host_hints(s, t);
  s->last[2] = *t;
  return true;
}

static void unread(scan *s, const upk_src_token *t) {
  s->code_back = *t;
  s->has_code_back = true;
}

static void reset_decl(scan *s) {
  s->global = s->templ = s->saw_extern = s->have_name = false;
  s->lb[0] = s->lb[1] = -1;
  s->cd[0] = s->cd[1] = s->cd[2] = -1;
  s->angle = 0;
}

/* A positive integer literal (1024, 0x400, 2u, 1'024), else 0. */
static int literal(const upk_src_token *t) {
  char num[32];
  size_t n = 0;
  if (t->kind != UPK_TOK_NUMBER)
    return 0;
  for (size_t i = 0; i < t->len && n + 1 < sizeof num; i++)
    if (t->text[i] != '\'')
      num[n++] = t->text[i];
  num[n] = '\0';
  char *end;
  errno = 0;
  long v = strtol(num, &end, 0);
  while (*end && strchr("uUlL", *end))
    end++;
  return errno || *end || v <= 0 || v > 1 << 30 ? 0 : (int)v;
}

/* Skip a balanced (...) if one follows; the literal value of each top-level
 * argument goes to v[0..nmax) (0: not a literal). */
static void paren_args(scan *s, int *v, int nmax) {
  upk_src_token t, only = {0};
  if (!code_next(s, &t))
    return;
  if (!upk_tok_is(&t, "(")) {
    unread(s, &t);
    return;
  }
  int depth = 1, n = 0, ntok = 0;
  while (depth > 0 && code_next(s, &t)) {
    depth += upk_tok_is(&t, "(") - upk_tok_is(&t, ")");
    if (depth == 0 || (depth == 1 && upk_tok_is(&t, ","))) {
      if (n < nmax && (ntok || n))
        v[n] = ntok == 1 ? literal(&only) : 0;
      n++, ntok = 0;
    } else if (ntok++ == 0) {
      only = t;
    }
  }
}

static int add_kernel(scan *s) {
  upk_src_facts *f = s->f;
  UPK_GROW(f->kernels, s->cap_k, f->n_kernels + 1);
  upk_src_kernel *k = &f->kernels[f->n_kernels];
  memset(k, 0, sizeof *k);
  k->name = upk_xstrndup(s->name.text, s->name.len);
  f->n_kernels++;
  upk_src_lex_pos(&s->lx, s->name.off, &k->line, &k->col);
  k->max_threads = s->lb[0] > 0 ? s->lb[0] : 0;
  k->min_blocks = s->lb[1] > 0 ? s->lb[1] : 0;
  k->cluster_line = k->cluster_col = -1;
  if (s->cd[0] >= 0) {
    for (int i = 0; i < 3; i++)
      k->cluster[i] = s->cd[i] < 0 ? 1 : s->cd[i];
    k->cluster_line = s->cd_line, k->cluster_col = s->cd_col;
  }
  k->is_template = s->templ;
  return 0;
}

/* After a __global__ function's name and '(': the parameters, then '{' makes it
 * a definition; anything else was a declaration. */
static int params(scan *s) {
  upk_src_token t;
  int rc = 0, depth = 1;
  while (depth > 0 && code_next(s, &t))
    depth += upk_tok_is(&t, "(") - upk_tok_is(&t, ")");
  while (code_next(s, &t)) {
    if (upk_tok_is(&t, "noexcept") || upk_tok_is(&t, "throw") || upk_tok_is(&t, "__attribute__")) {
      paren_args(s, NULL, 0);
      continue;
    }
    if (upk_tok_is(&t, "{"))
      rc = add_kernel(s);
    else
      unread(s, &t);
    break;
  }
  reset_decl(s);
  return rc;
}

static int on_token(scan *s, const upk_src_token *t) {
  if (upk_tok_is(t, ";") || upk_tok_is(t, "{") || upk_tok_is(t, "}")) {
    reset_decl(s);
    return 0;
  }
  if (upk_tok_is(t, "extern"))
    s->saw_extern = true;
  else if (upk_tok_is(t, "__shared__"))
    s->f->uses_dynamic_smem |= s->saw_extern;
  else if (upk_tok_is(t, "template"))
    s->templ = true;
  else if (upk_tok_is(t, "__global__"))
    s->global = true, s->have_name = false, s->angle = 0;
  if (upk_tok_is(t, "__launch_bounds__")) {
    paren_args(s, s->lb, 2);
  } else if (upk_tok_is(t, "__cluster_dims__")) {
    upk_src_lex_pos(&s->lx, t->off, &s->cd_line, &s->cd_col);
    s->cd[0] = s->cd[1] = s->cd[2] = -1;
    paren_args(s, s->cd, 3);
    if (s->cd[0] < 0)
      s->cd[0] = 0; /* present, but no argument */
  } else if (upk_tok_is(t, "__attribute__") || upk_tok_is(t, "__declspec") ||
             upk_tok_is(t, "alignas") || upk_tok_is(t, "decltype") || upk_tok_is(t, "__align__")) {
    paren_args(s, NULL, 0);
  } else if (s->global) {
    const upk_src_token *before = &s->last[1];
    if (t->kind == UPK_TOK_IDENT && s->angle == 0)
      s->name = *t, s->have_name = true;
    else if (upk_tok_is(t, "<") && before->kind == UPK_TOK_IDENT)
      s->angle++;
    else if (upk_tok_is(t, ">") && s->angle > 0)
      s->angle--;
    else if (upk_tok_is(t, "(") && s->angle == 0 && s->have_name)
      return params(s);
  }
  return 0;
}

int upk_src_scan(const char *src, size_t len, upk_src_facts *out) {
  memset(out, 0, sizeof *out);
  scan s = {.f = out};
  reset_decl(&s);
  int rc = upk_src_lex_open(&s.lx, src, len);
  upk_src_token t;
  while (!rc && code_next(&s, &t))
    rc = on_token(&s, &t);
  rc = rc ? rc : s.err;
  while (s.n_chains)
    chain_close(&s, (int)s.lx.n_lines);
  free(s.chains);
  upk_src_lex_close(&s.lx);
  if (rc)
    upk_src_facts_free(out);
  return rc;
}

void upk_src_facts_free(upk_src_facts *f) {
  for (size_t i = 0; i < f->n_kernels; i++)
    free(f->kernels[i].name);
  for (size_t i = 0; i < f->n_includes; i++)
    free(f->includes[i].target);
  for (size_t i = 0; i < f->n_regions; i++)
    free(f->regions[i].cond);
  free(f->kernels);
  free(f->includes);
  free(f->regions);
  memset(f, 0, sizeof *f);
}

/* "ns::scale<float>" -> "scale" (pointer and length). */
static const char *base_name(const char *name, size_t *n) {
  const char *lt = strchr(name, '<');
  size_t len = lt ? (size_t)(lt - name) : strlen(name);
  for (size_t i = len; i >= 2; i--)
    if (name[i - 1] == ':' && name[i - 2] == ':') {
      *n = len - i;
      return name + i;
    }
  *n = len;
  return name;
}

const upk_src_kernel *upk_src_find_kernel(const upk_src_facts *f, const char *name) {
  size_t n;
  const char *b = base_name(name, &n);
  for (size_t i = 0; f && i < f->n_kernels; i++)
    if (strlen(f->kernels[i].name) == n && !memcmp(f->kernels[i].name, b, n))
      return &f->kernels[i];
  return NULL;
}
