#include "common/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
