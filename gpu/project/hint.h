/** A single file checked as its kernel-builder project builds it.
 *
 * An editor validates one open file at a time. When that file is a `src` of a
 * `[kernel.*]` in the nearest build.toml above it, the check should use what
 * the builder would: the kernel's include directories, its `cuda-flags` (nvcc's
 * flags, so the nvcc backend) and one of its capabilities (sm_90a or sm_90
 * preferred: H100). build.toml then counts as a dependency of the result, so
 * editing it rechecks the file. Blocking file I/O: workers only.
 */
#ifndef UPK_GPU_KPROJECT_HINT_H
#define UPK_GPU_KPROJECT_HINT_H

#include "gpu/compile/includes.h"
#include "gpu/compile/validate.h"
#include "gpu/project/project.h"

typedef struct upk_project_hint {
  upk_project project; /* loaded when found; job strings are borrowed from it */
  bool found;
  const char **strs; /* the merged include and option lists */
  char *build_toml;  /* its path, for the dependencies */
} upk_project_hint;

/** Look for the project of `req->compile.file_name` (an absolute path) from
 * `req->file_dir` upwards; when the file is one of its sources, adjust `req`
 * (arch unless `keep_arch`, includes, options, backend). Returns 0 (found or
 * not) or -ENOMEM. */
int upk_project_hint_apply(upk_kvalidate_req *req, bool keep_arch, upk_project_hint *h);
/** Add build.toml to `deps` when the hint applied. Returns 0 or -ENOMEM. */
int upk_project_hint_deps(const upk_project_hint *h, upk_include_deps *deps);
void upk_project_hint_free(upk_project_hint *h);

#endif
