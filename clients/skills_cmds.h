/** upskillctl's skills verbs (skills_cmds.c): what other verbs print the same way. */
#ifndef UPK_CLIENTS_SKILLS_CMDS_H
#define UPK_CLIENTS_SKILLS_CMDS_H

#include <jansson.h>

/** "installed NAME -> PATH" per target of an install's (or remove's) answer `r`. */
void ctl_print_targets(const char *verb, json_t *r);

#endif
