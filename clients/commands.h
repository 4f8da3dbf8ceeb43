/** upskillctl's one table of commands and options. Everything a person reads
 * about the command line comes from it: `upskillctl --help`, `upskillctl
 * COMMAND --help`, the completion scripts (`upskillctl completion
 * bash|zsh|fish`), the man page (`upskillctl man`) and docs/upskillctl.md
 * (`upskillctl man --markdown`); the commands' getopt tables are built from
 * it too, so an option cannot be documented and refused, or the reverse. */
#ifndef UPK_CTL_COMMANDS_H
#define UPK_CTL_COMMANDS_H

#include <getopt.h>
#include <stdio.h>

typedef struct ctl_opt {
  const char *lng;     /* long name without "--" */
  char shrt;           /* short letter, or 0 */
  int val;             /* what getopt returns for it (0: shrt) */
  const char *arg;     /* its argument's name, NULL for a flag */
  const char *help;    /* one line */
  const char *choices; /* the argument's values, space-separated, or NULL */
  int repeat;          /* may be given more than once */
} ctl_opt;

enum { CTL_MAX_OPTS = 24 }; /* the most options one command has, and the end */

/* getopt values of options with no letter that other files act on (clients/grant.c). */
enum { CTL_OPT_PYTHON = 0x100, CTL_OPT_ALLOW_OPTION };

typedef struct ctl_cmd {
  const char *name;
  const char *args;        /* positional arguments, as in the synopsis */
  const char *summary;     /* one line */
  const char *details;     /* a paragraph, or NULL */
  int kernels;             /* compiles kernels: the daemon keeps its kernel workers warm */
  int local;               /* answered without the daemon */
  const char *arg_choices; /* the first positional's values (completion), or NULL */
  ctl_opt opts[CTL_MAX_OPTS];
} ctl_cmd;

extern const ctl_cmd ctl_commands[];
extern const ctl_opt ctl_globals[];

/** The command called `name`, or NULL. */
const ctl_cmd *ctl_find_command(const char *name);
/** getopt_long tables for the command (static storage, rebuilt per call). */
const struct option *ctl_longopts(const char *name);
const char *ctl_shortopts(const char *name);
/** After an option error: "see 'upskillctl CMD --help'" on stderr. */
void ctl_usage_hint(const char *name);

void ctl_usage(FILE *f);
void ctl_command_help(const ctl_cmd *cmd, FILE *f);
/** completion bash|zsh|fish; returns 0, or -1 for another shell. */
int ctl_completion(const char *shell, FILE *f);
void ctl_man(FILE *f);
void ctl_markdown(FILE *f);

#endif
