/** The nvcc backend: device-side compile of a whole .cu file, host code and
 * all (main, cudaMalloc, <<<...>>> launches, iostream, torch bindings), which
 * NVRTC refuses. Runs
 *
 *   <cuda>/bin/nvcc -cubin -arch=<sm> -lineinfo -Xptxas -v -Xptxas -warn-spills
 *        -Xptxas -warn-lmem-usage --std=<std> -I... -D... <options> -o X.cubin FILE
 *
 * as a child process and reads its log into the same upk_compile_result
 * NVRTC gives (gpu/compile/nvlog.h's parsers: nvcc has the same front end and
 * ptxas), `backend` "nvcc". The host preprocessor's gcc-style errors are
 * parsed here; a header that cannot be found is one diagnostic at the
 * #include line of the main file ("nvcc/missing-include") saying what to add.
 * ptxas errors citing PTX lines are mapped to source lines through the
 * `-lineinfo` PTX nvcc keeps in a private temporary directory.
 *
 * The child runs under a guard process that leads its own process group and
 * kills the whole group (nvcc, cicc, ptxas, the host preprocessor) when the
 * thread that started it dies — so the worker pool's timeout and cancel
 * kill (SIGKILL of the worker) stop the compile too. Blocking: call it in a
 * worker process; thread-safe (projects compile files in parallel).
 */
#ifndef UPK_GPU_NVCC_H
#define UPK_GPU_NVCC_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/compile/compile.h"

/** Compile `req` with nvcc (req->pch is ignored; names filter the kernels
 * reported). Always fills `out`: diagnostics say what went wrong. Returns 0
 * when nvcc ran (whether or not the source has errors), -ENOENT when there is
 * no nvcc under the toolkit (one "kernel/no-nvcc" diagnostic), -ENOMEM. */
int upk_nvcc_compile(const upk_compile_req *req, upk_compile_result *out);

/** `<cuda_path>/bin/nvcc` when it is executable. Returns 0 or -ENOENT. */
int upk_nvcc_path(const char *cuda_path, char *out, size_t out_len);

/** Whether the toolkit's nvcc can build `arch` ("sm_90a"), from
 * `nvcc --list-gpu-code` (asked once per toolkit, then remembered). An nvcc
 * that cannot be asked answers true: the compile itself will say. */
bool upk_nvcc_supports(const char *cuda_path, const char *arch);

/** Run `argv` (argv[0] an absolute path) in `cwd` (NULL: here) under the
 * group-killing guard, stdout and stderr together into `*output` (NUL-ended,
 * caller frees; at most 8 MB kept). `*status` is the exit code, or 128+signal.
 * Returns 0, -errno when it could not be started, -ENOMEM. */
int upk_child_run(const char *const *argv, const char *cwd, char **output, size_t *len,
                  int *status);
/** The same with `env` as the child's whole environment (upk_child_run: ours, PATH cleaned). */
int upk_child_run_env(const char *const *argv, const char *cwd, char **env, char **output,
                      size_t *len, int *status);

#endif
