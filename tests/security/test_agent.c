/* An agent's tool calls (MCP; the agent may be prompt-injected) reach only its places: paths
 * inside the workspace (links resolved first), the agents' skill directories and session logs,
 * and what the user's --agent-path adds; powers beyond (a PyTorch reference's Python, the
 * user's own skill directories) only with the user's --agent-allow. The same calls from the
 * user (LSP: an editor, upskillctl) are not refused. Each refusal is a trust/... diagnostic that
 * says how the user allows it, and the secret it guards never appears in the answer. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

#define SECRET "UPK_SECRET_7f3a9c"

typedef struct places {
  char ws[64], out[64]; /* the workspace (the daemon's cwd) and a directory outside it */
  char path[PATH_MAX];
} places;

static places P;

static const char *at(const char *dir, const char *rel) {
  snprintf(P.path, sizeof P.path, "%s/%s", dir, rel);
  return P.path;
}

static void setup(void) {
  fsx_mkdtemp(P.ws, "sec-agent-ws");
  fsx_mkdtemp(P.out, "sec-agent-out");
  fsx_write(at(P.out, "secret.cu"), SECRET " SECRET_TOKEN_TWO;\n");
  fsx_write(at(P.out, "inc/secret.h"), SECRET "\n");
  fsx_write(at(P.out, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n" SECRET "\n");
  fsx_write(at(P.out, "tests.json"),
            "[{\"input\":\"" SECRET "\",\"expected\":{\"contains\":\"x\"}}]");
  fsx_write(at(P.out, "skill/SKILL.md"), "---\nname: skill\ndescription: " SECRET "\n---\n# S\n");
  fsx_write(at(P.ws, "k.cu"), "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n");
  fsx_write(at(P.ws, "trace.md"), "# Trace\n\nThe agent ran `nvcc k.cu` and it worked.\n");
  char link[PATH_MAX];
  snprintf(link, sizeof link, "%s/link.cu", P.ws);
  cr_assert_eq(symlink(at(P.out, "secret.cu"), link), 0);
  snprintf(link, sizeof link, "%s/outside", P.ws);
  cr_assert_eq(symlink(P.out, link), 0);
  cr_assert_eq(chdir(P.ws), 0); /* the daemon's workspace: its cwd (criterion forks per test) */
}

static void teardown(void) {
  fsx_rm_rf(P.ws);
  fsx_rm_rf(P.out);
}

TestSuite(agent, .init = setup, .fini = teardown, .timeout = 120);

/* tools/call `tool` with `args` (JSON text); the whole result (caller owns). */
static json_t *tool(hx *d, const char *tool, const char *args) {
  static int id = 100;
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":"
                       "{\"name\":\"%s\",\"arguments\":%s}}",
                       ++id, tool, args);
  return r;
}

/* The call was refused by `rule`, naming `hint`; the secret is nowhere in the answer. */
static void refused(json_t *r, const char *rule, const char *hint) {
  json_t *res = json_object_get(r, "result");
  const char *all = hx_dump(r);
  cr_assert(json_is_true(json_object_get(res, "isError")), "not refused: %s", all);
  cr_assert(strstr(all, rule), "no %s in %s", rule, all);
  cr_assert(strstr(all, hint), "no hint '%s' in %s", hint, all);
  cr_assert_null(strstr(all, SECRET), "the secret came back: %s", all);
}

static void not_refused(json_t *r) {
  const char *all = hx_dump(r);
  cr_assert_null(strstr(all, "trust/"), "refused: %s", all);
}

static char *jstr(const char *s) {
  json_t *j = json_string(s);
  char *t = json_dumps(j, JSON_ENCODE_ANY);
  json_decref(j);
  return t;
}

Test(agent, kernel_paths_outside_the_workspace_are_refused) {
  hx *d = hx_mcp_session(HX_NOARGS);
  char args[PATH_MAX + 128];
  char *p = jstr(at(P.out, "secret.cu"));
  snprintf(args, sizeof args, "{\"path\":%s}", p);
  free(p);
  json_t *r = tool(d, "validate_kernel", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  /* The same file through a link inside the workspace, and through a linked directory. */
  r = tool(d, "validate_kernel", "{\"path\":\"link.cu\"}");
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "validate_kernel", "{\"path\":\"outside/secret.cu\"}");
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "validate_kernel", "{\"path\":\"../../../../../../etc/hostname\"}");
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  /* An include directory outside, to pull the secret in through an error. */
  p = jstr(at(P.out, "inc"));
  snprintf(args, sizeof args, "{\"source\":\"#include \\\"secret.h\\\"\\n\",\"includes\":[%s]}", p);
  free(p);
  r = tool(d, "validate_kernel", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "validate_kernel", "{\"project\":\"/etc\"}");
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(agent, kernel_paths_inside_the_workspace_pass) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = tool(d, "validate_kernel", "{\"path\":\"k.cu\"}");
  not_refused(r);
  cr_assert(json_is_true(json_object_get(
                json_object_get(json_object_get(r, "result"), "structuredContent"), "ok")),
            "%s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

Test(agent, agent_path_widens_reading) {
  char flag[PATH_MAX], args[PATH_MAX + 64];
  snprintf(flag, sizeof flag, "--agent-path=%s", P.out);
  hx *d = hx_mcp_session(HX_ARGS(flag));
  char *p = jstr(at(P.out, "skill"));
  snprintf(args, sizeof args, "{\"path\":%s}", p);
  free(p);
  json_t *r = tool(d, "validate_skill", args);
  not_refused(r);
  json_decref(r);
  hx_finish(d, 0);
}

Test(agent, the_user_over_lsp_is_not_refused) {
  hx *d = hx_lsp_session(HX_NOARGS);
  char *p = jstr(at(P.out, "skill"));
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"skills/validate\",\"params\":"
                       "{\"path\":%s}}",
                       p);
  free(p);
  cr_assert(json_object_get(r, "result"), "%s", hx_dump(r));
  not_refused(r);
  json_decref(r);
  hx_finish(d, 0);
}

Test(agent, skill_and_trace_paths_outside_are_refused) {
  hx *d = hx_mcp_session(HX_NOARGS);
  char args[PATH_MAX + 128];
  char *p = jstr(at(P.out, "id_ed25519"));
  snprintf(args, sizeof args, "{\"trace\":%s}", p);
  free(p);
  json_t *r = tool(d, "condense_trace", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "condense_trace", "{\"trace\":\"trace.md\"}");
  not_refused(r);
  json_decref(r);
  p = jstr(at(P.out, "skill"));
  snprintf(args, sizeof args, "{\"path\":%s}", p);
  r = tool(d, "validate_skill", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  snprintf(args, sizeof args, "{\"from\":%s}", p);
  r = tool(d, "install_skill", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "audit_skill", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  free(p);
  snprintf(args, sizeof args, "{\"from\":\"file://%s\"}", at(P.out, "skill"));
  r = tool(d, "install_skill", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  r = tool(d, "install_skill", "{\"from\":\"~/.ssh\"}");
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  p = jstr(at(P.out, "tests.json"));
  snprintf(args, sizeof args, "{\"skill\":\"./nothing\",\"tests\":%s}", p);
  free(p);
  r = tool(d, "eval_skill", args);
  refused(r, "trust/read", "--agent-path");
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
}

Test(agent, writes_outside_and_the_users_scope_are_refused) {
  hx *d = hx_mcp_session(HX_NOARGS);
  char args[PATH_MAX + 128];
  char *p = jstr(at(P.out, "made"));
  snprintf(args, sizeof args, "{\"task\":\"write CUDA\",\"output\":%s}", p);
  free(p);
  json_t *r = tool(d, "generate_skill", args);
  refused(r, "trust/write", "--agent-path");
  json_decref(r);
  cr_assert_not(fsx_exists(at(P.out, "made")));
  r = tool(d, "install_skill",
           "{\"from\":{\"markdown\":\"---\\nname: s\\ndescription: d\\n---\\n# S\\n\"},"
           "\"scope\":\"user\"}");
  refused(r, "trust/write", "--agent-allow=user-skills");
  json_decref(r);
  r = tool(d, "remove_skill", "{\"name\":\"s\",\"scope\":\"user\"}");
  refused(r, "trust/write", "--agent-allow=user-skills");
  json_decref(r);
  cr_assert_not(fsx_exists(at(hx_home(d), ".claude/skills/s")));
  hx_ping(d);
  hx_finish(d, 0);
}

Test(agent, user_scope_with_agent_allow) {
  hx *d = hx_mcp_session(HX_ARGS("--agent-allow=user-skills"));
  json_t *r = tool(d, "install_skill",
                   "{\"from\":{\"markdown\":\"---\\nname: s\\ndescription: d\\n---\\n# S\\n\"},"
                   "\"scope\":\"user\",\"agents\":[\"claude\"]}");
  not_refused(r);
  cr_assert(fsx_exists(at(hx_home(d), ".claude/skills/s/SKILL.md")), "%s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

Test(agent, a_pytorch_reference_needs_agent_allow_python) {
  fsx_write(at(P.ws, "p.py"), "import os\nos.system('touch " SECRET "')\n");
  static const char run[] =
      "{\"path\":\"k.cu\",\"run\":{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],"
      "\"args\":[{\"from\":\"input:0\"}],\"reference\":{\"pytorch\":{\"path\":\"p.py\"}}}}";
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = tool(d, "run_kernel", run);
  refused(r, "trust/run", "--agent-allow=python");
  json_decref(r);
  hx_finish(d, 0);
  cr_assert_not(fsx_exists(at(P.ws, SECRET)), "the reference ran");
  d = hx_mcp_session(HX_ARGS("--agent-allow=python"));
  r = tool(d, "run_kernel", run);
  cr_assert_null(strstr(hx_dump(r), "trust/run"), "%s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}

Test(agent, bad_agent_allow_is_refused_at_start) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_ARGS("--agent-allow=everything"));
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 2);
  char *err = hx_stderr(d);
  cr_assert(strstr(err, "unknown power 'everything'"), "%s", err);
  free(err);
  hx_free(d);
}

/* The directories of --agent-path are the user's: agents may compile against headers there, as
 * `includes` or as -I. */
Test(agent, agent_path_is_an_include_root) {
  HX_NEED_TOOLKIT();
  fsx_write(at(P.out, "inc/ok.h"), "#define OKV 3\n");
  char flag[PATH_MAX], args[3 * PATH_MAX];
  snprintf(flag, sizeof flag, "--agent-path=%s", P.out);
  hx *d = hx_mcp_session(HX_ARGS(flag));
  char *inc = jstr(at(P.out, "inc"));
  snprintf(args, sizeof args,
           "{\"source\":\"#include \\\"ok.h\\\"\\n__global__ void k(int *x) { x[0] = OKV; }\\n\","
           "\"includes\":[%s],\"cache\":false}",
           inc);
  json_t *r = tool(d, "validate_kernel", args);
  not_refused(r);
  cr_assert(json_is_true(json_object_get(
                json_object_get(json_object_get(r, "result"), "structuredContent"), "ok")),
            "%s", hx_dump(r));
  json_decref(r);
  snprintf(args, sizeof args,
           "{\"source\":\"#include \\\"ok.h\\\"\\n__global__ void k(int *x) { x[0] = OKV; }\\n\","
           "\"options\":[\"-I%s\"],\"cache\":false}",
           at(P.out, "inc"));
  r = tool(d, "validate_kernel", args);
  cr_assert(json_is_true(json_object_get(
                json_object_get(json_object_get(r, "result"), "structuredContent"), "ok")),
            "%s", hx_dump(r));
  json_decref(r);
  free(inc);
  hx_finish(d, 0);
}
