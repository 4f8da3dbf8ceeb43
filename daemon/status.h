/** upskilld/status (status.c): the daemon, the CUDA toolkit and the machine. */
#ifndef UPK_STATUS_H
#define UPK_STATUS_H

#include <jansson.h>

#include "daemon/core/jobs.h"

void upk_status_handler(upk_job *job, json_t *params);

#endif
