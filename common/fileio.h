/** Whole small files into memory, and whole buffers out to an fd: the one reader and writer
 * the daemon's parts and the worker share. */
#ifndef UPK_FILEIO_H
#define UPK_FILEIO_H

#include <stddef.h>

/** Read `path` whole, NUL-terminated (binary content is fine: use *len).
 * Returns NULL with errno set when it cannot be read or is over `max` bytes
 * (errno EFBIG). The caller frees. */
char *upk_read_file(const char *path, size_t max, size_t *len);

/** Write all `n` bytes to `fd` (retrying short writes and EINTR). 0, or -errno (-EPIPE when
 * the fd takes no more). */
int upk_write_all(int fd, const void *p, size_t n);

#endif
