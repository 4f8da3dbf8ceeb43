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
#include "gpu/compile/nvccrun.h"

/** Compile `req` with nvcc (req->pch is ignored; names filter the kernels
 * reported). Always fills `out`: diagnostics say what went wrong. Returns 0
 * when nvcc ran (whether or not the source has errors), -ENOENT when there is
 * no nvcc under the toolkit (one "kernel/no-nvcc" diagnostic), -ENOMEM. */
int upk_nvcc_compile(const upk_compile_req *req, upk_compile_result *out);

#endif
