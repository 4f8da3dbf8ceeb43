/** Whole files in and out: the one reader, the one atomic writer and the one mkdir -p that
 * every part (and the worker) shares; and where the running executable lies. */
#ifndef UPK_FILEIO_H
#define UPK_FILEIO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Read `path` whole, NUL-terminated (binary content is fine: use *len), following links: for
 * paths the user chose (the user's config, files the daemon wrote itself). Never blocks: the
 * open is non-blocking and anything but a regular file is refused before a byte is read.
 * Returns NULL with errno set: EISDIR, EINVAL (a FIFO, socket or device), EFBIG (over `max`
 * bytes, known from fstat), or the open's error. The caller frees. */
char *upk_read_file(const char *path, size_t max, size_t *len);

/** Read the regular file `name` in the directory dfd (AT_FDCWD: the working directory), not
 * through a final link (-ELOOP), of at most max bytes; NUL-terminated, the caller frees.
 * Errors as upk_read_beneath's. Links in directories on the way are followed: for a name
 * without '/', or a path the caller trusts up to its last component. */
int upk_read_file_at(int dfd, const char *name, size_t max, char **out, size_t *len);

/** The one reader of files that come from outside: a skill's files, a project's lock and config,
 * an eval's tests, a trace, a workspace's sources.
 *
 * `root` is a directory the caller trusts (the skill, the project, the runs directory, an
 * allowed session directory); it is opened following links, since the caller chose it. `path`
 * is relative to it, or absolute and spelled under it (root as given or its real path); anything
 * else is -EXDEV before a file is touched. Below the root nothing is followed: no link at all,
 * neither the file nor a directory on the way, even one that points back inside (-ELOOP), and no
 * ".." (-EXDEV). A skill or a project that wants shared files links the whole directory, which
 * then is the root. The open is non-blocking and fstat decides before any read: a FIFO, socket or
 * device is -EINVAL, a directory -EISDIR, a file over `max` bytes -EFBIG (a 2 GiB sparse file
 * costs one fstat). On success *out is NUL-terminated (binary content is fine: use *len), and
 * the caller frees it.
 *
 * Linux >= 5.6: one openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
 * where the kernel or a seccomp filter refuses openat2 (ENOSYS, EPERM), a walk that opens each
 * component with O_NOFOLLOW gives the same answers (fault point "fs.openat2" forces the walk). */
int upk_read_beneath(const char *root, const char *path, size_t max, char **out, size_t *len);

/** The same below an open directory fd; `rel` is relative to it. */
int upk_read_beneath_at(int rootfd, const char *rel, size_t max, char **out, size_t *len);

/** Open `rel` beneath rootfd as upk_read_beneath does (O_RDONLY | O_NONBLOCK, close-on-exec),
 * without checking what it is: the fd, or a negative errno. The caller fstats it. */
int upk_open_file_beneath(int rootfd, const char *rel);

/** upk_read_beneath with the file's own directory as the root: the file itself is not a link
 * and not a FIFO; its directory is trusted as spelled (for a path the caller built from a root
 * it trusts, such as "<skill>/skill_meta.json"). */
int upk_read_in_dir(const char *path, size_t max, char **out, size_t *len);

/** `path` relative to `root` (see upk_read_beneath), or NULL when it lies elsewhere. `real`
 * (at least PATH_MAX bytes) holds root's real path when that is what matched. */
const char *upk_beneath_rel(const char *root, const char *path, char *real, size_t len);

/** Words for a reader's negative errno, for a message that names the file: "a symbolic link
 * (links are not followed here)", "not a regular file (a FIFO, socket or device)", ... */
const char *upk_read_error(int rc);

/** Write all `n` bytes to `fd` (retrying short writes and EINTR). 0, or -errno (-EPIPE when
 * the fd takes no more). */
int upk_write_all(int fd, const void *p, size_t n);

/** mkdir -p: create `path` and each missing parent with `mode` (following symlinks: for
 * trusted paths only). Returns 0 or a negative errno. */
int upk_mkdir_p(const char *path, mode_t mode);

/** A new directory of the caller's own (0700), `$TMPDIR/upskilld-WHAT-XXXXXX` (TMPDIR when it is an
 * absolute path, else /tmp), into buf of n bytes. A TMPDIR removed while the process ran is made
 * again first. 0, or -errno (-ENAMETOOLONG when buf is too small). */
int upk_private_tmpdir(const char *what, char *buf, size_t n);

/** fsync a directory fd; file systems that cannot sync directories are fine. 0 or -errno. */
int upk_fsync_dir(int dfd);

/** May `file` be written by upk_write_file_atomic? Asked before any work, so that a report
 * path a user mistyped (`--junit`, `--sarif`) is refused at once: a directory (-EISDIR), a
 * file in a directory that does not exist (-ENOENT) or cannot be written (-EACCES). 0 or
 * -errno. */
int upk_check_write_path(const char *file);

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

#ifdef __cplusplus
}
#endif

/** Lexical normalization of an absolute path into out: "." and ".." resolved, slashes
 * collapsed, no link followed (a path that climbs above "/" stays at "/"). */
void upk_path_lexical(const char *in, char out[PATH_MAX]);

/** Is `path` `root` itself or below it, compared as strings (make both real or lexical first)?
 * A root of "/" holds every absolute path. */
bool upk_path_under(const char *path, const char *root);

#endif
