#include "protocol/lsp.h"

#include "protocol/jsonrpc.h"

static json_t *progress(json_t *token, json_t *value) {
  json_t *params = json_object();
  json_object_set(params, "token", token);
  json_object_set_new(params, "value", value);
  return upk_rpc_notification("$/progress", params);
}

json_t *upk_lsp_progress_begin(json_t *token, const char *title, int cancellable) {
  return progress(token, json_pack("{s:s,s:s,s:b,s:i}", "kind", "begin", "title", title,
                                   "cancellable", cancellable, "percentage", 0));
}

json_t *upk_lsp_progress_report(json_t *token, int percentage, const char *message) {
  json_t *v = json_pack("{s:s}", "kind", "report");
  if (percentage >= 0)
    json_object_set_new(v, "percentage", json_integer(percentage > 100 ? 100 : percentage));
  if (message)
    json_object_set_new(v, "message", json_string(message));
  return progress(token, v);
}

json_t *upk_lsp_progress_end(json_t *token, const char *message) {
  json_t *v = json_pack("{s:s}", "kind", "end");
  if (message)
    json_object_set_new(v, "message", json_string(message));
  return progress(token, v);
}

json_t *upk_lsp_log_message(int type, const char *message) {
  return upk_rpc_notification("window/logMessage",
                              json_pack("{s:i,s:s?}", "type", type, "message", message));
}
