/** The LSP face (lsp_face.c): the LSP `initialize` handshake, the open documents' side of LSP
 * and, through lsp_editor.c, the editor requests; between the server, which calls it, and the
 * method table, jobs and the documents service. */
#ifndef UPK_LSP_FACE_H
#define UPK_LSP_FACE_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"

/** True when it handled `method`. */
bool upk_lsp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);
/** textDocument/did* notifications (whatever the framing) into the documents service; true
 * for every textDocument/ method, handled or ignored. */
bool upk_lsp_face_notification(upk_server *s, const char *method, json_t *params);
/** Start the documents service reporting to this face: its checks' diagnostics leave as
 * textDocument/publishDiagnostics, lens changes as workspace/codeLens/refresh, and codeLens
 * requests that waited are answered (the server calls this once, at start-up). */
void upk_lsp_face_init(upk_server *s);

#endif
