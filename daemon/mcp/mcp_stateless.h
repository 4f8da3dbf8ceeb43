/** MCP 2026-07-28, the stateless revision (mcp_stateless.c), as the MCP face speaks it: which
 * requests name it, which it refuses, and the shape of their answers. The server holds the
 * table of such requests not answered yet (mcp_pending.h) and hands it in. */
#ifndef UPK_MCP_STATELESS_H
#define UPK_MCP_STATELESS_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"
#include "daemon/mcp/mcp_pending.h"

/** An MCP request that names a 2026-07-28 revision in its _meta (and server/discover, the
 * probe of either era's clients): refused here when the revision or the method is not
 * served, else recorded in `modern` so that its answer leaves in the modern shape. Returns
 * true when it was answered here; *is_modern says whether it is a modern request. */
bool upk_mcp_stateless_request(upk_server *s, upk_batch *b, upk_mcp_pending *modern,
                               const char *method, json_t *id, json_t *params, bool *is_modern);
/** Reshape `response` when it answers a modern request (and forget that request): the result
 * gains resultType, cache fields and serverInfo; "resource not found" becomes -32602. */
void upk_mcp_stateless_answer(upk_mcp_pending *modern, json_t *response);
/** A cancelled request gets no answer to take it out of `modern`: forget it now. */
void upk_mcp_stateless_forget(upk_mcp_pending *modern, json_t *id);

#endif
