/* Skill entries of the MCP Skills extension (catalog.h): URIs from paths and back,
 * frontmatter as JSON, the manifest of files with sizes and digests. */
#include "skills/catalog_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/frontmatter.h"
#include "skills/fsutil.h"
#include "common/sha256.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

#define SCHEME "skill://"

static const char *const base_names[] = {"project", "user", "builtin", "path"};
enum { BASE_PROJECT, BASE_USER, BASE_BUILTIN, BASE_PATH };

static const char *base_dir(const upk_catalog_bases *b, int base) {
  switch (base) {
  case BASE_PROJECT:
    return b->workspace;
  case BASE_USER:
    return b->home;
  case BASE_BUILTIN:
    return b->builtin;
  default:
    return "/";
  }
}

/* `dir` relative to `base` ("/a/b" under "/a" is "b"), or NULL when it is not below it. */
static const char *below(const char *dir, const char *base) {
  if (!base || !*base)
    return NULL;
  size_t n = strlen(base);
  while (n > 1 && base[n - 1] == '/')
    n--;
  if (n == 1 && base[0] == '/')
    return dir[0] == '/' && dir[1] ? dir + 1 : NULL;
  return !strncmp(dir, base, n) && dir[n] == '/' && dir[n + 1] ? dir + n + 1 : NULL;
}

/* RFC 3986 pchar minus the few that WHATWG URL parsers treat specially: what stays as is. */
static int keeps(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         strchr("-._~!$&'()*+,;=:@", c) != NULL;
}

/* Append `path`'s segments ('/' kept between them) percent-encoded to out (size cap). */
static int encode_path(char *out, size_t cap, size_t *at, const char *path) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (*at + 4 >= cap)
      return -ENAMETOOLONG;
    if (*p == '/' || keeps(*p)) {
      out[(*at)++] = (char)*p;
    } else {
      out[(*at)++] = '%';
      out[(*at)++] = hex[*p >> 4];
      out[(*at)++] = hex[*p & 15];
    }
  }
  out[*at] = 0;
  return 0;
}

char *upk_catalog_root_uri(const upk_catalog_bases *b, upk_index_scope scope, const char *dir) {
  int base = scope == UPK_INDEX_PROJECT   ? BASE_PROJECT
             : scope == UPK_INDEX_USER    ? BASE_USER
             : scope == UPK_INDEX_BUILTIN ? BASE_BUILTIN
                                          : BASE_PATH;
  const char *rel = below(dir, base_dir(b, base));
  if (!rel) { /* a root configured outside its usual place */
    base = BASE_PATH;
    rel = below(dir, "/");
  }
  size_t cap = rel ? strlen(SCHEME) + 16 + 3 * strlen(rel) : 0;
  char *uri = rel ? upk_xmalloc(cap) : NULL; /* sized, not PATH_MAX: one per entry of a page */
  if (!uri)
    return NULL;
  size_t at = (size_t)snprintf(uri, cap, SCHEME "%s/", base_names[base]);
  if (encode_path(uri, cap, &at, rel))
    return free(uri), NULL;
  return uri;
}

char *upk_catalog_file_uri(const char *root_uri, const char *rel) {
  size_t cap = strlen(root_uri) + 3 * strlen(rel) + 8, at = 0; /* encode_path keeps 4 spare */
  char *uri = upk_xmalloc(cap);
  at = (size_t)snprintf(uri, cap, "%s/", root_uri);
  if (encode_path(uri, cap, &at, rel))
    return free(uri), NULL;
  return uri;
}

static int hexval(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* Decode one segment [s, e) into out at *at; -EINVAL for a segment a path must not have. */
static int decode_segment(const char *s, const char *e, char *out, size_t cap, size_t *at) {
  size_t start = *at;
  for (const char *p = s; p < e; p++) {
    int c = (unsigned char)*p;
    if (c == '%') {
      int hi = e - p > 2 ? hexval(p[1]) : -1, lo = e - p > 2 ? hexval(p[2]) : -1;
      if (hi < 0 || lo < 0)
        return -EINVAL;
      c = hi * 16 + lo;
      p += 2;
    }
    if (c == 0 || c == '/' || *at + 2 >= cap)
      return -EINVAL;
    out[(*at)++] = (char)c;
  }
  size_t n = *at - start;
  if (n == 0 || (n == 1 && out[start] == '.') ||
      (n == 2 && out[start] == '.' && out[start + 1] == '.'))
    return -EINVAL;
  out[*at] = 0;
  return 0;
}

int upk_catalog_uri_path(const upk_catalog_bases *b, const char *uri, char **path) {
  *path = NULL;
  if (strncmp(uri, SCHEME, strlen(SCHEME)) || strpbrk(uri, "?#"))
    return -EINVAL;
  const char *host = uri + strlen(SCHEME), *slash = strchr(host, '/');
  int base = -1;
  for (int i = 0; slash && i < 4; i++)
    if ((size_t)(slash - host) == strlen(base_names[i]) &&
        !strncmp(host, base_names[i], (size_t)(slash - host)))
      base = i;
  const char *dir = base < 0 ? NULL : base_dir(b, base);
  if (!dir || !*dir)
    return -EINVAL;
  char *out = upk_xmalloc(PATH_MAX);
  size_t at = (size_t)snprintf(out, PATH_MAX, "%s", strcmp(dir, "/") ? dir : "");
  for (const char *s = slash + 1;; s++) {
    const char *e = strchr(s, '/');
    if (!e)
      e = s + strlen(s);
    if (at + 2 >= PATH_MAX)
      return free(out), -ENAMETOOLONG;
    out[at++] = '/';
    int rc = decode_segment(s, e, out, PATH_MAX, &at);
    if (rc)
      return free(out), rc;
    if (!*e)
      break;
    s = e;
  }
  *path = out;
  return 0;
}

int upk_catalog_read(const char *dir, const char *skill_file, const char *rel, size_t max,
                     char **data, size_t *len) {
  int dfd = upk_open_beneath(dir, NULL, false);
  if (dfd < 0)
    return dfd;
  int rc = upk_catalog_read_at(dfd, !strcmp(rel, "SKILL.md") && skill_file ? skill_file : rel, max,
                               data, len);
  close(dfd);
  return rc;
}
