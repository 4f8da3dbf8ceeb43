/** The worker server: `upskilld-worker --serve SOCKET_PATH [--idle SECONDS] [--max N]`.
 *
 * A fresh worker pays ~40 ms to load NVRTC and ~95 ms for its first compile; daemons are
 * short-lived. So warm worker processes outlive the daemon, reachable on a Unix socket, and the
 * whole server exits after an idle timeout.
 *
 * The supervisor (the process started with --serve) never loads NVRTC: it holds
 * SOCKET_PATH + ".lock" (flock; a second server on the path exits 0 at once), binds and listens
 * on SOCKET_PATH (mode 0600), and forks children: always one, and another whenever every child
 * is busy and a connection waits (at most `max_children`). Each child sets itself up (child_init),
 * warms up when no connection is waiting, then accepts connections, one at a time: a peer of
 * another uid is closed at once; otherwise the child writes the greeting line
 * `{"worker":{"pid":<pid>}}\n` and serves the worker wire protocol on the connection until EOF.
 *
 * Each child reports on its own status pipe, one byte per event: 'R' ready (about to accept for
 * the first time), 'B' busy (accepted a connection), 'I' idle again (that connection ended).
 * EOF on the pipe is the child's death; three deaths in a row before 'R' end the server.
 *
 * Exit: after `idle_s` seconds with no busy child and no event, or on SIGTERM/SIGINT: the socket
 * file is removed (while it is still the one bound), then the lock file (while still held), the
 * children are killed and reaped. A server whose lock file was removed before it got the lock
 * starts over on a new one. At start, in a directory of `workers-*.sock` sockets, lock files of
 * that form that nobody holds are removed with their sockets (servers that were killed). */
#ifndef UPK_GPU_WORKER_SERVE_H
#define UPK_GPU_WORKER_SERVE_H

/** Most children one server runs (an upper bound for --max). */
#define UPK_WSERVE_MAX_CHILDREN 64

typedef struct upk_wserve_config {
  const char *socket_path;
  unsigned idle_s;       /* exit after this many idle seconds; 0: never (default 600) */
  unsigned max_children; /* 1..UPK_WSERVE_MAX_CHILDREN (default: online CPUs, at most 8) */
  /* In each child, in this order; none returns to the supervisor. */
  void (*child_init)(void *arg); /* setup once (mallopt, NVRTC); may be NULL */
  void (*warm_up)(void *arg);    /* a first compile, when no connection waits; may be NULL */
  /* One connection, requests in and replies out on `fd`, until EOF (0) or an error (-errno).
   * The fd is closed afterwards by the caller. */
  int (*serve)(void *arg, int fd);
  void *arg;
} upk_wserve_config;

/** Fill cfg's socket_path, idle_s and max_children from `argv` (argv[1] is "--serve"), with the
 * defaults for what is not given; the callbacks are left as they are. Returns 0, or -EINVAL with
 * the usage printed on stderr. */
int upk_wserve_parse_args(int argc, char **argv, upk_wserve_config *cfg);

/** Run the supervisor until it exits (children never return from here). Returns 0 on a clean
 * exit (idle, SIGTERM/SIGINT) or when another server holds the path's lock; -ENAMETOOLONG when
 * the path does not fit a sockaddr_un; -ECHILD when children keep dying before they are ready;
 * another -errno when the socket or lock cannot be set up. Errors are reported on stderr. */
int upk_worker_serve(const upk_wserve_config *cfg);

#endif
