/* The LSP face of the real daemon (Content-Length framing): the initialize / shutdown / exit
 * lifecycle, cancellation, work-done progress and the workspace. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

TestSuite(lsp, .timeout = 120);

static bool has_string(json_t *arr, const char *s) {
  size_t i;
  json_t *v;
  json_array_foreach(arr, i,
                     v) if (json_is_string(v) && !strcmp(json_string_value(v), s)) return true;
  return false;
}

Test(lsp, initialize_reports_server_and_methods) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *res = hx_lsp_init(d, NULL);
  json_t *info = json_object_get(res, "serverInfo");
  cr_assert_str_eq(json_string_value(json_object_get(info, "name")), "upskilld", "%s",
                   hx_dump(res));
  cr_assert(json_is_string(json_object_get(info, "version")));
  json_t *up = json_object_get(
      json_object_get(json_object_get(res, "capabilities"), "experimental"), "upskilld");
  json_t *methods = json_object_get(up, "methods");
  cr_assert(json_is_array(methods), "%s", hx_dump(res));
  cr_assert(has_string(methods, "upskilld/status"), "%s", hx_dump(methods));
  cr_assert_not(has_string(methods, "upskilld/sleep"), "sleep listed without --test-methods");
  json_decref(res);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(lsp, initialize_lists_sleep_with_test_methods) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_ARGS("--test-methods"));
  json_t *res = hx_lsp_init(d, NULL);
  json_t *methods = json_object_get(
      json_object_get(json_object_get(json_object_get(res, "capabilities"), "experimental"),
                      "upskilld"),
      "methods");
  cr_assert(has_string(methods, "upskilld/sleep"), "%s", hx_dump(methods));
  json_decref(res);
  hx_finish(d, 0);
}

Test(lsp, forced_framing_flags) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_ARGS("--lsp", "--stdio", "--clientProcessId=1"));
  json_decref(hx_lsp_init(d, NULL));
  hx_ping(d);
  hx_finish(d, 0);
}

Test(lsp, requests_before_initialize) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/status\"}");
  hx_assert_error(r, "1", -32002);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  hx_assert_error(r, "2", -32002);
  json_decref(r);
  hx_ping(d); /* allowed before initialize */
  json_decref(hx_lsp_init(d, NULL));
  hx_finish(d, 0);
}

Test(lsp, initialize_twice_and_bad_params) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                         "{\"rootUri\":42,\"capabilities\":{}}}");
  cr_assert(strstr(hx_assert_error(r, "1", -32602), "params.rootUri"));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":[]}");
  hx_assert_error(r, "2", -32602);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":"
                 "{\"capabilities\":[]}}");
  cr_assert(strstr(hx_assert_error(r, "3", -32602), "params.capabilities"));
  json_decref(r);
  json_decref(hx_lsp_init(d, NULL));
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":{}}");
  hx_assert_error(r, "4", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(lsp, shutdown_then_exit_is_code_0) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"shutdown\"}");
  cr_assert(json_is_null(hx_assert_result(r, "9")), "%s", hx_dump(r));
  json_decref(r);
  /* After shutdown every request is refused, and the next is still answered. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"upskilld/status\"}");
  hx_assert_error(r, "10", -32600);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"shutdown\"}");
  hx_assert_error(r, "11", -32600);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}");
  hx_assert_error(r, "12", -32600);
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 0, "exit after shutdown gave %d", rc);
  hx_finish(d, 0);
}

/* eglot sends "params": null for both (not JSON-RPC 2.0, but real): a clean stop, code 0. */
Test(lsp, shutdown_and_exit_with_null_params_as_eglot_sends_them) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"shutdown\",\"params\":null}");
  cr_assert(json_is_null(hx_assert_result(r, "9")), "%s", hx_dump(r));
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\",\"params\":null}");
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 0, "exit after shutdown gave %d", rc);
  hx_finish(d, 0);
}

Test(lsp, exit_without_shutdown_is_code_1) {
  hx *d = hx_lsp_session(HX_NOARGS);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 1, "exit without shutdown gave %d", rc);
  hx_finish(d, 1);
}

Test(lsp, exit_before_initialize_is_code_1) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 1);
  hx_finish(d, 1);
}

Test(lsp, cancel_request_answers_32800) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":\"long\",\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":120000,\"steps\":100}}");
  hx_ping(d); /* the sleep is running by now */
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":\"long\"}}");
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_error(r, "\"long\"", -32800);
  json_decref(r);
  /* A second cancel for the same id is ignored: the ping's answer is next. */
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":\"long\"}}");
  hx_ping(d);
  /* The id is free again. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"long\",\"method\":\"upskilld/sleep\",\"params\":"
                 "{\"ms\":10,\"steps\":1}}");
  hx_assert_result(r, "\"long\"");
  json_decref(r);
  hx_finish(d, 0);
}

Test(lsp, work_done_progress) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":300,\"steps\":3,\"workDoneToken\":\"wd-1\"}}");
  json_t *kinds = json_array();
  json_t *m;
  while ((m = hx_next(d, HX_TIMEOUT)) && !json_object_get(m, "id")) {
    const char *method = json_string_value(json_object_get(m, "method"));
    if (!strcmp(method, "window/logMessage")) {
      json_decref(m);
      continue;
    }
    cr_assert_str_eq(method, "$/progress", "%s", hx_dump(m));
    json_t *p = json_object_get(m, "params");
    cr_assert_str_eq(json_string_value(json_object_get(p, "token")), "wd-1");
    json_t *v = json_object_get(p, "value");
    const char *kind = json_string_value(json_object_get(v, "kind"));
    cr_assert_not_null(kind, "%s", hx_dump(m));
    if (!strcmp(kind, "begin")) {
      cr_assert(json_is_string(json_object_get(v, "title")), "%s", hx_dump(m));
    } else if (!strcmp(kind, "report")) {
      json_int_t pct = json_integer_value(json_object_get(v, "percentage"));
      cr_assert(pct >= 0 && pct <= 100, "%s", hx_dump(m));
    }
    json_array_append_new(kinds, json_string(kind));
    json_decref(m);
  }
  json_t *res = hx_assert_result(m, "5");
  cr_assert_eq(json_integer_value(json_object_get(res, "steps")), 3);
  json_decref(m);
  size_t n = json_array_size(kinds);
  cr_assert_geq(n, 3, "%s", hx_dump(kinds));
  cr_assert_str_eq(json_string_value(json_array_get(kinds, 0)), "begin", "%s", hx_dump(kinds));
  cr_assert_str_eq(json_string_value(json_array_get(kinds, n - 1)), "end", "%s", hx_dump(kinds));
  for (size_t i = 1; i + 1 < n; i++)
    cr_assert_str_eq(json_string_value(json_array_get(kinds, i)), "report", "%s", hx_dump(kinds));
  json_decref(kinds);
  hx_finish(d, 0);
}

Test(lsp, cancelled_progress_ends) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":120000,\"steps\":1000,\"workDoneToken\":7}}");
  json_t *m = hx_next(d, HX_TIMEOUT);
  cr_assert_str_eq(json_string_value(json_object_get(m, "method")), "$/progress", "%s", hx_dump(m));
  json_decref(m);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":6}}");
  /* Progress ends before the -32800 answer. */
  bool ended = false;
  while ((m = hx_next(d, HX_TIMEOUT)) && !json_object_get(m, "id")) {
    json_t *v = json_object_get(json_object_get(m, "params"), "value");
    if (!strcmp(json_string_value(json_object_get(m, "method")), "$/progress") &&
        !strcmp(json_string_value(json_object_get(v, "kind")), "end"))
      ended = true;
    json_decref(m);
  }
  cr_assert(ended, "no $/progress end before the answer");
  hx_assert_error(m, "6", -32800);
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(lsp, unknown_dollar_request_and_notification) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"$/foo\",\"params\":{}}");
  hx_assert_error(r, "20", -32601);
  json_decref(r);
  /* As a notification it is ignored: the ping is answered next. */
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/foo\",\"params\":{}}");
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"$/setTrace\",\"params\":{\"value\":\"off\"}}");
  hx_ping(d);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"textDocument/definition\","
                 "\"params\":{}}");
  hx_assert_error(r, "21", -32601);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"textDocument/hover\",\"params\":{}}");
  hx_assert_error(r, "22", -32602); /* served (issue 14), and params are checked */
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

static json_t *status(hx *d) {
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"st\",\"method\":\"upskilld/status\"}");
  json_t *res = json_incref(hx_assert_result(r, "\"st\""));
  json_decref(r);
  return res;
}

Test(lsp, root_uri_is_the_workspace) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_decref(hx_lsp_init(d, "file:///tmp/some%20project/dir"));
  json_t *st = status(d);
  cr_assert_str_eq(json_string_value(json_object_get(st, "workspace")), "/tmp/some project/dir",
                   "%s", hx_dump(st));
  cr_assert_str_eq(json_string_value(json_object_get(st, "protocol")), "lsp");
  cr_assert_eq(json_integer_value(json_object_get(st, "inFlight")), 1);
  json_decref(st);
  hx_finish(d, 0);
}

Test(lsp, workspace_folders_and_settings) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                         "{\"processId\":null,\"rootUri\":\"file:///ignored\",\"capabilities\":{},"
                         "\"workspaceFolders\":[{\"uri\":\"file:///srv/ws\",\"name\":\"ws\"}],"
                         "\"initializationOptions\":{\"answer\":42}}}");
  hx_assert_result(r, "1");
  json_decref(r);
  json_t *st = status(d);
  cr_assert_str_eq(json_string_value(json_object_get(st, "workspace")), "/srv/ws", "%s",
                   hx_dump(st));
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(st, "settings"), "answer")), 42,
               "%s", hx_dump(st));
  json_decref(st);
  hx_finish(d, 0);
}

Test(lsp, no_root_means_current_directory) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *st = status(d);
  char *cwd = getcwd(NULL, 0);
  cr_assert_str_eq(json_string_value(json_object_get(st, "workspace")), cwd, "%s", hx_dump(st));
  free(cwd);
  json_decref(st);
  hx_finish(d, 0);
}

Test(lsp, id_types) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":-7,\"method\":\"ping\"}");
  hx_assert_result(r, "-7");
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"\",\"method\":\"ping\"}");
  hx_assert_result(r, "\"\"");
  json_decref(r);
  /* A fractional id is not a valid id. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(lsp, batches_are_refused) {
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *r = hx_call(d, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
  hx_assert_error(r, "null", -32600);
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

/* issue 34: names as skills/list shows them. A project skill installed for two agents (two
 * directories, each its agent's winner) is one entry of skills/prompt without an agent, at the
 * copy skills/get returns; skills/eval finds a name installed for one agent only, or built in,
 * as skills/get does (it used to look only in skills_dir: "no skill at 'solo-notes'"). */
static void put_skill(const char *proj, const char *dir, const char *name) {
  char path[256], text[256];
  snprintf(path, sizeof path, "%s/%s/%s/SKILL.md", proj, dir, name);
  snprintf(text, sizeof text,
           "---\nname: %s\ndescription: Use when writing notes for the team.\n---\n# %s\n\n"
           "Steps.\n",
           name, name);
  fsx_write(path, text);
}

static size_t count_of(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

Test(lsp, skill_names_resolve_as_skills_get_does) {
  char proj[64], want[256];
  fsx_mkdtemp(proj, "names");
  put_skill(proj, ".claude/skills", "dup-notes");
  put_skill(proj, ".cursor/skills", "dup-notes");
  put_skill(proj, ".cursor/skills", "solo-notes");
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                       "{\"rootUri\":\"file://%s\",\"capabilities\":{},"
                       "\"initializationOptions\":{\"warmKernels\":false}}}",
                       proj);
  hx_assert_result(r, "0");
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");

  /* Straight away, during the first scan: eval waits for it. No test cases anywhere, so the
   * refusal names the skill directory it resolved, and no model is asked. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/eval\",\"params\":"
                 "{\"skill\":\"solo-notes\",\"models\":[\"anthropic.claude-none\"]}}");
  const char *msg = hx_assert_error(r, "1", -32602);
  snprintf(want, sizeof want, "add tests to %s/.cursor/skills/solo-notes/skill_meta.json", proj);
  cr_expect(strstr(msg, want), "eval solo-notes: %s", msg);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"skills/eval\",\"params\":"
                 "{\"skill\":\"h100-cuda-kernels\",\"models\":[\"anthropic.claude-none\"],"
                 "\"cases\":[]}}");
  msg = hx_assert_error(r, "2", -32602); /* the skill was found: its cases are the problem */
  cr_expect(!strncmp(msg, "no usable test cases", 20), "eval of a built-in skill: %s", msg);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"skills/eval\",\"params\":"
                 "{\"skill\":\"no-such-notes\",\"models\":[\"anthropic.claude-none\"]}}");
  msg = hx_assert_error(r, "3", -32602);
  cr_expect(strstr(msg, "params.skill: no skill at 'no-such-notes'"), "%s", msg);
  json_decref(r);

  json_decref(hx_lookup_settled(d, 4, "team notes"));
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"skills/get\",\"params\":"
                 "{\"name\":\"dup-notes\"}}");
  const char *path = json_string_value(json_object_get(hx_assert_result(r, "5"), "path"));
  cr_assert(path);
  char loc[300];
  snprintf(loc, sizeof loc, "<location>\n%s\n</location>", path);
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"skills/prompt\",\"params\":{}}");
  const char *xml = json_string_value(json_object_get(hx_assert_result(r, "6"), "xml"));
  cr_assert(xml);
  cr_expect_eq(count_of(xml, "<name>\ndup-notes\n</name>"), 1, "%s", xml);
  cr_expect_eq(count_of(xml, "<name>\nsolo-notes\n</name>"), 1, "%s", xml);
  cr_expect(strstr(xml, loc), "prompt names %s, as skills/get does: %s", path, xml);
  json_decref(r);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}
