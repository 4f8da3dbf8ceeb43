/* The worker pool (see workers.h): upskilld-worker processes on pipes, supervised on the loop.
 *
 * Each worker is in exactly one list: idle (most recently used first, so NVRTC's -pch stays
 * warm), busy (one request each) or dying (killed or exited, its handles closing). Requests
 * wait in a FIFO queue. Work is handed out only from the `kick` timer, never inside
 * upk_workers_submit, so a callback never runs before submit has returned its request.
 * Every callback is delivered last, once the pool is consistent, so it may submit, cancel
 * or close freely. */
#include "daemon/kernels/workers_int.h"

#include <unistd.h>

#include "daemon/kernels/worker_server.h"
#include "gpu/worker/wire.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static void schedule(upk_workers *p);
static void on_deadline(uv_timer_t *t);

/* ---- delivering ---- */

/* Free the request, then call its callback: nothing of the pool is touched afterwards. */
static void deliver(upk_wreq *r, int status, json_t *result, const char *error) {
  upk_wreq_cb cb = r->cb;
  void *arg = r->arg;
  json_decref(r->params);
  free(r->op);
  free(r);
  cb(arg, status, result, error);
}

/* ---- worker lifetime ---- */

static void pool_maybe_done(upk_workers *p) {
  if (!p->closing || p->kick_open || p->n_workers)
    return;
  void (*done)(void *) = p->done;
  void *arg = p->done_arg;
  for (char **a = p->argv; a && *a; a++)
    free(*a);
  for (char **e = p->extra_env; e && *e; e++)
    free(*e);
  free(p->argv);
  free(p->extra_env);
  free(p->server_path);
  free(p);
  if (done)
    done(arg);
}

void upk__worker_on_handle_closed(uv_handle_t *h) {
  worker *w = h->data;
  if (--w->open)
    return;
  upk_workers *p = w->pool;
  ring_remove(&w->node);
  if (w->pidfd >= 0)
    close(w->pidfd);
  upk_buf_free(&w->in);
  free(w);
  p->n_workers--;
  pool_maybe_done(p);
}

static void close_once(uv_handle_t *h) {
  if (!uv_is_closing(h))
    uv_close(h, upk__worker_on_handle_closed);
}

void upk__worker_set_state(worker *w, wstate s) {
  upk_workers *p = w->pool;
  p->n_idle -= w->state == W_IDLE;
  p->n_busy -= w->state == W_BUSY;
  ring_remove(&w->node);
  w->state = s;
  p->n_idle += s == W_IDLE;
  p->n_busy += s == W_BUSY;
  /* Idle: most recently used at the front. */
  ring *list = s == W_IDLE ? &p->idle : s == W_BUSY ? &p->busy : &p->dying;
  ring_insert(s == W_IDLE ? list : list->prev, &w->node);
}

/* Stop using the worker; a local one's process handle closes once its exit is seen. */
void upk__worker_retire(worker *w) {
  if (w->state != W_DYING)
    upk__worker_set_state(w, W_DYING);
  uv_timer_stop(&w->deadline);
  close_once((uv_handle_t *)&w->deadline);
  close_once((uv_handle_t *)&w->to);
  close_once((uv_handle_t *)&w->from);
  /* A local worker's stop escalates (workers_spawn.c) until its exit is seen. */
  if (w->exited || w->remote)
    close_once((uv_handle_t *)&w->escalate);
  if (w->exited && w->has_err) /* until its exit, its stderr may still name its job */
    close_once((uv_handle_t *)&w->err);
  if (w->exited && !w->remote)
    close_once((uv_handle_t *)&w->proc);
}

void upk__worker_kill(worker *w) {
  if (!w->exited && !w->killed) {
    w->killed = true;
    w->pool->killed++;
    upk__worker_signal_kill(w);
  }
  upk__worker_retire(w);
}

/* Done with an idle worker: a local one is killed, a remote one goes back to its server. */
static void release(worker *w) {
  if (w->remote)
    upk__worker_retire(w);
  else
    upk__worker_kill(w);
}

/* Put a request that never ran back at the head of the queue. */
static void requeue(upk_wreq *r) {
  ring_insert(&r->pool->queue, &r->node);
  r->pool->n_queued++;
}

/* Take the running request off the worker (which is then killed or made idle). */
static upk_wreq *detach(worker *w) {
  upk_wreq *r = w->req;
  w->req = NULL;
  if (r)
    r->w = NULL;
  uv_timer_stop(&w->deadline);
  return r;
}

/* The running request fails with `status`; the worker is killed and replaced. */
static void fail_running(worker *w, int status, const char *error) {
  upk_wreq *r = detach(w);
  upk__worker_kill(w);
  schedule(w->pool);
  if (r)
    deliver(r, status, NULL, error);
}

/* The worker's process is gone (`how` says how): its request, if any, fails with UV_EPIPE. */
static void ended(worker *w, const char *how) {
  upk_workers *p = w->pool;
  w->exited = true;
  if (!w->killed && w->state != W_DYING)
    p->crashed++;
  upk_wreq *r = w->state == W_BUSY ? detach(w) : NULL;
  upk__worker_retire(w);
  if (!r)
    return;
  schedule(p); /* a replacement, and the queue */
  deliver(r, UV_EPIPE, NULL, how);
}

/* The worker command's name ("srun") when workers start through one, else NULL. */
static const char *launcher(const upk_workers *p) {
  return p->argv && p->argv[0] && p->argv[1] ? upk__command_name(p) : NULL;
}

void upk__worker_on_exit(uv_process_t *proc, int64_t status, int sig) {
  worker *w = proc->data;
  if (w->has_err) {
    upk__launcher_drain(w);
    if (w->stop != STOP_NONE)
      upk__launcher_cancel_job(w); /* killed before it could cancel its job itself */
  }
  upk__worker_stop_ended(w);
  const char *via = launcher(w->pool);
  char msg[640];
  int n = sig ? snprintf(msg, sizeof msg, "%s%skilled by signal %d", via ? via : "", via ? " " : "",
                         sig)
              : snprintf(msg, sizeof msg, "%s%sexited with status %lld", via ? via : "",
                         via ? " " : "", (long long)status);
  /* Through a scheduler, a launch that never ran the worker is the scheduler's refusal: its
   * own words say why. */
  if (via && !w->answered && n > 0 && (size_t)n < sizeof msg)
    snprintf(msg + n, sizeof msg - (size_t)n, " before upskilld-worker answered anything: %s",
             w->said[0] ? w->said
                        : "did the scheduler refuse or end the job? (it said nothing on stderr)");
  else if (via && w->said[0] && n > 0 && (size_t)n < sizeof msg)
    snprintf(msg + n, sizeof msg - (size_t)n, "; its last words: %s", w->said);
  ended(w, msg);
}

/* A remote worker that never took its connection (no greeting): its request, which never ran,
 * goes back to the queue for another worker, and the server is left alone for a while. */
static void server_failed_us(worker *w) {
  upk_workers *p = w->pool;
  upk_wreq *r = w->state == W_BUSY ? detach(w) : NULL;
  w->exited = true;
  p->server_off_until = uv_now(p->loop) + UPK__SERVER_RETRY_MS;
  upk__worker_retire(w);
  if (r)
    requeue(r);
  schedule(p);
}

/* A remote worker's connection ended. */
static void remote_gone(worker *w) {
  if (w->greeted)
    ended(w, "its worker in the worker server died (crashed or was killed)");
  else
    server_failed_us(w);
}

/* ---- replies ---- */

void upk__worker_on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  worker *w = h->data;
  size_t avail = 0;
  char *at = upk_buf_space(&w->in, READ_CHUNK, &avail); /* NULL: read_cb sees UV_ENOBUFS */
  *buf = uv_buf_init(at, at ? (unsigned)avail : 0);
}

/* A short printable excerpt of a line, for the error message. */
static void excerpt(char *out, size_t n, const char *line, size_t len) {
  size_t k = 0;
  for (; k < len && k + 4 < n; k++)
    out[k] = line[k] >= 0x20 && line[k] < 0x7f ? line[k] : '?';
  if (k < len)
    memcpy(out + k, "...", 3), k += 3;
  out[k] = '\0';
}

/* 0 with the reply's result or error message, or UV_EPROTO. */
static int parse_reply(json_t *msg, json_int_t id, json_t **result, const char **error) {
  upk_wire_result r;
  if (upk_wire_result_decode(msg, id, &r))
    return UV_EPROTO;
  *result = r.result;
  *error = r.error;
  return 0;
}

/* One whole line of `len` bytes at the start of the buffer. */
static void on_line(worker *w, size_t len) {
  if (w->state != W_BUSY) {
    upk__worker_kill(w); /* it spoke unasked: it cannot be trusted with the next request */
    return;
  }
  json_t *result = NULL;
  const char *error = NULL;
  json_t *msg = json_loadb(w->in.data, len, JSON_ALLOW_NUL, NULL);
  if (!msg || parse_reply(msg, w->req->id, &result, &error)) {
    char what[160], text[96];
    excerpt(text, sizeof text, w->in.data, len);
    snprintf(what, sizeof what, "the worker wrote something that is not a reply: %s", text);
    json_decref(msg);
    fail_running(w, UV_EPROTO, what);
    return;
  }
  upk_wreq *r = detach(w);
  w->answered = true;
  bool extra = w->in.len > len + 1; /* more than one line per request */
  /* A fatal result (poisoned CUDA context) is the worker's last word: it
   * exits right after it. Retire it now, before schedule() can hand it the
   * next request, which would find it dead. */
  bool last_word = json_is_true(json_object_get(result, "fatal"));
  w->scanned = 0;
  if (w->in.cap > KEEP_BUF)
    upk_buf_free(&w->in);
  else
    upk_buf_reset(&w->in);
  if (extra)
    upk__worker_kill(w);
  else if (last_word)
    upk__worker_retire(w);
  else
    upk__worker_set_state(w, W_IDLE);
  schedule(w->pool);
  deliver(r, error ? UV_EINVAL : 0, result, error);
  json_decref(msg);
}

/* A remote worker's first line is its greeting, which arms the request's real deadline. 0, or
 * the worker was killed (not a greeting). */
static int on_greeting(worker *w, size_t len) {
  if (upk__worker_greeting(w, w->in.data, len)) {
    if (w->state == W_BUSY)
      fail_running(w, UV_EPROTO, "the worker server sent no greeting");
    else
      upk__worker_kill(w);
    return UV_EPROTO;
  }
  upk_buf_consume(&w->in, len + 1);
  w->scanned = 0;
  if (w->req) {
    json_decref(w->req->params); /* kept until now in case it had to run elsewhere */
    w->req->params = NULL;
    uv_timer_start(&w->deadline, on_deadline, w->req->timeout_ms, 0);
  }
  return 0;
}

void upk__worker_on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  (void)buf;
  worker *w = s->data;
  if (nread < 0) {
    uv_read_stop(s);
    if (nread == UV_ENOBUFS && w->state == W_BUSY)
      fail_running(w, UV_ENOMEM, "out of memory reading the worker's reply");
    else if (w->remote)
      remote_gone(w);
    else if (nread != UV_EOF)
      upk__worker_kill(w);
    return; /* at EOF its exit follows; the deadline covers one that never comes */
  }
  upk_buf_added(&w->in, (size_t)nread);
  char *nl = memchr(w->in.data + w->scanned, '\n', w->in.len - w->scanned);
  if (nl && w->remote && !w->greeted) {
    if (on_greeting(w, (size_t)(nl - w->in.data)))
      return;
    nl = memchr(w->in.data, '\n', w->in.len);
  }
  if (nl) {
    on_line(w, (size_t)(nl - w->in.data));
    return;
  }
  w->scanned = w->in.len;
  if (w->in.len > REPLY_CAP) {
    uv_read_stop(s);
    if (w->state == W_BUSY)
      fail_running(w, UV_EPROTO, "the worker's reply is over 256 MiB");
    else
      upk__worker_kill(w);
  }
}

/* ---- running requests ---- */

static void on_deadline(uv_timer_t *t) {
  worker *w = t->data;
  if (w->remote && !w->greeted) { /* the server did not take it in time: run it here */
    server_failed_us(w);
    return;
  }
  char msg[320];
  unsigned ms = w->req ? w->req->timeout_ms : 0;
  const char *via = launcher(w->pool);
  if (via && !w->answered) { /* e.g. srun waiting in the queue of a down partition */
    snprintf(msg, sizeof msg,
             "%s did not start upskilld-worker within %u ms (a job waiting in the scheduler's "
             "queue? srun --immediate=SECONDS in the worker command fails fast instead); it "
             "was stopped",
             via, ms);
    fail_running(w, UV_EAGAIN, msg);
    return;
  }
  snprintf(msg, sizeof msg, "no reply within %u ms: the worker was killed", ms);
  fail_running(w, UV_ETIMEDOUT, msg);
}

static void on_written(uv_write_t *wr, int status) {
  wline *l = (wline *)wr;
  worker *w = wr->handle->data;
  /* A worker that stopped reading is dead or dying: its exit says how. */
  if (status < 0 && status != UV_ECANCELED && w->req && w->req->id == l->id && !w->killed) {
    w->killed = true;
    w->pool->killed++;
    upk__worker_signal_kill(w);
  }
  free(l->text);
  free(l);
}

/* Send the request line to an idle worker, which becomes busy. */
static int start_on(worker *w, upk_wreq *r) {
  json_t *msg = json_pack("{s:I,s:s,s:O}", "id", r->id, "op", r->op, "params", r->params);
  wline *l = upk_xcalloc(1, sizeof *l);
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  size_t n = text ? strlen(text) : 0;
  char *line = text ? upk_xrealloc(text, n + 2) : NULL;
  if (!l || !line) {
    free(l);
    free(text);
    return UV_ENOMEM;
  }
  bool unsure = w->remote && !w->greeted; /* the request may yet have to run elsewhere */
  if (!unsure) {
    json_decref(r->params); /* sent: no need to hold it */
    r->params = NULL;
  }
  line[n] = '\n', line[n + 1] = '\0';
  *l = (wline){.id = r->id, .text = line};
  uv_buf_t b = uv_buf_init(line, (unsigned)(n + 1));
  upk__worker_set_state(w, W_BUSY);
  w->req = r;
  r->w = w;
  unsigned ms = unsure && r->timeout_ms > UPK__GREETING_MS ? UPK__GREETING_MS : r->timeout_ms;
  uv_timer_start(&w->deadline, on_deadline, ms, 0);
  int rc = uv_write(&l->wr, (uv_stream_t *)&w->to, &b, 1, on_written);
  if (rc) {
    free(line);
    free(l);
    fail_running(w, UV_EPIPE, "cannot write to the worker");
  }
  return 0;
}

/* Queued requests go to the most recently used idle worker, else to a new one while under
 * max_workers; a worker that cannot be started fails the request it was for. */
static void dispatch(upk_workers *p) {
  while (!p->closing && !RING_EMPTY(&p->queue) && (p->n_idle || p->n_busy < p->max)) {
    char err[600];
    int rc = p->n_idle ? 0 : upk__worker_spawn(p, err, sizeof err);
    worker *w = rc ? NULL : RING_ENTRY(p->idle.next, worker);
    upk_wreq *r = RING_ENTRY(p->queue.next, upk_wreq);
    ring_remove(&r->node);
    p->n_queued--;
    if (rc)
      deliver(r, rc, NULL, err);
    else if (start_on(w, r))
      deliver(r, UV_ENOMEM, NULL, "out of memory encoding the request");
  }
}

/* Keep `warm` workers alive, idle or busy (after init or a replaced one); spawn failures wait
 * for a request to report them. Busy ones count: a spare started while the first request
 * compiles would load NVRTC on the core that compile needs. */
static void top_up(upk_workers *p) {
  char err[600];
  int target = p->warm < p->max ? p->warm : p->max;
  while (!p->closing && p->n_idle + p->n_busy < target)
    if (upk__worker_spawn(p, err, sizeof err))
      return;
}

static void on_kick(uv_timer_t *t) {
  upk_workers *p = t->data;
  dispatch(p);
  top_up(p);
  if (!p->n_busy && !p->n_queued)
    upk__server_launch_if_wanted(p);
}

static void schedule(upk_workers *p) {
  if (!p->closing)
    uv_timer_start(&p->kick, on_kick, 0, 0);
}

/* ---- the public API ---- */

static char **strv_dup(const char *const *v, const char *last) {
  size_t n = 0;
  while (v && v[n])
    n++;
  char **out = upk_xcalloc(n + 2, sizeof *out);
  for (size_t i = 0; out && i < n + !!last; i++) {
    out[i] = upk_xstrdup(i < n ? v[i] : last);
  }
  return out;
}

static int auto_max(void) {
  unsigned n = uv_available_parallelism();
  return n < 1 ? 1 : n > AUTO_MAX_WORKERS ? AUTO_MAX_WORKERS : (int)n;
}

int upk_workers_init(upk_workers **out, uv_loop_t *loop, const upk_workers_config *cfg) {
  *out = NULL;
  if (!loop || !cfg || !cfg->worker_path || !*cfg->worker_path)
    return UV_EINVAL;
  upk_workers *p = upk_xcalloc(1, sizeof *p);
  p->argv = strv_dup(cfg->prefix, cfg->worker_path);
  p->extra_env = strv_dup(cfg->extra_env, NULL);
  /* The server's workers run the bare worker in the launching daemon's environment. */
  bool server = cfg->server_path && !cfg->prefix && !(cfg->extra_env && cfg->extra_env[0]);
  p->server_path = server ? upk_xstrdup(cfg->server_path) : NULL;
  p->server_idle_s = cfg->server_idle_s;
  if (!p->argv || !p->extra_env || (server && !p->server_path)) {
    p->closing = true; /* frees what was copied */
    pool_maybe_done(p);
    return UV_ENOMEM;
  }
  p->loop = loop;
  p->max = cfg->max_workers > 0 ? cfg->max_workers : auto_max();
  p->warm = cfg->warm < 0 ? 0 : cfg->warm > p->max ? p->max : cfg->warm;
  p->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : DEFAULT_TIMEOUT_MS;
  ring_init(&p->queue), ring_init(&p->idle), ring_init(&p->busy), ring_init(&p->dying);
  uv_timer_init(loop, &p->kick);
  p->kick.data = p;
  p->kick_open = true;
  top_up(p);
  *out = p;
  return 0;
}

upk_wreq *upk_workers_submit(upk_workers *w, const char *op, json_t *params, unsigned timeout_ms,
                             upk_wreq_cb cb, void *arg) {
  upk_wreq *r = w && !w->closing && op && cb ? upk_xcalloc(1, sizeof *r) : NULL;
  char *name = r ? upk_xstrdup(op) : NULL;
  if (!name) {
    free(r);
    json_decref(params);
    return NULL;
  }
  r->op = name;
  r->pool = w;
  r->id = ++w->next_id;
  r->params = params ? params : json_object();
  r->timeout_ms = timeout_ms ? timeout_ms : w->timeout_ms;
  r->cb = cb;
  r->arg = arg;
  ring_insert(w->queue.prev, &r->node);
  w->n_queued++;
  schedule(w);
  return r;
}

void upk_wreq_cancel(upk_wreq *r) {
  if (!r)
    return;
  worker *w = r->w;
  if (w) {
    detach(w);
    upk__worker_kill(w); /* the only way to stop a compile */
    schedule(r->pool);
  } else {
    ring_remove(&r->node);
    r->pool->n_queued--;
  }
  deliver(r, UV_ECANCELED, NULL, "cancelled");
}

void upk_workers_stats_get(const upk_workers *w, upk_workers_stats *st) {
  *st = (upk_workers_stats){0};
  if (!w)
    return;
  st->running = w->n_busy, st->idle = w->n_idle, st->queued = w->n_queued;
  st->started = w->started, st->killed = w->killed, st->crashed = w->crashed;
  st->from_server = w->from_server;
  st->server_path = w->server_path;
}

static void on_kick_closed(uv_handle_t *h) {
  upk_workers *p = h->data;
  p->kick_open = false;
  pool_maybe_done(p);
}

void upk_workers_close(upk_workers *w, void (*done)(void *arg), void *arg) {
  if (!w) {
    if (done)
      done(arg);
    return;
  }
  if (w->closing)
    return;
  w->closing = true;
  w->done = done;
  w->done_arg = arg;
  uv_close((uv_handle_t *)&w->kick, on_kick_closed); /* done always runs from the loop */
  /* Re-read the heads each time: a callback may cancel other requests. */
  while (!RING_EMPTY(&w->queue))
    upk_wreq_cancel(RING_ENTRY(w->queue.next, upk_wreq));
  while (!RING_EMPTY(&w->busy)) /* a busy worker always has its request */
    upk_wreq_cancel(RING_ENTRY(w->busy.next, worker)->req);
  while (!RING_EMPTY(&w->idle))
    release(RING_ENTRY(w->idle.next, worker));
  upk__server_launch_if_wanted(w);     /* for the daemons after this one */
  upk_wserver_forget(&w->server_proc); /* it serves on */
}
