/* Trace condensation: finding what matters in text (see condense_int.h):
 * error lines with their context in long logs, repeats counted; edits as
 * the lines they changed; sentences that state facts. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_int.h"
#include "common/xalloc.h"

int upk__ct_vappend(char **s, const char *fmt, va_list ap) {
  char *more = upk_xvasprintf(fmt, ap);
  size_t old = *s ? strlen(*s) : 0, n = strlen(more);
  char *p = upk_xrealloc(*s, old + n + 1);
  memcpy(p + old, more, n + 1);
  free(more);
  *s = p;
  return 0;
}

int upk__ct_append(char **s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = upk__ct_vappend(s, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- errors -------------------------------------------------------------- */

/* Lower-cased copy of a line into buf (cap bytes), for strstr. */
static void lower(const char *s, size_t n, char *buf, size_t cap) {
  n = n < cap - 1 ? n : cap - 1;
  for (size_t i = 0; i < n; i++)
    buf[i] = (char)tolower((unsigned char)s[i]);
  buf[n] = '\0';
}

/* "0 failed", "0 tests failed": a count of none before the word at `at`. */
static bool zero_before(const char *buf, const char *at) {
  const char *p = at, *w;
  while (p > buf && p[-1] == ' ')
    p--;
  for (w = p; w > buf && isalpha((unsigned char)w[-1]);)
    w--;
  for (p = w < p ? w : p; p > buf && p[-1] == ' ';)
    p--;
  return p > buf && p[-1] == '0' && (p - 1 == buf || !isdigit((unsigned char)p[-2]));
}

/* One line: an error marker, and not a report of zero errors; "error" as
 * a measure (max abs error 4e-6) is not a marker, though "failed" beside
 * it still is. */
bool upk__ct_line_is_error(const char *s, size_t n) {
  static const char *const yes[] = {"error",
                                    "failed",
                                    "failure",
                                    "traceback",
                                    "fatal",
                                    "exception",
                                    "panic:",
                                    "segmentation fault",
                                    "core dumped",
                                    "undefined reference",
                                    "no such file",
                                    "not found",
                                    "permission denied",
                                    "cannot ",
                                    "could not",
                                    "exit code 1",
                                    "exit status 1",
                                    "assertion",
                                    "unresolved",
                                    "mismatch",
                                    "is undefined",
                                    "abort"};
  static const char *const zero[] = {"0 error",    "no error",  "without error", "0 failed",
                                     "error-free", "errors: 0", "failed: 0",     "-werror"};
  static const char *const measure[] = {"max error",  "abs error",  "relative error", "rel error",
                                        "mean error", "error rate", "error bound",    "rms error"};
  char buf[512];
  if (n == 0)
    return false;
  lower(s, n, buf, sizeof buf);
  for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
    if (strstr(buf, zero[i]))
      return false;
  bool measured = false;
  for (size_t i = 0; i < sizeof measure / sizeof *measure; i++)
    measured = measured || strstr(buf, measure[i]);
  for (size_t i = measured ? 1 : 0; i < sizeof yes / sizeof *yes; i++)
    for (const char *at = buf; (at = strstr(at, yes[i])); at++)
      if (!zero_before(buf, at))
        return true;
  return false;
}

const char *upk__ct_error_headline(const char *text) {
  for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
    if (upk__ct_line_is_error(p, strcspn(p, "\n")))
      return p;
  return text;
}

bool upk__ct_looks_error(const char *text) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    if (upk__ct_line_is_error(p, n))
      return true;
    p += n + (p[n] == '\n');
  }
  return false;
}

typedef struct {
  const char *s;
  size_t n;
  bool error, keep;
  size_t same; /* error lines: later identical lines folded into this one */
} oline;

static size_t split_lines(const char *out, oline **v) {
  size_t n = 0, cap = 64;
  *v = upk_xmalloc(cap * sizeof **v);
  for (const char *p = out; *p;) {
    size_t k = strcspn(p, "\n");
    UPK_GROW(*v, cap, n + 1);
    (*v)[n++] = (oline){.s = p, .n = k};
    p += k + (p[k] == '\n');
  }
  return n;
}

enum { MAX_ERROR_LINES = 12, LINE_CAP = 300, CTX_BEFORE = 1, CTX_AFTER = 2 };

/* Mark error lines (a repeat folds into its first), then their context. */
static size_t mark(oline *v, size_t n) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(v[i].error = upk__ct_line_is_error(v[i].s, v[i].n)))
      continue;
    size_t j = 0;
    for (; j < i; j++)
      if (v[j].keep && v[j].error && v[j].n == v[i].n && !memcmp(v[j].s, v[i].s, v[i].n))
        break;
    if (j < i) {
      v[j].same++;
      continue;
    }
    if (kept == MAX_ERROR_LINES)
      continue;
    kept++;
    v[i].keep = true;
  }
  for (size_t i = 0; i < n; i++) {
    if (!v[i].keep || !v[i].error)
      continue;
    for (size_t k = i > CTX_BEFORE ? i - CTX_BEFORE : 0; k < i; k++)
      v[k].keep = v[k].keep || (v[k].n > 0 && !v[k].error);
    for (size_t k = i + 1; k < n && k <= i + CTX_AFTER && !v[k].error; k++)
      v[k].keep = v[k].n > 0;
  }
  return kept;
}

char *upk__ct_error_lines(const char *out, size_t *lines) {
  oline *v = NULL;
  size_t n = split_lines(out, &v);
  *lines = n;
  if (!v && *out)
    return NULL;
  size_t kept = mark(v, n), errs = 0, shown = 0;
  if (!kept) /* no line says what: the end of the output does */
    for (size_t i = n > 4 ? n - 4 : 0; i < n; i++)
      v[i].keep = true;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  size_t gap = 0;
  for (size_t i = 0; i < n; i++) {
    errs += v[i].error;
    if (!v[i].keep) {
      gap++;
      continue;
    }
    if (gap && shown)
      fprintf(f, "[… %zu line%s]\n", gap, gap == 1 ? "" : "s");
    gap = 0;
    shown++;
    fprintf(f, "%.*s%s", (int)(v[i].n > LINE_CAP ? LINE_CAP : v[i].n), v[i].s,
            v[i].n > LINE_CAP ? " …" : "");
    if (v[i].same)
      fprintf(f, "   [repeated %zu more times]", v[i].same);
    fputc('\n', f);
  }
  if (n > shown)
    fprintf(f, "[%zu of %zu lines shown%s]\n", shown, n,
            errs > kept ? "; more error lines left out" : "");
  free(v);
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* ---- edits as diffs ------------------------------------------------------ */

char *upk__ct_diff(const char *old_s, const char *new_s, size_t max_lines) {
  oline *a = NULL, *b = NULL;
  size_t na = split_lines(old_s, &a), nb = split_lines(new_s, &b), pre = 0, suf = 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  while (pre < na && pre < nb && a[pre].n == b[pre].n && !memcmp(a[pre].s, b[pre].s, a[pre].n))
    pre++;
  while (suf < na - pre && suf < nb - pre && a[na - 1 - suf].n == b[nb - 1 - suf].n &&
         !memcmp(a[na - 1 - suf].s, b[nb - 1 - suf].s, a[na - 1 - suf].n))
    suf++;
  if (pre == na && pre == nb) { /* equal as lines: a change inside one */
    fputs("(no line changed)\n", f);
    goto close;
  }
  if (pre > 0) /* one line of context says where */
    fprintf(f, " %.*s\n", (int)(a[pre - 1].n > LINE_CAP ? LINE_CAP : a[pre - 1].n), a[pre - 1].s);
  size_t shown = 0, total = (na - pre - suf) + (nb - pre - suf);
  for (size_t i = pre; i < na - suf && shown < max_lines; i++, shown++)
    fprintf(f, "-%.*s\n", (int)(a[i].n > LINE_CAP ? LINE_CAP : a[i].n), a[i].s);
  for (size_t i = pre; i < nb - suf && shown < max_lines; i++, shown++)
    fprintf(f, "+%.*s\n", (int)(b[i].n > LINE_CAP ? LINE_CAP : b[i].n), b[i].s);
  if (total > shown)
    fprintf(f, "[… %zu more changed lines]\n", total - shown);
close:
  if (fclose(f)) {
    free(buf);
    buf = NULL;
  }
  free(a);
  free(b);
  return buf;
}

/* ---- facts --------------------------------------------------------------- */

static bool has_word(const char *buf, const char *const *words) {
  for (; *words; words++)
    if (strstr(buf, *words))
      return true;
  return false;
}

/* A flag (-arch=sm_90a, --use_fast_math, -O3) starting at s[i]. */
static bool flag_at(const char *s, size_t i, size_t n) {
  bool start = i == 0 || strchr(" \t`(\"'", s[i - 1]);
  size_t k = i + (i + 1 < n && s[i + 1] == '-') + 1;
  return start && s[i] == '-' && k < n && isalpha((unsigned char)s[k]);
}

int upk__ct_fact_score(const char *s, size_t n) {
  static const char *const cues[] = {"because",    "must ",       "need to",    "needs ",
                                     "requires",   "important",   "note:",      "note that",
                                     "the issue",  "the problem", "root cause", "turns out",
                                     "instead",    "do not",      "don't",      "never ",
                                     "always ",    "the fix",     "fixed",      "works",
                                     "only ",      "limit",       "at most",    "at least",
                                     "deprecated", "removed",     "is gone",    "no longer",
                                     "use ",       "avoid",       NULL};
  static const char *const units[] = {"kb", "mb",     "gb",        "kib",     "mib",   "gib",
                                      "ms", "us",     "registers", "threads", "bytes", "%",
                                      "x ", "tflops", "gb/s",      NULL};
  char buf[512];
  lower(s, n, buf, sizeof buf);
  int score = has_word(buf, cues) ? 1 : 0;
  bool flag = false, version = false, code = memchr(s, '`', n) != NULL, number = false;
  for (size_t i = 0; i < n; i++) {
    flag = flag || flag_at(s, i, n);
    if (isdigit((unsigned char)s[i])) {
      number = true;
      version = version || (i + 2 < n && s[i + 1] == '.' && isdigit((unsigned char)s[i + 2])) ||
                (i >= 3 && (s[i - 1] == '_' || s[i - 1] == 'v'));
    }
  }
  score += flag + version + code;
  score += number && has_word(buf, units);
  return score;
}

/* ---- commands ------------------------------------------------------------ */

/* Looking around (ls, cat, grep ...) changes nothing: it is not a fix. */
bool upk__ct_inspection(const char *cmd) {
  static const char *const words[] = {"ls",   "cat",  "pwd",  "head",  "tail", "grep",
                                      "rg",   "find", "echo", "which", "less", "wc",
                                      "tree", "file", "stat", "nl"};
  size_t n = strcspn(cmd, " \t\n;|&");
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == n && strncmp(cmd, words[i], n) == 0)
      return true;
  return strncmp(cmd, "sed -n", 6) == 0 || strncmp(cmd, "git status", 10) == 0 ||
         strncmp(cmd, "git diff", 8) == 0 || strncmp(cmd, "git log", 7) == 0 ||
         strncmp(cmd, "git show", 8) == 0;
}
