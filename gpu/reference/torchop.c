/* torch op schemas (torchop.h): a hand parser for PyTorch's function-schema
 * grammar (it is neither JSON nor YAML), and a scan of C++ sources for the
 * `.def("...")` calls that declare them, on the project's own lexer. */
#include "gpu/reference/torchop.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/project/buildtoml.h"
#include "common/fileio.h"
#include "gpu/compile/srclex.h"
#include "common/xalloc.h"

enum { SOURCE_CAP = 16 << 20 };

typedef struct sp {
  const char *s;
  size_t i;
  char *err;
  size_t err_len;
} sp;

static int fail(sp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(sp *p, const char *fmt, ...) {
  char what[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(p->err, p->err_len, "at column %zu: %s", p->i + 1, what);
  return -EINVAL;
}

static void ws(sp *p) {
  while (isspace((unsigned char)p->s[p->i]))
    p->i++;
}

static bool eat(sp *p, const char *tok) {
  size_t n = strlen(tok);
  ws(p);
  if (strncmp(p->s + p->i, tok, n))
    return false;
  p->i += n;
  return true;
}

/* An identifier ("aten::" style namespaces allowed: the last part is kept). */
static int ident(sp *p, char *buf, size_t len, const char *what) {
  ws(p);
  for (;;) {
    size_t start = p->i;
    if (!isalpha((unsigned char)p->s[p->i]) && p->s[p->i] != '_')
      return fail(p, "expected %s", what);
    while (isalnum((unsigned char)p->s[p->i]) || p->s[p->i] == '_')
      p->i++;
    if (p->i - start >= len)
      return fail(p, "%s is over %zu characters", what, len - 1);
    snprintf(buf, len, "%.*s", (int)(p->i - start), p->s + start);
    if (strncmp(p->s + p->i, "::", 2))
      return 0;
    p->i += 2;
  }
}

static const struct {
  const char *name;
  upk_torchop_kind kind;
} BASES[] = {{"Tensor", UPK_TOP_TENSOR}, {"int", UPK_TOP_INT},       {"SymInt", UPK_TOP_INT},
             {"float", UPK_TOP_FLOAT},   {"bool", UPK_TOP_BOOL},     {"str", UPK_TOP_STR},
             {"Scalar", UPK_TOP_SCALAR}, {"SymFloat", UPK_TOP_FLOAT}};

/* Type := Base ( "(" alias ")" | "!" | "[" N? "]" | "?" )* */
static int type(sp *p, upk_torchop_arg *a) {
  char base[48];
  ws(p);
  size_t start = p->i;
  if (ident(p, base, sizeof base, "a type"))
    return -EINVAL;
  a->kind = UPK_TOP_OTHER;
  for (size_t k = 0; k < sizeof BASES / sizeof *BASES; k++)
    if (!strcmp(base, BASES[k].name))
      a->kind = BASES[k].kind;
  for (;;) {
    size_t before = p->i;
    ws(p); /* "Tensor (a!)" and "Tensor !x" parse in PyTorch too */
    const char *c = p->s + p->i;
    if (*c == '(') { /* alias annotation: (a), (a!), (a -> *) */
      const char *end = strchr(c, ')');
      if (!end)
        return fail(p, "unclosed alias annotation");
      a->written |= memchr(c, '!', (size_t)(end - c)) != NULL;
      p->i += (size_t)(end - c) + 1;
    } else if (*c == '!') {
      a->written = true, p->i++;
    } else if (*c == '?') {
      a->optional = true, p->i++;
    } else if (*c == '[') {
      p->i += 1 + strspn(c + 1, "0123456789");
      if (p->s[p->i] != ']')
        return fail(p, "expected ']' after '['");
      p->i++;
      a->list = true;
    } else {
      p->i = before;
      break;
    }
  }
  if (a->kind == UPK_TOP_TENSOR && a->list)
    a->kind = UPK_TOP_TENSOR_LIST, a->list = false;
  snprintf(a->type, sizeof a->type, "%.*s", (int)(p->i - start), p->s + start);
  return 0;
}

/* A default runs to the next ',' or ')' outside brackets and quotes. */
static int default_value(sp *p, upk_torchop_arg *a) {
  ws(p);
  size_t start = p->i;
  int depth = 0;
  char quote = 0;
  for (const char *c = p->s + p->i; *c; c++, p->i++) {
    if (quote)
      quote = *c == quote ? 0 : quote;
    else if (*c == '"' || *c == '\'')
      quote = *c;
    else if (*c == '[' || *c == '(')
      depth++;
    else if ((*c == ']' || *c == ')') && depth)
      depth--;
    else if ((*c == ',' || *c == ')') && !depth)
      break;
  }
  size_t n = p->i - start;
  while (n && isspace((unsigned char)p->s[start + n - 1]))
    n--;
  if (!n)
    return fail(p, "expected a default value after '='");
  a->has_default = true;
  snprintf(a->def, sizeof a->def, "%.*s", (int)n, p->s + start);
  return 0;
}

static int args(sp *p, upk_torchop *op) {
  bool kwonly = false;
  if (eat(p, ")"))
    return 0;
  for (;;) {
    if (eat(p, "*")) {
      kwonly = true;
    } else {
      if (op->n_args == UPK_TORCHOP_MAX_ARGS)
        return fail(p, "over %d arguments", UPK_TORCHOP_MAX_ARGS);
      upk_torchop_arg *a = &op->args[op->n_args++];
      a->kwonly = kwonly;
      if (type(p, a))
        return -EINVAL;
      ws(p);
      size_t at = p->i;
      if (ident(p, a->name, sizeof a->name, "an argument name"))
        return -EINVAL;
      for (size_t i = 0; i + 1 < op->n_args; i++)
        if (!strcmp(op->args[i].name, a->name))
          return p->i = at, fail(p, "argument '%s' appears twice", a->name);
      if (eat(p, "=") && default_value(p, a))
        return -EINVAL;
    }
    if (eat(p, ")"))
      return 0;
    if (!eat(p, ","))
      return fail(p, "expected ',' or ')'");
  }
}

static int one_return(sp *p, upk_torchop *op, bool named) {
  upk_torchop_arg r = {.kind = UPK_TOP_OTHER};
  char name[64];
  if (type(p, &r))
    return -EINVAL;
  ws(p);
  if (named && (isalpha((unsigned char)p->s[p->i]) || p->s[p->i] == '_') &&
      ident(p, name, sizeof name, "a return name"))
    return -EINVAL;
  op->n_ret_tensors += r.kind == UPK_TOP_TENSOR;
  op->ret_list |= r.kind == UPK_TOP_TENSOR_LIST;
  return 0;
}

static int returns(sp *p, upk_torchop *op) {
  if (!eat(p, "->"))
    return fail(p, "expected '->' and the return type");
  if (!eat(p, "("))
    return one_return(p, op, false);
  if (eat(p, ")"))
    return 0;
  for (;;) {
    if (one_return(p, op, true))
      return -EINVAL;
    if (eat(p, ")"))
      return 0;
    if (!eat(p, ","))
      return fail(p, "expected ',' or ')' in the returns");
  }
}

int upk_torchop_parse(const char *schema, upk_torchop *out, char *err, size_t err_len) {
  sp p = {.s = schema, .err = err, .err_len = err_len};
  memset(out, 0, sizeof *out);
  out->args = upk_xcalloc(UPK_TORCHOP_MAX_ARGS, sizeof *out->args);
  out->schema = upk_xstrdup(schema);
  if (!out->args || !out->schema) {
    upk_torchop_free(out);
    return -ENOMEM;
  }
  int rc = ident(&p, out->name, sizeof out->name, "the op's name");
  if (!rc && p.s[p.i] == '.')
    p.i++, rc = ident(&p, out->overload, sizeof out->overload, "an overload name");
  if (!rc && !eat(&p, "("))
    rc = fail(&p, "expected '(' after the op's name");
  if (!rc)
    rc = args(&p, out);
  if (!rc)
    rc = returns(&p, out);
  ws(&p);
  if (!rc && p.s[p.i])
    rc = fail(&p, "unexpected '%c' after the return type", p.s[p.i]);
  if (rc)
    upk_torchop_free(out);
  return rc;
}

void upk_torchop_free(upk_torchop *op) {
  free(op->args);
  free(op->schema);
  free(op->file);
  memset(op, 0, sizeof *op);
}

/* ---- C++ sources --------------------------------------------------------- */

/* Append the contents of string literal token `t` ("..." with simple escapes;
 * raw R"d(...)d" as is). False for a prefixed literal it does not read. */
static bool append_literal(const upk_src_token *t, char *buf, size_t *n, size_t cap) {
  const char *s = t->text, *end = t->text + t->len - 1;
  if (*s == 'R' && s[1] == '"') {
    const char *open = memchr(s, '(', t->len), *close = end;
    while (close > s && *close != ')')
      close--;
    if (!open || close <= open)
      return false;
    s = open, end = close;
  } else if (*s != '"') {
    return false;
  }
  for (s++; s < end && *n + 1 < cap; s++) {
    char c = *s;
    if (c == '\\' && s + 1 < end)
      c = *++s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
    buf[(*n)++] = c;
  }
  buf[*n] = '\0';
  return true;
}

static bool same_op(const upk_torchop *a, const upk_torchop *b) {
  return !strcmp(a->name, b->name) && !strcmp(a->overload, b->overload);
}

static int keep(upk_torchop_set *set, upk_torchop *op, const char *path, int line) {
  for (size_t i = 0; i < set->n; i++)
    if (same_op(&set->ops[i], op)) {
      upk_torchop_free(op); /* another backend's #if branch */
      return 0;
    }
  upk_torchop *grown = upk_xrealloc(set->ops, (set->n + 1) * sizeof *grown);
  if (!grown || !(op->file = upk_xstrdup(path ? path : "torch_binding.cpp"))) {
    if (grown)
      set->ops = grown;
    upk_torchop_free(op);
    return -ENOMEM;
  }
  set->ops = grown;
  op->line = line;
  set->ops[set->n++] = *op;
  return 0;
}

static int keep_inferred(upk_torchop_set *set, const char *name) {
  char **grown = upk_xrealloc(set->inferred, (set->n_inferred + 1) * sizeof *grown);
  set->inferred = grown;
  return (set->inferred[set->n_inferred] = upk_xstrdup(name)) ? (set->n_inferred++, 0) : -ENOMEM;
}

/* At `.def(` / `->def(`: the joined literals that follow, then parse them. */
static int take_def(upk_src_lexer *lx, const char *path, upk_torchop_set *set, upk_diags *diags) {
  upk_src_token t;
  char text[4096] = "", err[200];
  size_t n = 0, first = SIZE_MAX;
  bool more;
  while ((more = upk_src_lex_next(lx, &t)) && t.kind == UPK_TOK_STRING) {
    first = first == SIZE_MAX ? t.off : first;
    if (!append_literal(&t, text, &n, sizeof text))
      return 0;
  }
  if (first != SIZE_MAX && more && upk_tok_is(&t, ",") && n && n < 64 &&
      strspn(text, "abcdefghijklmnopqrstuvwxyz"
                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n)
    return keep_inferred(set, text); /* .def("name", fn): torch infers the schema from C++ */
  if (first == SIZE_MAX || !strchr(text, '('))
    return 0;
  int line = 0, col = 0;
  upk_src_lex_pos(lx, first, &line, &col);
  upk_torchop op;
  int rc = upk_torchop_parse(text, &op, err, sizeof err);
  if (rc == -EINVAL) {
    size_t before = diags->len;
    upk_diags_add(diags, UPK_SEV_WARNING, "torchop/bad-schema", "upskilld",
                  upk_range_line(line, col, col),
                  "the op schema \"%s\" does not parse (%s); its op is left out", text, err);
    if (diags->len > before && path)
      diags->items[before].file = upk_xstrdup(path); /* NULL (no memory): the range stays */
    return 0;
  }
  return rc ? rc : keep(set, &op, path, line);
}

int upk_torchop_scan(const char *text, size_t len, const char *path, upk_torchop_set *set,
                     upk_diags *diags) {
  upk_src_lexer lx;
  upk_src_token t;
  int rc = upk_src_lex_open(&lx, text, len);
  int state = 0; /* 1: after . or ->, 2: after def */
  while (!rc && upk_src_lex_next(&lx, &t)) {
    if (state == 2 && upk_tok_is(&t, "("))
      rc = take_def(&lx, path, set, diags);
    if (state == 1 && upk_tok_is(&t, "def"))
      state = 2;
    else
      state = upk_tok_is(&t, ".") || upk_tok_is(&t, "->") ? 1 : 0;
  }
  upk_src_lex_close(&lx);
  return rc;
}

static bool cxx_file(const char *p) {
  static const char *const exts[] = {".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".cuh"};
  const char *dot = strrchr(p, '.');
  for (size_t i = 0; dot && i < sizeof exts / sizeof *exts; i++)
    if (!strcmp(dot, exts[i]))
      return true;
  return false;
}

static int scan_file(const char *dir, const char *rel, upk_torchop_set *set, upk_diags *diags) {
  char path[4096];
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  char *text = NULL; /* the project's own file: no link out of it, no FIFO */
  if (upk_read_beneath(dir, rel, SOURCE_CAP, &text, &len))
    return -ENOENT;
  int rc = upk_torchop_scan(text, len, path, set, diags);
  free(text);
  set->n_files += rc == 0;
  return rc;
}

int upk_torchop_load(const char *dir, upk_torchop_set *set, upk_diags *diags, char *err,
                     size_t err_len) {
  char toml[4096];
  upk_buildtoml b;
  int rc = 0;
  memset(set, 0, sizeof *set);
  snprintf(toml, sizeof toml, "%s/build.toml", dir);
  if (upk_buildtoml_load(toml, &b))
    return -ENOMEM;
  for (size_t i = 0; b.name && b.name[i] && i + 1 < sizeof set->package; i++)
    set->package[i] = b.name[i] == '-' ? '_' : b.name[i];
  for (size_t i = 0; !rc && i < b.torch_src.n; i++)
    if (cxx_file(b.torch_src.v[i].s) && (rc = scan_file(dir, b.torch_src.v[i].s, set, diags)))
      rc = rc == -ENOENT ? 0 : rc; /* build.toml's own diagnostics name a missing src */
  upk_buildtoml_free(&b);
  if (!rc && !set->n_files)
    rc = scan_file(dir, "torch-ext/torch_binding.cpp", set, diags);
  if (rc == -ENOENT)
    snprintf(err, err_len,
             "%s has no readable torch-ext C++ source (build.toml's [torch] src, or "
             "torch-ext/torch_binding.cpp) to read the op schemas from",
             dir);
  return rc;
}

const upk_torchop *upk_torchop_find(const upk_torchop_set *set, const char *name) {
  const char *dot = strchr(name, '.');
  size_t n = dot ? (size_t)(dot - name) : strlen(name);
  for (size_t i = 0; i < set->n; i++) {
    const upk_torchop *op = &set->ops[i];
    if (strlen(op->name) == n && !strncmp(op->name, name, n) &&
        !strcmp(op->overload, dot ? dot + 1 : ""))
      return op;
  }
  return NULL;
}

void upk_torchop_set_free(upk_torchop_set *set) {
  for (size_t i = 0; i < set->n; i++)
    upk_torchop_free(&set->ops[i]);
  for (size_t i = 0; i < set->n_inferred; i++)
    free(set->inferred[i]);
  free(set->inferred);
  free(set->ops);
  memset(set, 0, sizeof *set);
}

const char *upk_torchop_kind_name(upk_torchop_kind k) {
  static const char *const names[] = {"Tensor", "Tensor[]", "int",    "float",
                                      "bool",   "str",      "Scalar", "other"};
  return k <= UPK_TOP_OTHER ? names[k] : "?";
}
