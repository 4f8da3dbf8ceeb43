/* Parsing the teacher's answers: a SKILL.md, test cases (see teacher.h). */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/teacher.h"
#include "common/xalloc.h"

/* ---- lines and fences ---------------------------------------------------- */

typedef struct {
  const char *s;
  size_t n;
} line;

static line *split_lines(const char *text, size_t *count) {
  size_t cap = 1;
  for (const char *p = text; *p; p++)
    cap += *p == '\n';
  line *v = upk_xcalloc(cap + 1, sizeof *v);
  size_t k = 0;
  for (const char *p = text; *p || k == 0;) {
    size_t n = strcspn(p, "\n");
    v[k++] = (line){p, n && p[n - 1] == '\r' ? n - 1 : n};
    if (!p[n])
      break;
    p += n + 1;
  }
  *count = k;
  return v;
}

/* A fence line (CommonMark: up to 3 spaces, 3+ backticks or tildes): its
 * character, length and whether an info string follows. */
typedef struct {
  char ch;
  size_t len;
  bool info;
} fence;

static bool fence_of(line l, fence *f) {
  size_t i = 0;
  while (i < l.n && i < 3 && l.s[i] == ' ')
    i++;
  if (i >= l.n || (l.s[i] != '`' && l.s[i] != '~'))
    return false;
  f->ch = l.s[i];
  f->len = 0;
  while (i < l.n && l.s[i] == f->ch)
    i++, f->len++;
  if (f->len < 3)
    return false;
  while (i < l.n && isspace((unsigned char)l.s[i]))
    i++;
  f->info = i < l.n;
  return !(f->ch == '`' && f->info && memchr(l.s + i, '`', l.n - i));
}

static bool is_dashes(line l) {
  size_t n = l.n;
  while (n && isspace((unsigned char)l.s[n - 1]))
    n--;
  return n == 3 && strncmp(l.s, "---", 3) == 0;
}

/* `---` followed within 30 lines, before the closing `---`, by `name:`. */
static bool frontmatter_at(const line *v, size_t n, size_t i) {
  if (!is_dashes(v[i]))
    return false;
  for (size_t j = i + 1; j < n && j < i + 30 && !is_dashes(v[j]); j++)
    if (v[j].n >= 5 && strncmp(v[j].s, "name:", 5) == 0)
      return true;
  return false;
}

/* Where a fenced SKILL.md ends. A longer-than-3 fence closes per CommonMark.
 * A ``` fence is ambiguous with the skill's own blocks: a fence with an info
 * string opens an inner block, a bare one closes the inner block or, if none
 * is open, the skill. If every later fence is bare, inner blocks were opened
 * bare too: the skill then ends at the last fence. */
static size_t fenced_end(const line *v, size_t n, size_t start, fence open) {
  bool inner = false, any_info = false;
  size_t bare = 0, last_bare = n, first_close = n;
  for (size_t i = start; i < n; i++) {
    fence f;
    if (!fence_of(v[i], &f) || f.ch != open.ch)
      continue;
    if (open.len > 3) {
      if (!f.info && f.len >= open.len)
        return i;
      continue;
    }
    any_info |= f.info;
    if (f.info && !inner)
      inner = true;
    else if (!f.info && inner)
      inner = false;
    else if (!f.info && first_close == n)
      first_close = i;
    if (!f.info) {
      bare++;
      last_bare = i;
    }
  }
  if (open.len <= 3 && !any_info && bare > 1 && bare % 2 == 1)
    return last_bare;
  return first_close;
}

/* Lines [from, to) joined with \n (CRs of CRLF ends dropped). */
static char *join(const line *v, size_t from, size_t to) {
  size_t len = 1;
  for (size_t i = from; i < to; i++)
    len += v[i].n + 1;
  char *out = upk_xmalloc(len), *p = out;
  for (size_t i = from; i < to; i++) {
    memcpy(p, v[i].s, v[i].n);
    p += v[i].n;
    *p++ = '\n';
  }
  *p = '\0';
  return out;
}

int upk_teacher_extract_skill(const char *answer, char **skill_md) {
  *skill_md = NULL;
  size_t n;
  line *v = split_lines(answer, &n);
  if (!v)
    return -ENOMEM;
  bool in_fence = false;
  fence open = {0}, md_open = {0};
  size_t md_start = n;
  int rc = -ENOENT;
  for (size_t i = 0; i < n && rc == -ENOENT; i++) {
    fence f;
    if (fence_of(v[i], &f) && (!in_fence || (f.ch == open.ch && f.len >= open.len && !f.info))) {
      in_fence = !in_fence;
      open = f;
      if (in_fence && md_start == n && f.info &&
          (!strncmp(v[i].s + f.len, "markdown", 8) || !strncmp(v[i].s + f.len, "md", 2)))
        md_start = i + 1, md_open = f;
      continue;
    }
    if (!frontmatter_at(v, n, i))
      continue;
    size_t end = in_fence ? fenced_end(v, n, i + 1, open) : n;
    *skill_md = join(v, i, end);
    rc = *skill_md ? 0 : -ENOMEM;
  }
  /* No frontmatter anywhere: the first markdown block, for the validator
   * to explain what is missing. */
  if (rc == -ENOENT && md_start < n) {
    *skill_md = join(v, md_start, fenced_end(v, n, md_start, md_open));
    rc = *skill_md ? 0 : -ENOMEM;
  }
  free(v);
  return rc;
}

/* ---- test cases ---------------------------------------------------------- */

/* Drop commas that only precede ] or } (outside strings): models write them. */
static char *forgive_commas(const char *s, size_t len) {
  char *out = upk_xmalloc(len + 1);
  size_t k = 0;
  bool str = false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (str) {
      if (c == '\\' && i + 1 < len)
        out[k++] = s[i++];
      else if (c == '"')
        str = false;
    } else if (c == '"') {
      str = true;
    } else if (c == ',') {
      size_t j = i + 1;
      while (j < len && isspace((unsigned char)s[j]))
        j++;
      if (j < len && (s[j] == ']' || s[j] == '}'))
        continue;
    }
    out[k++] = s[i];
  }
  out[k] = '\0';
  return out;
}

/* Try one candidate: 1 when it gave cases (diags moved to `diags`). */
static int try_cases(const char *text, size_t len, upk_evalcases *out, upk_diags *diags) {
  char *clean = forgive_commas(text, len);
  if (!clean)
    return -ENOMEM;
  upk_diags d = {0};
  upk_evalcases c;
  int rc = upk_evalcases_parse(clean, strlen(clean), &c, &d);
  free(clean);
  if (rc == -ENOMEM) {
    upk_diags_free(&d);
    return rc;
  }
  if (c.n == 0) {
    upk_evalcases_free(&c);
    upk_diags_free(&d);
    return 0;
  }
  *out = c;
  if (diags)
    upk_diags_take(diags, &d);
  upk_diags_free(&d);
  return 1;
}

/* The first JSON value that starts at `from`, as text. */
static char *json_at(const char *from) {
  json_error_t err;
  json_t *v = json_loadb(from, strlen(from), JSON_DISABLE_EOF_CHECK, &err);
  if (!v) {
    /* Not valid as is: perhaps only because of trailing commas. */
    char *clean = forgive_commas(from, strlen(from));
    v = clean ? json_loadb(clean, strlen(clean), JSON_DISABLE_EOF_CHECK, &err) : NULL;
    free(clean);
  }
  char *text = v && (json_is_object(v) || json_is_array(v)) ? json_dumps(v, 0) : NULL;
  json_decref(v);
  return text;
}

static int fenced_candidates(const char *answer, upk_evalcases *out, upk_diags *diags) {
  size_t n;
  line *v = split_lines(answer, &n);
  if (!v)
    return -ENOMEM;
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    fence f;
    if (!fence_of(v[i], &f) ||
        (f.info && strncmp(v[i].s + f.len + strspn(v[i].s + f.len, " "), "json", 4) != 0))
      continue;
    size_t end = i + 1;
    fence g;
    while (end < n && !(fence_of(v[end], &g) && g.ch == f.ch && g.len >= f.len && !g.info))
      end++;
    char *body = join(v, i + 1, end);
    rc = body ? try_cases(body, strlen(body), out, diags) : -ENOMEM;
    free(body);
    i = end;
  }
  free(v);
  return rc;
}

int upk_teacher_extract_cases(const char *answer, upk_evalcases *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  int rc = fenced_candidates(answer, out, diags);
  if (rc == 0)
    rc = try_cases(answer, strlen(answer), out, diags);
  /* A JSON value somewhere in prose: try each {" and [{ in turn (code in
   * the answer has braces too; bounded so a huge answer stays cheap). */
  int tries = 0;
  for (const char *p = answer; rc == 0 && tries < 64 && (p = strpbrk(p, "{[")) != NULL; p++) {
    const char *q = p + 1 + strspn(p + 1, " \t\r\n");
    if (*q != (*p == '{' ? '"' : '{'))
      continue;
    tries++;
    char *text = json_at(p);
    if (text)
      rc = try_cases(text, strlen(text), out, diags);
    free(text);
  }
  return rc < 0 ? rc : rc == 1 ? 0 : -ENOENT;
}
