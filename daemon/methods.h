/** The method table: every daemon method, declared once.
 *
 * Each entry has a JSON-RPC method name (LSP style, `area/verb`) and,
 * optionally, an MCP tool name. Both lead to the same handler with the same
 * parameter specification, from which MCP's inputSchema is generated; a tool's
 * result table (tool_results.h) gives its outputSchema. The entry
 * type (upk_method) is in jobs.h, below the table, so handlers do not include this.
 */
#ifndef UPK_METHODS_H
#define UPK_METHODS_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/jobs.h"

/** Find by JSON-RPC method name; NULL when absent (or test-only and not enabled). */
const upk_method *upk_method_find(const char *name, bool test_methods);
/** Find by MCP tool name. */
const upk_method *upk_method_find_tool(const char *tool, bool test_methods);
/** The i-th method visible with these options, or NULL past the end. */
const upk_method *upk_method_at(size_t i, bool test_methods);
/** The MCP tool object `tools/list` lists for `m` (which has a tool name): name, title,
 * description, inputSchema (from its params), outputSchema (from its result and refusal
 * tables, when it has them) and annotations. */
json_t *upk_method_tool_json(const upk_method *m);

#endif
