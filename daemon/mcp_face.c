/* The MCP face of the server: initialize with revision negotiation, tools
 * generated from the method table, resources and logging. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs.h"
#include "jsonrpc.h"
#include "log.h"
#include "mcp.h"
#include "methods.h"
#include "mcp_face.h"
#include "kernel_service.h"
#include "skills_service.h"
#include "upk_config.h"

static const char instructions[] =
    "upskilld finds, validates, installs and generates agent skills (SKILL.md) and validates "
    "CUDA kernels for H100. Call `status` to see what this machine offers.";

static void reply(upk_server *s, upk_batch *b, json_t *id, json_t *result) {
  upk_session_answer(s, b, upk_rpc_result(id, result));
}

static void fail(upk_server *s, upk_batch *b, json_t *id, int code, const char *msg) {
  upk_session_answer(s, b, upk_rpc_error(id, code, msg, NULL));
}

static void mcp_initialize(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (s->state != UPK_S_UNINIT) {
    fail(s, b, id, UPK_RPC_INVALID_REQUEST, "initialize was already received");
    return;
  }
  json_t *ver = json_object_get(params, "protocolVersion");
  if (!json_is_string(ver)) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.protocolVersion: required string is missing");
    return;
  }
  const char *chosen = upk_mcp_negotiate(json_string_value(ver));
  snprintf(s->mcp_version, sizeof s->mcp_version, "%s", chosen);
  s->client_info = json_incref(json_object_get(params, "clientInfo"));
  s->workspace = getcwd(NULL, 0);
  s->state = UPK_S_READY;
  upk_skills_start(s);
  upk_kernels_start_soon(s); /* a warm worker makes the first kernel check fast */
  upk_info("MCP client %s, revision %s (asked %s)",
           json_string_value(json_object_get(s->client_info, "name")) ?: "(unnamed)", chosen,
           json_string_value(ver));
  json_t *caps = json_pack("{s:{s:b},s:{s:b,s:b},s:{}}", "tools", "listChanged", 0, "resources",
                           "listChanged", 0, "subscribe", 0, "logging");
  reply(s, b, id,
        json_pack("{s:s,s:o,s:{s:s,s:s,s:s},s:s}", "protocolVersion", chosen, "capabilities", caps,
                  "serverInfo", "name", "upskilld", "title",
                  "upskilld: agent skills and H100 "
                  "kernel validation",
                  "version", UPK_VERSION, "instructions", instructions));
}

static json_t *tool_json(const upk_method *m) {
  return json_pack("{s:s,s:s,s:s,s:o,s:{s:b}}", "name", m->tool, "title", m->title, "description",
                   m->description, "inputSchema", upk_params_schema(m->params), "annotations",
                   "readOnlyHint", (m->flags & UPK_METHOD_READ_ONLY) != 0);
}

/* We never hand out cursors, so any cursor a client sends is invalid. */
static bool bad_cursor(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (!json_object_get(params, "cursor"))
    return false;
  fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.cursor: unknown cursor");
  return true;
}

static void tools_list(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (bad_cursor(s, b, id, params))
    return;
  json_t *tools = json_array();
  const upk_method *m;
  for (size_t i = 0; (m = upk_method_at(i, s->opts.test_methods)); i++)
    if (m->tool)
      json_array_append_new(tools, tool_json(m));
  reply(s, b, id, json_pack("{s:o}", "tools", tools));
}

static void tools_call(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  json_t *name = json_object_get(params, "name");
  json_t *args = json_object_get(params, "arguments");
  if (!json_is_string(name)) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.name: required string is missing");
    return;
  }
  if (args && !json_is_object(args) && !json_is_null(args)) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.arguments: expected object");
    return;
  }
  const upk_method *m = upk_method_find_tool(json_string_value(name), s->opts.test_methods);
  if (!m) {
    char msg[256];
    const char *tool = json_string_value(name);
    snprintf(msg, sizeof msg, "unknown tool: %.*s", (int)upk_utf8_prefix(tool, 200), tool);
    fail(s, b, id, UPK_RPC_INVALID_PARAMS, msg);
    return;
  }
  upk_job_start(s, b, m, id, params, json_is_object(args) ? args : NULL, true);
}

static void logging_set_level(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  int level = upk_mcp_level_parse(json_string_value(json_object_get(params, "level")));
  if (level < 0) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS,
         "params.level: expected one of debug, info, notice, warning, error, critical, alert, "
         "emergency");
    return;
  }
  s->mcp_log_level = level;
  reply(s, b, id, json_object());
}

bool upk_mcp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params) {
  if (!strcmp(method, "initialize")) {
    if (upk_session_framing(s) == UPK_FRAMING_LSP)
      return false;
    mcp_initialize(s, b, id, params);
  } else if (!strcmp(method, "tools/list")) {
    tools_list(s, b, id, params);
  } else if (!strcmp(method, "tools/call")) {
    tools_call(s, b, id, params);
  } else if (!strcmp(method, "resources/templates/list")) {
    if (!bad_cursor(s, b, id, params))
      reply(s, b, id,
            json_pack("{s:[{s:s,s:s,s:s,s:s}]}", "resourceTemplates", "uriTemplate",
                      "skill://{name}/SKILL.md", "name", "skill", "description",
                      "An agent skill's SKILL.md; see resources/list for the names.", "mimeType",
                      "text/markdown"));
  } else if (!strcmp(method, "logging/setLevel")) {
    logging_set_level(s, b, id, params);
  } else {
    return false;
  }
  return true;
}
