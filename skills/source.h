/** Where skills come from: a local directory, or a git repository people publish skills in
 * (`owner/repo`, a git URL, a local repository), fetched shallowly with the `git` program into
 * a cache, and the skills found in it the way vercel's `skills` CLI finds them.
 *
 * SOURCES (upk_source_parse):
 *   ./dir, /abs/dir, an existing relative directory   a local directory (kind PATH)
 *   owner/repo[/path][@ref|#ref]      `<git host>/owner/repo` (host: skills.gitHost, default
 *                                     https://github.com), `path` inside it, at `ref`
 *   github:owner/repo...              the same on GitHub whatever the host setting
 *   https://host/o/r/tree/REF/PATH    a GitHub-style tree URL: repository, ref and path
 *   https://..., ssh://..., git@host:..., git://..., file://...   a git URL (`#ref` allowed)
 *
 * FETCHING (upk_source_fetch): `git init` + `git fetch --depth 1 <url> <ref or HEAD>` +
 * `git checkout --detach FETCH_HEAD` in a private directory, renamed to
 * $XDG_CACHE_HOME/upskilld/sources/<url key>/<commit> once complete (so a half fetch is never
 * used); a ref that is a commit already there is used without the network. git runs with
 * GIT_TERMINAL_PROMPT=0 (never asks for a password) and a deadline.
 *
 * DISCOVERY (upk_source_discover), as vercel's CLI: SKILL.md at the path itself is the one
 * skill; else its direct subdirectories, skills/ (and skills/.curated, .experimental,
 * .system), the agents' skill directories (.agents/skills, .claude/skills, ...) and the
 * plugins of .claude-plugin/marketplace.json; else every directory holding SKILL.md down to
 * depth 5 (not node_modules, .git, dist, build, __pycache__). A skill needs a frontmatter name
 * and description; the first of a name wins.
 *
 * TRUST (docs/security.md, "Skill sources"): a source is a stranger's. Nothing is followed
 * through a symbolic link: every directory on the way from the repository's root to a skill is
 * opened component by component with O_NOFOLLOW. A link met where discovery would go on that
 * leads out of the repository (or nowhere) is an error, source/symlink-outside (rule
 * trust/read), and refuses the install; one inside is a warning, source/symlink-skipped. A
 * marketplace path that is absolute or has '..' is source/marketplace-path (refused). A
 * source's path (owner/repo/PATH, a tree URL's) and a git URL's path with '.', '..', empty
 * components or a backslash are refused when parsed (source/bad-path).
 */
#ifndef UPK_SOURCE_H
#define UPK_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/agents.h"
#include "common/diag.h"

typedef enum { UPK_SOURCE_PATH, UPK_SOURCE_GIT } upk_source_kind;

typedef struct upk_source {
  upk_source_kind kind;
  char *url;             /* git: what git fetches from; path: the absolute directory */
  char *subpath;         /* inside the repository ("" for its root) */
  char *ref;             /* branch, tag or commit; NULL: the remote's default branch */
  char *lock_source;     /* as skills-lock.json records it: owner/repo, the URL, or the path */
  const char *lock_type; /* skills-lock.json's sourceType: "github", "git" or "local" */
} upk_source;

/** Parse `spec`. `git_host` (NULL: https://github.com) serves the owner/repo shorthand;
 * relative paths are relative to `cwd`. Returns 0, or -EINVAL with a message in err. */
int upk_source_parse(const char *spec, const char *git_host, const char *cwd, upk_source *out,
                     char *err, size_t err_len);
void upk_source_free(upk_source *s);

/** Seconds below 1000 bytes/s after which git gives up on an http(s) server (git's
 * GIT_HTTP_LOW_SPEED_TIME; the user's own environment wins). */
#define UPK_SOURCE_LOW_SPEED_S "20"

/** Fetch a git source (a PATH source is used as it is). Blocking, and it waits on the network:
 * never on the skills queue (the daemon runs it on a thread of its own). *dir: the checkout's
 * directory (malloc'd); *commit: its 40-hex commit (malloc'd; NULL for a PATH source). `env`
 * gives XDG_CACHE_HOME/HOME (NULL: the process's). The whole fetch has `timeout_ms`; git's
 * process group is killed at that deadline, or as soon as `cancel_fd` (-1: none) becomes
 * readable. Returns 0, or a negative errno with one diagnostic saying why
 * (source/git-missing, source/fetch-failed, source/timeout: -ETIMEDOUT, source/cancelled:
 * -ECANCELED, source/repo-not-found, source/ref-not-found, source/unreachable). */
int upk_source_fetch(const upk_source *s, const upk_env *env, int timeout_ms, int cancel_fd,
                     char **dir, char **commit, upk_diags *d);

/** What refuses skill directory `dir` of repository `root` before anything is copied: each
 * symbolic link that leads outside the repository or nowhere (source/symlink-outside), more
 * files or bytes than an install takes (source/too-large). Returns how many errors. */
size_t upk_source_check_tree(const char *dir, const char *root, upk_diags *d);

/** One skill found in a source. */
typedef struct upk_found_skill {
  char *name; /* its frontmatter name */
  char *description;
  char *dir;        /* absolute */
  char *skill_path; /* SKILL.md relative to the repository root (skills-lock.json's skillPath) */
  char *broken;     /* upk_source_discover_every: why its frontmatter did not load, else NULL */
} upk_found_skill;

typedef struct upk_found_skills {
  upk_found_skill *items;
  size_t len, cap;
} upk_found_skills;

/** The skills under `root`/`subpath` (root: the checkout or the local directory). Returns 0
 * (none found is 0 with an empty list), or a negative errno: -ENOENT (no such path), -EPERM
 * when a link out of the repository or a refused marketplace path was met (errors in d; the
 * skills found are still listed, and none of them may be installed). */
int upk_source_discover(const char *root, const char *subpath, upk_found_skills *out, upk_diags *d);

/** The same for an audit: every directory holding a SKILL.md, none merged by name; one whose
 * frontmatter does not load is listed under its directory's name with `broken` set. */
int upk_source_discover_every(const char *root, const char *subpath, upk_found_skills *out,
                              upk_diags *d);

/** Whether skill directory `dir` (absolute, below `root`) is reached from `root` without a
 * symbolic link in any component, itself included; a link is reported in d as discovery
 * reports it. Checked again just before an install. */
bool upk_source_path_clean(const char *root, const char *dir, upk_diags *d);
void upk_found_skills_free(upk_found_skills *f);

#endif
