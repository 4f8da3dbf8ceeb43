/* The HTTP client on a real libuv loop against a tiny loopback server in the same loop: answers
 * and the headers read from them, the body cap, errors, cancellation, and freeing the client
 * with transfers in flight (every handle closed, the loop closes cleanly). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "tests/unit/unit.h"
#include "models/http.h"

/* ---- a loopback server: reads a request head, writes `reply` (or nothing) ---- */

typedef struct conn {
  uv_tcp_t tcp;
  char head[4096];
  size_t len;
  bool answered;
  struct conn *next;
} conn;

static struct {
  uv_loop_t loop;
  uv_tcp_t listener;
  int port;
  const char *reply; /* NULL: never answer */
  int accepted;
  conn *conns;
} srv;

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *buf) {
  conn *c = h->data;
  buf->base = c->head + c->len;
  buf->len = sizeof c->head - 1 - c->len;
}

static void write_done(uv_write_t *w, int status) {
  free(w);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  conn *c = s->data;
  if (n <= 0)
    return; /* EOF or error: closed at the end */
  c->len += (size_t)n;
  c->head[c->len] = 0;
  if (!c->answered && srv.reply && strstr(c->head, "\r\n\r\n")) {
    c->answered = true;
    uv_write_t *w = malloc(sizeof *w);
    uv_buf_t out = uv_buf_init((char *)srv.reply, (unsigned)strlen(srv.reply));
    uv_write(w, s, &out, 1, write_done);
  }
}

static void on_connection(uv_stream_t *l, int status) {
  conn *c = calloc(1, sizeof *c);
  uv_tcp_init(&srv.loop, &c->tcp);
  c->tcp.data = c;
  cr_assert_eq(uv_accept(l, (uv_stream_t *)&c->tcp), 0);
  c->next = srv.conns;
  srv.conns = c;
  srv.accepted++;
  uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, on_read);
}

static void server_start(const char *reply) {
  memset(&srv, 0, sizeof srv);
  uv_loop_init(&srv.loop);
  srv.reply = reply;
  struct sockaddr_in a;
  uv_ip4_addr("127.0.0.1", 0, &a);
  uv_tcp_init(&srv.loop, &srv.listener);
  cr_assert_eq(uv_tcp_bind(&srv.listener, (const struct sockaddr *)&a, 0), 0);
  cr_assert_eq(uv_listen((uv_stream_t *)&srv.listener, 16, on_connection), 0);
  struct sockaddr_in got;
  int len = sizeof got;
  uv_tcp_getsockname(&srv.listener, (struct sockaddr *)&got, &len);
  srv.port = ntohs(got.sin_port);
}

static void conn_closed(uv_handle_t *h) {
  free(h->data);
}

/* Close the server's handles, run the loop dry, and require it to close cleanly. */
static void server_stop(void) {
  for (conn *c = srv.conns, *next; c; c = next) {
    next = c->next;
    uv_close((uv_handle_t *)&c->tcp, conn_closed);
  }
  uv_close((uv_handle_t *)&srv.listener, NULL);
  uv_run(&srv.loop, UV_RUN_DEFAULT);
  cr_assert_eq(uv_loop_close(&srv.loop), 0, "a handle was left open");
}

/* ---- the client's side ---- */

typedef struct seen {
  int calls, status;
  long code, retry_after_ms;
  char body[256], request_id[64];
} seen;

static void on_done(void *arg, const upk_http_response *r) {
  seen *s = arg;
  s->calls++;
  s->status = r->status;
  s->code = r->code;
  s->retry_after_ms = r->retry_after_ms;
  snprintf(s->body, sizeof s->body, "%s", r->body);
  snprintf(s->request_id, sizeof s->request_id, "%s", r->request_id);
}

static upk_http_request post(char *url, size_t max) {
  snprintf(url, 64, "http://127.0.0.1:%d/v1/messages", srv.port);
  static const char *const headers[] = {"Content-Type: application/json", NULL};
  return (upk_http_request){.url = url,
                            .headers = headers,
                            .body = "{}",
                            .body_len = 2,
                            .timeout_ms = 10000,
                            .max_response = max};
}

/* One request to the server, the loop run until it is answered. */
static seen exchange(const char *reply, size_t max) {
  server_start(reply);
  upk_http *h;
  cr_assert_eq(upk_http_new(&srv.loop, &h), 0);
  char url[64];
  upk_http_request rq = post(url, max);
  seen s = {0};
  cr_assert_eq(upk_http_start(h, &rq, on_done, &s, NULL), 0);
  cr_assert_eq(s.calls, 0, "the callback never runs before start returns");
  while (!s.calls)
    uv_run(&srv.loop, UV_RUN_ONCE);
  cr_assert_eq(upk_http_inflight(h), 0);
  upk_http_free(h);
  server_stop();
  return s;
}

UTest(http, answer_and_headers) {
  seen s = exchange("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nrequest-id: req_1\r\n"
                    "Content-Length: 5\r\n\r\nhello",
                    0);
  cr_assert_eq(s.calls, 1);
  cr_assert_eq(s.status, 0);
  cr_assert_eq(s.code, 429);
  cr_assert_eq(s.retry_after_ms, 2000);
  cr_assert_str_eq(s.request_id, "req_1");
  cr_assert_str_eq(s.body, "hello");
}

UTest(http, openai_retry_after_ms_wins) {
  seen s = exchange("HTTP/1.1 503 Busy\r\nretry-after-ms: 250\r\nRetry-After: 9\r\n"
                    "x-request-id: x9\r\nContent-Length: 0\r\n\r\n",
                    0);
  cr_assert_eq(s.code, 503);
  cr_assert_eq(s.retry_after_ms, 250);
  cr_assert_str_eq(s.request_id, "x9");
}

UTest(http, body_over_the_cap) {
  seen s = exchange("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", 4);
  cr_assert_eq(s.status, -EFBIG);
}

UTest(http, truncated_body) {
  seen s = {0};
  server_start("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
  upk_http *h;
  cr_assert_eq(upk_http_new(&srv.loop, &h), 0);
  char url[64];
  upk_http_request rq = post(url, 0);
  cr_assert_eq(upk_http_start(h, &rq, on_done, &s, NULL), 0);
  while (!srv.conns || !srv.conns->answered)
    uv_run(&srv.loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&srv.conns->tcp, conn_closed); /* hang up mid-body */
  srv.conns = NULL;
  while (!s.calls)
    uv_run(&srv.loop, UV_RUN_ONCE);
  cr_assert_eq(s.status, -EPROTO);
  upk_http_free(h);
  server_stop();
}

UTest(http, refused_and_invalid) {
  server_start(NULL);
  int port = srv.port;
  uv_close((uv_handle_t *)&srv.listener, NULL); /* nobody listens there any more */
  uv_run(&srv.loop, UV_RUN_NOWAIT);
  uv_tcp_init(&srv.loop, &srv.listener); /* for server_stop */
  upk_http *h;
  cr_assert_eq(upk_http_new(&srv.loop, &h), 0);
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
  upk_http_request rq = {.url = url};
  seen s = {0};
  cr_assert_eq(upk_http_start(h, &rq, on_done, &s, NULL), 0);
  while (!s.calls)
    uv_run(&srv.loop, UV_RUN_ONCE);
  cr_assert_eq(s.status, -ECONNREFUSED);
  cr_assert_eq(s.code, 0);
  upk_http_request bad = {.url = "ftp://127.0.0.1/"};
  cr_assert_eq(upk_http_start(h, &bad, on_done, &s, NULL), -EINVAL);
  upk_http_free(h);
  server_stop();
}

UTest(http, cancel_and_free_with_transfers_in_flight) {
  server_start(NULL); /* accepts, reads, never answers */
  upk_http *h;
  cr_assert_eq(upk_http_new(&srv.loop, &h), 0);
  char url[64];
  upk_http_request rq = post(url, 0);
  seen s = {0};
  upk_http_req *first;
  for (int i = 0; i < 4; i++)
    cr_assert_eq(upk_http_start(h, &rq, on_done, &s, i ? NULL : &first), 0);
  while (srv.accepted < 4)
    uv_run(&srv.loop, UV_RUN_ONCE);
  upk_http_cancel(first);
  cr_assert_eq(upk_http_inflight(h), 3);
  upk_http_free(h); /* three still in flight */
  server_stop();    /* requires every poll and the timer closed */
  cr_assert_eq(s.calls, 0, "no callback after cancel or free");
}

UTest(http, connections_are_reused) {
  server_start("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  upk_http *h;
  cr_assert_eq(upk_http_new(&srv.loop, &h), 0);
  char url[64];
  upk_http_request rq = post(url, 0);
  for (int i = 0; i < 3; i++) {
    seen s = {0};
    if (srv.conns) { /* the next request on the same connection gets its own answer */
      srv.conns->answered = false;
      srv.conns->len = 0;
    }
    cr_assert_eq(upk_http_start(h, &rq, on_done, &s, NULL), 0);
    while (!s.calls)
      uv_run(&srv.loop, UV_RUN_ONCE);
    cr_assert_eq(s.code, 200);
  }
  cr_assert_eq(srv.accepted, 1, "one connection for three requests");
  cr_assert_eq(upk_http_connects(h), 1);
  upk_http_free(h);
  server_stop();
}
