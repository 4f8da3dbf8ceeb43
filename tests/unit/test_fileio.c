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

/* ---- upk_read_beneath: the one reader of files from outside (docs/security.md) ---- */

static int beneath(const char *root, const char *path, size_t max) {
  char *out = NULL;
  size_t len = 0;
  int rc = upk_read_beneath(root, path, max, &out, &len);
  cr_assert(rc ? out == NULL : out != NULL);
  free(out);
  return rc;
}

/* Every answer of the contract; the same whether openat2 or the walk answers. */
static void contract(void) {
  char *d = scratch(), *out = scratch();
  cr_assert_eq(mkdir(at(d, "sub"), 0755), 0);
  put(at(d, "sub/f"), "inside");
  put(at(out, "secret"), "secret");
  cr_assert_eq(symlink(at(out, "secret"), at(d, "link-out")), 0);
  cr_assert_eq(symlink("sub/f", at(d, "link-in")), 0);
  cr_assert_eq(symlink(out, at(d, "refs")), 0); /* a directory link on the way */
  cr_assert_eq(symlink("sub", at(d, "sub-link")), 0);
  cr_assert_eq(mkfifo(at(d, "fifo"), 0600), 0);
  FILE *f = fopen(at(d, "big"), "wb");
  cr_assert_eq(ftruncate(fileno(f), (off_t)2 << 30), 0); /* 2 GiB, sparse */
  fclose(f);

  char *s = NULL;
  size_t len = 0;
  cr_assert_eq(upk_read_beneath(d, "sub/f", 100, &s, &len), 0);
  cr_assert_str_eq(s, "inside");
  cr_assert_eq(len, 6);
  free(s);
  cr_assert_eq(beneath(d, at(d, "sub/f"), 100), 0); /* absolute, spelled under the root */
  cr_assert_eq(beneath(d, "./sub//f", 100), 0);
  cr_assert_eq(beneath(d, "link-out", 100), -ELOOP);    /* the file a link out */
  cr_assert_eq(beneath(d, "link-in", 100), -ELOOP);     /* even one that stays inside */
  cr_assert_eq(beneath(d, "refs/secret", 100), -ELOOP); /* a directory link on the way */
  cr_assert_eq(beneath(d, "sub-link/f", 100), -ELOOP);
  cr_assert_eq(beneath(d, "sub/../sub/f", 100), -EXDEV); /* no ".." */
  cr_assert_eq(beneath(d, "../x", 100), -EXDEV);
  cr_assert_eq(beneath(d, at(out, "secret"), 100), -EXDEV); /* absolute, elsewhere */
  cr_assert_eq(beneath(d, "fifo", 100), -EINVAL);           /* at once, never blocking */
  cr_assert_eq(beneath(d, "sub", 100), -EISDIR);
  cr_assert_eq(beneath(d, "", 100), -EISDIR);
  cr_assert_eq(beneath(d, "big", 1u << 20), -EFBIG);
  cr_assert_eq(beneath(d, "sub/f", 3), -EFBIG);
  cr_assert_eq(beneath(d, "nope", 100), -ENOENT);
  cr_assert_eq(beneath(d, "sub/f/x", 100), -ENOTDIR);
  /* upk_read_in_dir: the file's own directory is the root */
  char *t = NULL;
  cr_assert_eq(upk_read_in_dir(at(d, "sub/f"), 100, &t, &len), 0);
  free(t);
  cr_assert_eq(upk_read_in_dir(at(d, "link-out"), 100, &t, &len), -ELOOP);
  cr_assert_eq(upk_read_in_dir(at(d, "refs/secret"), 100, &t, &len), 0); /* its dir is trusted */
  free(t);
  /* upk_read_file follows links (the user's paths) but never blocks and caps by fstat */
  cr_assert_null(upk_read_file(at(d, "fifo"), 100, &len));
  cr_assert_eq(errno, EINVAL);
  cr_assert_null(upk_read_file(at(d, "big"), 1u << 20, &len));
  cr_assert_eq(errno, EFBIG);
  cr_assert_null(upk_read_file(d, 100, &len));
  cr_assert_eq(errno, EISDIR);
  char *via = upk_read_file(at(d, "link-out"), 100, &len);
  cr_assert_str_eq(via, "secret");
  free(via);
  rm_rf(d);
  rm_rf(out);
  free(d);
  free(out);
}

UTest(fileio, read_beneath_follows_no_link_waits_on_no_fifo_and_caps) {
  contract();
}

/* Where openat2 is missing (Linux < 5.6, a seccomp filter): the walk gives the same answers. */
UTest(fileio, read_beneath_without_openat2_answers_the_same) {
  setenv("UPSKILLD_FAULT", "fs.openat2:1:EINVAL", 1);
  contract();
}

/* The one maker of private temporary directories: 0700, named for its use, under an absolute
 * TMPDIR only, TMPDIR made again once removed (a worker outliving its TMPDIR), a short buffer
 * refused rather than cut. */
UTest(fileio, private_tmpdir_is_the_callers_own_and_survives_a_removed_tmpdir) {
  char *d = scratch(), buf[512];
  char *gone = at(d, "gone/deeper");
  setenv("TMPDIR", gone, 1);
  cr_assert_eq(upk_private_tmpdir("unit", buf, sizeof buf), 0);
  cr_assert(!strncmp(buf, gone, strlen(gone)) && strstr(buf, "/upskilld-unit-"), "%s", buf);
  struct stat st;
  cr_assert_eq(stat(buf, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0700);
  setenv("TMPDIR", "relative/dir", 1);
  cr_assert_eq(upk_private_tmpdir("unit", buf, sizeof buf), 0);
  cr_assert(!strncmp(buf, "/tmp/upskilld-unit-", 19), "%s", buf);
  rmdir(buf);
  char small[16];
  cr_assert_eq(upk_private_tmpdir("unit", small, sizeof small), -ENAMETOOLONG);
  unsetenv("TMPDIR");
  rm_rf(d);
  free(d);
}
