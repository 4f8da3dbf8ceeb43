/* MCP revision negotiation, batches, tool results, progress and logging; LSP builders. */
#include <string.h>

#include "tests/unit/unit.h"
#include "protocol/lsp.h"
#include "protocol/mcp.h"

/* `v` must equal the JSON text `want`; `v` is released. */
static void equals(json_t *v, const char *want) {
  json_error_t e;
  json_t *w = json_loads(want, 0, &e);
  cr_assert_not_null(w, "bad test JSON: %s", e.text);
  cr_assert_not_null(v);
  char *got = json_dumps(v, JSON_COMPACT);
  cr_assert(json_equal(v, w), "got %s\nwanted %s", got, want);
  free(got);
  json_decref(w);
  json_decref(v);
}

UTest(mcp, negotiate_echoes_supported_revisions) {
  static const char *const supported[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  for (int i = 0; i < 4; i++) {
    char copy[16];
    strcpy(copy, supported[i]); /* compared by value, not by pointer */
    cr_assert_str_eq(upk_mcp_negotiate(copy), supported[i]);
  }
  cr_assert_str_eq(UPK_MCP_LATEST, "2025-11-25");
}

UTest(mcp, negotiate_answers_latest_for_unknown) {
  /* 2026-07-28 is not negotiated by initialize: that revision has none */
  static const char *const unknown[] = {"2024-10-07", "2025-11-26",  "2099-01-01", "2026-07-28",
                                        "",           "2025-06-18 ", "latest"};
  for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++)
    cr_assert_str_eq(upk_mcp_negotiate(unknown[i]), UPK_MCP_LATEST, "'%s'", unknown[i]);
  cr_assert_str_eq(upk_mcp_negotiate(NULL), UPK_MCP_LATEST);
}

UTest(mcp, batches_only_in_2025_03_26) {
  cr_assert(upk_mcp_allows_batches("2025-03-26"));
  cr_assert_not(upk_mcp_allows_batches("2025-06-18"));
  cr_assert_not(upk_mcp_allows_batches("2025-11-25"));
  cr_assert_not(upk_mcp_allows_batches("2024-11-05"));
  cr_assert_not(upk_mcp_allows_batches(""));
  cr_assert_not(upk_mcp_allows_batches(NULL));
}

UTest(mcp, tool_result_structured) {
  json_t *r = upk_mcp_tool_result(json_pack("{s:i,s:s}", "a", 1, "b", "x\ny"), false, NULL);
  equals(r,
         "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\":1,\\\"b\\\":\\\"x\\\\ny\\\"}\"}],"
         "\"structuredContent\":{\"a\":1,\"b\":\"x\\ny\"}}");
}

UTest(mcp, tool_result_error_and_empty) {
  equals(upk_mcp_tool_result(NULL, true, "params.ms: expected integer, got string"),
         "{\"content\":[{\"type\":\"text\",\"text\":\"params.ms: expected integer, got string\"}],"
         "\"isError\":true}");
  equals(upk_mcp_tool_result(NULL, false, NULL),
         "{\"content\":[{\"type\":\"text\",\"text\":\"\"}]}");
}

UTest(mcp, progress_notification) {
  json_t *token = json_string("tok");
  equals(upk_mcp_progress(token, 3, 10, "step 3"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
         "\"progressToken\":\"tok\",\"progress\":3.0,\"total\":10.0,\"message\":\"step 3\"}}");
  equals(upk_mcp_progress(token, 0.5, -1, NULL),
         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
         "\"progressToken\":\"tok\",\"progress\":0.5}}");
  cr_assert_eq(token->refcount, 1, "the token is borrowed");
  json_decref(token);
}

UTest(mcp, log_message_notification) {
  equals(upk_mcp_log_message("warning", "upskilld", "disk low"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
         "\"level\":\"warning\",\"logger\":\"upskilld\",\"data\":\"disk low\"}}");
  equals(upk_mcp_log_message("info", NULL, "x"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
         "\"level\":\"info\",\"data\":\"x\"}}");
}

UTest(mcp, levels) {
  static const char *const names[] = {"debug", "info",     "notice", "warning",
                                      "error", "critical", "alert",  "emergency"};
  for (int i = 0; i < 8; i++) {
    cr_assert_eq(upk_mcp_level_parse(names[i]), i);
    cr_assert_str_eq(upk_mcp_level_name(i), names[i]);
  }
  cr_assert_eq(upk_mcp_level_parse("DEBUG"), -1);
  cr_assert_eq(upk_mcp_level_parse("warn"), -1);
  cr_assert_eq(upk_mcp_level_parse(NULL), -1);
  cr_assert_str_eq(upk_mcp_level_name(-1), "info");
  cr_assert_str_eq(upk_mcp_level_name(8), "info");
}

UTest(lsp, progress_begin_report_end) {
  json_t *token = json_integer(4);
  equals(upk_lsp_progress_begin(token, "Sleeping", 1),
         "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":4,\"value\":{"
         "\"kind\":\"begin\",\"title\":\"Sleeping\",\"cancellable\":true,\"percentage\":0}}}");
  equals(upk_lsp_progress_report(token, 40, "2 of 5"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":4,\"value\":{"
         "\"kind\":\"report\",\"percentage\":40,\"message\":\"2 of 5\"}}}");
  equals(upk_lsp_progress_report(token, 250, NULL),
         "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":4,\"value\":{"
         "\"kind\":\"report\",\"percentage\":100}}}");
  equals(upk_lsp_progress_report(token, -1, NULL),
         "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":4,\"value\":{"
         "\"kind\":\"report\"}}}");
  equals(upk_lsp_progress_end(token, "done"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":4,\"value\":{"
         "\"kind\":\"end\",\"message\":\"done\"}}}");
  cr_assert_eq(token->refcount, 1, "the token is borrowed");
  json_decref(token);
}

UTest(lsp, log_message) {
  equals(upk_lsp_log_message(UPK_LSP_WARNING, "careful"),
         "{\"jsonrpc\":\"2.0\",\"method\":\"window/logMessage\",\"params\":{\"type\":2,"
         "\"message\":\"careful\"}}");
}

UTest(mcp, request_revision_comes_from_meta) {
  json_t *p = json_pack("{s:{s:s}}", "_meta", UPK_MCP_META_VERSION, "2026-07-28");
  cr_assert_str_eq(upk_mcp_request_revision(p), "2026-07-28");
  cr_assert(upk_mcp_modern_supported(upk_mcp_request_revision(p)));
  json_decref(p);
  p = json_pack("{s:{s:i}}", "_meta", UPK_MCP_META_VERSION, 5);
  cr_assert_null(upk_mcp_request_revision(p));
  json_decref(p);
  cr_assert_null(upk_mcp_request_revision(NULL));
  cr_assert_not(upk_mcp_modern_supported("2025-11-25"));
  cr_assert_not(upk_mcp_modern_supported(NULL));
}

UTest(mcp, modernize_adds_result_type_cache_fields_and_server_info) {
  json_t *info = json_pack("{s:s}", "name", "upskilld");
  json_t *r = json_pack("{s:[]}", "tools");
  upk_mcp_modernize(r, upk_mcp_cache_of("tools/list"), info);
  cr_assert_str_eq(json_string_value(json_object_get(r, "resultType")), "complete");
  cr_assert_gt(json_integer_value(json_object_get(r, "ttlMs")), 0);
  cr_assert_str_eq(json_string_value(json_object_get(r, "cacheScope")), "private");
  cr_assert(json_equal(json_object_get(json_object_get(r, "_meta"), UPK_MCP_META_SERVER), info));
  json_decref(r);
  r = json_pack("{s:[],s:i}", "content", "ttlMs", 7); /* a tool call: not cacheable */
  upk_mcp_modernize(r, upk_mcp_cache_of("tools/call"), info);
  cr_assert_null(json_object_get(r, "cacheScope"));
  json_decref(r);
  json_decref(info);
}

UTest(mcp, unsupported_data_names_supported_and_requested) {
  json_t *d = upk_mcp_unsupported_data("2099-01-01");
  cr_assert_str_eq(json_string_value(json_array_get(json_object_get(d, "supported"), 0)),
                   UPK_MCP_MODERN);
  cr_assert_str_eq(json_string_value(json_object_get(d, "requested")), "2099-01-01");
  json_decref(d);
}
