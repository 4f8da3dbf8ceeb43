/** The server's completion service (models_service.c), which models/complete, the skill
 * generator and the evaluator share: one models/ handle per session, made on first use. */
#ifndef UPK_MODELS_SERVICE_H
#define UPK_MODELS_SERVICE_H

#include "daemon/core/session.h"
#include "models/models.h"

/** The server's completion service, created on first use; NULL when it cannot
 * be (out of memory, or the server is closing). */
upk_models *upk_models_get(upk_server *s);
/** Free the service, abandoning what is in flight (at exit, after jobs are cancelled). */
void upk_models_stop(upk_server *s);

#endif
