/* condense_trace reads only traces (issue 44, point 8; docs/security.md "Traces"). The tool
 * carries a read-only hint, and it used to return any file the user can read (~/.ssh/id_ed25519
 * included) to whichever agent asked. From an agent (MCP) it now reads the workspace and the
 * agents' session directories (~/.claude/projects, ~/.codex/sessions) and what the user's own
 * config adds (condense.allowPaths); a project's config cannot add anything. Refusals name the
 * rule trust/read and the way to allow it, and never carry the file's content. */
#include "tests/security/plant.h"

static char proj[64], outside[64];

static void setup(void) {
  fsx_mkdtemp(proj, "sec-condense");
  fsx_mkdtemp(outside, "sec-secret");
}

static void teardown(void) {
  fsx_rm_rf(proj);
  fsx_rm_rf(outside);
}

TestSuite(condense, .init = setup, .fini = teardown, .timeout = 240);

#define TRACE_MD                                                                                   \
  "# Session\n\n## User\n\nFix the failing build in kernels/gemm.cu.\n\n## Assistant\n\n"          \
  "Ran `make` and it failed: error: identifier \"blockDim\" is undefined.\n"

static json_t *condense(hx *d, int id, const char *trace) {
  char args[PATH_MAX + 64];
  snprintf(args, sizeof args, "{\"trace\":\"%s\",\"format\":\"markdown\"}", trace);
  return sp_tool(d, id, SP_PROMPT_MS, "condense_trace", args);
}

/* Refused, naming the rule, without a word of the file. */
static void refused(json_t *r, const char *what) {
  cr_expect(sp_tool_failed(r), "%s was read: %s", what, hx_dump(r));
  cr_expect(sp_has(r, "trust/read"), "%s: the refusal names no rule: %s", what, hx_dump(r));
  sp_no_marker(r, what);
  json_decref(r);
}

static void secret(char *path, size_t len) {
  snprintf(path, len, "%s/id_ed25519", outside);
  fsx_write(path, SP_SECRET_TEXT);
}

Test(condense, a_file_outside_the_workspace_is_refused_to_an_agent) {
  char key[PATH_MAX], up[PATH_MAX + 16];
  secret(key, sizeof key);
  hx *d = sp_mcp(proj);
  refused(condense(d, 1, key), "an absolute path outside");
  snprintf(up, sizeof up, "../%s/id_ed25519", strrchr(outside, '/') + 1);
  refused(condense(d, 2, up), "a relative path up and out");
  /* The user's own ~/.ssh, as the issue found it. */
  char ssh[PATH_MAX];
  snprintf(ssh, sizeof ssh, "%s/.ssh/id_ed25519", hx_home(d));
  fsx_write(ssh, SP_SECRET_TEXT);
  refused(condense(d, 3, ssh), "~/.ssh/id_ed25519");
  refused(condense(d, 4, "/etc/passwd"), "/etc/passwd");
  hx_ping(d);
  hx_finish(d, 0);
}

Test(condense, a_trace_in_the_workspace_is_condensed) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/traces/session.md", proj);
  fsx_write(path, TRACE_MD);
  hx *d = sp_mcp(proj);
  json_t *r = condense(d, 1, "traces/session.md");
  cr_expect(!sp_tool_failed(r), "a trace in the workspace: %s", hx_dump(r));
  cr_expect(sp_has(r, "blockDim"), "%s", hx_dump(r));
  json_decref(r);
  r = condense(d, 2, path); /* the same, absolute */
  cr_expect(!sp_tool_failed(r), "%s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

/* A link inside the workspace to a file or a directory outside: not followed. */
Test(condense, links_out_of_the_workspace_are_not_followed) {
  char key[PATH_MAX], link[PATH_MAX + 32];
  secret(key, sizeof key);
  snprintf(link, sizeof link, "%s/trace.md", proj);
  sp_link(key, link);
  snprintf(link, sizeof link, "%s/refs", proj);
  sp_link(outside, link);
  snprintf(link, sizeof link, "%s/deep/er", proj);
  fsx_write(link, "");
  unlink(link);
  sp_link("../refs", link);
  hx *d = sp_mcp(proj);
  json_t *r = condense(d, 1, "trace.md");
  cr_expect(sp_tool_failed(r), "%s", hx_dump(r));
  sp_no_marker(r, "a linked trace");
  json_decref(r);
  r = condense(d, 2, "refs/id_ed25519");
  cr_expect(sp_tool_failed(r), "%s", hx_dump(r));
  sp_no_marker(r, "refs -> outside");
  json_decref(r);
  r = condense(d, 3, "deep/er/id_ed25519");
  cr_expect(sp_tool_failed(r), "%s", hx_dump(r));
  sp_no_marker(r, "deep/er -> ../refs -> outside");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* The agents' own session directories are where traces live: read from an agent too. */
Test(condense, the_agents_session_directories_are_read) {
  hx *d = sp_mcp(proj);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/.claude/projects/-tmp-proj/session.md", hx_home(d));
  fsx_write(path, TRACE_MD);
  json_t *r = condense(d, 1, path);
  cr_expect(!sp_tool_failed(r), "a Claude Code session: %s", hx_dump(r));
  json_decref(r);
  snprintf(path, sizeof path, "%s/.codex/sessions/2026/11/25/rollout-1.md", hx_home(d));
  fsx_write(path, TRACE_MD);
  r = condense(d, 2, path);
  cr_expect(!sp_tool_failed(r), "a Codex session: %s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

/* The user's own config widens what agents may condense; a project's config never does. */
Test(condense, only_the_users_config_widens_it) {
  char key[PATH_MAX], cfg[PATH_MAX + 64], yaml[PATH_MAX + 64];
  snprintf(key, sizeof key, "%s/notes.md", outside);
  fsx_write(key, TRACE_MD);
  snprintf(yaml, sizeof yaml, "condense:\n  allowPaths:\n    - %s\n", outside);
  snprintf(cfg, sizeof cfg, "%s/upskill.config.yaml", proj);
  fsx_write(cfg, yaml);
  hx *d = sp_mcp(proj);
  refused(condense(d, 1, key), "a path the project's config allows");
  snprintf(cfg, sizeof cfg, "%s/.config/upskilld/config.yaml", hx_home(d));
  fsx_write(cfg, yaml);
  json_t *r = condense(d, 2, key);
  cr_expect(!sp_tool_failed(r), "a path the user's config allows: %s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

/* An editor is the user: skills/condense over LSP reads a trace anywhere the user can, but
 * still never through a FIFO, and never more than the cap. */
Test(condense, an_editor_reads_what_the_user_can) {
  char path[PATH_MAX], req[PATH_MAX + 200];
  snprintf(path, sizeof path, "%s/notes.md", outside);
  fsx_write(path, TRACE_MD);
  hx *d = sp_lsp(proj);
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/condense\",\"params\":"
           "{\"trace\":\"%s\",\"format\":\"markdown\"}}",
           path);
  json_t *r = sp_call_within(d, SP_PROMPT_MS, "skills/condense", req);
  hx_assert_result(r, "1");
  json_decref(r);
  hx_finish(d, 0);
}
