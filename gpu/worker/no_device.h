/** The run op's answer when no device can run the kernel: the run/no-device diagnostic, which
 * names the ways to a remote GPU (UPSKILLD_WORKER_COMMAND, upskilld --worker-command, docs/gpu.md
 * "On a cluster"), and its place before a missing torch. */
#ifndef UPK_GPU_NO_DEVICE_H
#define UPK_GPU_NO_DEVICE_H

#include <stddef.h>

#include "common/diag.h"

/** Append run/no-device; `why` says what failed (the driver's words). */
void upk_no_device(upk_diags *diags, upk_range at, const char *why);

/** When the diagnostics from `mark` on include run/no-torch, probe the device (cuInit in this
 * process: a worker's only); without one, insert run/no-device at `mark`, before them. */
void upk_no_device_before_no_torch(upk_diags *diags, size_t mark, upk_range at);

#endif
