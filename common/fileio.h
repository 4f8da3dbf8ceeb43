/** Whole files in and out: the one reader, the one atomic writer and the one mkdir -p that
 * every part (and the worker) shares; and where the running executable lies. */
#ifndef UPK_FILEIO_H
#define UPK_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** Read `path` whole, NUL-terminated (binary content is fine: use *len).
 * Returns NULL with errno set when it cannot be read or is over `max` bytes
 * (errno EFBIG). The caller frees. */
char *upk_read_file(const char *path, size_t max, size_t *len);

/** Read a regular file (not through a symlink) of at most max bytes; the
 * result is NUL-terminated. -EFBIG when larger. */
int upk_read_file_at(int dfd, const char *name, size_t max, char **out, size_t *len);

/** Write all `n` bytes to `fd` (retrying short writes and EINTR). 0, or -errno (-EPIPE when
 * the fd takes no more). */
int upk_write_all(int fd, const void *p, size_t n);

/** mkdir -p: create `path` and each missing parent with `mode` (following symlinks: for
 * trusted paths only). Returns 0 or a negative errno. */
int upk_mkdir_p(const char *path, mode_t mode);

/** fsync a directory fd; file systems that cannot sync directories are fine. 0 or -errno. */
int upk_fsync_dir(int dfd);

/** Write a file atomically: a fresh temporary "<path>.tmp.XXXXXX" in the same directory,
 * written (fault point "fs.write" halfway), fsync'd, mode 0644, renamed over path (fault point
 * "fs.rename" first), the directory fsync'd. The temporary never outlives a failure.
 * Returns 0 or -errno. */
int upk_write_file_atomic(const char *path, const void *data, size_t len);

/** The same with a temporary of the caller's choosing, created or truncated (a name a caller
 * can recognise and sweep after a crash, such as "<path>.<pid>.tmp"), and the fault point
 * `rename_fault` (NULL: none) before the rename instead of "fs.rename". */
int upk_write_file_via(const char *path, const char *tmp, const char *rename_fault,
                       const void *data, size_t len);

/** The directory the running program's executable is in (/proc/self/exe less its last
 * component) into buf (len > 0). false, with buf "", when the link cannot be read. */
bool upk_exe_dir(char *buf, size_t len);

#endif
