/* Installed files, found from the running program (common/install_path.h). */
#include "common/install_path.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "upk_config.h"

/* Whether `dir` is the build tree's root or below it. */
static bool in_build_tree(const char *dir) {
  size_t n = strlen(UPK_BUILD_ROOT);
  return strncmp(dir, UPK_BUILD_ROOT, n) == 0 && (dir[n] == '/' || dir[n] == '\0');
}

const char *upk_install_path(upk_inst_kind kind, const char *name, const char *build, char *buf,
                             size_t len) {
  const char *rel = kind == UPK_INST_LIBEXEC ? UPK_LIBEXEC_FROM_BIN : UPK_DATA_FROM_BIN;
  const char *abs = kind == UPK_INST_LIBEXEC ? UPK_LIBEXECDIR : UPK_DATADIR;
  char exe[PATH_MAX];
  bool have_exe = upk_exe_dir(exe, sizeof exe);
  /* rel is "" when bindir is not below the prefix: only the absolute place is known then */
  if (have_exe && rel[0]) {
    snprintf(buf, len, "%s/%s/%s", exe, rel, name);
    if (access(buf, F_OK) == 0)
      return buf;
  }
  if (have_exe && in_build_tree(exe)) {
    if (build[0] == '/')
      snprintf(buf, len, "%s", build);
    else
      snprintf(buf, len, "%s/%s", UPK_BUILD_ROOT, build);
    return buf;
  }
  snprintf(buf, len, "%s/%s", abs, name);
  return buf;
}
