/* The include policy: every #include of the source and of the non-toolkit
 * headers it reaches is resolved the way the compiler would, made real
 * (realpath: `..` and symlinks cannot escape) and checked against the roots.
 * Each header is read beneath the root it lies under with no link followed,
 * and its bytes are kept: they are what NVRTC compiles. */
#include "gpu/compile/includes.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "gpu/compile/srcscan.h"
#include "common/xalloc.h"

enum { MAX_DEPTH = 32, MAX_FILES = 4096, MAX_HEADER_BYTES = 16 << 20, MAX_HELD = 64 << 20 };

static const char SOURCE[] = "upskilld";

typedef struct walk {
  const upk_include_policy *p;
  char **allowed, **toolkit; /* real paths of the roots */
  size_t n_allowed, n_toolkit;
  char **seen; /* "<real dir>/<name>" of each header followed */
  size_t n_seen, cap_seen, cap_deps, cap_headers;
  char **toolkit_names; /* names that resolved to a toolkit header */
  size_t n_toolkit_names, cap_toolkit_names;
  size_t held; /* bytes of header text kept */
  upk_diags *out;
  upk_include_deps *deps;
} walk;

static int check_source(walk *w, const char *src, size_t len, const char *dir, const char *file,
                        int depth);

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

/* Roots as real paths; a root that does not exist stays as given (nothing real
 * lies under it, so it allows nothing). */
static char **real_roots(const char *const *roots, size_t n) {
  char **v = upk_xcalloc(n + 1, sizeof *v);
  for (size_t i = 0; v && i < n; i++) {
    v[i] = realpath(roots[i], NULL);
    if (!v[i] && !(v[i] = upk_xstrdup(roots[i]))) {
      free_list(v, i);
      return NULL;
    }
  }
  return v;
}

static bool under_any(const char *path, char *const *roots, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (upk_path_under(path, roots[i]))
      return true;
  return false;
}

/* `dir/name` into out when it names a regular file. */
static bool try_path(const char *dir, const char *name, char out[PATH_MAX]) {
  struct stat st;
  int n = dir ? snprintf(out, PATH_MAX, "%s/%s", dir, name) : snprintf(out, PATH_MAX, "%s", name);
  return n > 0 && n < PATH_MAX && stat(out, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file the compiler would open: "..." looks in the including file's
 * directory first, then the search list; <...> only the search list. */
static bool resolve(const walk *w, const upk_src_include *inc, const char *dir,
                    char out[PATH_MAX]) {
  if (inc->target[0] == '/')
    return try_path(NULL, inc->target, out);
  if (!inc->angled && dir && try_path(dir, inc->target, out))
    return true;
  for (size_t i = 0; i < w->p->n_search; i++)
    if (try_path(w->p->search[i], inc->target, out))
      return true;
  return false;
}

static int add_diag(walk *w, const upk_src_include *inc, const char *file, const char *code,
                    const char *fmt, const char *a, const char *b) {
  upk_range r = upk_range_line(inc->line, inc->col, inc->end_col);
  if (upk_diags_add(w->out, UPK_SEV_ERROR, code, SOURCE, r, fmt, inc->angled ? '<' : '"',
                    inc->target, inc->angled ? '>' : '"', a, b))
    return -ENOMEM;
  upk_diag *d = &w->out->items[w->out->len - 1];
  if (file)
    d->file = upk_xstrdup(file);
  return 0;
}

static int refuse(walk *w, const upk_src_include *inc, const char *file, const char *real) {
  char roots[600] = "";
  size_t n = 0;
  for (size_t i = 0; i < w->n_allowed + w->n_toolkit && n < sizeof roots; i++) {
    const char *r = i < w->n_allowed ? w->allowed[i] : w->toolkit[i - w->n_allowed];
    n += snprintf(roots + n, sizeof roots - n, "%s%s", i ? ", " : "", r);
  }
  if (inc->probe) /* the same words whether the file exists or not: nothing is probed */
    return add_diag(w, inc, file, "kernel/include-outside",
                    "__has_include(%c%s%c) looks for %s, outside the allowed directories (%s): "
                    "a kernel may not probe for files there",
                    real, roots);
  return add_diag(w, inc, file, "kernel/include-outside",
                  "#include %c%s%c resolves to %s, outside the allowed directories (%s): move "
                  "the file under one of them or add its directory to \"includes\"",
                  real, roots);
}

/* A target that is absolute or climbs with "..": each place the compiler would look, in its
 * order, until one exists. A place outside the roots is refused as it is written, before
 * anything is looked up there, so the answer is the same whether a file exists or not (no
 * probing for /etc/shadow). Returns 1 and the place in `lex` when refused. */
static int escapes(const walk *w, const upk_src_include *inc, const char *dir, char lex[PATH_MAX]) {
  const char *t = inc->target;
  bool climbs = !strcmp(t, "..") || !strncmp(t, "../", 3) || strstr(t, "/../") ||
                (strlen(t) >= 3 && !strcmp(t + strlen(t) - 3, "/.."));
  if (t[0] != '/' && !climbs)
    return 0;
  size_t n = t[0] == '/' ? 1 : w->p->n_search + 1;
  for (size_t i = 0; i < n; i++) {
    const char *base = t[0] == '/' ? "" : i == 0 ? (inc->angled ? NULL : dir) : w->p->search[i - 1];
    char cand[PATH_MAX], full[PATH_MAX];
    if (!base)
      continue;
    if (base[0] && base[0] != '/' && realpath(base, full)) /* a relative search dir */
      base = full;
    if (snprintf(cand, sizeof cand, "%s/%s", base, t) >= (int)sizeof cand)
      return snprintf(lex, PATH_MAX, "%s", t), 1;
    upk_path_lexical(cand, lex);
    if (!under_any(lex, w->allowed, w->n_allowed) && !under_any(lex, w->toolkit, w->n_toolkit))
      return 1;
    struct stat st;
    if (stat(lex, &st) == 0)
      return 0; /* found inside: checked as it really is */
  }
  return 0;
}

static int add_dep(walk *w, const char *real) {
  upk_include_deps *d = w->deps;
  for (size_t i = 0; i < d->n; i++)
    if (!strcmp(d->paths[i], real))
      return 0;
  UPK_GROW(d->paths, w->cap_deps, d->n + 1);
  d->paths[d->n++] = upk_xstrdup(real);
  return 0;
}

/* First visit of `key`? Then it is remembered. 1: new, 0: seen, <0: error. */
static int first_visit(walk *w, const char *key) {
  for (size_t i = 0; i < w->n_seen; i++)
    if (!strcmp(w->seen[i], key))
      return 0;
  UPK_GROW(w->seen, w->cap_seen, w->n_seen + 1);
  w->seen[w->n_seen++] = upk_xstrdup(key);
  return 1;
}

/* The real root `real` lies under (the policy allowed it), or NULL. */
static const char *root_of(const walk *w, const char *real) {
  for (size_t i = 0; i < w->n_allowed; i++)
    if (upk_path_under(real, w->allowed[i]))
      return w->allowed[i];
  return NULL;
}

static upk_include_header *header_named(const walk *w, const char *name) {
  for (size_t i = 0; i < w->deps->n_headers; i++)
    if (!strcmp(w->deps->headers[i].name, name))
      return &w->deps->headers[i];
  return NULL;
}

static bool toolkit_named(const walk *w, const char *name) {
  for (size_t i = 0; i < w->n_toolkit_names; i++)
    if (!strcmp(w->toolkit_names[i], name))
      return true;
  return false;
}

/* NVRTC takes a header wherever an #include spells its name, so one name must stand for one
 * file everywhere it is reached (`real`; NULL: the toolkit's). 1 when it does not (diagnosed),
 * 0, or <0. */
static int one_name(walk *w, const upk_src_include *inc, const char *file, const char *real) {
  const upk_include_header *h = header_named(w, inc->target);
  if (!real && !h) {
    if (toolkit_named(w, inc->target))
      return 0;
    UPK_GROW(w->toolkit_names, w->cap_toolkit_names, w->n_toolkit_names + 1);
    w->toolkit_names[w->n_toolkit_names++] = upk_xstrdup(inc->target);
    return 0;
  }
  if (real && (h ? h->path && !strcmp(h->path, real) : !toolkit_named(w, inc->target)))
    return 0;
  const char *other = h ? (h->text ? h->path : "no file") : "the toolkit's header";
  int rc = add_diag(w, inc, file, "kernel/include-unchecked",
                    "#include %c%s%c stands for %s here and for %s elsewhere: NVRTC takes a "
                    "header by the name an #include spells, so one name cannot stand for two "
                    "files; rename one of them",
                    real ? real : "the toolkit's header", other);
  return rc ? rc : 1;
}

/* Keep `text` (owned) as what NVRTC gets for `name`: the first read of a name stands. */
static int hold(walk *w, const char *name, const char *path, char *text, size_t len) {
  upk_include_deps *d = w->deps;
  if (header_named(w, name)) {
    free(text);
    return 0;
  }
  UPK_GROW(d->headers, w->cap_headers, d->n_headers + 1);
  d->headers[d->n_headers++] = (upk_include_header){
      .name = upk_xstrdup(name), .path = upk_xstrdup(path), .text = text, .len = len};
  w->held += len;
  return 0;
}

/* An allowed header: recorded, read once (beneath its root, no link followed: what is checked
 * is what NVRTC gets), and its own includes checked, once per place it is looked up from (its
 * real directory; that is where "..." includes start). */
static int follow(walk *w, const upk_src_include *inc, const char *file, const char *cand,
                  const char *real, int depth) {
  char dir[PATH_MAX], rdir[PATH_MAX], key[PATH_MAX];
  int rc = add_dep(w, real);
  const char *slash = strrchr(cand, '/');
  if (rc || !slash)
    return rc;
  snprintf(dir, sizeof dir, "%.*s", (int)(slash - cand) ? (int)(slash - cand) : 1, cand);
  if (!realpath(dir, rdir) || snprintf(key, sizeof key, "%s/%s", rdir, slash + 1) >= PATH_MAX)
    return 0;
  if ((rc = first_visit(w, key)) <= 0)
    return rc;
  if (depth >= MAX_DEPTH || w->n_seen > MAX_FILES)
    return add_diag(w, inc, file, "kernel/include-unchecked",
                    "#include %c%s%c was not checked: headers nest deeper than %s or reach more "
                    "than %s files, so the compile is refused",
                    "32", "4096");
  size_t len = 0;
  char *src = NULL;
  const char *root = root_of(w, real);
  int e = root ? upk_read_beneath(root, real, MAX_HEADER_BYTES, &src, &len) : -EXDEV;
  if (!e && w->held + len > MAX_HELD)
    e = -EFBIG;
  if (e) {
    free(src);
    return add_diag(w, inc, file, "kernel/include-unchecked",
                    "#include %c%s%c was not checked: %s cannot be read (%s), so the compile is "
                    "refused",
                    key, upk_read_error(e));
  }
  rc = check_source(w, src, len, rdir, key, depth + 1);
  if (rc) {
    free(src);
    return rc;
  }
  return hold(w, inc->target, real, src, len);
}

static int check_one(walk *w, const upk_src_include *inc, const char *dir, const char *file,
                     int depth) {
  char cand[PATH_MAX], real[PATH_MAX];
  if (inc->computed) {
    if (upk_diags_add(w->out, UPK_SEV_ERROR, "kernel/include-unchecked", SOURCE,
                      upk_range_line(inc->line, inc->col, inc->end_col),
                      "%s%s%s names its header through a macro, which cannot be checked against "
                      "the include policy, so the compile is refused; write the header's name",
                      inc->probe ? "__has_include(" : "#include ", inc->target,
                      inc->probe ? ")" : ""))
      return -ENOMEM;
    if (file)
      w->out->items[w->out->len - 1].file = upk_xstrdup(file);
    return 0;
  }
  if (escapes(w, inc, dir, cand))
    return refuse(w, inc, file, cand);
  if (!resolve(w, inc, dir, cand) || !realpath(cand, real)) {
    /* found nowhere: the compiler reports it; NVRTC must not open an absolute name later */
    if (inc->target[0] != '/' || header_named(w, inc->target))
      return 0;
    return hold(w, inc->target, inc->target, NULL, 0);
  }
  int rc = under_any(real, w->toolkit, w->n_toolkit) ? one_name(w, inc, file, NULL) : 0;
  if (rc || under_any(real, w->toolkit, w->n_toolkit))
    return rc < 0 ? rc : 0;
  if (!under_any(real, w->allowed, w->n_allowed))
    return refuse(w, inc, file, real);
  /* a probe of an allowed header reads it too: NVRTC answers __has_include from memory */
  rc = one_name(w, inc, file, real);
  return rc ? (rc < 0 ? rc : 0) : follow(w, inc, file, cand, real, depth);
}

/* Before C++17 `??=` is `#` and `??/` a backslash (a line splice): the scan does not read
 * trigraphs, so a text that has one is refused rather than judged by a different reading. */
static int trigraphs(walk *w, const char *src, size_t len, const char *file) {
  size_t line = 0, bol = 0;
  for (size_t i = 0; i + 2 < len; i++) {
    if (src[i] == '\n')
      line++, bol = i + 1;
    if (src[i] != '?' || src[i + 1] != '?' || (src[i + 2] != '=' && src[i + 2] != '/'))
      continue;
    char tg[4] = {'?', '?', src[i + 2], '\0'};
    const char *as = src[i + 2] == '=' ? "#" : "\\";
    upk_src_include at = {.target = tg, .line = (int)line, .col = (int)(i - bol)};
    at.end_col = at.col + 3;
    int rc = add_diag(w, &at, file, "kernel/include-unchecked",
                      "%c%s%c is a trigraph, which C++ before C++17 reads as %s: the include "
                      "policy does not read trigraphs, so the compile is refused; write %s",
                      as, as);
    return rc ? rc : 1;
  }
  return 0;
}

static int check_source(walk *w, const char *src, size_t len, const char *dir, const char *file,
                        int depth) {
  int t = trigraphs(w, src, len, file);
  if (t)
    return t < 0 ? t : 0;
  upk_src_facts f;
  int rc = upk_src_scan(src, len, &f);
  for (size_t i = 0; !rc && i < f.n_includes; i++)
    rc = check_one(w, &f.includes[i], dir, file, depth);
  upk_src_facts_free(&f);
  return rc;
}

int upk_includes_check(const char *src, size_t len, const upk_include_policy *p, upk_diags *out,
                       upk_include_deps *deps) {
  memset(deps, 0, sizeof *deps);
  walk w = {.p = p, .out = out, .deps = deps, .n_allowed = p->n_allowed, .n_toolkit = p->n_toolkit};
  w.allowed = real_roots(p->allowed, p->n_allowed);
  w.toolkit = real_roots(p->toolkit, p->n_toolkit);
  int rc = -ENOMEM;
  if (w.allowed && w.toolkit)
    rc = check_source(&w, src, len, p->file_dir, NULL, 0);
  free_list(w.allowed, w.allowed ? w.n_allowed : 0);
  free_list(w.toolkit, w.toolkit ? w.n_toolkit : 0);
  free_list(w.seen, w.n_seen);
  free_list(w.toolkit_names, w.n_toolkit_names);
  if (rc)
    upk_include_deps_free(deps);
  return rc;
}

void upk_include_deps_free(upk_include_deps *d) {
  free_list(d->paths, d->n);
  for (size_t i = 0; i < d->n_headers; i++) {
    free(d->headers[i].name);
    free(d->headers[i].path);
    free(d->headers[i].text);
  }
  free(d->headers);
  memset(d, 0, sizeof *d);
}
