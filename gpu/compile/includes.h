/** The include policy: a kernel may include the toolkit's headers, files
 * under the workspace, the file's own directory and the directories given
 * with the request, nothing else. Checked before compiling by following the
 * `#include` lines of every non-toolkit file reached (NVRTC itself would
 * open any path). The files reached are returned so a cached result can be
 * invalidated when one of them changes. */
#ifndef UPK_GPU_INCLUDES_H
#define UPK_GPU_INCLUDES_H

#include <stddef.h>

#include "common/diag.h"

typedef struct upk_include_policy {
  const char *file_dir;      /* the including file's directory; NULL for inline source */
  const char *const *search; /* -I dirs in order (user dirs, then the toolkit's) */
  size_t n_search;
  const char *const *allowed; /* roots a resolved include must lie under */
  size_t n_allowed;
  const char *const *toolkit; /* toolkit include roots: allowed, not followed */
  size_t n_toolkit;
} upk_include_policy;

typedef struct upk_include_deps {
  char **paths; /* real paths of non-toolkit files reached, each once */
  size_t n;
} upk_include_deps;

/** Check `src`'s includes, recursively through non-toolkit headers (depth-limited).
 * An include resolving outside the allowed roots adds an error diagnostic
 * "kernel/include-outside" at its line (in the file that has it). Includes that
 * resolve nowhere are left to the compiler. Returns 0 or -ENOMEM. */
int upk_includes_check(const char *src, size_t len, const upk_include_policy *p, upk_diags *out,
                       upk_include_deps *deps);
void upk_include_deps_free(upk_include_deps *d);

#endif
