/** Landlock, the kernel's unprivileged access control (Linux 5.13 and later; docs/security.md,
 * "Sandbox"): a thread, and every process it starts after, may open files only beneath the
 * directories a rule set names, read-only or writable, may not bind or connect TCP sockets
 * (ABI 4 and later) and may not signal or reach an abstract socket outside itself (ABI 6).
 *
 * upskilld uses it where bubblewrap is not (it needs no user namespaces): NVRTC compiles on a
 * thread of their own that can read the toolkit and /usr only, so a toolkit header whose
 * include the source steers (thrust's host system) cannot open a file elsewhere; nvcc runs
 * without a bubblewrap sandbox confined the same way to its places. It is not a sandbox for
 * programs a stranger chose (no UDP or pathname-socket rule, no PID namespace): those still
 * need bubblewrap (common/sandbox.h).
 *
 * The rule set is built before fork (it opens the paths) and entered after it: entering is
 * async-signal-safe (three system calls). */
#ifndef UPK_LANDLOCK_H
#define UPK_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_landlock_spec {
  const char *const *ro; /* read, list and execute beneath (missing paths skipped) */
  size_t n_ro;
  const char *const *rw; /* everything beneath (missing paths skipped) */
  size_t n_rw;
} upk_landlock_spec;

/** The kernel's Landlock ABI version, 0 when it has none (or it is disabled at boot).
 * UPK_TEST_NO_LANDLOCK=1 answers 0 (tests of the paths without it). Probed once. */
int upk_landlock_abi(void);

/** A rule set allowing what `s` names and nothing else on the file system, TCP or scopes the
 * kernel knows: its descriptor (close-on-exec), or -ENOSYS without Landlock, -errno. */
int upk_landlock_ruleset(const upk_landlock_spec *s);

/** Confine the calling thread (and what it starts) to the rule set `fd`: no_new_privs, then
 * landlock_restrict_self. Irreversible. Async-signal-safe. 0 or -errno. */
int upk_landlock_enter(int fd);

#endif
