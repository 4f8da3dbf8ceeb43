/* Helpers shared by the install tests: scratch directories, skills on disk,
 * requests, and checks on trees and the manifest.
 *
 * Strings returned here live in static buffers or in a global keep-list, so
 * the leak check of UTest only sees what the code under test leaks. */
#ifndef UPK_INSTALL_TEST_H
#define UPK_INSTALL_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "skills/fsutil.h"
#include "skills/install.h"

/* Each test file uses some of these. */
#define TEST_HELPER static __attribute__((unused))

static void *kept[4096];
static size_t n_kept;

/* Keep p reachable (and so not a leak) until the test process ends. */
TEST_HELPER void *keep(void *p) {
  cr_assert_not_null(p);
  cr_assert_lt(n_kept, sizeof kept / sizeof *kept);
  return kept[n_kept++] = p;
}

TEST_HELPER char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
TEST_HELPER char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  int n = vasprintf(&s, f, ap);
  va_end(ap);
  cr_assert_geq(n, 0);
  return keep(s);
}

TEST_HELPER char *tmpdir(void) {
  const char *base = getenv("TMPDIR");
  char *t = NULL;
  cr_assert_geq(asprintf(&t, "%s/upk-install-XXXXXX", base && *base ? base : "/tmp"), 0);
  cr_assert_not_null(mkdtemp(t), "mkdtemp: %s", strerror(errno));
  return keep(t);
}

TEST_HELPER char *path_of(const char *dir, const char *rel) {
  char *s = NULL;
  cr_assert_geq(asprintf(&s, "%s/%s", dir, rel), 0);
  return keep(s);
}

TEST_HELPER void mkdirs(const char *path) {
  cr_assert_eq(upk_mkdir_p(path, 0755), 0, "mkdir -p %s", path);
}

TEST_HELPER void write_file(const char *dir, const char *rel, const char *text) {
  char *path = path_of(dir, rel), *slash = strrchr(path, '/');
  *slash = 0;
  mkdirs(path);
  *slash = '/';
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s: %s", path, strerror(errno));
  fputs(text, f);
  fclose(f);
}

TEST_HELPER char *read_file(const char *path) {
  char *text;
  size_t len;
  int rc = upk_read_file_at(AT_FDCWD, path, 64u << 20, &text, &len);
  cr_assert_eq(rc, 0, "read %s: %s", path, strerror(-rc));
  return keep(text);
}

TEST_HELPER bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

TEST_HELPER void rmrf(const char *path) {
  upk_rmtree_at(AT_FDCWD, path);
}

/* SKILL.md text; variant changes the description and body. Caller frees. */
TEST_HELPER char *skill_md(const char *name, const char *variant) {
  char *s = NULL;
  cr_assert_geq(asprintf(&s,
                         "---\nname: %s\ndescription: Does demo things (%s). Use when testing "
                         "the installer.\n---\n# Demo %s\n\nStep one.\n",
                         name, variant, variant),
                0);
  return s;
}

TEST_HELPER void make_skill(const char *dir, const char *name, const char *variant) {
  char *md = skill_md(name, variant), *rel = path_of(name, "SKILL.md");
  write_file(dir, rel, md);
  free(md);
}

/* The tree hash of a directory, "" when there is none. */
TEST_HELPER const char *tree_hash(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return "";
  upk_tree t = {0};
  char *hex = keep(calloc(1, 65));
  int rc = upk_tree_load(fd, &t, NULL);
  close(fd);
  if (!rc)
    rc = upk_tree_hash(&t, hex);
  upk_tree_free(&t);
  cr_assert_eq(rc, 0, "hash %s", dir);
  return hex;
}

TEST_HELPER size_t count_entries(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* Is a staging directory left in root? */
TEST_HELPER bool has_tmp(const char *root) {
  DIR *d = opendir(root);
  if (!d)
    return false;
  bool found = false;
  struct dirent *e;
  while ((e = readdir(d)))
    found |= strncmp(e->d_name, UPK_TMP_PREFIX, strlen(UPK_TMP_PREFIX)) == 0;
  closedir(d);
  return found;
}

TEST_HELPER bool has_code(const upk_diags *d, const char *code) {
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].code && strcmp(d->items[i].code, code) == 0)
      return true;
  return false;
}

TEST_HELPER const char *first_msg(const upk_diags *d) {
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].severity == UPK_SEV_ERROR)
      return d->items[i].message;
  return "(no error)";
}

/* The manifest of a skills directory, in the state directory (XDG_STATE_HOME: tests/meson.build).
 */
TEST_HELPER char *manifest_path(const char *root) {
  return keep(upk_install_manifest_path(root, NULL));
}

TEST_HELPER json_t *manifest(const char *root) {
  json_error_t err;
  json_t *m = json_load_file(manifest_path(root), 0, &err);
  cr_assert_not_null(m, "manifest of %s: %s", root, err.text);
  return m;
}

/* A new reference to the manifest entry of name (NULL when absent). */
TEST_HELPER json_t *manifest_entry(const char *root, const char *name) {
  json_t *m = manifest(root);
  json_t *e = json_incref(json_object_get(json_object_get(m, "skills"), name));
  json_decref(m);
  return e;
}

static const char *agent_list[1];

TEST_HELPER upk_install_req path_req(const char *root, const char *from, const char *agent,
                                     bool force) {
  agent_list[0] = agent;
  upk_install_req rq = {.from_path = from,
                        .agents = agent ? agent_list : NULL,
                        .n_agents = agent ? 1 : 0,
                        .scope = UPK_SCOPE_PROJECT,
                        .project_root = root,
                        .force = force};
  return rq;
}

TEST_HELPER upk_install_req inline_req(const char *root, const char *md,
                                       const upk_install_file *files, size_t n, const char *agent) {
  upk_install_req rq = path_req(root, NULL, agent, false);
  rq.markdown = md;
  rq.markdown_len = md ? strlen(md) : 0;
  rq.files = files;
  rq.n_files = n;
  return rq;
}

TEST_HELPER int install_path(const char *root, const char *from, const char *agent, bool force,
                             upk_install_result *res) {
  upk_install_req rq = path_req(root, from, agent, force);
  return upk_install(&rq, res);
}

#endif
