/** The worker server's daemon side (docs/kernels.md, "Worker server").
 *
 * A fresh process pays ~40 ms to load NVRTC and ~95 ms more for its first compile;
 * a worker that has compiled before needs ~20 ms. Daemons are short-lived (an agent
 * or `upskillctl` starts one per session or command), so warm workers live on in a
 * server (`upskilld-worker --serve PATH`) that outlives the daemon and exits when
 * idle. This module names its socket, connects to it and launches it. The pool
 * (workers.c) decides when. Loop thread only.
 */
#ifndef UPK_WORKER_SERVER_H
#define UPK_WORKER_SERVER_H

#include <stddef.h>
#include <uv.h>

/** The socket path for this worker binary and toolkit: `workers-HASH.sock` in
 * $XDG_RUNTIME_DIR/upskilld/ (else /tmp/upskilld-EUID/), the directory created
 * 0700. HASH covers the worker's path, inode, size and mtime, the toolkit root
 * (real path), the euid, and what the workers' compiles take from the environment:
 * the gcc, g++, cc and c++ that nvcc would find (its toolkit's bin dirs, then
 * PATH; real paths, found by stat alone), CUDA_PATH and TMPDIR. So a rebuilt
 * worker never reaches an old server, two callers whose PATHs find the same
 * compilers share one, and a PATH that finds another gcc gets its own. 0, or UV_EPERM when the
 * directory is not ours and private (no server is used then), UV_ENAMETOOLONG,
 * or another negative error. */
int upk_wserver_path(char *out, size_t n, const char *worker_path, const char *cuda_path);

/** Connect without blocking. The connected socket (close-on-exec), or
 * UV_ENOENT / UV_ECONNREFUSED when no server listens there, UV_EAGAIN when its
 * backlog is full, or another negative error. */
int upk_wserver_connect(const char *path);

/** Start `worker_path --serve path --idle idle_s` in its own session with its
 * stdio on /dev/null. `*owner` holds the (unreferenced) process handle until the
 * server exits, when it is closed, freed and set to NULL. A server already
 * serving `path` makes the new one exit at once. 0 or a negative libuv error. */
int upk_wserver_launch(uv_loop_t *loop, uv_process_t **owner, const char *worker_path,
                       const char *path, unsigned idle_s);

/** Stop tracking a launched server (it runs on): close and free `*owner`, set it NULL. */
void upk_wserver_forget(uv_process_t **owner);

#endif
