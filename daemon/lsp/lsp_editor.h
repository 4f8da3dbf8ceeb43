/** Editor features over LSP (lsp_editor.c): code lenses, hovers, code actions, completion and
 * commands, each answered from the open document's last check, with the texts of lsp_text.h
 * and the fixes of lsp_fix.h. */
#ifndef UPK_LSP_EDITOR_H
#define UPK_LSP_EDITOR_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"

/** The capabilities to advertise in the initialize answer (merged into its capabilities). */
json_t *upk_editor_capabilities(void);
/** textDocument/codeLens, hover, codeAction, completion and workspace/executeCommand; true
 * when `method` was one of them (answered now or by a job). */
bool upk_editor_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                        json_t *params);

/** Answer codeLens request `id` for `uri` from its last check (a request that waited for it:
 * the documents service's check_ready, installed by the LSP face); [] once it is closed. */
void upk_editor_answer_lenses(upk_server *s, const char *uri, json_t *id);

#endif
