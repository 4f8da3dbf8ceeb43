#include "common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fault.h"
#include "common/xalloc.h"

char *upk_read_file(const char *path, size_t max, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  struct stat st;
  char *buf = NULL;
  if (fstat(fileno(f), &st) != 0)
    buf = NULL;
  else if ((size_t)st.st_size > max)
    errno = EFBIG;
  else if ((buf = malloc((size_t)st.st_size + 1))) {
    *len = fread(buf, 1, (size_t)st.st_size, f);
    buf[*len] = '\0';
  }
  fclose(f);
  return buf;
}

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

int upk_read_file_at(int dfd, const char *name, size_t max, char **out, size_t *len) {
  /* O_NONBLOCK: if a FIFO is swapped in after our stat, do not hang on it. */
  int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return -errno;
  struct stat st;
  int rc = fstat(fd, &st) < 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
  if (!rc && (size_t)st.st_size > max)
    rc = -EFBIG;
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
