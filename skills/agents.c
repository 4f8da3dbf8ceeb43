/* The agent table (data only) and resolving its directories. Sources: the
 * reference note ../shared/reference/agent-skills.md §3 and vercel-labs/skills
 * src/agents.ts. */
#include "skills/agents.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

#define P(rel)                                                                                     \
  { UPK_BASE_PROJECT, rel, NULL, NULL, false, false }
#define H(rel)                                                                                     \
  { UPK_BASE_HOME, rel, NULL, NULL, false, false }
#define X(rel)                                                                                     \
  { UPK_BASE_XDG_CONFIG, rel, NULL, NULL, false, false }
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What each agent reads besides its own directories. */
static const upk_dirspec codex_reads[] = {
    {UPK_BASE_PROJECT, ".codex/skills", NULL, NULL, true, false}, /* docs of Dec 2025 */
    {UPK_BASE_HOME, ".codex/skills", "CODEX_HOME", "skills", true, true},
};
static const upk_dirspec cursor_reads[] = {
    P(".agents/skills"), P(".claude/skills"),
    P(".codex/skills"),  {UPK_BASE_HOME, ".agents/skills", NULL, NULL, false, true},
    H(".claude/skills"), H(".codex/skills"),
};
/* opencode and Copilot read the Claude and .agents directories too. */
static const upk_dirspec claude_agents_reads[] = {
    P(".claude/skills"),
    P(".agents/skills"),
    H(".claude/skills"),
    H(".agents/skills"),
};
static const upk_dirspec gemini_reads[] = {
    P(".agents/skills"),
    H(".agents/skills"),
};

#define READS(a) .reads = a, .n_reads = COUNT(a)
// clang-format off
#define ALIASES(...) .aliases = (const char *const[]){__VA_ARGS__, NULL}
// clang-format on
#define VERCEL "Directories from vercel-labs/skills src/agents.ts."

static const upk_agent agents[] = {
    {.id = "claude",
     .display = "Claude Code",
     ALIASES("claude-code"),
     .project = P(".claude/skills"),
     .user = {UPK_BASE_HOME, ".claude/skills", "CLAUDE_CONFIG_DIR", "skills", false, false},
     .notes = "Enterprise > personal > project. Does not read .agents/skills. Follows symlinked "
              "skill directories; a new top-level skills directory needs a restart."},
    {.id = "codex",
     .display = "Codex (and the shared .agents convention)",
     ALIASES("agents"),
     .project = P(".agents/skills"),
     .user = H(".agents/skills"),
     READS(codex_reads),
     .notes = "Reads .agents/skills from $CWD up to the repository root. REPO > USER > ADMIN "
              "(/etc/codex/skills) > SYSTEM. $CODEX_HOME/skills (~/.codex/skills) is "
              "deprecated. Skips hidden entries; depth 6, 2000 directories per root."},
    {.id = "cursor",
     .display = "Cursor",
     .project = P(".cursor/skills"),
     .user = H(".cursor/skills"),
     READS(cursor_reads),
     .notes = "Older builds do not read .agents/skills; nested .cursor/skills are path-scoped."},
    {.id = "opencode",
     .display = "opencode",
     .project = P(".opencode/skills"),
     .user = X("opencode/skills"),
     READS(claude_agents_reads),
     .notes = "Walks up to the git worktree. Enforces ^[a-z0-9]+(-[a-z0-9]+)*$ and name == "
              "directory."},
    {.id = "copilot",
     .display = "GitHub Copilot",
     ALIASES("github-copilot"),
     .project = P(".github/skills"),
     .user = H(".copilot/skills"),
     READS(claude_agents_reads),
     .notes = "Cloud agent, CLI and VS Code; VS Code defaults to .agents/skills."},
    {.id = "gemini",
     .display = "Gemini CLI",
     ALIASES("gemini-cli"),
     .project = P(".gemini/skills"),
     .user = H(".gemini/skills"),
     READS(gemini_reads),
     .notes = "built-in < extension < user < workspace; .agents is an alias of .gemini."},
    {.id = "windsurf",
     .display = "Windsurf",
     .project = P(".windsurf/skills"),
     .user = H(".codeium/windsurf/skills"),
     .notes = VERCEL},
    {.id = "goose",
     .display = "Goose",
     .project = P(".goose/skills"),
     .user = X("goose/skills"),
     .notes = VERCEL},
    {.id = "antigravity",
     .display = "Antigravity",
     .project = P(".agent/skills"),
     .user = H(".gemini/antigravity/skills"),
     .notes = VERCEL},
};

size_t upk_agents_count(void) {
  return COUNT(agents);
}

const upk_agent *upk_agent_at(size_t i) {
  return i < COUNT(agents) ? &agents[i] : NULL;
}

const upk_agent *upk_agent_find(const char *id) {
  if (!id)
    return NULL;
  for (size_t i = 0; i < COUNT(agents); i++) {
    if (strcasecmp(agents[i].id, id) == 0)
      return &agents[i];
    for (const char *const *al = agents[i].aliases; al && *al; al++)
      if (strcasecmp(*al, id) == 0)
        return &agents[i];
  }
  return NULL;
}

const upk_dirspec *upk_agent_dir(const upk_agent *a, upk_scope scope) {
  return scope == UPK_SCOPE_PROJECT ? &a->project : &a->user;
}

upk_scope upk_dirspec_scope(const upk_dirspec *d) {
  return d->base == UPK_BASE_PROJECT ? UPK_SCOPE_PROJECT : UPK_SCOPE_USER;
}

const char *upk_env_get(const upk_env *env, const char *name) {
  const char *v = env && env->get ? env->get(env->ctx, name) : getenv(name);
  return v && *v ? v : NULL;
}

/* Only absolute values count: a relative override would depend on the
 * daemon's working directory, which is never what the user meant. */
static const char *env_dir(const upk_env *env, const char *name) {
  const char *v = name ? upk_env_get(env, name) : NULL;
  return v && v[0] == '/' ? v : NULL;
}

static char *join(const char *a, const char *b) {
  size_t la = strlen(a);
  while (la > 1 && a[la - 1] == '/')
    la--;
  return upk_xasprintf("%.*s/%s", (int)la, a, b);
}

/* Pick the trusted base and the part below it. `base` points into the
 * environment or project_root, or is malloc'd into *owned. */
static int pick_base(const upk_dirspec *d, const char *project_root, const upk_env *env,
                     const char **base, const char **rel, char **owned) {
  *rel = d->rel;
  const char *over = env_dir(env, d->env);
  if (over) {
    *base = over;
    *rel = d->env_rel;
    return 0;
  }
  if (d->base == UPK_BASE_PROJECT) {
    *base = project_root;
    return project_root && project_root[0] == '/' ? 0 : -EINVAL;
  }
  const char *xdg = d->base == UPK_BASE_XDG_CONFIG ? env_dir(env, "XDG_CONFIG_HOME") : NULL;
  if (xdg) {
    *base = xdg;
    return 0;
  }
  const char *home = env_dir(env, "HOME");
  if (!home)
    return -ENOENT;
  if (d->base == UPK_BASE_HOME) {
    *base = home;
    return 0;
  }
  *owned = join(home, ".config");
  *base = *owned;
  return *owned ? 0 : -ENOMEM;
}

int upk_dirspec_resolve(const upk_dirspec *d, const char *project_root, const upk_env *env,
                        upk_resolved_dir *out) {
  memset(out, 0, sizeof *out);
  const char *base, *rel;
  char *owned = NULL;
  int rc = pick_base(d, project_root, env, &base, &rel, &owned);
  if (rc < 0) {
    free(owned);
    return rc;
  }
  out->scope = upk_dirspec_scope(d);
  out->base = owned ? owned : upk_xstrdup(base);
  out->rel = upk_xstrdup(rel);
  out->path = out->base ? join(out->base, rel) : NULL;
  if (!out->base || !out->rel || !out->path) {
    upk_resolved_dir_free(out);
    return -ENOMEM;
  }
  return 0;
}

int upk_agent_resolve(const upk_agent *a, upk_scope scope, const char *project_root,
                      const upk_env *env, upk_resolved_dir *out) {
  return upk_dirspec_resolve(upk_agent_dir(a, scope), project_root, env, out);
}

void upk_resolved_dir_free(upk_resolved_dir *d) {
  free(d->base);
  free(d->rel);
  free(d->path);
  memset(d, 0, sizeof *d);
}

/* Normalise in place: collapse "//", drop "." components and a trailing "/". */
static void normalise(char *p) {
  char *w = p;
  for (const char *r = p; *r;) {
    if (*r == '/' && (r[1] == '/' || (r[1] == '.' && (r[2] == '/' || !r[2])))) {
      r += r[1] == '/' ? 1 : 2;
      continue;
    }
    *w++ = *r++;
  }
  *w = 0;
  while (w > p + 1 && w[-1] == '/')
    *--w = 0;
}

/* Does `spec` resolve to the normalised path `dir`? */
static bool same_dir(const upk_dirspec *spec, const char *dir, const char *project_root,
                     const upk_env *env) {
  upk_resolved_dir r;
  if (upk_dirspec_resolve(spec, project_root, env, &r) < 0)
    return false;
  normalise(r.path);
  bool same = strcmp(r.path, dir) == 0;
  upk_resolved_dir_free(&r);
  return same;
}

/* 0: a does not read dir; 1: one it also reads; 2: its own directory. */
static int reads_dir(const upk_agent *a, const char *dir, const char *project_root,
                     const upk_env *env) {
  if (same_dir(&a->project, dir, project_root, env) || same_dir(&a->user, dir, project_root, env))
    return 2;
  for (size_t i = 0; i < a->n_reads; i++)
    if (same_dir(&a->reads[i], dir, project_root, env))
      return 1;
  return 0;
}

size_t upk_agents_reading(const char *dir, const char *project_root, const upk_env *env,
                          const upk_agent **out, bool *native, size_t cap) {
  char *norm = dir ? upk_xstrdup(dir) : NULL;
  if (!norm)
    return 0;
  normalise(norm);
  size_t n = 0;
  for (size_t i = 0; i < COUNT(agents); i++) {
    int how = reads_dir(&agents[i], norm, project_root, env);
    if (!how)
      continue;
    if (n < cap && out)
      out[n] = &agents[i];
    if (n < cap && native)
      native[n] = how == 2;
    n++;
  }
  free(norm);
  return n;
}

char *upk_env_xdg_dir(const upk_env *env, const char *var, const char *fallback, const char *sub) {
  const char *xdg = upk_env_get(env, var), *home = upk_env_get(env, "HOME");
  if (xdg && xdg[0] == '/')
    return upk_xasprintf("%s/%s", xdg, sub);
  return upk_xasprintf("%s/%s/%s", home && home[0] == '/' ? home : "/tmp", fallback, sub);
}
