/* Kernel parameter types from the demangled symbol (argsig.h). The demangler
 * is libstdc++'s; this file only splits its parameter list and maps the
 * element types a run can carry. */
#include "gpu/worker/argsig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/reference/pyref.h"
#include "common/xalloc.h"

/* libstdc++'s abi::__cxa_demangle has C linkage. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static const struct {
  const char *name;
  upk_dtype t;
} TYPES[] = {
    {"float", UPK_DT_F32},        {"__half", UPK_DT_F16},
    {"half", UPK_DT_F16},         {"__nv_bfloat16", UPK_DT_BF16},
    {"nv_bfloat16", UPK_DT_BF16}, {"double", UPK_DT_F64},
    {"char", UPK_DT_I8},          {"signed char", UPK_DT_I8},
    {"int", UPK_DT_I32},          {"long", UPK_DT_I64},
    {"long long", UPK_DT_I64},    {"unsigned char", UPK_DT_U8},
    {"unsigned int", UPK_DT_U32}, {"unsigned", UPK_DT_U32},
};

/* "float const*" -> pointer, f32. Qualifiers and restrict are dropped. */
static void classify(upk_ksig_param *p) {
  char base[96] = "";
  size_t n = 0;
  const char *s = p->text;
  p->pointer = strchr(s, '*') != NULL;
  while (*s && n + 1 < sizeof base) {
    const char *w = s + strspn(s, " *&");
    size_t len = strcspn(w, " *&");
    if (!len)
      break;
    bool qual = (len == 5 && !strncmp(w, "const", 5)) || (len == 8 && !strncmp(w, "volatile", 8)) ||
                (len == 12 && !strncmp(w, "__restrict__", 12)) ||
                (len == 10 && !strncmp(w, "__restrict", 10));
    if (!qual && len < sizeof base - n - 1)
      n += (size_t)snprintf(base + n, sizeof base - n, "%s%.*s", n ? " " : "", (int)len, w);
    s = w + len;
  }
  for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
    if (!strcmp(base, TYPES[i].name)) {
      p->known = true;
      p->dtype = TYPES[i].t;
      return;
    }
}

/* The text between the last top-level "(" and its ")". */
static char *param_list(char *d) {
  size_t n = strlen(d);
  if (!n || d[n - 1] != ')')
    return NULL;
  int depth = 0;
  for (size_t i = n; i-- > 0;) {
    depth += d[i] == ')' ? 1 : d[i] == '(' ? -1 : 0;
    if (!depth) {
      d[n - 1] = '\0';
      return d + i + 1;
    }
  }
  return NULL;
}

int upk_ksig_params(const char *mangled, upk_ksig_param *out, size_t *n) {
  int status = -1;
  *n = 0;
  if (!mangled || strncmp(mangled, "_Z", 2))
    return -ENOENT;
  char *d = __cxa_demangle(mangled, NULL, NULL, &status);
  char *list = d && !status ? param_list(d) : NULL;
  if (!list) {
    free(d);
    return !d && status == -1 ? -ENOMEM : -ENOENT;
  }
  int depth = 0;
  const char *start = list;
  for (const char *c = list;; c++) {
    depth += *c == '<' || *c == '(' ? 1 : *c == '>' || *c == ')' ? -1 : 0;
    if ((*c == ',' && !depth) || !*c) {
      const char *b = start + strspn(start, " ");
      size_t len = (size_t)(c - b);
      if (len && *n < UPK_KSIG_MAX_PARAMS && !(len == 4 && !strncmp(b, "void", 4))) {
        upk_ksig_param *p = &out[(*n)++];
        memset(p, 0, sizeof *p);
        snprintf(p->text, sizeof p->text, "%.*s", (int)len, b);
        classify(p);
      }
      if (!*c)
        break;
      start = c + 1;
    }
  }
  free(d);
  return 0;
}

/* "f16 [1024] (from input0)" or "f32 x 4096": what the spec's argument is. */
static void arg_text(const upk_run_arg *a, char *buf, size_t len) {
  char shape[200], from[300];
  if (!a->is_buffer) {
    snprintf(buf, len, "a %s scalar", upk_dtype_name(a->dtype));
    return;
  }
  if (a->rank)
    upk_pyref_describe(a->dtype, a->shape, a->rank, shape, sizeof shape);
  else
    snprintf(shape, sizeof shape, "%s x %zu", upk_dtype_name(a->dtype), a->count);
  if (a->from) {
    upk_pyref_from_name(a, from, sizeof from);
    snprintf(buf, len, "a %s buffer (from %s)", shape, from);
  } else {
    snprintf(buf, len, "a %s buffer", shape);
  }
}

static int check_one(const upk_run_arg *a, size_t i, const upk_ksig_param *p, char *err,
                     size_t len) {
  char have[400];
  bool type_differs = p->known && p->dtype != a->dtype;
  if (a->is_buffer == p->pointer && !type_differs)
    return 0;
  arg_text(a, have, sizeof have);
  snprintf(err, len, "run.args[%zu] '%s' is %s, but the kernel's parameter %zu is %s%s%s%s", i,
           a->name, have, i + 1, p->text, p->known ? " (" : "",
           p->known ? upk_dtype_name(p->dtype) : "", p->known ? ")" : "");
  return -EINVAL;
}

int upk_ksig_check(const char *mangled, const upk_run_spec *s, char *err, size_t err_len) {
  upk_ksig_param *ps = upk_xcalloc(UPK_KSIG_MAX_PARAMS, sizeof *ps);
  size_t n = 0;
  int rc = ps ? upk_ksig_params(mangled, ps, &n) : -ENOMEM;
  if (rc == -ENOENT)
    rc = 0, n = SIZE_MAX; /* no types to check */
  if (!rc && n != SIZE_MAX && n != s->n_args) {
    snprintf(err, err_len, "the kernel takes %zu parameter%s; run.args has %zu", n,
             n == 1 ? "" : "s", s->n_args);
    rc = -EINVAL;
  }
  for (size_t i = 0; !rc && n != SIZE_MAX && i < n; i++)
    rc = check_one(&s->args[i], i, &ps[i], err, err_len);
  free(ps);
  return rc;
}
