/* The harness's checks on replies and its session helpers (initialize in either framing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/integration/harness.h"

const char *hx_dump(const json_t *v) {
  static char buf[2048];
  if (!v)
    return "(nothing)";
  size_t n = json_dumpb(v, buf, sizeof buf - 1, JSON_COMPACT | JSON_ENCODE_ANY);
  if (n >= sizeof buf - 1) {
    n = sizeof buf - 5;
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  buf[n] = '\0';
  return buf;
}

static void assert_id(json_t *resp, const char *id) {
  json_t *want = json_loads(id, JSON_DECODE_ANY, NULL);
  cr_assert_not_null(want, "bad expected id %s", id);
  json_t *got = json_object_get(resp, "id");
  bool same = got && json_equal(got, want);
  json_decref(want);
  cr_assert(same, "expected a response with id %s, got %s", id, hx_dump(resp));
}

json_t *hx_assert_result(json_t *resp, const char *id) {
  cr_assert_not_null(resp, "no response (expected a result for id %s)", id);
  cr_assert(json_is_object(resp), "expected one response, got %s", hx_dump(resp));
  cr_assert_str_eq(json_string_value(json_object_get(resp, "jsonrpc")), "2.0");
  assert_id(resp, id);
  json_t *r = json_object_get(resp, "result");
  cr_assert(r && !json_object_get(resp, "error"), "expected a result, got %s", hx_dump(resp));
  return r;
}

const char *hx_assert_error(json_t *resp, const char *id, int code) {
  cr_assert_not_null(resp, "no response (expected error %d for id %s)", code, id);
  cr_assert(json_is_object(resp), "expected one response, got %s", hx_dump(resp));
  cr_assert_str_eq(json_string_value(json_object_get(resp, "jsonrpc")), "2.0");
  assert_id(resp, id);
  json_t *e = json_object_get(resp, "error");
  cr_assert(json_is_object(e) && !json_object_get(resp, "result"), "expected an error, got %s",
            hx_dump(resp));
  cr_assert_eq(json_integer_value(json_object_get(e, "code")), code,
               "expected error code %d, got %s", code, hx_dump(resp));
  const char *msg = json_string_value(json_object_get(e, "message"));
  cr_assert(msg && *msg, "the error has no message: %s", hx_dump(resp));
  return msg;
}

void hx_validate_then_cancel(hx *d, int id) {
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":{\"path\":"
           "\"%s/tests/kernel/corpus/half_bf16_cg.cu\",\"cache\":false}}",
           id, getenv("UPK_SOURCE_ROOT"));
  hx_msleep(100); /* a cold header-heavy compile takes well over a second */
  hx_sendf(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":%d}}", id);
  json_t *resp = hx_response(d, HX_TIMEOUT);
  cr_assert(resp, "no answer to the cancelled request %d", id);
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", id);
  hx_assert_error(resp, idtxt, -32800);
  json_decref(resp);
}

void hx_ping(hx *d) {
  char req[96], id[32];
  static unsigned next_id;
  snprintf(id, sizeof id, "\"ping-%u\"", ++next_id);
  snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\"}", id);
  json_t *r = hx_call(d, req);
  json_t *res = hx_assert_result(r, id);
  cr_assert(json_is_object(res) && json_object_size(res) == 0, "ping answered %s", hx_dump(r));
  json_decref(r);
}

const char *hx_mcp_init(hx *d, const char *version) {
  static char chosen[32];
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"
                       "{\"protocolVersion\":\"%s\",\"capabilities\":{},\"clientInfo\":"
                       "{\"name\":\"integration\",\"version\":\"1\"}}}",
                       version);
  json_t *res = hx_assert_result(r, "\"init\"");
  const char *v = json_string_value(json_object_get(res, "protocolVersion"));
  cr_assert_not_null(v, "initialize result without protocolVersion: %s", hx_dump(r));
  snprintf(chosen, sizeof chosen, "%s", v);
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  return chosen;
}

json_t *hx_lsp_init(hx *d, const char *root_uri) {
  json_t *r;
  if (root_uri)
    r = hx_callf(d,
                 "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                 "{\"processId\":null,\"rootUri\":\"%s\",\"capabilities\":{}}}",
                 root_uri);
  else
    r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                   "{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}");
  json_t *res = json_incref(hx_assert_result(r, "0"));
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  return res;
}

hx *hx_mcp_session(const char *const *args) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, args);
  cr_assert_str_eq(hx_mcp_init(d, "2025-11-25"), "2025-11-25");
  return d;
}

hx *hx_lsp_session(const char *const *args) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, args);
  json_decref(hx_lsp_init(d, NULL));
  return d;
}

bool hx_have_toolkit(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[512];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", cuda && *cuda ? cuda : "/usr/local/cuda");
  return access(p, R_OK) == 0;
}

json_t *hx_next_publish(hx *d, const char *uri, int timeout_ms) {
  json_t *m;
  while ((m = hx_next(d, timeout_ms))) {
    const char *method = json_string_value(json_object_get(m, "method"));
    json_t *p = json_object_get(m, "params");
    if (method && !strcmp(method, "textDocument/publishDiagnostics") &&
        !strcmp(json_string_value(json_object_get(p, "uri")), uri))
      return m;
    json_decref(m);
  }
  return NULL;
}

json_t *hx_lookup_settled(hx *d, int id, const char *task) {
  for (int tries = 0; tries < 600; tries++) {
    json_t *r = hx_callf(d,
                         "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/lookup\","
                         "\"params\":{\"task\":\"%s\"}}",
                         id, task);
    json_t *res = json_object_get(r, "result");
    if (!res || !json_object_get(res, "indexing"))
      return r;
    json_decref(r);
    usleep(50 * 1000); /* the first scan is under way: ask again, as a client would */
  }
  cr_assert_fail("skills/lookup still says indexing after 30 s");
  return NULL;
}
