#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tests/integration/fsx.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fsx_write(const char *path, const char *text) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *s = dir + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      mkdir(dir, 0755);
      *s = '/';
    }
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "cannot write %s: %s", path, strerror(errno));
  fputs(text, f);
  cr_assert_eq(fclose(f), 0);
}

char *fsx_read(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  buf[n] = 0;
  return buf;
}

bool fsx_exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  remove(p);
  return 0;
}

void fsx_rm_rf(const char *path) {
  nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

size_t fsx_count_prefix(const char *dir, const char *prefix) {
  DIR *d = opendir(dir);
  size_t n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (d)
    closedir(d);
  return n;
}

void fsx_mkdtemp(char out[64], const char *tag) {
  snprintf(out, 64, "/tmp/upk-it-%s-XXXXXX", tag);
  cr_assert_not_null(mkdtemp(out), "mkdtemp: %s", strerror(errno));
}
