/** Skills over MCP (skills_ext.c): the MCP Skills extension (SEP-2640) — skills/list,
 * skills/get, resources/directory/read — and the skill:// resources (resources/list,
 * resources/read) that serve every file of every skill the agents can see. */
#ifndef UPK_SKILLS_EXT_H
#define UPK_SKILLS_EXT_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/core/session.h"

/** The extension's identifier under `capabilities.extensions`. */
#define UPK_SKILLS_EXTENSION "io.modelcontextprotocol/skills"

/** True when `method` is one of these (MCP framing): the request was started as a job. */
bool upk_skills_ext_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                            json_t *params);

#endif
