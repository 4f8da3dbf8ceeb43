/** LSP-specific message builders: work-done progress and window/logMessage. */
#ifndef UPK_LSP_H
#define UPK_LSP_H

#include <jansson.h>

/** window/logMessage types. */
enum { UPK_LSP_ERROR = 1, UPK_LSP_WARNING = 2, UPK_LSP_INFO = 3, UPK_LSP_LOG = 4 };

/** `$/progress` begin: `{kind:"begin", title, cancellable, message?}`; token borrowed. */
json_t *upk_lsp_progress_begin(json_t *token, const char *title, int cancellable);
/** `$/progress` report; percentage < 0 leaves it out, message may be NULL. */
json_t *upk_lsp_progress_report(json_t *token, int percentage, const char *message);
/** `$/progress` end; message may be NULL. */
json_t *upk_lsp_progress_end(json_t *token, const char *message);
/** `window/logMessage {type, message}`. */
json_t *upk_lsp_log_message(int type, const char *message);

#endif
