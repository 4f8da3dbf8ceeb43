/* The MCP face of the server: initialize with revision negotiation, tools
 * generated from the method table, resources and logging. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/mcp/face_jobs.h"
#include "common/dynbuf.h"
#include "common/suggest.h"
#include "daemon/core/jobs.h"
#include "protocol/jsonrpc.h"
#include "common/log.h"
#include "protocol/mcp.h"
#include "daemon/methods.h"
#include "daemon/mcp/mcp_face.h"
#include "daemon/mcp/skills_ext.h"
#include "models/config.h"
#include "daemon/skills/skills_service.h"
#include "upk_config.h"

static const char instructions[] =
    "upskilld: agent skills (SKILL.md) and CUDA kernels for H100.\n"
    "- Before a task, call find_skill with the task in plain words; noMatch: true means no "
    "installed skill fits. get_skill reads one in full.\n"
    "- After writing CUDA code, call validate_kernel (a compile: read-only); run_kernel runs it "
    "on the GPU.\n"
    "- list_skills shows what is installed; status shows what this machine offers.";

static void reply(upk_server *s, upk_batch *b, json_t *id, json_t *result) {
  upk_session_answer(s, b, upk_rpc_result(id, result));
}

static void fail(upk_server *s, upk_batch *b, json_t *id, int code, const char *msg) {
  upk_session_answer(s, b, upk_rpc_error(id, code, msg, NULL));
}

json_t *upk_mcp_face_server_info(void) {
  static json_t *info;
  if (!info)
    info = json_pack("{s:s,s:s,s:s}", "name", "upskilld", "title",
                     "upskilld: agent skills and H100 kernel validation", "version", UPK_VERSION);
  return info;
}

/* What the server offers, the same in both eras (logging only in the legacy one: 2026-07-28
 * removed logging/setLevel). The Skills extension (SEP-2640) rides on resources. */
static json_t *capabilities(bool legacy) {
  json_t *caps = json_pack("{s:{s:b},s:{s:b,s:b},s:{s:{s:b}}}", "tools", "listChanged", 0,
                           "resources", "listChanged", 0, "subscribe", 0, "extensions",
                           UPK_SKILLS_EXTENSION, "directoryRead", 1);
  if (legacy)
    json_object_set_new(caps, "logging", json_object());
  return caps;
}

/* The services an MCP client uses start once per process (upk_session_ready): by initialize,
 * or by the first 2026-07-28 request, which has no handshake. Kernel workers start on the
 * first kernel request, not here: an agent that never checks a kernel never pays for one
 * (48-84 MB). */
static void mcp_begun(upk_server *s, const char *revision) {
  upk_info("MCP client %s, revision %s",
           json_string_value(json_object_get(upk_session_client_info(s), "name")) ?: "(unnamed)",
           revision);
}

void upk_mcp_face_stateless(upk_server *s, json_t *params) {
  json_t *meta = json_object_get(params, "_meta");
  if (upk_session_ready(
          s, &(upk_session_hello){.client_info = json_object_get(meta, UPK_MCP_META_CLIENT)}))
    mcp_begun(s, json_string_value(json_object_get(meta, UPK_MCP_META_VERSION)));
}

static void mcp_initialize(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (upk_session_state(s) != UPK_S_UNINIT) {
    fail(s, b, id, UPK_RPC_INVALID_REQUEST, "initialize was already received");
    return;
  }
  json_t *ver = json_object_get(params, "protocolVersion");
  if (!json_is_string(ver)) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.protocolVersion: required string is missing");
    return;
  }
  const char *chosen = upk_mcp_negotiate(json_string_value(ver));
  /* Logged before the services start, as always (no MCP log level can be set yet). */
  upk_info("MCP initialize: revision %s (asked %s)", chosen, json_string_value(ver));
  reply(s, b, id,
        json_pack("{s:s,s:o,s:O,s:s}", "protocolVersion", chosen, "capabilities",
                  capabilities(true), "serverInfo", upk_mcp_face_server_info(), "instructions",
                  instructions));
  /* The answer leaves now; the services start after it (every later request is read after
   * this handler returns, so none finds them missing). */
  if (!b)
    upk_session_flush(s);
  if (upk_session_ready(s,
                        &(upk_session_hello){.initialized = true,
                                             .client_info = json_object_get(params, "clientInfo"),
                                             .mcp_version = chosen}))
    mcp_begun(s, chosen);
}

/* 2026-07-28's server/discover: what initialize answered, without a session. Answered to
 * any revision a client asks about: the client picks from supportedVersions. */
static void server_discover(upk_server *s, upk_batch *b, json_t *id) {
  reply(s, b, id,
        json_pack("{s:o,s:o,s:s}", "supportedVersions", upk_mcp_modern_revisions(), "capabilities",
                  capabilities(false), "instructions", instructions));
}

/* We never hand out cursors, so any cursor a client sends is invalid. */
static bool bad_cursor(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (!json_object_get(params, "cursor"))
    return false;
  fail(s, b, id, UPK_RPC_INVALID_PARAMS, "params.cursor: unknown cursor");
  return true;
}

static int by_tool_name(const void *a, const void *b) {
  return strcmp((*(const upk_method *const *)a)->tool, (*(const upk_method *const *)b)->tool);
}

enum { TOOLS_MAX = 128 };

/* Whether a model can be called: a provider's key or URL is set (models/config.h). The
 * environment is the process's, so the answer holds for the session: the list never changes. */
static bool have_model(void) {
  for (const upk_provider_def *p = upk_provider_defs; p->name; p++)
    if (upk_provider_configured(p))
      return true;
  return false;
}

/* The tools this session lists, sorted by name; their count. A tool that needs a model is left
 * out where none is configured: it could only fail, and its schema costs every conversation. */
static size_t listed_tools(upk_server *s, const upk_method **found) {
  const upk_method *m;
  size_t n = 0;
  bool model = have_model() || upk_session_options(s)->test_methods; /* tests list them all */
  for (size_t i = 0; (m = upk_method_at(i, upk_session_options(s)->test_methods)) && n < TOOLS_MAX;
       i++)
    if (m->tool && (model || !(m->flags & UPK_METHOD_NEEDS_MODEL)))
      found[n++] = m;
  qsort(found, n, sizeof *found, by_tool_name);
  return n;
}

/* Sorted by name: the same list in the same order for every client and every build, so a
 * host's cache of it (ttlMs) and a diff of two daemons' tools mean something. */
static void tools_list(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  if (bad_cursor(s, b, id, params))
    return;
  const upk_method *found[TOOLS_MAX];
  size_t n = listed_tools(s, found);
  json_t *tools = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(tools, upk_method_tool_json(found[i]));
  reply(s, b, id, json_pack("{s:o}", "tools", tools));
}

/* "unknown tool: X; did you mean Y?" and the names there are: a model recovers in one call. */
static void unknown_tool(upk_server *s, upk_batch *b, json_t *id, const char *tool) {
  const upk_method *found[TOOLS_MAX];
  const char *names[TOOLS_MAX];
  size_t n = listed_tools(s, found);
  for (size_t i = 0; i < n; i++)
    names[i] = found[i]->tool;
  const char *near = upk_suggest(tool, names, n);
  upk_buf msg;
  upk_buf_init(&msg, 4096);
  upk_buf_printf(&msg, "unknown tool: %.*s", (int)upk_utf8_prefix(tool, 200), tool);
  if (near)
    upk_buf_printf(&msg, "; did you mean %s?", near);
  for (size_t i = 0; i < n; i++)
    upk_buf_printf(&msg, "%s%s", i ? ", " : "; the tools are ", names[i]);
  char *text = upk_buf_take(&msg, NULL);
  fail(s, b, id, UPK_RPC_INVALID_PARAMS, text);
  free(text);
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
  const upk_method *m =
      upk_method_find_tool(json_string_value(name), upk_session_options(s)->test_methods);
  if (!m) {
    unknown_tool(s, b, id, json_string_value(name));
    return;
  }
  upk_job_start(s, b, m, id, params, json_is_object(args) ? args : NULL, &upk_face_job_tool);
}

static void logging_set_level(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  int level = upk_mcp_level_parse(json_string_value(json_object_get(params, "level")));
  if (level < 0) {
    fail(s, b, id, UPK_RPC_INVALID_PARAMS,
         "params.level: expected one of debug, info, notice, warning, error, critical, alert, "
         "emergency");
    return;
  }
  upk_session_set_log_level(s, level);
  reply(s, b, id, json_object());
}

bool upk_mcp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params) {
  if (!strcmp(method, "initialize")) {
    if (upk_session_framing(s) == UPK_FRAMING_LSP)
      return false;
    mcp_initialize(s, b, id, params);
  } else if (!strcmp(method, "server/discover")) {
    server_discover(s, b, id);
  } else if (upk_session_framing(s) != UPK_FRAMING_LSP && /* LSP has its own skills/list */
             upk_skills_ext_request(s, b, method, id, params)) {
    return true;
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
