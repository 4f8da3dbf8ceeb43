/* common/fileio.c: whole files in (with the cap that is their graceful failure), mkdir -p, and
 * the atomic writes that leave no temporary behind. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "tests/unit/unit.h"

static char *scratch(void) {
  char *d = strdup("/tmp/upk-fileio-XXXXXX");
  cr_assert_not_null(mkdtemp(d));
  return d;
}

static char *at(const char *dir, const char *rel) {
  static char p[4][512];
  static int k;
  char *out = p[k++ % 4];
  snprintf(out, sizeof p[0], "%s/%s", dir, rel);
  return out;
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "%s: %s", path, strerror(errno));
  fputs(text, f);
  fclose(f);
}

/* Nothing but `want` entries in dir: no temporary left over. */
static void only(const char *dir, int want) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  cr_assert_eq(n, want, "%d entries in %s", n, dir);
}

static void rm_rf(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

UTest(fileio, read_file_up_to_its_cap_and_not_past_it) {
  char *d = scratch();
  put(at(d, "f"), "hello");
  size_t len = 99;
  char *s = upk_read_file(at(d, "f"), 5, &len);
  cr_assert_not_null(s);
  cr_assert_str_eq(s, "hello");
  cr_assert_eq(len, 5);
  free(s);
  errno = 0;
  cr_assert_null(upk_read_file(at(d, "f"), 4, &len), "one byte over the cap");
  cr_assert_eq(errno, EFBIG);
  cr_assert_eq(len, 0);
  cr_assert_null(upk_read_file(at(d, "missing"), 4, &len));
  cr_assert_eq(errno, ENOENT);
  rm_rf(d);
  free(d);
}

UTest(fileio, mkdir_p_makes_every_level_and_accepts_existing_ones) {
  char *d = scratch();
  cr_assert_eq(upk_mkdir_p(at(d, "a/b/c"), 0700), 0);
  struct stat st;
  cr_assert_eq(stat(at(d, "a/b/c"), &st), 0);
  cr_assert(S_ISDIR(st.st_mode));
  cr_assert_eq(st.st_mode & 0777, 0700);
  cr_assert_eq(upk_mkdir_p(at(d, "a/b/c"), 0700), 0, "existing is fine");
  put(at(d, "file"), "x");
  cr_assert_eq(upk_mkdir_p(at(d, "file/sub"), 0700), -ENOTDIR);
  rm_rf(d);
  free(d);
}

UTest(fileio, atomic_write_replaces_whole_and_leaves_no_temporary) {
  char *d = scratch();
  put(at(d, "f.json"), "old and longer");
  cr_assert_eq(upk_write_file_atomic(at(d, "f.json"), "new", 3), 0);
  size_t len;
  char *s = upk_read_file(at(d, "f.json"), 100, &len);
  cr_assert_str_eq(s, "new");
  free(s);
  struct stat st;
  cr_assert_eq(stat(at(d, "f.json"), &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0644);
  only(d, 1);
  cr_assert_eq(upk_write_file_atomic(at(d, "no/such/dir"), "x", 1), -ENOENT);
  only(d, 1);
  rm_rf(d);
  free(d);
}

UTest(fileio, write_via_a_named_temporary) {
  char *d = scratch();
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", at(d, "k.json"), (long)getpid());
  put(tmp, "a killed writer's leftover, longer than the new text");
  cr_assert_eq(upk_write_file_via(at(d, "k.json"), tmp, NULL, "{}", 2), 0);
  size_t len;
  char *s = upk_read_file(at(d, "k.json"), 100, &len);
  cr_assert_str_eq(s, "{}", "the temporary is truncated first");
  free(s);
  only(d, 1);
  rm_rf(d);
  free(d);
}

UTest(fileio, exe_dir_holds_this_test_program) {
  char dir[4096], self[4200];
  cr_assert(upk_exe_dir(dir, sizeof dir));
  cr_assert_eq(dir[0], '/');
  snprintf(self, sizeof self, "%s/test_fileio", dir);
  cr_assert_eq(access(self, X_OK), 0, "%s", self);
}
