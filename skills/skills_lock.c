/* The project's skills-lock.json, as vercel's skills CLI writes it (skills_lock.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "skills/skills_lock.h"

#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "skills/fsutil.h"
#include "common/sha256.h"
#include "common/xalloc.h"

#define LOCK_MAX (8u << 20)
#define FILE_MAX (64u << 20)

/* ---- ordering: the root collation's order for what file names hold ---- */

/* Symbols sort before digits, digits before letters; within symbols, CLDR root's order. */
static const char SYMBOLS[] = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

static int primary(unsigned char c) {
  const char *p = c ? strchr(SYMBOLS, c) : NULL;
  if (p)
    return (int)(p - SYMBOLS);
  if (isdigit(c))
    return 100 + (c - '0');
  if (isalpha(c))
    return 200 + (tolower(c) - 'a');
  return 300 + c; /* anything else (UTF-8 bytes): after, in byte order */
}

int upk_skills_lock_collate(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  size_t i = 0;
  for (; x[i] && y[i]; i++) {
    int d = primary(x[i]) - primary(y[i]);
    if (d)
      return d;
  }
  if (x[i] || y[i])
    return x[i] ? 1 : -1;
  for (i = 0; x[i]; i++) /* the same but for case: lower case first */
    if (x[i] != y[i])
      return islower(x[i]) ? -1 : 1;
  return 0;
}

/* ---- the hash ---- */

typedef struct files {
  char **rel;
  size_t len, cap;
} files;

static int add(files *f, const char *rel) {
  UPK_GROW(f->rel, f->cap, f->len + 1);
  f->rel[f->len++] = upk_xstrdup(rel);
  return 0;
}

/* Every regular file below dir/rel (no symbolic links, not .git or node_modules). */
static int collect(const char *dir, const char *rel, files *f, int depth) {
  if (depth > 32)
    return -ELOOP;
  char *path = upk_xasprintf("%s%s%s", dir, *rel ? "/" : "", rel);
  DIR *d = opendir(path);
  int rc = d ? 0 : -errno;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git") ||
        !strcmp(e->d_name, "node_modules"))
      continue;
    char *sub = upk_xasprintf("%s%s%s", rel, *rel ? "/" : "", e->d_name);
    char *full = upk_xasprintf("%s/%s", path, e->d_name);
    struct stat st;
    if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode))
      rc = collect(dir, sub, f, depth + 1);
    else if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
      rc = add(f, sub);
    free(sub);
    free(full);
  }
  if (d)
    closedir(d);
  free(path);
  return rc;
}

static int by_collation(const void *a, const void *b) {
  return upk_skills_lock_collate(*(char *const *)a, *(char *const *)b);
}

static int hash_files(const char *dir, files *f, char hex[65]) {
  upk_sha256_ctx c;
  int rc = upk_sha256_init(&c);
  for (size_t i = 0; !rc && i < f->len; i++) {
    char *data = NULL;
    size_t len = 0;
    /* collect() saw a regular file; read it so that a swap for a link or a FIFO since is
     * refused, not followed or waited on. */
    rc = upk_read_beneath(dir, f->rel[i], FILE_MAX, &data, &len);
    if (!rc)
      rc = upk_sha256_update(&c, f->rel[i], strlen(f->rel[i]));
    if (!rc)
      rc = upk_sha256_update(&c, data, len);
    free(data);
  }
  unsigned char md[32];
  if (rc) {
    upk_sha256_abort(&c);
    return rc;
  }
  if ((rc = upk_sha256_final(&c, md)))
    return rc;
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
  return 0;
}

int upk_skills_lock_hash(const char *dir, char hex[65]) {
  files f = {0};
  int rc = collect(dir, "", &f, 0);
  if (!rc) {
    if (f.len)
      qsort(f.rel, f.len, sizeof *f.rel, by_collation);
    rc = hash_files(dir, &f, hex);
  }
  for (size_t i = 0; i < f.len; i++)
    free(f.rel[i]);
  free(f.rel);
  return rc;
}

/* ---- the file ---- */

static char *lock_path(const char *project) {
  return upk_xasprintf("%s/" UPK_SKILLS_LOCK_NAME, project);
}

/* A lock this version can read and rewrite; else why not, in err. */
static bool lock_ok(const json_t *lock, const char *path, char *err, size_t err_len) {
  json_t *v = json_object_get(lock, "version");
  if (!json_is_integer(v) || !json_is_object(json_object_get(lock, "skills")))
    snprintf(err, err_len, "%s: no numeric version or no skills object", path);
  else if (json_integer_value(v) > UPK_SKILLS_LOCK_VERSION)
    snprintf(err, err_len, "%s is version %lld, written by a newer tool (this one reads %d)", path,
             (long long)json_integer_value(v), UPK_SKILLS_LOCK_VERSION);
  else
    return true;
  return false;
}

json_t *upk_skills_lock_read(const char *project, char *err, size_t err_len) {
  char *path = lock_path(project), *text = NULL;
  size_t len = 0;
  /* The project's own file: not a link (out of the project or not), not a FIFO, capped. */
  int rc =
      project ? upk_read_beneath(project, UPK_SKILLS_LOCK_NAME, LOCK_MAX, &text, &len) : -ENOENT;
  json_t *lock = NULL;
  json_error_t je;
  if (rc == -ENOENT || rc == -ENOTDIR)
    lock = json_pack("{s:i,s:{}}", "version", UPK_SKILLS_LOCK_VERSION, "skills");
  else if (rc)
    snprintf(err, err_len, "%s: not read: %s", path, upk_read_error(rc));
  else if (!(lock = json_loadb(text, len, 0, &je)))
    /* Never jansson's text: it quotes the token it stopped at ("near '...'"), and the file
     * may be anything. The line and column say where. */
    snprintf(err, err_len, "%s:%d:%d: not valid JSON", path, je.line, je.column);
  else if (!lock_ok(lock, path, err, err_len)) {
    json_decref(lock);
    lock = NULL;
  }
  free(text);
  free(path);
  return lock;
}

int upk_skills_lock_set(const char *project, const char *name, json_t *entry, char *err,
                        size_t err_len) {
  json_t *lock = upk_skills_lock_read(project, err, err_len);
  if (!lock) {
    json_decref(entry);
    return -EINVAL;
  }
  json_object_set_new(lock, "version", json_integer(UPK_SKILLS_LOCK_VERSION));
  if (entry)
    json_object_set_new(json_object_get(lock, "skills"), name, entry);
  else
    json_object_del(json_object_get(lock, "skills"), name);
  char *text = json_dumps(lock, JSON_INDENT(2) | JSON_SORT_KEYS), *path = lock_path(project);
  char *full = text ? upk_xasprintf("%s\n", text) : NULL;
  int rc = full ? 0 : -ENOMEM;
  if (!rc)
    rc = upk_write_file_atomic(path, full, strlen(full));
  if (rc)
    snprintf(err, err_len, "cannot write %s: %s", path ? path : UPK_SKILLS_LOCK_NAME,
             strerror(-rc));
  free(full);
  free(text);
  free(path);
  json_decref(lock);
  return rc;
}
