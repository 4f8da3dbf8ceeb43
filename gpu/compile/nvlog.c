/* NVRTC front-end logs -> diagnostics; the file's line helpers, names and
 * columns. ptxas, PTX and cubin parsing is in the second half. */
#include "gpu/compile/nvlog.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* ---- lines ---- */

typedef struct lines {
  char *buf;
  char **v;
  size_t n;
} lines;

static void lines_free(lines *l) {
  free(l->buf);
  free(l->v);
}

/* Split a copy of `text` (NULL: empty) at '\n'; a trailing '\r' is dropped. */
static int lines_split(const char *text, lines *l) {
  memset(l, 0, sizeof *l);
  text = text ? text : "";
  size_t cap = 1;
  for (const char *p = text; *p; p++)
    cap += *p == '\n';
  l->buf = upk_xstrdup(text);
  l->v = upk_xcalloc(cap, sizeof *l->v);
  for (char *p = l->buf, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
    if ((nl = strchr(p, '\n')))
      *nl = '\0';
    size_t len = strlen(p);
    if (len && p[len - 1] == '\r')
      p[len - 1] = '\0';
    l->v[l->n++] = p;
  }
  return 0;
}

static bool blank(const char *s) {
  while (*s && isspace((unsigned char)*s))
    s++;
  return !*s;
}

/* The caret line under an echoed source line: blanks, then '^'. */
static bool caret_line(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s[0] == '^' && blank(s + 1);
}

static bool ident_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* End (byte offset) of the token that starts at `at` in `line`. */
static size_t token_end(const char *line, size_t at) {
  size_t len = strlen(line), e = at;
  if (at >= len)
    return len;
  if (ident_char(line[at])) {
    while (e < len && (ident_char(line[e]) || (isdigit((unsigned char)line[at]) && line[e] == '.')))
      e++;
  } else if (line[at] == '"' || line[at] == '\'') {
    for (e = at + 1; e < len && line[e] != line[at]; e++)
      e += line[e] == '\\';
    e = e < len ? e + 1 : len;
  } else {
    e = at + 1;
  }
  return e;
}

/* Whether a file named by a log or a PTX `.file` is the program itself;
 * NVRTC makes a relative program name absolute in `.file`. */
static bool is_main(const char *file, const char *main_file) {
  if (!main_file || !strcmp(file, main_file))
    return true;
  size_t f = strlen(file), m = strlen(main_file);
  return main_file[0] != '/' && f > m && file[f - m - 1] == '/' && !strcmp(file + f - m, main_file);
}

/* A log line's message, or a stand-in for a line that has none (clients drop empty ones). */
static const char *said(const char *msg) {
  return msg && msg[0] ? msg : "(no message in the compiler's log)";
}

/* Set the file of the diagnostic just added. */
static int set_file(upk_diags *out, int add_rc, const char *file) {
  if (add_rc || !file)
    return add_rc;
  upk_diag *d = &out->items[out->len - 1];
  d->file = upk_xstrdup(file);
  if (d->file)
    upk_utf8_scrub(d->file); /* a file name from the log: it goes out as a JSON string */
  return d->file ? 0 : -ENOMEM;
}

/* ---- front end ---- */

enum { LINE_MAX_NUMBER = 1000000000 };
static const char HEADER_RE[] = "^(.+)\\(([0-9]+)\\): (catastrophic error|error|warning|remark)"
                                "( #([0-9]+)(-[A-Z])?)?: (.*)$";

typedef struct fe_diag {
  const char *file, *sev, *number;
  int line;
  char msg[1024];
  const char *echo; /* the echoed source line (2 leading spaces removed); NULL: none */
  size_t caret;     /* byte offset of the caret in `echo` */
} fe_diag;

static void append(char *msg, size_t cap, const char *fmt, const char *text) {
  size_t used = strlen(msg);
  while (*text == ' ' || *text == '\t')
    text++;
  if (used < cap)
    snprintf(msg + used, cap - used, fmt, text);
}

/* Collect the lines after header `i`: continuation text, the echo, the caret
 * and the notes below it. Returns the index of the next unread line. */
static size_t fe_body(const lines *l, size_t i, const regex_t *re, fe_diag *d) {
  size_t k = i + 1, caret = 0;
  for (; k < l->n && !blank(l->v[k]) && regexec(re, l->v[k], 0, NULL, 0); k++)
    if (caret_line(l->v[k]) && k > i + 1) {
      caret = k;
      break;
    }
  size_t text_end = caret ? caret - 1 : k;
  for (size_t j = i + 1; j < text_end; j++)
    append(d->msg, sizeof d->msg, "; %s", l->v[j]);
  if (!caret)
    return k;
  const char *echo = l->v[caret - 1];
  d->echo = strncmp(echo, "  ", 2) ? echo : echo + 2;
  size_t off = strcspn(l->v[caret], "^");
  d->caret = off >= 2 ? off - 2 : 0;
  for (k = caret + 1; k < l->n && !blank(l->v[k]) && regexec(re, l->v[k], 0, NULL, 0); k++)
    append(d->msg, sizeof d->msg, " (%s)", l->v[k]);
  return k;
}

static int fe_emit(const fe_diag *d, const upk_nvlog_ctx *ctx, upk_diags *out) {
  upk_severity sev = d->sev[0] == 'w'   ? UPK_SEV_WARNING
                     : d->sev[0] == 'r' ? UPK_SEV_INFO
                                        : UPK_SEV_ERROR;
  const char *kind = sev == UPK_SEV_WARNING ? "warning" : sev == UPK_SEV_INFO ? "remark" : "error";
  char code[32];
  snprintf(code, sizeof code, "nvrtc/%s", d->number ? d->number : kind);
  int col = 0, end = 0;
  if (d->echo) {
    col = upk_utf16_units(d->echo, d->caret);
    end = upk_utf16_units(d->echo, token_end(d->echo, d->caret));
    end = end > col ? end : col;
  }
  int rc = upk_diags_add(out, sev, code, "nvrtc", upk_range_line(d->line - 1, col, end), "%s",
                         said(d->msg));
  return set_file(out, rc, is_main(d->file, ctx->main_file) ? NULL : d->file);
}

/* A header's line number: digits (HEADER_RE), clamped where they overflow an
 * int (atoi's behaviour there is undefined; the fuzzer found lines at -2). */
static int line_number(const char *digits) {
  errno = 0;
  long v = strtol(digits, NULL, 10);
  return errno || v < 0 || v > LINE_MAX_NUMBER ? LINE_MAX_NUMBER : (int)v;
}

/* One header line (already matched) and what follows it. */
static size_t fe_one(const lines *l, size_t i, const regex_t *re, const regmatch_t *m,
                     const upk_nvlog_ctx *ctx, upk_diags *out, int *rc) {
  char *s = l->v[i];
  for (int g = 1; g < 8; g++)
    if (m[g].rm_so >= 0)
      s[m[g].rm_eo] = '\0'; /* groups never overlap the one after them */
  fe_diag d = {.file = s + m[1].rm_so,
               .line = line_number(s + m[2].rm_so),
               .sev = s + m[3].rm_so,
               .number = m[5].rm_so >= 0 ? s + m[5].rm_so : NULL};
  snprintf(d.msg, sizeof d.msg, "%s", s + m[7].rm_so);
  size_t next = fe_body(l, i, re, &d);
  if (strcmp(d.file, "__nv_name_map")) /* NVRTC's own unit: see upk_nvlog_bad_names */
    *rc = *rc ? *rc : fe_emit(&d, ctx, out);
  return next;
}

/* Errors of NVRTC's option parser: no file, no line. */
static const char *option_error(const char *s) {
  static const char *const prefixes[] = {"nvrtc: error: ", "Command-line error: "};
  for (size_t i = 0; i < 2; i++)
    if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
      return s + strlen(prefixes[i]);
  return NULL;
}

/* HEADER_RE, compiled once: glibc's regexec may share a pattern between threads, and the
 * matcher states it builds on the first logs serve every later one (compiling per log cost
 * more than parsing it). Never freed: it lives as long as the process. */
static regex_t header_re;
static int header_re_rc = -1;
static pthread_once_t header_re_once = PTHREAD_ONCE_INIT;

static void header_re_compile(void) {
  header_re_rc = regcomp(&header_re, HEADER_RE, REG_EXTENDED);
}

int upk_nvlog_frontend(const char *log, const upk_nvlog_ctx *ctx, upk_diags *out) {
  lines l;
  const regex_t *re = &header_re;
  pthread_once(&header_re_once, header_re_compile);
  if (header_re_rc)
    return -ENOMEM;
  if (lines_split(log, &l))
    return -ENOMEM;
  int rc = 0;
  for (size_t i = 0; i < l.n && !rc;) {
    regmatch_t m[8];
    const char *opt = option_error(l.v[i]);
    if (opt)
      rc = upk_diags_add(out, UPK_SEV_ERROR, "nvrtc/error", "nvrtc", upk_range_line(0, 0, 0), "%s",
                         said(opt));
    if (!opt && !regexec(re, l.v[i], 8, m, 0))
      i = fe_one(&l, i, re, m, ctx, out, &rc);
    else
      i++;
  }
  lines_free(&l);
  return rc;
}

int upk_nvlog_bad_names(const char *log, upk_strv names, bool *bad) {
  static const char pragma[] = "#pragma nv_mangled_name ";
  lines l;
  if (lines_split(log, &l))
    return -ENOMEM;
  int errors = 0;
  for (size_t i = 0; i < l.n; i++) {
    if (!strncmp(l.v[i], "__nv_name_map(", 14) && strstr(l.v[i], "): error"))
      errors++;
    const char *p = strstr(l.v[i], pragma);
    for (size_t j = 0; p && j < names.n; j++) {
      const char *e = p + sizeof pragma - 1;
      size_t len = strlen(names.v[j]);
      bad[j] |= !strncmp(e, names.v[j], len) && blank(e + len);
    }
  }
  lines_free(&l);
  return errors;
}

/* ---- ptxas ---- */

typedef struct px_line {
  upk_severity sev;
  int ptx_line; /* 0: none cited */
  const char *message;
  char function[512]; /* the function the message names; "" none */
} px_line;

/* Parse one ptxas error or warning line; false for anything else. */
static bool px_parse(char *s, px_line *p) {
  memset(p, 0, sizeof *p);
  if (strncmp(s, "ptxas ", 6))
    return false;
  char *body = s + 6, *semi = strstr(body, "; ");
  const char *line = strstr(body, ", line ");
  if (semi && line && line < semi) {
    p->ptx_line = (int)strtol(line + 7, NULL, 10); /* 0 when no number follows */
    body = semi + 2;
  }
  size_t word = strcspn(body, " :");
  bool err = word == 5 && (!strncmp(body, "error", 5) || !strncmp(body, "fatal", 5));
  if (!err && !(word == 7 && !strncmp(body, "warning", 7)))
    return false;
  p->sev = err ? UPK_SEV_ERROR : UPK_SEV_WARNING;
  char *colon = strchr(body, ':');
  if (!colon)
    return false;
  p->message = colon + 1 + strspn(colon + 1, " ");
  const char *f = strstr(p->message, "function '");
  if (f) {
    f += 10;
    size_t n = strcspn(f, "'");
    snprintf(p->function, sizeof p->function, "%.*s", (int)n, f);
  }
  return !strstr(p->message, "Ptx assembly aborted");
}

static const char *px_code(const px_line *p) {
  if (p->sev == UPK_SEV_ERROR)
    return "ptxas/error";
  if (strstr(p->message, "Registers are spilled"))
    return "ptxas/spill";
  return strstr(p->message, "Local memory used") ? "ptxas/local-memory" : "ptxas/warning";
}

/* Start of zero-based line `n` of the main source, its length in *len. */
static const char *source_line(const upk_nvlog_ctx *ctx, int n, size_t *len) {
  const char *p = ctx->source, *end = ctx->source ? ctx->source + ctx->source_len : NULL;
  for (; p && p < end && n > 0; n--) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : NULL;
  }
  if (!p || p >= end)
    return NULL;
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  *len = nl ? (size_t)(nl - p) : (size_t)(end - p);
  return p;
}

/* The range of a mapped position: the token at its column, or, without a
 * column, `word` (a kernel's name) on that line or the next few (a name can
 * sit below its attributes), else the line's text. */
static upk_range px_range(const upk_nvlog_ctx *ctx, upk_ptx_pos *pos, const char *word) {
  size_t len = 0;
  const char *l = pos->file ? NULL : source_line(ctx, pos->line, &len);
  char buf[1024];
  for (int tries = 0; l && pos->col < 0 && word && *word && tries < 4; tries++) {
    snprintf(buf, sizeof buf, "%.*s", (int)len, l);
    const char *w = strstr(buf, word);
    if (w && (w == buf || !ident_char(w[-1])) && !ident_char(w[strlen(word)])) {
      pos->line += tries;
      pos->col = (int)(w - buf);
      break;
    }
    l = source_line(ctx, pos->line + tries + 1, &len);
  }
  l = pos->file ? NULL : source_line(ctx, pos->line, &len);
  if (!l)
    return upk_range_line(pos->line, pos->col > 0 ? pos->col : 0, pos->col > 0 ? pos->col : 0);
  snprintf(buf, sizeof buf, "%.*s", (int)len, l);
  size_t at = pos->col >= 0 ? (size_t)pos->col : strspn(buf, " \t");
  size_t end = pos->col >= 0 ? token_end(buf, at) : strlen(buf);
  return upk_range_line(pos->line, upk_utf16_units(buf, at), upk_utf16_units(buf, end));
}

/* The identifier a person wrote for a (mangled) kernel: `scale` of `scale<float>`. */
static void base_name(const char *mangled, char *out, size_t len) {
  char full[512];
  upk_demangle_kernel(mangled, full, sizeof full);
  full[strcspn(full, "<")] = '\0';
  const char *colon = strrchr(full, ':');
  snprintf(out, len, "%s", colon ? colon + 1 : full);
}

static int px_emit(px_line *p, const upk_nvlog_ctx *ctx, upk_diags *out) {
  upk_ptx_pos pos = {0, 0, NULL};
  int found = -ENOENT;
  if (ctx->ptx && p->ptx_line)
    found = upk_ptx_map_line(ctx->ptx, p->ptx_line, ctx->main_file, &pos);
  else if (ctx->ptx && p->function[0])
    found = upk_ptx_entry_pos(ctx->ptx, p->function, ctx->main_file, &pos);
  if (found == -ENOMEM)
    return -ENOMEM;
  char word[512] = "";
  if (p->function[0])
    base_name(p->function, word, sizeof word);
  upk_range r = found ? upk_range_line(0, 0, 0) : px_range(ctx, &pos, word);
  int rc = p->ptx_line ? upk_diags_add(out, p->sev, px_code(p), "ptxas", r, "%s (PTX line %d)",
                                       said(p->message), p->ptx_line)
                       : upk_diags_add(out, p->sev, px_code(p), "ptxas", r, "%s", said(p->message));
  rc = set_file(out, rc, pos.file);
  free(pos.file);
  return rc;
}

int upk_nvlog_ptxas(const char *log, const upk_nvlog_ctx *ctx, upk_diags *out) {
  lines l;
  if (lines_split(log, &l))
    return -ENOMEM;
  int rc = 0;
  for (size_t i = 0; i < l.n && !rc; i++) {
    px_line p;
    if (px_parse(l.v[i], &p))
      rc = px_emit(&p, ctx, out);
  }
  lines_free(&l);
  return rc;
}

bool upk_nvlog_has_error(const char *log) {
  lines l;
  if (lines_split(log, &l))
    return true; /* cannot tell: assume the error is there rather than compile again */
  bool found = false;
  for (size_t i = 0; i < l.n && !found; i++) {
    px_line p;
    found = option_error(l.v[i]) || strstr(l.v[i], "): error") ||
            strstr(l.v[i], "): catastrophic error") ||
            (px_parse(l.v[i], &p) && p.sev == UPK_SEV_ERROR);
  }
  lines_free(&l);
  return found;
}

/* ---- the -v report ---- */

/* One "N bytes <kind>" / "Used N registers" / "used N barriers" item. */
static void report_item(const char *item, upk_kernel_info *k) {
  static const char *const kinds[] = {"stack frame",           "spill stores", "spill loads",
                                      "cumulative stack size", "smem",         "cmem[0]"};
  long *slots[] = {&k->stack_frame,      &k->spill_stores, &k->spill_loads,
                   &k->cumulative_stack, &k->smem_static,  &k->cmem0};
  long v;
  int end = 0;
  char kind[64];
  /* sscanf counts %ld as matched before the words after it, and %ld takes a sign and
   * saturates: "Used 99999999999999999999)" made LONG_MAX registers, (int) of it -1 (the
   * fuzzer's find). So: the whole item must match (%n), counts must not be negative, and
   * an int count is clamped. */
  if (sscanf(item, " Used %ld registers%n", &v, &end) == 1 && end) {
    if (v >= 0)
      k->registers = v > INT_MAX ? INT_MAX : (int)v;
  } else if (sscanf(item, " used %ld barriers%n", &v, &end) == 1 && end) {
    if (v >= 0)
      k->barriers = v > INT_MAX ? INT_MAX : (int)v;
  } else if (sscanf(item, " %ld bytes %63[^,]", &v, kind) == 2 && v >= 0) {
    for (size_t i = 0; i < 6; i++)
      if (!strcmp(kind, kinds[i]))
        *slots[i] = v;
  }
}

static void report_items(char *s, upk_kernel_info *k) {
  for (char *save = NULL, *item = strtok_r(s, ",", &save); item; item = strtok_r(NULL, ",", &save))
    report_item(item, k);
}

static int report_add(upk_kernel_info **v, size_t *n, const char *quoted) {
  char *mangled = upk_xstrndup(quoted, strcspn(quoted, "'"));
  upk_kernel_info *p = mangled ? upk_xrealloc(*v, (*n + 1) * sizeof *p) : NULL;
  if (!p)
    return free(mangled), -ENOMEM;
  *v = p;
  p[(*n)++] = (upk_kernel_info){.mangled = mangled, .line = -1, .col = -1};
  return 0;
}

int upk_nvlog_report(const char *log, upk_kernel_info **kernels, size_t *n) {
  static const char entry[] = "Compiling entry function '", props[] = "Function properties for ";
  lines l;
  *kernels = NULL;
  *n = 0;
  if (lines_split(log, &l))
    return -ENOMEM;
  int rc = 0;
  bool own_props = false; /* the last "Function properties" named the current entry */
  for (size_t i = 0; i < l.n && !rc; i++) {
    char *s = l.v[i], *p;
    upk_kernel_info *cur = *n ? &(*kernels)[*n - 1] : NULL;
    if ((p = strstr(s, entry)))
      rc = report_add(kernels, n, p + sizeof entry - 1), own_props = false;
    else if (cur && (p = strstr(s, props)))
      own_props = !strcmp(p + sizeof props - 1, cur->mangled);
    else if (cur && own_props && strstr(s, "bytes stack frame"))
      report_items(s + strcspn(s, "0123456789"), cur);
    else if (cur && (p = strstr(s, ": Used ")))
      report_items(p + 1, cur);
  }
  lines_free(&l);
  if (rc) {
    for (size_t i = 0; i < *n; i++)
      upk_kernel_info_free(&(*kernels)[i]);
    free(*kernels);
    *kernels = NULL;
    *n = 0;
  }
  return rc;
}

/* ---- PTX debug lines ---- */

typedef struct loc {
  int file, line, col;
} loc;

/* `.loc F L C[, function_name X, inlined_at F2 L2 C2]` */
static bool parse_loc(const char *s, loc *at, loc *inl) {
  s += strspn(s, " \t");
  if (strncmp(s, ".loc", 4) || sscanf(s + 4, "%d %d %d", &at->file, &at->line, &at->col) != 3)
    return false;
  const char *i = strstr(s, "inlined_at");
  inl->file = 0;
  if (i && sscanf(i + 10, "%d %d %d", &inl->file, &inl->line, &inl->col) != 3)
    inl->file = 0;
  return true;
}

/* The name of `.file N "name"` in the PTX (NULL: absent). */
static char *ptx_file(const lines *l, int n) {
  for (size_t i = l->n; i-- > 0;) {
    const char *s = l->v[i] + strspn(l->v[i], " \t");
    if (!strncmp(s, ".file", 5) && isspace((unsigned char)s[5]) && strtol(s + 5, NULL, 10) == n) {
      const char *q = strchr(s, '"');
      return q ? upk_xstrndup(q + 1, strcspn(q + 1, "\"")) : NULL;
    }
  }
  return NULL;
}

/* Fill `pos` from a .loc, preferring a place in the main file. */
static int pos_from(const lines *l, loc at, loc inl, const char *main_file, upk_ptx_pos *pos) {
  char *f = ptx_file(l, at.file);
  if (f && !is_main(f, main_file) && inl.file) {
    char *g = ptx_file(l, inl.file);
    if (g && is_main(g, main_file))
      free(f), f = g, at = inl;
    else
      free(g);
  }
  pos->line = at.line - 1;
  pos->col = at.col > 0 ? at.col - 1 : -1;
  pos->file = NULL;
  if (f && !is_main(f, main_file))
    pos->file = f;
  else
    free(f);
  return at.line > 0 ? 0 : -ENOENT;
}

int upk_ptx_map_line(const char *ptx, int ptx_line, const char *main_file, upk_ptx_pos *pos) {
  lines l;
  if (lines_split(ptx, &l))
    return -ENOMEM;
  loc at = {0}, inl = {0}, a, b;
  bool found = false;
  for (size_t i = 0; i + 1 < (size_t)ptx_line && i < l.n; i++)
    if (parse_loc(l.v[i], &a, &b))
      at = a, inl = b, found = true;
  int rc = found ? pos_from(&l, at, inl, main_file, pos) : -ENOENT;
  lines_free(&l);
  return rc;
}

int upk_ptx_entry_pos(const char *ptx, const char *entry, const char *main_file, upk_ptx_pos *pos) {
  lines l;
  if (lines_split(ptx, &l))
    return -ENOMEM;
  size_t elen = strlen(entry), i = 0;
  for (; i < l.n; i++) {
    const char *e = strstr(l.v[i], ".entry ");
    if (e && !strncmp(e + 7, entry, elen) && (e[7 + elen] == '(' || blank(e + 7 + elen)))
      break;
  }
  int rc = -ENOENT;
  loc at, inl;
  for (i++; i < l.n && rc == -ENOENT && !strstr(l.v[i], ".entry "); i++)
    if (parse_loc(l.v[i], &at, &inl))
      rc = pos_from(&l, at, inl, main_file, pos);
  lines_free(&l);
  return rc;
}

/* ---- names and cubins ---- */

/* libstdc++'s abi::__cxa_demangle has C linkage. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Drop a trailing parameter list "(...)" from a demangled signature. */
static void strip_params(char *s) {
  size_t n = strlen(s);
  if (!n || s[n - 1] != ')')
    return;
  int depth = 0;
  for (size_t i = n; i-- > 0;) {
    depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
    if (!depth) {
      s[i] = '\0';
      return;
    }
  }
}

int upk_demangle_kernel(const char *mangled, char *out, size_t out_len) {
  int status = -1;
  bool is_mangled = !strncmp(mangled, "_Z", 2);
  char *d = is_mangled ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
  if (!d || status) {
    free(d);
    int n = snprintf(out, out_len, "%s", mangled);
    return n >= (int)out_len ? -ENOSPC : is_mangled ? -EINVAL : 0;
  }
  strip_params(d);
  /* Templates print their return type first: kernels return void. */
  const char *name = strncmp(d, "void ", 5) ? d : d + 5;
  int n = snprintf(out, out_len, "%s", name);
  free(d);
  return n >= (int)out_len ? -ENOSPC : 0;
}
