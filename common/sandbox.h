/** A sandbox for programs whose input the user did not write (docs/security.md, "Sandbox"):
 * nvcc and the host compiler it runs through `sh -c`, eval scripts. The program runs under
 * bubblewrap (`bwrap`) in fresh user, mount, PID, network, IPC, UTS and cgroup namespaces (no
 * network), its own session, dying with its parent, with every capability dropped; it sees
 * /usr (and the /bin, /lib* links), the few /etc files the dynamic linker and toolchain read, a
 * private /proc and a minimal /dev, a fresh /tmp, the directories the caller names read-only,
 * and one writable scratch directory. The user's home, the trust store, other projects and the
 * rest of the file system are not there. Inside, prlimit(1) caps CPU time, address space, file
 * size, processes and open files before the program starts.
 *
 * Whether bwrap works here (it needs unprivileged user namespaces) is probed once, by running
 * `true` the same way, and remembered. Thread-safe. */
#ifndef UPK_SANDBOX_H
#define UPK_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_sandbox_spec {
  const char *scratch;   /* the one writable directory, at the same path inside */
  const char *const *ro; /* paths bound read-only at the same path (missing ones skipped) */
  size_t n_ro;
  const char *const *env_keep; /* NAME of our variables passed in (PATH, HOME, TMPDIR are set) */
  size_t n_env_keep;
  bool gpu; /* bind the /dev/nvidia* devices and /sys read-only, for a program that runs kernels */
  const char *const *rw; /* more writable directories, at the same path (missing ones skipped) */
  size_t n_rw;
  const char *home; /* HOME inside; NULL: the scratch directory */
  const char *tmp;  /* TMPDIR inside; NULL: /tmp, a fresh empty one */
} upk_sandbox_spec;

/** Whether a sandbox can be had: true, or false with `why` (may be NULL) saying what is missing
 * and what the user can do. Probed on the first call, then remembered. The environment variable
 * UPK_TEST_NO_SANDBOX=1 answers false (tests of the refusal without a sandbox). */
bool upk_sandbox_available(char *why, size_t why_len);

/** One line for `status`: "bubblewrap 0.8.0 (/usr/bin/bwrap)" or why there is none. */
void upk_sandbox_describe(char *out, size_t len);

/** The command line that runs `argv` (argv[0] an absolute path) inside the sandbox, and the
 * environment for it (`*envp`): a NULL-terminated vector whose strings it owns; free both with
 * upk_sandbox_free. NULL when no sandbox is available. Call before fork. */
char **upk_sandbox_wrap(const upk_sandbox_spec *s, const char *const *argv, char ***envp);
void upk_sandbox_free(char **v);

#endif
