/* The LSP face of the server: the LSP `initialize` handshake. Everything else
 * LSP asks for (shutdown, exit, $/cancelRequest, progress) is shared with MCP
 * and lives in server.c and jobs.c. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol/jsonrpc.h"
#include "common/log.h"
#include "daemon/lsp_editor.h"
#include "daemon/methods.h"
#include "daemon/documents.h"
#include "daemon/lsp_face.h"
#include "daemon/kernel_service.h"
#include "daemon/skills_service.h"
#include "upk_config.h"

static char *workspace_from(json_t *params) {
  json_t *folders = json_object_get(params, "workspaceFolders");
  char *path =
      upk_file_uri_to_path(json_string_value(json_object_get(json_array_get(folders, 0), "uri")));
  if (!path)
    path = upk_file_uri_to_path(json_string_value(json_object_get(params, "rootUri")));
  if (!path && json_is_string(json_object_get(params, "rootPath")))
    path = strdup(json_string_value(json_object_get(params, "rootPath")));
  if (!path)
    path = getcwd(NULL, 0);
  return path;
}

/* Type checks for the fields we read; returns an error message or NULL. */
static const char *check_initialize(json_t *params) {
  if (!json_is_object(params))
    return "params: initialize needs an object";
  json_t *v = json_object_get(params, "rootUri");
  if (v && !json_is_string(v) && !json_is_null(v))
    return "params.rootUri: expected string or null";
  v = json_object_get(params, "workspaceFolders");
  if (v && !json_is_array(v) && !json_is_null(v))
    return "params.workspaceFolders: expected array or null";
  v = json_object_get(params, "processId");
  if (v && !json_is_integer(v) && !json_is_null(v))
    return "params.processId: expected integer or null";
  v = json_object_get(params, "capabilities");
  if (v && !json_is_object(v))
    return "params.capabilities: expected object";
  v = json_object_get(json_object_get(params, "initializationOptions"), "warmKernels");
  if (v && !json_is_boolean(v))
    return "params.initializationOptions.warmKernels: expected boolean";
  return NULL;
}

static json_t *method_names(const upk_server *s) {
  json_t *names = json_array();
  const upk_method *m;
  for (size_t i = 0; (m = upk_method_at(i, s->opts.test_methods)); i++)
    json_array_append_new(names, json_string(m->name));
  return names;
}

bool upk_lsp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params) {
  if (upk_session_framing(s) != UPK_FRAMING_LSP)
    return false;
  if (strcmp(method, "initialize") != 0)
    return upk_editor_request(s, b, method, id, params);
  if (s->state != UPK_S_UNINIT) {
    upk_session_answer(
        s, b, upk_rpc_error(id, UPK_RPC_INVALID_REQUEST, "initialize was already received", NULL));
    return true;
  }
  const char *bad = check_initialize(params);
  if (bad) {
    upk_session_answer(s, b, upk_rpc_error(id, UPK_RPC_INVALID_PARAMS, bad, NULL));
    return true;
  }
  s->workspace = workspace_from(params);
  s->init_options = json_incref(json_object_get(params, "initializationOptions"));
  s->client_info = json_incref(json_object_get(params, "clientInfo"));
  s->state = UPK_S_READY;
  upk_skills_start(s);
  /* A warm worker makes an editor's first kernel check fast; a client that checks no kernel
   * (upskillctl ping) says warmKernels: false and starts no process (docs/protocol.md §5.1). */
  if (!json_is_false(json_object_get(s->init_options, "warmKernels")))
    upk_kernels_start_soon(s);
  upk_info("LSP client %s, workspace %s",
           json_string_value(json_object_get(s->client_info, "name")) ?: "(unnamed)", s->workspace);
  /* Full text sync: CUDA files and SKILL.md are small, and a whole text is
   * the simplest thing to validate and cache. */
  json_t *caps = json_pack("{s:{s:b,s:i,s:{s:b}},s:{s:{s:s,s:o}}}", "textDocumentSync", "openClose",
                           1, "change", 1, "save", "includeText", 0, "experimental", "upskilld",
                           "version", UPK_VERSION, "methods", method_names(s));
  json_object_update_new(caps, upk_editor_capabilities()); /* lenses, hovers, actions */
  s->lens_refresh = json_is_true(json_object_get(
      json_object_get(json_object_get(json_object_get(params, "capabilities"), "workspace"),
                      "codeLens"),
      "refreshSupport"));
  json_t *result = json_pack("{s:o,s:{s:s,s:s}}", "capabilities", caps, "serverInfo", "name",
                             "upskilld", "version", UPK_VERSION);
  upk_session_answer(s, b, upk_rpc_result(id, result));
  return true;
}
