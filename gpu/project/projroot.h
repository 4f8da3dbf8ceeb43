/** The project a source file belongs to, found the way a build would:
 * walking up from its directory to the nearest one holding a marker. A file
 * given by path (or open in an editor) may include what lies in its project
 * (`#include "../inc/x.h"` is how much real CUDA code is laid out); inline
 * source keeps the stricter policy. Blocking stat() calls: workers only. */
#ifndef UPK_GPU_PROJROOT_H
#define UPK_GPU_PROJROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/** The nearest directory at or above `dir` (made real first) that holds one
 * of `markers`, into `out`. `/` itself never counts: a marker there would
 * allow the whole machine. Looks at most `max_levels` directories up. */
bool upk_find_up(const char *dir, const char *const *markers, size_t n_markers, int max_levels,
                 char out[PATH_MAX]);

/** upk_find_up with the usual project markers: .git, build.toml,
 * CMakeLists.txt, Makefile, meson.build, setup.py, pyproject.toml. */
bool upk_project_root(const char *dir, char out[PATH_MAX]);

#endif
