#include "clients/rpc_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "protocol/jsonrpc.h"

static void on_message(void *ud, const char *body, size_t len) {
  upk_client *c = ud;
  char err[256];
  json_t *v = upk_rpc_parse(body, len, err, sizeof err);
  if (v)
    json_array_append_new(c->inbox, v);
}

static void on_error(void *ud, int code, const char *message) {
  upk_client *c = ud;
  snprintf(c->error, sizeof c->error, "bad framing from the server: %s", message);
}

int upk_client_spawn(upk_client *c, char *const argv[], int timeout_ms) {
  memset(c, 0, sizeof *c);
  c->timeout_ms = timeout_ms;
  c->inbox = json_array();
  static const upk_framer_callbacks cb = {on_message, on_error};
  upk_framer_init(&c->framer, UPK_FRAMING_LSP, 1u << 30, &cb, c);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
    snprintf(c->error, sizeof c->error, "pipe: %s", strerror(errno));
    return -1;
  }
  c->pid = fork();
  if (c->pid < 0) {
    snprintf(c->error, sizeof c->error, "fork: %s", strerror(errno));
    return -1;
  }
  if (c->pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    execvp(argv[0], argv);
    fprintf(stderr, "upskillctl: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  c->to_server = in[1];
  c->from_server = out[0];
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int send_msg(upk_client *c, json_t *msg) {
  upk_buf body, framed;
  upk_buf_init(&body, SIZE_MAX - 1);
  upk_buf_init(&framed, SIZE_MAX - 1);
  int rc = upk_rpc_dump(msg, &body);
  if (!rc)
    rc = upk_frame_write(UPK_FRAMING_LSP, body.data, body.len, &framed);
  if (!rc && write_all(c->to_server, framed.data, framed.len)) {
    snprintf(c->error, sizeof c->error, "the server stopped reading: %s", strerror(errno));
    rc = -1;
  }
  upk_buf_free(&body);
  upk_buf_free(&framed);
  json_decref(msg);
  return rc ? -1 : 0;
}

int upk_client_notify(upk_client *c, const char *method, json_t *params) {
  return send_msg(c, upk_rpc_notification(method, params));
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Read more bytes into the framer; -1 on EOF/timeout with c->error set. */
static int pump(upk_client *c, long long deadline) {
  int left = (int)(deadline - now_ms());
  if (left <= 0) {
    snprintf(c->error, sizeof c->error, "no answer within %d s", c->timeout_ms / 1000);
    return -1;
  }
  struct pollfd p = {c->from_server, POLLIN, 0};
  int r = poll(&p, 1, c->on_tick && left > 250 ? 250 : left);
  if (r < 0 && errno == EINTR)
    return 0;
  if (r < 0) {
    snprintf(c->error, sizeof c->error, "poll: %s", strerror(errno));
    return -1;
  }
  if (r == 0) {
    if (c->on_tick)
      c->on_tick(c->ud);
    return 0; /* the deadline check above ends the wait */
  }
  char buf[65536];
  ssize_t n = read(c->from_server, buf, sizeof buf);
  if (n <= 0) {
    snprintf(c->error, sizeof c->error, "the server exited before answering");
    return -1;
  }
  upk_framer_feed(&c->framer, buf, (size_t)n);
  return 0;
}

/* Deliver queued notifications; return the response for `id` if it arrived. */
static json_t *take_response(upk_client *c, long long id) {
  while (json_array_size(c->inbox)) {
    json_t *m = json_incref(json_array_get(c->inbox, 0));
    json_array_remove(c->inbox, 0);
    json_t *mid = json_object_get(m, "id");
    const char *method = json_string_value(json_object_get(m, "method"));
    if (method && !mid && c->on_notify)
      c->on_notify(c->ud, method, json_object_get(m, "params"));
    if (!method && json_is_integer(mid) && json_integer_value(mid) == id)
      return m;
    json_decref(m);
  }
  return NULL;
}

json_t *upk_client_call(upk_client *c, const char *method, json_t *params) {
  long long id = c->next_id++;
  json_t *jid = json_integer(id);
  int rc = send_msg(c, upk_rpc_request(jid, method, params));
  json_decref(jid);
  if (rc)
    return NULL;
  long long deadline = now_ms() + c->timeout_ms;
  for (;;) {
    json_t *r = take_response(c, id);
    if (r)
      return r;
    if (pump(c, deadline))
      return NULL;
  }
}

int upk_client_close(upk_client *c) {
  int status = 0;
  close(c->to_server);
  long long deadline = now_ms() + 5000;
  while (waitpid(c->pid, &status, WNOHANG) == 0) {
    if (now_ms() > deadline) {
      kill(c->pid, SIGKILL);
      waitpid(c->pid, &status, 0);
      break;
    }
    usleep(2000);
  }
  close(c->from_server);
  upk_framer_free(&c->framer);
  json_decref(c->inbox);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
