/* Internal to the run op (worker/run_op.c): a run under compute-sanitizer. The same request is
 * re-executed by a fresh worker (op "run", without `sanitizer`) started as
 * `compute-sanitizer --tool T --error-exitcode 99 --print-limit 20
 * --log-file F WORKER`; its reply gives the run result, F the findings. */
#ifndef UPK_GPU_KSAN_H
#define UPK_GPU_KSAN_H

#include <jansson.h>

#include "common/diag.h"
#include "gpu/run/runspec.h"

/** The compute-sanitizer under the toolkit root (bin/, then
 * compute-sanitizer/), into buf; NULL when not installed. */
const char *upk_ksan_find(const char *cuda_path, char *buf, size_t len);

/** Run params (with their "run") under `tool_path`; the worker program is
 * $UPSKILLD_WORKER, else this executable. Findings and failures become
 * diagnostics; *run_out gets the run object (with `sanitizer` {tool,
 * findings, exitStatus}). Returns 0 or a negative errno. */
int upk_ksan_run(json_t *params, const upk_run_spec *s, const char *tool_path, upk_diags *diags,
                 upk_range at, json_t **run_out);

#endif
