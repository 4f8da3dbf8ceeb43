/* git for eval's workspaces and the scripts' environment (agent_git.h). */
#include "daemon/eval/agent_git.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/xalloc.h"
#include "skills/eval/agent.h"

extern char **environ;

enum { GIT_TIMEOUT_MS = 60000 /* one git command */ };

/* ---- the environment ---- */

static bool secret_name(const char *entry) {
  static const char *const ends[] = {"_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_CREDENTIALS"};
  const char *eq = strchr(entry, '=');
  size_t n = eq ? (size_t)(eq - entry) : strlen(entry);
  for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
    size_t k = strlen(ends[i]);
    if (n >= k && !strncmp(entry + n - k, ends[i], k))
      return true;
  }
  return false;
}

static bool dropped(const char *entry) {
  static const char *const ours[] = {"HOME=", "TMPDIR=", "CODEX_HOME=", "GIT_"};
  for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
    if (!strncmp(entry, ours[i], strlen(ours[i])))
      return true;
  return secret_name(entry);
}

char **upk_git_script_env(char *const *base, const char *dir) {
  size_t n = 0, k = 0;
  while (base && base[n])
    n++;
  char **v = upk_xcalloc(n + 3, sizeof *v);
  for (size_t i = 0; v && i < n; i++)
    if (!dropped(base[i]) && !(v[k++] = upk_xstrdup(base[i]))) {
      upk_strv_free(v);
      return NULL;
    }
  if (v && (!(v[k++] = upk_xasprintf("HOME=%s/home", dir)) ||
            !(v[k++] = upk_xasprintf("TMPDIR=%s/tmp", dir)))) {
    upk_strv_free(v);
    return NULL;
  }
  return v;
}

/* The script environment and what makes git ours alone: no system or global config, no
 * prompt, no pager, this repository only. NULL on ENOMEM. */
char **upk_git_env(char *const *base, const char *dir, const char *index) {
  char **env = upk_git_script_env(base, dir);
  size_t n = 0;
  while (env && env[n])
    n++;
  char **v = env ? upk_xrealloc(env, (n + 12) * sizeof *v) : NULL;
  if (!v) {
    upk_strv_free(env);
    return NULL;
  }
  const char *fixed[] = {"GIT_CONFIG_NOSYSTEM=1",
                         "GIT_CONFIG_GLOBAL=/dev/null",
                         "GIT_TERMINAL_PROMPT=0",
                         "GIT_PAGER=cat",
                         "GIT_AUTHOR_NAME=upskilld",
                         "GIT_AUTHOR_EMAIL=upskilld@localhost",
                         "GIT_COMMITTER_NAME=upskilld",
                         "GIT_COMMITTER_EMAIL=upskilld@localhost",
                         "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z",
                         "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z"};
  size_t k = n;
  bool ok = true;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed && ok; i++)
    ok = (v[k++] = upk_xstrdup(fixed[i])) != NULL;
  if (ok && index)
    ok = (v[k++] = upk_xasprintf("GIT_INDEX_FILE=%s", index)) != NULL;
  v[k] = NULL;
  if (!ok) {
    upk_strv_free(v);
    return NULL;
  }
  return v;
}

/* git with hooks, fsmonitor, external diff and the user's config off, in <dir>/workspace. */
int upk_git_run(char **env, const char *ws, int cancel_fd, size_t cap, const char *const *args,
                upk_run_result *res) {
  char *gitdir = upk_xasprintf("--git-dir=%s/.git", ws),
       *tree = upk_xasprintf("--work-tree=%s", ws);
  const char *argv[24] = {"git",
                          "-c",
                          "core.hooksPath=/dev/null",
                          "-c",
                          "core.fsmonitor=false",
                          "-c",
                          "commit.gpgsign=false",
                          "-c",
                          "init.defaultBranch=main",
                          "-c",
                          "core.quotePath=false",
                          gitdir,
                          tree};
  size_t n = 13;
  for (size_t i = 0; args[i] && n < 23; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  upk_run_opts o = {
      argv,      ws,  (const char *const *)env, true, GIT_TIMEOUT_MS, UPK_GIT_OUTPUT_TAIL,
      cancel_fd, true};
  int rc = gitdir && tree ? upk_run_program_opts(&o, res) : -ENOMEM;
  free(gitdir);
  free(tree);
  if (!rc)
    upk_utf8_scrub(res->output);
  return rc;
}

/* One git command that must succeed; its error in err. */
static int git_ok(char **env, const char *ws, const char *const *args, char *err, size_t errlen) {
  upk_run_result res;
  int rc = upk_git_run(env, ws, -1, UPK_GIT_OUTPUT_TAIL, args, &res);
  if (rc) {
    snprintf(err, errlen, "cannot run git: %s",
             rc == -ENOENT ? "git is not installed" : strerror(-rc));
    return rc;
  }
  if (res.exit_code) {
    snprintf(err, errlen, "git %s exited with status %d: %.300s", args[0], res.exit_code,
             res.output);
    rc = -EIO;
  }
  upk_run_result_free(&res);
  return rc;
}

int upk_git_baseline(const char *dir, char *err, size_t errlen) {
  char *ws = upk_xasprintf("%s/workspace", dir);
  char **env = ws ? upk_git_env(environ, dir, NULL) : NULL;
  const char *init[] = {"init", "-q", NULL}, *add[] = {"add", "-A", NULL};
  const char *commit[] = {"commit",      "-q", "--allow-empty",
                          "--no-verify", "-m", "upskilld: the workspace before the agent run",
                          NULL};
  const char *ref[] = {"update-ref", UPK_GIT_BEFORE_REF, "HEAD", NULL};
  int rc = env ? 0 : -ENOMEM;
  if (rc)
    snprintf(err, errlen, "out of memory");
  rc = rc ? rc : git_ok(env, ws, init, err, errlen);
  rc = rc ? rc : git_ok(env, ws, add, err, errlen);
  rc = rc ? rc : git_ok(env, ws, commit, err, errlen);
  rc = rc ? rc : git_ok(env, ws, ref, err, errlen);
  upk_strv_free(env);
  free(ws);
  return rc;
}
