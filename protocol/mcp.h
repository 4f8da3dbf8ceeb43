/** MCP-specific pieces: revision negotiation, tool results, progress, logging levels. */
#ifndef UPK_MCP_H
#define UPK_MCP_H

#include <jansson.h>
#include <stdbool.h>

/** The newest revision the daemon speaks. */
#define UPK_MCP_LATEST "2025-11-25"

/** The revision to answer for a client's request: the same one when
 * supported, else the latest (the client then decides). */
const char *upk_mcp_negotiate(const char *requested);
/** Whether the revision lets clients send JSON-RPC batches (only 2025-03-26). */
bool upk_mcp_allows_batches(const char *revision);

/** A tools/call result: `structured` (stolen) as structuredContent plus the
 * same JSON as a text block; for errors, `text` is the message. */
json_t *upk_mcp_tool_result(json_t *structured, bool is_error, const char *text);
/** notifications/progress; `token` borrowed, `message` may be NULL, total < 0 omitted. */
json_t *upk_mcp_progress(json_t *token, double progress, double total, const char *message);
/** notifications/message at `level` (an RFC 5424 name). */
json_t *upk_mcp_log_message(const char *level, const char *logger, const char *text);

/** RFC 5424 levels, most verbose first. Returns 0..7 or -1 when unknown. */
int upk_mcp_level_parse(const char *name);
const char *upk_mcp_level_name(int level);

#endif
