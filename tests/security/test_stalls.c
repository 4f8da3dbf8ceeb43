/* Nothing blocks on a file (issue 44, "Stalls"; docs/security.md "Files, links and FIFOs"): a
 * FIFO named skill_meta.json or SKILL.md in a skill, an eval tests file, an evals/evals.json or a
 * trace that is a FIFO. Opening a FIFO for reading waits for a writer that never comes; the skills
 * queue used to stop there, and with it every lookup, list and read. Each request below must be
 * answered within SP_PROMPT_MS (a liveness bound, not a timing), and the daemon must go on. */
#include "tests/security/plant.h"

static char proj[64];

static void setup(void) {
  fsx_mkdtemp(proj, "sec-stalls");
}

static void teardown(void) {
  fsx_rm_rf(proj);
}

TestSuite(stalls, .init = setup, .fini = teardown, .timeout = 240);

/* lookup, list and get answer, and the daemon still pings. */
static void still_answers(hx *d, const char *name) {
  sp_settle(d, 1);
  json_t *r = sp_call_within(d, SP_PROMPT_MS, "skills/list",
                             "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"skills/list\","
                             "\"params\":{}}");
  hx_assert_result(r, "2");
  json_decref(r);
  char req[256];
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"skills/get\",\"params\":{\"name\":\"%s\"}}",
           name);
  json_decref(sp_call_within(d, SP_PROMPT_MS, "skills/get", req));
  hx_ping(d);
}

Test(stalls, a_fifo_named_skill_meta_json_blocks_nothing) {
  char dir[PATH_MAX], fifo[PATH_MAX + 32];
  sp_skill(proj, "fifo-meta", dir, sizeof dir);
  snprintf(fifo, sizeof fifo, "%s/skill_meta.json", dir);
  sp_fifo(fifo);
  hx *d = sp_lsp(proj);
  still_answers(d, "fifo-meta");
  hx_finish(d, 0);
}

Test(stalls, a_fifo_named_skill_md_blocks_nothing) {
  char dir[PATH_MAX], fifo[PATH_MAX + 32];
  sp_skill(proj, "plain-skill", dir, sizeof dir);
  snprintf(fifo, sizeof fifo, "%s/.claude/skills/fifo-md/SKILL.md", proj);
  sp_fifo(fifo);
  hx *d = sp_lsp(proj);
  still_answers(d, "fifo-md");
  hx_finish(d, 0);
}

/* skills/eval with a tests file (or the skill's own skill_meta.json, or its evals/evals.json)
 * that is a FIFO: an error at once, not a thread of the pool lost for good. */
static void eval_refused_at_once(hx *d, int id, const char *skill, const char *tests) {
  char req[PATH_MAX * 3];
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/eval\",\"params\":"
           "{\"skill\":\"%s\",\"models\":[\"anthropic.claude-none\"]%s%s%s}}",
           id, skill, tests ? ",\"tests\":\"" : "", tests ? tests : "", tests ? "\"" : "");
  json_t *r = sp_call_within(d, SP_PROMPT_MS, "skills/eval", req);
  cr_expect(json_object_get(r, "error"), "skills/eval of a FIFO: %s", hx_dump(r));
  json_decref(r);
}

Test(stalls, an_eval_tests_file_that_is_a_fifo_is_refused_at_once) {
  char dir[PATH_MAX], fifo[PATH_MAX];
  sp_skill(proj, "eval-fifo", dir, sizeof dir);
  snprintf(fifo, sizeof fifo, "%s/tests.json", proj);
  sp_fifo(fifo);
  hx *d = sp_lsp(proj);
  eval_refused_at_once(d, 1, dir, fifo);
  eval_refused_at_once(d, 2, dir, "tests.json"); /* relative: in the workspace */
  hx_ping(d);
  hx_finish(d, 0);
}

Test(stalls, a_skills_own_tests_that_are_fifos_are_refused_at_once) {
  char dir[PATH_MAX], fifo[PATH_MAX + 32], dir2[PATH_MAX];
  sp_skill(proj, "meta-fifo", dir, sizeof dir);
  snprintf(fifo, sizeof fifo, "%s/skill_meta.json", dir);
  sp_fifo(fifo);
  sp_skill(proj, "evals-fifo", dir2, sizeof dir2);
  snprintf(fifo, sizeof fifo, "%s/evals/evals.json", dir2);
  sp_fifo(fifo);
  hx *d = sp_lsp(proj);
  eval_refused_at_once(d, 1, dir, NULL);
  eval_refused_at_once(d, 2, dir2, NULL);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(stalls, a_trace_that_is_a_fifo_is_refused_at_once) {
  char fifo[PATH_MAX];
  snprintf(fifo, sizeof fifo, "%s/trace.jsonl", proj);
  sp_fifo(fifo);
  hx *d = sp_mcp(proj);
  json_t *r = sp_tool(d, 1, SP_PROMPT_MS, "condense_trace", "{\"trace\":\"trace.jsonl\"}");
  cr_expect(sp_tool_failed(r), "condense_trace of a FIFO: %s", hx_dump(r));
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* An agent's perKernel is bounded: 2,000 kernels or a 100 KB name are refused at once, the
 * answer small and naming the limit; a bad value names its kernel. */
Test(stalls, a_hostile_per_kernel_is_refused_small) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *many = json_object(), *resp;
  char name[32];
  for (int i = 0; i < 2000; i++) {
    snprintf(name, sizeof name, "k%d", i);
    json_object_set_new(many, name, json_pack("{s:i}", "blockSize", 128));
  }
  char *huge = malloc(100001);
  memset(huge, 'x', 100000);
  huge[100000] = '\0';
  json_t *cases[] = {many, json_pack("{s:{s:i}}", huge, "blockSize", 64),
                     json_pack("{s:{s:i}}", "k", "blockSize", 4096)};
  const char *says[] = {"at most 1024 kernels", "at most 512 bytes", "params.perKernel.k:"};
  for (int c = 0; c < 3; c++) {
    json_t *req =
        json_pack("{s:s,s:i,s:s,s:{s:s,s:{s:s,s:o}}}", "jsonrpc", "2.0", "id", 90 + c, "method",
                  "tools/call", "params", "name", "validate_kernel", "arguments", "source",
                  "__global__ void k(float *y) { y[0] = 1.f; }\n", "perKernel", cases[c]);
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    resp = hx_call(d, text);
    free(text);
    char *all = json_dumps(resp, JSON_COMPACT);
    cr_expect(strstr(all, says[c]) && strlen(all) < 2048, "case %d: %.300s", c, all);
    free(all);
    json_decref(resp);
  }
  free(huge);
  hx_ping(d);
  hx_finish(d, 0);
}
