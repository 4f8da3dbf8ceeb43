#include "protocol/mcp.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/jsonrpc.h"

static const char *const revisions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
static const char *const modern_revisions[] = {UPK_MCP_MODERN};
static const char *const levels[] = {"debug", "info",     "notice", "warning",
                                     "error", "critical", "alert",  "emergency"};

const char *upk_mcp_negotiate(const char *requested) {
  for (size_t i = 0; requested && i < sizeof revisions / sizeof *revisions; i++)
    if (!strcmp(requested, revisions[i]))
      return revisions[i];
  return UPK_MCP_LATEST;
}

const char *upk_mcp_request_revision(const json_t *params) {
  json_t *meta = json_is_object(params) ? json_object_get(params, "_meta") : NULL;
  return json_string_value(json_object_get(meta, UPK_MCP_META_VERSION));
}

bool upk_mcp_modern_supported(const char *revision) {
  for (size_t i = 0; revision && i < sizeof modern_revisions / sizeof *modern_revisions; i++)
    if (!strcmp(revision, modern_revisions[i]))
      return true;
  return false;
}

json_t *upk_mcp_modern_revisions(void) {
  json_t *a = json_array();
  for (size_t i = 0; i < sizeof modern_revisions / sizeof *modern_revisions; i++)
    json_array_append_new(a, json_string(modern_revisions[i]));
  return a;
}

json_t *upk_mcp_unsupported_data(const char *requested) {
  /* json_string refuses invalid UTF-8; the revision then goes as null rather than lost */
  json_t *r = requested ? json_string(requested) : NULL;
  return json_pack("{s:o,s:o}", "supported", upk_mcp_modern_revisions(), "requested",
                   r ? r : json_null());
}

/* Lists and reads change as skills change on disk (the index watches them): a host may keep
 * them only briefly. Tools and templates are fixed for the daemon's life. */
upk_mcp_cache upk_mcp_cache_of(const char *method) {
  static const struct {
    const char *method;
    long long ttl_ms;
  } table[] = {
      {"tools/list", 3600000},      {"resources/templates/list", 3600000},
      {"server/discover", 3600000}, {"resources/list", 0},
      {"resources/read", 0},        {"resources/directory/read", 0},
      {"skills/list", 0},           {"skills/get", 0},
      {"prompts/list", 3600000},
  };
  for (size_t i = 0; method && i < sizeof table / sizeof *table; i++)
    if (!strcmp(method, table[i].method))
      return (upk_mcp_cache){table[i].ttl_ms, "private"};
  return (upk_mcp_cache){-1, NULL};
}

void upk_mcp_modernize(json_t *result, upk_mcp_cache cache, json_t *server_info) {
  if (!json_is_object(result))
    return;
  if (!json_object_get(result, "resultType"))
    json_object_set_new(result, "resultType", json_string("complete"));
  if (cache.ttl_ms >= 0 && !json_object_get(result, "ttlMs")) {
    json_object_set_new(result, "ttlMs", json_integer(cache.ttl_ms));
    json_object_set_new(result, "cacheScope", json_string(cache.scope));
  }
  json_t *meta = json_object_get(result, "_meta");
  if (!json_is_object(meta))
    json_object_set_new(result, "_meta", meta = json_object());
  if (server_info && !json_object_get(meta, UPK_MCP_META_SERVER))
    json_object_set(meta, UPK_MCP_META_SERVER, server_info);
}

bool upk_mcp_allows_batches(const char *revision) {
  return revision && !strcmp(revision, "2025-03-26");
}

json_t *upk_mcp_tool_result(json_t *structured, bool is_error, const char *text) {
  json_t *r = json_object(), *content = json_array();
  char *dumped = NULL;
  if (!text && structured)
    text = dumped = json_dumps(structured, JSON_COMPACT | JSON_REAL_PRECISION(12));
  json_array_append_new(content, json_pack("{s:s,s:s}", "type", "text", "text", text ? text : ""));
  free(dumped);
  json_object_set_new(r, "content", content);
  if (structured)
    json_object_set_new(r, "structuredContent", structured);
  if (is_error)
    json_object_set_new(r, "isError", json_true());
  return r;
}

json_t *upk_mcp_progress(json_t *token, double progress, double total, const char *message) {
  json_t *p = json_object();
  json_object_set(p, "progressToken", token);
  json_object_set_new(p, "progress", json_real(progress));
  if (total >= 0)
    json_object_set_new(p, "total", json_real(total));
  if (message)
    json_object_set_new(p, "message", json_string(message));
  return upk_rpc_notification("notifications/progress", p);
}

json_t *upk_mcp_log_message(const char *level, const char *logger, const char *text) {
  /* "logger" is optional: omitted when NULL (a null is not a string to strict clients). */
  return upk_rpc_notification("notifications/message", json_pack("{s:s,s:s*,s:s?}", "level", level,
                                                                 "logger", logger, "data", text));
}

int upk_mcp_level_parse(const char *name) {
  for (int i = 0; name && i < 8; i++)
    if (!strcmp(name, levels[i]))
      return i;
  return -1;
}

const char *upk_mcp_level_name(int level) {
  return level >= 0 && level < 8 ? levels[level] : "info";
}
