#include "protocol/jsonrpc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

size_t upk_utf8_prefix(const char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max)
    return n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
    max--;
  return max;
}

json_t *upk_rpc_parse(const char *body, size_t len, char *err, size_t errlen) {
  json_error_t e;
  /* jansson rejects invalid UTF-8 and caps nesting depth (2048), so hostile input
   * can neither smuggle bad text nor overflow the stack. */
  json_t *v = json_loadb(body, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
  if (!v) {
    snprintf(err, errlen, "invalid JSON at line %d column %d: %s", e.line, e.column, e.text);
    /* jansson quotes the offending input, which may be any bytes: keep the
     * message printable ASCII so it survives as a JSON string. */
    for (char *c = err; *c; c++)
      if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
        *c = '?';
  }
  return v;
}

static int id_usable(const json_t *id) {
  return json_is_string(id) || json_is_integer(id);
}

void upk_rpc_classify(json_t *msg, upk_rpc_msg *out) {
  memset(out, 0, sizeof *out);
  out->kind = UPK_RPC_INVALID;
  if (!json_is_object(msg)) {
    out->why = "a JSON-RPC message must be a JSON object";
    return;
  }
  json_t *id = json_object_get(msg, "id");
  json_t *method = json_object_get(msg, "method");
  json_t *params = json_object_get(msg, "params");
  json_t *version = json_object_get(msg, "jsonrpc");
  if (id_usable(id))
    out->id = id;
  if (!json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0) {
    out->why = version ? "\"jsonrpc\" must be \"2.0\"" : "missing \"jsonrpc\": \"2.0\"";
    return;
  }
  if (!method && (json_object_get(msg, "result") || json_object_get(msg, "error")) &&
      (id_usable(id) || json_is_null(id))) {
    /* A response; "id": null is how a peer answers a request whose id it could not read. */
    out->kind = UPK_RPC_RESPONSE;
    return;
  }
  if (id && !id_usable(id)) {
    out->why = "\"id\" must be a string or an integer";
    return;
  }
  if (!method) {
    out->why = "missing \"method\"";
    return;
  }
  if (!json_is_string(method)) {
    out->why = "\"method\" must be a string";
    return;
  }
  if (json_is_null(params)) /* not JSON-RPC 2.0, but what eglot sends for shutdown and exit */
    params = NULL;
  if (params && !json_is_object(params) && !json_is_array(params)) {
    out->why = "\"params\" must be an object or an array";
    return;
  }
  out->method = json_string_value(method);
  out->params = params;
  out->kind = id ? UPK_RPC_REQUEST : UPK_RPC_NOTIFICATION;
}

void upk_rpc_id_key(const json_t *id, char key[UPK_RPC_KEY_MAX]) {
  if (json_is_integer(id)) {
    snprintf(key, UPK_RPC_KEY_MAX, "i:%lld", (long long)json_integer_value(id));
    return;
  }
  if (!json_is_string(id)) { /* not a usable id (null, absent, real...): one fixed key */
    snprintf(key, UPK_RPC_KEY_MAX, "x:%s", id ? "invalid" : "none");
    return;
  }
  const char *s = json_string_value(id);
  size_t n = json_string_length(id);
  if (n < UPK_RPC_KEY_MAX - 3 && memchr(s, '\0', n) == NULL) {
    snprintf(key, UPK_RPC_KEY_MAX, "s:%s", s);
    return;
  }
  /* Long ids: FNV-1a over the bytes, plus the length, keeps keys short and distinct. */
  unsigned long long h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  /* A readable prefix for messages, cut before a NUL and never inside a UTF-8 sequence. */
  size_t cut = 0;
  while (cut < n && cut < 40 && s[cut] != '\0')
    cut++;
  if (cut < n)
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
      cut--;
  snprintf(key, UPK_RPC_KEY_MAX, "h:%zu:%016llx:%.*s", n, h, (int)cut, s);
}

static json_t *envelope(json_t *id) {
  json_t *m = json_object();
  json_object_set_new(m, "jsonrpc", json_string("2.0"));
  json_object_set(m, "id", id ? id : json_null());
  return m;
}

json_t *upk_rpc_result(json_t *id, json_t *result) {
  json_t *m = envelope(id);
  json_object_set_new(m, "result", result ? result : json_null());
  return m;
}

json_t *upk_rpc_error(json_t *id, int code, const char *message, json_t *data) {
  json_t *m = envelope(id);
  json_t *e = json_pack("{s:i,s:s}", "code", code, "message", message);
  if (!e) /* message was not valid UTF-8 */
    e = json_pack("{s:i,s:s}", "code", code, "message", "error (message not valid UTF-8)");
  if (data)
    json_object_set_new(e, "data", data);
  json_object_set_new(m, "error", e);
  return m;
}

json_t *upk_rpc_notification(const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "jsonrpc", json_string("2.0"));
  json_object_set_new(m, "method", json_string(method));
  if (params)
    json_object_set_new(m, "params", params);
  return m;
}

json_t *upk_rpc_request(json_t *id, const char *method, json_t *params) {
  json_t *m = upk_rpc_notification(method, params);
  json_object_set(m, "id", id);
  return m;
}

typedef struct dump_sink {
  upk_buf *out;
  int rc;
} dump_sink;

static int dump_append(const char *buf, size_t size, void *data) {
  dump_sink *d = data;
  d->rc = upk_buf_append(d->out, buf, size);
  return d->rc ? -1 : 0;
}

int upk_rpc_dump(const json_t *msg, upk_buf *out) {
  /* One pass straight into the buffer, which grows geometrically: measuring first and then
   * writing dumped a large answer twice (a 450 KB skills/list page: 8-16 ms on the loop). */
  const size_t flags = UPK_JSON_WIRE_FLAGS;
  size_t len = out->len;
  dump_sink d = {out, 0};
  if (json_dump_callback(msg, dump_append, &d, flags)) {
    out->len = len; /* nothing of a failed message stays */
    if (out->data)
      out->data[len] = '\0';
    return d.rc ? d.rc : -EINVAL;
  }
  return 0;
}

/* msg with its result's member `key` replaced by a stand-in (0), that member last in the
 * result and the result last in msg: dumped, its text ends "0}}". */
static json_t *splice_frame(json_t *msg, json_t *result, const char *key) {
  json_t *frame = json_object(), *r = json_object(), *v;
  const char *k;
  json_object_foreach(msg, k, v) {
    if (strcmp(k, "result"))
      json_object_set(frame, k, v);
  }
  json_object_foreach(result, k, v) {
    if (strcmp(k, key))
      json_object_set(r, k, v);
  }
  json_object_set_new(r, key, json_integer(0));
  json_object_set_new(frame, "result", r);
  return frame;
}

int upk_rpc_dump_spliced(const json_t *msg, const upk_json_member *m, upk_buf *out) {
  json_t *result = json_object_get(msg, "result");
  if (!json_is_object(result) || !m || !m->value || !m->text ||
      json_object_get(result, m->key) != m->value)
    return -EINVAL;
  json_t *frame = splice_frame((json_t *)msg, result, m->key);
  size_t len = out->len;
  int rc = upk_rpc_dump(frame, out);
  json_decref(frame);
  if (rc)
    return rc;
  if (out->len - len < 3 || memcmp(out->data + out->len - 3, "0}}", 3)) {
    out->len = len; /* not the frame's shape: never splice into it */
    out->data[len] = '\0';
    return -EINVAL;
  }
  char close[2]; /* the result's and the message's own closing braces */
  memcpy(close, out->data + out->len - 2, 2);
  out->len -= 3;
  rc = upk_buf_append(out, upk_json_text_data(m->text), upk_json_text_len(m->text));
  if (!rc)
    rc = upk_buf_append(out, close, 2);
  if (rc) {
    out->len = len;
    out->data[len] = '\0';
  }
  return rc;
}
