/* Kernel checks: cache in front, worker pool behind (kernel_service.h). */
#include "daemon/kernels/kernel_service.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "common/diag.h"
#include "common/diag_json.h"
#include "common/env_options.h"
#include "common/fileio.h"
#include "common/install_path.h"
#include "common/map.h"
#include "common/trust.h"
#include "gpu/compile/cache.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/core/defer.h"
#include "daemon/kernels/worker_server.h"
#include "daemon/kernels/workers.h"
#include "gpu/compile/toolkit.h"
#include "gpu/project/projroot.h"
#include "gpu/worker/wire.h"

enum { CACHE_MAX = 512 };

typedef struct centry centry;
struct centry {
  char key[2 * 32 + 1];
  json_t *result; /* as the worker answered it */
  centry *prev, *next;
};
UPK_MAP_TYPED(centry_map, centry)

struct upk_kernels {
  upk_workers *pool;
  upk_map map;         /* key -> centry */
  centry *head, *tail; /* most recently used first */
  size_t n;
  unsigned long hits, misses;
  char cuda_path[PATH_MAX];
  char toolkit[32]; /* "13.0"; part of every key */
  bool test_faults;
  wordexp_t prefix; /* --worker-command split into argv (no command substitution) */
  bool has_prefix;
};
typedef struct upk_kernels upk_kernels;

struct upk_kcheck {
  upk_server *server;
  upk_wreq *wreq;
  upk_deferred answer; /* an answer known at once (a cache hit, a refusal), given from the loop */
  json_t *result;      /* ...that answer, and whether it came from the cache */
  bool cached;
  upk_kcheck_cb cb;
  void *arg;
  char key[2 * 32 + 1]; /* "" when the result must not be cached */
  unsigned timeout_ms;
  uint64_t started;
};

static upk_kernels *kernels_of(upk_server *s) {
  return upk_session_services(s)->kernels;
}

/* ---- the worker program ---- */

static void worker_path(char *buf, size_t len) {
  const char *env = upk_env_opts()->worker;
  if (env && *env) {
    snprintf(buf, len, "%s", env);
    return;
  }
  /* installed: <libexecdir>/upskilld/upskilld-worker; in the build tree: gpu/ */
  upk_install_path(UPK_INST_LIBEXEC, "upskilld-worker", "gpu/upskilld-worker", buf, len);
}

/* The configured launch prefix (--worker-command, else $UPSKILLD_WORKER_COMMAND),
 * split like a shell would but never running anything (WRDE_NOCMD). */
static int worker_prefix(upk_kernels *k, const char *cmd) {
  if (!cmd || !*cmd)
    cmd = upk_env_opts()->worker_command;
  if (!cmd || !*cmd)
    return 0;
  int rc = wordexp(cmd, &k->prefix, WRDE_NOCMD | WRDE_UNDEF);
  if (rc || k->prefix.we_wordc == 0) {
    if (rc == 0 || rc == WRDE_NOSPACE)
      wordfree(&k->prefix);
    upk_log(UPK_LOG_ERROR, "kernel workers: cannot use worker command '%s'", cmd);
    return UV_EINVAL;
  }
  k->has_prefix = true;
  return 0;
}

static void kernels_free(upk_kernels *k) {
  if (k->has_prefix)
    wordfree(&k->prefix);
  upk_map_clear(&k->map);
  free(k);
}

/* The worker server's idle timeout in seconds (--worker-server-idle, else
 * $UPSKILLD_WORKER_SERVER_IDLE, else 600); 0: no server. */
static unsigned server_idle(const upk_server *s) {
  if (!upk_session_options(s)->worker_server_idle)
    return upk_env_opts()->worker_server_idle;
  upk_env_options flag = {0}; /* the flag parsed as the variable is */
  upk_env_opts_parse(UPK_ENV_WORKER_SERVER_IDLE, upk_session_options(s)->worker_server_idle, &flag);
  return flag.worker_server_idle;
}

int upk_kernels_start(upk_server *s) {
  if (upk_session_services(s)->kernels)
    return 0;
  upk_kernels *k = upk_xcalloc(1, sizeof *k);
  if (worker_prefix(k, upk_session_options(s)->worker_command)) {
    free(k);
    return UV_EINVAL;
  }
  snprintf(k->cuda_path, sizeof k->cuda_path, "%s",
           upk_cuda_default_path(upk_session_options(s)->cuda_path));
  upk_cuda_toolkit_version(k->cuda_path, k->toolkit, sizeof k->toolkit);
  k->test_faults = upk_session_options(s)->test_methods;
  char path[PATH_MAX];
  worker_path(path, sizeof path);
  static const char *const faults_env[] = {"UPSKILLD_WORKER_FAULTS=1", NULL};
  char sock[PATH_MAX];
  unsigned idle_s = server_idle(s);
  bool server = idle_s && !k->has_prefix && !k->test_faults &&
                !upk_wserver_path(sock, sizeof sock, path, k->cuda_path);
  upk_workers_config cfg = {
      .worker_path = path,
      .prefix = k->has_prefix ? (const char *const *)k->prefix.we_wordv : NULL,
      .extra_env = k->test_faults ? faults_env : NULL,
      .warm = strcmp(k->toolkit, "none") ? 1 : 0,
      .timeout_ms = 60000,
      .server_path = server ? sock : NULL,
      .server_idle_s = idle_s,
  };
  int rc = upk_workers_init(&k->pool, upk_session_loop(s), &cfg);
  if (rc) {
    upk_log(UPK_LOG_ERROR, "kernel workers: %s", uv_strerror(rc));
    kernels_free(k);
    return rc;
  }
  upk_session_services(s)->kernels = k;
  return 0;
}

static void on_warm_timer(uv_timer_t *t) {
  upk_server *s = t->data;
  if (upk_session_state(s) != UPK_S_READY)
    return;
  /* The timer can beat the idle flush when answering took over 1 ms: the answer goes first. */
  upk_session_flush(s);
  upk_kernels_start(s);
}

/* Output is flushed from an idle handle each loop turn; a timer due 1 ms from
 * now fires after that flush, so the answer leaves before the spawn. The
 * loop's clock is stale after a blocking poll: refresh it, or the timer would
 * already be due at the next turn's timer phase, ahead of the flush. */
void upk_kernels_start_soon(upk_server *s) {
  if (upk_session_services(s)->kernels)
    return;
  uv_update_time(upk_session_loop(s));
  uv_timer_start(upk_session_warm_timer(s), on_warm_timer, 1, 0);
}

static void pool_closed(void *arg) {
  kernels_free(arg);
}

void upk_kernels_stop(upk_server *s) {
  upk_kernels *k = kernels_of(s);
  if (!k)
    return;
  upk_session_services(s)->kernels = NULL;
  for (centry *e = k->head, *next; e; e = next) {
    next = e->next;
    json_decref(e->result);
    free(e);
  }
  upk_map_clear(&k->map);
  upk_workers_close(k->pool, pool_closed, k);
}

struct upk_workers *upk_kernels_pool(upk_server *s) {
  return upk_session_services(s)->kernels ? upk_session_services(s)->kernels->pool : NULL;
}

const char *upk_kernels_cuda_path(const upk_server *s) {
  return upk_session_services(s)->kernels
             ? upk_session_services(s)->kernels->cuda_path
             : upk_cuda_default_path(upk_session_options(s)->cuda_path);
}

/* ---- the cache ---- */

static void lru_unlink(upk_kernels *k, centry *e) {
  *(e->prev ? &e->prev->next : &k->head) = e->next;
  *(e->next ? &e->next->prev : &k->tail) = e->prev;
  e->prev = e->next = NULL;
}

static void lru_push_front(upk_kernels *k, centry *e) {
  e->next = k->head;
  if (k->head)
    k->head->prev = e;
  k->head = e;
  if (!k->tail)
    k->tail = e;
}

static void cache_drop(upk_kernels *k, centry *e) {
  lru_unlink(k, e);
  centry_map_remove(&k->map, e->key);
  json_decref(e->result);
  free(e);
  k->n--;
}

static json_t *cache_get(upk_kernels *k, const char *key) {
  centry *e = centry_map_get(&k->map, key);
  if (!e)
    return NULL;
  if (!upk_kcache_fresh(e->result)) {
    cache_drop(k, e);
    return NULL;
  }
  lru_unlink(k, e);
  lru_push_front(k, e);
  return e->result;
}

static void cache_put(upk_kernels *k, const char *key, json_t *result) {
  centry *old = centry_map_get(&k->map, key);
  if (old)
    cache_drop(k, old);
  centry *e = upk_xcalloc(1, sizeof *e);
  snprintf(e->key, sizeof e->key, "%s", key);
  e->result = json_incref(result);
  centry_map_set(&k->map, e->key, e);
  lru_push_front(k, e);
  if (++k->n > CACHE_MAX)
    cache_drop(k, k->tail);
}

/* ---- checks ---- */

static double ms_since(uint64_t t0) {
  return (double)(uv_hrtime() - t0) / 1e6;
}

/* A result that is only a diagnostic: the worker could not give one. */
static json_t *failure_result(const char *code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static json_t *failure_result(const char *code, const char *fmt, ...) {
  upk_diags d = {0};
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(&d, UPK_SEV_ERROR, code, "upskilld", upk_range_line(0, 0, 0), fmt, ap);
  va_end(ap);
  json_t *r = json_pack("{s:b,s:s,s:o,s:[]}", "ok", 0, "backend", "nvrtc", "diagnostics",
                        upk_diags_json(&d), "kernels");
  upk_diags_free(&d);
  return r;
}

static json_t *status_result(const upk_kcheck *c, int status, const char *error) {
  switch (status) {
  case UV_ETIMEDOUT:
    return failure_result("kernel/timeout",
                          "the check did not finish within %u ms and its worker was stopped (a "
                          "runaway template instantiation, a huge unrolled loop, or a kernel "
                          "that never returns?)",
                          c->timeout_ms ? c->timeout_ms : 60000);
  case UV_EAGAIN: /* through a worker command that never started the worker */
    return failure_result("kernel/timeout", "%s", error ? error : "the worker did not start");
  case UV_EPIPE:
    return failure_result("kernel/worker-crashed",
                          "the compiler process died (%s); a fresh one takes its place",
                          error ? error : "no reason given");
  case UV_EPROTO:
    return failure_result("kernel/worker-protocol",
                          "the compiler process answered something that is not a reply; it was "
                          "replaced");
  case UV_ENOENT:
    return failure_result("kernel/no-worker", "cannot start upskilld-worker: %s",
                          error ? error : "not found");
  case UV_ECANCELED:
    return failure_result("kernel/cancelled", "the check was cancelled");
  default:
    return failure_result("kernel/worker-error", "%s", error ? error : uv_strerror(status));
  }
}

static void finish(upk_kcheck *c, json_t *result, bool cached) {
  json_t *copy = json_deep_copy(result);
  bool from_disk = json_is_true(json_object_get(copy, "diskCache"));
  json_object_del(copy, "diskCache");
  json_object_set_new(copy, "cached", json_boolean(cached || from_disk));
  if (cached || from_disk)
    json_object_set_new(copy, "cacheLevel", json_string(cached ? "memory" : "disk"));
  json_object_set_new(copy, "elapsedMs", json_real(ms_since(c->started)));
  if (c->cb) /* NULL once cancelled */
    c->cb(c->arg, copy);
  json_decref(copy);
  free(c);
}

static void on_worker(void *arg, int status, json_t *result, const char *error) {
  upk_kcheck *c = arg;
  upk_kernels *k = kernels_of(c->server);
  c->wreq = NULL;
  if (status == 0 && json_is_object(result)) {
    if (k && c->key[0])
      cache_put(k, c->key, result);
    finish(c, result, false);
    return;
  }
  if (status == 0)
    status = UV_EPROTO;
  json_t *r = status_result(c, status, error);
  finish(c, r, false);
  json_decref(r);
}

static void on_answer_due(void *arg) {
  upk_kcheck *c = arg;
  json_t *r = c->result;
  finish(c, r, c->cached);
  json_decref(r);
}

/* An answer known inside upk_kernels_check (`result` stolen): given from the loop, later, so
 * the caller has its handle before its callback runs. */
static upk_kcheck *answer_later(upk_kcheck *c, json_t *result, bool cached) {
  c->result = result;
  c->cached = cached;
  upk_defer(upk_session_defer(c->server), &c->answer, on_answer_due, c);
  return c;
}

/* What the user allows a check's compiler options (gpu/compile/options.h, docs/security.md
 * "Compiler options"): the user's own --allow-kernel-option globs, and the check's kernel-builder
 * project when the user trusts it (upk_trust_check: its build.toml's cuda-flags and include
 * dirs may then do what the user could). Decided here, in the daemon, from the user's store;
 * part of the cache key, so a project trusted, changed or untrusted since is checked again. */
static json_t *with_policy(const upk_server *s, const upk_kernel_req *req) {
  const upk_options *o = upk_session_options(s);
  static const char *const build_toml[] = {"build.toml"};
  char dir[PATH_MAX];
  struct stat st;
  bool found = false;
  if (req->project && realpath(req->project, dir) && stat(dir, &st) == 0) {
    found = true;
    if (!S_ISDIR(st.st_mode)) /* the build.toml it names */
      *strrchr(dir, '/') = '\0';
  } else if (req->wire.project_aware && req->file_dir)
    found = upk_find_up(req->file_dir, build_toml, 1, 16, dir); /* as gpu/project/hint.c looks */
  const char *trusted[1];
  upk_kernel_req r = *req;
  r.wire.allow_options = (const char **)o->allow_kernel_options;
  r.wire.n_allow_options = o->n_allow_kernel_options;
  r.wire.trusted_projects = trusted;
  r.wire.n_trusted_projects = 0;
  if (!r.wire.allow_options) /* none given: still sent, as an empty list */
    r.wire.allow_options = trusted;
  if (found && dir[0] && upk_trust_check(dir) == UPK_TRUST_YES)
    trusted[r.wire.n_trusted_projects++] = dir;
  return upk_kernel_req_encode(&r);
}

upk_kcheck *upk_kernels_check(upk_server *s, const upk_kernel_req *req, unsigned timeout_ms,
                              bool use_cache, upk_kcheck_cb cb, void *arg) {
  upk_kcheck *c = upk_xcalloc(1, sizeof *c);
  /* the pool's deadline covers the compile and a run */
  *c = (upk_kcheck){.server = s,
                    .cb = cb,
                    .arg = arg,
                    .timeout_ms = timeout_ms + upk_kernel_req_run_ms(req),
                    .started = uv_hrtime()};
  upk_kernels *k = kernels_of(s);
  if ((!k && upk_kernels_start(s)) || !(k = kernels_of(s)))
    return answer_later(
        c, failure_result("kernel/no-worker", "the kernel service is not available"), false);
  json_t *params = with_policy(s, req);
  if (!params)
    return answer_later(c, failure_result("kernel/no-worker", "out of memory"), false);
  /* Runs are measurements: never answered from, nor stored in, the cache. */
  if (json_object_get(params, "run") || upk_kcache_key(params, k->toolkit, c->key))
    c->key[0] = '\0';
  json_t *hit = use_cache && c->key[0] ? cache_get(k, c->key) : NULL;
  if (hit) {
    k->hits++;
    json_decref(params);
    /* the entry may be dropped before the answer is given: the answer holds it */
    return answer_later(c, json_incref(hit), true);
  }
  k->misses++;
  const char *op = json_object_get(params, "run") ? "run" : "validate";
  c->wreq = upk_workers_submit(k->pool, op, params, c->timeout_ms, on_worker, c);
  if (!c->wreq)
    return answer_later(c, failure_result("kernel/no-worker", "the worker pool refused the check"),
                        false);
  return c;
}

void upk_kcheck_cancel(upk_kcheck *c) {
  if (!c)
    return;
  c->cb = NULL;
  if (upk_defer_pending(&c->answer)) { /* an answer not given yet: nothing else holds c */
    upk_defer_cancel(&c->answer);
    json_decref(c->result);
    free(c);
    return;
  }
  upk_wreq *w = c->wreq;
  c->wreq = NULL;
  if (w)
    upk_wreq_cancel(w); /* on_worker runs now, sees no callback, frees c */
}

json_t *upk_kernels_status(upk_server *s) {
  upk_kernels *k = kernels_of(s);
  if (!k)
    return json_pack("{s:b}", "started", 0);
  upk_workers_stats st;
  upk_workers_stats_get(k->pool, &st);
  return json_pack("{s:b,s:s,s:{s:i,s:i,s:i,s:I,s:I,s:I,s:I,s:s?},s:{s:I,s:I,s:I}}", "started", 1,
                   "toolkit", k->toolkit, "workers", "running", st.running, "idle", st.idle,
                   "queued", st.queued, "started", (json_int_t)st.started, "killed",
                   (json_int_t)st.killed, "crashed", (json_int_t)st.crashed, "fromServer",
                   (json_int_t)st.from_server, "serverSocket", st.server_path, "cache", "entries",
                   (json_int_t)k->n, "hits", (json_int_t)k->hits, "misses", (json_int_t)k->misses);
}
