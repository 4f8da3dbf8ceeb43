/* Small file-system helpers for integration tests that look at what the daemon left on disk. */
#ifndef UPK_FSX_H
#define UPK_FSX_H

#include <stdbool.h>
#include <stddef.h>

/** Write `text` to `path`, creating parent directories; fails the test on error. */
void fsx_write(const char *path, const char *text);
/** The whole file, NUL-terminated (caller frees), or NULL when it cannot be read. */
char *fsx_read(const char *path);
/** Whether `path` exists (without following a final symlink). */
bool fsx_exists(const char *path);
/** rm -rf, never following symlinks. */
void fsx_rm_rf(const char *path);
/** How many entries of `dir` start with `prefix` (0 when dir is missing). */
size_t fsx_count_prefix(const char *dir, const char *prefix);
/** A new private directory under /tmp (static storage per call site is the caller's). */
void fsx_mkdtemp(char out[64], const char *tag);

#endif
