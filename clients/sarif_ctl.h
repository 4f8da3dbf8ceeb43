/** upskillctl's answers as SARIF 2.1.0 (clients/sarif.h): audit findings and check-kernel
 * diagnostics; and audit's --fail-on. Each writer prints why on stderr when the file cannot be
 * written and returns 1, else 0. */
#ifndef UPK_CTL_SARIF_CTL_H
#define UPK_CTL_SARIF_CTL_H

#include <jansson.h>

/** Exit status of `audit --fail-on SEVERITY` when a finding at or above SEVERITY exists (the
 * status eval --fail-under uses: a CI gate said no, the command itself worked). */
#define CTL_EXIT_FAIL_ON 3

/** --sarif FILE given to `verb`: refused now (before any work) when it is a directory or
 * cannot be written; 0, or 2 (usage) after printing why. */
int ctl_sarif_check(const char *verb, const char *file);

/** `skills/audit`'s result: a result per finding, at its file and line relative to the working
 * directory (%SRCROOT%), the evidence (the finding's line) as snippet and in properties. */
int ctl_sarif_audit(json_t *r, const char *file);

/** check-kernel: `checks` is [{file, result}] (kernel/validate's result per checked path): a
 * result per diagnostic (compile, lint, build.toml), each once. */
int ctl_sarif_kernel(json_t *checks, const char *file);

/** Parse --fail-on's SEVERITY (high, medium, low) into *severity (LSP's: 1 high, 2 medium,
 * 3 low); -1 after printing the usage error. */
int ctl_fail_on_parse(const char *arg, int *severity);

/** CTL_EXIT_FAIL_ON when `skills/audit`'s result has a finding at or above `severity` (said
 * on stderr with the count), else 0. */
int ctl_fail_on(json_t *r, int severity);

#endif
