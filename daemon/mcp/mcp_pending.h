/** The MCP 2026-07-28 requests not answered yet (mcp_pending.c): which method each id asked,
 * so that its answer leaves in the modern shape (mcp_stateless.c). The server owns one table
 * per session and hands it to mcp_stateless.h's functions; it never reads it. Loop thread only.
 */
#ifndef UPK_MCP_PENDING_H
#define UPK_MCP_PENDING_H

#include <jansson.h>
#include <stdbool.h>

typedef struct upk_mcp_pending upk_mcp_pending;

/** A new, empty table (aborts on exhaustion, common/xalloc.h). */
upk_mcp_pending *upk_mcp_pending_new(void);
/** Frees the table and the method names it holds; NULL is a no-op. */
void upk_mcp_pending_free(upk_mcp_pending *p);

/** Records that request `id` (a string or an integer, borrowed) asked `method` (copied); a
 * second record for the same id replaces the first. */
void upk_mcp_pending_add(upk_mcp_pending *p, json_t *id, const char *method);
/** The method request `id` asked, or NULL when it is not pending (or `id` is neither a string
 * nor an integer). Borrowed: valid until the id is forgotten. */
const char *upk_mcp_pending_method(const upk_mcp_pending *p, json_t *id);
/** Forgets request `id` (answered or cancelled); an id not pending is a no-op. */
void upk_mcp_pending_forget(upk_mcp_pending *p, json_t *id);
/** True when no request is pending (the common case: no modern client). */
bool upk_mcp_pending_empty(const upk_mcp_pending *p);

#endif
