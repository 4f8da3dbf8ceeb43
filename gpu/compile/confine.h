/** NVRTC's compile on a thread of its own confined by Landlock (common/landlock.h): it may read
 * the toolkit, /usr and what the request names (the file's directory unless detached, its
 * include and readable directories), write only TMPDIR and only when NVRTC builds precompiled
 * headers there, and nothing else. A toolkit header whose #include the source steers by a macro
 * (thrust's host system) then cannot open a file elsewhere and quote it.
 *
 * Where the kernel has no Landlock the work runs unconfined, and a diagnostic located in a file
 * outside those places withholds everything the compile said ("kernel/include-outside"). */
#ifndef UPK_GPU_CONFINE_H
#define UPK_GPU_CONFINE_H

#include <stdbool.h>

#include "gpu/compile/compile.h"

typedef int (*upk_confined_fn)(void *arg, upk_compile_result *out);

/** Run fn(arg, out) as above for `req` with the toolkit at `root`; `pch`: NVRTC builds
 * precompiled headers (in TMPDIR). Sets out->confined. Returns what fn returns. */
int upk_nvrtc_confined(const upk_compile_req *req, const char *root, bool pch, upk_confined_fn fn,
                       void *arg, upk_compile_result *out);

#endif
