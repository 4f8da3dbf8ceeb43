/* HTTP on the loop: curl's multi-socket API with libuv doing the waiting
 * (curl/curl docs/examples/multi-uv.c, with the pitfalls it skips handled:
 * CURL_CSELECT_ERR on poll errors, info_read always drained, one uv_poll_t
 * per socket stopped before curl closes the fd). */
#include "models/http.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/dynbuf.h"
#include "common/log.h"
#include "upk_config.h"
#include "common/xalloc.h"

enum {
  DEFAULT_CONNECT_MS = 10000,
  DEFAULT_TIMEOUT_MS = 120000,
  DEFAULT_MAX_RESPONSE = 16 << 20,
};

typedef struct sock {
  uv_poll_t poll;
  curl_socket_t fd;
  upk_http *h;
  bool closing;
  struct sock *prev, *next;
} sock;

struct upk_http_req {
  upk_http *h;
  CURL *easy;
  struct curl_slist *headers;
  char *body;
  upk_buf resp; /* the response body, capped at the request's max_response */
  bool too_big;
  long retry_after_ms;
  char request_id[128];
  char errbuf[CURL_ERROR_SIZE];
  upk_http_cb cb;
  void *arg;
  uint64_t started_ns;
  upk_http_req *prev, *next;
};

struct upk_http {
  uv_loop_t *loop;
  CURLM *multi;
  uv_timer_t timer;
  upk_http_req *reqs;
  sock *socks;
  size_t inflight;
  long connects;
  int open_handles; /* the timer and every poll not yet through its close callback */
  int depth;        /* > 0 while curl's results are being handed out */
  bool freeing;
};

/* curl_global_init is process-wide: the first client sets it up, the last tears it down. */
static int global_users;

static void http__release(upk_http *h) {
  if (--h->open_handles > 0 || !h->freeing)
    return;
  free(h);
  if (--global_users == 0)
    curl_global_cleanup();
}

static void sock__closed(uv_handle_t *handle) {
  sock *s = handle->data;
  upk_http *h = s->h;
  free(s);
  http__release(h);
}

static void timer__closed(uv_handle_t *handle) {
  http__release(handle->data);
}

static void sock__close(sock *s) {
  if (s->closing)
    return;
  s->closing = true;
  if (s->prev)
    s->prev->next = s->next;
  else
    s->h->socks = s->next;
  if (s->next)
    s->next->prev = s->prev;
  /* Stopping takes the fd out of epoll now, before curl closes it; the
   * memory goes in the close callback. */
  uv_poll_stop(&s->poll);
  uv_close((uv_handle_t *)&s->poll, sock__closed);
}

/* Hand every finished transfer to its owner. */
static void http__drain(upk_http *h);

static void on_poll(uv_poll_t *p, int status, int events) {
  sock *s = p->data;
  upk_http *h = s->h;
  int flags = 0, running;
  if (status < 0)
    flags = CURL_CSELECT_ERR;
  else
    flags = (events & UV_READABLE ? CURL_CSELECT_IN : 0) |
            (events & UV_WRITABLE ? CURL_CSELECT_OUT : 0);
  curl_multi_socket_action(h->multi, s->fd, flags, &running);
  http__drain(h);
}

static void on_timer(uv_timer_t *t) {
  upk_http *h = t->data;
  int running;
  curl_multi_socket_action(h->multi, CURL_SOCKET_TIMEOUT, 0, &running);
  http__drain(h);
}

/* CURLMOPT_SOCKETFUNCTION: watch, rewatch or forget a socket. */
static int socket_cb(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp) {
  upk_http *h = userp;
  sock *s = socketp;
  if (what == CURL_POLL_REMOVE) {
    if (s) {
      sock__close(s);
      curl_multi_assign(h->multi, fd, NULL);
    }
    return 0;
  }
  if (!s) {
    s = upk_xcalloc(1, sizeof *s);
    if (uv_poll_init_socket(h->loop, &s->poll, fd)) {
      free(s);
      return -1;
    }
    s->fd = fd;
    s->h = h;
    s->poll.data = s;
    s->next = h->socks;
    if (h->socks)
      h->socks->prev = s;
    h->socks = s;
    h->open_handles++;
    curl_multi_assign(h->multi, fd, s);
  }
  int events = (what & CURL_POLL_IN ? UV_READABLE : 0) | (what & CURL_POLL_OUT ? UV_WRITABLE : 0);
  return uv_poll_start(&s->poll, events, on_poll) ? -1 : 0;
}

/* CURLMOPT_TIMERFUNCTION: -1 stops the timer, anything else (re)arms it once.
 * Even 0 goes through the loop: curl must not be called from here. */
static int timer_cb(CURLM *multi, long ms, void *userp) {
  upk_http *h = userp;
  if (ms < 0)
    uv_timer_stop(&h->timer);
  else
    uv_timer_start(&h->timer, on_timer, (uint64_t)ms, 0);
  return 0;
}

int upk_http_new(uv_loop_t *loop, upk_http **out) {
  *out = NULL;
  if (global_users == 0 && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return -ENOMEM;
  global_users++;
  upk_http *h = upk_xcalloc(1, sizeof *h);
  if (h)
    h->multi = curl_multi_init();
  if (!h || !h->multi) {
    free(h);
    if (--global_users == 0)
      curl_global_cleanup();
    return -ENOMEM;
  }
  h->loop = loop;
  uv_timer_init(loop, &h->timer);
  h->timer.data = h;
  h->open_handles = 1;
  curl_multi_setopt(h->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
  curl_multi_setopt(h->multi, CURLMOPT_SOCKETDATA, h);
  curl_multi_setopt(h->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
  curl_multi_setopt(h->multi, CURLMOPT_TIMERDATA, h);
  curl_multi_setopt(h->multi, CURLMOPT_MAXCONNECTS, 64L); /* idle connections kept for reuse */
  *out = h;
  return 0;
}

static void req__unlink(upk_http_req *r) {
  upk_http *h = r->h;
  if (r->prev)
    r->prev->next = r->next;
  else
    h->reqs = r->next;
  if (r->next)
    r->next->prev = r->prev;
  h->inflight--;
}

static void req__free(upk_http_req *r) {
  curl_easy_cleanup(r->easy);
  curl_slist_free_all(r->headers);
  free(r->body);
  upk_buf_free(&r->resp);
  free(r);
}

static void http__teardown(upk_http *h) {
  /* Forget the sockets first, so none is watched once curl closes it. */
  while (h->socks) {
    curl_multi_assign(h->multi, h->socks->fd, NULL);
    sock__close(h->socks);
  }
  while (h->reqs) {
    upk_http_req *r = h->reqs;
    req__unlink(r);
    curl_multi_remove_handle(h->multi, r->easy);
    req__free(r);
  }
  curl_multi_cleanup(h->multi);
  h->multi = NULL;
  uv_timer_stop(&h->timer);
  uv_close((uv_handle_t *)&h->timer, timer__closed);
}

void upk_http_free(upk_http *h) {
  if (!h || h->freeing)
    return;
  h->freeing = true;
  if (h->depth == 0)
    http__teardown(h);
}

static int status_of(CURLcode rc, const upk_http_req *r) {
  switch (rc) {
  case CURLE_OK:
    return 0;
  case CURLE_OPERATION_TIMEDOUT:
    return -ETIMEDOUT;
  case CURLE_COULDNT_CONNECT:
    return -ECONNREFUSED;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
    return -EHOSTUNREACH;
  case CURLE_GOT_NOTHING:
  case CURLE_RECV_ERROR:
  case CURLE_SEND_ERROR:
    return -ECONNRESET;
  case CURLE_PARTIAL_FILE:
  case CURLE_WEIRD_SERVER_REPLY:
  case CURLE_BAD_CONTENT_ENCODING:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
    return -EPROTO;
  case CURLE_WRITE_ERROR:
    return r->too_big ? -EFBIG : -EIO;
  case CURLE_OUT_OF_MEMORY:
    return -ENOMEM;
  default:
    return -EIO;
  }
}

static void req__finish(upk_http_req *r, CURLcode rc) {
  upk_http *h = r->h;
  req__unlink(r);
  curl_multi_remove_handle(h->multi, r->easy);
  upk_http_response resp = {.status = status_of(rc, r), .retry_after_ms = r->retry_after_ms};
  long connects = 0;
  curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &resp.code);
  curl_easy_getinfo(r->easy, CURLINFO_NUM_CONNECTS, &connects);
  h->connects += connects;
  resp.body = r->resp.data ? r->resp.data : "";
  resp.body_len = r->resp.len;
  resp.request_id = r->request_id;
  resp.error = resp.status ? (r->errbuf[0] ? r->errbuf : curl_easy_strerror(rc)) : "";
  if (resp.status == -EFBIG)
    resp.error = "response body over the size cap";
  resp.elapsed_ms = (double)(uv_hrtime() - r->started_ns) / 1e6;
  r->cb(r->arg, &resp);
  req__free(r);
}

static void http__drain(upk_http *h) {
  CURLMsg *msg;
  int left;
  h->depth++;
  while (!h->freeing && (msg = curl_multi_info_read(h->multi, &left))) {
    if (msg->msg != CURLMSG_DONE)
      continue;
    upk_http_req *r = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
    if (r)
      req__finish(r, msg->data.result);
  }
  if (--h->depth == 0 && h->freeing && h->multi)
    http__teardown(h);
}

static size_t on_body(char *data, size_t size, size_t n, void *userp) {
  upk_http_req *r = userp;
  size_t len = size * n;
  if (upk_buf_append(&r->resp, data, len)) {
    r->too_big = true;
    return 0; /* curl ends the transfer with CURLE_WRITE_ERROR */
  }
  return len;
}

/* The value of header `name` in `line` ("Name: value\r\n"), copied trimmed; NULL otherwise. */
static const char *header_value(const char *line, size_t len, const char *name, char *out,
                                size_t outlen) {
  size_t n = strlen(name);
  if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
    return NULL;
  const char *v = line + n + 1, *end = line + len;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
    end--;
  size_t vl = (size_t)(end - v) < outlen - 1 ? (size_t)(end - v) : outlen - 1;
  memcpy(out, v, vl);
  out[vl] = 0;
  return out;
}

/* Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
static long retry_after_ms(const char *v) {
  char *end;
  long secs = strtol(v, &end, 10);
  if (end != v && !*end)
    return secs < 0 ? 0 : secs * 1000;
  time_t when = curl_getdate(v, NULL);
  if (when < 0)
    return -1;
  time_t now = time(NULL);
  return when > now ? (long)(when - now) * 1000 : 0;
}

static size_t on_header(char *data, size_t size, size_t n, void *userp) {
  upk_http_req *r = userp;
  size_t len = size * n;
  char v[128];
  if (len >= 5 && !strncmp(data, "HTTP/", 5)) { /* a new response (after 100, or a redirect) */
    r->retry_after_ms = -1;
    r->request_id[0] = 0;
  } else if (header_value(data, len, "retry-after-ms", v, sizeof v)) {
    double ms = strtod(v, NULL);
    r->retry_after_ms = ms > 0 ? (long)ms : 0; /* OpenAI's finer-grained hint wins */
  } else if (header_value(data, len, "retry-after", v, sizeof v)) {
    if (r->retry_after_ms < 0)
      r->retry_after_ms = retry_after_ms(v);
  } else if (!header_value(data, len, "request-id", r->request_id, sizeof r->request_id)) {
    header_value(data, len, "x-request-id", r->request_id, sizeof r->request_id);
  }
  return len;
}

static int req__headers(upk_http_req *r, const upk_http_request *rq) {
  /* No "Expect: 100-continue" round trip for large bodies. */
  struct curl_slist *l = curl_slist_append(NULL, "Expect:");
  for (const char *const *hp = rq->headers; l && hp && *hp; hp++) {
    struct curl_slist *n = curl_slist_append(l, *hp);
    if (!n) {
      curl_slist_free_all(l);
      l = NULL;
    } else {
      l = n;
    }
  }
  r->headers = l;
  return l ? 0 : -ENOMEM;
}

static void req__options(upk_http_req *r, const upk_http_request *rq) {
  CURL *e = r->easy;
  curl_easy_setopt(e, CURLOPT_URL, rq->url);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PRIVATE, r);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf);
  curl_easy_setopt(e, CURLOPT_USERAGENT, "upskilld/" UPK_VERSION);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, r->headers);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, r);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                   rq->connect_timeout_ms > 0 ? rq->connect_timeout_ms : (long)DEFAULT_CONNECT_MS);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
                   rq->timeout_ms > 0 ? rq->timeout_ms : (long)DEFAULT_TIMEOUT_MS);
  if (r->body) {
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)rq->body_len);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, r->body);
  }
  const char *method = rq->method ? rq->method : r->body ? "POST" : "GET";
  if (strcmp(method, r->body ? "POST" : "GET"))
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
}

int upk_http_start(upk_http *h, const upk_http_request *rq, upk_http_cb cb, void *arg,
                   upk_http_req **out) {
  if (out)
    *out = NULL;
  if (!h || h->freeing || !rq->url || !cb ||
      (strncmp(rq->url, "http://", 7) && strncmp(rq->url, "https://", 8)))
    return -EINVAL;
  upk_http_req *r = upk_xcalloc(1, sizeof *r);
  r->h = h;
  r->cb = cb;
  r->arg = arg;
  r->retry_after_ms = -1;
  upk_buf_init(&r->resp, rq->max_response ? rq->max_response : DEFAULT_MAX_RESPONSE);
  r->easy = curl_easy_init();
  if (rq->body) {
    r->body = upk_xmalloc(rq->body_len + 1);
    memcpy(r->body, rq->body, rq->body_len);
    r->body[rq->body_len] = 0;
  }
  if (!r->easy || req__headers(r, rq)) {
    req__free(r);
    return -ENOMEM;
  }
  req__options(r, rq);
  r->started_ns = uv_hrtime();
  if (curl_multi_add_handle(h->multi, r->easy) != CURLM_OK) {
    req__free(r);
    return -ENOMEM;
  }
  r->next = h->reqs;
  if (h->reqs)
    h->reqs->prev = r;
  h->reqs = r;
  h->inflight++;
  if (out)
    *out = r;
  return 0;
}

void upk_http_cancel(upk_http_req *r) {
  if (!r)
    return;
  req__unlink(r);
  curl_multi_remove_handle(r->h->multi, r->easy);
  req__free(r);
}

size_t upk_http_inflight(const upk_http *h) {
  return h ? h->inflight : 0;
}

long upk_http_connects(const upk_http *h) {
  return h ? h->connects : 0;
}
