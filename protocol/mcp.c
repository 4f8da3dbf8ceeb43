#include "mcp.h"

#include <stdlib.h>
#include <string.h>

#include "jsonrpc.h"

static const char *const revisions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};
static const char *const levels[] = {"debug", "info",     "notice", "warning",
                                     "error", "critical", "alert",  "emergency"};

const char *upk_mcp_negotiate(const char *requested) {
  for (size_t i = 0; requested && i < sizeof revisions / sizeof *revisions; i++)
    if (!strcmp(requested, revisions[i]))
      return revisions[i];
  return UPK_MCP_LATEST;
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
