/** The values of upskillctl's numeric flags, checked whole (args.c): a bad value is said on
 * stderr, naming the verb, the flag and what it takes, and never read as a default. */
#ifndef UPK_CTL_ARGS_H
#define UPK_CTL_ARGS_H

#include <stdbool.h>

/** `arg` as a number above 0 (`whole`: an integer), at most `max`, into *out; else -1 after
 * "upskillctl VERB: FLAG takes ... not 'ARG'". */
int ctl_arg_number(const char *verb, const char *flag, const char *arg, bool whole, double max,
                   double *out);

#endif
