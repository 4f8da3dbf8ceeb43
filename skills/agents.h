/** The coding agents upskilld installs skills for, and where each one reads them.
 *
 * Everything agent-specific is data in one table (agents.c): no code path
 * branches on an agent. Each agent has one project directory and one user
 * directory where upskilld installs its skills (its own, "native" directory),
 * plus the other directories it also reads, so the index can say which agents
 * see a skill (e.g. Cursor also reads .agents/skills and .claude/skills).
 *
 * A directory is described by a upk_dirspec and resolved into a trusted base
 * (the project root, $HOME, $XDG_CONFIG_HOME or an override such as
 * $CLAUDE_CONFIG_DIR: whatever the user chose, followed as given) and a part
 * below it that the installer creates and walks without following symlinks,
 * so a symlink planted in a repository (`.claude -> /elsewhere`) is never
 * followed.
 *
 * The environment is read through upk_env so tests can inject variables
 * without setenv(). Variables that are unset, empty or not absolute paths are
 * ignored (as the XDG base directory spec says for XDG_CONFIG_HOME).
 */
#ifndef UPK_AGENTS_H
#define UPK_AGENTS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { UPK_SCOPE_PROJECT, UPK_SCOPE_USER } upk_scope;

/** Looks up an environment variable; returns NULL when unset. */
typedef const char *(*upk_getenv_fn)(void *ctx, const char *name);
typedef struct upk_env {
  upk_getenv_fn get;
  void *ctx;
} upk_env;

/** What a directory is relative to. */
typedef enum {
  UPK_BASE_PROJECT,    /* the project root */
  UPK_BASE_HOME,       /* $HOME */
  UPK_BASE_XDG_CONFIG, /* $XDG_CONFIG_HOME, else $HOME/.config */
} upk_base;

typedef struct upk_dirspec {
  upk_base base;
  const char *rel;     /* below the base, e.g. ".claude/skills" */
  const char *env;     /* when this variable is set, it replaces the base... */
  const char *env_rel; /* ...and this replaces rel (e.g. $CLAUDE_CONFIG_DIR + "skills") */
  bool legacy;         /* deprecated location the agent still reads */
  bool unverified;     /* not confirmed in a primary source */
} upk_dirspec;

typedef struct upk_agent {
  const char *id;             /* "claude", "codex", ... */
  const char *display;        /* "Claude Code" */
  const char *const *aliases; /* NULL-terminated; e.g. "agents" for codex */
  upk_dirspec project, user;  /* where upskilld installs for this agent */
  const upk_dirspec *reads;   /* other directories it also reads (both scopes) */
  size_t n_reads;
  const char *notes; /* precedence and quirks, for people */
} upk_agent;

/** Number of agents in the table; upk_agent_at(i) for i < count. */
size_t upk_agents_count(void);
const upk_agent *upk_agent_at(size_t i);
/** Find by id or alias (ASCII case-insensitive). NULL when unknown. */
const upk_agent *upk_agent_find(const char *id_or_alias);
/** The agent's install directory for a scope. */
const upk_dirspec *upk_agent_dir(const upk_agent *a, upk_scope scope);
/** The scope a directory spec belongs to. */
upk_scope upk_dirspec_scope(const upk_dirspec *d);

/** A resolved directory: path = base "/" rel. All three are owned (free with
 * upk_resolved_dir_free). */
typedef struct upk_resolved_dir {
  char *base; /* trusted: followed as given (user scope: created when missing) */
  char *rel;  /* created/walked below base without following symlinks */
  char *path;
  upk_scope scope;
} upk_resolved_dir;

/** Resolve a spec. project_root is needed for project specs, $HOME (from
 * env; NULL env: the process environment) for user specs. Returns 0,
 * -EINVAL (no or relative project root), -ENOENT (HOME unset or not
 * absolute) or -ENOMEM. */
int upk_dirspec_resolve(const upk_dirspec *d, const char *project_root, const upk_env *env,
                        upk_resolved_dir *out);
/** Resolve an agent's install directory for a scope (see upk_dirspec_resolve). */
int upk_agent_resolve(const upk_agent *a, upk_scope scope, const char *project_root,
                      const upk_env *env, upk_resolved_dir *out);
void upk_resolved_dir_free(upk_resolved_dir *d);

/** Which agents read skills from `dir` (an absolute path; compared after
 * removing "." components, duplicate and trailing slashes, not resolving
 * symlinks). Writes up to `cap` agents to out (may be NULL) and returns how
 * many there are; `native` (may be NULL, cap entries) says whether dir is that
 * agent's install directory rather than one it also reads. */
size_t upk_agents_reading(const char *dir, const char *project_root, const upk_env *env,
                          const upk_agent **out, bool *native, size_t cap);

/** Look up a variable through env (NULL: getenv). Unset and empty give NULL. */
const char *upk_env_get(const upk_env *env, const char *name);

/** `$var/sub` when the XDG variable `var` is an absolute path, else `$HOME/fallback/sub`
 * (HOME unset: /tmp), e.g. ("XDG_CACHE_HOME", ".cache", "upskilld/sources"). malloc'd. */
char *upk_env_xdg_dir(const upk_env *env, const char *var, const char *fallback, const char *sub);

#endif
