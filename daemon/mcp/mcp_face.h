/** The MCP face (mcp_face.c): the MCP `initialize` handshake, tools, resources and logging;
 * between the server, which calls it, and the method table and jobs. */
#ifndef UPK_MCP_FACE_H
#define UPK_MCP_FACE_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"

/** True when it handled `method`. */
bool upk_mcp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);

/** The first 2026-07-28 request (no handshake in that revision): start what initialize
 * starts, once. `params` holds its _meta (client info). */
void upk_mcp_face_stateless(upk_server *s, json_t *params);
/** {name, title, version}: initialize's serverInfo and modern results' _meta (borrowed). */
json_t *upk_mcp_face_server_info(void);

#endif
