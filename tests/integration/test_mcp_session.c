/* The MCP face of the real daemon over a pipe: initialize and revision negotiation, ping,
 * tools, progress, cancellation, logging, resources and batches. Every error case checks the
 * exact code and that the daemon answers the next message. */
#include <string.h>

#include "tests/integration/harness.h"

#define ARGS_TEST HX_ARGS("--test-methods")

TestSuite(mcp, .timeout = 120);

static void check_negotiation(const char *asked, const char *expected) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  cr_assert_str_eq(hx_mcp_init(d, asked), expected, "asked for %s", asked);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, initialize_echoes_2025_06_18) {
  check_negotiation("2025-06-18", "2025-06-18");
}

Test(mcp, initialize_echoes_2025_11_25) {
  check_negotiation("2025-11-25", "2025-11-25");
}

Test(mcp, initialize_echoes_2025_03_26) {
  check_negotiation("2025-03-26", "2025-03-26");
}

Test(mcp, initialize_unknown_version_offers_latest) {
  check_negotiation("1999-01-01", "2025-11-25");
}

Test(mcp, initialize_result_shape) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                         "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}}");
  json_t *res = hx_assert_result(r, "1");
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(res, "serverInfo"), "name")),
                   "upskilld");
  json_t *caps = json_object_get(res, "capabilities");
  cr_assert(json_is_object(json_object_get(caps, "tools")), "%s", hx_dump(res));
  cr_assert(json_is_object(json_object_get(caps, "resources")), "%s", hx_dump(res));
  cr_assert(json_is_object(json_object_get(caps, "logging")), "%s", hx_dump(res));
  cr_assert(json_is_string(json_object_get(res, "instructions")));
  json_decref(r);
  /* A second initialize is refused, and the session goes on. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":"
                 "{\"protocolVersion\":\"2025-06-18\"}}");
  hx_assert_error(r, "2", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, initialize_without_version_is_invalid_params) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
  cr_assert(strstr(hx_assert_error(r, "1", -32602), "params.protocolVersion"));
  json_decref(r);
  cr_assert_str_eq(hx_mcp_init(d, "2025-11-25"), "2025-11-25");
  hx_finish(d, 0);
}

Test(mcp, ping_before_and_after_initialize) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  hx_ping(d);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}");
  hx_assert_error(r, "7", -32002);
  json_decref(r);
  hx_mcp_init(d, "2025-11-25");
  hx_ping(d);
  hx_finish(d, 0);
}

/* The names of the tools tools/list reports; checks each has a schema. */
static json_t *tool_names(hx *d) {
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"tl\",\"method\":\"tools/list\"}");
  json_t *tools = json_object_get(hx_assert_result(r, "\"tl\""), "tools");
  cr_assert(json_is_array(tools), "%s", hx_dump(r));
  json_t *names = json_object();
  size_t i;
  json_t *t;
  json_array_foreach(tools, i, t) {
    json_t *schema = json_object_get(t, "inputSchema");
    cr_assert_str_eq(json_string_value(json_object_get(schema, "type")), "object", "%s",
                     hx_dump(t));
    cr_assert(json_is_string(json_object_get(t, "description")));
    json_object_set(names, json_string_value(json_object_get(t, "name")), t);
  }
  json_decref(r);
  return names;
}

Test(mcp, tools_list_without_test_methods) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *names = tool_names(d);
  cr_assert_not_null(json_object_get(names, "status"));
  cr_assert_null(json_object_get(names, "sleep"), "sleep is listed without --test-methods");
  json_decref(names);
  /* Nor can it be called. */
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                         "{\"name\":\"sleep\",\"arguments\":{\"ms\":1}}}");
  hx_assert_error(r, "3", -32602);
  json_decref(r);
  hx_finish(d, 0);
}

Test(mcp, tools_list_with_test_methods) {
  hx *d = hx_mcp_session(ARGS_TEST);
  json_t *names = tool_names(d);
  cr_assert_not_null(json_object_get(names, "status"));
  json_t *sleep = json_object_get(names, "sleep");
  cr_assert_not_null(sleep, "sleep is not listed with --test-methods");
  json_t *props = json_object_get(json_object_get(sleep, "inputSchema"), "properties");
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(props, "ms"), "type")),
                   "integer");
  json_decref(names);
  hx_finish(d, 0);
}

Test(mcp, tools_list_unknown_cursor) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":"
                         "{\"cursor\":\"nope\"}}");
  hx_assert_error(r, "4", -32602);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, tools_call_status) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":"
                         "{\"name\":\"status\",\"arguments\":{}}}");
  json_t *res = hx_assert_result(r, "5");
  cr_assert(!json_is_true(json_object_get(res, "isError")), "%s", hx_dump(r));
  json_t *sc = json_object_get(res, "structuredContent");
  cr_assert_str_eq(json_string_value(json_object_get(sc, "name")), "upskilld", "%s", hx_dump(r));
  cr_assert_str_eq(json_string_value(json_object_get(sc, "protocol")), "mcp");
  cr_assert_str_eq(json_string_value(json_object_get(sc, "protocolVersion")), "2025-11-25");
  cr_assert(json_is_object(json_object_get(sc, "cuda")));
  /* The text block carries the same JSON. */
  json_t *block = json_array_get(json_object_get(res, "content"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(block, "type")), "text");
  json_t *parsed = json_loads(json_string_value(json_object_get(block, "text")), 0, NULL);
  cr_assert(parsed && json_equal(parsed, sc), "text block differs from structuredContent");
  json_decref(parsed);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, tools_call_bad_arguments_is_tool_error) {
  hx *d = hx_mcp_session(ARGS_TEST);
  const char *calls[] = {
      "{\"name\":\"sleep\",\"arguments\":{\"ms\":\"soon\"}}", /* wrong type */
      "{\"name\":\"sleep\",\"arguments\":{}}",                /* missing required */
      "{\"name\":\"status\",\"arguments\":{\"bogus\":1}}",    /* unknown argument */
      "{\"name\":\"sleep\",\"arguments\":{\"ms\":-5}}",       /* out of range */
  };
  const char *field[] = {"ms", "ms", "bogus", "ms"};
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    json_t *r =
        hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"tools/call\",\"params\":%s}",
                 i + 10, calls[i]);
    char id[16];
    snprintf(id, sizeof id, "%zu", i + 10);
    json_t *res = hx_assert_result(r, id);
    cr_assert(json_is_true(json_object_get(res, "isError")), "%s: %s", calls[i], hx_dump(r));
    const char *text = json_string_value(
        json_object_get(json_array_get(json_object_get(res, "content"), 0), "text"));
    cr_assert(text && strstr(text, field[i]), "%s: message does not name %s: %s", calls[i],
              field[i], hx_dump(r));
    json_decref(r);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, tools_call_unknown_tool) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":"
                         "{\"name\":\"no_such_tool\",\"arguments\":{}}}");
  cr_assert(strstr(hx_assert_error(r, "6", -32602), "no_such_tool"));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}}");
  cr_assert(strstr(hx_assert_error(r, "7", -32602), "params.name"));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":"
                 "{\"name\":\"status\",\"arguments\":[1]}}");
  cr_assert(strstr(hx_assert_error(r, "8", -32602), "params.arguments"));
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, progress_notifications_for_token) {
  hx *d = hx_mcp_session(ARGS_TEST);
  hx_send(
      d,
      "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":{\"name\":"
      "\"sleep\",\"arguments\":{\"ms\":300,\"steps\":3},\"_meta\":{\"progressToken\":\"tok\"}}}");
  int seen = 0;
  double last = -1;
  json_t *m;
  while ((m = hx_next(d, HX_TIMEOUT)) && !json_object_get(m, "id")) {
    cr_assert_str_eq(json_string_value(json_object_get(m, "method")), "notifications/progress",
                     "%s", hx_dump(m));
    json_t *p = json_object_get(m, "params");
    cr_assert_str_eq(json_string_value(json_object_get(p, "progressToken")), "tok");
    double v = json_number_value(json_object_get(p, "progress"));
    cr_assert_gt(v, last, "progress must increase: %s", hx_dump(m));
    cr_assert_eq(json_number_value(json_object_get(p, "total")), 3.0);
    last = v;
    seen++;
    json_decref(m);
  }
  json_t *res = hx_assert_result(m, "20");
  cr_assert_eq(
      json_integer_value(json_object_get(json_object_get(res, "structuredContent"), "steps")), 3);
  json_decref(m);
  cr_assert_eq(seen, 3, "expected progress 0, 1, 2 before the result, saw %d", seen);
  /* Without a token: no notifications at all. */
  m = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"sleep\",\"arguments\":{\"ms\":50,\"steps\":2}}}");
  hx_assert_result(m, "21");
  json_decref(m);
  hx_finish(d, 0);
}

Test(mcp, cancelled_request_gets_no_response) {
  hx *d = hx_mcp_session(ARGS_TEST);
  /* Long enough that only cancellation can end it in time. */
  hx_send(
      d,
      "{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/call\",\"params\":{\"name\":"
      "\"sleep\",\"arguments\":{\"ms\":120000,\"steps\":1200},\"_meta\":{\"progressToken\":1}}}");
  json_t *m = hx_next(d, HX_TIMEOUT); /* progress 0: the work has started */
  cr_assert_str_eq(json_string_value(json_object_get(m, "method")), "notifications/progress", "%s",
                   hx_dump(m));
  json_decref(m);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
             "{\"requestId\":30,\"reason\":\"test\"}}");
  hx_ping(d);
  /* Nothing is in flight any more (status counts only itself). */
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"upskilld/status\"}");
  cr_assert_eq(json_integer_value(json_object_get(hx_assert_result(r, "31"), "inFlight")), 1, "%s",
               hx_dump(r));
  json_decref(r);
  /* At EOF the daemon exits at once, and never answered request 30. */
  hx_close_stdin(d);
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT), "the daemon did not exit: the sleep still runs?");
  while ((m = hx_next(d, 0))) {
    cr_assert_null(json_object_get(m, "id"), "unexpected message after cancel: %s", hx_dump(m));
    json_decref(m);
  }
  hx_finish(d, 0);
}

Test(mcp, cancel_unknown_request_is_ignored) {
  hx *d = hx_mcp_session(HX_NOARGS);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
             "{\"requestId\":\"never-sent\"}}");
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, logging_set_level) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r =
      hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"logging/setLevel\",\"params\":"
                 "{\"level\":\"loud\"}}");
  cr_assert(strstr(hx_assert_error(r, "40", -32602), "params.level"));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"logging/setLevel\",\"params\":"
                 "{\"level\":7}}");
  cr_assert(strstr(hx_assert_error(r, "41", -32602), "params.level"));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"logging/setLevel\",\"params\":"
                 "{\"level\":\"debug\"}}");
  json_t *res = hx_assert_result(r, "42");
  cr_assert(json_is_object(res) && json_object_size(res) == 0);
  json_decref(r);
  /* At debug level the daemon's own log lines come to the client. */
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/hello\"}");
  json_t *m = hx_next(d, HX_TIMEOUT);
  cr_assert_str_eq(json_string_value(json_object_get(m, "method")), "notifications/message", "%s",
                   hx_dump(m));
  json_t *p = json_object_get(m, "params");
  cr_assert_str_eq(json_string_value(json_object_get(p, "level")), "debug");
  cr_assert(strstr(json_string_value(json_object_get(p, "data")), "notifications/hello"), "%s",
            hx_dump(m));
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, resources) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"resources/list\"}");
  json_t *list = json_object_get(hx_assert_result(r, "50"), "resources");
  cr_assert(json_is_array(list), "%s", hx_dump(r));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":51,\"method\":\"resources/templates/list\"}");
  cr_assert(json_is_array(json_object_get(hx_assert_result(r, "51"), "resourceTemplates")));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":52,\"method\":\"resources/read\",\"params\":"
                 "{\"uri\":\"upskilld://nothing/here\"}}");
  hx_assert_error(r, "52", -32002);
  json_t *data = json_object_get(json_object_get(r, "error"), "data");
  cr_assert_str_eq(json_string_value(json_object_get(data, "uri")), "upskilld://nothing/here");
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":53,\"method\":\"resources/read\",\"params\":{}}");
  cr_assert(strstr(hx_assert_error(r, "53", -32602), "params.uri"));
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

#define META_2026 "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}"

/* server/discover answers before and after a legacy initialize (a client of both eras probes
 * first); a 2026-07-28 request needs no initialize; its answer has the modern shape. */
Test(mcp, server_discover_and_stateless_requests) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  json_t *r = hx_call(
      d,
      "{\"jsonrpc\":\"2.0\",\"id\":60,\"method\":\"server/discover\",\"params\":{" META_2026 "}}");
  json_t *res = hx_assert_result(r, "60");
  cr_assert_str_eq(json_string_value(json_array_get(json_object_get(res, "supportedVersions"), 0)),
                   "2026-07-28");
  cr_assert_str_eq(json_string_value(json_object_get(res, "resultType")), "complete");
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":61,\"method\":\"tools/list\",\"params\":{" META_2026
                 "}}");
  res = hx_assert_result(r, "61");
  cr_assert(json_array_size(json_object_get(res, "tools")) > 5);
  cr_assert_str_eq(json_string_value(json_object_get(res, "cacheScope")), "private");
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":62,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                 "\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\"}}}");
  hx_assert_error(r, "62", -32022);
  json_decref(r);
  r = hx_call(
      d, "{\"jsonrpc\":\"2.0\",\"id\":63,\"method\":\"tools/list\"}"); /* legacy: no init yet */
  hx_assert_error(r, "63", -32002);
  json_decref(r);
  hx_mcp_init(d, "2025-11-25");
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":64,\"method\":\"server/discover\",\"params\":{}}");
  res = hx_assert_result(r, "64");
  cr_assert_not_null(json_object_get(res, "capabilities"));
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A batch response as an object keyed by id, after checking it is an array of `n`. */
static json_t *batch_by_id(json_t *arr, size_t n) {
  cr_assert(json_is_array(arr), "expected a batch response, got %s", hx_dump(arr));
  cr_assert_eq(json_array_size(arr), n, "expected %zu responses: %s", n, hx_dump(arr));
  json_t *by = json_object();
  size_t i;
  json_t *v;
  json_array_foreach(arr, i, v) json_object_set(by, hx_dump(json_object_get(v, "id")), v);
  return by;
}

Test(mcp, batches_in_2025_03_26) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, ARGS_TEST);
  cr_assert_str_eq(hx_mcp_init(d, "2025-03-26"), "2025-03-26");
  /* Requests mixed with notifications: one answer per request, in one array. */
  json_t *r = hx_call(d, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"},"
                         "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"},"
                         "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no/such\"},"
                         "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
                         "{\"name\":\"sleep\",\"arguments\":{\"ms\":200,\"steps\":2}}}]");
  json_t *by = batch_by_id(r, 4);
  hx_assert_result(json_object_get(by, "1"), "1");
  hx_assert_result(json_object_get(by, "2"), "2");
  hx_assert_error(json_object_get(by, "3"), "3", -32601);
  hx_assert_result(json_object_get(by, "4"), "4");
  json_decref(by);
  json_decref(r);
  /* Only notifications: no answer at all (the ping's answer comes next). */
  hx_send(d, "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]");
  hx_ping(d);
  /* An empty batch is one invalid request. */
  r = hx_call(d, "[]");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  /* Non-objects in a batch: one error each. */
  r = hx_call(d, "[1,2]");
  cr_assert(json_is_array(r) && json_array_size(r) == 2, "%s", hx_dump(r));
  hx_assert_error(json_array_get(r, 0), "null", -32600);
  hx_assert_error(json_array_get(r, 1), "null", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, exit_inside_a_batch_ends_the_session) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, ARGS_TEST);
  hx_mcp_init(d, "2025-03-26");
  /* Nothing after the exit may run: a sleep there would keep the process alive. */
  hx_send(
      d,
      "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
      "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"},"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"upskilld/sleep\",\"params\":{\"ms\":300000}}]");
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 1, "exit without shutdown inside a batch: status %d (-1: still running)", rc);
  hx_finish(d, 1);
}

Test(mcp, batches_rejected_in_2025_11_25) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                         "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, batches_rejected_in_2025_06_18) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  hx_mcp_init(d, "2025-06-18");
  json_t *r = hx_call(d, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(mcp, shutdown_then_exit) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":70,\"method\":\"shutdown\"}");
  cr_assert(json_is_null(hx_assert_result(r, "70")));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":71,\"method\":\"ping\"}");
  hx_assert_error(r, "71", -32600);
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}
