/** upskillctl restore [--frozen], check [NAME...] and update [NAME...]: what the project's
 * skills-lock.json names, placed again, checked against its sources or updated. */
#ifndef UPK_CLIENTS_LOCK_CMDS_H
#define UPK_CLIENTS_LOCK_CMDS_H

#include "clients/ctl.h"

/** The verb in argv[0] with its options; an exit status (2 for bad arguments). */
int ctl_lock_command(ctl *c, int argc, char **argv);

#endif
