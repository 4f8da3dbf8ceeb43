/** The MCP face (mcp_face.c): the MCP `initialize` handshake, tools, resources and logging;
 * between the server, which calls it, and the method table and jobs. */
#ifndef UPK_MCP_FACE_H
#define UPK_MCP_FACE_H

#include <jansson.h>
#include <stdbool.h>

#include "session.h"

/** True when it handled `method`. */
bool upk_mcp_face_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                          json_t *params);

#endif
