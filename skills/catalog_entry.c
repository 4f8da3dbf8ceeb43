/* One skill's extension entry (catalog.h): its frontmatter as JSON, read the way a host reads
 * it back to verify the file, the extension's rules, and the manifest of its files. */
#include "skills/catalog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/frontmatter.h"
#include "skills/catalog_int.h"

static int refuse(char *why, size_t whylen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(char *why, size_t whylen, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, whylen, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- YAML 1.2 core schema: what a plain scalar means ---- */

static bool all_of(const char *s, const char *set) {
  return *s && strspn(s, set) == strlen(s);
}

static bool is_float(const char *s) {
  if (*s == '+' || *s == '-')
    s++;
  size_t ints = strspn(s, "0123456789");
  s += ints;
  size_t frac = 0;
  if (*s == '.') {
    frac = strspn(s + 1, "0123456789");
    s += 1 + frac;
  }
  if (!ints && !frac)
    return false;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-')
      s++;
    if (!all_of(s, "0123456789"))
      return false;
    s += strlen(s);
  }
  return *s == 0;
}

static bool one_of(const char *s, const char *const *words) {
  for (; *words; words++)
    if (!strcmp(s, *words))
      return true;
  return false;
}

/* An integer JSON can carry exactly (|v| <= 2^53), else the double a host's Number() gives. */
static json_t *number(const char *text, int base) {
  const char *digits = base == 10 ? text : text + 2;
  errno = 0;
  char *end;
  long long v = strtoll(digits, &end, base);
  if (!errno && !*end && v <= (1LL << 53) && v >= -(1LL << 53))
    return json_integer(v);
  return base == 10 ? json_real(strtod(text, NULL)) : NULL;
}

/* NULL with *bad set when the value cannot be represented in JSON (.inf, .nan). */
static json_t *plain_scalar(const char *s, bool *bad) {
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
  static const char *const trues[] = {"true", "True", "TRUE", NULL};
  static const char *const falses[] = {"false", "False", "FALSE", NULL};
  static const char *const specials[] = {".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf",
                                         "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
                                         ".NaN",  ".NAN",  NULL};
  if (one_of(s, nulls))
    return json_null();
  if (one_of(s, trues))
    return json_true();
  if (one_of(s, falses))
    return json_false();
  const char *sign = s + (*s == '+' || *s == '-');
  if (all_of(sign, "0123456789"))
    return number(s, 10);
  int radix = !strncmp(s, "0o", 2) && all_of(s + 2, "01234567")                 ? 8
              : !strncmp(s, "0x", 2) && all_of(s + 2, "0123456789abcdefABCDEF") ? 16
                                                                                : 0;
  if (radix) {
    json_t *v = number(s, radix);
    *bad = !v; /* beyond what JSON carries exactly */
    return v;
  }
  if (is_float(s))
    return json_real(strtod(s, NULL));
  if (one_of(s, specials))
    return *bad = true, NULL;
  return json_string(s);
}

/* ---- the frontmatter tree as JSON ---- */

static int to_json(const fm_node *n, int depth, json_t **out, char *why, size_t whylen);

static int map_to_json(const fm_node *n, int depth, json_t **out, char *why, size_t whylen) {
  json_t *obj = json_object();
  for (size_t i = 0; i + 1 < n->n; i += 2) {
    const fm_node *k = n->kids[i];
    bool bad = false;
    json_t *kv = k->kind == FM_SCALAR && k->plain ? plain_scalar(k->text, &bad) : NULL;
    bool stringy = k->kind == FM_SCALAR && (!k->plain || json_is_string(kv));
    json_decref(kv);
    if (!stringy || !strcmp(k->text, "__proto__"))
      return json_decref(obj),
             refuse(why, whylen, -EINVAL, "line %d: a key must be a string", k->start.line + 2);
    if (json_object_get(obj, k->text))
      return json_decref(obj), refuse(why, whylen, -EINVAL, "line %d: duplicate key \"%s\"",
                                      k->start.line + 2, k->text);
    json_t *v;
    int rc = to_json(n->kids[i + 1], depth + 1, &v, why, whylen);
    if (rc)
      return json_decref(obj), rc;
    json_object_set_new(obj, k->text, v);
  }
  *out = obj;
  return 0;
}

static int to_json(const fm_node *n, int depth, json_t **out, char *why, size_t whylen) {
  if (depth > 32)
    return refuse(why, whylen, -EINVAL, "frontmatter nests deeper than 32 levels");
  if (n->kind == FM_MAP)
    return map_to_json(n, depth, out, why, whylen);
  if (n->kind == FM_SEQ) {
    json_t *arr = json_array();
    for (size_t i = 0; i < n->n; i++) {
      json_t *v;
      int rc = to_json(n->kids[i], depth + 1, &v, why, whylen);
      if (rc)
        return json_decref(arr), rc;
      json_array_append_new(arr, v);
    }
    *out = arr;
    return 0;
  }
  bool bad = false;
  *out = n->plain ? plain_scalar(n->text, &bad) : json_string(n->text);
  if (bad || !*out)
    return refuse(why, whylen, -EINVAL, "line %d: \"%s\" cannot be represented in JSON; quote it",
                  n->start.line + 2, n->text);
  return 0;
}

/* Whether the n bytes at s are all spaces, tabs or CR (s need not be NUL-terminated). */
static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
      return false;
  return true;
}

/* The YAML between SKILL.md's opening "---" line and the next line of just "---". */
static int split(const char *text, size_t len, const char **yaml, size_t *ylen) {
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
    text += 3, len -= 3;
  size_t open = len >= 4 && !memcmp(text, "---\n", 4)     ? 4
                : len >= 5 && !memcmp(text, "---\r\n", 5) ? 5
                                                          : 0;
  if (!open)
    return -EINVAL;
  for (size_t at = open; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - text) : len, n = end - at;
    if (n >= 3 && !memcmp(text + at, "---", 3) && blank(text + at + 3, n - 3)) {
      *yaml = text + open;
      *ylen = at - open;
      return 0;
    }
    at = end + 1;
  }
  return -EINVAL;
}

int upk_catalog_frontmatter(const char *text, size_t len, json_t **out, char *why, size_t whylen) {
  const char *yaml;
  size_t ylen;
  *out = NULL;
  if (split(text, len, &yaml, &ylen))
    return refuse(why, whylen, -EINVAL, "SKILL.md has no frontmatter between \"---\" lines");
  fm_doc doc = {0};
  if (fm_parse(yaml, ylen, &doc))
    return refuse(why, whylen, -ENOMEM, "out of memory");
  int rc;
  if (doc.failed)
    rc = refuse(why, whylen, -EINVAL, "frontmatter is not valid YAML: %s", doc.problem);
  else if (doc.n_repairs)
    rc = refuse(why, whylen, -EINVAL, "line %d: a value holds \": \"; quote it",
                doc.repairs[0].line + 2);
  else if (doc.n_issues && doc.issues[0].kind != FM_ISSUE_FLOW)
    rc = refuse(why, whylen, -EINVAL, "line %d: anchors, aliases and tags cannot be verified",
                doc.issues[0].pos.line + 2);
  else if (!doc.root || doc.root->kind != FM_MAP)
    rc = refuse(why, whylen, -EINVAL, "frontmatter is not a mapping of keys to values");
  else
    rc = to_json(doc.root, 0, out, why, whylen);
  for (size_t i = 0; !rc && i < doc.n_issues; i++) /* flow issues come first only sometimes */
    if (doc.issues[i].kind != FM_ISSUE_FLOW) {
      json_decref(*out);
      *out = NULL;
      rc = refuse(why, whylen, -EINVAL, "line %d: anchors, aliases and tags cannot be verified",
                  doc.issues[i].pos.line + 2);
    }
  fm_doc_free(&doc);
  return rc;
}

static const char *base_name_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* ---- the extension's rules for an entry (what hosts check before loading it) ---- */

static size_t code_points(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

static bool name_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 64 || s[0] == '-' || s[n - 1] == '-' || strstr(s, "--"))
    return false;
  return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

int upk_catalog_check_rules(const json_t *fm, const char *dir_name, char *why, size_t whylen) {
  const char *name = json_string_value(json_object_get(fm, "name"));
  const char *desc = json_string_value(json_object_get(fm, "description"));
  json_t *compat = json_object_get(fm, "compatibility"), *meta = json_object_get(fm, "metadata");
  if (!name || !name_ok(name))
    return refuse(why, whylen, -EINVAL,
                  "name must be 1-64 lowercase letters, digits and single hyphens");
  if (strcmp(name, dir_name))
    return refuse(why, whylen, -EINVAL, "name \"%s\" differs from its directory \"%s\"", name,
                  dir_name);
  if (!desc || !*desc || code_points(desc) > 1024)
    return refuse(why, whylen, -EINVAL, "description must be a string of 1-1024 characters");
  if (compat && (!json_is_string(compat) || !json_string_length(compat) ||
                 code_points(json_string_value(compat)) > 500))
    return refuse(why, whylen, -EINVAL, "compatibility must be a string of 1-500 characters");
  const char *k;
  json_t *v;
  if (meta && !json_is_object(meta))
    return refuse(why, whylen, -EINVAL, "metadata must map strings to strings");
  json_object_foreach(meta, k, v) if (!json_is_string(v)) return refuse(
      why, whylen, -EINVAL, "metadata.%s must be a string (quote it)", k);
  return 0;
}

/* ---- the manifest ---- */

static json_t *resource(const char *root_uri, const char *rel, const unsigned char md[32],
                        off_t size) {
  static const char hex[] = "0123456789abcdef";
  char digest[8 + 65] = "sha256:";
  for (int i = 0; i < 32; i++) {
    digest[7 + 2 * i] = hex[md[i] >> 4];
    digest[8 + 2 * i] = hex[md[i] & 15];
  }
  digest[7 + 64] = 0;
  char *uri = upk_catalog_file_uri(root_uri, rel);
  json_t *r =
      uri ? json_pack("{s:s,s:s,s:I}", "uri", uri, "digest", digest, "size", (json_int_t)size)
          : NULL;
  free(uri);
  return r;
}

/* SKILL.md's frontmatter as JSON: from the cache, or read from `text` and then cached. */
static int skill_md(upk_catalog_cache *c, const upk_catalog_files *f, size_t i,
                    unsigned char md[32], json_t **fm, char *why, size_t whylen) {
  char *cached = NULL, *text = NULL;
  size_t len = 0;
  int rc = upk_catalog_file_digest(c, f, i, md, &cached, &text, &len);
  if (rc)
    return refuse(why, whylen, rc, "cannot read SKILL.md: %s", strerror(-rc));
  if (cached) {
    *fm = json_loads(cached, 0, NULL);
    free(cached);
    return *fm ? 0 : refuse(why, whylen, -ENOMEM, "out of memory");
  }
  rc = upk_catalog_frontmatter(text, len, fm, why, whylen);
  free(text);
  char *dumped = rc ? NULL : json_dumps(*fm, JSON_COMPACT);
  if (dumped) /* only frontmatter that passed is kept: a refused one is read again next time */
    upk_catalog_cache_frontmatter(c, f, i, md, dumped);
  free(dumped);
  return rc;
}

int upk_catalog_entry(upk_catalog_cache *cache, const char *dir, const char *skill_file,
                      const char *root_uri, json_t **out, char *why, size_t whylen) {
  *out = NULL;
  upk_catalog_files f;
  int rc = upk_catalog_files_list(dir, &f);
  json_t *fm = NULL, *files = json_array();
  size_t at = f.n;
  for (size_t i = 0; !rc && i < f.n; i++)
    if (!strcmp(f.items[i].rel, skill_file))
      at = i;
  if (rc == -EFBIG)
    rc = refuse(why, whylen, rc, "over the extension's limits (%d files, %u MiB)",
                UPK_CATALOG_MAX_FILES, UPK_CATALOG_MAX_BYTES >> 20);
  else if (rc)
    rc = refuse(why, whylen, rc, "cannot read the skill: %s", strerror(-rc));
  else if (at == f.n)
    rc = refuse(why, whylen, -ENOENT, "%s is missing", skill_file);
  unsigned char md[32], skill_digest[32];
  if (!rc && !(rc = skill_md(cache, &f, at, skill_digest, &fm, why, whylen)))
    rc = upk_catalog_check_rules(fm, base_name_of(dir), why, whylen);
  for (size_t i = 0; !rc && i < f.n; i++) {
    if (i != at && (rc = upk_catalog_file_digest(cache, &f, i, md, NULL, NULL, NULL))) {
      rc = refuse(why, whylen, rc, "cannot read %s: %s", f.items[i].rel, strerror(-rc));
      break;
    }
    json_t *r = resource(root_uri, i == at ? "SKILL.md" : f.items[i].rel,
                         i == at ? skill_digest : md, f.items[i].st.st_size);
    rc = r ? json_array_append_new(files, r) : -ENOMEM;
  }
  if (!rc) {
    char *uri = upk_catalog_file_uri(root_uri, "SKILL.md");
    *out =
        uri ? json_pack("{s:s,s:O,s:O}", "uri", uri, "frontmatter", fm, "resources", files) : NULL;
    free(uri);
    rc = *out ? 0 : -ENOMEM;
  }
  json_decref(fm);
  json_decref(files);
  upk_catalog_files_free(&f);
  return rc;
}
