/** The model methods: models/complete (MCP tool `complete`). The completion service it
 * shares with the skill generator and the evaluator is models_service.h. */
#ifndef UPK_MODELS_METHODS_H
#define UPK_MODELS_METHODS_H

#include <stddef.h>

#include "daemon/core/jobs.h"

extern const upk_method upk_models_methods[];
extern const size_t upk_models_methods_count;

#endif
