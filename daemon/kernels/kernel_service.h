/** The daemon's side of kernel validation: the worker pool and the result
 * cache, shared by the `kernel/validate` method and editor diagnostics.
 *
 * A check takes wire params (gpu/compile/validate.h's form, already resolved: absolute
 * paths, allowed roots, toolkit path) and answers a result object. Identical
 * checks are answered from memory, keyed by a SHA-256 of the params, the
 * toolkit, and the size/mtime of the file and of every non-toolkit header the
 * compile read (so editing a header invalidates the entry). A worker that
 * crashes, hangs past its deadline or talks nonsense becomes a diagnostic in
 * an ok:false result; the daemon carries on. Loop thread only.
 */
#ifndef UPK_KERNEL_SERVICE_H
#define UPK_KERNEL_SERVICE_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"
#include "gpu/worker/wire.h"

typedef struct upk_kcheck upk_kcheck;
/** `result` is borrowed (json_incref to keep); always an object with `ok` and `diagnostics`. */
typedef void (*upk_kcheck_cb)(void *arg, json_t *result);

/** Create the pool (one worker started warm when the toolkit exists). Idempotent. */
int upk_kernels_start(upk_server *s);
/** Start the pool shortly, after the current answer is written: spawning the warm
 * worker blocks the loop for a few ms (fork + exec), which `initialize` need not wait for.
 * A check that arrives first starts it itself. */
void upk_kernels_start_soon(upk_server *s);
/** Kill the workers and drop queued checks (their callbacks get a cancelled result). */
void upk_kernels_stop(upk_server *s);

/** Run a check of `req` (borrowed: encoded before this returns, with the user's compiler-option
 * policy added). `timeout_ms` bounds the compile; a run's own time is added to it
 * (upk_kernel_req_run_ms). With `use_cache`, an identical earlier result is the answer. `cb` runs
 * exactly once unless cancelled, from the loop, never from inside this call: a cache hit or a
 * refusal is answered at the loop's next turn. The returned handle (never NULL) can be cancelled
 * until the callback runs. */
upk_kcheck *upk_kernels_check(upk_server *s, const upk_kernel_req *req, unsigned timeout_ms,
                              bool use_cache, upk_kcheck_cb cb, void *arg);
/** Cancel: the callback is not called; a running compile's worker is killed. */
void upk_kcheck_cancel(upk_kcheck *c);

/** Pool and cache figures for upskilld/status. */
json_t *upk_kernels_status(upk_server *s);
/** The pool itself (started by upk_kernels_start), for test-only raw ops. */
struct upk_workers *upk_kernels_pool(upk_server *s);
/** The toolkit root in use. */
const char *upk_kernels_cuda_path(const upk_server *s);

#endif
