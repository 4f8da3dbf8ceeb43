/* A skill's files for the extension's manifest (catalog.h): found with one fstatat each, their
 * digests taken once per file version and kept in a bounded cache keyed by what stat says.
 * Listing a page of skills then costs a readdir and a stat per file, not a read and a hash:
 * at 40,000 skills, reading every file again made each 667-skill page 55-100 ms. */
#include "skills/catalog_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "common/sha256.h"
#include "common/xalloc.h"

/* One file version: an inode, and what changes when it is written (size, mtime, ctime). */
typedef struct slot {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
  unsigned char digest[32];
  char *frontmatter; /* SKILL.md only: its frontmatter as compact JSON, else NULL */
  bool used;
} slot;

struct upk_catalog_cache {
  slot *slots;
  size_t cap, used; /* cap: a power of two; emptied when three quarters full */
};

upk_catalog_cache *upk_catalog_cache_new(size_t max_files) {
  upk_catalog_cache *c = upk_xcalloc(1, sizeof *c);
  size_t cap = upk_pow2_at_least(max_files + max_files / 3, 1024);
  if (c && !(c->slots = upk_xcalloc(cap, sizeof *c->slots)))
    return free(c), NULL;
  if (c)
    c->cap = cap;
  return c;
}

static void cache_clear(upk_catalog_cache *c) {
  for (size_t i = 0; i < c->cap; i++)
    free(c->slots[i].frontmatter);
  memset(c->slots, 0, c->cap * sizeof *c->slots);
  c->used = 0;
}

void upk_catalog_cache_free(upk_catalog_cache *c) {
  if (!c)
    return;
  cache_clear(c);
  free(c->slots);
  free(c);
}

static bool same_version(const slot *s, const struct stat *st) {
  return s->size == st->st_size && s->mtime.tv_sec == st->st_mtim.tv_sec &&
         s->mtime.tv_nsec == st->st_mtim.tv_nsec && s->ctime.tv_sec == st->st_ctim.tv_sec &&
         s->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* The slot of this inode (found, or where it goes): linear probing on a mixed key. */
static slot *cache_slot(upk_catalog_cache *c, const struct stat *st) {
  uint64_t h = ((uint64_t)st->st_ino * 0x9E3779B97F4A7C15u) ^ (uint64_t)st->st_dev;
  for (size_t i = (size_t)(h >> 17) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
    slot *s = &c->slots[i];
    if (!s->used || (s->ino == st->st_ino && s->dev == st->st_dev))
      return s;
  }
}

/* A cached digest (and frontmatter) for this file version, or NULL. */
static slot *cache_find(upk_catalog_cache *c, const struct stat *st) {
  slot *s = c ? cache_slot(c, st) : NULL;
  return s && s->used && same_version(s, st) ? s : NULL;
}

static void cache_put(upk_catalog_cache *c, const struct stat *st, const unsigned char md[32],
                      const char *frontmatter) {
  if (!c)
    return;
  if (c->used + 1 > c->cap / 4 * 3)
    cache_clear(c); /* bounded: past the budget, start again (a cold page costs ~2x) */
  slot *s = cache_slot(c, st);
  if (!s->used)
    c->used++;
  free(s->frontmatter);
  *s = (slot){st->st_dev, st->st_ino, st->st_size, st->st_mtim, st->st_ctim, {0}, NULL, true};
  memcpy(s->digest, md, 32);
  s->frontmatter = frontmatter ? upk_xstrdup(frontmatter) : NULL;
}

/* ---- the walk ---- */

static int add_file(upk_catalog_files *f, const char *rel, const struct stat *st) {
  UPK_GROW(f->items, f->cap, f->n + 1);
  f->items[f->n].rel = upk_xstrdup(rel);
  f->items[f->n++].st = *st;
  f->bytes += (size_t)st->st_size;
  return f->n > UPK_CATALOG_MAX_FILES || f->bytes > UPK_CATALOG_MAX_BYTES ? -EFBIG : 0;
}

/* Regular files of the directory d, as upk_tree_load sees a skill: symlinks, special files
 * and .git left out, directories entered without following links. One directory stream per
 * directory, its fd used for the stats (no dup: a readdir and a stat per file is the cost of
 * a page). */
static int walk(DIR *d, const char *prefix, unsigned depth, upk_catalog_files *f) {
  int rc = 0, dfd = dirfd(d);
  struct dirent *e;
  char rel[4096];
  while (!rc && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
      continue;
    struct stat st;
    if ((size_t)snprintf(rel, sizeof rel, "%s%s", prefix, e->d_name) >= sizeof rel - 1 ||
        fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
      continue;
    if (S_ISREG(st.st_mode)) {
      rc = add_file(f, rel, &st);
    } else if (S_ISDIR(st.st_mode) && depth + 1 < UPK_TREE_MAX_DEPTH) {
      int fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      DIR *sub = fd < 0 ? NULL : fdopendir(fd);
      if (!sub && fd >= 0)
        close(fd);
      /* the length check above kept room for the slash */
      memcpy(rel + strlen(rel), "/", 2);
      rc = sub ? walk(sub, rel, depth + 1, f) : 0; /* vanished meanwhile: not part of it */
      if (sub)
        closedir(sub);
    }
  }
  return rc;
}

static int by_rel(const void *a, const void *b) {
  return strcmp(((const upk_catalog_file *)a)->rel, ((const upk_catalog_file *)b)->rel);
}

void upk_catalog_files_free(upk_catalog_files *f) {
  for (size_t i = 0; i < f->n; i++)
    free(f->items[i].rel);
  free(f->items);
  if (f->dir)
    closedir(f->dir); /* closes dfd */
  memset(f, 0, sizeof *f);
  f->dfd = -1;
}

int upk_catalog_files_list(const char *dir, upk_catalog_files *f) {
  memset(f, 0, sizeof *f);
  f->dfd = -1;
  int dfd = upk_open_beneath(dir, NULL, false);
  if (dfd < 0)
    return dfd;
  if (!(f->dir = fdopendir(dfd)))
    return close(dfd), -errno;
  f->dfd = dfd;
  int rc = walk(f->dir, "", 0, f);
  if (!rc)
    qsort(f->items, f->n, sizeof *f->items, by_rel);
  return rc;
}

int upk_catalog_read_at(int dfd, const char *rel, size_t max, char **data, size_t *len) {
  /* common/fileio.h's one reader: no link on the way or at the end, no FIFO, capped. */
  return upk_rel_path_ok(rel) ? upk_read_beneath_at(dfd, rel, max, data, len) : -ENOENT;
}

int upk_catalog_file_digest(upk_catalog_cache *c, const upk_catalog_files *f, size_t i,
                            unsigned char md[32], char **frontmatter, char **text, size_t *len) {
  const slot *s = cache_find(c, &f->items[i].st);
  if (s && (!frontmatter || s->frontmatter)) {
    memcpy(md, s->digest, 32);
    if (frontmatter)
      *frontmatter = upk_xstrdup(s->frontmatter);
    return frontmatter && !*frontmatter ? -ENOMEM : 0;
  }
  char *data = NULL;
  size_t n = 0;
  int rc = upk_catalog_read_at(f->dfd, f->items[i].rel, UPK_CATALOG_MAX_BYTES, &data, &n);
  if (!rc)
    rc = upk_sha256(data, n, md);
  if (!rc && text) { /* the caller reads SKILL.md's frontmatter from it, then caches that */
    *text = data;
    *len = n;
    return 0;
  }
  if (!rc)
    cache_put(c, &f->items[i].st, md, NULL);
  free(data);
  return rc;
}

void upk_catalog_cache_frontmatter(upk_catalog_cache *c, const upk_catalog_files *f, size_t i,
                                   const unsigned char md[32], const char *frontmatter) {
  cache_put(c, &f->items[i].st, md, frontmatter);
}
