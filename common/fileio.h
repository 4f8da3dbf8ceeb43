/** Whole small files into memory: the one reader the kernel stages share. */
#ifndef UPK_FILEIO_H
#define UPK_FILEIO_H

#include <stddef.h>

/** Read `path` whole, NUL-terminated (binary content is fine: use *len).
 * Returns NULL with errno set when it cannot be read or is over `max` bytes
 * (errno EFBIG). The caller frees. */
char *upk_read_file(const char *path, size_t max, size_t *len);

#endif
