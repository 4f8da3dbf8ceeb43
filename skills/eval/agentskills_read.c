/* Agent Skills' evals/evals.json read into test cases (agentskills.h). The
 * `expected` member goes through evalcase.c's own reader, so it accepts
 * exactly what a tests file does. */
#include "skills/eval/agentskills.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "skills/skill.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

#define SOURCE "upskilld-eval"
/* The most an evals.json may hold. */
#define EVALS_MAX (16u << 20)

typedef struct {
  upk_diags *diags; /* may be NULL: nothing is reported */
  char where[64];   /* "evals[3] (id 7)" */
  bool bad;         /* an error was reported for the current eval */
  char why[240];    /* the first error's message: the reason an eval is refused */
} reader;

static void say(reader *r, upk_severity sev, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(reader *r, upk_severity sev, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (sev == UPK_SEV_ERROR && !r->bad) {
    va_list why;
    va_copy(why, ap);
    vsnprintf(r->why, sizeof r->why, fmt, why);
    va_end(why);
  }
  if (r->diags)
    upk_diags_vaddp(r->diags, sev, code, SOURCE, upk_skill_whole_file(), r->where, fmt, ap);
  va_end(ap);
  if (sev == UPK_SEV_ERROR)
    r->bad = true;
}

/* ---- statements ---------------------------------------------------------- */

void upk_agentskills_literals_free(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++)
    free(v[i]);
  free(v);
}

/* Words that make quoted literals something other than "all of these occur":
 * negations, alternatives, choices and hedges. Such a statement goes to the
 * grader whole; a contains check would judge it wrongly. */
static const char *const NOT_ALL[] = {
    "not",     "no",      "never",   "none",     "nothing",   "nor",     "neither",  "without",
    "cannot",  "avoid",   "avoids",  "avoided",  "absent",    "or",      "either",   "unless",
    "except",  "instead", "rather",  "lack",     "lacks",     "lacking", "missing",  "omit",
    "omits",   "omitted", "exclude", "excludes", "excluding", "refuse",  "refuses",  "forbid",
    "forbids", "free",    "remove",  "removes",  "removed",   "fail",    "fails",    "incorrect",
    "wrong",   "only",    "least",   "any",      "most",      "some",    "optional", "optionally",
    "may",     "might",   "unlike",  "versus",   "vs",
};

static bool not_all_word(const char *w, size_t n) {
  char low[32];
  if (n >= sizeof low)
    return false;
  for (size_t i = 0; i < n; i++)
    low[i] = (char)((w[i] >= 'A' && w[i] <= 'Z') ? w[i] + 32 : w[i]);
  low[n] = 0;
  if (n >= 3 && (strcmp(low + n - 3, "n't") == 0))
    return true;
  if (n >= 5 && strcmp(low + n - 5, "n\xe2\x80\x99t") == 0)
    return true;
  for (size_t i = 0; i < sizeof NOT_ALL / sizeof *NOT_ALL; i++)
    if (strcmp(low, NOT_ALL[i]) == 0)
      return true;
  return false;
}

static bool word_byte(char ch) {
  unsigned char u = (unsigned char)ch;
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '\'' || u >= 0x80;
}

/* Does the text outside the quotes read as a negation or an alternative? */
static bool worded_not_all(const char *s) {
  for (const char *p = s; *p;) {
    size_t n = 0;
    while (p[n] && word_byte(p[n]))
      n++;
    if (n && not_all_word(p, n))
      return true;
    p += n ? n : 1;
  }
  return false;
}

static int add_literal(char ***v, size_t *n, const char *s, size_t len) {
  bool blank = true;
  for (size_t i = 0; i < len; i++)
    blank &= s[i] == ' ' || s[i] == '\t' || s[i] == '\n';
  for (size_t i = 0; !blank && i < *n; i++)
    if (strlen((*v)[i]) == len && memcmp((*v)[i], s, len) == 0)
      return 0;
  if (blank)
    return 0;
  char **p = upk_xrealloc(*v, (*n + 2) * sizeof *p);
  *v = p;
  p[*n] = upk_xstrndup(s, len);
  p[++*n] = NULL;
  return 0;
}

#define LDQ "\xe2\x80\x9c" /* “ */
#define RDQ "\xe2\x80\x9d" /* ” */

/* Find the end of a quote opened at s[i]: sets *b, *e to the literal's span
 * and returns the index after the closing quote, or 0 when s[i] opens none. */
static size_t quoted(const char *s, size_t i, size_t *b, size_t *e) {
  const char *close = NULL;
  if (s[i] == '"' && (close = strchr(s + i + 1, '"'))) {
    *b = i + 1;
    *e = (size_t)(close - s);
    return *e + 1;
  }
  if (strncmp(s + i, LDQ, 3) == 0 && (close = strstr(s + i + 3, RDQ))) {
    *b = i + 3;
    *e = (size_t)(close - s);
    return *e + 3;
  }
  if (s[i] != '`')
    return 0;
  size_t k = strspn(s + i, "`");
  for (size_t j = i + k; s[j]; j++) {
    size_t run = s[j] == '`' ? strspn(s + j, "`") : 0;
    if (run == k) { /* a code span, CommonMark's way: one space each side is padding */
      *b = i + k;
      *e = j;
      if (*e - *b >= 2 && s[*b] == ' ' && s[*e - 1] == ' ')
        ++*b, --*e;
      return j + k;
    }
    j += run ? run - 1 : 0;
  }
  return 0;
}

int upk_agentskills_literals(const char *statement, char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  size_t len = strlen(statement), o = 0;
  char *outside = upk_xmalloc(len + 1);
  int rc = 0;
  for (size_t i = 0; !rc && i < len;) {
    size_t b, e, next = quoted(statement, i, &b, &e);
    if (next) {
      rc = add_literal(out, n, statement + b, e - b);
      outside[o++] = ' ';
      i = next;
    } else {
      /* an unclosed run of backticks is one piece of text, not many openers */
      size_t skip = statement[i] == '`' ? strspn(statement + i, "`") : 1;
      memcpy(outside + o, statement + i, skip);
      o += skip;
      i += skip;
    }
  }
  outside[o] = 0;
  if (!rc && *n && worded_not_all(outside)) {
    upk_agentskills_literals_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  free(outside);
  if (rc) {
    upk_agentskills_literals_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

/* ---- one eval ------------------------------------------------------------ */

static void eval_free(upk_as_eval *x) {
  free(x->name);
  free(x->expected_output);
  for (size_t j = 0; j < x->n_sources; j++)
    free(x->sources[j]);
  free(x->sources);
  memset(x, 0, sizeof *x);
}

void upk_as_evals_free(upk_as_evals *e) {
  for (size_t i = 0; e->items && i < e->n; i++)
    eval_free(&e->items[i]);
  free(e->items);
  free(e->skill_name);
  memset(e, 0, sizeof *e);
}

/* Move *a into the case, with the statement it came from (NULL: none). */
static int push(upk_evalcase *c, upk_as_eval *e, upk_assertion *a, const char *source) {
  upk_assertion *p = upk_xrealloc(c->asserts, (c->n_asserts + 1) * sizeof *p);
  if (p)
    c->asserts = p;
  char **s = p ? upk_xrealloc(e->sources, (e->n_sources + 1) * sizeof *s) : NULL;
  if (s)
    e->sources = s;
  char *copy = source ? upk_xstrdup(source) : NULL;
  if (!p || !s || (source && !copy)) {
    upk_assertion_free(a);
    free(copy);
    return -ENOMEM;
  }
  p[c->n_asserts++] = *a;
  s[e->n_sources++] = copy;
  memset(a, 0, sizeof *a);
  return 0;
}

/* upskilld's `expected`, read by evalcase.c as a one-case tests document. */
static int expected(reader *r, json_t *exp, upk_evalcase *c, upk_as_eval *e) {
  json_t *doc = json_pack("[{s:s, s:O}]", "input", "-", "expected", exp);
  char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  if (!text)
    return -ENOMEM;
  upk_diags tmp = {0};
  upk_evalcases cs;
  int rc = upk_evalcases_parse(text, strlen(text), &cs, &tmp);
  free(text);
  rc = rc == -ENOMEM ? rc : 0;
  for (size_t i = 0; !rc && i < tmp.len; i++) {
    const upk_diag *d = &tmp.items[i];
    if (d->code && strcmp(d->code, "eval/no-assertion") == 0)
      continue; /* nothing in `expected`: the statements may still assert */
    const char *msg = d->message ? d->message : "";
    const char *colon = strncmp(msg, "cases[0]: ", 10) == 0 ? msg + 10 : msg;
    say(r, d->severity, d->code ? d->code : "eval/wrong-type", "expected: %s", colon);
  }
  for (size_t i = 0; !rc && cs.n == 1 && i < cs.items[0].n_asserts; i++)
    rc = push(c, e, &cs.items[0].asserts[i], NULL);
  upk_evalcases_free(&cs);
  upk_diags_free(&tmp);
  return rc;
}

/* One statement: `contains` of its literals, or a statement for a grader. */
static int statement(upk_evalcase *c, upk_as_eval *e, const char *s) {
  upk_assertion a = {.kind = UPK_ASSERT_CONTAINS};
  int rc = upk_agentskills_literals(s, &a.values, &a.n_values);
  if (rc)
    return rc;
  if (!a.n_values) {
    a.kind = UPK_ASSERT_EXPECT;
    a.values = upk_xcalloc(2, sizeof *a.values);
    a.values[0] = upk_xstrdup(s);
    a.n_values = 1;
  }
  return push(c, e, &a, s);
}

static bool seen_statement(const upk_as_eval *e, const char *s) {
  for (size_t i = 0; i < e->n_sources; i++)
    if (e->sources[i] && strcmp(e->sources[i], s) == 0)
      return true;
  return false;
}

/* "expectations" or "assertions": a list of statements (or of {"text": ...}). */
static int statements(reader *r, json_t *ev, const char *key, upk_evalcase *c, upk_as_eval *e) {
  json_t *list = json_object_get(ev, key);
  if (!list || json_is_null(list))
    return 0;
  if (!json_is_array(list)) {
    say(r, UPK_SEV_ERROR, "eval/wrong-type", "'%s' must be a list of strings", key);
    return 0;
  }
  size_t i;
  json_t *v;
  json_array_foreach(list, i, v) {
    json_t *t = json_is_object(v) ? json_object_get(v, "text") : v;
    if (!json_is_string(t)) {
      say(r, UPK_SEV_ERROR, "eval/wrong-type", "%s[%zu] must be a string", key, i);
      continue;
    }
    const char *s = json_string_value(t);
    if (!s[strspn(s, " \t\r\n")]) {
      say(r, UPK_SEV_WARNING, "eval/empty", "%s[%zu] is empty; it is left out", key, i);
      continue;
    }
    int rc = seen_statement(e, s) ? 0 : statement(c, e, s);
    if (rc)
      return rc;
  }
  return 0;
}

static const char *file_problem(int rc) {
  switch (rc) {
  case -ENOENT:
    return "is missing";
  case -EFBIG:
    return "is over 1 MiB";
  case -ELOOP:
    return "is a symbolic link, or lies under one";
  case -ENOTDIR:
    return "lies under something that is not a directory";
  case -EINVAL:
    return "is not a regular file";
  default:
    return NULL;
  }
}

static bool utf8_text(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t n = s[i] ? upk_u8_decode(s + i, len - i, &cp) : 0;
    if (!n)
      return false;
    i += n;
  }
  return true;
}

/* Read one context file below skill_dir; *out stays NULL when it is bad. */
static int context_file(reader *r, const char *skill_dir, const char *path, char **out) {
  *out = NULL;
  if (!upk_rel_path_ok(path)) {
    say(r, UPK_SEV_ERROR, "eval/bad-file", "file '%s' is not a relative path inside the skill",
        path);
    return 0;
  }
  if (!skill_dir) {
    say(r, UPK_SEV_ERROR, "eval/bad-file", "file '%s' cannot be read: no skill directory given",
        path);
    return 0;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? upk_xstrndup(path, (size_t)(slash - path)) : NULL;
  if (slash && !dir)
    return -ENOMEM;
  int fd = upk_open_beneath(skill_dir, dir, false), rc = fd < 0 ? fd : 0;
  free(dir);
  size_t len = 0;
  if (fd >= 0) {
    rc = upk_read_file_at(fd, slash ? slash + 1 : path, UPK_AGENTSKILLS_FILE_MAX, out, &len);
    close(fd);
  }
  if (rc == -ENOMEM)
    return rc;
  if (rc) {
    const char *why = file_problem(rc);
    say(r, UPK_SEV_ERROR, "eval/bad-file", "file '%s' %s%s", path,
        why ? why : "cannot be read: ", why ? "" : strerror(-rc));
  } else if (!utf8_text(*out, len)) {
    say(r, UPK_SEV_ERROR, "eval/bad-file", "file '%s' is not UTF-8 text", path);
    free(*out);
    *out = NULL;
  }
  return 0;
}

static int files(reader *r, json_t *ev, const char *skill_dir, upk_evalcase *c) {
  json_t *list = json_object_get(ev, "files");
  if (!list || json_is_null(list))
    return 0;
  if (!json_is_array(list)) {
    say(r, UPK_SEV_ERROR, "eval/wrong-type", "'files' must be a list of paths");
    return 0;
  }
  c->files = upk_xcalloc(json_array_size(list) + 1, sizeof *c->files);
  size_t i;
  json_t *v;
  json_array_foreach(list, i, v) {
    if (!json_is_string(v)) {
      say(r, UPK_SEV_ERROR, "eval/wrong-type", "files[%zu] must be a string", i);
      continue;
    }
    const char *path = json_string_value(v);
    while (strncmp(path, "./", 2) == 0)
      path += 2;
    bool dup = false;
    for (size_t j = 0; j < c->n_files; j++)
      dup |= strcmp(c->files[j].name, path) == 0;
    char *content;
    int rc = dup ? 0 : context_file(r, skill_dir, path, &content);
    if (rc)
      return rc;
    if (dup || !content)
      continue;
    upk_meta_file *f = &c->files[c->n_files];
    f->name = upk_xstrdup(path);
    f->content = content;
    c->n_files++;
  }
  return 0;
}

/* An optional string member; *out stays NULL when absent or null. */
static int opt_string(reader *r, json_t *ev, const char *key, char **out) {
  json_t *v = json_object_get(ev, key);
  if (!v || json_is_null(v))
    return 0;
  if (!json_is_string(v)) {
    say(r, UPK_SEV_ERROR, "eval/wrong-type", "'%s' must be a string", key);
    return 0;
  }
  *out = upk_xstrdup(json_string_value(v));
  return 0;
}

static int read_eval(reader *r, json_t *ev, const char *skill_dir, upk_evalcase *c,
                     upk_as_eval *e) {
  json_t *prompt = json_object_get(ev, "prompt");
  if (!json_is_string(prompt) || !*json_string_value(prompt))
    say(r, UPK_SEV_ERROR, "eval/missing-field", "'prompt' must be a non-empty string");
  else
    c->input = upk_xstrdup(json_string_value(prompt));
  int rc = opt_string(r, ev, "eval_name", &e->name);
  if (!rc && !e->name)
    rc = opt_string(r, ev, "name", &e->name);
  if (!rc && !e->name)
    e->name = upk_xasprintf("eval-%d", e->id);
  rc = rc ? rc : opt_string(r, ev, "expected_output", &e->expected_output);
  json_t *exp = json_object_get(ev, "expected");
  rc = rc || !exp || json_is_null(exp) ? rc : expected(r, exp, c, e);
  rc = rc ? rc : statements(r, ev, "expectations", c, e);
  rc = rc ? rc : statements(r, ev, "assertions", c, e);
  rc = rc ? rc : files(r, ev, skill_dir, c);
  if (!rc && !r->bad && c->n_asserts == 0)
    say(r, UPK_SEV_WARNING, "eval/no-assertion",
        "no expectations and no `expected`: nothing will be checked, only the answer kept");
  return rc;
}

/* The eval's id, or its place when it has none; false when the id is bad. */
static bool eval_id(reader *r, json_t *ev, size_t idx, int *id) {
  json_t *v = json_object_get(ev, "id");
  *id = (int)idx;
  if (!v || json_is_null(v)) {
    say(r, UPK_SEV_WARNING, "eval/missing-field", "no integer 'id'; numbered %zu by its place",
        idx);
    return true;
  }
  if (!json_is_integer(v) || json_integer_value(v) < INT_MIN || json_integer_value(v) > INT_MAX) {
    say(r, UPK_SEV_ERROR, "eval/wrong-type", "'id' must be an integer");
    return false;
  }
  *id = (int)json_integer_value(v);
  return true;
}

/* Eval i of the list was refused: listed with its reason, as a tests file's refused case is. */
static void refuse(upk_evalcases *out, size_t i, const char *why) {
  out->refused = upk_xrealloc(out->refused, (out->n_refused + 1) * sizeof *out->refused);
  out->refused[out->n_refused++] = (upk_evalcase_refusal){i, upk_xstrdup(why)};
}

/* Read every eval of the list into out and info, keeping the good ones. */
static int read_list(json_t *list, const char *skill_dir, upk_evalcases *out, upk_as_evals *info,
                     upk_diags *diags, bool *bad) {
  size_t n = json_array_size(list), n_ids = 0;
  out->items = upk_xcalloc(n + 1, sizeof *out->items);
  info->items = upk_xcalloc(n + 1, sizeof *info->items);
  int *ids = upk_xcalloc(n + 1, sizeof *ids); /* every id met so far, good evals or bad */
  int rc = out->items && info->items && ids ? 0 : -ENOMEM;
  for (size_t i = 0; !rc && i < n; i++) {
    json_t *ev = json_array_get(list, i);
    reader r = {.diags = diags};
    snprintf(r.where, sizeof r.where, "evals[%zu]", i);
    upk_evalcase *c = &out->items[out->n];
    upk_as_eval *e = &info->items[info->n];
    if (!json_is_object(ev)) {
      say(&r, UPK_SEV_ERROR, "eval/wrong-type", "an eval must be an object");
    } else if (eval_id(&r, ev, i, &e->id)) {
      snprintf(r.where, sizeof r.where, "evals[%zu] (id %d)", i, e->id);
      for (size_t j = 0; j < n_ids; j++)
        if (ids[j] == e->id) {
          say(&r, UPK_SEV_ERROR, "eval/duplicate", "another eval before it has id %d", e->id);
          break;
        }
      ids[n_ids++] = e->id;
      rc = r.bad ? 0 : read_eval(&r, ev, skill_dir, c, e);
    }
    if (rc || r.bad) {
      upk_evalcase_free(c);
      eval_free(e);
      refuse(out, i, r.why[0] ? r.why : "refused");
    } else {
      c->number = i + 1; /* the evals after a refused one keep their places */
      out->n++;
      info->n++;
    }
    *bad |= r.bad;
  }
  free(ids);
  return rc;
}

int upk_agentskills_parse_evals_info(const char *text, size_t len, const char *skill_dir,
                                     upk_evalcases *out, upk_as_evals *info, upk_diags *diags) {
  upk_as_evals local;
  upk_as_evals *inf = info ? info : &local;
  memset(out, 0, sizeof *out);
  memset(inf, 0, sizeof *inf);
  reader r = {.diags = diags, .where = "evals.json"};
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  if (!root) {
    say(&r, UPK_SEV_ERROR, "eval/invalid-json", "not valid JSON: %s (line %d, column %d)", err.text,
        err.line, err.column);
    return -EINVAL;
  }
  json_t *list = json_is_array(root) ? root : json_object_get(root, "evals");
  json_t *name = json_is_object(root) ? json_object_get(root, "skill_name") : NULL;
  int rc = 0;
  if (name && !json_is_null(name) && !json_is_string(name))
    say(&r, UPK_SEV_ERROR, "eval/wrong-type", "'skill_name' must be a string");
  else if (json_is_string(name) && !(inf->skill_name = upk_xstrdup(json_string_value(name))))
    rc = -ENOMEM;
  bool bad = false;
  if (!rc && !json_is_array(list))
    say(&r, UPK_SEV_ERROR, "eval/wrong-type", "expected {\"evals\": [...]} or a list of evals");
  else if (!rc)
    rc = read_list(list, skill_dir, out, inf, diags, &bad);
  json_decref(root);
  if (rc || !info) {
    upk_as_evals_free(inf);
    if (rc)
      upk_evalcases_free(out);
  }
  return rc ? rc : bad || r.bad ? -EINVAL : 0;
}

int upk_agentskills_parse_evals(const char *text, size_t len, const char *skill_dir,
                                upk_evalcases *out, upk_diags *diags) {
  return upk_agentskills_parse_evals_info(text, len, skill_dir, out, NULL, diags);
}

int upk_agentskills_read_evals_info(const char *skill_dir, upk_evalcases *out, upk_as_evals *info,
                                    upk_diags *diags) {
  memset(out, 0, sizeof *out);
  if (info)
    memset(info, 0, sizeof *info);
  char *path = NULL, *text = NULL;
  path = upk_xasprintf("%s/%s", skill_dir, UPK_AGENTSKILLS_EVALS);
  size_t len = 0, from = diags ? diags->len : 0;
  /* The skill's own evals/evals.json: neither evals/ nor the file a link, not a FIFO. */
  int rc = upk_read_beneath(skill_dir, UPK_AGENTSKILLS_EVALS, EVALS_MAX, &text, &len);
  if (rc && rc != -ENOMEM && diags)
    upk_diags_add(diags, UPK_SEV_ERROR, "eval/unreadable", SOURCE, upk_skill_whole_file(),
                  "Cannot read %s: %s", path,
                  rc == -EFBIG ? "it is over 16 MiB" : upk_read_error(rc));
  if (!rc)
    rc = upk_agentskills_parse_evals_info(text, len, skill_dir, out, info, diags);
  for (size_t i = from; diags && i < diags->len; i++)
    if (!diags->items[i].file)
      diags->items[i].file = upk_xstrdup(path); /* NULL on ENOMEM: the message still stands */
  free(text);
  free(path);
  return rc;
}

int upk_agentskills_read_evals(const char *skill_dir, upk_evalcases *out, upk_diags *diags) {
  return upk_agentskills_read_evals_info(skill_dir, out, NULL, diags);
}
