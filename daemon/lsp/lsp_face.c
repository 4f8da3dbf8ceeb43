/* The LSP face of the server: the LSP `initialize` handshake, and the documents service's
 * side of LSP: textDocument/did* in, publishDiagnostics and codeLens/refresh out. Everything
 * else LSP asks for (shutdown, exit, $/cancelRequest, progress) is shared with MCP and lives
 * in server.c and jobs.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag_json.h"
#include "protocol/jsonrpc.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/lsp/lsp_editor.h"
#include "daemon/methods.h"
#include "daemon/lsp/documents.h"
#include "daemon/lsp/lsp_face.h"
#include "daemon/kernels/kernel_service.h"
#include "daemon/skills/skills_service.h"
#include "upk_config.h"

static char *workspace_from(json_t *params) {
  json_t *folders = json_object_get(params, "workspaceFolders");
  char *path =
      upk_file_uri_to_path(json_string_value(json_object_get(json_array_get(folders, 0), "uri")));
  if (!path)
    path = upk_file_uri_to_path(json_string_value(json_object_get(params, "rootUri")));
  if (!path && json_is_string(json_object_get(params, "rootPath")))
    path = upk_xstrdup(json_string_value(json_object_get(params, "rootPath")));
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
  v = json_object_get(json_object_get(json_object_get(params, "initializationOptions"), "skills"),
                      "lookupWaitMs");
  if (v && (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 120000))
    return "params.initializationOptions.skills.lookupWaitMs: expected integer 0..120000";
  return NULL;
}

static json_t *method_names(const upk_server *s) {
  json_t *names = json_array();
  const upk_method *m;
  for (size_t i = 0; (m = upk_method_at(i, upk_session_options(s)->test_methods)); i++)
    json_array_append_new(names, json_string(m->name));
  return names;
}

bool upk_lsp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params) {
  if (upk_session_framing(s) != UPK_FRAMING_LSP)
    return false;
  if (strcmp(method, "initialize") != 0)
    return upk_editor_request(s, b, method, id, params);
  if (upk_session_state(s) != UPK_S_UNINIT) {
    upk_session_answer(
        s, b, upk_rpc_error(id, UPK_RPC_INVALID_REQUEST, "initialize was already received", NULL));
    return true;
  }
  const char *bad = check_initialize(params);
  if (bad) {
    upk_session_answer(s, b, upk_rpc_error(id, UPK_RPC_INVALID_PARAMS, bad, NULL));
    return true;
  }
  /* Full text sync: CUDA files and SKILL.md are small, and a whole text is
   * the simplest thing to validate and cache. */
  json_t *caps = json_pack("{s:{s:b,s:i,s:{s:b}},s:{s:{s:s,s:o}}}", "textDocumentSync", "openClose",
                           1, "change", 1, "save", "includeText", 0, "experimental", "upskilld",
                           "version", UPK_VERSION, "methods", method_names(s));
  json_object_update_new(caps, upk_editor_capabilities()); /* lenses, hovers, actions */
  json_t *result = json_pack("{s:o,s:{s:s,s:s}}", "capabilities", caps, "serverInfo", "name",
                             "upskilld", "version", UPK_VERSION);
  upk_session_answer(s, b, upk_rpc_result(id, result));
  /* The answer leaves now; the services start after it (every later message is read after this
   * handler returns, so none finds them missing). */
  if (!b)
    upk_session_flush(s);
  json_t *init_options = json_object_get(params, "initializationOptions");
  upk_session_ready(
      s,
      &(upk_session_hello){
          .initialized = true,
          .client_info = json_object_get(params, "clientInfo"),
          .workspace = workspace_from(params),
          .init_options = init_options,
          .lens_refresh = json_is_true(json_object_get(
              json_object_get(json_object_get(json_object_get(params, "capabilities"), "workspace"),
                              "codeLens"),
              "refreshSupport")),
      });
  /* A warm worker makes an editor's first kernel check fast; a client that checks no kernel
   * (upskillctl ping) says warmKernels: false and starts no process (docs/protocol.md §5.1). */
  if (!json_is_false(json_object_get(init_options, "warmKernels")))
    upk_kernels_start_soon(s);
  upk_info("LSP client %s, workspace %s",
           json_string_value(json_object_get(upk_session_client_info(s), "name")) ?: "(unnamed)",
           upk_session_workspace(s));
  return true;
}

/* ---- open documents: textDocument/did* in, what their checks found out ---- */

static void publish(upk_server *s, const char *uri, int version, json_t *diagnostics) {
  json_t *p = json_pack("{s:s,s:o}", "uri", uri, "diagnostics", diagnostics);
  if (version >= 0)
    json_object_set_new(p, "version", json_integer(version));
  upk_session_send(s, upk_rpc_notification("textDocument/publishDiagnostics", p));
}

/* Diagnostics the compiler placed in other files (headers) are shown at the
 * top of this one, saying where they are: LSP publishes per document. */
static json_t *for_document(const char *path, json_t *diagnostics) {
  json_t *out = json_array(), *x;
  size_t i;
  json_array_foreach(diagnostics, i, x) {
    json_t *copy = json_deep_copy(x);
    const char *file = json_string_value(json_object_get(x, "file"));
    if (file && (!path || strcmp(file, path))) {
      json_int_t line = json_integer_value(
          json_object_get(json_object_get(json_object_get(x, "range"), "start"), "line"));
      char *msg = upk_xasprintf("In %s:%lld: %s", file, (long long)line + 1,
                                json_string_value(json_object_get(x, "message")));
      json_object_set_new(copy, "message", json_string(msg));
      free(msg);
      json_object_set_new(copy, "range",
                          json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", 0, "character", 0,
                                    "end", "line", 0, "character", 0));
    }
    json_object_del(copy, "file");
    json_array_append_new(out, copy);
  }
  return out;
}

static void on_diagnostics(upk_server *s, const upk_doc_diagnostics *d) {
  json_t *list = d->kernel  ? for_document(d->path, d->kernel)
                 : d->skill ? upk_diags_json(d->skill)
                            : json_array();
  publish(s, d->uri, d->version, list);
}

/* Clients that can be told re-ask for lenses after each check (LSP 3.16
 * workspace/codeLens/refresh). */
static void on_lenses_changed(upk_server *s) {
  static unsigned n;
  char id[32];
  if (!upk_session_lens_refresh(s))
    return;
  snprintf(id, sizeof id, "upskilld-lens-%u", ++n);
  json_t *jid = json_string(id);
  upk_session_send(s, upk_rpc_request(jid, "workspace/codeLens/refresh", NULL));
  json_decref(jid);
}

static const upk_docs_callbacks docs_callbacks = {on_diagnostics, on_lenses_changed,
                                                  upk_editor_answer_lenses};

void upk_lsp_face_init(upk_server *s) {
  upk_docs_init(s, &docs_callbacks);
}

static const char *text_of(json_t *text, size_t *len) {
  *len = json_string_length(text);
  return json_string_value(text);
}

static int version_of(json_t *td) {
  return (int)json_integer_value(json_object_get(td, "version"));
}

bool upk_lsp_face_notification(upk_server *s, const char *method, json_t *params) {
  if (strncmp(method, "textDocument/", 13))
    return false;
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  size_t len;
  if (!strcmp(method, "textDocument/didOpen")) {
    const char *text = text_of(json_object_get(td, "text"), &len);
    upk_docs_open(s, uri, json_string_value(json_object_get(td, "languageId")), version_of(td),
                  text, len);
  } else if (!strcmp(method, "textDocument/didChange")) {
    /* Full sync (what we advertise): the last change holds the whole text. */
    json_t *changes = json_object_get(params, "contentChanges");
    json_t *last = json_array_get(changes, json_array_size(changes) - 1);
    const char *text = text_of(json_object_get(last, "text"), &len);
    upk_docs_change(s, uri, version_of(td), text, len);
  } else if (!strcmp(method, "textDocument/didSave")) {
    const char *text = text_of(json_object_get(params, "text"), &len);
    upk_docs_save(s, uri, text, len);
  } else if (!strcmp(method, "textDocument/didClose") && upk_docs_close(s, uri)) {
    publish(s, uri, -1, json_array()); /* clear what we showed */
  }
  return true;
}
