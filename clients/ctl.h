/** Shared pieces of upskillctl's commands. */
#ifndef UPK_CTL_H
#define UPK_CTL_H

#include <jansson.h>

#include "clients/rpc_client.h"

typedef struct ctl {
  upk_client client;
  int json; /* --json: machine output */
  int verbose;
  int tty;               /* stderr is a terminal: progress is drawn there */
  int bar_shown;         /* a progress line is on stderr */
  char title[96];        /* what the current wait is for ($/progress begin, else the method) */
  double call_start;     /* when the current request was sent (ms, monotonic) */
  const char *diag_file; /* the file a refusal's diagnostics are about, or NULL */
  const char *diag_dir;  /* the directory (as typed) their relative file names sit in, or NULL */
  json_t *collect;       /* check-kernel DIR --json: results gathered here, printed once */
  json_t *extra_dirs;    /* --extra-dir DIR...: initializationOptions.skills.extraDirs */
} ctl;

/** Not a command this module knows. */
#define CTL_UNKNOWN (-1)

/** Send a request (params stolen; NULL: {}) with a progress token; returns
 * the result (caller decrefs) or NULL after printing the error. */
json_t *ctl_call(ctl *c, const char *method, json_t *params, int *rpc_error);
void ctl_print_json(json_t *v);
/** Send a request as ctl_call does, but return the whole response ({result}
 * or {error}) without printing anything; NULL (after printing why) when the
 * daemon did not answer. */
json_t *ctl_request(ctl *c, const char *method, json_t *params);
/** Print a failed response's error (and the diagnostics in its data). */
void ctl_print_error(ctl *c, json_t *err);
/** The project config's keys refused for want of trust (`configRefused` of an answer or an
 * error's data), one warning line each on stderr. */
void ctl_print_refused(json_t *r);
/** The one progress line on stderr, drawn only when stderr is a terminal:
 * `title [####....]  40% detail` for a fraction in [0, 1], `title... 3 s`
 * (time so far) for a negative one. ctl_progress_done clears it. */
void ctl_progress(ctl *c, const char *title, double fraction, const char *detail);
void ctl_progress_done(ctl *c);
/** How long a request may ask the daemon to wait (waitMs): under the timeout. */
long ctl_wait_ms(const ctl *c);
/** `file:line:col: severity: message [code]` lines to f; counts errors and warnings (either may
 * be NULL). */
void ctl_print_diags(FILE *f, const char *file, json_t *diags, int *errors, int *warnings);
/** The skills verbs: list, lookup, validate, install, remove, prompt. Returns
 * an exit status, or CTL_UNKNOWN. */
int ctl_skills_command(ctl *c, int argc, char **argv);
/** check-kernel FILE.cu: kernel/validate with gcc-style diagnostics and a
 * resources table. Returns an exit status, or CTL_UNKNOWN. */
int ctl_kernel_command(ctl *c, int argc, char **argv);
/** check-kernel --against: `run` with reference.pytorch.path set to the
 * problem (NULL after printing why); a directory of problems, one row each
 * and fast_0/1/2 (kernel_against.c). Returns an exit status. */
json_t *ctl_run_against(json_t *run, const char *problem);
int ctl_against_dir(ctl *c, const char *problems, const char *kernels, json_t *base, json_t *run);
/** generate, eval, runs: skills/generate, skills/eval, runs/list with bars
 * and a per-model table. Returns an exit status, or CTL_UNKNOWN. */
int ctl_eval_command(ctl *c, int argc, char **argv);
/** eval_passk.c: pass@1..k and pass^1..k per model and condition, from the summary's models. */
void ctl_print_pass_k(json_t *models, int old_skill);

/** report RUN_ID [B] [-o FILE]: runs/report. Returns an exit status, or
 * CTL_UNKNOWN. */
int ctl_report_command(ctl *c, int argc, char **argv);
/** check-kernel --html FILE: `result` of kernel/validate with `params` as
 * HTML; asks kernel/validate again for occupancy by block size. Returns an
 * exit status. */
/** trust [DIR] [--list], untrust [DIR] (trust_cmds.c): the user's trust store, written in this
 * process (common/trust.h), never by the daemon. `argv[0]` is the command. Returns an exit
 * status. */
int ctl_trust_command(int argc, char **argv, int json);
int ctl_kernel_html(ctl *c, json_t *params, json_t *result, const char *file);

#endif
