/* Files a client names by path (a trace to condense, a tests file, trigger queries): where each
 * may be read from, by who asked (docs/security.md, "Traces").
 *
 * An agent (an MCP session: its arguments may come from a prompt injection) reads beneath the
 * workspace, the agents' session directories, the runs directory and the directories the user's
 * own config lists (condense.allowPaths); anything else is refused by rule trust/read. An editor
 * (LSP) is driven by the user and reads what the user can. Either way the file is read through
 * common/fileio.h's safe reader: never a FIFO, never over the cap, and for an agent no link below
 * the root it was found under. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/eval_methods.h"
#include "daemon/eval_methods_int.h"
#include "daemon/skills_service.h"
#include "skills/agents.h"
#include "common/fileio.h"
#include "common/trust.h"
#include "common/xalloc.h"

/* $NAME/sub when NAME is set (CLAUDE_CONFIG_DIR, CODEX_HOME), else ~/dot/sub. */
static char *agent_dir(const char *name, const char *dot, const char *sub) {
  const char *v = getenv(name), *home = getenv("HOME");
  if (v && *v == '/')
    return upk_xasprintf("%s/%s", v, sub);
  return home && *home == '/' ? upk_xasprintf("%s/%s/%s", home, dot, sub) : NULL;
}

/* The agents' own skill directories in the user's scope (as guard.c's places): a tests file
 * may be a user skill's skill_meta.json. */
static void add_skill_dirs(json_t *roots, const char *workspace) {
  for (size_t i = 0; i < upk_agents_count(); i++) {
    const upk_agent *a = upk_agent_at(i);
    upk_resolved_dir d;
    if (upk_agent_resolve(a, UPK_SCOPE_USER, workspace, NULL, &d) == 0) {
      json_array_append_new(roots, json_string(d.path));
      upk_resolved_dir_free(&d);
    }
    for (size_t j = 0; j < a->n_reads; j++)
      if (upk_dirspec_scope(&a->reads[j]) == UPK_SCOPE_USER &&
          upk_dirspec_resolve(&a->reads[j], workspace, NULL, &d) == 0) {
        json_array_append_new(roots, json_string(d.path));
        upk_resolved_dir_free(&d);
      }
  }
  json_array_append_new(roots, json_string(upk_skills_library_dir()));
}

/* The roots an agent may read beneath, into a new array of strings: guard.c's places (which
 * answered first, on the loop) as directories to read beneath, so that what the guard saw is
 * what is read: no link swapped in since is followed. */
static json_t *agent_roots(ecall *c) {
  json_t *roots = json_array();
  json_array_extend(roots, c->agent_paths); /* the user's --agent-path */
  char *claude = agent_dir("CLAUDE_CONFIG_DIR", ".claude", "projects");
  char *codex = agent_dir("CODEX_HOME", ".codex", "sessions");
  /* The default runs directory only: runs_dir may come from a project's config. */
  char *runs = upk_eval_runs_dir(NULL, c->workspace);
  const char *fixed[] = {c->workspace, claude, codex, runs};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (fixed[i])
      json_array_append_new(roots, json_string(fixed[i]));
  free(claude);
  free(codex);
  free(runs);
  json_t *more = upk_config_user_list(c->init_options, "condense", "allowPaths"), *v;
  size_t i;
  json_array_foreach(more, i, v) {
    const char *p = json_string_value(v);
    if (p && *p == '/') /* a relative one would be the workspace's: already there */
      json_array_append(roots, v);
  }
  json_decref(more);
  add_skill_dirs(roots, c->workspace);
  return roots;
}

/* Read abs beneath the first root it lies under that lets it be read. -EACCES: under none. */
static int read_as_agent(ecall *c, const char *abs, size_t max, char **out, size_t *len) {
  json_t *roots = agent_roots(c), *v;
  size_t i;
  int rc = -EACCES;
  char real[PATH_MAX];
  json_array_foreach(roots, i, v) {
    const char *root = json_string_value(v);
    if (!upk_beneath_rel(root, abs, real, sizeof real))
      continue;
    int r = upk_read_beneath(root, abs, max, out, len);
    if (r == 0 || rc == -EACCES || rc == -ENOENT)
      rc = r; /* the first refusal says most; a later root may still have it */
    if (r == 0)
      break;
  }
  json_decref(roots);
  return rc;
}

int em_read_input(ecall *c, const char *given, size_t max, char **out, size_t *len, char *why,
                  size_t whylen) {
  *out = NULL;
  *len = 0;
  char *abs = em_abs(c->workspace, given);
  int rc = c->agent ? read_as_agent(c, abs, max, out, len) : 0;
  if (!c->agent) {
    *out = upk_read_file(abs, max, len);
    rc = *out ? 0 : -errno;
  }
  free(abs);
  if (rc == -EACCES && c->agent) {
    char what[PATH_MAX + 32];
    snprintf(what, sizeof what, "reading %.300s", given);
    int n =
        (int)strlen(upk_policy_refusal(why, whylen, UPK_ORIGIN_AGENT, UPK_POWER_READ, what, NULL));
    if (n > 0 && (size_t)n < whylen)
      snprintf(why + n, whylen - (size_t)n,
               ". An agent reads only inside the workspace, the agents' skills and session logs "
               "and the runs directory; upskilld --agent-path=DIR adds a directory, and so does "
               "condense.allowPaths in your own config");
  } else if (rc == -ELOOP || rc == -EXDEV) {
    snprintf(why, whylen, "%.300s: not read: %s (rule trust/read)", given,
             rc == -ELOOP ? "a symbolic link is on its way, and links are not followed here"
                          : "it leaves the directory it must be in");
  } else if (rc) {
    snprintf(why, whylen, "%.300s: %s", given, upk_read_error(rc));
  }
  return rc;
}
