/** upskillctl's answers as JUnit (clients/junit.h): eval trials, check-kernel files and kernels,
 * audit findings; and eval's --fail-under. Each writer prints why on stderr when the file
 * cannot be written and returns 1, else 0. */
#ifndef UPK_CTL_JUNIT_CTL_H
#define UPK_CTL_JUNIT_CTL_H

#include <jansson.h>

/** Exit status of `eval --fail-under RATE` when a model's with-skill pass rate is below RATE. */
#define CTL_EXIT_FAIL_UNDER 3

/** --junit FILE given to `verb`: refused now (before any work) when it is a directory or
 * cannot be written; 0, or 2 (usage) after printing why. */
int ctl_junit_check(const char *verb, const char *file);

/** `skills/eval`'s result: a suite per model, a case per trial. `started`: seconds since the
 * epoch when the command began. */
int ctl_junit_eval(json_t *r, const char *file, double started);

/** check-kernel: `checks` is [{file, result}] (kernel/validate's result per checked path). */
int ctl_junit_kernel(json_t *checks, const char *file, double started);

/** `skills/audit`'s result: a suite per skill, a failing case per finding. */
int ctl_junit_audit(json_t *r, const char *file, double started);

/** Parse --fail-under's RATE (0 to 1) into *rate; -1 after printing the usage error. */
int ctl_fail_under_parse(const char *arg, double *rate);

/** Each model whose with-skill pass rate is below `rate` (or has none), named on stderr;
 * CTL_EXIT_FAIL_UNDER when there is one, else 0. `rate` < 0: off. */
int ctl_fail_under(json_t *r, double rate);

/** Seconds since the epoch, now. */
double ctl_now(void);

#endif
