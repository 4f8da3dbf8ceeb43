/** The worker's "run" op: compile a kernel, run it on the GPU through the
 * Driver API and check it the ways generated kernels fool harnesses
 * (docs/gpu.md): NaN-poisoned outputs, fresh random inputs per trial,
 * hashed inputs, two runs compared, tolerance and constant-output checks,
 * then event timing with warmup, L2 flush and median, the reference timed
 * the same way.
 *
 * Blocking, and it calls cuInit: only ever in a disposable worker process.
 * When the result carries `"fatal": true` a sticky CUDA error (or a kernel
 * still running past its deadline) has left the context unusable: the
 * worker must send the reply and exit at once (_exit, no further CUDA call);
 * the daemon starts a fresh worker. */
#ifndef UPK_GPU_KRUN_H
#define UPK_GPU_KRUN_H

#include <jansson.h>

/** params: the kernel/validate wire params (see validate.h) plus "run": {...}
 * (runspec.h). Returns the validate result (compile, lint, occupancy) with
 * `run` {ok, trials, maxAbsError, maxRelError, firstMismatch, timeMs,
 * referenceTimeMs, speedup, device} added, "run/..." diagnostics appended,
 * and `fatal: true` when the worker must exit after replying. No driver or no
 * device: one "run/no-device" diagnostic, compile results intact. Returns
 * NULL with `err` filled when params or params.run are malformed. */
json_t *upk_kernel_run_json(json_t *params, char *err, size_t err_len);

#endif
