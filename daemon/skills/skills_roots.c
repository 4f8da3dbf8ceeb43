/* The index's roots: every directory any agent reads (its project and user directories and the
 * others it also reads), the user's extra collections and the built-in library; and the repair
 * of what a killed install left in them, before they are scanned. */
#include "daemon/skills/skills_service_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env_options.h"
#include "common/install_path.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "skills/agents.h"
#include "skills/install.h"
#include "upk_config.h"

const char *upk_skills_library_dir(void) {
  static char dir[PATH_MAX];
  if (dir[0])
    return dir;
  const char *env = upk_env_opts()->library;
  if (env && *env) {
    snprintf(dir, sizeof dir, "%s", env);
    return dir;
  }
  /* installed: <datadir>/upskilld/library; from the build tree: the source tree's */
  return upk_install_path(UPK_INST_DATA, "library", UPK_LIBRARY_DIR, dir, sizeof dir);
}

static const char *keep_string(upk_skills_svc *svc, const char *s) {
  UPK_GROW(svc->strings, svc->cap_strings, svc->n_strings + 1);
  return svc->strings[svc->n_strings++] = upk_xstrdup(s);
}

/* depth: how far down skills are looked for (1: the directory's children, as agents read). */
static void add_root(upk_skills_svc *svc, const char *dir, const char *agent, upk_index_scope sc,
                     int priority, int depth) {
  const char *kept = keep_string(svc, dir);
  UPK_GROW(svc->roots, svc->cap_roots, svc->n_roots + 1);
  svc->roots[svc->n_roots++] = (upk_index_root){kept, agent, sc, priority, depth};
}

static void add_spec(upk_skills_svc *svc, const upk_dirspec *d, const upk_agent *a,
                     const char *workspace) {
  upk_resolved_dir rd;
  if (upk_dirspec_resolve(d, workspace, NULL, &rd) != 0)
    return;
  bool project = upk_dirspec_scope(d) == UPK_SCOPE_PROJECT;
  add_root(svc, rd.path, a->id, project ? UPK_INDEX_PROJECT : UPK_INDEX_USER, project ? 20 : 10, 1);
  upk_resolved_dir_free(&rd);
}

/* Every directory any agent reads, each tagged with that agent. */
void upk__skills_build_roots(upk_skills_svc *svc, const char *workspace, json_t *extra) {
  for (size_t i = 0; i < upk_agents_count(); i++) {
    const upk_agent *a = upk_agent_at(i);
    add_spec(svc, &a->project, a, workspace);
    add_spec(svc, &a->user, a, workspace);
    for (size_t k = 0; k < a->n_reads; k++)
      add_spec(svc, &a->reads[k], a, workspace);
  }
  size_t i;
  json_t *v;
  json_array_foreach(extra, i, v) { /* collections, such as a clone of a skills repository:
                                     * skills are wherever in it they sit, a few levels down */
    const char *dir = json_string_value(v), *home = getenv("HOME");
    char *full =
        dir && !strncmp(dir, "~/", 2) && home ? upk_xasprintf("%s%s", home, dir + 1) : NULL;
    if (dir)
      add_root(svc, full ? full : dir, NULL, UPK_INDEX_EXTRA, 5, UPK_INDEX_MAX_DEPTH);
    free(full);
  }
  add_root(svc, upk_skills_library_dir(), NULL, UPK_INDEX_BUILTIN, 0, 1);
}

/* Finish or undo what a killed install or remove left in the agents' skills directories,
 * before they are scanned; each repair is logged. */
void upk__skills_repair_roots(upk_skills_svc *svc) {
  for (size_t i = 0; i < svc->n_roots; i++) {
    if (!svc->roots[i].agent)
      continue; /* builtin and extra roots: upskilld never installs there */
    size_t k = 0;
    while (k < i && strcmp(svc->roots[k].dir, svc->roots[i].dir))
      k++;
    if (k < i)
      continue; /* a directory several agents read: once is enough */
    upk_diags d = {0};
    int rc = upk_install_repair(svc->roots[i].dir, NULL, &d);
    for (k = 0; k < d.len; k++)
      upk_warn("skills: %s", d.items[k].message);
    if (rc < 0)
      upk_warn("skills: cannot check %s for an interrupted install: %s", svc->roots[i].dir,
               strerror(-rc));
    upk_diags_free(&d);
  }
}
