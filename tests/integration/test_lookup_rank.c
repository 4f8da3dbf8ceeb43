/* The lookup's ranking as a client meets it: skills/lookup over LSP on a project of its own,
 * the real daemon. Each case has a right skill and a decoy that shares more of the task's
 * words, and fails if the ranking ignores what the case is about (the thesaurus, the
 * skill's name, same-text skills collapsed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

TestSuite(lookup_rank, .timeout = 120);

static void put(const char *proj, const char *name, const char *desc, const char *body) {
  char path[256], text[2048];
  snprintf(path, sizeof path, "%s/.claude/skills/%s/SKILL.md", proj, name);
  snprintf(text, sizeof text, "---\nname: %s\ndescription: %s\n---\n# %s\n\n%s\n", name, desc, name,
           body);
  fsx_write(path, text);
}

static hx *session(const char *proj) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  char uri[128];
  snprintf(uri, sizeof uri, "file://%s", proj);
  json_decref(hx_lsp_init(d, uri));
  return d;
}

/* The names of a settled lookup's hits, in order, as one string "a b c". */
static void names_of(json_t *r, char *out, size_t cap) {
  json_t *hits = json_object_get(hx_assert_result(r, "10"), "results"), *h;
  size_t i;
  out[0] = '\0';
  json_array_foreach(hits, i, h) {
    size_t n = strlen(out);
    snprintf(out + n, cap - n, "%s%s", n ? " " : "", json_string_value(json_object_get(h, "name")));
  }
}

/* "Stylesheet" is in neither skill: the CSS skill says "CSS", the decoy has another of the
 * task's words. Without the thesaurus the CSS skill is not found at all. */
Test(lookup_rank, a_thesaurus_word_beats_word_overlap) {
  char proj[64], got[1024];
  fsx_mkdtemp(proj, "rank-thes");
  put(proj, "css-fixes", "Fix CSS bugs: selectors, specificity and the cascade.",
      "Find the rule that wins, then narrow the selector.");
  put(proj, "release-checklist", "Ship an app release: version, notes, store upload.",
      "Try it on mobile too.");
  hx *d = session(proj);
  json_t *r = hx_lookup_settled(d, 10, "my stylesheet breaks on mobile");
  names_of(r, got, sizeof got);
  json_decref(r);
  cr_expect(!strncmp(got, "css-fixes ", 10), "stylesheet -> CSS should rank first: %s", got);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* The task names the skill ("release notes"); the decoy says the task's words in its body
 * many times. The name's weight wins. */
Test(lookup_rank, the_skills_name_beats_a_body_that_repeats_the_words) {
  char proj[64], got[1024];
  fsx_mkdtemp(proj, "rank-name");
  put(proj, "release-notes", "Draft what changed for users from the merged pull requests.",
      "Group by feature, fix and breaking change.");
  put(proj, "changelog-lint", "Check a CHANGELOG file's format.",
      "Release notes, release notes and more release notes: notes on each release, notes "
      "per release.");
  hx *d = session(proj);
  json_t *r = hx_lookup_settled(d, 10, "write the release notes");
  names_of(r, got, sizeof got);
  json_decref(r);
  cr_expect(!strncmp(got, "release-notes ", 14) || !strcmp(got, "release-notes"),
            "the named skill should rank first: %s", got);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* The same skill copied under three names (registries hold many such copies): one hit, and
 * the different skill after it is not pushed down by the copies. */
Test(lookup_rank, same_text_skills_collapse_into_one_hit) {
  char proj[64], got[1024];
  fsx_mkdtemp(proj, "rank-dup");
  const char *desc = "Rotate the database credentials and restart the services that use them.";
  const char *body = "List the services, rotate the secret in the vault, restart each one.";
  put(proj, "rotate-secrets-a", desc, body);
  put(proj, "rotate-secrets-b", desc, body);
  put(proj, "rotate-secrets-c", desc, body);
  put(proj, "vault-audit", "Audit who read the database credentials in the vault.",
      "Read the audit log.");
  hx *d = session(proj);
  json_t *r = hx_lookup_settled(d, 10, "rotate database credentials in the vault");
  names_of(r, got, sizeof got);
  json_decref(r);
  int copies = 0;
  for (const char *p = got; (p = strstr(p, "rotate-secrets-")); p++)
    copies++;
  cr_expect_eq(copies, 1, "three copies of one text should be one hit: %s", got);
  cr_expect(strstr(got, "vault-audit"), "the other skill should still be found: %s", got);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* A pasted log: the task's few real words among 60 identifiers no skill has. Those words are
 * the rarest there are (in no row at all), and they took every place a lookup asks: the answer
 * was empty. Only the first few of them are asked now. */
Test(lookup_rank, a_log_full_of_identifiers_still_finds_its_skill) {
  char proj[64], got[1024], task[2048] = "terraform plan hangs on the state lock:";
  fsx_mkdtemp(proj, "rank-log");
  put(proj, "terraform-state", "Fix Terraform state: a stuck lock, drift, moved resources.",
      "Find who holds the lock before forcing it.");
  put(proj, "release-notes", "Draft release notes from merged pull requests.", "Group by kind.");
  for (int i = 0; i < 60; i++) {
    size_t n = strlen(task);
    snprintf(task + n, sizeof task - n, " zq%03dxv", i);
  }
  hx *d = session(proj);
  json_t *r = hx_lookup_settled(d, 10, task);
  names_of(r, got, sizeof got);
  json_decref(r);
  cr_expect(!strncmp(got, "terraform-state", 15), "the Terraform skill should rank first: '%s'",
            got);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* The columns of a dumped candidate's line "C<TAB>path<TAB>place<TAB>features..." after
 * `path_end` in the last lookup's block of `dump`; 0 when the skill is not there. */
static int dumped(const char *dump, const char *path_end, double *f, int cap) {
  const char *q = dump, *p;
  while ((p = strstr(q + 1, "\nQ\t")))
    q = p; /* the settled lookup's block is the last one */
  char want[128];
  snprintf(want, sizeof want, "%s\t", path_end);
  const char *c = strstr(q, want);
  if (!c)
    return 0;
  c += strlen(want);
  int n = 0;
  for (char *end; n < cap && *c && *c != '\n'; c = end) {
    f[n++] = strtod(c, &end);
    if (end == c)
      return -1;
  }
  return n;
}

/* The learned order's features (skills/index/ltr.c) as a refit reads them: a daemon whose
 * environment names UPSKILLD_RANK_DUMP writes each lookup's task on one line, whatever
 * control characters a client put in it, and each candidate's features; without it,
 * nothing. The named skill has all the task's name words: its whole name is covered and
 * "release notes" stands side by side there; the decoy has none of them in its name. */
Test(lookup_rank, the_candidates_features_are_dumped_for_refitting) {
  char proj[64], got[1024], path[128];
  fsx_mkdtemp(proj, "rank-dump");
  snprintf(path, sizeof path, "%s/dump.tsv", proj);
  put(proj, "release-notes", "Draft what changed for users from the merged pull requests.",
      "Group by feature and fix.");
  put(proj, "changelog-lint", "Check the release notes file's format.", "Lint the notes.");
  const char *task = "write the release notes\\tfor our users\\n"; /* JSON: a tab, a newline */
  hx *d = session(proj);
  json_decref(hx_lookup_settled(d, 10, task));
  hx_finish(d, 0);
  cr_expect(!fsx_exists(path), "no dump unless the environment names one");

  setenv("UPSKILLD_RANK_DUMP", path, 1);
  d = session(proj);
  unsetenv("UPSKILLD_RANK_DUMP");
  json_t *r = hx_lookup_settled(d, 10, task);
  names_of(r, got, sizeof got);
  json_decref(r);
  hx_finish(d, 0);
  cr_expect(!strncmp(got, "release-notes changelog-lint", 28), "the order: %s", got);
  char *dump = fsx_read(path);
  cr_assert(dump, "the dump should be written");
  cr_expect(strstr(dump, "Q\twrite the release notes for our users \n"), "the task on one line: %s",
            dump);
  double f[32], g[32];
  int n = dumped(dump, "/release-notes/SKILL.md", f, 32);
  int m = dumped(dump, "/changelog-lint/SKILL.md", g, 32);
  cr_assert(n >= 11 && m == n, "both candidates, all features: %d %d\n%s", n, m, dump);
  /* f[0] is the place in the tables' order, then head, body, joint, name share, ...,
   * name cover (f[9]), pairs side by side (f[10]). */
  cr_expect(f[0] == 0 && g[0] == 1, "the tables' order: %g %g", f[0], g[0]);
  cr_expect(f[4] > 0 && f[4] < 1 && g[4] == 0, "the name's share: %g / %g", f[4], g[4]);
  cr_expect(f[9] == 1 && g[9] == 0, "the name covered by the task: %g / %g", f[9], g[9]);
  cr_expect(f[10] >= 1 && g[10] >= 1, "\"release notes\" side by side: %g / %g", f[10], g[10]);
  free(dump);
  fsx_rm_rf(proj);
}

/* Whether the daemon's merge and posting store fill (docs/skills.md) are still under way. */
static bool tidying(hx *d) {
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"st\",\"method\":\"upskilld/status\"}");
  json_t *skills = json_object_get(hx_assert_result(r, "\"st\""), "skills");
  bool busy = json_is_true(json_object_get(skills, "merging")) ||
              json_is_true(json_object_get(skills, "filling"));
  json_decref(r);
  return busy;
}

/* The posting store (skills/index/store.c) serves the lookup's lists once filled; an edit
 * that puts the task's words into one skill's body is seen by the next lookup, not answered
 * from the lists copied before it. "review" and "pages" are in 34 of 100 bodies: lists the
 * store keeps. */
Test(lookup_rank, an_edit_is_seen_through_the_posting_store) {
  char proj[64], got[4096];
  fsx_mkdtemp(proj, "rank-store");
  for (int i = 0; i < 100; i++) {
    char name[32], body[512] = "Nothing to see here.";
    snprintf(name, sizeof name, "skill-%02d", i);
    for (int k = 0; i % 3 == 1 && k <= i % 4; k++)
      strcat(body, " Review the pages twice.");
    put(proj, name, i % 3 == 1 ? "Proofread documents." : "Format source files.", body);
  }
  put(proj, "zz-later", "Format source files.", "Nothing to see here.");
  hx *d = session(proj);
  json_decref(hx_lookup_settled(d, 10, "review the pages"));
  for (int i = 0; i < 500 && tidying(d); i++)
    hx_msleep(20);
  cr_assert_not(tidying(d), "the store was not filled in 10 s");
  json_t *r = hx_lookup_settled(d, 10, "review the pages");
  names_of(r, got, sizeof got);
  json_decref(r);
  cr_assert(got[0] && !strstr(got, "zz-later"), "before the edit: %s", got);
  put(proj, "zz-later", "Format source files.",
      "Review the pages. Review the pages. Review the pages. Review the pages.");
  bool seen = false;
  for (int i = 0; i < 250 && !seen; i++) { /* the watcher's refresh, then the lookup */
    hx_msleep(20);
    r = hx_lookup_settled(d, 10, "review the pages");
    names_of(r, got, sizeof got);
    json_decref(r);
    seen = !strncmp(got, "zz-later ", 9);
  }
  cr_expect(seen, "the edited skill should rank first: %s", got);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* ---- MCP answers within a model's context budget (docs/protocol.md) ---- */

static const char *const TOPICS[] = {
    "pdf",   "docx",      "xlsx",  "pptx",     "canvas",   "brand", "frontend", "webapp", "mcp",
    "slack", "algorithm", "theme", "artifact", "internal", "skill", "design",   "poster", "gif"};
enum { N_TOPICS = sizeof TOPICS / sizeof *TOPICS };

/* One skill with a description as long as public ones (~900 bytes), in two agents' dirs. */
static void put_public(const char *proj, int i) {
  char desc[1200], text[2048], path[256];
  snprintf(desc, sizeof desc,
           "Toolkit for %s-%02d work: create, edit and analyse %s files with formatting, "
           "formulas, charts and layout. Use when Claude needs to work with %s documents for: "
           "(1) creating new ones, (2) modifying or editing content, (3) working with tracked "
           "changes, (4) adding comments, or any other %s task.%0600d",
           TOPICS[i], i, TOPICS[i], TOPICS[i], TOPICS[i], 0);
  snprintf(text, sizeof text, "---\nname: %s-%02d\ndescription: \"%s\"\n---\n# %s\n\nSteps.\n",
           TOPICS[i], i, desc, TOPICS[i]);
  const char *dirs[] = {".claude/skills", ".agents/skills"};
  for (size_t k = 0; k < 2; k++) {
    snprintf(path, sizeof path, "%s/%s/%s-%02d/SKILL.md", proj, dirs[k], TOPICS[i], i);
    fsx_write(path, text);
  }
}

static int tool_id = 100;

/* tools/call `name` with `args` (JSON text): the result (caller owns the response). */
static json_t *call_tool(hx *d, const char *name, const char *args, json_t **result) {
  char id[16];
  snprintf(id, sizeof id, "%d", ++tool_id);
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":"
                       "{\"name\":\"%s\",\"arguments\":%s}}",
                       tool_id, name, args);
  *result = hx_assert_result(r, id);
  return r;
}

static size_t text_bytes(json_t *result) {
  size_t n = 0, i;
  json_t *c;
  json_array_foreach(json_object_get(result, "content"), i, c) n +=
      strlen(json_string_value(json_object_get(c, "text")) ?: "");
  return n;
}

#define SC(res, key) json_object_get(json_object_get(res, "structuredContent"), key)

Test(lookup_rank, mcp_answers_fit_their_budgets) {
  char proj[64];
  fsx_mkdtemp(proj, "rank-budget");
  for (int i = 0; i < N_TOPICS; i++)
    put_public(proj, i);
  cr_assert_eq(chdir(proj), 0); /* the MCP daemon's workspace is its cwd */
  static const char *const model_env[] = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GENERIC_API_KEY",
                                          "GENERIC_BASE_URL"};
  for (size_t k = 0; k < 4; k++) /* no model provider (criterion forks: only this test's) */
    unsetenv(model_env[k]);
  hx *d = hx_mcp_session(HX_NOARGS);
  /* the tool list: no tool that needs a model where none is configured, and small */
  json_t *tl = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\"}");
  json_t *tools = json_object_get(hx_assert_result(tl, "99"), "tools"), *t;
  size_t i, listed = 0;
  json_array_foreach(tools, i, t) {
    json_t *seen = json_pack("{s:O,s:O,s:O}", "name", json_object_get(t, "name"), "description",
                             json_object_get(t, "description"), "inputSchema",
                             json_object_get(t, "inputSchema"));
    char *text = json_dumps(seen, JSON_COMPACT);
    listed += strlen(text);
    free(text);
    json_decref(seen);
    cr_expect(strcmp(json_string_value(json_object_get(t, "name")), "complete"), "listed");
  }
  cr_expect_leq(listed, 8192, "names, descriptions and input schemas: %zu bytes", listed);
  json_decref(tl);
  json_t *res, *r = call_tool(d, "list_skills", "{\"waitMs\":30000}", &res);
  size_t total = (size_t)json_integer_value(SC(res, "total"));
  cr_expect_leq(text_bytes(res), 16384, "list_skills: %zu bytes", text_bytes(res));
  cr_expect_eq(total, json_array_size(SC(res, "skills")), "%s", hx_dump(res));
  cr_expect_geq(total, N_TOPICS + 1, "%zu", total); /* the skills once each, and built-ins */
  cr_expect_eq(
      json_integer_value(json_object_get(json_array_get(SC(res, "skills"), 0), "placements")), 2,
      "%s", hx_dump(res));
  json_decref(r);
  /* pages by cursor; a cursor altered or from another listing is refused by name */
  r = call_tool(d, "list_skills", "{\"limit\":5}", &res);
  const char *cur = json_string_value(SC(res, "nextCursor"));
  cr_assert(cur, "%s", hx_dump(res));
  char args[256], bad[256];
  snprintf(args, sizeof args, "{\"limit\":5,\"cursor\":\"%s\"}", cur);
  snprintf(bad, sizeof bad, "{\"limit\":5,\"cursor\":\"%.*s9\"}", (int)strlen(cur) - 1, cur);
  json_t *res2, *r2 = call_tool(d, "list_skills", args, &res2);
  cr_expect_eq(json_integer_value(SC(res2, "offset")), 5, "%s", hx_dump(res2));
  json_decref(r2);
  static const char *const refused[] = {"{\"fold\":false,\"cursor\":\"%s\"}",
                                        "{\"cursor\":\"x\"}",
                                        "{\"limit\":0}",
                                        "{\"limit\":1000000000}",
                                        "{\"limit\":\"5\"}",
                                        NULL};
  for (size_t i = 0; refused[i]; i++) {
    snprintf(args, sizeof args, refused[i], cur);
    r2 = call_tool(d, "list_skills", args, &res2);
    cr_expect(json_is_true(json_object_get(res2, "isError")), "%s: %s", args, hx_dump(res2));
    cr_expect(strstr(hx_dump(res2), "params."), "%s: %s", args, hx_dump(res2));
    json_decref(r2);
  }
  r2 = call_tool(d, "list_skills", bad, &res2);
  cr_expect(strstr(hx_dump(res2), "not a cursor of this listing"), "%s", hx_dump(res2));
  json_decref(r2);
  json_decref(r);
  /* find_skill: short descriptions, a relevance in [0, 1], and "nothing fits" said */
  r = call_tool(d, "find_skill", "{\"task\":\"edit the tracked changes of xlsx-02 files\"}", &res);
  cr_expect_leq(text_bytes(res), 4096, "find_skill: %zu bytes", text_bytes(res));
  json_t *top = json_array_get(SC(res, "results"), 0);
  cr_expect_str_eq(json_string_value(json_object_get(top, "name")), "xlsx-02", "%s", hx_dump(res));
  double rel = json_number_value(json_object_get(top, "relevance"));
  cr_expect(rel >= 0.4 && rel <= 1, "%s", hx_dump(res));
  cr_expect(json_is_false(SC(res, "noMatch")), "%s", hx_dump(res));
  json_decref(r);
  r = call_tool(d, "find_skill", "{\"task\":\"book a table for four at an italian restaurant\"}",
                &res);
  cr_expect(json_is_true(SC(res, "noMatch")), "%s", hx_dump(res));
  cr_expect_leq(json_array_size(SC(res, "results")), 3, "%s", hx_dump(res));
  json_decref(r);
  hx_finish(d, 0);
  fsx_rm_rf(proj);
}

/* Ten agents start in one project at once: every daemon uses the one index file (none falls
 * back to an index in memory) and answers a lookup from it. */
Test(lookup_rank, ten_daemons_share_one_index) {
  char proj[64], db[128];
  fsx_mkdtemp(proj, "rank-ten");
  for (int i = 0; i < 3; i++)
    put_public(proj, i);
  snprintf(db, sizeof db, "%s/shared-index.sqlite", proj);
  setenv("UPSKILLD_INDEX", db, 1); /* one file for all, whatever each one's HOME */
  cr_assert_eq(chdir(proj), 0);
  enum { N = 10 };
  hx *d[N];
  for (int i = 0; i < N; i++)
    d[i] = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  for (int i = 0; i < N; i++)
    hx_mcp_init(d[i], "2025-11-25");
  for (int i = 0; i < N; i++) {
    json_t *res, *r = call_tool(d[i], "find_skill", "{\"task\":\"docx tracked changes\"}", &res);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(SC(res, "results"), 0), "name")),
        "docx-01", "daemon %d: %s", i, hx_dump(res));
    json_decref(r);
  }
  for (int i = 0; i < N; i++) {
    char *err = hx_stderr(d[i]);
    cr_expect_null(strstr(err, "in-memory"), "daemon %d: %s", i, err);
    cr_expect_null(strstr(err, "locked"), "daemon %d: %s", i, err);
    free(err);
    hx_finish(d[i], 0);
  }
  fsx_rm_rf(proj);
}
