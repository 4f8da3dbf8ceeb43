/** The include policy: a kernel may include the toolkit's headers, files
 * under the workspace, the file's own directory and the directories given
 * with the request, nothing else. Checked before compiling by following the
 * `#include` lines of every non-toolkit file reached (NVRTC itself would
 * open any path). The files reached are returned so a cached result can be
 * invalidated when one of them changes, and so are the bytes checked: each
 * header is read once, beneath its allowed root through a descriptor that
 * follows no link, and NVRTC gets those bytes (a file swapped after the
 * check is never what it compiles). */
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

/** A header as checked: the name its #include spells, the real path, the bytes read. A name
 * that resolved nowhere but names an absolute path has text NULL (nothing may be read there). */
typedef struct upk_include_header {
  char *name, *path, *text;
  size_t len;
} upk_include_header;

typedef struct upk_include_deps {
  char **paths; /* real paths of non-toolkit files reached, each once */
  size_t n;
  upk_include_header *headers; /* by spelled name, each name once (NVRTC matches names) */
  size_t n_headers;
} upk_include_deps;

/** Check `src`'s includes, recursively through non-toolkit headers (depth-limited).
 * An include resolving outside the allowed roots adds an error diagnostic
 * "kernel/include-outside" at its line (in the file that has it). Includes that
 * resolve nowhere are left to the compiler. One name that stands for two files (two
 * directories' "util.h", or a project's header named as a toolkit one) is refused with
 * "kernel/include-unchecked": NVRTC takes headers by name. Returns 0 or -ENOMEM. */
int upk_includes_check(const char *src, size_t len, const upk_include_policy *p, upk_diags *out,
                       upk_include_deps *deps);
void upk_include_deps_free(upk_include_deps *d);

#endif
