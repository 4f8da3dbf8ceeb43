/** upskillctl speaking to a person: "did you mean" (common/suggest.h) for a command, an option
 * or a skill typed wrong, and the daemon's hints in the words of the command line. */
#ifndef UPK_CTL_VOICE_H
#define UPK_CTL_VOICE_H

#include "clients/commands.h"
#include "clients/ctl.h"

/** "did you mean 'upskillctl lookup'?" on stderr when a command is near `word`. */
void ctl_suggest_command(const char *word);
/** Every option among the command's words (argv[0] the command) is the command's or a global
 * one (getopt_long's unique prefixes included); 0, or 2 after saying which is not and the
 * nearest that is. Stops at `--`. */
int ctl_check_options(const ctl_cmd *cmd, int argc, char **argv);
/** After a failed remove or eval of `name`: "did you mean 'pdf'?" with the nearest skill the
 * daemon lists (its own request; prints nothing when none is near). */
void ctl_suggest_skill(ctl *c, const char *name);
/** `msg` (a daemon's message; NULL: "") with its hints in upskillctl's words: a request's
 * parameter or upskilld's flag becomes the command-line option that sets it (malloc'd). */
char *ctl_cli_text(const char *msg);
/** What a diagnostic of `code` saying `msg` leaves out for a person on the command line (the
 * compiler's missing header: -I DIR), or "". */
const char *ctl_cli_more(const char *code, const char *msg);

/** `upskillctl status` as a table: each provider or toolkit not configured says how to
 * configure it, and with no model at all, every way to get one. */
void ctl_print_status(json_t *r);

#endif
