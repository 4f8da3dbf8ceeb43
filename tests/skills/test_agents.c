/* The agent table: lookup, aliases, directory resolution with injected
 * environments, and who reads which directory. */
#include <errno.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "skills/agents.h"

/* An environment made of "NAME=value" strings, injected through upk_env. */
static const char *fake_getenv(void *ctx, const char *name) {
  size_t n = strlen(name);
  for (const char *const *p = ctx; *p; p++)
    if (strncmp(*p, name, n) == 0 && (*p)[n] == '=')
      return *p + n + 1;
  return NULL;
}

#define ENV(...) ((upk_env){fake_getenv, (void *)(const char *const[]){__VA_ARGS__, NULL}})

static void expect_dir(const char *id, upk_scope scope, const char *root, upk_env env,
                       const char *want_path, const char *want_base) {
  const upk_agent *a = upk_agent_find(id);
  cr_assert_not_null(a, "agent %s", id);
  upk_resolved_dir d;
  int rc = upk_agent_resolve(a, scope, root, &env, &d);
  cr_assert_eq(rc, 0, "%s: rc %d", id, rc);
  cr_assert_str_eq(d.path, want_path, "%s", id);
  if (want_base)
    cr_assert_str_eq(d.base, want_base, "%s base", id);
  cr_assert_eq(d.scope, scope);
  upk_resolved_dir_free(&d);
}

UTest(agents, find_by_id_and_alias) {
  cr_assert_str_eq(upk_agent_find("claude")->id, "claude");
  cr_assert_str_eq(upk_agent_find("Claude")->id, "claude");
  cr_assert_str_eq(upk_agent_find("claude-code")->id, "claude");
  cr_assert_str_eq(upk_agent_find("agents")->id, "codex");
  cr_assert_str_eq(upk_agent_find("codex")->id, "codex");
  cr_assert_str_eq(upk_agent_find("github-copilot")->id, "copilot");
  cr_assert_null(upk_agent_find("emacs"));
  cr_assert_null(upk_agent_find(""));
  cr_assert_null(upk_agent_find(NULL));
}

UTest(agents, table_has_every_required_agent_once) {
  const char *need[] = {"claude",  "codex",  "cursor",   "opencode",
                        "copilot", "gemini", "windsurf", "goose"};
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    cr_assert_not_null(upk_agent_find(need[i]), "%s missing", need[i]);
  size_t n = upk_agents_count();
  cr_assert_geq(n, 8);
  cr_assert_null(upk_agent_at(n));
  for (size_t i = 0; i < n; i++) {
    const upk_agent *a = upk_agent_at(i);
    cr_assert(a->project.rel && a->user.rel && a->display, "%s incomplete", a->id);
    cr_assert_eq(upk_agent_find(a->id), a, "%s not unique", a->id);
    for (const char *const *al = a->aliases; al && *al; al++)
      cr_assert_eq(upk_agent_find(*al), a, "alias %s of %s collides", *al, a->id);
    cr_assert_eq(upk_dirspec_scope(&a->project), UPK_SCOPE_PROJECT);
    cr_assert_eq(upk_dirspec_scope(&a->user), UPK_SCOPE_USER);
  }
}

UTest(agents, project_directories) {
  upk_env env = ENV("HOME=/h");
  struct {
    const char *id, *path;
  } want[] = {
      {"claude", "/p/.claude/skills"},     {"codex", "/p/.agents/skills"},
      {"agents", "/p/.agents/skills"},     {"cursor", "/p/.cursor/skills"},
      {"opencode", "/p/.opencode/skills"}, {"copilot", "/p/.github/skills"},
      {"gemini", "/p/.gemini/skills"},     {"windsurf", "/p/.windsurf/skills"},
      {"goose", "/p/.goose/skills"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    expect_dir(want[i].id, UPK_SCOPE_PROJECT, "/p", env, want[i].path, "/p");
  expect_dir("claude", UPK_SCOPE_PROJECT, "/p/", env, "/p/.claude/skills", "/p/");
}

UTest(agents, user_directories_default) {
  upk_env env = ENV("HOME=/h");
  struct {
    const char *id, *path;
  } want[] = {
      {"claude", "/h/.claude/skills"},
      {"codex", "/h/.agents/skills"},
      {"cursor", "/h/.cursor/skills"},
      {"opencode", "/h/.config/opencode/skills"},
      {"copilot", "/h/.copilot/skills"},
      {"gemini", "/h/.gemini/skills"},
      {"windsurf", "/h/.codeium/windsurf/skills"},
      {"goose", "/h/.config/goose/skills"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    expect_dir(want[i].id, UPK_SCOPE_USER, NULL, env, want[i].path, NULL);
  /* The trusted base is $HOME; everything below is walked without symlinks. */
  expect_dir("claude", UPK_SCOPE_USER, NULL, env, "/h/.claude/skills", "/h");
  expect_dir("opencode", UPK_SCOPE_USER, NULL, env, "/h/.config/opencode/skills", "/h/.config");
}

UTest(agents, claude_config_dir_overrides) {
  expect_dir("claude", UPK_SCOPE_USER, NULL, ENV("HOME=/h", "CLAUDE_CONFIG_DIR=/cfg/claude"),
             "/cfg/claude/skills", "/cfg/claude");
  /* Relative and empty values are ignored, as XDG says for its variables. */
  expect_dir("claude", UPK_SCOPE_USER, NULL, ENV("HOME=/h", "CLAUDE_CONFIG_DIR=rel/dir"),
             "/h/.claude/skills", NULL);
  expect_dir("claude", UPK_SCOPE_USER, NULL, ENV("HOME=/h", "CLAUDE_CONFIG_DIR="),
             "/h/.claude/skills", NULL);
  /* The project directory does not depend on it. */
  expect_dir("claude", UPK_SCOPE_PROJECT, "/p", ENV("HOME=/h", "CLAUDE_CONFIG_DIR=/cfg"),
             "/p/.claude/skills", NULL);
}

UTest(agents, xdg_config_home_honoured) {
  upk_env env = ENV("HOME=/h", "XDG_CONFIG_HOME=/x");
  expect_dir("opencode", UPK_SCOPE_USER, NULL, env, "/x/opencode/skills", "/x");
  expect_dir("goose", UPK_SCOPE_USER, NULL, env, "/x/goose/skills", "/x");
  expect_dir("claude", UPK_SCOPE_USER, NULL, env, "/h/.claude/skills", NULL);
  expect_dir("opencode", UPK_SCOPE_USER, NULL, ENV("HOME=/h", "XDG_CONFIG_HOME=x"),
             "/h/.config/opencode/skills", NULL);
}

UTest(agents, missing_home_or_root) {
  upk_env none = ENV("PATH=/bin");
  upk_resolved_dir d;
  cr_assert_eq(upk_agent_resolve(upk_agent_find("claude"), UPK_SCOPE_USER, NULL, &none, &d),
               -ENOENT);
  cr_assert_null(d.path);
  upk_env rel_home = ENV("HOME=home");
  cr_assert_eq(upk_agent_resolve(upk_agent_find("codex"), UPK_SCOPE_USER, NULL, &rel_home, &d),
               -ENOENT);
  /* An override needs no HOME. */
  upk_env cfg = ENV("CLAUDE_CONFIG_DIR=/c");
  cr_assert_eq(upk_agent_resolve(upk_agent_find("claude"), UPK_SCOPE_USER, NULL, &cfg, &d), 0);
  cr_assert_str_eq(d.path, "/c/skills");
  upk_resolved_dir_free(&d);
  cr_assert_eq(upk_agent_resolve(upk_agent_find("claude"), UPK_SCOPE_PROJECT, NULL, &none, &d),
               -EINVAL);
  cr_assert_eq(upk_agent_resolve(upk_agent_find("claude"), UPK_SCOPE_PROJECT, "p", &none, &d),
               -EINVAL);
}

/* Is agent `id` among the readers of dir, and natively? */
static int reader(const char *dir, const char *root, upk_env env, const char *id) {
  const upk_agent *out[32];
  bool native[32];
  size_t n = upk_agents_reading(dir, root, &env, out, native, 32);
  cr_assert_leq(n, 32);
  for (size_t i = 0; i < n; i++)
    if (strcmp(out[i]->id, id) == 0)
      return native[i] ? 2 : 1;
  return 0;
}

UTest(agents, who_reads_what_project) {
  upk_env env = ENV("HOME=/h");
  const char *agents_dir = "/p/.agents/skills";
  cr_assert_eq(reader(agents_dir, "/p", env, "codex"), 2);
  cr_assert_eq(reader(agents_dir, "/p", env, "cursor"), 1);
  cr_assert_eq(reader(agents_dir, "/p", env, "opencode"), 1);
  cr_assert_eq(reader(agents_dir, "/p", env, "copilot"), 1);
  cr_assert_eq(reader(agents_dir, "/p", env, "gemini"), 1);
  cr_assert_eq(reader(agents_dir, "/p", env, "claude"), 0, "Claude Code does not read .agents");
  const char *claude_dir = "/p//.claude/./skills/";
  cr_assert_eq(reader(claude_dir, "/p", env, "claude"), 2);
  cr_assert_eq(reader(claude_dir, "/p", env, "cursor"), 1);
  cr_assert_eq(reader(claude_dir, "/p", env, "gemini"), 0);
  cr_assert_eq(reader("/p/.windsurf/skills", "/p", env, "windsurf"), 2);
  cr_assert_eq(reader("/p/.windsurf/skills", "/p", env, "cursor"), 0);
  cr_assert_eq(upk_agents_reading("/elsewhere", "/p", &env, NULL, NULL, 0), 0);
  /* Counting without storing. */
  cr_assert_geq(upk_agents_reading(agents_dir, "/p", &env, NULL, NULL, 0), 5);
}

UTest(agents, who_reads_what_user) {
  upk_env env = ENV("HOME=/h", "CLAUDE_CONFIG_DIR=/cfg", "CODEX_HOME=/ch");
  cr_assert_eq(reader("/cfg/skills", NULL, env, "claude"), 2);
  cr_assert_eq(reader("/h/.claude/skills", NULL, env, "claude"), 0);
  cr_assert_eq(reader("/h/.claude/skills", NULL, env, "opencode"), 1);
  cr_assert_eq(reader("/ch/skills", NULL, env, "codex"), 1, "legacy $CODEX_HOME/skills");
  cr_assert_eq(reader("/h/.agents/skills", NULL, env, "gemini"), 1);
  cr_assert_eq(reader("/h/.agents/skills", NULL, env, "codex"), 2);
}

UTest(agents, legacy_and_unverified_marked) {
  const upk_agent *codex = upk_agent_find("codex");
  bool legacy = false;
  for (size_t i = 0; i < codex->n_reads; i++)
    legacy |= codex->reads[i].legacy && strcmp(codex->reads[i].rel, ".codex/skills") == 0;
  cr_assert(legacy, "codex's .codex/skills is marked legacy");
}
