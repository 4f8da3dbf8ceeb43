/* Agent CLIs as evaluation targets (skills/eval/agent.h): ids, built-in and
 * configured definitions and their errors, a run's directory (the skill where
 * the agent reads it, the case's files, the login copied, the key stripped),
 * and what is read from the agents' output: the recorded stdout of real
 * Claude Code 2.1.331 and Codex 0.169.0 runs (fixtures/agents/, see its
 * README) and output that is cut short, empty or not JSON at all. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/eval/agent.h"
#include "common/fileio.h"

static char root[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

static void setup(void) {
  strcpy(root, "/tmp/upk-agent-XXXXXX");
  cr_assert_not_null(mkdtemp(root));
}

static void teardown(void) {
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(agent, .init = setup, .fini = teardown);

static char *path_in(const char *rel) {
  char *p = NULL;
  cr_assert(asprintf(&p, "%s/%s", root, rel) > 0);
  return p;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

static bool has_env(char **envp, const char *entry) {
  for (size_t i = 0; envp[i]; i++)
    if (!strcmp(envp[i], entry))
      return true;
  return false;
}

static bool has_name(char **envp, const char *name) {
  for (size_t i = 0; envp[i]; i++)
    if (!strncmp(envp[i], name, strlen(name)) && envp[i][strlen(name)] == '=')
      return true;
  return false;
}

/* ---- ids and definitions ---- */

Test(agent, ids) {
  char name[64], model[64];
  cr_assert_eq(upk_agent_parse_id("agent:claude-code", name, sizeof name, model, sizeof model), 0);
  cr_assert_str_eq(name, "claude-code");
  cr_assert_str_eq(model, "");
  cr_assert_eq(upk_agent_parse_id("agent:codex/gpt-5.1-codex", name, 64, model, 64), 0);
  cr_assert_str_eq(name, "codex");
  cr_assert_str_eq(model, "gpt-5.1-codex");
  const char *bad[] = {"claude-code", "agent:", "agent:/m", "agent:x/", "agent:a b", "agent:$(x)"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_assert_eq(upk_agent_parse_id(bad[i], name, 64, model, 64), -EINVAL, "%s", bad[i]);
}

Test(agent, builtins) {
  upk_agent_def d;
  char err[256];
  cr_assert_eq(upk_agent_def_get(NULL, "claude-code", &d, err, sizeof err), 0);
  cr_assert_str_eq(d.command[0], "claude");
  cr_assert_str_eq(d.skills_dir, ".claude/skills");
  cr_assert_eq(d.format, UPK_AGENT_OUT_CLAUDE);
  upk_agent_def_free(&d);
  cr_assert_eq(upk_agent_def_get(NULL, "codex", &d, err, sizeof err), 0);
  cr_assert_str_eq(d.command[0], "codex");
  cr_assert_str_eq(d.skills_dir, ".agents/skills");
  cr_assert_eq(d.format, UPK_AGENT_OUT_CODEX);
  upk_agent_def_free(&d);
  cr_assert_eq(upk_agent_def_get(NULL, "nope", &d, err, sizeof err), -ENOENT);
  cr_assert(strstr(err, "no agent 'nope'"), "%s", err);
  /* command needs a command line */
  cr_assert_eq(upk_agent_def_get(NULL, "command", &d, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "command"), "%s", err);
}

Test(agent, configured) {
  json_t *cfg =
      json_pack("{s:{s:[s,s],s:s,s:s,s:{s:s},s:I},s:{s:[s]},s:{s:[s],s:s}}", "mine", "command",
                "my-agent", "{prompt}", "skillsDir", ".my/skills", "output", "codex", "env", "X",
                "{home}/x", "timeoutMs", (json_int_t)5000, "claude-code", "stripEnv", "SECRET",
                "bad", "command", "x", "skillsDir", "../out");
  upk_agent_def d;
  char err[256];
  cr_assert_eq(upk_agent_def_get(cfg, "mine", &d, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(d.command[1], "{prompt}");
  cr_assert_str_eq(d.skills_dir, ".my/skills");
  cr_assert_eq(d.format, UPK_AGENT_OUT_CODEX);
  cr_assert_eq(d.timeout_ms, 5000);
  cr_assert_str_eq(d.set_env[0], "X={home}/x");
  upk_agent_def_free(&d);
  /* members override a built-in's, the rest stays */
  cr_assert_eq(upk_agent_def_get(cfg, "claude-code", &d, err, sizeof err), 0);
  cr_assert_str_eq(d.strip_env[0], "SECRET");
  cr_assert(d.strip_given);
  cr_assert_str_eq(d.command[0], "claude");
  upk_agent_def_free(&d);
  cr_assert_eq(upk_agent_def_get(cfg, "bad", &d, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "skillsDir"), "%s", err);
  json_t *typo = json_pack("{s:{s:[s],s:i}}", "t", "command", "x", "timeout", 5);
  cr_assert_eq(upk_agent_def_get(typo, "t", &d, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "agents.t: unknown or mistyped member 'timeout'"), "%s", err);
  json_decref(typo);
  json_decref(cfg);
}

/* ---- a run's directory ---- */

Test(agent, prepare_installs_where_the_agent_reads) {
  upk_agent_def d;
  char err[256];
  cr_assert_eq(upk_agent_def_get(NULL, "claude-code", &d, err, sizeof err), 0);
  char *skill = path_in("src-skill"), *refs = path_in("src-skill/references");
  cr_assert_eq(mkdir(skill, 0755), 0);
  cr_assert_eq(mkdir(refs, 0755), 0);
  char *md = path_in("src-skill/SKILL.md"), *ref = path_in("src-skill/references/r.md");
  write_text(md, "---\nname: hr\ndescription: d\n---\nANSWER: x\n");
  write_text(ref, "more\n");
  /* the user's login: settings copied, so the key is left to it */
  char *uhome = path_in("user"), *uclaude = path_in("user/.claude");
  mkdir(uhome, 0755);
  mkdir(uclaude, 0755);
  char *settings = path_in("user/.claude/settings.json");
  write_text(settings, "{\"apiKeyHelper\": \"echo k\"}");
  char *dir = path_in("run1");
  const char *names[] = {"data/in.txt"}, *texts[] = {"input\n"};
  upk_agent_task t = {.def = &d,
                      .model = "claude-x",
                      .dir = dir,
                      .prompt = "do it",
                      .skill_dir = skill,
                      .skill_name = "hr",
                      .file_names = names,
                      .file_texts = texts,
                      .n_files = 1,
                      .user_home = uhome};
  char *base[] = {"PATH=/usr/bin", "HOME=/root", "ANTHROPIC_API_KEY=sk-user",
                  "ANTHROPIC_BASE_URL=http://127.0.0.1:9", NULL};
  upk_agent_launch l;
  cr_assert_eq(upk_agent_prepare(&t, base, &l, err, sizeof err), 0, "%s", err);
  char *got = path_in("run1/workspace/.claude/skills/hr/SKILL.md");
  char *got_ref = path_in("run1/workspace/.claude/skills/hr/references/r.md");
  char *got_in = path_in("run1/workspace/data/in.txt");
  char *got_login = path_in("run1/home/.claude/settings.json");
  cr_assert_eq(access(got, F_OK), 0);
  cr_assert_eq(access(got_ref, F_OK), 0, "the whole folder, references too");
  cr_assert_eq(access(got_in, F_OK), 0);
  cr_assert_eq(access(got_login, F_OK), 0);
  cr_assert_str_eq(l.argv[0], "claude");
  cr_assert_str_eq(l.argv[2], "do it");
  cr_assert_str_eq(l.argv[8], "--model");
  cr_assert_str_eq(l.argv[9], "claude-x");
  cr_assert(!has_name(l.envp, "ANTHROPIC_API_KEY"), "the agent's own login is used");
  cr_assert(has_env(l.envp, "ANTHROPIC_BASE_URL=http://127.0.0.1:9"));
  cr_assert(!has_env(l.envp, "HOME=/root"));
  cr_assert(has_env(l.envp, "DISABLE_AUTOUPDATER=1"));
  char home[256];
  snprintf(home, sizeof home, "HOME=%s/home", dir);
  cr_assert(has_env(l.envp, home));
  upk_agent_launch_free(&l);

  /* the baseline: no skill; without a login the key stays */
  char *dir2 = path_in("run2");
  upk_agent_task b = {.def = &d,
                      .dir = dir2,
                      .prompt = "do it",
                      .skill_name = "hr",
                      .user_home = dir /* no .claude here */};
  cr_assert_eq(upk_agent_prepare(&b, base, &l, err, sizeof err), 0, "%s", err);
  char *none = path_in("run2/workspace/.claude");
  cr_assert_neq(access(none, F_OK), 0, "no skill in the baseline");
  cr_assert(has_env(l.envp, "ANTHROPIC_API_KEY=sk-user"));
  cr_assert_null(l.argv[8], "no --model when none is given");

  /* what the run wrote: new files, not the skill, not untouched inputs */
  char *out = path_in("run1/workspace/out.txt");
  write_text(out, "hello");
  upk_agent_result r = {0};
  cr_assert_eq(upk_agent_inspect(&t, &r), 0);
  cr_assert_eq(r.n_files, 1);
  cr_assert_str_eq(r.files[0], "out.txt");
  upk_agent_result_free(&r);
  write_text(got_in, "changed\n");
  cr_assert_eq(upk_agent_inspect(&t, &r), 0);
  cr_assert_eq(r.n_files, 2);
  cr_assert_str_eq(r.files[0], "data/in.txt");
  upk_agent_result_free(&r);

  upk_agent_launch_free(&l);
  upk_agent_def_free(&d);
  free(skill), free(refs), free(md), free(ref), free(uhome), free(uclaude), free(settings);
  free(dir), free(got), free(got_ref), free(got_in), free(got_login), free(dir2), free(none);
  free(out);
}

Test(agent, prepare_refuses_paths_out_of_the_workspace) {
  upk_agent_def d;
  char err[256];
  cr_assert_eq(upk_agent_def_get(NULL, "codex", &d, err, sizeof err), 0);
  char *dir = path_in("run");
  const char *names[] = {"../escape.txt"}, *texts[] = {"x"};
  upk_agent_task t = {.def = &d,
                      .dir = dir,
                      .prompt = "p",
                      .skill_name = "s",
                      .file_names = names,
                      .file_texts = texts,
                      .n_files = 1};
  upk_agent_launch l;
  cr_assert_eq(upk_agent_prepare(&t, NULL, &l, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "case's files"), "%s", err);
  char *esc = path_in("escape.txt");
  cr_assert_neq(access(esc, F_OK), 0);
  upk_agent_def_free(&d);
  free(dir);
  free(esc);
}

/* ---- output ---- */

static char *fixture(const char *name, size_t *len) {
  char *p = NULL;
  const char *src = getenv("UPK_SOURCE_ROOT");
  cr_assert(asprintf(&p, "%s/tests/evalskills/fixtures/agents/%s", src ? src : ".", name) > 0);
  char *text = upk_read_file(p, 16u << 20, len);
  cr_assert_not_null(text, "%s (set UPK_SOURCE_ROOT)", p);
  free(p);
  return text;
}

static bool called(const upk_agent_result *r, const char *tool) {
  for (size_t i = 0; i < r->n_tools; i++)
    if (!strcmp(r->tools[i], tool))
      return true;
  return false;
}

Test(agent, claude_stream_json) {
  size_t len;
  char *out = fixture("claude-skill.jsonl", &len);
  upk_agent_result r;
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, len, "house-rules", &r), 0);
  cr_assert_null(r.error, "%s", r.error);
  cr_assert_eq(r.skill_loaded, 1);
  cr_assert(strstr(r.skill_evidence, "house-rules"), "%s", r.skill_evidence);
  cr_assert(called(&r, "Skill") && called(&r, "Write"));
  cr_assert(r.answer && strstr(r.answer, "warp shuffles"), "%s", r.answer);
  cr_assert_gt(r.input_tokens, 0);
  cr_assert_gt(r.output_tokens, 0);
  cr_assert_geq(r.turns, 2);
  cr_assert_not_null(r.session_id);
  cr_assert_eq(json_array_size(r.tool_calls), r.n_tools);
  upk_agent_result_free(&r);
  free(out);

  out = fixture("claude-baseline.jsonl", &len);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, len, "house-rules", &r), 0);
  cr_assert_null(r.error, "%s", r.error);
  cr_assert_eq(r.skill_loaded, 0);
  cr_assert(!called(&r, "Skill"));
  upk_agent_result_free(&r);
  free(out);
}

Test(agent, codex_json) {
  size_t len;
  char *out = fixture("codex-skill.jsonl", &len);
  upk_agent_result r;
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CODEX, out, len, "house-rules", &r), 0);
  cr_assert_null(r.error, "%s", r.error);
  cr_assert_eq(r.skill_loaded, 1);
  cr_assert(strstr(r.skill_evidence, "SKILL.md"), "%s", r.skill_evidence);
  cr_assert(r.answer && strstr(r.answer, "warp shuffles"), "%s", r.answer);
  cr_assert_gt(r.input_tokens, 0);
  cr_assert_not_null(r.session_id);
  upk_agent_result_free(&r);
  free(out);

  out = fixture("codex-baseline.jsonl", &len);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CODEX, out, len, "house-rules", &r), 0);
  cr_assert_eq(r.skill_loaded, 0);
  cr_assert_null(r.error, "%s", r.error);
  upk_agent_result_free(&r);
  free(out);
}

Test(agent, bad_output_is_one_clear_error) {
  upk_agent_result r;
  const char *cases[][2] = {
      {"", "printed nothing"},
      {"Error: unknown option --output-format\n", "printed no JSON: Error: unknown option"},
      {"{\"type\":\"system\",\"subtype\":\"init\"}\n{\"type\":\"assis", "ended before its result"},
      {"{\"type\":\"result\",\"is_error\":true,\"subtype\":\"error_during_execution\","
       "\"result\":\"API Error: 500\"}\n",
       "reported an error (error_during_execution): API Error: 500"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, cases[i][0], strlen(cases[i][0]), "s", &r),
                 0);
    cr_assert(r.error && strstr(r.error, cases[i][1]), "%zu: %s", i, r.error);
    cr_assert_null(r.answer);
    upk_agent_result_free(&r);
  }
  const char *codex_fail = "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n"
                           "{\"type\":\"turn.failed\",\"error\":{\"message\":\"stream closed\"}}\n";
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CODEX, codex_fail, strlen(codex_fail), "s", &r), 0);
  cr_assert(r.error && strstr(r.error, "stream closed"), "%s", r.error);
  upk_agent_result_free(&r);
  /* text output: the answer is stdout, loading cannot be told */
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_TEXT, "hi\n", 3, "s", &r), 0);
  cr_assert_str_eq(r.answer, "hi\n");
  cr_assert_eq(r.skill_loaded, -1);
  upk_agent_result_free(&r);
}

Test(agent, skill_read_by_path_counts_and_others_do_not) {
  const char *out =
      "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Read\","
      "\"input\":{\"file_path\":\"/w/.claude/skills/hr/SKILL.md\"}}]}}\n"
      "{\"type\":\"result\",\"is_error\":false,\"result\":\"ok\",\"num_turns\":2}\n";
  upk_agent_result r;
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, strlen(out), "hr", &r), 0);
  cr_assert_eq(r.skill_loaded, 1);
  upk_agent_result_free(&r);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, strlen(out), "other-hr", &r), 0);
  cr_assert_eq(r.skill_loaded, 0, "another skill's name that ends the same is not this one");
  upk_agent_result_free(&r);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, strlen(out), "r", &r), 0);
  cr_assert_eq(r.skill_loaded, 0);
  upk_agent_result_free(&r);
}

Test(agent, recorded_errors) {
  size_t len;
  upk_agent_result r;
  char *out = fixture("claude-error.jsonl", &len);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CLAUDE, out, len, "house-rules", &r), 0);
  cr_assert(r.error && strstr(r.error, "reported an error"), "%s", r.error);
  cr_assert_null(r.answer);
  upk_agent_result_free(&r);
  free(out);
  out = fixture("codex-error.jsonl", &len);
  cr_assert_eq(upk_agent_parse(UPK_AGENT_OUT_CODEX, out, len, "house-rules", &r), 0);
  cr_assert(r.error && strstr(r.error, "reported an error"), "%s", r.error);
  upk_agent_result_free(&r);
  free(out);
}
