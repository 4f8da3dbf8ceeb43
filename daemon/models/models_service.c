/* The completion service (models_service.h): a service of its own, below the handlers that
 * use it (models_methods.c, and the eval and gen services). */
#include "daemon/models/models_service.h"

upk_models *upk_models_get(upk_server *s) {
  if (!upk_session_services(s)->models && upk_session_state(s) != UPK_S_CLOSING &&
      upk_models_new(upk_session_loop(s), &upk_session_services(s)->models))
    upk_session_services(s)->models = NULL;
  return upk_session_services(s)->models;
}

void upk_models_stop(upk_server *s) {
  upk_models_free(upk_session_services(s)->models);
  upk_session_services(s)->models = NULL;
}
