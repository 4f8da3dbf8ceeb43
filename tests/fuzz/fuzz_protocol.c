/* libFuzzer target for the protocol layer.
 *
 * The input is fed through an AUTO-mode upk_framer in two parts, split at a position chosen by
 * the input's last byte (the second part, for some inputs, one byte at a time), under a message
 * cap chosen by the input too. Every message goes through upk_rpc_parse, upk_rpc_classify and
 * the binder, gets the reply the daemon would build, and that reply is dumped, re-parsed,
 * framed and read back by a second framer. Broken invariants abort(), so they count as crashes:
 *   - a delivered message is never over the cap, and the framer never holds more than
 *     max(cap + 1, 8192) bytes between feeds (memory is bounded by the cap);
 *   - every error text (framing, JSON, classification, binder) is valid UTF-8, so the reply
 *     carries it rather than a fallback;
 *   - id keys are short and valid UTF-8;
 *   - a dumped reply has no newline, parses back, and survives its own framing unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/binder.h"
#include "tests/fuzz/fuzz_util.h"
#include "protocol/framing.h"
#include "protocol/jsonrpc.h"
#include "protocol/mcp.h"

typedef struct fuzz_state {
  upk_framer *f;
  size_t cap;
} fuzz_state;

typedef struct echo {
  const char *body;
  size_t len;
  int got;
} echo;

static const upk_param spec[] = {
    {"ms", UPK_T_INTEGER, 1, "milliseconds"},
    {"label", UPK_T_STRING, 0, NULL},
    {"protocolVersion", UPK_T_STRING, 0, NULL},
    {NULL, 0, 0, NULL},
};

static void echo_msg(void *ud, const char *body, size_t len) {
  echo *e = ud;
  CHECK(len == e->len && memcmp(body, e->body, len) == 0);
  e->got++;
}

static void echo_err(void *ud, int code, const char *message) {
  (void)ud;
  fprintf(stderr, "fuzz_protocol: reply did not reframe: %d %s\n", code, message);
  abort();
}

/* The text must be valid UTF-8: upk_rpc_error keeps it instead of its fallback. */
static json_t *error_reply(json_t *id, int code, const char *text) {
  CHECK(text && text[0]);
  json_t *r = upk_rpc_error(id, code, text, NULL);
  CHECK(r);
  const char *kept = json_string_value(json_object_get(json_object_get(r, "error"), "message"));
  CHECK(kept && strcmp(kept, text) == 0);
  return r;
}

/* Dump, re-parse, frame and read back the reply, as the daemon would send it. */
static void send_reply(upk_framing mode, json_t *reply) {
  upk_buf out;
  upk_buf_init(&out, (size_t)1 << 26);
  CHECK(upk_rpc_dump(reply, &out) == 0);
  CHECK(out.len > 0 && strlen(out.data) == out.len);
  CHECK(memchr(out.data, '\n', out.len) == NULL);
  char err[256];
  json_t *back = upk_rpc_parse(out.data, out.len, err, sizeof err);
  CHECK(back != NULL);
  json_decref(back);

  upk_buf framed;
  upk_buf_init(&framed, (size_t)1 << 27);
  CHECK(upk_frame_write(mode, out.data, out.len, &framed) == 0);
  echo e = {out.data, out.len, 0};
  static const upk_framer_callbacks cb = {echo_msg, echo_err};
  upk_framer g;
  upk_framer_init(&g, UPK_FRAMING_AUTO, out.len, &cb, &e);
  CHECK(upk_framer_feed(&g, framed.data, framed.len) == 0);
  CHECK(e.got == 1 && upk_framer_pending(&g) == 0);
  CHECK(upk_framer_mode(&g) == (mode == UPK_FRAMING_LSP ? UPK_FRAMING_LSP : UPK_FRAMING_MCP));
  upk_framer_free(&g);
  upk_buf_free(&framed);
  upk_buf_free(&out);
  json_decref(reply);
}

/* The reply to one JSON-RPC value, or NULL when none is due. */
static json_t *handle_value(json_t *v) {
  upk_rpc_msg m;
  upk_rpc_classify(v, &m);
  char key[UPK_RPC_KEY_MAX], err[256];
  if (m.id) {
    memset(key, 'Z', sizeof key);
    upk_rpc_id_key(m.id, key);
    CHECK(strlen(key) < UPK_RPC_KEY_MAX);
    json_t *s = json_string(key);
    CHECK(s != NULL);
    json_decref(s);
  }
  switch (m.kind) {
  case UPK_RPC_INVALID:
    CHECK(m.why && !m.method);
    return error_reply(m.id, UPK_RPC_INVALID_REQUEST, m.why);
  case UPK_RPC_RESPONSE:
    return NULL;
  case UPK_RPC_NOTIFICATION:
    CHECK(m.method && !m.id);
    json_decref(upk_rpc_notification(m.method, json_incref(m.params)));
    return NULL;
  case UPK_RPC_REQUEST:
    CHECK(m.method && m.id);
    if (upk_params_check(m.params, spec, err, sizeof err))
      return error_reply(m.id, UPK_RPC_INVALID_PARAMS, err);
    const char *rev = json_string_value(json_object_get(m.params, "protocolVersion"));
    json_t *result = json_pack("{s:s,s:s,s:O?,s:b}", "method", m.method, "protocolVersion",
                               upk_mcp_negotiate(rev), "params", m.params, "batches",
                               upk_mcp_allows_batches(rev));
    CHECK(result != NULL);
    return upk_rpc_result(m.id, result);
  }
  CHECK(!"unknown kind");
  return NULL;
}

static void on_message(void *ud, const char *body, size_t len) {
  fuzz_state *st = ud;
  CHECK(len <= st->cap);
  upk_framing mode = upk_framer_mode(st->f);
  CHECK(mode == UPK_FRAMING_LSP || mode == UPK_FRAMING_MCP);
  char err[256];
  json_t *v = upk_rpc_parse(body, len, err, sizeof err);
  if (!v) {
    send_reply(mode, error_reply(NULL, UPK_RPC_PARSE_ERROR, err));
    return;
  }
  if (json_is_array(v) && json_array_size(v) > 0) { /* a batch: one array of replies */
    json_t *replies = json_array();
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
      json_t *r = handle_value(item);
      if (r)
        json_array_append_new(replies, r);
    }
    if (json_array_size(replies))
      send_reply(mode, replies);
    else
      json_decref(replies);
  } else {
    json_t *r = handle_value(v);
    if (r)
      send_reply(mode, r);
  }
  json_decref(v);
}

static void on_error(void *ud, int code, const char *message) {
  (void)ud;
  CHECK(code == UPK_FRAME_ETOOBIG || code == UPK_FRAME_EHEADER);
  json_decref(error_reply(NULL, UPK_RPC_PARSE_ERROR, message));
}

static void feed(upk_framer *f, size_t cap, const uint8_t *p, size_t n) {
  CHECK(upk_framer_feed(f, (const char *)p, n) == 0);
  size_t bound = cap + 1 > UPK_FRAME_MAX_HEADER ? cap + 1 : UPK_FRAME_MAX_HEADER;
  CHECK(f->in.len <= bound);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static const size_t caps[] = {64, 1024, 4096, (size_t)1 << 20};
  uint8_t cfg = data[0] ^ data[size - 1];
  size_t cap = caps[cfg & 3];
  int bytewise = (cfg & 4) != 0;
  size_t split = size * data[size - 1] / 256;

  static const upk_framer_callbacks cb = {on_message, on_error};
  upk_framer f;
  fuzz_state st = {&f, cap};
  upk_framer_init(&f, UPK_FRAMING_AUTO, cap, &cb, &st);
  feed(&f, cap, data, split);
  if (bytewise)
    for (size_t i = split; i < size; i++)
      feed(&f, cap, data + i, 1);
  else
    feed(&f, cap, data + split, size - split);
  (void)upk_framer_pending(&f);
  upk_framer_free(&f);
  return 0;
}
