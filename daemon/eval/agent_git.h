/** git in an agent run's workspace, and the environment executable checks run with
 * (docs/eval.md "Executable checks", docs/security.md). Blocking: the thread pool only. */
#ifndef UPK_AGENT_GIT_H
#define UPK_AGENT_GIT_H

#include <stddef.h>

#include "common/run.h"

/** The commit an agent run started from, as a ref in the workspace's repository. */
#define UPK_GIT_BEFORE_REF "refs/upskilld/before"
/** Bytes of output kept from a script or a git command (its tail). */
#define UPK_GIT_OUTPUT_TAIL 4096

/** The environment a script runs with: `base` less HOME, TMPDIR, CODEX_HOME, GIT_* and every
 * variable named like a secret (ending in _KEY, _TOKEN, _SECRET, _PASSWORD or _CREDENTIALS:
 * the provider keys), plus HOME=<dir>/home and TMPDIR=<dir>/tmp, `dir` being the trial's
 * directory. NULL-terminated, malloc'd (upk_strv_free); NULL on ENOMEM. */
char **upk_git_script_env(char *const *base, const char *dir);
/** The same plus what makes git ours alone: no system or global config, no prompt, no pager,
 * a fixed identity and date, and GIT_INDEX_FILE=index when index is not NULL. */
char **upk_git_env(char *const *base, const char *dir, const char *index);
/** git ARGS on the repository <ws>/.git with work tree ws (never one found above it), hooks,
 * fsmonitor and signing off, in its own process group with a deadline; cancel_fd as
 * upk_run_program_cancellable's; the last `cap` bytes of its output kept, UTF-8-scrubbed.
 * Returns upk_run_program's. */
int upk_git_run(char **env, const char *ws, int cancel_fd, size_t cap, const char *const *args,
                upk_run_result *res);
/** Make <dir>/workspace a git repository whose one commit holds everything in it (the case's
 * files, the installed skill), also UPK_GIT_BEFORE_REF. Returns 0 or a negative errno
 * (-ENOENT: no git) with a message in err. */
int upk_git_baseline(const char *dir, char *err, size_t errlen);

#endif
