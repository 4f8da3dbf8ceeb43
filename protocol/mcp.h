/** MCP-specific pieces: revision negotiation for both eras, tool results, progress, logging
 * levels.
 *
 * Two eras share stdio. The legacy revisions (2024-11-05 .. 2025-11-25) open with
 * `initialize`; the negotiated revision holds for the session. From 2026-07-28 MCP is
 * stateless: every request names its revision, client capabilities and client info in
 * `params._meta` (the keys below), a client first probes with `server/discover`, and every
 * result carries `resultType` (list and read results also `ttlMs` and `cacheScope`). A
 * request is modern when it carries the revision key, whatever came before it. */
#ifndef UPK_MCP_H
#define UPK_MCP_H

#include <jansson.h>
#include <stdbool.h>

/** The newest revision the daemon speaks. */
#define UPK_MCP_LATEST "2025-11-25"

/** The newest stateless revision, and the -32022 code for a revision the server lacks. */
#define UPK_MCP_MODERN "2026-07-28"
#define UPK_MCP_UNSUPPORTED_VERSION (-32022)
/** "Resource not found" in the legacy revisions; -32602 from 2026-07-28. */
#define UPK_MCP_RESOURCE_NOT_FOUND (-32002)
/** Where a modern request names its revision, client capabilities and client info. */
#define UPK_MCP_META_VERSION "io.modelcontextprotocol/protocolVersion"
#define UPK_MCP_META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define UPK_MCP_META_CLIENT "io.modelcontextprotocol/clientInfo"
#define UPK_MCP_META_SERVER "io.modelcontextprotocol/serverInfo"

/** The revision to answer `initialize` with: the same one when it is a legacy revision the
 * daemon speaks, else the latest legacy one (the client then decides). */
const char *upk_mcp_negotiate(const char *requested);

/** The revision a request names in `params._meta` (NULL: none, a legacy-era request). */
const char *upk_mcp_request_revision(const json_t *params);
/** Whether `revision` is a stateless revision the daemon speaks. */
bool upk_mcp_modern_supported(const char *revision);
/** The stateless revisions the daemon speaks, as a new JSON array. */
json_t *upk_mcp_modern_revisions(void);
/** The -32022 error's data: {supported, requested}. */
json_t *upk_mcp_unsupported_data(const char *requested);

/** How long a client may keep a result, and for whom (2026-07-28 CacheableResult). */
typedef struct upk_mcp_cache {
  long long ttl_ms;  /* < 0: the result is not cacheable (no ttlMs/cacheScope) */
  const char *scope; /* "public" or "private" */
} upk_mcp_cache;
/** What `method`'s results may be cached for: list and read results are cacheable. */
upk_mcp_cache upk_mcp_cache_of(const char *method);
/** Turn a legacy result into its 2026-07-28 form, in place: `resultType`, the cache fields
 * where `cache` allows them (kept when the handler set its own), and `_meta`'s serverInfo
 * (`server_info` borrowed). */
void upk_mcp_modernize(json_t *result, upk_mcp_cache cache, json_t *server_info);
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
