#include "common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/fault.h"
#include "common/xalloc.h"

/* ---- reading: one loop for every reader ---- */

/* The buffer is full: the file grew after fstat, or we are at its end.
 * Returns 1 at the end, 0 after making room, or a negative errno. */
static int grow_if_more(int fd, char **buf, size_t *cap, size_t *n, size_t max) {
  char probe;
  ssize_t r;
  while ((r = read(fd, &probe, 1)) < 0 && errno == EINTR)
    ;
  if (r <= 0)
    return r < 0 ? -errno : 1;
  if (*n + 1 > max)
    return -EFBIG;
  char *p = realloc(*buf, *cap * 2);
  if (!p)
    return -ENOMEM;
  *buf = p;
  *cap *= 2;
  p[(*n)++] = probe;
  return 0;
}

/* Read the open fd whole (it is closed): a regular file of at most max bytes, checked with
 * fstat before a byte is read, so a FIFO, a socket or a device is never read and a 2 GiB file
 * costs nothing. A file that grows while read is capped too. */
static int read_fd(int fd, size_t max, char **out, size_t *len) {
  struct stat st;
  int rc = fstat(fd, &st) < 0         ? -errno
           : S_ISDIR(st.st_mode)      ? -EISDIR
           : !S_ISREG(st.st_mode)     ? -EINVAL
           : (size_t)st.st_size > max ? -EFBIG
                                      : 0;
  size_t cap = rc ? 0 : (size_t)st.st_size + 1, n = 0;
  char *buf = rc ? NULL : malloc(cap);
  if (!rc && !buf)
    rc = -ENOMEM;
  while (!rc) {
    rc = n + 1 == cap ? grow_if_more(fd, &buf, &cap, &n, max) : 0;
    if (rc)
      break;
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      rc = r < 0 ? -errno : 0;
      break;
    }
    n += (size_t)r;
  }
  rc = rc == 1 ? 0 : rc;
  close(fd);
  if (rc) {
    free(buf);
    return rc;
  }
  buf[n] = 0;
  *out = buf;
  *len = n;
  return 0;
}

/* O_NONBLOCK: opening a FIFO for reading waits for a writer; non-blocking, it returns at once
 * and fstat refuses it (a regular file reads the same either way). O_NOCTTY: a terminal named
 * in a file's place never becomes ours. */
#define READ_FLAGS (O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

char *upk_read_file(const char *path, size_t max, size_t *len) {
  *len = 0;
  char *out = NULL;
  int fd = open(path, READ_FLAGS);
  int rc = fd < 0 ? -errno : read_fd(fd, max, &out, len);
  if (rc) {
    errno = -rc;
    return NULL;
  }
  return out;
}

int upk_read_file_at(int dfd, const char *name, size_t max, char **out, size_t *len) {
  int fd = openat(dfd, name, READ_FLAGS | O_NOFOLLOW);
  return fd < 0 ? -errno : read_fd(fd, max, out, len);
}

/* ---- beneath a root ---- */

/* Whether `rel` names something beneath its root at all: not absolute, no ".." component. */
static bool rel_ok(const char *rel) {
  if (*rel == '/')
    return false;
  for (const char *p = rel; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      return false;
    p += n;
    p += *p == '/';
  }
  return true;
}

/* The fallback where openat2 is missing (Linux before 5.6, some seccomp filters): one component
 * at a time, each opened without following a link; a directory on the way that is a link is
 * -ELOOP, as openat2's RESOLVE_NO_SYMLINKS says. `rel` passed rel_ok. */
static int walk_beneath(int rootfd, const char *rel) {
  int cur = rootfd, fd = -EISDIR; /* no component: the root itself */
  char name[NAME_MAX + 1];
  for (const char *p = rel;;) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    size_t n = strcspn(p, "/");
    if (n > NAME_MAX) {
      fd = -ENAMETOOLONG;
      break;
    }
    memcpy(name, p, n);
    name[n] = 0;
    for (p += n; *p == '/'; p++)
      ;
    bool last = !*p;
    if (!strcmp(name, ".")) {
      if (last)
        break;
      continue;
    }
    int next = openat(cur, name, last ? READ_FLAGS | O_NOFOLLOW : O_PATH | O_NOFOLLOW | O_CLOEXEC);
    int err = next < 0 ? errno : 0;
    struct stat st;
    if (next >= 0 && !last && (fstat(next, &st) || !S_ISDIR(st.st_mode))) {
      err = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
      close(next);
      next = -1;
    }
    if (cur != rootfd)
      close(cur);
    cur = next < 0 ? rootfd : next;
    if (next < 0 || last) {
      fd = next < 0 ? -err : next;
      cur = rootfd;
      break;
    }
  }
  if (cur != rootfd)
    close(cur);
  return fd;
}

/* 1: openat2 works here; 0: not tried yet; -1: the kernel (or a seccomp filter) lacks it. */
static _Atomic int have_openat2;

static int openat2_beneath(int rootfd, const char *rel) {
  struct open_how how = {
      .flags = READ_FLAGS,
      .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
  };
  long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof how);
  return fd < 0 ? -errno : (int)fd;
}

int upk_open_file_beneath(int rootfd, const char *rel) {
  if (!rel_ok(rel))
    return -EXDEV;
  /* The fault point stands for a kernel without openat2: the tests run the walk with it. */
  if (have_openat2 >= 0 && upk_fault("fs.openat2") == 0) {
    int fd = openat2_beneath(rootfd, *rel ? rel : ".");
    if (fd != -ENOSYS && fd != -EPERM && fd != -E2BIG) {
      have_openat2 = 1;
      return fd;
    }
    if (have_openat2 == 0)
      have_openat2 = -1;
  }
  return walk_beneath(rootfd, rel);
}

int upk_read_beneath_at(int rootfd, const char *rel, size_t max, char **out, size_t *len) {
  int fd = upk_open_file_beneath(rootfd, rel);
  return fd < 0 ? fd : read_fd(fd, max, out, len);
}

/* `path` under `root` (an absolute path whose first components are root's, or one relative to
 * root) as a path relative to root; NULL when it lies elsewhere. */
static const char *under(const char *root, const char *path) {
  if (*path != '/')
    return path;
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/')
    n--;
  if (n == 1 && root[0] == '/')
    return path + 1;
  if (strncmp(path, root, n) || (path[n] && path[n] != '/'))
    return NULL;
  return path + n + (path[n] == '/');
}

const char *upk_beneath_rel(const char *root, const char *path, char *real, size_t len) {
  const char *rel = under(root, path);
  if (rel || *path != '/' || len < PATH_MAX)
    return rel;
  /* The root as the caller spelled it may hold a link (/tmp -> /private/tmp); its real path
   * may be how the client spelled the file. */
  char *r = realpath(root, NULL);
  if (r && strlen(r) < len) {
    memcpy(real, r, strlen(r) + 1);
    rel = under(real, path);
  }
  free(r);
  return rel;
}

int upk_read_beneath(const char *root, const char *path, size_t max, char **out, size_t *len) {
  char real[PATH_MAX];
  const char *rel = upk_beneath_rel(root, path, real, sizeof real);
  if (!rel)
    return -EXDEV;
  int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC); /* followed: the caller's */
  if (rootfd < 0)
    return -errno;
  int rc = upk_read_beneath_at(rootfd, rel, max, out, len);
  close(rootfd);
  return rc;
}

int upk_read_in_dir(const char *path, size_t max, char **out, size_t *len) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return upk_read_beneath(".", path, max, out, len);
  char *dir = upk_xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
  int rc = upk_read_beneath(dir, slash + 1, max, out, len);
  free(dir);
  return rc;
}

const char *upk_read_error(int rc) {
  switch (rc) {
  case -ELOOP:
    return "a symbolic link (links are not followed here)";
  case -EXDEV:
    return "outside the directory it must be in";
  case -EINVAL:
    return "not a regular file (a FIFO, socket or device)";
  case -EISDIR:
    return "a directory, not a file";
  case -EFBIG:
    return "larger than the limit for this file";
  default:
    return strerror(-rc);
  }
}

int upk_write_all(int fd, const void *p, size_t n) {
  const char *b = p;
  while (n) {
    ssize_t k = write(fd, b, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return -errno;
    if (k == 0)
      return -EPIPE;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

int upk_mkdir_p(const char *path, mode_t mode) {
  char *p = upk_xstrdup(path);
  int rc = 0;
  for (char *s = p + 1; !rc; s++) {
    if (*s && *s != '/')
      continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, mode) < 0 && errno != EEXIST)
      rc = -errno;
    *s = c;
    if (!c)
      break;
  }
  free(p);
  return rc;
}

int upk_private_tmpdir(const char *what, char *buf, size_t n) {
  const char *base = getenv("TMPDIR");
  base = base && *base == '/' ? base : "/tmp";
  for (int attempt = 0; attempt < 2; attempt++) {
    if ((size_t)snprintf(buf, n, "%s/upskilld-%s-XXXXXX", base, what) >= n)
      return -ENAMETOOLONG;
    if (mkdtemp(buf))
      return 0;
    int rc = errno != ENOENT || attempt ? -errno : upk_mkdir_p(base, 0700);
    if (rc)
      return rc;
  }
  return -EIO; /* not reached: the second attempt returns */
}

int upk_fsync_dir(int dfd) {
  /* Some file systems (and tmpfs in some kernels) refuse fsync on a
   * directory; there is nothing more durable to be had there. */
  if (fsync(dfd) < 0 && errno != EINVAL && errno != EROFS)
    return -errno;
  return 0;
}

static int fsync_parent(const char *path) {
  char *copy = upk_xstrdup(path);
  int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(copy);
  if (fd < 0)
    return -errno;
  int rc = upk_fsync_dir(fd);
  close(fd);
  return rc;
}

/* Fill, fsync and close the temporary fd, then rename it over path; the temporary is
 * removed on any failure. write_fault fires halfway through the data. */
static int finish_atomic(int fd, const char *tmp, const char *path, const char *data, size_t len,
                         const char *write_fault, const char *rename_fault) {
  size_t half = write_fault ? len / 2 : len;
  int rc = upk_write_all(fd, data, half);
  if (!rc && write_fault)
    rc = upk_fault(write_fault);
  if (!rc)
    rc = upk_write_all(fd, data + half, len - half);
  if (rc == 0 && (fchmod(fd, 0644) || fsync(fd)))
    rc = -errno;
  if (close(fd) && rc == 0)
    rc = -errno;
  if (rc == 0 && rename_fault)
    rc = upk_fault(rename_fault);
  if (rc == 0 && rename(tmp, path))
    rc = -errno;
  if (rc)
    unlink(tmp);
  return rc ? rc : fsync_parent(path);
}

int upk_write_file_atomic(const char *path, const void *data, size_t len) {
  char *tmp = upk_xasprintf("%s.tmp.XXXXXX", path);
  int fd = mkostemp(tmp, O_CLOEXEC);
  int rc = fd < 0 ? -errno : finish_atomic(fd, tmp, path, data, len, "fs.write", "fs.rename");
  free(tmp);
  return rc;
}

int upk_write_file_via(const char *path, const char *tmp, const char *rename_fault,
                       const void *data, size_t len) {
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  return fd < 0 ? -errno : finish_atomic(fd, tmp, path, data, len, NULL, rename_fault);
}

bool upk_exe_dir(char *buf, size_t len) {
  ssize_t n = readlink("/proc/self/exe", buf, len - 1);
  buf[n > 0 ? n : 0] = '\0';
  char *slash = strrchr(buf, '/');
  if (slash)
    *slash = '\0';
  return n > 0;
}

void upk_path_lexical(const char *in, char out[PATH_MAX]) {
  size_t n = 0;
  out[n++] = '/';
  for (const char *p = in; *p;) {
    p += strspn(p, "/");
    size_t len = strcspn(p, "/");
    if (len == 2 && p[0] == '.' && p[1] == '.') {
      while (n > 1 && out[n - 1] != '/')
        n--;
      n -= n > 1;
    } else if (len && !(len == 1 && p[0] == '.') && n + len + 2 < PATH_MAX) {
      if (n > 1)
        out[n++] = '/';
      memcpy(out + n, p, len);
      n += len;
    }
    p += len;
  }
  out[n] = '\0';
}

bool upk_path_under(const char *path, const char *root) {
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/')
    n--;
  if (n == 1 && root[0] == '/')
    return path[0] == '/';
  return !strncmp(path, root, n) && (path[n] == '/' || path[n] == '\0');
}

int upk_check_write_path(const char *file) {
  struct stat st;
  if (!*file)
    return -ENOENT;
  if (stat(file, &st) == 0)
    return S_ISDIR(st.st_mode) ? -EISDIR : access(file, W_OK) ? -errno : 0;
  if (errno != ENOENT)
    return -errno;
  /* A new file: its directory must exist and take it (the atomic write puts a temporary
   * beside it). */
  char *dir = upk_xstrdup(file), *slash = strrchr(dir, '/');
  if (slash)
    slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
  int rc = !slash                 ? (access(".", W_OK) ? -errno : 0)
           : stat(dir, &st)       ? -errno
           : !S_ISDIR(st.st_mode) ? -ENOTDIR
           : access(dir, W_OK)    ? -errno
                                  : 0;
  free(dir);
  return rc;
}
