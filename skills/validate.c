/* Skill validation: skills-ref's checks in skills-ref's order with its exact
 * messages (STRICT errors), the client guide's forgiving grading (LENIENT),
 * and warnings where agents are stricter than the specification. */
#include "skills/validate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "skills/skill_internal.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* skills-ref's ALLOWED_FIELDS, in sorted() order as its message prints them. */
static const char *const ALLOWED[] = {"allowed-tools", "compatibility", "description",
                                      "license",       "metadata",      "name"};
/* Frontmatter keys only Claude Code reads. */
static const char *const CLAUDE_CODE_KEYS[] = {"when_to_use",    "argument-hint",
                                               "arguments",      "disable-model-invocation",
                                               "user-invocable", "disallowed-tools",
                                               "model",          "effort",
                                               "context",        "agent",
                                               "background",     "hooks",
                                               "paths",          "shell"};
static const char *const RESERVED_WORDS[] = {"anthropic", "claude"};

enum { MAX_NAME = 64, MAX_DESCRIPTION = 1024, MAX_COMPATIBILITY = 500, MAX_BODY_LINES = 500 };

typedef struct {
  const upk_skill *s;
  upk_validate_mode mode;
  upk_diags *out;
  size_t errors;
} vctx;

/* Add a diagnostic whose severity depends on the mode. */
static void report(vctx *v, upk_severity strict, upk_severity lenient, const char *code,
                   upk_range r, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void report(vctx *v, upk_severity strict, upk_severity lenient, const char *code,
                   upk_range r, const char *fmt, ...) {
  upk_severity sev = v->mode == UPK_VALIDATE_STRICT ? strict : lenient;
  va_list ap;
  va_start(ap, fmt);
  if (upk_diags_vadd(v->out, sev, code, UPK_SKILL_SOURCE, r, fmt, ap) == 0 && sev == UPK_SEV_ERROR)
    v->errors++;
  va_end(ap);
}

static bool in_list(const char *key, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(key, list[i]) == 0)
      return true;
  return false;
}

static const upk_skill_field *field(const upk_skill *s, const char *key) {
  const upk_skill_field *f = NULL;
  for (size_t i = 0; i < s->n_fields; i++)
    if (strcmp(s->fields[i].key, key) == 0)
      f = &s->fields[i];
  return f;
}

static upk_range opening(void) {
  return upk_range_line(0, 0, 3);
}

/* What parsing got around: STRICT keeps its severity, LENIENT loads anyway. */
static void parse_issues(vctx *v) {
  for (size_t i = 0; i < v->s->issues.len; i++) {
    const upk_diag *d = &v->s->issues.items[i];
    upk_severity sev = d->severity;
    if (v->mode != UPK_VALIDATE_STRICT)
      sev = strcmp(d->code, "skill/crlf") == 0 ? UPK_SEV_HINT
            : sev == UPK_SEV_ERROR             ? UPK_SEV_WARNING
                                               : sev;
    if (upk_diags_add(v->out, sev, d->code, d->source, d->range, "%s", d->message))
      continue;
    if (d->file)
      v->out->items[v->out->len - 1].file = upk_xstrdup(d->file);
    v->errors += sev == UPK_SEV_ERROR;
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* skills-ref: "Unexpected fields in frontmatter: a, b. Only [...] are allowed." */
static void unexpected_fields(vctx *v) {
  const upk_skill *s = v->s;
  const char **keys = upk_xcalloc(s->n_fields + 1, sizeof *keys);
  const upk_skill_field *first = NULL;
  size_t n = 0;
  for (size_t i = 0; keys && i < s->n_fields; i++) {
    const char *k = s->fields[i].key;
    if (in_list(k, ALLOWED, N(ALLOWED)) || in_list(k, keys, n))
      continue;
    keys[n++] = k;
    first = first ? first : &s->fields[i];
  }
  if (n) {
    qsort(keys, n, sizeof *keys, cmp_str);
    char list[768] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++)
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", keys[i]);
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/unexpected-fields", first->key_range,
           "Unexpected fields in frontmatter: %s. Only ['allowed-tools', 'compatibility', "
           "'description', 'license', 'metadata', 'name'] are allowed.",
           list);
  }
  free(keys);
  for (size_t i = 0; i < s->n_fields; i++)
    if (in_list(s->fields[i].key, CLAUDE_CODE_KEYS, N(CLAUDE_CODE_KEYS)))
      report(v, UPK_SEV_HINT, UPK_SEV_HINT, "skill/claude-code-field", s->fields[i].key_range,
             "'%s' is a Claude Code extension: other agents ignore it and skills-ref rejects it; "
             "for a portable skill drop it or move it under metadata",
             s->fields[i].key);
}

static bool name_is_valid_chars(const char *n) {
  size_t len = strlen(n);
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t k = upk_u8_decode(n + i, len - i, &cp);
    if (!k || (cp != '-' && !upk_u_isalnum(cp)))
      return false;
    i += k;
  }
  return true;
}

static bool has_upper(const char *n) {
  size_t len = strlen(n);
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t k = upk_u8_decode(n + i, len - i, &cp);
    if (k && upk_u_has_lower(cp))
      return true;
    i += k ? k : 1;
  }
  return false;
}

/* Checks beyond skills-ref on a name that passed its own. */
static void name_advice(vctx *v, const char *n, upk_range r) {
  upk_severity ascii = v->mode == UPK_VALIDATE_INSTALL ? UPK_SEV_ERROR : UPK_SEV_WARNING;
  for (size_t i = 0; i < N(RESERVED_WORDS); i++)
    if (strcasestr(n, RESERVED_WORDS[i]))
      report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/name-reserved-word", r,
             "Skill name '%s' contains the reserved word '%s'; claude.ai and the Claude API "
             "refuse such skills",
             n, RESERVED_WORDS[i]);
  for (const char *p = n; *p; p++)
    if ((unsigned char)*p >= 0x80) {
      report(v, ascii, ascii, "skill/name-not-ascii", r,
             "Skill name '%s' is not ASCII; the specification and opencode accept only "
             "^[a-z0-9]+(-[a-z0-9]+)*$",
             n);
      break;
    }
}

/* A field skills-ref requires, or NULL after reporting it missing (lenient: the severity
 * outside strict mode). */
static const upk_skill_field *required(vctx *v, const char *name, const char *code,
                                       upk_severity lenient) {
  const upk_skill_field *f = field(v->s, name);
  if (!f)
    report(v, UPK_SEV_ERROR, lenient, code, opening(), "Missing required field in frontmatter: %s",
           name);
  return f;
}

/* skills-ref _validate_name: every failing rule is reported. */
static void check_name(vctx *v) {
  const upk_skill_field *f = required(v, "name", "skill/name-missing", UPK_SEV_WARNING);
  if (!f)
    return;
  char *stripped = f->is_scalar ? upk_u8_strip(f->value) : NULL;
  char *n = stripped && *stripped ? upk_nfkc(stripped) : NULL;
  free(stripped);
  upk_range r = f->value_range;
  if (!n) {
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/name-empty", r,
           "Field 'name' must be a non-empty string");
    return;
  }
  size_t len = upk_u8_len(n);
  /* What agents refuse to load stays an error at install; the directory is the one made. */
  upk_severity lenient = v->mode == UPK_VALIDATE_INSTALL ? UPK_SEV_ERROR : UPK_SEV_WARNING;
  if (len > MAX_NAME)
    report(v, UPK_SEV_ERROR, lenient, "skill/name-too-long", r,
           "Skill name '%s' exceeds %d character limit (%zu chars)", n, MAX_NAME, len);
  if (has_upper(n))
    report(v, UPK_SEV_ERROR, lenient, "skill/name-uppercase", r,
           "Skill name '%s' must be lowercase", n);
  if (n[0] == '-' || n[strlen(n) - 1] == '-')
    report(v, UPK_SEV_ERROR, lenient, "skill/name-hyphen-edge", r,
           "Skill name cannot start or end with a hyphen");
  if (strstr(n, "--"))
    report(v, UPK_SEV_ERROR, lenient, "skill/name-consecutive-hyphens", r,
           "Skill name cannot contain consecutive hyphens");
  bool chars_ok = name_is_valid_chars(n);
  if (!chars_ok)
    report(v, UPK_SEV_ERROR, lenient, "skill/name-invalid-chars", r,
           "Skill name '%s' contains invalid characters. Only letters, digits, and hyphens are "
           "allowed.",
           n);
  char *d = v->s->dir_name ? upk_nfkc(v->s->dir_name) : NULL;
  if (d && strcmp(d, n) != 0)
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/name-dir-mismatch", r,
           "Directory name '%s' must match skill name '%s'", v->s->dir_name, n);
  if (chars_ok)
    name_advice(v, n, r);
  free(d);
  free(n);
}

static void check_description(vctx *v) {
  const upk_skill_field *f = required(v, "description", "skill/description-missing", UPK_SEV_ERROR);
  if (!f)
    return;
  char *stripped = f->is_scalar ? upk_u8_strip(f->value) : NULL;
  bool empty = !stripped || !*stripped;
  free(stripped);
  if (empty) {
    report(v, UPK_SEV_ERROR, UPK_SEV_ERROR, "skill/description-empty", f->value_range,
           "Field 'description' must be a non-empty string");
    return;
  }
  size_t len = upk_u8_len(f->value);
  if (len > MAX_DESCRIPTION)
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/description-too-long", f->value_range,
           "Description exceeds %d character limit (%zu chars)", MAX_DESCRIPTION, len);
  if (strpbrk(f->value, "<>"))
    report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/description-angle-brackets", f->value_range,
           "Description contains '<' or '>'; Anthropic's validator refuses angle brackets and "
           "the Claude API refuses XML tags");
}

static void check_compatibility(vctx *v) {
  const upk_skill_field *f = field(v->s, "compatibility");
  if (!f)
    return;
  if (!f->is_scalar) {
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/compatibility-not-string", f->value_range,
           "Field 'compatibility' must be a string");
    return;
  }
  size_t len = upk_u8_len(f->value);
  if (len > MAX_COMPATIBILITY)
    report(v, UPK_SEV_ERROR, UPK_SEV_WARNING, "skill/compatibility-too-long", f->value_range,
           "Compatibility exceeds %d character limit (%zu chars)", MAX_COMPATIBILITY, len);
}

/* A reference that climbs out of the skill with "..". */
static bool escapes(const char *t) {
  int depth = 0;
  for (const char *p = t; *p;) {
    size_t k = strcspn(p, "/");
    if (k == 2 && strncmp(p, "..", 2) == 0)
      depth--;
    else if (k && !(k == 1 && *p == '.'))
      depth++;
    if (depth < 0)
      return true;
    p += k + (p[k] == '/');
  }
  return false;
}

static void check_refs(vctx *v) {
  const upk_skill *s = v->s;
  for (size_t i = 0; s->dir && i < s->n_refs; i++) {
    const upk_skill_ref *r = &s->refs[i];
    if (escapes(r->target)) {
      report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/reference-outside", r->range,
             "'%s' points outside the skill directory; only the skill's own files travel with "
             "it",
             r->target);
      continue;
    }
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", s->dir, r->target);
    if (stat(path, &st) != 0)
      report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/broken-reference", r->range,
             "Referenced file '%s' does not exist in the skill directory", r->target);
  }
}

static void check_layout(vctx *v) {
  const upk_skill *s = v->s;
  if (s->body_lines > MAX_BODY_LINES) {
    int line = s->body_line + MAX_BODY_LINES;
    upk_range r = {line, 0, line + 1, 0};
    report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/body-too-long", r,
           "SKILL.md body is %zu lines; keep it under %d lines and move details into "
           "references/",
           s->body_lines, MAX_BODY_LINES);
  }
  if (s->dir_name && strcasecmp(s->dir_name, "synced") == 0)
    report(v, UPK_SEV_WARNING, UPK_SEV_WARNING, "skill/dir-reserved", upk_skill_whole_file(),
           "The folder name '%s' is reserved by Claude Code (in any capitalisation): rename the "
           "skill directory",
           s->dir_name);
  check_refs(v);
}

size_t upk_skill_validate(const upk_skill *s, upk_validate_mode mode, upk_diags *out) {
  vctx v = {s, mode, out, 0};
  parse_issues(&v);
  if (!s->has_frontmatter)
    return v.errors;
  unexpected_fields(&v);
  check_name(&v);
  check_description(&v);
  check_compatibility(&v);
  check_layout(&v);
  return v.errors;
}

size_t upk_skill_validate_path(const char *path, upk_validate_mode mode, upk_diags *out) {
  size_t before = upk_diags_count(out, UPK_SEV_ERROR);
  upk_skill s;
  if (upk_skill_load(path, &s, out) == 0)
    upk_skill_validate(&s, mode, out);
  upk_skill_free(&s);
  return upk_diags_count(out, UPK_SEV_ERROR) - before;
}

size_t upk_skill_validate_text(const char *text, size_t len, upk_validate_mode mode,
                               upk_diags *out) {
  return upk_skill_validate_buffer(text, len, NULL, mode, out);
}

size_t upk_skill_validate_buffer(const char *text, size_t len, const char *path,
                                 upk_validate_mode mode, upk_diags *out) {
  size_t before = upk_diags_count(out, UPK_SEV_ERROR);
  upk_skill s;
  if (upk_skill_parse(text, len, path, &s, out) == 0)
    upk_skill_validate(&s, mode, out);
  upk_skill_free(&s);
  return upk_diags_count(out, UPK_SEV_ERROR) - before;
}
