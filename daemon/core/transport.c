#include "daemon/core/transport.h"

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xalloc.h"

#define READ_CHUNK (64 * 1024)
#define HIGH_WATER (16u << 20) /* pause input above this much unwritten output */
#define LOW_WATER (4u << 20)
/* What the output pipe or socket may hold (Linux's defaults: 64 KiB a pipe, ~200 KiB a
 * socket; a pipe's most without privileges is 1 MiB, a socket's net.core.wmem_max): a 270-380
 * KB skills/list page then goes into the kernel whole, and the client reads it without
 * waiting for this loop to get a core again to write the rest (issue 47). Node's stdio is a
 * socket pair. */
#define PIPE_SIZE (1 << 20)

typedef struct write_req {
  uv_write_t req;
  upk_transport *t;
  char *data;
  size_t len;
} write_req;

static void transport__flush(upk_transport *t);
static void transport__read_file(upk_transport *t);

static int open_stream(uv_loop_t *loop, upk_stdio_handle *h, int fd, uv_handle_type kind,
                       int readable) {
  int rc;
  switch (kind) {
  case UV_NAMED_PIPE:
    rc = uv_pipe_init(loop, &h->pipe, 0);
    return rc ? rc : uv_pipe_open(&h->pipe, fd);
  case UV_TTY:
    return uv_tty_init(loop, &h->tty, fd, readable);
  case UV_TCP:
    rc = uv_tcp_init(loop, &h->tcp);
    return rc ? rc : uv_tcp_open(&h->tcp, fd);
  default:
    return UV_EINVAL;
  }
}

static int is_stream(uv_handle_type kind) {
  return kind == UV_NAMED_PIPE || kind == UV_TTY || kind == UV_TCP;
}

int upk_transport_open(upk_transport *t, uv_loop_t *loop, int in_fd, uv_handle_type in_kind,
                       int out_fd, uv_handle_type out_kind, const upk_transport_cb *cb, void *ud) {
  memset(t, 0, sizeof *t);
  t->loop = loop;
  t->in_fd = in_fd;
  t->out_fd = out_fd;
  t->in_kind = in_kind;
  t->out_kind = out_kind;
  t->cb = *cb;
  t->ud = ud;
  upk_buf_init(&t->pending, SIZE_MAX - 1);
  t->in_buf = upk_xmalloc(READ_CHUNK);
  int rc = uv_idle_init(loop, &t->flusher);
  if (rc)
    return rc;
  t->flusher.data = t;
  if (is_stream(in_kind)) {
    rc = open_stream(loop, &t->in, in_fd, in_kind, 1);
    if (rc) {
      upk_error("cannot open stdin (%s): %s", uv_handle_type_name(in_kind), uv_strerror(rc));
      uv_close(&t->in.handle, NULL);
      return rc;
    }
    t->in_open = true;
    t->in.handle.data = t;
  }
  if (is_stream(out_kind)) {
    rc = open_stream(loop, &t->out, out_fd, out_kind, 0);
    if (rc) {
      upk_error("cannot open stdout (%s): %s", uv_handle_type_name(out_kind), uv_strerror(rc));
      uv_close(&t->out.handle, NULL);
      return rc;
    }
    t->out_open = true;
    t->out.handle.data = t;
    if (out_kind == UV_NAMED_PIPE && fcntl(out_fd, F_SETPIPE_SZ, PIPE_SIZE) < 0) {
      int size = PIPE_SIZE / 2; /* a socket: Linux doubles what it is asked for */
      (void)uv_send_buffer_size(&t->out.handle, &size); /* refused: the default stays */
    }
  }
  return 0;
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  upk_transport *t = h->data;
  buf->base = t->in_buf;
  buf->len = READ_CHUNK;
}

static void transport__end(upk_transport *t, int status) {
  if (t->ended)
    return;
  t->ended = true;
  t->cb.on_end(t->ud, status);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  upk_transport *t = s->data;
  if (n > 0) {
    t->cb.on_data(t->ud, buf->base, (size_t)n);
    return;
  }
  if (n < 0) {
    uv_read_stop(s);
    t->reading = false;
    transport__end(t, n == UV_EOF ? 0 : (int)n);
  }
}

static void file_read_cb(uv_fs_t *req) {
  upk_transport *t = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  t->in_req_busy = false;
  if (t->closing)
    return;
  if (n > 0) {
    t->cb.on_data(t->ud, t->in_buf, (size_t)n);
    if (!t->closing && !t->paused)
      transport__read_file(t);
    return;
  }
  transport__end(t, n == 0 ? 0 : (int)n);
}

static void transport__read_file(upk_transport *t) {
  uv_buf_t buf = uv_buf_init(t->in_buf, READ_CHUNK);
  t->in_req.data = t;
  t->in_req_busy = true;
  int rc = uv_fs_read(t->loop, &t->in_req, t->in_fd, &buf, 1, -1, file_read_cb);
  if (rc) {
    t->in_req_busy = false;
    transport__end(t, rc);
  }
}

static void transport__resume(upk_transport *t) {
  if (t->ended || t->closing)
    return;
  if (t->in_open && !t->reading) {
    int rc = uv_read_start(&t->in.stream, alloc_cb, read_cb);
    if (rc)
      transport__end(t, rc);
    else
      t->reading = true;
  } else if (t->in_kind == UV_FILE && !t->in_req_busy) {
    transport__read_file(t);
  }
}

int upk_transport_start(upk_transport *t) {
  if (!t->in_open && t->in_kind != UV_FILE) {
    upk_info("stdin is closed or unusable (%s): nothing to read", uv_handle_type_name(t->in_kind));
    transport__end(t, 0);
    return 0;
  }
  transport__resume(t);
  return 0;
}

upk_buf *upk_transport_out(upk_transport *t) {
  return &t->pending;
}

static void flush_cb(uv_idle_t *c) {
  upk_transport *t = c->data;
  uv_idle_stop(c);
  transport__flush(t);
}

void upk_transport_schedule(upk_transport *t) {
  if (!uv_is_active((uv_handle_t *)&t->flusher) && !uv_is_closing((uv_handle_t *)&t->flusher))
    uv_idle_start(&t->flusher, flush_cb);
}

void upk_transport_flush(upk_transport *t) {
  if (uv_is_active((uv_handle_t *)&t->flusher))
    uv_idle_stop(&t->flusher);
  transport__flush(t);
}

static size_t queued(upk_transport *t) {
  return t->out_open ? uv_stream_get_write_queue_size(&t->out.stream) : 0;
}

/* A big answer (a page of 5,000 skills is 5 MB of JSON and ~35 MB of
 * jansson values, built on a pool thread) leaves its memory in that thread's
 * malloc arena, and each pool thread has its own: four such pages kept the
 * RSS ~250 MB up for good. Once a big answer is out, hand free memory back. */
#define TRIM_AFTER (1u << 20)

static void trim_after(size_t len) {
#ifdef __GLIBC__
  if (len >= TRIM_AFTER)
    malloc_trim(0);
#else
  (void)len;
#endif
}

static void write_cb(uv_write_t *req, int status) {
  write_req *w = (write_req *)req;
  upk_transport *t = w->t;
  free(w->data);
  trim_after(w->len);
  free(w);
  if (status < 0 && status != UV_ECANCELED)
    upk_warn("writing to stdout failed: %s", uv_strerror(status));
  if (t->paused && queued(t) < LOW_WATER) {
    t->paused = false;
    transport__resume(t);
  }
}

static void write_fd_blocking(upk_transport *t) {
  size_t off = 0;
  while (off < t->pending.len) {
    ssize_t n = write(t->out_fd, t->pending.data + off, t->pending.len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      upk_debug("stdout unusable: %s; output dropped", strerror(errno));
      break;
    }
    off += (size_t)n;
  }
  upk_buf_reset(&t->pending);
}

static void transport__flush(upk_transport *t) {
  if (t->pending.len == 0)
    return;
  if (!t->out_open) { /* a regular file (short blocking writes), or nothing at all */
    write_fd_blocking(t);
    return;
  }
  size_t off = 0;
  if (queued(t) == 0) { /* fast path: straight into the kernel, no request */
    uv_buf_t b = uv_buf_init(t->pending.data, (unsigned)t->pending.len);
    int n = uv_try_write(&t->out.stream, &b, 1);
    if (n > 0)
      off = (size_t)n;
  }
  if (off == t->pending.len) {
    upk_buf_reset(&t->pending);
    trim_after(off);
    return;
  }
  upk_buf_consume(&t->pending, off);
  write_req *w = upk_xmalloc(sizeof *w);
  size_t len;
  w->t = t;
  w->data = upk_buf_take(&t->pending, &len);
  w->len = len;
  uv_buf_t b = uv_buf_init(w->data, (unsigned)len);
  int rc = uv_write(&w->req, &t->out.stream, &b, 1, write_cb);
  if (rc) {
    upk_warn("writing to stdout failed: %s", uv_strerror(rc));
    free(w->data);
    free(w);
    return;
  }
  if (queued(t) > HIGH_WATER && !t->paused) {
    t->paused = true; /* the peer is not reading: stop taking more work */
    if (t->reading) {
      uv_read_stop(&t->in.stream);
      t->reading = false;
    }
  }
}

static void close_out(uv_shutdown_t *req, int status) {
  upk_transport *t = req->data;
  uv_close(&t->out.handle, NULL);
}

void upk_transport_close(upk_transport *t) {
  if (t->closing)
    return;
  t->closing = true;
  transport__flush(t);
  uv_close((uv_handle_t *)&t->flusher, NULL);
  if (t->in_open)
    uv_close(&t->in.handle, NULL);
  if (t->out_open) {
    t->shutdown_req.data = t;
    /* Let queued writes finish before the handle goes away. */
    if (uv_shutdown(&t->shutdown_req, &t->out.stream, close_out) != 0)
      uv_close(&t->out.handle, NULL);
  }
  upk_buf_free(&t->pending);
}

void upk_transport_free(upk_transport *t) {
  free(t->in_buf);
  t->in_buf = NULL;
}
