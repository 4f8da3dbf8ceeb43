/** The method table: every daemon method, declared once.
 *
 * Each entry has a JSON-RPC method name (LSP style, `area/verb`) and,
 * optionally, an MCP tool name. Both lead to the same handler with the same
 * parameter specification, from which MCP's inputSchema is generated. The entry
 * type (upk_method) is in jobs.h, below the table, so handlers do not include this.
 */
#ifndef UPK_METHODS_H
#define UPK_METHODS_H

#include <jansson.h>
#include <stdbool.h>

#include "jobs.h"

/** Find by JSON-RPC method name; NULL when absent (or test-only and not enabled). */
const upk_method *upk_method_find(const char *name, bool test_methods);
/** Find by MCP tool name. */
const upk_method *upk_method_find_tool(const char *tool, bool test_methods);
/** The i-th method visible with these options, or NULL past the end. */
const upk_method *upk_method_at(size_t i, bool test_methods);

#endif
