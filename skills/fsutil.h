/** File-system helpers for installing skills: directories opened without
 * following symlinks, skill trees held in memory, the tree hash, durable
 * writes and removal that never leaves a directory.
 *
 * Everything works relative to directory file descriptors (openat, mkdirat,
 * unlinkat with O_NOFOLLOW), so a symlink planted in the way is never followed
 * and nothing is written outside the directory a caller opened.
 */
#ifndef UPK_FSUTIL_H
#define UPK_FSUTIL_H

#include <stdbool.h>
#include <dirent.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/diag.h"
#include "common/fileio.h" /* upk_mkdir_p, upk_fsync_dir, upk_write_file_atomic */

/* What one skill may hold. The Anthropic platform takes uploads under 30 MB;
 * anything much larger is not a skill. */
#define UPK_TREE_MAX_BYTES (64u << 20)
#define UPK_TREE_MAX_FILES 10000u
#define UPK_TREE_MAX_DEPTH 16u

/** One regular file of a skill, path relative to the skill directory. */
typedef struct upk_tree_file {
  char *rel;
  bool exec; /* written 0755 instead of 0644 */
  char *data;
  size_t len;
} upk_tree_file;

/** A skill directory's regular files, in memory. Symlinks, devices, FIFOs,
 * sockets and empty directories are not part of a tree. */
typedef struct upk_tree {
  upk_tree_file *files;
  size_t n, cap;
  size_t bytes;
} upk_tree;

/** Open base (trusted, followed as given) then each component of rel without
 * following symlinks, creating missing ones (0755) when `create`. rel may be
 * "" or NULL. Returns an O_DIRECTORY fd or a negative errno: -ELOOP/-ENOTDIR
 * when a component is a symlink or not a directory. */
int upk_open_beneath(const char *base, const char *rel, bool create);
/** Open an existing subdirectory of dfd without following a symlink. */
int upk_open_subdir(int dfd, const char *name);
/** A directory stream over dfd, from its first entry (on a dup: dfd stays open and
 * its offset does not matter). NULL with errno set. closedir() it. */
DIR *upk_opendir_at(int dfd);

/** Is rel a safe relative path: non-empty components separated by '/', none
 * "." or "..", no leading '/', no backslash, at most UPK_TREE_MAX_DEPTH deep,
 * components at most 255 bytes? */
bool upk_rel_path_ok(const char *rel);

/** Add a copy of a file. -EEXIST for a duplicate path is not checked here. */
int upk_tree_add(upk_tree *t, const char *rel, const void *data, size_t len, bool exec);
/** Read the directory dfd into t. Symlinks and special files are skipped with
 * a warning, ".git" directories silently; exceeding the limits is an error.
 * diags may be NULL. Returns 0 or a negative errno (-EFBIG over the limits). */
int upk_tree_load(int dfd, upk_tree *t, upk_diags *diags);
/** Sort by path (bytewise) and check that no path is repeated and none is
 * both a file and a directory. Returns 0, or -EEXIST/-ENOTDIR naming the
 * offending path in *bad (points into t). */
int upk_tree_check(upk_tree *t, const char **bad);
/** SHA-256 over the sorted files: for each, path, NUL, 'x' or '-' (exec), the
 * length as 8 bytes big-endian, the content. Writes 64 hex digits + NUL. */
int upk_tree_hash(upk_tree *t, char hex[65]);
/** Create every file (O_EXCL, no symlinks followed) below dfd, fsync each file
 * and each directory it creates, then dfd itself. The tree must be checked. */
int upk_tree_write(int dfd, const upk_tree *t);
void upk_tree_free(upk_tree *t);

/** Remove dfd/name recursively, never following a symlink (a symlink is
 * unlinked, not its target). Missing is fine. Returns 0 or a negative errno. */
int upk_rmtree_at(int dfd, const char *name);
/** Write a file durably: O_CREAT|O_TRUNC|O_NOFOLLOW, write all, fsync. */
int upk_write_file_at(int dfd, const char *name, const void *data, size_t len, mode_t mode);

/** Add an install diagnostic (source "upskilld-install", the whole file as
 * range) naming `file` (may be NULL). diags may be NULL. Returns 0 or -ENOMEM. */
int upk_fs_diag(upk_diags *diags, upk_severity sev, const char *code, const char *file,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
