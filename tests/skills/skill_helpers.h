/* Helpers for the parse/validate/meta tests: temporary skill trees and
 * looking diagnostics up. Each Criterion test runs in its own process. */
#ifndef UPK_TEST_SKILL_HELPERS_H
#define UPK_TEST_SKILL_HELPERS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/diag.h"

static char *th_root;

static inline int th_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  chmod(p, 0700);
  return remove(p);
}

static inline void th_setup(void) {
  char tmpl[] = "/tmp/upk-skilltest-XXXXXX";
  th_root = strdup(mkdtemp(tmpl));
}

static inline void th_teardown(void) {
  nftw(th_root, th_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(th_root);
}

/* root/rel as a path; static buffers rotate so a few can be live at once. */
static inline const char *th_path(const char *rel) {
  static char bufs[4][4096];
  static int i;
  char *b = bufs[i++ % 4];
  snprintf(b, 4096, "%s/%s", th_root, rel);
  return b;
}

static inline void th_mkdirs(const char *rel) {
  char p[4096];
  if (snprintf(p, sizeof p, "%s/%s", th_root, rel) >= (int)sizeof p)
    cr_assert_fail("path too long: %s", rel);
  for (char *s = p + strlen(th_root) + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      mkdir(p, 0755);
      *s = '/';
    }
  mkdir(p, 0755);
}

static inline void th_write_bytes(const char *rel, const char *data, size_t len) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", rel);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
    th_mkdirs(dir);
  }
  FILE *f = fopen(th_path(rel), "wb");
  cr_assert(f, "cannot write %s", rel);
  fwrite(data, 1, len, f);
  fclose(f);
}

static inline void th_write(const char *rel, const char *text) {
  th_write_bytes(rel, text, strlen(text));
}

/* A skill dir/SKILL.md with the given frontmatter lines and a short body. */
static inline const char *th_skill(const char *dir, const char *frontmatter) {
  char rel[1024], text[8192];
  snprintf(rel, sizeof rel, "%s/SKILL.md", dir);
  snprintf(text, sizeof text, "---\n%s---\n# My Skill\n\nBody text.\n", frontmatter);
  th_write(rel, text);
  return th_path(dir);
}

static inline const upk_diag *th_find(const upk_diags *d, const char *code) {
  for (size_t i = 0; i < d->len; i++)
    if (strcmp(d->items[i].code, code) == 0)
      return &d->items[i];
  return NULL;
}

static inline size_t th_count_code(const upk_diags *d, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += strcmp(d->items[i].code, code) == 0;
  return n;
}

/* Every diagnostic on one line each, for assertion messages. */
static inline const char *th_dump(const upk_diags *d) {
  static char buf[16384];
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < d->len && n < sizeof buf - 1; i++) {
    const upk_diag *x = &d->items[i];
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\n  [%d] %s %d:%d-%d:%d %s", x->severity,
                          x->code, x->range.line, x->range.col, x->range.end_line, x->range.end_col,
                          x->message);
  }
  return buf;
}

static inline bool th_has_message(const upk_diags *d, const char *needle) {
  for (size_t i = 0; i < d->len; i++)
    if (strstr(d->items[i].message, needle))
      return true;
  return false;
}

#define th_assert_range(r, l, c, el, ec)                                                           \
  cr_assert((r).line == (l) && (r).col == (c) && (r).end_line == (el) && (r).end_col == (ec),      \
            "range %d:%d-%d:%d, expected %d:%d-%d:%d", (r).line, (r).col, (r).end_line,            \
            (r).end_col, (l), (c), (el), (ec))

#endif
