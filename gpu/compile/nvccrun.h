/** The nvcc backend's process side (nvccrun.c): a child under a guard that takes its whole
 * process group down with the thread that started it, optionally confined by Landlock, and the
 * toolkit's nvcc and the archs it can build. */
#ifndef UPK_GPU_NVCCRUN_H
#define UPK_GPU_NVCCRUN_H

#include <stdbool.h>
#include <stddef.h>

/** `<cuda_path>/bin/nvcc` when it is executable. Returns 0 or -ENOENT. */
int upk_nvcc_path(const char *cuda_path, char *out, size_t out_len);

/** Whether the toolkit's nvcc can build `arch` ("sm_90a"), from
 * `nvcc --list-gpu-code` (asked once per toolkit, then remembered). An nvcc
 * that cannot be asked answers true: the compile itself will say. */
bool upk_nvcc_supports(const char *cuda_path, const char *arch);

/** Run `argv` (argv[0] an absolute path) in `cwd` (NULL: here) under the
 * group-killing guard, stdout and stderr together into `*output` (NUL-ended,
 * caller frees; at most 8 MB kept). `*status` is the exit code, or 128+signal.
 * Returns 0, -errno when it could not be started, -ENOMEM. */
int upk_child_run(const char *const *argv, const char *cwd, char **output, size_t *len,
                  int *status);
/** The same with `env` as the child's whole environment (upk_child_run: ours, PATH cleaned). */
int upk_child_run_env(const char *const *argv, const char *cwd, char **env, char **output,
                      size_t *len, int *status);
/** upk_child_run, the guard and the program confined to the Landlock rule set `ruleset`
 * (common/landlock.h), with TMPDIR=`tmpdir` (a directory the rule set lets it write). */
int upk_child_run_confined(const char *const *argv, const char *cwd, int ruleset,
                           const char *tmpdir, char **output, size_t *len, int *status);

#endif
