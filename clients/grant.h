/** The user's grant: what a person typed that the daemon takes as its own command line. */
#ifndef UPK_CTL_GRANT_H
#define UPK_CTL_GRANT_H

#include <jansson.h>

#include "clients/commands.h"

/** The upskilld arguments (a JSON array of strings, caller owns) that give the command's
 * words the user's authority for this one daemon: check-kernel's -I DIR becomes
 * --allow-kernel-option=-I<DIR made real> (as an exact glob), --python PATH becomes
 * --python=PATH and --allow-kernel-option GLOB passes through. Nothing for other commands. */
json_t *ctl_grants(const ctl_cmd *cmd, int argc, char **argv);

#endif
