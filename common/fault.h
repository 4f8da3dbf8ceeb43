/** Fault injection for crash-consistency and disk-error tests.
 *
 * UPSKILLD_FAULT holds one or more rules separated by ',':
 *
 *     POINT[:N[:ACTION]]
 *
 * POINT names a place in the code (the upk_fault() calls; docs/testing.md lists them), or
 * ends with '*' to match every point with that prefix. N (default 1) is which hit of the
 * point fires: the count is per rule, across threads. ACTION is `kill` (default: SIGKILL the
 * whole process, as a crash or the OOM killer would), `abort`, or an errno name (ENOSPC,
 * EROFS, EACCES, EPERM, EIO, EDQUOT, ENOMEM, EINVAL): the hit returns that error, and so does every
 * later hit (a full disk stays full), or `sleepMS` (1-60000): that hit stalls its thread MS
 * milliseconds and goes on (a long scan, a slow disk).
 *
 * Unset, a call costs one load of a flag. The variable comes from common/env_options.h (read
 * once per process); its rules are parsed at the first call.
 */
#ifndef UPK_FAULT_H
#define UPK_FAULT_H

/** Count a hit of `point`: 0 to go on, or a negative errno to fail with (or never returns). */
int upk_fault(const char *point);

#endif
