/** The stdio transport: bytes in from stdin, framed bytes out to stdout.
 *
 * stdin may be a pipe, a socketpair, a TTY, a regular file, /dev/null or
 * closed; each is opened the way libuv can handle it (uv_guess_handle picks),
 * so that nothing aborts. Output is batched: callers append to the pending
 * buffer and one write goes out per loop iteration. When the peer stops
 * reading, input is paused once the write queue passes a high-water mark,
 * so memory stays bounded.
 */
#ifndef UPK_TRANSPORT_H
#define UPK_TRANSPORT_H

#include <stdbool.h>
#include <uv.h>

#include "common/dynbuf.h"

typedef struct upk_transport_cb {
  void (*on_data)(void *ud, const char *data, size_t len);
  /** Input ended: status 0 for EOF, a negative libuv error otherwise. */
  void (*on_end)(void *ud, int status);
} upk_transport_cb;

typedef union upk_stdio_handle {
  uv_handle_t handle;
  uv_stream_t stream;
  uv_pipe_t pipe;
  uv_tty_t tty;
  uv_tcp_t tcp;
} upk_stdio_handle;

typedef struct upk_transport {
  uv_loop_t *loop;
  uv_handle_type in_kind, out_kind;
  int in_fd, out_fd;
  upk_stdio_handle in, out;
  bool in_open, out_open, reading, paused, ended, closing;
  uv_fs_t in_req; /* reads when stdin is a file */
  bool in_req_busy;
  char *in_buf;
  upk_buf pending;   /* framed output not yet handed to the kernel */
  uv_idle_t flusher; /* flushes `pending` once per loop turn; an active idle handle
                      * also keeps poll from blocking, so output queued by a timer
                      * callback leaves at once */
  uv_shutdown_t shutdown_req;
  upk_transport_cb cb;
  void *ud;
} upk_transport;

/** Open stdio on `in_fd`/`out_fd`, whose kinds were guessed at start-up
 * (before any other fd could take their numbers). Returns 0 or a negative
 * libuv error. */
int upk_transport_open(upk_transport *t, uv_loop_t *loop, int in_fd, uv_handle_type in_kind,
                       int out_fd, uv_handle_type out_kind, const upk_transport_cb *cb, void *ud);
/** Start delivering input. */
int upk_transport_start(upk_transport *t);
/** The buffer to append framed output to; call upk_transport_schedule after. */
upk_buf *upk_transport_out(upk_transport *t);
/** Arrange for pending output to be written at the end of this loop iteration. */
void upk_transport_schedule(upk_transport *t);
/** Write what is pending now instead of at the next loop turn (before blocking work). */
void upk_transport_flush(upk_transport *t);
/** Stop reading, write out what is pending, then close every handle. */
void upk_transport_close(upk_transport *t);
/** Free memory once the loop has finished with the closed handles. */
void upk_transport_free(upk_transport *t);

#endif
