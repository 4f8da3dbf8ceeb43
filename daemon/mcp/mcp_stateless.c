/* MCP 2026-07-28 (mcp_stateless.h): moved here from server.c so that only the faces speak a
 * protocol; the server keeps the envelope and lifecycle and calls these. */
#include "daemon/mcp/mcp_stateless.h"

#include <stdio.h>
#include <string.h>

#include "protocol/jsonrpc.h"
#include "protocol/mcp.h"
#include "daemon/mcp/mcp_face.h"

void upk_mcp_stateless_answer(upk_mcp_pending *modern, json_t *response) {
  json_t *id = json_object_get(response, "id");
  const char *method = upk_mcp_pending_method(modern, id);
  if (!method)
    return;
  json_t *result = json_object_get(response, "result");
  json_t *error = json_object_get(response, "error");
  if (result)
    upk_mcp_modernize(result, upk_mcp_cache_of(method), upk_mcp_face_server_info());
  else if (json_integer_value(json_object_get(error, "code")) == UPK_MCP_RESOURCE_NOT_FOUND)
    json_object_set_new(error, "code", json_integer(UPK_RPC_INVALID_PARAMS));
  upk_mcp_pending_forget(modern, id);
}

void upk_mcp_stateless_forget(upk_mcp_pending *modern, json_t *id) {
  upk_mcp_pending_forget(modern, id);
}

/* The methods 2026-07-28 removed (a stateless server has no session to set up or poll). */
static bool removed_in_modern(const char *method) {
  return !strcmp(method, "initialize") || !strcmp(method, "ping") ||
         !strcmp(method, "logging/setLevel");
}

bool upk_mcp_stateless_request(upk_server *s, upk_batch *b, upk_mcp_pending *modern,
                               const char *method, json_t *id, json_t *params, bool *is_modern) {
  const char *rev = upk_mcp_request_revision(params);
  bool discover = !strcmp(method, "server/discover");
  *is_modern = false;
  if (upk_session_framing(s) == UPK_FRAMING_LSP || (!rev && !discover))
    return false;
  if (rev && !discover && !upk_mcp_modern_supported(rev)) {
    char msg[192];
    snprintf(msg, sizeof msg, "unsupported protocol version: %.*s (this server speaks %s)",
             (int)upk_utf8_prefix(rev, 64), rev, UPK_MCP_MODERN);
    upk_session_answer(
        s, b, upk_rpc_error(id, UPK_MCP_UNSUPPORTED_VERSION, msg, upk_mcp_unsupported_data(rev)));
    return true;
  }
  if (rev && removed_in_modern(method)) {
    char msg[160];
    snprintf(msg, sizeof msg, "method not found: %s is not part of MCP %s", method, rev);
    upk_session_answer(s, b, upk_rpc_error(id, UPK_RPC_METHOD_NOT_FOUND, msg, NULL));
    return true;
  }
  *is_modern = true;
  if (rev)
    upk_mcp_face_stateless(s, params);
  upk_mcp_pending_add(modern, id, method);
  return false;
}
