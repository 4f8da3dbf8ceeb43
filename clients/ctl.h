/** Shared pieces of upskillctl's commands. */
#ifndef UPK_CTL_H
#define UPK_CTL_H

#include <jansson.h>

#include "rpc_client.h"

typedef struct ctl {
  upk_client client;
  int json; /* --json: machine output */
  int verbose;
  int bar_shown; /* a progress line is on stderr */
} ctl;

/** Not a command this module knows. */
#define CTL_UNKNOWN (-1)

/** Send a request (params stolen; NULL: {}) with a progress token; returns
 * the result (caller decrefs) or NULL after printing the error. */
json_t *ctl_call(ctl *c, const char *method, json_t *params, int *rpc_error);
void ctl_print_json(json_t *v);
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

/** report RUN_ID [B] [-o FILE]: runs/report. Returns an exit status, or
 * CTL_UNKNOWN. */
int ctl_report_command(ctl *c, int argc, char **argv);
/** check-kernel --html FILE: `result` of kernel/validate with `params` as
 * HTML; asks kernel/validate again for occupancy by block size. Returns an
 * exit status. */
int ctl_kernel_html(ctl *c, json_t *params, json_t *result, const char *file);

#endif
