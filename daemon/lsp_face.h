/** The LSP face (lsp_face.c): the LSP `initialize` handshake and, through lsp_editor.c, the
 * editor requests; between the server, which calls it, and the method table and jobs. */
#ifndef UPK_LSP_FACE_H
#define UPK_LSP_FACE_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/session.h"

/** True when it handled `method`. */
bool upk_lsp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);

#endif
