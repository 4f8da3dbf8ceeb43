/** The model methods: models/complete (MCP tool `complete`), and the
 * server's completion service that the skill generator and evaluator share. */
#ifndef UPK_MODELS_METHODS_H
#define UPK_MODELS_METHODS_H

#include <stddef.h>

#include "daemon/jobs.h"
#include "models/models.h"

extern const upk_method upk_models_methods[];
extern const size_t upk_models_methods_count;

/** The server's completion service, created on first use; NULL when it cannot
 * be (out of memory, or the server is closing). */
upk_models *upk_models_get(upk_server *s);
/** Free the service, abandoning what is in flight (at exit, after jobs are cancelled). */
void upk_models_stop(upk_server *s);

#endif
