/** The method table: every daemon method, declared once.
 *
 * Each entry has a JSON-RPC method name (LSP style, `area/verb`) and,
 * optionally, an MCP tool name. Both lead to the same handler with the same
 * parameter specification, from which MCP's inputSchema is generated.
 */
#ifndef UPK_METHODS_H
#define UPK_METHODS_H

#include <jansson.h>
#include <stdbool.h>

#include "binder.h"
#include "jobs.h"

typedef void (*upk_handler)(upk_job *job, json_t *params);

enum {
  UPK_METHOD_TEST_ONLY = 1, /* listed and callable only with --test-methods */
  UPK_METHOD_READ_ONLY = 2, /* MCP annotation readOnlyHint */
};

struct upk_method {
  const char *name;
  const char *tool;
  const char *title;
  const char *description;
  const upk_param *params;
  upk_handler handler;
  unsigned flags;
};

/** Find by JSON-RPC method name; NULL when absent (or test-only and not enabled). */
const upk_method *upk_method_find(const char *name, bool test_methods);
/** Find by MCP tool name. */
const upk_method *upk_method_find_tool(const char *tool, bool test_methods);
/** The i-th method visible with these options, or NULL past the end. */
const upk_method *upk_method_at(size_t i, bool test_methods);

/* Handlers that live in their own files. */
void upk_status_handler(upk_job *job, json_t *params);

#endif
