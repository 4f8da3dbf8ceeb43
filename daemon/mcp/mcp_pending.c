/* The MCP 2026-07-28 requests not answered yet (mcp_pending.h): a JSON object from the id's
 * key (protocol/jsonrpc.h's upk_rpc_id_key, which keeps "1" and 1 apart) to the method name. */
#include "daemon/mcp/mcp_pending.h"

#include "common/xalloc.h"
#include "protocol/jsonrpc.h"

struct upk_mcp_pending {
  json_t *by_id; /* id key -> method name (a string the table owns) */
};

upk_mcp_pending *upk_mcp_pending_new(void) {
  upk_mcp_pending *p = upk_xmalloc(sizeof *p);
  p->by_id = json_object();
  return p;
}

void upk_mcp_pending_free(upk_mcp_pending *p) {
  if (!p)
    return;
  json_decref(p->by_id);
  free(p);
}

/* The table's key for id, or false when id cannot be one (an answer to a notification, a
 * null id). */
static bool pending__key(json_t *id, char key[UPK_RPC_KEY_MAX]) {
  if (!json_is_string(id) && !json_is_integer(id))
    return false;
  upk_rpc_id_key(id, key);
  return true;
}

void upk_mcp_pending_add(upk_mcp_pending *p, json_t *id, const char *method) {
  char key[UPK_RPC_KEY_MAX];
  if (pending__key(id, key))
    json_object_set_new(p->by_id, key, json_string(method));
}

const char *upk_mcp_pending_method(const upk_mcp_pending *p, json_t *id) {
  char key[UPK_RPC_KEY_MAX];
  return pending__key(id, key) ? json_string_value(json_object_get(p->by_id, key)) : NULL;
}

void upk_mcp_pending_forget(upk_mcp_pending *p, json_t *id) {
  char key[UPK_RPC_KEY_MAX];
  if (pending__key(id, key))
    json_object_del(p->by_id, key);
}

bool upk_mcp_pending_empty(const upk_mcp_pending *p) {
  return json_object_size(p->by_id) == 0;
}
