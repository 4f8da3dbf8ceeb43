/* An agent's tool calls (MCP; the agent may be prompt-injected) reach only its places: paths
 * inside the workspace (links resolved first), the agents' skill directories and session logs,
 * and what the user's --agent-path adds; powers beyond (a PyTorch reference's Python, the
 * user's own skill directories) only with the user's --agent-allow. The same calls from the
 * user (LSP: an editor, upskillctl) are not refused. Each refusal is a trust/... diagnostic that
 * says how the user allows it, and the secret it guards never appears in the answer. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
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

/* A link at ws/rel (its parent made) to target. */
static void sp_link_at(const char *target, const char *rel) {
  char link[PATH_MAX], t[PATH_MAX];
  snprintf(t, sizeof t, "%s", target); /* at() reuses its buffer */
  snprintf(link, sizeof link, "%s/%s", P.ws, rel);
  char keep[PATH_MAX + 8];
  snprintf(keep, sizeof keep, "%s.keep", link); /* fsx_write makes the parents */
  fsx_write(keep, "");
  unlink(keep);
  cr_assert_eq(symlink(t, link), 0, "symlink %s: %s", link, strerror(errno));
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

/* The refusal's text of a validate_kernel call that pulls `inc` in as an include directory. */
static char *include_refusal(hx *d, const char *inc, const char *more, const char *meta) {
  char *p = jstr(inc);
  json_t *r =
      hx_callf(d,
               "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":{\"name\":"
               "\"validate_kernel\",\"arguments\":{\"source\":\"#include \\\"secret.h\\\"\\n\","
               "\"includes\":[%s]%s},\"_meta\":%s}}",
               p, more, meta);
  free(p);
  refused(r, "trust/read", "upskilld --agent-path=DIR");
  char *text = upk_xstrdup(json_string_value(json_object_get(
      json_array_get(json_object_get(json_object_get(r, "result"), "content"), 0), "text")));
  json_decref(r);
  return text;
}

/* upskillctl gives what a person typed (-I DIR) the user's authority as the spawned daemon's own
 * arguments, never inside a message: an agent that sends anything like that grant, in
 * initialize (as upskillctl, with its options), in _meta or in the arguments, is refused word
 * for word as one that does not, and the refusal says what the user can do. */
Test(agent, the_users_command_line_grant_cannot_be_claimed) {
  char inc[PATH_MAX], grant[PATH_MAX + 64];
  snprintf(inc, sizeof inc, "%s", at(P.out, "inc"));
  snprintf(grant, sizeof grant, "\"--allow-kernel-option=-I%s\"", inc);
  hx *plain = hx_mcp_session(HX_NOARGS);
  char *before = include_refusal(plain, inc, "", "{}");
  hx_finish(plain, 0);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  json_decref(hx_callf(
      d,
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      "\"2025-11-25\",\"clientInfo\":{\"name\":\"upskillctl\",\"version\":\"1\"},\"capabilities\":"
      "{\"experimental\":{\"upskillctl\":{\"grants\":[%s]}}},\"initializationOptions\":{\"cli\":"
      "true,\"userSession\":true,\"allowKernelOptions\":[\"-I*\"],\"allow-kernel-option\":[%s]},"
      "\"argv\":[%s]}}",
      grant, grant, grant));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  char meta[3 * PATH_MAX];
  snprintf(meta, sizeof meta,
           "{\"upskillctl\":true,\"cli\":true,\"grants\":[%s],\"allowKernelOption\":[\"-I*\"]}",
           grant);
  char *forged = include_refusal(d, inc, "", meta);
  cr_assert_str_eq(forged, before, "a claimed grant changed the refusal");
  /* In the arguments: an unknown parameter, still refused, the secret still unread. */
  char *p = jstr(inc);
  char args[4 * PATH_MAX];
  snprintf(args, sizeof args,
           "{\"source\":\"#include \\\"secret.h\\\"\\n\",\"includes\":[%s],\"allowKernelOption\":"
           "[\"-I*\"],\"cli\":true}",
           p);
  json_t *r = tool(d, "validate_kernel", args);
  cr_assert(json_is_true(json_object_get(json_object_get(r, "result"), "isError")), "%s",
            hx_dump(r));
  cr_assert_null(strstr(hx_dump(r), SECRET), "%s", hx_dump(r));
  json_decref(r);
  /* The daemon's flag as a compiler option: refused, not obeyed. */
  snprintf(args, sizeof args, "{\"source\":\"#include \\\"secret.h\\\"\\n\",\"options\":[%s]}",
           grant);
  r = tool(d, "validate_kernel", args);
  json_t *sc = json_object_get(json_object_get(r, "result"), "structuredContent");
  cr_assert(json_is_false(json_object_get(sc, "ok")) &&
                strstr(hx_dump(r), "kernel/option-refused") && !strstr(hx_dump(r), SECRET),
            "%s", hx_dump(r));
  json_decref(r);
  free(p);
  free(forged);
  free(before);
  hx_ping(d);
  hx_finish(d, 0);
}

/* Over LSP too (upskillctl's own face): an editor's or a client's `includes` are not the user's
 * command line, whatever its initialize says; only upskilld's own arguments are. */
Test(agent, an_lsp_client_naming_itself_upskillctl_gains_nothing) {
  char inc[PATH_MAX];
  snprintf(inc, sizeof inc, "%s", at(P.out, "inc"));
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  char *p = jstr(inc);
  json_decref(
      hx_callf(d, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                  "\"clientInfo\":{\"name\":\"upskillctl\"},\"capabilities\":{},"
                  "\"initializationOptions\":{\"cli\":true,\"allowKernelOptions\":[\"-I*\"]}}}"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"kernel/validate\",\"params\":{"
                       "\"source\":\"#include \\\"secret.h\\\"\\n\",\"includes\":[%s]}}",
                       p);
  free(p);
  const char *all = hx_dump(r);
  cr_assert(strstr(all, "kernel/option-refused") && strstr(all, "--allow-kernel-option="), "%s",
            all);
  cr_assert_null(strstr(all, SECRET), "%s", all);
  json_decref(r);
  hx_finish(d, 0);
}

/* A bare relative name is a path when it names something in the workspace, as the source
 * parser and eval_skill read it: `vendor` is guarded as `./vendor` is, and a link there (or in
 * skills_dir) that leads out is refused; `owner/repo` that names nothing stays a git source. */
Test(agent, bare_names_are_guarded_as_paths) {
  sp_link_at(at(P.out, "skill"), "vendor");
  sp_link_at(P.out, "payroll");
  sp_link_at(at(P.out, "skill"), "skills/ledger");
  hx *d = hx_mcp_session(HX_NOARGS);
  static const char *const calls[][2] = {
      {"install_skill", "{\"from\":\"vendor\"}"},
      {"audit_skill", "{\"from\":\"vendor\"}"},
      {"audit_skill", "{\"from\":\"payroll\"}"},
      {"install_skill", "{\"from\":\"payroll/skill\"}"},
      {"eval_skill", "{\"skill\":\"vendor\",\"models\":[\"haiku\"]}"},
      {"eval_skill", "{\"skill\":\"ledger\",\"models\":[\"haiku\"]}"}, /* skills_dir/ledger */
      {"validate_skill", "{\"path\":\"vendor\"}"},
  };
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    json_t *r = tool(d, calls[i][0], calls[i][1]);
    refused(r, "trust/read", "--agent-path");
    json_decref(r);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* A run's files are read by the worker: each is guarded as a path the agent names. */
Test(agent, a_runs_files_outside_are_refused) {
  static const char *const runs[] = {
      "\"reference\":{\"file\":\"/etc/passwd\"}",
      "\"reference\":{\"name\":\"k\",\"path\":\"outside/secret.cu\"}",
      "\"reference\":{\"file\":\"vendor/SKILL.md\"}",
      "\"args\":[{\"name\":\"x\",\"dtype\":\"f32\",\"count\":4,\"init\":{\"file\":\"link.cu\"}}]",
  };
  sp_link_at(at(P.out, "skill"), "vendor");
  hx *d = hx_mcp_session(HX_NOARGS);
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    char args[512];
    snprintf(args, sizeof args,
             "{\"path\":\"k.cu\",\"run\":{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],%s}}",
             runs[i]);
    json_t *r = tool(d, "run_kernel", args);
    refused(r, "trust/read", "--agent-path");
    json_decref(r);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* A project's skill folder that is a link out of the workspace is neither indexed nor served:
 * not listed, not found, not read by name or URI. Its neighbour inside is. */
Test(agent, a_linked_skill_folder_out_of_the_project_is_not_served) {
  fsx_write(at(P.out, "linked/SKILL.md"),
            "---\nname: linked\ndescription: Use when tuning frobnitz " SECRET "\n---\n# L\n");
  fsx_write(at(P.ws, ".claude/skills/inside/SKILL.md"),
            "---\nname: inside\ndescription: Use when tuning frobnitz inside.\n---\n# I\n");
  sp_link_at(at(P.out, "linked"), ".claude/skills/linked");
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = NULL;
  for (int tries = 0; tries < 300; tries++) { /* until the first scan is done */
    json_decref(r);
    r = tool(d, "list_skills", "{\"scope\":\"project\"}");
    if (!strstr(hx_dump(r), "\"indexing\""))
      break;
    hx_msleep(100);
  }
  cr_assert(strstr(hx_dump(r), "inside"), "the project's own skill is not listed: %s", hx_dump(r));
  cr_assert_null(strstr(hx_dump(r), SECRET), "listed: %s", hx_dump(r));
  json_decref(r);
  static const char *const calls[][2] = {
      {"find_skill", "{\"task\":\"tuning frobnitz\"}"},
      {"get_skill", "{\"name\":\"linked\"}"},
      {"skills_prompt", "{}"},
  };
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    r = tool(d, calls[i][0], calls[i][1]);
    cr_assert_null(strstr(hx_dump(r), SECRET), "%s served it: %s", calls[i][0], hx_dump(r));
    json_decref(r);
  }
  static const char *const reads[] = {
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/list\",\"params\":{}}",
      "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/read\","
      "\"params\":{\"uri\":\"skill://linked/SKILL.md\"}}",
  };
  for (size_t i = 0; i < 2; i++) {
    r = hx_callf(d, "%s", reads[i]);
    cr_assert_null(strstr(hx_dump(r), SECRET), "%s", hx_dump(r));
    cr_assert_null(strstr(hx_dump(r), "linked/SKILL.md\",\"mimeType"), "%s", hx_dump(r));
    json_decref(r);
  }
  hx_finish(d, 0);
}

/* Started in the user's home (or in /) with no --workspace, an MCP server has no workspace:
 * an agent reaches none of HOME's files, and the refusal says how to give one. */
Test(agent, a_server_started_in_home_serves_no_home_files) {
  setenv("UPK_TEST_CWD_HOME", "1", 1);
  hx *d = hx_mcp_session(HX_NOARGS);
  unsetenv("UPK_TEST_CWD_HOME");
  char abs[PATH_MAX + 64];
  snprintf(abs, sizeof abs, "%s/notes/k.cu", hx_home(d));
  fsx_write(abs, SECRET "\n");
  fsx_write(at(hx_home(d), "ledger/SKILL.md"), "---\nname: ledger\ndescription: " SECRET "\n---\n");
  char args[PATH_MAX + 128];
  snprintf(args, sizeof args, "{\"path\":\"%s\"}", abs);
  static const char *const calls[][2] = {
      {"validate_kernel", "{\"path\":\"notes/k.cu\"}"},
      {"validate_kernel", NULL},
      {"validate_skill", "{\"path\":\"ledger\"}"},
      {"audit_skill", "{\"from\":\"ledger\"}"},
      {"eval_skill", "{\"skill\":\"ledger\",\"models\":[\"haiku\"]}"},
  };
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    json_t *r = tool(d, calls[i][0], calls[i][1] ? calls[i][1] : args);
    refused(r, "trust/read", "--workspace=");
    json_decref(r);
  }
  json_t *r = tool(d, "install_skill",
                   "{\"from\":{\"markdown\":\"---\\nname: s\\ndescription: d\\n---\\n# S\\n\"}}");
  refused(r, "trust/write", "--workspace=");
  json_decref(r);
  cr_assert_not(fsx_exists(at(hx_home(d), ".claude/skills/s")), "installed into the user's scope");
  hx_finish(d, 0);
  /* The user's --workspace names the project: it is the agent's again. */
  char flag[PATH_MAX];
  snprintf(flag, sizeof flag, "--workspace=%s", P.ws);
  setenv("UPK_TEST_CWD_HOME", "1", 1);
  d = hx_mcp_session(HX_ARGS(flag));
  unsetenv("UPK_TEST_CWD_HOME");
  r = tool(d, "condense_trace", "{\"trace\":\"trace.md\"}");
  not_refused(r);
  json_decref(r);
  hx_finish(d, 0);
  /* And in / : nothing of the file system is the workspace. */
  cr_assert_eq(chdir("/"), 0);
  d = hx_mcp_session(HX_NOARGS);
  snprintf(args, sizeof args, "{\"path\":\"%s\"}", at(P.out, "secret.cu"));
  r = tool(d, "validate_kernel", args);
  refused(r, "trust/read", "--workspace=");
  json_decref(r);
  hx_finish(d, 0);
}

/* The audit's judge sends each skill to a model provider on the user's account: an agent asks
 * for it only with --agent-allow=judge; a dry run (which sends nothing) it may always ask. */
Test(agent, the_audits_judge_needs_agent_allow_judge) {
  fsx_write(at(P.ws, "sk/SKILL.md"), "---\nname: sk\ndescription: d\n---\n# S\n");
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = tool(d, "audit_skill", "{\"from\":\"sk\",\"judge\":\"claude-x\"}");
  refused(r, "trust/send", "--agent-allow=judge");
  json_decref(r);
  r = tool(d, "audit_skill", "{\"from\":\"sk\",\"judge\":\"claude-x\",\"dryRun\":true}");
  not_refused(r);
  json_decref(r);
  r = tool(d, "audit_skill", "{\"from\":\"sk\"}");
  not_refused(r);
  json_decref(r);
  hx_finish(d, 0);
  d = hx_mcp_session(HX_ARGS("--agent-allow=judge"));
  r = tool(d, "audit_skill", "{\"from\":\"sk\",\"judge\":\"claude-x\"}");
  not_refused(r);
  json_decref(r);
  hx_finish(d, 0);
}

/* A file named wrong inside the workspace gets the nearest that exists; one outside is refused
 * before anything is listed there, so no name from outside comes back. */
Test(agent, a_missing_path_suggests_only_inside_the_workspace) {
  fsx_write(at(P.ws, "src/saxpy.cu"), "__global__ void k(float *y) { y[0] = 1.f; }\n");
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = tool(d, "validate_kernel", "{\"path\":\"src/saxpi.cu\"}");
  cr_expect(strstr(hx_dump(r), "did you mean") && strstr(hx_dump(r), "src/saxpy.cu"), "%s",
            hx_dump(r));
  json_decref(r);
  char args[PATH_MAX + 64];
  snprintf(args, sizeof args, "{\"path\":\"%s\"}", at(P.out, "secre.cu")); /* secret.cu */
  r = tool(d, "validate_kernel", args);
  refused(r, "trust/read", "--agent-path");
  cr_expect_null(strstr(hx_dump(r), "secret.cu"), "a name from outside came back: %s", hx_dump(r));
  json_decref(r);
  hx_finish(d, 0);
}
