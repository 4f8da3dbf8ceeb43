/* What an agent's call may reach (guard.h): its places, made real, and the powers the user's
 * --agent-allow gives it. */
#include "daemon/core/guard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/diag_json.h"
#include "common/fileio.h"
#include "common/xalloc.h"
#include "daemon/skills/skills_service.h"
#include "models/config.h"
#include "protocol/framing.h"
#include "skills/agents.h"

static const struct {
  const char *name;
  unsigned bit;
} ALLOWS[] = {
    {"python", UPK_AGENT_ALLOW_PYTHON},
    {"user-skills", UPK_AGENT_ALLOW_USER_SKILLS},
    {"scripts", UPK_AGENT_ALLOW_SCRIPTS},
};

int upk_guard_parse_allow(const char *list, unsigned *bits, char *bad, size_t bad_len) {
  *bits = 0;
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    size_t i = 0;
    while (i < sizeof ALLOWS / sizeof *ALLOWS &&
           (strlen(ALLOWS[i].name) != n || strncmp(ALLOWS[i].name, p, n)))
      i++;
    if (n && i == sizeof ALLOWS / sizeof *ALLOWS) {
      snprintf(bad, bad_len, "%.*s", (int)n, p);
      return -1;
    }
    *bits |= n ? ALLOWS[i].bit : 0;
    p += n + (p[n] == ',');
  }
  return 0;
}

upk_origin upk_guard_origin(const upk_server *s) {
  return upk_session_framing(s) == UPK_FRAMING_MCP ? UPK_ORIGIN_AGENT : UPK_ORIGIN_USER;
}

/* `path` made real: every link resolved. A path that does not exist yet (an output) is its
 * nearest existing ancestor made real plus the rest, which may hold no "." or "..". */
static bool real_of(const char *path, char out[PATH_MAX]) {
  if (realpath(path, out))
    return true;
  if (errno != ENOENT)
    return false;
  char head[PATH_MAX];
  if (snprintf(head, sizeof head, "%s", path) >= (int)sizeof head)
    return false;
  for (char *slash = strrchr(head, '/'); slash && slash != head; slash = strrchr(head, '/')) {
    *slash = '\0';
    const char *tail = path + (slash - head) + 1;
    if (realpath(head, out)) {
      for (const char *p = tail; *p; p += strcspn(p, "/"), p += *p == '/') {
        size_t n = strcspn(p, "/");
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
          return false;
      }
      size_t used = strlen(out);
      return snprintf(out + used, PATH_MAX - used, "/%s", tail) < (int)(PATH_MAX - used);
    }
    if (errno != ENOENT)
      return false;
  }
  return false;
}

/* `path` (real) lies at or below `root` once the root is made real too. */
static bool under(const char *path, const char *root) {
  char real[PATH_MAX];
  return root && realpath(root, real) && upk_path_under(path, real);
}

/* `dir` (malloc'd, may be NULL) into places, taking it. */
static void add_place(json_t *places, char *dir) {
  if (dir)
    json_array_append_new(places, json_string(dir));
  free(dir);
}

/* $VAR/sub when VAR is an absolute path (CLAUDE_CONFIG_DIR, CODEX_HOME), else ~/dot/sub. */
static char *agent_home_dir(const char *var, const char *dot, const char *sub) {
  const char *v = getenv(var), *home = getenv("HOME");
  if (v && *v == '/')
    return upk_xasprintf("%s/%s", v, sub);
  return home && *home == '/' ? upk_xasprintf("%s/%s/%s", home, dot, sub) : NULL;
}

/* The agents' own skill directories in the user's scope: the ones they install to and read. */
static void add_skill_dirs(json_t *places, const char *workspace) {
  for (size_t i = 0; i < upk_agents_count(); i++) {
    const upk_agent *a = upk_agent_at(i);
    upk_resolved_dir d;
    if (upk_agent_resolve(a, UPK_SCOPE_USER, workspace, NULL, &d) == 0) {
      add_place(places, upk_xstrdup(d.path));
      upk_resolved_dir_free(&d);
    }
    for (size_t j = 0; j < a->n_reads; j++)
      if (upk_dirspec_scope(&a->reads[j]) == UPK_SCOPE_USER &&
          upk_dirspec_resolve(&a->reads[j], workspace, NULL, &d) == 0) {
        add_place(places, upk_xstrdup(d.path));
        upk_resolved_dir_free(&d);
      }
  }
}

json_t *upk_guard_places(const char *workspace, const upk_options *o, const json_t *init_options,
                         bool write) {
  json_t *places = json_array();
  if (workspace)
    add_place(places, upk_xstrdup(workspace));
  for (size_t i = 0; i < o->n_agent_paths; i++)
    add_place(places, upk_xstrdup(o->agent_paths[i]));
  if (write)
    return places;
  /* Never the rest of ~/.claude or ~/.codex: credentials live there. */
  add_skill_dirs(places, workspace);
  add_place(places, agent_home_dir("CLAUDE_CONFIG_DIR", ".claude", "projects"));
  add_place(places, agent_home_dir("CODEX_HOME", ".codex", "sessions"));
  add_place(places, upk_xstrdup(upk_skills_library_dir()));
  /* The default runs directory only: a configured runs_dir may come from a project. */
  add_place(places, upk_env_xdg_dir(NULL, "XDG_STATE_HOME", ".local/state", "upskilld/runs"));
  json_t *more = upk_config_user_list(init_options, "condense", "allowPaths"), *v;
  size_t i;
  json_array_foreach(more, i, v) {
    const char *d = json_string_value(v);
    if (d && *d == '/') /* a relative one would be the workspace's: there already */
      json_array_append(places, v);
  }
  json_decref(more);
  return places;
}

/* Fail the job with one diagnostic coded `rule` that says `msg`. */
void upk_guard_refuse(upk_job *job, const char *rule, const char *msg) {
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, rule, "upskilld", upk_range_line(0, 0, 0), "%s", msg);
  upk_job_fail_data(job, UPK_RPC_INVALID_PARAMS,
                    json_pack("{s:o}", "diagnostics", upk_diags_json(&d)), "%s", msg);
  upk_diags_free(&d);
}

bool upk_guard_path(upk_job *job, const char *path, bool write, const char *what) {
  const upk_server *s = job->server;
  if (upk_guard_origin(s) == UPK_ORIGIN_USER)
    return true;
  char cwd[PATH_MAX], abs[PATH_MAX], real[PATH_MAX];
  const char *ws = upk_session_workspace(s);
  if (!ws)
    ws = getcwd(cwd, sizeof cwd);
  int n = path[0] == '/' ? snprintf(abs, sizeof abs, "%s", path)
                         : snprintf(abs, sizeof abs, "%s/%s", ws ? ws : ".", path);
  bool ok = n > 0 && n < (int)sizeof abs && real_of(abs, real);
  if (ok) {
    json_t *places =
               upk_guard_places(ws, upk_session_options(s), upk_session_init_options(s), write),
           *v;
    size_t i;
    bool in = false;
    json_array_foreach(places, i, v) in = in || under(real, json_string_value(v));
    json_decref(places);
    if (in)
      return true;
  }
  char label[PATH_MAX + 64], why[PATH_MAX + 512], msg[PATH_MAX + 768];
  upk_power power = write ? UPK_POWER_WRITE : UPK_POWER_READ;
  snprintf(label, sizeof label, "%s '%s'", what, path);
  upk_policy_refusal(why, sizeof why, UPK_ORIGIN_AGENT, power, label, NULL);
  snprintf(msg, sizeof msg,
           "%s. An agent %s only inside the workspace%s; upskilld --agent-path=DIR adds a "
           "directory%s",
           why, write ? "writes" : "reads", write ? "" : ", the agents' skills and session logs",
           write ? "" : " (to read, so does condense.allowPaths in your own config)");
  upk_guard_refuse(job, upk_power_rule(power), msg);
  return false;
}

bool upk_guard_source(upk_job *job, const char *from, const char *what) {
  if (!strncmp(from, "file://", 7))
    return upk_guard_path(job, from + 7, false, what);
  if (from[0] == '~') { /* the shell's home: the daemon does not expand it, but a path it is */
    const char *home = getenv("HOME");
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s%s", home ? home : "", from + 1);
    return upk_guard_path(job, p, false, what);
  }
  bool local = from[0] == '/' || !strncmp(from, "./", 2) || !strncmp(from, "../", 3) ||
               !strcmp(from, ".") || !strcmp(from, "..") || strstr(from, "/../") ||
               (strlen(from) >= 3 && !strcmp(from + strlen(from) - 3, "/.."));
  return !local || upk_guard_path(job, from, false, what);
}

bool upk_guard_allow(upk_job *job, unsigned bit, const char *what) {
  const upk_server *s = job->server;
  if (upk_guard_origin(s) == UPK_ORIGIN_USER || (upk_session_options(s)->agent_allow & bit))
    return true;
  const char *name = "";
  for (size_t i = 0; i < sizeof ALLOWS / sizeof *ALLOWS; i++)
    if (ALLOWS[i].bit == bit)
      name = ALLOWS[i].name;
  upk_power power = bit == UPK_AGENT_ALLOW_USER_SKILLS ? UPK_POWER_WRITE : UPK_POWER_RUN;
  char why[1024], msg[1200];
  upk_policy_refusal(why, sizeof why, UPK_ORIGIN_AGENT, power, what, NULL);
  snprintf(msg, sizeof msg, "%s. upskilld --agent-allow=%s gives agents this power", why, name);
  upk_guard_refuse(job, upk_power_rule(power), msg);
  return false;
}
