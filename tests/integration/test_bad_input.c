/* Hostile and broken input: every case gets the right answer (exact code, and the id when
 * one could be read) and the daemon answers the next message afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/integration/harness.h"

TestSuite(bad, .timeout = 180);

/* Write `raw` (already framed), expect error `code` for `id`, whose message contains `needle`
 * (when not NULL), then prove the daemon still answers. */
static void expect_raw(hx *d, const char *raw, size_t len, const char *id, int code,
                       const char *needle) {
  hx_write(d, raw, len);
  json_t *r = hx_response(d, HX_TIMEOUT);
  cr_assert_not_null(r, "no answer to %.200s", raw);
  const char *msg = hx_assert_error(r, id, code);
  if (needle)
    cr_assert(strstr(msg, needle), "the message for %.200s does not mention '%s': %s", raw, needle,
              msg);
  json_decref(r);
  hx_ping(d);
}

/* The same for one MCP line (the newline is added). */
static void expect_line(hx *d, const char *line, const char *id, int code, const char *needle) {
  size_t n = strlen(line);
  char *raw = malloc(n + 2);
  memcpy(raw, line, n);
  raw[n] = '\n';
  raw[n + 1] = '\0';
  expect_raw(d, raw, n + 1, id, code, needle);
  free(raw);
}

/* The same for one LSP body. */
static void expect_body(hx *d, const char *body, size_t n, const char *id, int code,
                        const char *needle) {
  char *raw = NULL;
  int len = asprintf(&raw, "Content-Length: %zu\r\n\r\n", n);
  raw = realloc(raw, (size_t)len + n);
  memcpy(raw + len, body, n);
  expect_raw(d, raw, (size_t)len + n, id, code, needle);
  free(raw);
}

#define PING(id) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"ping\"}"

Test(bad, invalid_json_mcp) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", "null", -32700, "invalid JSON");
  expect_line(d, "{bad}", "null", -32700, NULL);
  expect_line(d, "{\"a\":1}}", "null", -32700, NULL);
  expect_line(d, "[1,", "null", -32700, NULL);
  hx_finish(d, 0);
}

Test(bad, invalid_json_lsp) {
  hx *d = hx_lsp_session(HX_NOARGS);
  expect_body(d, "{\"jsonrpc\":\"2.0\",\"id\":1,", 25, "null", -32700, "invalid JSON");
  expect_body(d, "", 0, "null", -32700, NULL); /* an empty body */
  expect_body(d, "nope", 4, "null", -32700, NULL);
  hx_finish(d, 0);
}

Test(bad, json_not_an_object) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "42", "null", -32600, "object");
  expect_line(d, "\"hello\"", "null", -32600, "object");
  expect_line(d, "null", "null", -32600, NULL);
  expect_line(d, "true", "null", -32600, NULL);
  hx_finish(d, 0);
  d = hx_lsp_session(HX_NOARGS);
  expect_body(d, "[]", 2, "null", -32600, NULL); /* LSP has no batches */
  expect_body(d, "3.5", 3, "null", -32600, "object");
  hx_finish(d, 0);
}

Test(bad, wrong_or_missing_jsonrpc) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}", "3", -32600, "jsonrpc");
  expect_line(d, "{\"jsonrpc\":2.0,\"id\":4,\"method\":\"ping\"}", "4", -32600, "jsonrpc");
  expect_line(d, "{\"id\":\"five\",\"method\":\"ping\"}", "\"five\"", -32600, "jsonrpc");
  expect_line(d, "{\"method\":\"ping\"}", "null", -32600, "jsonrpc");
  hx_finish(d, 0);
}

Test(bad, missing_or_non_string_method) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":5}", "5", -32600, "method");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":42}", "6", -32600, "method");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":null}", "7", -32600, "method");
  expect_line(d, "{\"jsonrpc\":\"2.0\"}", "null", -32600, "method");
  hx_finish(d, 0);
}

Test(bad, params_neither_object_nor_array) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":\"x\"}", "8", -32600,
              "params");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":5}", "9", -32600,
              "params");
  hx_finish(d, 0);
}

Test(bad, unknown_method) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"no/such/method\"}", "11", -32601,
              "no/such/method");
  /* Test-only methods do not exist without --test-methods. */
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"upskilld/sleep\",\"params\":{\"ms\":1}}",
              "12", -32601, NULL);
  hx_finish(d, 0);
  d = hx_lsp_session(HX_NOARGS);
  const char *b = "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"workspace/symbol\",\"params\":{}}";
  expect_body(d, b, strlen(b), "13", -32601, "workspace/symbol");
  hx_finish(d, 0);
}

Test(bad, wrong_param_types_name_the_field) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods"));
  expect_line(
      d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/sleep\",\"params\":{\"ms\":\"x\"}}",
      "1", -32602, "params.ms");
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"upskilld/sleep\",\"params\":"
              "{\"ms\":1,\"steps\":1.5}}",
              "2", -32602, "params.steps");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"upskilld/sleep\",\"params\":{}}", "3",
              -32602, "params.ms");
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"upskilld/sleep\",\"params\":"
              "{\"ms\":1,\"fail\":false}}",
              "4", -32602, "params.fail");
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"upskilld/status\",\"params\":{\"x\":1}}",
              "5", -32602, "params.x");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"upskilld/status\",\"params\":[1]}",
              "6", -32602, "params");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
              "7", -32602, "params.name");
  expect_line(
      d, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"logging/setLevel\",\"params\":{\"level\":5}}",
      "8", -32602, "params.level");
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"upskilld/sleep\",\"params\":"
              "{\"ms\":99999999}}",
              "9", -32602, "params.ms");
  hx_finish(d, 0);
  d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  expect_line(d,
              "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"initialize\",\"params\":"
              "{\"protocolVersion\":20250618}}",
              "10", -32602, "params.protocolVersion");
  hx_finish(d, 0);
}

/* A mistake a model can recover from in one more call: the tool's nearest name and the list,
 * an argument's nearest name or the names the tool takes. */
Test(bad, unknown_names_say_what_exists) {
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *tool = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                     "{\"name\":\"find_skil\",\"arguments\":{\"task\":\"x\"}}}";
  expect_line(d, tool, "1", -32602, "did you mean find_skill?");
  expect_line(d, tool, "1", -32602, "validate_kernel");
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                         "{\"name\":\"find_skill\",\"arguments\":{\"query\":\"csv\"}}}");
  const char *text = json_string_value(json_object_get(
      json_array_get(json_object_get(hx_assert_result(r, "2"), "content"), 0), "text"));
  cr_assert(text && strstr(text, "params.query: unknown parameter; it takes task"), "%s",
            hx_dump(r));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                 "{\"name\":\"find_skill\",\"arguments\":{\"task\":\"csv\",\"limt\":2}}}");
  cr_assert(strstr(hx_dump(r), "did you mean 'limit'?"), "%s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

Test(bad, invalid_utf8) {
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}", "null", -32700, NULL);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\x28\",\"method\":\"ping\"}", "null", -32700,
              NULL);
  hx_finish(d, 0);
  d = hx_lsp_session(HX_NOARGS);
  const char *b = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"\xed\xa0\x80\"}"; /* a surrogate */
  expect_body(d, b, strlen(b), "null", -32700, NULL);
  hx_finish(d, 0);
}

Test(bad, long_multibyte_names_in_messages) {
  /* Error messages quote names cut to a length; a cut inside a UTF-8 sequence would make the
   * message invalid and lose it. */
  hx *d = hx_mcp_session(HX_NOARGS);
  char name[1024];
  memset(name, 'a', 199);
  name[199] = '\0';
  for (int i = 0; i < 20; i++)
    strcat(name, "\xc3\xa9"); /* é */
  char line[2048];
  snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\"}", name);
  expect_line(d, line, "1", -32601, "method not found: aaa");
  snprintf(line, sizeof line,
           "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\"}}",
           name);
  expect_line(d, line, "2", -32602, "unknown tool: aaa");
  char uri[1024];
  memset(uri, 'u', 399);
  uri[399] = '\0';
  for (int i = 0; i < 20; i++)
    strcat(uri, "\xe2\x82\xac"); /* € */
  snprintf(
      line, sizeof line,
      "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"%s\"}}",
      uri);
  expect_line(d, line, "3", -32002, "resource not found: uuu");
  snprintf(line, sizeof line,
           "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"upskilld/"
           "status\",\"params\":{\"%.63s\xc3\xa9\xc3\xa9\":1}}",
           name);
  expect_line(d, line, "4", -32602, "unknown parameter");
  hx_finish(d, 0);
}

static char *deep(size_t depth, const char *open, const char *close) {
  size_t o = strlen(open), c = strlen(close);
  char *s = malloc(depth * (o + c) + 1), *p = s;
  for (size_t i = 0; i < depth; i++, p += o)
    memcpy(p, open, o);
  for (size_t i = 0; i < depth; i++, p += c)
    memcpy(p, close, c);
  *p = '\0';
  return s;
}

Test(bad, nested_100000_deep) {
  hx *d = hx_mcp_session(HX_NOARGS);
  char *s = deep(100000, "[", "]");
  expect_line(d, s, "null", -32700, "depth");
  free(s);
  s = deep(100000, "{\"a\":", "}");
  expect_line(d, s, "null", -32700, "depth");
  free(s);
  hx_finish(d, 0);
  d = hx_lsp_session(HX_NOARGS);
  s = deep(100000, "{\"a\":[", "]}");
  expect_body(d, s, strlen(s), "null", -32700, "depth");
  free(s);
  hx_finish(d, 0);
}

Test(bad, lsp_header_without_content_length) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char raw[] = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" PING("1");
  expect_raw(d, raw, sizeof raw - 1, "null", -32700, "Content-Length");
  const char raw2[] = "garbage without a colon\r\n\r\n";
  expect_raw(d, raw2, sizeof raw2 - 1, "null", -32700, "Content-Length");
  hx_finish(d, 0);
}

Test(bad, lsp_content_length_bad_values) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char *values[] = {"-5", "abc", "12abc", "0x10", "99999999999999999999999", ""};
  const char *needles[] = {"-5", "abc", "12abc", "0x10", "too large", "Content-Length"};
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    char raw[256];
    int n = snprintf(raw, sizeof raw, "Content-Length: %s\r\n\r\n" PING("1"), values[i]);
    expect_raw(d, raw, (size_t)n, "null", -32700, needles[i]);
  }
  /* A header block that never ends within 8 KiB. */
  size_t big = 10000;
  char *raw = malloc(big + 1);
  memcpy(raw, "X-Filler: ", 10);
  memset(raw + 10, 'x', big - 10);
  expect_raw(d, raw, big, "null", -32700, "8192");
  free(raw);
  hx_finish(d, 0);
}

Test(bad, lsp_content_length_1gib) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char raw[] = "Content-Length: 1073741824\r\n\r\n{\"jsonrpc\":";
  hx_write(d, raw, sizeof raw - 1);
  json_t *r = hx_response(d, HX_TIMEOUT);
  cr_assert(strstr(hx_assert_error(r, "null", -32600), "1073741824"), "%s", hx_dump(r));
  json_decref(r);
  /* The daemon is skipping the body now; EOF in the middle of it is a clean exit. */
  hx_finish(d, 0);
}

Test(bad, lsp_over_max_message_size) {
  hx *d = hx_lsp_session(HX_ARGS("--max-message-size", "1K"));
  char *body = malloc(2048);
  int n = snprintf(body, 2048,
                   "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"");
  memset(body + n, 'x', 2048 - (size_t)n - 3);
  memcpy(body + 2045, "\"}}", 3);
  expect_body(d, body, 2048, "null", -32600, "1024");
  /* Exactly at the limit is fine. */
  n = snprintf(body, 2048,
               "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"_meta\":\"");
  memset(body + n, 'y', 1024 - (size_t)n - 3);
  memcpy(body + 1021, "\"}}", 3);
  char hdr[64];
  int h = snprintf(hdr, sizeof hdr, "Content-Length: 1024\r\n\r\n");
  hx_write(d, hdr, (size_t)h);
  hx_write(d, body, 1024);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "2");
  json_decref(r);
  free(body);
  hx_finish(d, 0);
}

Test(bad, mcp_over_max_message_size) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_ARGS("--max-message-size=1K"));
  hx_mcp_init(d, "2025-11-25");
  char line[2049];
  int n = snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"");
  memset(line + n, 'x', 2048 - (size_t)n - 2);
  memcpy(line + 2046, "\"}", 3);
  expect_line(d, line, "null", -32600, "1024");
  hx_finish(d, 0);
}

Test(bad, lsp_body_truncated_at_eof) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char raw[] = "Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,";
  hx_write(d, raw, sizeof raw - 1);
  hx_close_stdin(d);
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT));
  json_t *m;
  while ((m = hx_next(d, 0))) {
    cr_assert_null(json_object_get(m, "id"), "answered a truncated message: %s", hx_dump(m));
    json_decref(m);
  }
  hx_finish(d, 0);
}

Test(bad, mcp_stdin_closed_mid_message) {
  hx *d = hx_mcp_session(HX_NOARGS);
  /* At EOF the unterminated last line is still read as a message: half a message is then
   * invalid JSON (answered with id null), and the daemon exits cleanly. */
  const char raw[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi";
  hx_write(d, raw, sizeof raw - 1);
  hx_close_stdin(d);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_error(r, "null", -32700);
  json_decref(r);
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT));
  cr_assert_null(hx_response(d, 0));
  hx_finish(d, 0);
}

Test(bad, mcp_last_line_without_newline) {
  hx *d = hx_mcp_session(HX_NOARGS);
  const char raw[] = PING("\"last\"");
  hx_write(d, raw, sizeof raw - 1);
  hx_close_stdin(d);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "\"last\"");
  json_decref(r);
  hx_finish(d, 0);
}

Test(bad, lsp_stdin_closed_inside_headers) {
  hx *d = hx_lsp_session(HX_NOARGS);
  const char raw[] = "Content-Len";
  hx_write(d, raw, sizeof raw - 1);
  hx_finish(d, 0);
}

Test(bad, requests_before_initialize_and_after_shutdown) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  expect_line(
      d,
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"status\"}}",
      "1", -32002, NULL);
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"upskilld/status\"}", "2", -32002,
              NULL);
  hx_mcp_init(d, "2025-11-25");
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"shutdown\"}");
  hx_assert_result(r, "3");
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
  r = hx_response(d, HX_TIMEOUT);
  hx_assert_error(r, "4", -32600);
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\",\"params\":"
             "{\"protocolVersion\":\"2025-11-25\"}}");
  r = hx_response(d, HX_TIMEOUT);
  hx_assert_error(r, "5", -32600);
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(bad, id_reused_while_in_flight) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":1500,\"steps\":1}}");
  expect_line(d, "{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"ping\"}", "\"dup\"", -32600,
              "dup");
  /* The first request is unharmed and still answered. */
  json_t *r = hx_response(d, HX_TIMEOUT);
  json_t *res = hx_assert_result(r, "\"dup\"");
  cr_assert_eq(json_integer_value(json_object_get(res, "slept")), 1500, "%s", hx_dump(r));
  json_decref(r);
  /* Integer 7 and string "7" are different ids. */
  hx_send(d,
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"upskilld/sleep\",\"params\":{\"ms\":300}}");
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"ping\"}");
  hx_assert_result(r, "\"7\"");
  json_decref(r);
  r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "7");
  json_decref(r);
  hx_finish(d, 0);
}

Test(bad, mcp_exit_without_shutdown) {
  hx *d = hx_mcp_session(HX_NOARGS);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 1);
  hx_finish(d, 1);
}

Test(bad, responses_from_the_client_are_ignored) {
  hx *d = hx_mcp_session(HX_NOARGS);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}");
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-1,\"message\":\"x\"}}");
  hx_ping(d);
  hx_finish(d, 0);
}

Test(bad, blank_lines_and_crlf) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  const char raw[] = "\n\r\n  \n" PING("1") "\r\n\n\n" PING("2") "\r\n";
  hx_write(d, raw, sizeof raw - 1);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "1");
  json_decref(r);
  r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "2");
  json_decref(r);
  hx_finish(d, 0);
}
