/* File-system helpers for the installer; see fsutil.h. */
#include "skills/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fault.h"
#include "common/fileio.h"
#include "common/sha256.h"
#include "common/xalloc.h"

#define REL_MAX 4096u
#define RM_MAX_DEPTH 256u

int upk_fs_diag(upk_diags *diags, upk_severity sev, const char *code, const char *file,
                const char *fmt, ...) {
  if (!diags)
    return 0;
  upk_range whole = {-1, 0, -1, 0};
  va_list ap;
  va_start(ap, fmt);
  int rc = upk_diags_vadd(diags, sev, code, "upskilld-install", whole, fmt, ap);
  va_end(ap);
  if (rc < 0)
    return -ENOMEM;
  if (file)
    diags->items[diags->len - 1].file = upk_xstrdup(file);
  return 0;
}

int upk_open_subdir(int dfd, const char *name) {
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

DIR *upk_opendir_at(int dfd) {
  int fd = dup(dfd);
  DIR *dir = fd < 0 ? NULL : fdopendir(fd);
  if (!dir && fd >= 0) {
    int e = errno;
    close(fd);
    errno = e;
  }
  if (dir)
    rewinddir(dir); /* a dup shares the offset an earlier listing of dfd moved */
  return dir;
}

/* One step of a walk: open dfd/name, creating it first when asked. */
static int open_step(int dfd, const char *name, bool create) {
  int fd = upk_open_subdir(dfd, name);
  if (fd != -ENOENT || !create)
    return fd;
  int rc = upk_fault("fs.mkdir");
  if (rc < 0 || (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST))
    return rc < 0 ? rc : -errno;
  rc = upk_fsync_dir(dfd); /* the new entry must survive a crash */
  return rc < 0 ? rc : upk_open_subdir(dfd, name);
}

int upk_open_beneath(const char *base, const char *rel, bool create) {
  int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  char comp[256];
  for (const char *p = rel ? rel : ""; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0) {
      p++;
      continue;
    }
    if (n >= sizeof comp || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
      close(fd);
      return n >= sizeof comp ? -ENAMETOOLONG : -EINVAL;
    }
    memcpy(comp, p, n);
    comp[n] = 0;
    p += n;
    int next = open_step(fd, comp, create);
    close(fd);
    if (next < 0)
      return next;
    fd = next;
  }
  return fd;
}

bool upk_rel_path_ok(const char *rel) {
  if (!rel || !*rel || rel[0] == '/' || strlen(rel) >= REL_MAX || strchr(rel, '\\'))
    return false;
  unsigned depth = 0;
  for (const char *p = rel; *p;) {
    size_t n = strcspn(p, "/");
    bool dots = (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.');
    if (n == 0 || n > 255 || dots || ++depth > UPK_TREE_MAX_DEPTH)
      return false;
    p += n;
    if (*p == '/' && !*++p)
      return false; /* trailing slash: not a file */
  }
  return true;
}

int upk_tree_add(upk_tree *t, const char *rel, const void *data, size_t len, bool exec) {
  UPK_GROW(t->files, t->cap, t->n + 1);
  upk_tree_file *f = &t->files[t->n];
  f->rel = upk_xstrdup(rel);
  f->data = upk_xmalloc(len);
  if (len)
    memcpy(f->data, data, len);
  f->len = len;
  f->exec = exec;
  t->n++;
  t->bytes += len;
  return 0;
}

static int join_rel(char *dst, const char *prefix, const char *name) {
  int n =
      prefix ? snprintf(dst, REL_MAX, "%s/%s", prefix, name) : snprintf(dst, REL_MAX, "%s", name);
  return n < 0 || (size_t)n >= REL_MAX ? -ENAMETOOLONG : 0;
}

static int load_dir(int dfd, const char *prefix, unsigned depth, upk_tree *t, upk_diags *d);

/* Report a file that could not be read (once, where it happened). */
static int unreadable(upk_diags *d, const char *rel, int err) {
  if (err == -ENOMEM)
    return err;
  upk_fs_diag(d, UPK_SEV_ERROR, "install/unreadable", rel, "cannot read '%s': %s", rel,
              strerror(-err));
  return err;
}

/* Load one entry of a directory into the tree, or skip it with a reason. */
static int load_entry(int dfd, const char *name, const char *rel, unsigned depth, upk_tree *t,
                      upk_diags *d) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return unreadable(d, rel, -errno);
  if (S_ISLNK(st.st_mode))
    return upk_fs_diag(d, UPK_SEV_WARNING, "install/symlink-skipped", rel,
                       "'%s' is a symbolic link; it is not copied", rel);
  if (S_ISDIR(st.st_mode)) {
    if (strcmp(name, ".git") == 0)
      return 0; /* version control, not part of the skill */
    if (depth + 1 >= UPK_TREE_MAX_DEPTH) {
      upk_fs_diag(d, UPK_SEV_ERROR, "install/too-deep", rel, "'%s' is nested deeper than %u levels",
                  rel, UPK_TREE_MAX_DEPTH);
      return -EFBIG;
    }
    int sub = upk_open_subdir(dfd, name);
    if (sub < 0)
      return unreadable(d, rel, sub);
    int rc = load_dir(sub, rel, depth + 1, t, d);
    close(sub);
    return rc;
  }
  if (!S_ISREG(st.st_mode))
    return upk_fs_diag(d, UPK_SEV_WARNING, "install/special-file-skipped", rel,
                       "'%s' is not a regular file or directory; it is not copied", rel);
  if (t->n >= UPK_TREE_MAX_FILES || t->bytes + (size_t)st.st_size > UPK_TREE_MAX_BYTES) {
    upk_fs_diag(d, UPK_SEV_ERROR, "install/too-large", rel,
                "the skill has more than %u files or %u MiB; refusing to copy it",
                UPK_TREE_MAX_FILES, UPK_TREE_MAX_BYTES >> 20);
    return -EFBIG;
  }
  char *data;
  size_t len;
  int rc = upk_read_file_at(dfd, name, UPK_TREE_MAX_BYTES - t->bytes, &data, &len);
  if (rc < 0)
    return unreadable(d, rel, rc);
  rc = upk_tree_add(t, rel, data, len, (st.st_mode & 0111) != 0);
  free(data);
  return rc;
}

static int load_dir(int dfd, const char *prefix, unsigned depth, upk_tree *t, upk_diags *d) {
  int fd = dup(dfd);
  DIR *dir = fd < 0 ? NULL : fdopendir(fd);
  if (!dir) {
    int rc = -errno;
    if (fd >= 0)
      close(fd);
    return rc;
  }
  int rc = 0;
  char *rel = upk_xmalloc(REL_MAX);
  struct dirent *e;
  while (!rc && (errno = 0, e = readdir(dir))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    rc = join_rel(rel, prefix, e->d_name);
    if (!rc)
      rc = load_entry(dfd, e->d_name, rel, depth, t, d);
  }
  if (!rc && errno)
    rc = -errno;
  free(rel);
  closedir(dir);
  return rc;
}

int upk_tree_load(int dfd, upk_tree *t, upk_diags *d) {
  return load_dir(dfd, NULL, 0, t, d);
}

static int cmp_file(const void *a, const void *b) {
  return strcmp(((const upk_tree_file *)a)->rel, ((const upk_tree_file *)b)->rel);
}

static bool has_path(const upk_tree *t, const char *rel) {
  upk_tree_file key = {.rel = (char *)rel};
  return bsearch(&key, t->files, t->n, sizeof key, cmp_file) != NULL;
}

int upk_tree_check(upk_tree *t, const char **bad) {
  if (t->n)
    qsort(t->files, t->n, sizeof *t->files, cmp_file);
  char prefix[REL_MAX];
  for (size_t i = 0; i < t->n; i++) {
    *bad = t->files[i].rel;
    if (i + 1 < t->n && strcmp(t->files[i].rel, t->files[i + 1].rel) == 0)
      return -EEXIST;
    /* Every parent directory of this file must not also be a file. */
    for (const char *s = strchr(*bad, '/'); s; s = strchr(s + 1, '/')) {
      memcpy(prefix, *bad, (size_t)(s - *bad));
      prefix[s - *bad] = 0;
      if (has_path(t, prefix))
        return -ENOTDIR;
    }
  }
  *bad = NULL;
  return 0;
}

static void put_be64(unsigned char *b, uint64_t v) {
  for (int i = 7; i >= 0; i--, v >>= 8)
    b[i] = (unsigned char)v;
}

int upk_tree_hash(upk_tree *t, char hex[65]) {
  if (t->n)
    qsort(t->files, t->n, sizeof *t->files, cmp_file);
  upk_sha256_ctx c;
  int rc = upk_sha256_init(&c);
  for (size_t i = 0; !rc && i < t->n; i++) {
    const upk_tree_file *f = &t->files[i];
    unsigned char head[10] = {0, f->exec ? 'x' : '-'};
    put_be64(head + 2, f->len);
    if ((rc = upk_sha256_update(&c, f->rel, strlen(f->rel))) ||
        (rc = upk_sha256_update(&c, head, sizeof head)) ||
        (rc = upk_sha256_update(&c, f->data, f->len)))
      upk_sha256_abort(&c);
  }
  unsigned char md[32];
  if (rc || (rc = upk_sha256_final(&c, md)))
    return rc;
  for (unsigned i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
  return 0;
}

/* Write in two halves with the fault point "fs.write" between them, so that an injected
 * crash leaves a half-written file and an injected ENOSPC fails midway, as a real one would. */
static int write_halves(int fd, const char *data, size_t len) {
  size_t half = len / 2;
  int rc = upk_write_all(fd, data, half);
  if (!rc)
    rc = upk_fault("fs.write");
  return rc ? rc : upk_write_all(fd, data + half, len - half);
}

/* Create, fill and fsync one file; O_EXCL|O_NOFOLLOW so nothing that is
 * already there (a planted symlink included) is ever written through. */
static int write_new(int dfd, const char *name, const char *data, size_t len, mode_t mode,
                     int flags) {
  int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, mode);
  if (fd < 0)
    return -errno;
  int rc = fchmod(fd, mode) < 0 ? -errno : 0; /* the exact mode, whatever the umask */
  if (!rc)
    rc = write_halves(fd, data, len);
  if (!rc && fsync(fd) < 0)
    rc = -errno;
  if (close(fd) < 0 && !rc)
    rc = -errno;
  return rc;
}

int upk_write_file_at(int dfd, const char *name, const void *data, size_t len, mode_t mode) {
  return write_new(dfd, name, data, len, mode, O_TRUNC);
}

/* Write f[0..n), which all share their first `skip` bytes of path, into dfd.
 * Sorted paths keep each subdirectory's files together. */
static int write_level(int dfd, const upk_tree_file *f, size_t n, size_t skip) {
  char comp[256];
  for (size_t i = 0; i < n;) {
    const char *rest = f[i].rel + skip;
    const char *slash = strchr(rest, '/');
    if (!slash) {
      int rc = write_new(dfd, rest, f[i].data, f[i].len, f[i].exec ? 0755 : 0644, O_EXCL);
      if (rc < 0)
        return rc;
      i++;
      continue;
    }
    size_t cl = (size_t)(slash - rest), j = i + 1;
    while (j < n && strncmp(f[j].rel + skip, rest, cl + 1) == 0)
      j++;
    if (cl >= sizeof comp)
      return -ENAMETOOLONG;
    memcpy(comp, rest, cl);
    comp[cl] = 0;
    if (mkdirat(dfd, comp, 0755) < 0 && errno != EEXIST)
      return -errno;
    int sub = upk_open_subdir(dfd, comp);
    if (sub < 0)
      return sub;
    int rc = write_level(sub, f + i, j - i, skip + cl + 1);
    if (!rc)
      rc = upk_fsync_dir(sub);
    close(sub);
    if (rc < 0)
      return rc;
    i = j;
  }
  return 0;
}

int upk_tree_write(int dfd, const upk_tree *t) {
  int rc = write_level(dfd, t->files, t->n, 0);
  return rc < 0 ? rc : upk_fsync_dir(dfd);
}

void upk_tree_free(upk_tree *t) {
  for (size_t i = 0; i < t->n; i++) {
    free(t->files[i].rel);
    free(t->files[i].data);
  }
  free(t->files);
  memset(t, 0, sizeof *t);
}

static int rm_entry(int dfd, const char *name, unsigned depth);

static int rm_children(int sub, unsigned depth) {
  DIR *dir = fdopendir(sub);
  if (!dir) {
    int rc = -errno;
    close(sub);
    return rc;
  }
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(dir)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      rc = rm_entry(dirfd(dir), e->d_name, depth + 1);
  closedir(dir);
  return rc;
}

static int rm_entry(int dfd, const char *name, unsigned depth) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? 0 : -errno;
  int rc = upk_fault("fs.unlink");
  if (rc < 0)
    return rc;
  if (!S_ISDIR(st.st_mode))
    return unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
  if (depth > RM_MAX_DEPTH)
    return -ELOOP;
  int sub = upk_open_subdir(dfd, name);
  if (sub < 0)
    return sub;
  rc = rm_children(sub, depth);
  if (!rc && unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
    rc = -errno;
  return rc;
}

int upk_rmtree_at(int dfd, const char *name) {
  return rm_entry(dfd, name, 0);
}
