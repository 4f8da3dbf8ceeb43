/* Completions with retries. Each completion owns a timer for its waits
 * between attempts and, while an attempt runs, one HTTP transfer; cancelling
 * removes the transfer from curl's multi handle and stops the timer. The
 * struct is freed from the timer's close callback, so a completion that ends
 * inside a curl callback never frees memory curl still walks. */
#include "models/models.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/log.h"
#include "common/xalloc.h"

enum {
  DEFAULT_ATTEMPTS = 4,
  DEFAULT_BACKOFF_MS = 500,
  DEFAULT_TIMEOUT_MS = 120000,
  DEFAULT_CONNECT_MS = 10000,
  BACKOFF_CAP_MS = 30000,
  MAX_RESPONSE = 16 << 20,
};

struct upk_models {
  uv_loop_t *loop;
  upk_http *http;
  upk_completion *list;
  size_t inflight;
  uint64_t rng;
};

struct upk_completion {
  upk_models *m;
  upk_model model;
  upk_wire wire;
  upk_retry_policy pol;
  uv_timer_t timer;
  upk_http_req *req;
  upk_completion_cb cb;
  upk_retry_cb on_retry;
  void *arg;
  int attempts;
  uint64_t started_ns, deadline_ns;
  long http_status;
  char request_id[128];
  char msg[1024];
  upk_completion *prev, *next;
};

int upk_models_new(uv_loop_t *loop, upk_models **out) {
  upk_models *m = upk_xcalloc(1, sizeof *m);
  int rc = upk_http_new(loop, &m->http);
  if (rc) {
    free(m);
    return rc;
  }
  m->loop = loop;
  m->rng = uv_hrtime() ^ ((uint64_t)getpid() << 32) ^ (uintptr_t)m;
  *out = m;
  return 0;
}

static void comp__closed(uv_handle_t *h) {
  upk_completion *c = h->data;
  upk_wire_free(&c->wire);
  free(c);
}

/* Take it out of the service and release it (after its callback, if any). */
static void comp__release(upk_completion *c) {
  upk_models *m = c->m;
  if (c->prev)
    c->prev->next = c->next;
  else
    m->list = c->next;
  if (c->next)
    c->next->prev = c->prev;
  m->inflight--;
  if (c->req)
    upk_http_cancel(c->req);
  c->req = NULL;
  uv_timer_stop(&c->timer);
  uv_close((uv_handle_t *)&c->timer, comp__closed);
}

void upk_completion_cancel(upk_completion *c) {
  if (c)
    comp__release(c);
}

void upk_models_free(upk_models *m) {
  if (!m)
    return;
  while (m->list)
    comp__release(m->list);
  upk_http_free(m->http);
  free(m);
}

size_t upk_models_inflight(const upk_models *m) {
  return m ? m->inflight : 0;
}

upk_http *upk_models_http(const upk_models *m) {
  return m ? m->http : NULL;
}

static double elapsed_ms(const upk_completion *c) {
  return (double)(uv_hrtime() - c->started_ns) / 1e6;
}

static void comp__finish(upk_completion *c, upk_merr error, const upk_answer *answer) {
  upk_completion_result r = {
      .error = error,
      .message = error ? c->msg : "",
      .http_status = c->http_status,
      .answer = answer,
      .attempts = c->attempts,
      .elapsed_ms = elapsed_ms(c),
      .request_id = c->request_id,
  };
  upk_completion_cb cb = c->cb;
  void *arg = c->arg;
  comp__release(c); /* first: the callback may free the service */
  cb(arg, &r);
}

/* xorshift64*: jitter needs no cryptographic quality, only independence between completions. */
static double random01(upk_models *m) {
  m->rng ^= m->rng >> 12;
  m->rng ^= m->rng << 25;
  m->rng ^= m->rng >> 27;
  return (double)((m->rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* Retry n (1-based): backoff * 2^(n-1), capped, then 50-100 % of that. */
static long backoff_ms(upk_completion *c, int n) {
  double d = (double)c->pol.backoff_ms;
  for (int i = 1; i < n && d < BACKOFF_CAP_MS; i++)
    d *= 2;
  if (d > BACKOFF_CAP_MS)
    d = BACKOFF_CAP_MS;
  return (long)(d * (0.5 + 0.5 * random01(c->m)));
}

static void comp__attempt(upk_completion *c);

static void on_wait_done(uv_timer_t *t) {
  comp__attempt(t->data);
}

static void comp__retry_or_finish(upk_completion *c, upk_merr kind, long retry_after_ms) {
  if (!upk_merr_retryable(kind) || c->attempts >= c->pol.max_attempts) {
    if (upk_merr_retryable(kind) && c->attempts > 1) {
      size_t n = strlen(c->msg);
      snprintf(c->msg + n, sizeof c->msg - n, " (gave up after %d attempts)", c->attempts);
    }
    comp__finish(c, kind, NULL);
    return;
  }
  long delay = backoff_ms(c, c->attempts);
  if (retry_after_ms > delay)
    delay = retry_after_ms; /* the server knows best when it will take us again */
  uint64_t now = uv_hrtime();
  if (now + (uint64_t)delay * 1000000u >= c->deadline_ns) {
    size_t n = strlen(c->msg);
    snprintf(c->msg + n, sizeof c->msg - n,
             " (gave up after %d attempt%s: waiting %ld ms more would pass the %ld ms deadline)",
             c->attempts, c->attempts == 1 ? "" : "s", delay, c->pol.timeout_ms);
    comp__finish(c, kind, NULL);
    return;
  }
  upk_info("%s: attempt %d failed (%s); retrying in %ld ms", c->model.name, c->attempts, c->msg,
           delay);
  if (c->on_retry)
    c->on_retry(c->arg, c->attempts + 1, delay, c->msg);
  uv_timer_start(&c->timer, on_wait_done, (uint64_t)delay, 0);
}

static void set_msg(upk_completion *c, const char *fmt, const char *a, const char *b) {
  char raw[sizeof c->msg];
  snprintf(raw, sizeof raw, fmt, a, b);
  char *safe = upk_redact(raw, c->wire.key);
  snprintf(c->msg, sizeof c->msg, "%s", safe ? safe : "(message withheld: out of memory)");
  upk_utf8_scrub(c->msg); /* the cut above may split a character */
  free(safe);
}

static void on_transport_error(upk_completion *c, const upk_http_response *resp) {
  /* Each attempt's curl timeout is the time left (floored to ms), and curl's clock may fire a
   * hair early: within 10 ms of the deadline the deadline is what ended it. */
  bool deadline = uv_hrtime() + 10 * 1000000u >= c->deadline_ns;
  const char *what = resp->status == -ETIMEDOUT ? "timed out"
                     : resp->status == -EPROTO  ? "response cut short or malformed HTTP"
                     : resp->status == -EFBIG   ? "response too large"
                                                : "connection failed";
  set_msg(c, "%s: %s", c->model.name, what);
  size_t n = strlen(c->msg);
  if (deadline && resp->status == -ETIMEDOUT)
    snprintf(c->msg + n, sizeof c->msg - n, " after %ld ms", c->pol.timeout_ms);
  n = strlen(c->msg);
  char *safe = upk_redact(resp->error, c->wire.key);
  snprintf(c->msg + n, sizeof c->msg - n, ": %s", safe ? safe : "");
  free(safe);
  if (resp->status == -EFBIG) {
    comp__finish(c, UPK_MERR_MALFORMED, NULL);
    return;
  }
  if (deadline) {
    comp__finish(c, UPK_MERR_TIMEOUT, NULL);
    return;
  }
  comp__retry_or_finish(c, UPK_MERR_CONNECTION, -1);
}

static void on_http(void *arg, const upk_http_response *resp) {
  upk_completion *c = arg;
  c->req = NULL;
  c->http_status = resp->code;
  snprintf(c->request_id, sizeof c->request_id, "%s", resp->request_id);
  if (resp->status < 0) {
    on_transport_error(c, resp);
    return;
  }
  upk_answer answer;
  char err[768];
  upk_merr kind = upk_provider_parse(&c->model, resp->code, resp->body, resp->body_len, &answer,
                                     err, sizeof err);
  if (kind == UPK_MERR_NONE) {
    char *safe = upk_redact(answer.text, c->wire.key);
    if (safe) { /* a key must not come back even if a server echoes it */
      free(answer.text);
      answer.text = safe;
    }
    comp__finish(c, UPK_MERR_NONE, &answer);
    upk_answer_free(&answer);
    return;
  }
  set_msg(c, "%s%s", err, "");
  comp__retry_or_finish(c, kind, resp->retry_after_ms);
}

static void comp__attempt(upk_completion *c) {
  uint64_t now = uv_hrtime();
  if (now >= c->deadline_ns) {
    snprintf(c->msg, sizeof c->msg, "%s: timed out after %ld ms", c->model.name, c->pol.timeout_ms);
    comp__finish(c, UPK_MERR_TIMEOUT, NULL);
    return;
  }
  long remaining = (long)((c->deadline_ns - now) / 1000000u);
  upk_http_request rq = {
      .url = c->wire.url,
      .headers = (const char *const *)c->wire.headers,
      .body = c->wire.body,
      .body_len = c->wire.body_len,
      .connect_timeout_ms = c->pol.connect_timeout_ms,
      .timeout_ms = remaining > 0 ? remaining : 1,
      .max_response = MAX_RESPONSE,
  };
  c->attempts++;
  upk_debug("%s: attempt %d: POST %s", c->model.name, c->attempts, c->wire.url);
  int rc = upk_http_start(c->m->http, &rq, on_http, c, &c->req);
  if (rc) {
    set_msg(c, "%s: cannot start the request: %s", c->model.name, strerror(-rc));
    comp__finish(c, UPK_MERR_CONNECTION, NULL);
  }
}

static void policy_defaults(upk_retry_policy *p, const upk_retry_policy *in) {
  *p = in ? *in : (upk_retry_policy){0};
  p->max_attempts = p->max_attempts > 0 ? p->max_attempts : DEFAULT_ATTEMPTS;
  p->backoff_ms = p->backoff_ms > 0 ? p->backoff_ms : DEFAULT_BACKOFF_MS;
  p->timeout_ms = p->timeout_ms > 0 ? p->timeout_ms : DEFAULT_TIMEOUT_MS;
  p->connect_timeout_ms = p->connect_timeout_ms > 0 ? p->connect_timeout_ms : DEFAULT_CONNECT_MS;
}

int upk_complete(upk_models *m, const upk_model *model, const upk_chat *chat,
                 const upk_retry_policy *policy, upk_completion_cb cb, upk_retry_cb on_retry,
                 void *arg, upk_completion **out, char *err, size_t errlen) {
  if (out)
    *out = NULL;
  upk_completion *c = upk_xcalloc(1, sizeof *c);
  int rc = upk_provider_request(model, chat, &c->wire, err, errlen);
  if (rc) {
    free(c);
    return rc;
  }
  c->m = m;
  c->model = *model;
  c->cb = cb;
  c->on_retry = on_retry;
  c->arg = arg;
  policy_defaults(&c->pol, policy);
  c->started_ns = uv_hrtime();
  c->deadline_ns = c->started_ns + (uint64_t)c->pol.timeout_ms * 1000000u;
  uv_timer_init(m->loop, &c->timer);
  c->timer.data = c;
  c->next = m->list;
  if (m->list)
    m->list->prev = c;
  m->list = c;
  m->inflight++;
  if (out)
    *out = c;
  /* Start from the loop, never inside the caller: the callback must come later. */
  uv_timer_start(&c->timer, on_wait_done, 0, 0);
  return 0;
}
