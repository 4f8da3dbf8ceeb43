/** What nvcc may read (gpu/compile/nvcc.c): the sandbox it runs in, and where there is none, a
 * check of every file its preprocessor read against the same places.
 *
 * The places: the file, the toolkit (as named and made real), the request's readable
 * directories (the project), each include directory on nvcc's line, an allowed host compiler's
 * installation, /usr (system headers; the sandbox shows it read-only) and the scratch directory.
 * In the sandbox nothing else exists. Without one (no bubblewrap, or no user namespaces) nvcc
 * runs with `-MD -MF <scratch>/deps.d`, and a file it read outside those places, a link out of
 * them included (a project's `inc/stdlib.h` linked to a file in HOME, reached from a toolkit
 * header the include check does not read), refuses the compile with its log withheld: the
 * compiler quotes the lines it cannot parse, so the log would carry the file's text. */
#ifndef UPK_GPU_NVCCBOX_H
#define UPK_GPU_NVCCBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/compile/compile.h"

/** nvcc's line `argv` (NULL-terminated) inside the sandbox, or NULL when there is none; *env
 * the sandbox's environment. Free both with upk_sandbox_free. */
char **upk_nvcc_boxed(const upk_compile_req *req, const char *tmp, const char *file,
                      const char *const *argv, char ***env);

/** Without the sandbox: a Landlock rule set (common/landlock.h) that lets nvcc read its places
 * and the system's (/usr, the dynamic linker's /etc files) and write the scratch directory
 * `tmp` only; -ENOSYS where the kernel has no Landlock. Close it after the run. */
int upk_nvcc_ruleset(const upk_compile_req *req, const char *tmp, const char *file,
                     const char *const *argv);

/** True (and one "kernel/no-sandbox" error in out) when the request must not run nvcc without
 * the sandbox (req->sandbox_required) and there is none. */
bool upk_nvcc_refuse_unboxed(const upk_compile_req *req, upk_compile_result *out);

/** After an unboxed run with `-MD -MF <tmp>/deps.d`: 1 when nvcc read a file outside its places
 * (out's log emptied, its diagnostics and cubin dropped, one "kernel/include-outside" error
 * naming the file), 0 when every file lies inside them, -ENOMEM. No dependency file (the
 * preprocessor stopped first) is 0 when Landlock confined nvcc (out->confined), else 1 with the
 * output withheld: what it read is unknown. `dir` is nvcc's working directory. */
int upk_nvcc_deps_check(const upk_compile_req *req, const char *tmp, const char *dir,
                        const char *file, const char *const *argv, upk_compile_result *out);

/** Withhold everything a compile made (its diagnostics, log and cubin: they may quote a file it
 * should not have read) and say why: one "kernel/include-outside" error with `message`. */
void upk_compile_withhold(upk_compile_result *out, const char *message);

/** After a confined compile (out->confined): each "Permission denied" of NVRTC or the
 * preprocessor is the rule set refusing a file outside the places; said so, with what the user
 * can do ("kernel/include-outside"). */
void upk_compile_explain_denied(upk_diags *d);

#endif
