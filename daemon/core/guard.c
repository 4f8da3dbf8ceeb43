/* What an agent's call may reach (guard.h): its places, made real, and the powers the user's
 * --agent-allow gives it. */
#include "daemon/core/guard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/diag_json.h"
#include "common/fileio.h"
#include "common/log.h"
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
    {"judge", UPK_AGENT_ALLOW_JUDGE},
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
/* Fail the job with one diagnostic coded `rule` that says `msg`. */
void upk_guard_refuse(upk_job *job, const char *rule, const char *msg) {
  upk_job_fail_data(job, UPK_RPC_INVALID_PARAMS, upk_guard_refusal_data(rule, msg), "%s", msg);
}

bool upk_guard_within(const char *workspace, const upk_options *o, const json_t *init_options,
                      const char *path, bool write) {
  char abs[PATH_MAX], real[PATH_MAX];
  if (path[0] != '/' && !workspace)
    return false; /* relative to nothing: no workspace */
  int n = path[0] == '/' ? snprintf(abs, sizeof abs, "%s", path)
                         : snprintf(abs, sizeof abs, "%s/%s", workspace, path);
  if (n <= 0 || n >= (int)sizeof abs || !real_of(abs, real))
    return false;
  json_t *places = upk_guard_places(workspace, o, init_options, write), *v;
  size_t i;
  bool in = false;
  json_array_foreach(places, i, v) in = in || under(real, json_string_value(v));
  json_decref(places);
  return in;
}

/* How to give a session a workspace when it has none (upk_guard_default_workspace). */
#define NO_WORKSPACE                                                                               \
  "upskilld has no workspace: it was started in your home directory or in / with no "              \
  "--workspace, so an agent reaches no project; start it in the project's directory or add "       \
  "--workspace=DIR where you register it (claude mcp add upskilld -- upskilld --mcp "              \
  "--workspace=$PWD)"

void upk_guard_refusal_text(char *msg, size_t len, const char *path, bool write, const char *what,
                            bool no_workspace) {
  char label[PATH_MAX + 64], why[PATH_MAX + 512];
  upk_power power = write ? UPK_POWER_WRITE : UPK_POWER_READ;
  snprintf(label, sizeof label, "%s '%s'", what, path);
  upk_policy_refusal(why, sizeof why, UPK_ORIGIN_AGENT, power, label, NULL);
  int n = snprintf(msg, len,
                   "%s. An agent %s only inside the workspace%s; upskilld --agent-path=DIR adds a "
                   "directory%s",
                   why, write ? "writes" : "reads",
                   write ? "" : ", the agents' skills and session logs",
                   write ? "" : " (to read, so does condense.allowPaths in your own config)");
  if (no_workspace && n > 0 && (size_t)n < len)
    snprintf(msg + n, len - (size_t)n, ". %s", NO_WORKSPACE);
}

json_t *upk_guard_refusal_data(const char *rule, const char *msg) {
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, rule, "upskilld", upk_range_line(0, 0, 0), "%s", msg);
  json_t *data = json_pack("{s:o}", "diagnostics", upk_diags_json(&d));
  upk_diags_free(&d);
  return data;
}

void upk_guard_refuse_path(upk_job *job, const char *path, bool write, const char *what) {
  char msg[PATH_MAX + 1024];
  upk_guard_refusal_text(msg, sizeof msg, path, write, what, !upk_session_workspace(job->server));
  upk_guard_refuse(job, upk_power_rule(write ? UPK_POWER_WRITE : UPK_POWER_READ), msg);
}

bool upk_guard_path(upk_job *job, const char *path, bool write, const char *what) {
  const upk_server *s = job->server;
  if (upk_guard_origin(s) == UPK_ORIGIN_USER ||
      upk_guard_within(upk_session_workspace(s), upk_session_options(s),
                       upk_session_init_options(s), path, write))
    return true;
  upk_guard_refuse_path(job, path, write, what);
  return false;
}

bool upk_guard_workspace(upk_job *job, const char *what) {
  if (upk_guard_origin(job->server) == UPK_ORIGIN_USER || upk_session_workspace(job->server))
    return true;
  char msg[1024];
  snprintf(msg, sizeof msg, "%s needs a project. %s", what, NO_WORKSPACE);
  upk_guard_refuse(job, upk_power_rule(UPK_POWER_WRITE), msg);
  return false;
}

char *upk_guard_default_workspace(const upk_options *o, bool agent) {
  if (o->workspace)
    return upk_xstrdup(o->workspace);
  char *cwd = getcwd(NULL, 0), real[PATH_MAX];
  const char *home = getenv("HOME");
  if (!agent || !cwd)
    return cwd;
  bool accidental =
      !strcmp(cwd, "/") || (home && *home == '/' && realpath(home, real) && !strcmp(cwd, real));
  if (!accidental)
    return cwd;
  upk_warn("%s; it serves your own skills only", NO_WORKSPACE);
  free(cwd);
  return NULL;
}

/* What upk_source_parse reads as a directory: a path spelled as one, or any other spec that
 * names an existing entry of the workspace (a bare "vendor", even "owner/repo" when that
 * directory exists); everything else is a git source, read from its host. */
static bool source_is_local(const upk_server *s, const char *from) {
  if (from[0] == '/' || !strncmp(from, "./", 2) || !strncmp(from, "../", 3) || !strcmp(from, ".") ||
      !strcmp(from, "..") || strstr(from, "/../") ||
      (strlen(from) >= 3 && !strcmp(from + strlen(from) - 3, "/..")))
    return true;
  const char *ws = upk_session_workspace(s);
  char cwd[PATH_MAX], p[PATH_MAX];
  if (!ws) /* none: the parser reads it beside the daemon */
    ws = getcwd(cwd, sizeof cwd);
  struct stat st;
  return !ws || snprintf(p, sizeof p, "%s/%s", ws, from) >= (int)sizeof p || !lstat(p, &st);
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
  return upk_guard_origin(job->server) == UPK_ORIGIN_USER || !source_is_local(job->server, from) ||
         upk_guard_path(job, from, false, what);
}

bool upk_guard_allow(upk_job *job, unsigned bit, const char *what) {
  const upk_server *s = job->server;
  if (upk_guard_origin(s) == UPK_ORIGIN_USER || (upk_session_options(s)->agent_allow & bit))
    return true;
  const char *name = "";
  for (size_t i = 0; i < sizeof ALLOWS / sizeof *ALLOWS; i++)
    if (ALLOWS[i].bit == bit)
      name = ALLOWS[i].name;
  upk_power power = bit == UPK_AGENT_ALLOW_USER_SKILLS ? UPK_POWER_WRITE
                    : bit == UPK_AGENT_ALLOW_JUDGE     ? UPK_POWER_SEND
                                                       : UPK_POWER_RUN;
  char why[1024], msg[1200];
  upk_policy_refusal(why, sizeof why, UPK_ORIGIN_AGENT, power, what, NULL);
  snprintf(msg, sizeof msg, "%s. upskilld --agent-allow=%s gives agents this power", why, name);
  upk_guard_refuse(job, upk_power_rule(power), msg);
  return false;
}
