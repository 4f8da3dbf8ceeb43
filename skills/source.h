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
 * and description; the first of a name wins. Nothing is followed through a symbolic link.
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
  char *url;         /* git: what git fetches from; path: the absolute directory */
  char *subpath;     /* inside the repository ("" for its root) */
  char *ref;         /* branch, tag or commit; NULL: the remote's default branch */
  char *lock_source; /* as skills-lock.json records it: owner/repo, the URL, or the path */
  const char *lock_type; /* skills-lock.json's sourceType: "github", "git" or "local" */
} upk_source;

/** Parse `spec`. `git_host` (NULL: https://github.com) serves the owner/repo shorthand;
 * relative paths are relative to `cwd`. Returns 0, or -EINVAL with a message in err. */
int upk_source_parse(const char *spec, const char *git_host, const char *cwd, upk_source *out,
                     char *err, size_t err_len);
void upk_source_free(upk_source *s);

/** Fetch a git source (a PATH source is used as it is). *dir: the checkout's directory
 * (malloc'd); *commit: its 40-hex commit (malloc'd; NULL for a PATH source). `env` gives
 * XDG_CACHE_HOME/HOME (NULL: the process's). Returns 0, or a negative errno with one
 * diagnostic saying why (source/git-missing, source/fetch-failed, source/timeout). */
int upk_source_fetch(const upk_source *s, const upk_env *env, int timeout_ms, char **dir,
                     char **commit, upk_diags *d);

/** What refuses skill directory `dir` of repository `root` before anything is copied: each
 * symbolic link that leads outside the repository or nowhere (source/symlink-outside), more
 * files or bytes than an install takes (source/too-large). Returns how many errors. */
size_t upk_source_check_tree(const char *dir, const char *root, upk_diags *d);

/** One skill found in a source. */
typedef struct upk_found_skill {
  char *name;        /* its frontmatter name */
  char *description;
  char *dir;         /* absolute */
  char *skill_path;  /* SKILL.md relative to the repository root (skills-lock.json's skillPath) */
} upk_found_skill;

typedef struct upk_found_skills {
  upk_found_skill *items;
  size_t len, cap;
} upk_found_skills;

/** The skills under `root`/`subpath` (root: the checkout or the local directory). Returns 0
 * (none found is 0 with an empty list), or a negative errno (-ENOENT: no such path). */
int upk_source_discover(const char *root, const char *subpath, upk_found_skills *out,
                        upk_diags *d);
void upk_found_skills_free(upk_found_skills *f);

#endif
