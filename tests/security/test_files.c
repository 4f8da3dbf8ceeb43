/* Files are opened safely everywhere (issue 44, point 4; docs/security.md "Files, links and
 * FIFOs"): a skill's skill_meta.json or SKILL.md that is a link out of the skill, a project's
 * skills-lock.json that is a link to a secret, a link to a directory above the file, and a 2 GiB
 * sparse file. The daemon reads none of them through: the secret's marker is in no answer and no
 * error, the refusal names the file, and the daemon answers the next request at once. */
#include "tests/security/plant.h"

static char proj[64], outside[64];

static void setup(void) {
  fsx_mkdtemp(proj, "sec-files");
  fsx_mkdtemp(outside, "sec-secret");
}

static void teardown(void) {
  fsx_rm_rf(proj);
  fsx_rm_rf(outside);
}

TestSuite(files, .init = setup, .fini = teardown, .timeout = 240);

/* A JSON secret (a credentials file, a token cache) that parses as skill_meta.json. */
static void secret_json(char *path, size_t len) {
  snprintf(path, len, "%s/credentials.json", outside);
  fsx_write(path, "{\"token\": \"" SP_MARKER "\", \"tests\": []}\n");
}

static json_t *lsp_get(hx *d, int id, const char *name) {
  char req[256];
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/get\",\"params\":{\"name\":\"%s\"}}",
           id, name);
  return sp_call_within(d, SP_PROMPT_MS, "skills/get", req);
}

/* get_skill used to follow a skill_meta.json link and return any JSON file as the skill's meta. */
Test(files, skill_meta_link_out_of_the_skill_is_not_followed) {
  char dir[PATH_MAX], secret[PATH_MAX], meta[PATH_MAX + 32];
  sp_skill(proj, "meta-link", dir, sizeof dir);
  secret_json(secret, sizeof secret);
  snprintf(meta, sizeof meta, "%s/skill_meta.json", dir);
  sp_link(secret, meta);
  hx *d = sp_lsp(proj);
  sp_settle(d, 1);
  json_t *r = lsp_get(d, 2, "meta-link");
  json_t *res = hx_assert_result(r, "2");
  cr_expect(json_is_null(json_object_get(res, "meta")), "meta through a link: %s",
            hx_dump(json_object_get(res, "meta")));
  sp_no_marker(r, "skills/get");
  json_decref(r);
  r = sp_call_within(d, SP_PROMPT_MS, "skills/list",
                     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"skills/list\",\"params\":{}}");
  sp_no_marker(r, "skills/list");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* The same through MCP's get_skill, with the link relative (../../..) rather than absolute. */
Test(files, get_skill_from_an_agent_follows_no_relative_link_out) {
  char dir[PATH_MAX], secret[PATH_MAX], meta[PATH_MAX + 32], rel[PATH_MAX + 32];
  sp_skill(proj, "meta-rel", dir, sizeof dir);
  secret_json(secret, sizeof secret);
  snprintf(meta, sizeof meta, "%s/skill_meta.json", dir);
  snprintf(rel, sizeof rel, "../../../../..%s", secret); /* from /tmp/X/.claude/skills/S: to / */
  sp_link(rel, meta);
  hx *d = sp_mcp(proj);
  json_t *r = NULL;
  for (int i = 0; i < 300; i++) { /* the first scan: get_skill says "no skill" until it is done */
    json_decref(r);
    r = sp_tool(d, 10 + i, SP_PROMPT_MS, "get_skill", "{\"name\":\"meta-rel\"}");
    if (!sp_tool_failed(r))
      break;
    hx_msleep(100);
  }
  cr_assert(!sp_tool_failed(r), "get_skill never found the skill: %s", hx_dump(r));
  sp_no_marker(r, "get_skill");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A SKILL.md that is a link to a secret: its text is never returned, nor indexed. */
Test(files, skill_md_link_out_of_the_skill_is_not_followed) {
  char dir[PATH_MAX], secret[PATH_MAX], md[PATH_MAX + 32];
  sp_skill(proj, "plain-skill", dir, sizeof dir); /* something to settle on */
  snprintf(dir, sizeof dir, "%s/.claude/skills/md-link", proj);
  snprintf(secret, sizeof secret, "%s/SKILL.md", outside);
  fsx_write(secret, "---\nname: md-link\ndescription: Use when checking the frobnitz "
                    "calibration.\n---\n" SP_MARKER "\n");
  snprintf(md, sizeof md, "%s/SKILL.md", dir);
  fsx_write(md, "");
  unlink(md);
  sp_link(secret, md);
  hx *d = sp_lsp(proj);
  sp_settle(d, 1);
  json_t *r = lsp_get(d, 2, "md-link");
  sp_no_marker(r, "skills/get of a linked SKILL.md");
  json_decref(r);
  r = sp_call_within(d, SP_PROMPT_MS, "skills/lookup",
                     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"skills/lookup\","
                     "\"params\":{\"task\":\"frobnitz calibration\"}}");
  sp_no_marker(r, "skills/lookup");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* An audit of a skill whose SKILL.md is a link to a secret: answered (the link is a high
 * finding on SKILL.md), not refused, and nothing of the secret is read into the answer. */
Test(files, audit_of_a_linked_skill_md_reports_the_link_and_reads_nothing) {
  char dir[PATH_MAX], secret[PATH_MAX], md[PATH_MAX + 32], req[PATH_MAX + 160];
  snprintf(dir, sizeof dir, "%s/linked-skill", proj);
  cr_assert_eq(mkdir(dir, 0755), 0);
  snprintf(secret, sizeof secret, "%s/SKILL.md", outside);
  fsx_write(secret, "---\nname: linked-skill\ndescription: Use when x.\n---\n" SP_MARKER "\n");
  snprintf(md, sizeof md, "%s/SKILL.md", dir);
  sp_link(secret, md);
  hx *d = sp_lsp(proj);
  snprintf(
      req, sizeof req,
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"skills/audit\",\"params\":{\"from\":\"%s\"}}",
      dir);
  json_t *r = sp_call_within(d, SP_PROMPT_MS, "skills/audit", req);
  json_t *res = hx_assert_result(r, "2");
  json_t *skill = json_array_get(json_object_get(res, "skills"), 0);
  cr_assert_not_null(skill, "the audit answers for the skill: %s", hx_dump(r));
  bool link_high = false;
  json_t *f;
  size_t i;
  json_array_foreach(json_object_get(skill, "findings"), i, f) link_high |=
      json_integer_value(json_object_get(f, "severity")) == 1 &&
      !strcmp(json_string_value(json_object_get(f, "file")), "SKILL.md") &&
      !strcmp(json_string_value(json_object_get(f, "code")), "audit/link");
  cr_assert(link_high, "a high audit/link finding on SKILL.md: %s", hx_dump(r));
  sp_no_marker(r, "skills/audit of a linked SKILL.md");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A skills-lock.json that is a link to a secret: skills/restore and skills/check refuse, naming
 * the file and the problem, and quote nothing of it (jansson's error used to: "near '...'"). */
Test(files, skills_lock_link_is_not_read_and_never_quoted) {
  char secret[PATH_MAX], lock[PATH_MAX];
  snprintf(secret, sizeof secret, "%s/id_ed25519", outside);
  fsx_write(secret, "{\"password\": \"" SP_MARKER "\n");
  snprintf(lock, sizeof lock, "%s/skills-lock.json", proj);
  sp_link(secret, lock);
  hx *d = sp_lsp(proj);
  json_t *r = sp_call_within(d, 30000, "skills/restore",
                             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/restore\","
                             "\"params\":{}}");
  cr_expect(json_object_get(r, "error") || sp_has(r, "skills-lock.json"),
            "restore through a linked lock: %s", hx_dump(r));
  sp_no_marker(r, "skills/restore");
  json_decref(r);
  r = sp_call_within(d, 30000, "skills/check",
                     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"skills/check\",\"params\":{}}");
  sp_no_marker(r, "skills/check");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A lock that is a regular file but not JSON: the error names the file and the line, and
 * still quotes nothing of it. */
Test(files, a_broken_lock_is_named_not_quoted) {
  char lock[PATH_MAX];
  snprintf(lock, sizeof lock, "%s/skills-lock.json", proj);
  fsx_write(lock, "{\"version\": 1, \"skills\": {\"" SP_MARKER "\n");
  hx *d = sp_lsp(proj);
  json_t *r = sp_call_within(d, 30000, "skills/restore",
                             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/restore\","
                             "\"params\":{}}");
  cr_expect(sp_has(r, "skills-lock.json"), "the refusal names the lock: %s", hx_dump(r));
  sp_no_marker(r, "skills/restore of a broken lock");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A link to a directory above the file (refs -> the secret's directory): skills/eval's tests
 * file and condense_trace read nothing through it, from an editor or an agent. */
Test(files, a_linked_directory_above_the_file_is_not_followed) {
  char dir[PATH_MAX], refs[PATH_MAX], secret[PATH_MAX];
  sp_skill(proj, "refs-skill", dir, sizeof dir);
  snprintf(secret, sizeof secret, "%s/notes.md", outside);
  fsx_write(secret, "# Notes\n\n## User\n\n" SP_MARKER "\n");
  snprintf(refs, sizeof refs, "%s/refs", proj);
  sp_link(outside, refs);
  hx *d = sp_mcp(proj);
  json_t *r = sp_tool(d, 1, SP_PROMPT_MS, "condense_trace",
                      "{\"trace\":\"refs/notes.md\",\"format\":\"markdown\"}");
  cr_expect(sp_tool_failed(r), "condense_trace through refs -> %s: %s", outside, hx_dump(r));
  sp_no_marker(r, "condense_trace through a linked directory");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A 2 GiB sparse skill_meta.json and trace: refused by size at once, never read. */
Test(files, a_2_gib_sparse_file_is_refused_by_size) {
  char dir[PATH_MAX], meta[PATH_MAX + 32], trace[PATH_MAX];
  sp_skill(proj, "huge-meta", dir, sizeof dir);
  snprintf(meta, sizeof meta, "%s/skill_meta.json", dir);
  sp_sparse(meta, (off_t)2 << 30);
  snprintf(trace, sizeof trace, "%s/trace.md", proj);
  sp_sparse(trace, (off_t)2 << 30);
  hx *d = sp_lsp(proj);
  sp_settle(d, 1);
  json_t *r = lsp_get(d, 2, "huge-meta");
  json_t *res = hx_assert_result(r, "2");
  cr_expect(json_is_null(json_object_get(res, "meta")));
  json_decref(r);
  char req[PATH_MAX + 200];
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"skills/condense\",\"params\":"
           "{\"trace\":\"%s\"}}",
           trace);
  r = sp_call_within(d, SP_PROMPT_MS, "skills/condense of 2 GiB", req);
  hx_assert_error(r, "3", -32602);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}
