/** HTTP on the event loop: libcurl's multi-socket API driven by libuv.
 *
 * One upk_http per loop holds a curl multi handle (and so its connection
 * cache: connections are reused across requests to the same host). Curl tells
 * us which sockets to watch (one uv_poll_t per socket) and when to wake it (a
 * uv_timer_t); nothing ever blocks the loop. Any number of transfers may be in
 * flight. Each finishes with exactly one callback on the loop thread, unless
 * it was cancelled first. Loop thread only.
 */
#ifndef UPK_HTTP_H
#define UPK_HTTP_H

#include <stddef.h>
#include <uv.h>

typedef struct upk_http upk_http;
typedef struct upk_http_req upk_http_req;

/** What to send. Everything is copied by upk_http_start. */
typedef struct upk_http_request {
  const char *method;         /* "POST", "GET", ... (NULL: POST with a body, else GET) */
  const char *url;            /* http:// or https:// only */
  const char *const *headers; /* "Name: value" strings, NULL-terminated; may be NULL */
  const char *body;           /* may be NULL */
  size_t body_len;
  long connect_timeout_ms; /* <= 0: 10 s */
  long timeout_ms;         /* whole transfer; <= 0: 120 s */
  size_t max_response;     /* body cap in bytes; 0: 16 MiB */
} upk_http_request;

/** What came back. `status` is 0 when an HTTP response was read in full
 * (whatever its code), else a negative errno: -ETIMEDOUT (connect or total
 * timeout), -ECONNREFUSED, -ECONNRESET (reset, or nothing at all), -EPROTO
 * (truncated or malformed HTTP), -EHOSTUNREACH (name not resolved), -EFBIG
 * (body over the cap), -ENOMEM, -EIO (anything else). */
typedef struct upk_http_response {
  int status;
  long code;        /* HTTP status code; 0 when none was read */
  const char *body; /* NUL-terminated; valid during the callback only */
  size_t body_len;
  long retry_after_ms;    /* from Retry-After or retry-after-ms; -1 if absent */
  const char *request_id; /* request-id / x-request-id header; "" if absent */
  const char *error;      /* curl's description when status < 0; "" otherwise */
  double elapsed_ms;
} upk_http_response;

typedef void (*upk_http_cb)(void *arg, const upk_http_response *resp);

/** Create the client on `loop` (curl's global state is set up by the first one). */
int upk_http_new(uv_loop_t *loop, upk_http **out);
/** Abandon every transfer in flight (their callbacks are not called), close
 * the loop handles and free the client once they are closed. NULL is fine. */
void upk_http_free(upk_http *h);

/** Start a transfer; `cb` is called from the loop, never from inside this call. `*out` (may be
 * NULL) identifies it for upk_http_cancel until then. Returns 0 or a negative errno (-EINVAL for a
 * bad request). */
int upk_http_start(upk_http *h, const upk_http_request *rq, upk_http_cb cb, void *arg,
                   upk_http_req **out);
/** Stop a transfer in flight; its callback is not called. */
void upk_http_cancel(upk_http_req *r);

/** Transfers in flight. */
size_t upk_http_inflight(const upk_http *h);
/** Connections curl opened so far (a measure of reuse). */
long upk_http_connects(const upk_http *h);

#endif
