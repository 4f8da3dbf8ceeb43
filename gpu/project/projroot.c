/* The nearest enclosing project root of a directory (projroot.h). */
#include "gpu/project/projroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const MARKERS[] = {".git",        "build.toml", "CMakeLists.txt", "Makefile",
                                      "meson.build", "setup.py",   "pyproject.toml"};

enum { PROJECT_LEVELS = 64 };

static bool holds_any(const char *dir, const char *const *markers, size_t n) {
  char probe[PATH_MAX + 64];
  struct stat st;
  for (size_t i = 0; i < n; i++) /* .git is a directory, or a file in a worktree */
    if (snprintf(probe, sizeof probe, "%s/%s", dir, markers[i]) < (int)sizeof probe &&
        stat(probe, &st) == 0)
      return true;
  return false;
}

bool upk_find_up(const char *dir, const char *const *markers, size_t n_markers, int max_levels,
                 char out[PATH_MAX]) {
  char cur[PATH_MAX];
  if (!dir || !realpath(dir, cur))
    return false;
  for (int i = 0; i < max_levels && strcmp(cur, "/"); i++) {
    if (holds_any(cur, markers, n_markers)) {
      memcpy(out, cur, strlen(cur) + 1);
      return true;
    }
    char *slash = strrchr(cur, '/');
    slash[slash == cur] = '\0'; /* "/a" -> "/", "/a/b" -> "/a" */
  }
  return false;
}

bool upk_project_root(const char *dir, char out[PATH_MAX]) {
  return upk_find_up(dir, MARKERS, sizeof MARKERS / sizeof *MARKERS, PROJECT_LEVELS, out);
}
