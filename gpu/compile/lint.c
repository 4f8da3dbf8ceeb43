/* H100 lint. Source rules walk the lexer's tokens (never comments, never
 * strings other than inline-PTX ones, never #define bodies) and ask the
 * recorded __CUDA_ARCH__ regions whether the code is compiled for the target
 * and whether it is guarded for older ones. Resource rules read the ptxas
 * figures and the occupancy of each compiled kernel (lint_kernels.c). */
#include "gpu/compile/lint.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { MAX_SOURCE_DIAGS = 200, MAX_HITS = 20000, CLUSTER_PORTABLE = 8, CLUSTER_MAX = 16 };

static const char SOURCE[] = "upskilld-lint";

/* ---- Architectures and preprocessor conditions ---- */

typedef struct env {
  int arch;     /* __CUDA_ARCH__: 900 for sm_90 */
  char variant; /* 'a', 'f' or 0 */
} env;

/* "sm_90a" -> 90 and 'a'; "compute_90" -> 90; -1 when it is not an arch. */
static int parse_arch(const char *arch, char *variant) {
  static const char *const prefixes[] = {"sm_", "compute_", "lto_"};
  *variant = 0;
  if (!arch)
    return -1;
  for (size_t i = 0; i < 3; i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(arch, prefixes[i], n))
      continue;
    const char *p = arch + n;
    int v = 0, digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
      v = v * 10 + (*p - '0');
    if (digits < 2 || ((*p == 'a' || *p == 'f') && p[1]) || (*p && *p != 'a' && *p != 'f'))
      return -1;
    *variant = *p;
    return v;
  }
  return -1;
}

int upk_arch_number(const char *arch) {
  char variant;
  return parse_arch(arch, &variant);
}

typedef struct val {
  bool known;
  long long v;
} val;

static const val UNKNOWN = {false, 0};

static val known(long long v) {
  return (val){true, v};
}

typedef struct ev {
  const char *p;
  const env *e;
  int depth;
} ev;

static void blanks(ev *x) {
  while (*x->p == ' ' || *x->p == '\t')
    x->p++;
}

/* Take operator `op` if it is next (and not the start of a longer one). */
static bool eat(ev *x, const char *op) {
  static const char *const longer[] = {"&&", "||", "<<", ">>", "<=", ">=", "!=", "=="};
  blanks(x);
  size_t n = strlen(op);
  if (strncmp(x->p, op, n))
    return false;
  for (size_t i = 0; n == 1 && i < sizeof longer / sizeof *longer; i++)
    if (!strncmp(x->p, longer[i], 2))
      return false;
  x->p += n;
  return true;
}

/* A macro the device pass of `e` defines (value), does not (0), or unknown. */
static val macro(const env *e, const char *name, size_t n, bool defined_op) {
  char id[64];
  int sm = 0;
  snprintf(id, sizeof id, "%.*s", (int)n, name);
  if (!strcmp(id, "__CUDA_ARCH__"))
    return known(defined_op ? 1 : e->arch);
  if (sscanf(id, "__CUDA_ARCH_FEAT_SM%d_ALL", &sm) == 1)
    return known(e->variant == 'a' && sm * 10 == e->arch);
  if (!strcmp(id, "__CUDA_ARCH_SPECIFIC__"))
    return known(e->variant == 'a' ? (defined_op ? 1 : e->arch) : 0);
  if (!strcmp(id, "__CUDA_ARCH_FAMILY_SPECIFIC__"))
    return known(e->variant ? (defined_op ? 1 : e->arch) : 0);
  if (!strcmp(id, "__CUDACC__"))
    return known(1);
  if (!defined_op && (!strcmp(id, "true") || !strcmp(id, "false")))
    return known(id[0] == 't');
  return UNKNOWN;
}

static val expr(ev *x);

static val primary(ev *x) {
  blanks(x);
  const char *p = x->p;
  if (*p >= '0' && *p <= '9') {
    char *end;
    long long v = strtoll(p, &end, 0);
    while (*end && strchr("uUlL", *end))
      end++;
    x->p = end;
    return known(v);
  }
  if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
    x->p += *p ? 1 : 0; /* something this evaluator does not know */
    return UNKNOWN;
  }
  size_t n = 0;
  while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
         (p[n] >= '0' && p[n] <= '9'))
    n++;
  x->p += n;
  if (n != 7 || strncmp(p, "defined", 7))
    return macro(x->e, p, n, false);
  bool paren = eat(x, "(");
  blanks(x);
  const char *id = x->p;
  while (*x->p == '_' || (*x->p >= 'a' && *x->p <= 'z') || (*x->p >= 'A' && *x->p <= 'Z') ||
         (*x->p >= '0' && *x->p <= '9'))
    x->p++;
  val v = macro(x->e, id, (size_t)(x->p - id), true);
  if (paren && !eat(x, ")"))
    return UNKNOWN;
  return v.known ? known(v.v != 0) : v;
}

static val unary(ev *x) {
  if (++x->depth > 64) { /* pathological nesting: give up on this condition */
    x->p += strlen(x->p);
    return UNKNOWN;
  }
  val v;
  if (eat(x, "!"))
    v = unary(x), v.v = !v.v;
  else if (eat(x, "-"))
    v = unary(x), v.v = -v.v;
  else if (eat(x, "+"))
    v = unary(x);
  else if (eat(x, "~"))
    v = unary(x), v.v = ~v.v;
  else if (eat(x, "(")) {
    v = expr(x);
    if (!eat(x, ")"))
      v = UNKNOWN;
  } else
    v = primary(x);
  x->depth--;
  return v;
}

static val apply(const char *op, val a, val b) {
  if (!strcmp(op, "&&"))
    return (a.known && !a.v) || (b.known && !b.v) ? known(0)
           : a.known && b.known                   ? known(1)
                                                  : UNKNOWN;
  if (!strcmp(op, "||"))
    return (a.known && a.v) || (b.known && b.v) ? known(1)
           : a.known && b.known                 ? known(0)
                                                : UNKNOWN;
  if (!a.known || !b.known || ((op[0] == '/' || op[0] == '%') && !b.v))
    return UNKNOWN;
  long long x = a.v, y = b.v;
  switch (op[0] * 256 + op[1]) {
  case '=' * 256 + '=':
    return known(x == y);
  case '!' * 256 + '=':
    return known(x != y);
  case '<' * 256 + '=':
    return known(x <= y);
  case '>' * 256 + '=':
    return known(x >= y);
  case '<' * 256 + '<':
    return known(y >= 0 && y < 63 ? x << y : 0);
  case '>' * 256 + '>':
    return known(y >= 0 && y < 63 ? x >> y : 0);
  case '<' * 256:
    return known(x < y);
  case '>' * 256:
    return known(x > y);
  case '|' * 256:
    return known(x | y);
  case '^' * 256:
    return known(x ^ y);
  case '&' * 256:
    return known(x & y);
  case '+' * 256:
    return known(x + y);
  case '-' * 256:
    return known(x - y);
  case '*' * 256:
    return known(x * y);
  case '/' * 256:
    return known(x / y);
  default:
    return known(x % y);
  }
}

/* Binary operators from the loosest level to the tightest. */
static const char *const LEVELS[][4] = {
    {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
enum { N_LEVELS = sizeof LEVELS / sizeof *LEVELS };

static val binary(ev *x, int level) {
  if (level == N_LEVELS)
    return unary(x);
  val v = binary(x, level + 1);
  for (bool more = true; more;) {
    more = false;
    for (int i = 0; i < 4 && LEVELS[level][i]; i++)
      if (eat(x, LEVELS[level][i])) {
        v = apply(LEVELS[level][i], v, binary(x, level + 1));
        more = true;
        break;
      }
  }
  return v;
}

static val expr(ev *x) {
  val c = binary(x, 0);
  if (!eat(x, "?"))
    return c;
  val a = expr(x);
  if (!eat(x, ":"))
    return UNKNOWN;
  val b = expr(x);
  return !c.known ? (a.known && b.known && a.v == b.v ? a : UNKNOWN) : c.v ? a : b;
}

/* False only when `cond` is certainly false in the device pass of `e`. */
static bool may_hold(const char *cond, const env *e) {
  ev x = {cond, e, 0};
  val v = expr(&x);
  return !v.known || v.v;
}

/* ---- Source rules ---- */

typedef struct lint {
  const upk_src_facts *f;
  const char *arch_name;
  env target;
  bool multi_arch; /* the file tests __CUDA_ARCH__: it is meant for several targets */
  bool *on_target, *on_sm90, *on_older; /* per region: may be compiled there */
  upk_src_lexer lx;
  upk_diags *out;
  int n_diags, n_hits, err;
} lint;

/* Is `line` inside a region that is certainly not compiled (per `on`)? */
static bool excluded(const lint *l, const bool *on, int line) {
  for (size_t i = 0; i < l->f->n_regions && l->f->regions[i].line < line; i++)
    if (line < l->f->regions[i].end_line && !on[i])
      return true;
  return false;
}

static int regions_for(lint *l) {
  static const int older[] = {700, 750, 800, 860, 870, 890};
  size_t n = l->f->n_regions;
  l->on_target = upk_xcalloc(n + 1, sizeof(bool));
  l->on_sm90 = upk_xcalloc(n + 1, sizeof(bool));
  l->on_older = upk_xcalloc(n + 1, sizeof(bool));
  env sm90 = {900, 0};
  for (size_t i = 0; i < n; i++) {
    const char *c = l->f->regions[i].cond;
    l->on_target[i] = may_hold(c, &l->target);
    l->on_sm90[i] = may_hold(c, &sm90);
    for (size_t j = 0; j < sizeof older / sizeof *older && !l->on_older[i]; j++)
      l->on_older[i] = may_hold(c, &(env){older[j], 0});
  }
  return 0;
}

static void emit(lint *l, upk_severity sev, const char *code, upk_range r, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void emit(lint *l, upk_severity sev, const char *code, upk_range r, const char *fmt, ...) {
  if (l->n_diags++ >= MAX_SOURCE_DIAGS)
    return;
  va_list ap;
  va_start(ap, fmt);
  if (upk_diags_vadd(l->out, sev, code, SOURCE, r, fmt, ap))
    l->err = -ENOMEM;
  va_end(ap);
}

enum need { SM90, SM90A };

/* A Hopper feature at spliced offset `off`, `len` bytes long. */
static void hopper(lint *l, enum need need, const char *what, size_t off, size_t len) {
  int line, col;
  if (l->n_hits++ > MAX_HITS)
    return;
  upk_src_lex_pos(&l->lx, off, &line, &col);
  upk_range r = upk_range_line(line, col, col + (int)len);
  if (excluded(l, l->on_target, line))
    return; /* not compiled for this target */
  int a = l->target.arch;
  if (need == SM90A && (a < 900 || (a == 900 && l->target.variant != 'a')))
    emit(l, UPK_SEV_ERROR, "h100/needs-sm90a", r,
         "%s needs sm_90a (Hopper's arch-specific target) and this compile targets %s, for "
         "which ptxas refuses it: compile for sm_90a, or guard it with "
         "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)",
         what, l->arch_name);
  else if (need == SM90 && a < 900)
    emit(l, UPK_SEV_ERROR, "h100/needs-sm90", r,
         "%s needs sm_90 or newer and this compile targets %s: compile for sm_90 / sm_90a, or "
         "guard it with #if __CUDA_ARCH__ >= 900",
         what, l->arch_name);
  else if (need == SM90A && a == 900 && l->multi_arch && !excluded(l, l->on_sm90, line))
    emit(l, UPK_SEV_WARNING, "h100/unguarded-sm90a", r,
         "%s is sm_90a-only, but this file targets several architectures and the code is not "
         "guarded for plain sm_90: wrap it in #if defined(__CUDA_ARCH_FEAT_SM90_ALL)",
         what);
  else if (need == SM90 && l->multi_arch && !excluded(l, l->on_older, line))
    emit(l, UPK_SEV_WARNING, "h100/unguarded-sm90", r,
         "%s needs sm_90, but this file targets several architectures and the code is not "
         "under #if __CUDA_ARCH__ >= 900: compiling it for an older target fails",
         what);
}

static bool ptx_boundary(const char *s, size_t i) {
  char c = i ? s[i - 1] : ' ';
  return !(c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9'));
}

/* The Hopper features the source rules know (docs/kernels.md, "Adding a lint rule"), one row
 * each, first match wins: a PTX mnemonic in inline asm, or a cuda::ptx:: /
 * cuda::device::experimental:: wrapper, by the prefix of its name. What it needs decides the
 * code: h100/needs-sm90a or h100/needs-sm90, and their unguarded-* forms in multi-arch files. */
enum spelling { PTX, WRAPPER };
static const struct {
  enum spelling in;
  const char *prefix, *what;
  enum need need;
} FEATURES[] = {
    {PTX, "wgmma.", "wgmma", SM90A},
    {PTX, "setmaxnreg.", "setmaxnreg", SM90A},
    {PTX, "cp.async.bulk.tensor", "TMA (cp.async.bulk.tensor)", SM90},
    {PTX, "cp.reduce.async.bulk", "cp.reduce.async.bulk", SM90},
    {PTX, "cp.async.bulk", "cp.async.bulk", SM90},
    {PTX, "fence.proxy.async", "fence.proxy.async", SM90},
    {PTX, "mbarrier.try_wait", "mbarrier.try_wait", SM90},
    {PTX, "mbarrier.expect_tx", "mbarrier.expect_tx", SM90},
    {PTX, "mbarrier.arrive.expect_tx", "mbarrier.arrive.expect_tx", SM90},
    {PTX, "mbarrier.arrive_drop.expect_tx", "mbarrier.arrive_drop.expect_tx", SM90},
    {WRAPPER, "cp_async_bulk_tensor", "TMA (cp_async_bulk_tensor)", SM90},
    {WRAPPER, "cp_async_bulk", "cp_async_bulk", SM90},
    {WRAPPER, "cp_reduce_async_bulk", "cp_reduce_async_bulk", SM90},
    {WRAPPER, "fence_proxy_async", "fence_proxy_async", SM90},
    {WRAPPER, "mbarrier_arrive_expect_tx", "mbarrier_arrive_expect_tx", SM90},
    {WRAPPER, "mbarrier_expect_tx", "mbarrier_expect_tx", SM90},
    {WRAPPER, "mbarrier_try_wait", "mbarrier_try_wait", SM90},
    {WRAPPER, "wgmma_", "wgmma", SM90A},
    {WRAPPER, "setmaxnreg", "setmaxnreg", SM90A},
};

/* The first feature spelled `in` whose prefix starts s[0..left), or -1. */
static int feature_at(enum spelling in, const char *s, size_t left) {
  for (size_t k = 0; k < sizeof FEATURES / sizeof *FEATURES; k++) {
    size_t n = strlen(FEATURES[k].prefix);
    if (FEATURES[k].in == in && left >= n && !memcmp(s, FEATURES[k].prefix, n))
      return (int)k;
  }
  return -1;
}

/* The PTX mnemonic starting at s[i], if it is a Hopper one. */
static void ptx_at(lint *l, const upk_src_token *t, size_t i) {
  const char *s = t->text + i;
  size_t left = t->len - i;
  int k = feature_at(PTX, s, left);
  if (k < 0)
    return;
  size_t w = 0; /* the whole instruction name */
  while (w < left && (s[w] == '.' || s[w] == '_' || s[w] == ':' || (s[w] >= 'a' && s[w] <= 'z') ||
                      (s[w] >= '0' && s[w] <= '9')))
    w++;
  hopper(l, FEATURES[k].need, FEATURES[k].what, t->off + i, w);
}

static void ptx_string(lint *l, const upk_src_token *t) {
  for (size_t i = 0; i < t->len; i++)
    if (strchr("wscfm", t->text[i]) && ptx_boundary(t->text, i))
      ptx_at(l, t, i);
}

/* cuda::ptx:: / cuda::device::experimental:: wrappers and the tensor-map type. */
static void hopper_ident(lint *l, const upk_src_token *t, const upk_src_token *p1,
                         const upk_src_token *p2) {
  if (upk_tok_is(t, "CUtensorMap") || (t->len > 11 && !memcmp(t->text, "cuTensorMap", 11))) {
    hopper(l, SM90, "TMA (CUtensorMap)", t->off, t->len);
    return;
  }
  if (!upk_tok_is(p1, "::") || !(upk_tok_is(p2, "ptx") || upk_tok_is(p2, "experimental")))
    return;
  int k = feature_at(WRAPPER, t->text, t->len);
  if (k >= 0)
    hopper(l, FEATURES[k].need, FEATURES[k].what, t->off, t->len);
}

/* `__shfl_down(` and friends: gone since sm_70 in favour of the _sync forms. */
static void deprecated(lint *l, const upk_src_token *name, const upk_src_token *before) {
  static const char *const names[] = {"__shfl", "__shfl_down", "__shfl_up", "__shfl_xor",
                                      "__any",  "__all",       "__ballot"};
  if (upk_tok_is(before, ".") || upk_tok_is(before, "->") || upk_tok_is(before, "::"))
    return;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if (!upk_tok_is(name, names[i]))
      continue;
    int line, col;
    upk_src_lex_pos(&l->lx, name->off, &line, &col);
    if (l->n_hits++ > MAX_HITS || excluded(l, l->on_target, line))
      return;
    bool shfl = i < 4;
    emit(l, UPK_SEV_WARNING, "h100/deprecated-warp-intrinsic",
         upk_range_line(line, col, col + (int)name->len),
         "%s is the pre-CUDA 9 warp intrinsic, not available for sm_70 and newer (CUDA 13 "
         "reports it undefined): use %s_sync(0xffffffff, %s) with a full mask (or the mask of "
         "the lanes taking part)",
         names[i], names[i], shfl ? "var, ..." : "predicate");
    return;
  }
}

static bool is_asm(const upk_src_token *t) {
  return upk_tok_is(t, "asm") || upk_tok_is(t, "__asm__") || upk_tok_is(t, "__asm");
}

static bool is_asm_qualifier(const upk_src_token *t) {
  return upk_tok_is(t, "volatile") || upk_tok_is(t, "__volatile__") || upk_tok_is(t, "inline") ||
         upk_tok_is(t, "goto");
}

/* One pass over the code tokens: inline PTX, wrapper calls, deprecated intrinsics. */
static void walk_tokens(lint *l) {
  upk_src_token t, p1 = {0}, p2 = {0}, pending = {0};
  int asm_state = 0, asm_depth = 0; /* 1: after asm (and qualifiers) */
  bool have_pending = false;
  while (!l->err && upk_src_lex_next(&l->lx, &t)) {
    if (t.directive)
      continue;
    if (have_pending && upk_tok_is(&t, "("))
      deprecated(l, &pending, &p2);
    have_pending = false;
    if (asm_depth > 0) {
      asm_depth += upk_tok_is(&t, "(") - upk_tok_is(&t, ")");
      if (t.kind == UPK_TOK_STRING)
        ptx_string(l, &t);
    } else if (is_asm(&t) || (asm_state && is_asm_qualifier(&t))) {
      asm_state = 1;
    } else if (asm_state && upk_tok_is(&t, "(")) {
      asm_depth = 1;
    } else if (t.kind == UPK_TOK_IDENT) {
      hopper_ident(l, &t, &p1, &p2);
      pending = t, have_pending = true;
    }
    if (!is_asm(&t) && !is_asm_qualifier(&t))
      asm_state = 0;
    p2 = p1, p1 = t;
  }
}

static void cluster_rule(lint *l) {
  for (size_t i = 0; i < l->f->n_kernels; i++) {
    const upk_src_kernel *k = &l->f->kernels[i];
    long n = 1;
    for (int j = 0; j < 3; j++)
      n *= k->cluster[j] > 0 ? k->cluster[j] : 1;
    if (k->cluster_line < 0 || n <= CLUSTER_PORTABLE)
      continue;
    upk_range r = upk_range_line(k->cluster_line, k->cluster_col, k->cluster_col + 16);
    if (n > CLUSTER_MAX)
      emit(l, UPK_SEV_ERROR, "h100/cluster-too-large", r,
           "kernel '%s' asks for clusters of %ld blocks; H100 allows at most %d (8 portably)",
           k->name, n, CLUSTER_MAX);
    else
      emit(l, UPK_SEV_WARNING, "h100/cluster-non-portable", r,
           "kernel '%s' asks for clusters of %ld blocks; the portable maximum is 8: above it the "
           "host must set cudaFuncAttributeNonPortableClusterSizeAllowed, and the launch can "
           "still fail where a GPC cannot hold the cluster",
           k->name, n);
  }
}

int upk_lint_source(const char *src, size_t len, const upk_src_facts *facts, const char *arch,
                    upk_diags *out) {
  lint l = {.f = facts, .arch_name = arch ? arch : "sm_90a", .out = out};
  int number = parse_arch(l.arch_name, &l.target.variant);
  if (number < 0)
    return 0; /* the compiler reports an unknown arch */
  l.target.arch = number * 10;
  l.multi_arch = facts->n_regions > 0;
  int rc = regions_for(&l);
  if (!rc)
    rc = upk_src_lex_open(&l.lx, src, len);
  if (!rc) {
    walk_tokens(&l);
    cluster_rule(&l);
    rc = l.err;
  }
  upk_src_lex_close(&l.lx);
  free(l.on_target), free(l.on_sm90), free(l.on_older);
  return rc;
}
