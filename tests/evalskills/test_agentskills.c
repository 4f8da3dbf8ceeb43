/* Agent Skills' eval layout: a realistic evals.json (context files, quoted and
 * worded expectations, upskilld's `expected`, bad evals reported by id and
 * left out), and a written layout of 2 evals x 2 configurations x 2 runs whose
 * files hold what skill-creator's scripts read, with benchmark.json's math
 * checked by hand (sample standard deviation, rounding, delta). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/eval/agentskills.h"

static char root[64];
static upk_evalcases c;
static upk_as_evals info;
static upk_diags d;

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

static void setup(void) {
  strcpy(root, "/tmp/upk-as-XXXXXX");
  cr_assert_not_null(mkdtemp(root));
}

static void teardown(void) {
  upk_evalcases_free(&c);
  upk_as_evals_free(&info);
  upk_diags_free(&d);
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(agentskills, .init = setup, .fini = teardown);

/* root/rel with the given content (parents made). */
static void put(const char *rel, const char *data, size_t len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = 0;
    mkdir(path, 0755);
    *s = '/';
  }
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "%s", path);
  cr_assert_eq(fwrite(data, 1, len, f), len);
  fclose(f);
}

static const char *diags_text(void) {
  static char buf[8192];
  size_t n = 0;
  buf[0] = 0;
  for (size_t i = 0; i < d.len && n < sizeof buf - 400; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s: %s\n", d.items[i].code, d.items[i].message);
  return buf;
}

/* The diagnostic whose message holds all of `a` and `b`, or NULL. */
static const upk_diag *diag_with(const char *a, const char *b) {
  for (size_t i = 0; i < d.len; i++)
    if (strstr(d.items[i].message, a) && (!b || strstr(d.items[i].message, b)))
      return &d.items[i];
  return NULL;
}

static const char EVALS[] =
    "{\"skill_name\": \"csv-report\", \"evals\": [\n"
    " {\"id\": 1, \"eval_name\": \"People table\", \"prompt\": \"Summarize the people.\",\n"
    "  \"expected_output\": \"A table of names\", \"files\": [\"evals/files/people.csv\"],\n"
    "  \"expectations\": [\"The output includes \\\"John Smith\\\"\",\n"
    "                     \"mentions `warp shuffle` and ``__shfl_sync``\",\n"
    "                     \"The summary is well organized\",\n"
    "                     \"The output does not include \\\"TODO\\\"\",\n"
    "                     \"Says \\\"yes\\\" or \\\"no\\\"\",\n"
    "                     \"The output includes \\\"John Smith\\\"\"]},\n"
    " {\"id\": 2, \"name\": \"kernel\", \"prompt\": \"Write a reduction kernel\",\n"
    "  \"assertions\": [\"Uses \\u201cshared memory\\u201d\", {\"text\": \"Explains the tree\"}],\n"
    "  \"expected\": {\"contains\": [\"__global__\"], \"regex\": \"__syncthreads\\\\(\\\\)\"}},\n"
    " {\"id\": 3, \"prompt\": \"Just talk\", \"should_trigger\": true},\n"
    " {\"id\": 4, \"prompt\": \"gone\", \"files\": [\"evals/files/nope.txt\"]},\n"
    " {\"id\": 5, \"prompt\": \"big\", \"files\": [\"evals/files/big.txt\"]},\n"
    " {\"id\": 6, \"prompt\": \"binary\", \"files\": [\"evals/files/blob.bin\"]},\n"
    " {\"id\": 7, \"prompt\": \"escape\", \"files\": [\"../secret.txt\"]},\n"
    " {\"id\": 1, \"prompt\": \"a second id 1\"},\n"
    " {\"id\": \"8\", \"prompt\": \"a string id\"},\n"
    " {\"id\": 9, \"prompt\": 42},\n"
    " {\"id\": 10, \"prompt\": \"p\", \"expectations\": \"one string\"},\n"
    " {\"id\": 11, \"prompt\": \"p\", \"expected\": {\"contains\": 3}},\n"
    " \"not an object\"\n"
    "]}\n";

static void skill_files(void) {
  put("skill/evals/files/people.csv", "name\nJohn Smith\n", 16);
  char *big = malloc(UPK_AGENTSKILLS_FILE_MAX + 2);
  memset(big, 'a', UPK_AGENTSKILLS_FILE_MAX + 1);
  put("skill/evals/files/big.txt", big, UPK_AGENTSKILLS_FILE_MAX + 1);
  free(big);
  put("skill/evals/files/blob.bin", "\x89PNG\r\n\x1a\n\xff\x00", 10);
  put("secret.txt", "no", 2);
  put("skill/evals/evals.json", EVALS, strlen(EVALS));
}

Test(agentskills, reads_a_realistic_evals_json) {
  skill_files();
  char skill[128];
  snprintf(skill, sizeof skill, "%s/skill", root);
  int rc = upk_agentskills_read_evals_info(skill, &c, &info, &d);
  cr_assert_eq(rc, -EINVAL, "%d\n%s", rc, diags_text());
  cr_assert_eq(c.n, 3, "%s", diags_text());
  cr_assert_eq(info.n, 3);
  cr_assert_str_eq(info.skill_name, "csv-report");

  /* eval 1: the file's text, two contains, three statements for a grader */
  const upk_evalcase *e = &c.items[0];
  cr_assert_eq(info.items[0].id, 1);
  cr_assert_str_eq(info.items[0].name, "People table");
  cr_assert_str_eq(info.items[0].expected_output, "A table of names");
  cr_assert_str_eq(e->input, "Summarize the people.");
  cr_assert_eq(e->n_files, 1);
  cr_assert_str_eq(e->files[0].name, "evals/files/people.csv");
  cr_assert_str_eq(e->files[0].content, "name\nJohn Smith\n");
  cr_assert_eq(e->n_asserts, 5, "the repeated statement is read once");
  cr_assert_eq(info.items[0].n_sources, 5);
  cr_assert_eq(e->asserts[0].kind, UPK_ASSERT_CONTAINS);
  cr_assert_eq(e->asserts[0].n_values, 1);
  cr_assert_str_eq(e->asserts[0].values[0], "John Smith");
  cr_assert_str_eq(info.items[0].sources[0], "The output includes \"John Smith\"");
  cr_assert_eq(e->asserts[1].kind, UPK_ASSERT_CONTAINS);
  cr_assert_eq(e->asserts[1].n_values, 2);
  cr_assert_str_eq(e->asserts[1].values[0], "warp shuffle");
  cr_assert_str_eq(e->asserts[1].values[1], "__shfl_sync");
  const char *worded[] = {"The summary is well organized", "The output does not include \"TODO\"",
                          "Says \"yes\" or \"no\""};
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(e->asserts[2 + i].kind, UPK_ASSERT_EXPECT, "%s", worded[i]);
    cr_assert_eq(e->asserts[2 + i].n_values, 1);
    cr_assert_str_eq(e->asserts[2 + i].values[0], worded[i]);
    cr_assert_str_eq(info.items[0].sources[2 + i], worded[i]);
  }

  /* eval 2: expected's assertions first (no statement behind them), then the statements */
  e = &c.items[1];
  cr_assert_eq(info.items[1].id, 2);
  cr_assert_str_eq(info.items[1].name, "kernel");
  cr_assert_null(info.items[1].expected_output);
  cr_assert_eq(e->n_asserts, 4, "%s", diags_text());
  cr_assert_eq(e->asserts[0].kind, UPK_ASSERT_CONTAINS);
  cr_assert_str_eq(e->asserts[0].values[0], "__global__");
  cr_assert_null(info.items[1].sources[0]);
  cr_assert_eq(e->asserts[1].kind, UPK_ASSERT_REGEX);
  cr_assert_str_eq(e->asserts[1].values[0], "__syncthreads\\(\\)");
  cr_assert_null(info.items[1].sources[1]);
  cr_assert_eq(e->asserts[2].kind, UPK_ASSERT_CONTAINS);
  cr_assert_str_eq(e->asserts[2].values[0], "shared memory");
  cr_assert_eq(e->asserts[3].kind, UPK_ASSERT_EXPECT);
  cr_assert_str_eq(info.items[1].sources[3], "Explains the tree");

  /* eval 3: nothing to check, kept with a warning; unknown members ignored */
  cr_assert_eq(info.items[2].id, 3);
  cr_assert_str_eq(info.items[2].name, "eval-3");
  cr_assert_eq(c.items[2].n_asserts, 0);
  const upk_diag *w = diag_with("id 3", NULL);
  cr_assert_not_null(w, "%s", diags_text());
  cr_assert_eq(w->severity, UPK_SEV_WARNING);
  cr_assert_str_eq(w->code, "eval/no-assertion");

  /* the bad ones, each named by id (and path) */
  struct {
    const char *a, *b, *code;
  } bad[] = {
      {"id 4", "'evals/files/nope.txt' is missing", "eval/bad-file"},
      {"id 5", "'evals/files/big.txt' is over 1 MiB", "eval/bad-file"},
      {"id 6", "'evals/files/blob.bin' is not UTF-8 text", "eval/bad-file"},
      {"id 7", "'../secret.txt' is not a relative path inside the skill", "eval/bad-file"},
      {"evals[7] (id 1)", "another eval before it has id 1", "eval/duplicate"},
      {"evals[8]", "'id' must be an integer", "eval/wrong-type"},
      {"id 9", "'prompt' must be a non-empty string", "eval/missing-field"},
      {"id 10", "'expectations' must be a list", "eval/wrong-type"},
      {"id 11", "expected: contains must be a string", "eval/wrong-type"},
      {"evals[12]", "an eval must be an object", "eval/wrong-type"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const upk_diag *x = diag_with(bad[i].a, bad[i].b);
    cr_assert_not_null(x, "%s / %s in\n%s", bad[i].a, bad[i].b, diags_text());
    cr_assert_eq(x->severity, UPK_SEV_ERROR);
    cr_assert_str_eq(x->code, bad[i].code, "%s", x->message);
    cr_assert_not_null(x->file);
    cr_assert(strstr(x->file, "evals/evals.json"), "%s", x->file);
  }
  cr_assert_eq(upk_diags_count(&d, UPK_SEV_ERROR), sizeof bad / sizeof *bad, "%s", diags_text());
}

Test(agentskills, shapes_and_unusable_json) {
  const char *bare = "[{\"prompt\": \"a\", \"expectations\": [\"mentions `x`\"]},"
                     " {\"prompt\": \"b\", \"expectations\": []}]";
  cr_assert_eq(upk_agentskills_parse_evals(bare, strlen(bare), NULL, &c, &d), 0, "%s",
               diags_text());
  cr_assert_eq(c.n, 2);
  upk_evalcases_free(&c);
  upk_diags_free(&d);
  cr_assert_eq(upk_agentskills_parse_evals_info(bare, strlen(bare), NULL, &c, &info, &d), 0);
  cr_assert_eq(info.items[1].id, 1, "an eval without an id is numbered by its place");
  cr_assert_not_null(diag_with("evals[0]", "numbered 0"));
  upk_evalcases_free(&c);
  upk_as_evals_free(&info);
  upk_diags_free(&d);

  const char *files = "{\"evals\": [{\"id\": 0, \"prompt\": \"p\", \"files\": [\"a.txt\"]}]}";
  cr_assert_eq(upk_agentskills_parse_evals(files, strlen(files), NULL, &c, &d), -EINVAL);
  cr_assert_eq(c.n, 0);
  cr_assert_not_null(diag_with("id 0", "'a.txt' cannot be read: no skill directory"));
  upk_diags_free(&d);

  const char *broken[] = {"{\"evals\": [", "{\"evals\": {}}", "{\"skill_name\": 3, \"evals\": []}",
                          "7"};
  for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
    upk_evalcases_free(&c);
    cr_assert_eq(upk_agentskills_parse_evals(broken[i], strlen(broken[i]), NULL, &c, &d), -EINVAL,
                 "%s", broken[i]);
    cr_assert_eq(c.n, 0);
  }
  cr_assert_str_eq(d.items[0].code, "eval/invalid-json");
  upk_diags_free(&d);

  char skill[128];
  snprintf(skill, sizeof skill, "%s/none", root);
  cr_assert_eq(upk_agentskills_read_evals(skill, &c, &d), -ENOENT);
  cr_assert_str_eq(d.items[0].code, "eval/unreadable");
}

static size_t lits(const char *s, char ***v) {
  size_t n;
  cr_assert_eq(upk_agentskills_literals(s, v, &n), 0);
  return n;
}

Test(agentskills, literals) {
  char **v;
  cr_assert_eq(lits("Includes \"a\", `b` and \xe2\x80\x9c"
                    "c d\xe2\x80\x9d",
                    &v),
               3);
  cr_assert_str_eq(v[0], "a");
  cr_assert_str_eq(v[1], "b");
  cr_assert_str_eq(v[2], "c d");
  upk_agentskills_literals_free(v, 3);
  cr_assert_eq(lits("Shows ``a `tick` inside`` code", &v), 1);
  cr_assert_str_eq(v[0], "a `tick` inside");
  upk_agentskills_literals_free(v, 1);
  const char *none[] = {"No quotes at all",
                        "The name 'John Smith' (single quotes)",
                        "Doesn't say \"x\"",
                        "Never calls `malloc`",
                        "Uses \"a\" or \"b\"",
                        "Unclosed \"quote",
                        "Empty \"\" quotes",
                        "Only `x`",
                        "Mentions at least one of `a`, `b`"};
  for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
    cr_assert_eq(lits(none[i], &v), 0, "%s", none[i]);
    cr_assert_null(v);
  }
  cr_assert_eq(lits("Unclosed ``` then \"real\"", &v), 1);
  cr_assert_str_eq(v[0], "real");
  upk_agentskills_literals_free(v, 1);
}

Test(agentskills, eval_dir_names) {
  char b[128];
  upk_agentskills_eval_dir(3, "Names / table!", b, sizeof b);
  cr_assert_str_eq(b, "eval-3-Names-table");
  upk_agentskills_eval_dir(3, NULL, b, sizeof b);
  cr_assert_str_eq(b, "eval-3");
  upk_agentskills_eval_dir(3, "eval-3", b, sizeof b);
  cr_assert_str_eq(b, "eval-3");
  upk_agentskills_eval_dir(4, "../..", b, sizeof b);
  cr_assert_str_eq(b, "eval-4");
}

/* ---- writing ------------------------------------------------------------- */

static json_t *load(const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  json_error_t e;
  json_t *j = json_load_file(path, 0, &e);
  cr_assert_not_null(j, "%s: %s", path, e.text);
  return j;
}

static char *slurp(const char *rel) {
  char path[512], *buf = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  FILE *m = open_memstream(&buf, &len);
  int ch;
  while ((ch = fgetc(f)) != EOF)
    fputc(ch, m);
  fclose(f);
  fclose(m);
  return buf;
}

static bool exists(const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  return access(path, F_OK) == 0;
}

#define J(o, k) json_object_get((o), (k))
#define REAL(o, k) json_real_value(J((o), (k)))
#define INT(o, k) json_integer_value(J((o), (k)))
#define STR(o, k) json_string_value(J((o), (k)))

static const upk_as_expectation PASS2[] = {{"The output includes \"John Smith\"", true, "found"},
                                           {"The table is sorted", true, NULL}};
static const upk_as_expectation HALF[] = {{"The output includes \"John Smith\"", true, "found"},
                                          {"The table is sorted", false, "unsorted"}};
static const upk_as_expectation NONE2[] = {{"The output includes \"John Smith\"", false, "absent"},
                                           {"The table is sorted", false, "no table"}};
static const upk_as_expectation ONE_OK[] = {{"Uses shared memory", true, "yes"}};
static const upk_as_expectation ONE_NO[] = {{"Uses shared memory", false, "no"}};
static const char *const TOOLS[] = {"Bash", "Read", "Bash"};
static const unsigned COUNTS[] = {2, 1, 3};

/* with_skill pass rates 1, .5, 1, 1; without .5, 0, 0, 1. With: 10-40 s and
 * 1200-1800 tokens; without: 5 s, tokens unknown (output_chars: "né" = 2). */
static void runs8(upk_as_run *r, char ws[2][256], char *transcript) {
  const char *cfg[] = {"with_skill", "without_skill"};
  const upk_as_expectation *exp[2][2][2] = {{{PASS2, HALF}, {ONE_OK, ONE_OK}},
                                            {{HALF, NONE2}, {ONE_NO, ONE_OK}}};
  size_t k = 0;
  for (int c = 0; c < 2; c++)
    for (int e = 0; e < 2; e++)
      for (unsigned n = 1; n <= 2; n++, k++) {
        upk_as_run *x = &r[k];
        memset(x, 0, sizeof *x);
        x->eval_id = e + 1;
        x->eval_name = e == 0 ? "People table" : NULL;
        x->prompt = e == 0 ? "Summarize the people." : "Write a kernel";
        x->configuration = cfg[c];
        x->run_number = n;
        x->model = c == 0 ? "agent:claude-code" : "agent:codex";
        x->expectations = exp[c][e][n - 1];
        x->n_expectations = e == 0 ? 2 : 1;
        x->answer = c == 0 ? "John Smith is first." : "n\xc3\xa9";
        x->input_tokens = c == 0 ? 1000 : -1;
        x->output_tokens = c == 0 ? (long)(200 + 200 * (k % 4)) : -1;
        x->turns = c == 0 ? 3 : -1;
        x->cost_usd = c == 0 ? 0.0123456789 : -1;
        x->duration_ms = c == 0 ? 10000.0 * (double)(k % 4 + 1) : 5000;
        x->started_at = "2026-01-15T10:30:00Z";
        x->ended_at = "2026-01-15T10:30:10Z";
        x->skill_loaded = c == 0 ? 1 : 0;
        if (c == 0 && e == 0) {
          x->workspace = ws[n - 1];
          x->tool_names = TOOLS;
          x->tool_counts = COUNTS;
          x->n_tools = 3;
          x->transcript_path = transcript;
        }
      }
  r[7].error = "timed out after 600 s";
}

Test(agentskills, writes_the_layout_and_the_benchmark) {
  put("ws1/report.csv", "name\nJohn Smith\n", 16);
  put("ws1/sub/notes.txt", "abc", 3);
  put("ws1/answer.md", "the agent's own", 15);
  put("ws2/out.txt", "xyz", 3);
  put("ws2/extra.txt", "not listed", 10);
  put("t.jsonl", "{\"type\":\"result\"}\n", 18);
  char ws[2][256], transcript[256], dir[256], err[256];
  snprintf(ws[0], sizeof ws[0], "%s/ws1", root);
  snprintf(ws[1], sizeof ws[1], "%s/ws2", root);
  snprintf(transcript, sizeof transcript, "%s/t.jsonl", root);
  snprintf(dir, sizeof dir, "%s/out/iteration-1", root);
  upk_as_run r[8];
  runs8(r, ws, transcript);
  static const char *const LISTED[] = {"out.txt"};
  r[1].files_created = LISTED; /* only these are copied from ws2 */
  r[1].n_files_created = 1;
  cr_assert_eq(
      upk_agentskills_write(dir, "csv-report", "/skills/csv-report", r, 8, err, sizeof err), 0,
      "%s", err);

  char p[512], *text;
  struct stat st;
  snprintf(p, sizeof p, "%s/out/iteration-1", root);
  cr_assert_eq(stat(p, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0755);
  cr_assert(exists("out/iteration-1/eval-1-People-table/with_skill/run-2/outputs/out.txt"));
  cr_assert_not(exists("out/iteration-1/eval-1-People-table/with_skill/run-2/outputs/extra.txt"));
  json_t *m = load("out/iteration-1/eval-1-People-table/with_skill/run-2/outputs/metrics.json");
  cr_assert_eq(json_array_size(J(m, "files_created")), 1);
  cr_assert_str_eq(json_string_value(json_array_get(J(m, "files_created"), 0)), "out.txt");
  json_decref(m);

  /* eval_metadata.json where both scripts look */
  m = load("out/iteration-1/eval-1-People-table/eval_metadata.json");
  cr_assert_eq(INT(m, "eval_id"), 1);
  cr_assert_str_eq(STR(m, "eval_name"), "People table");
  cr_assert_str_eq(STR(m, "prompt"), "Summarize the people.");
  cr_assert_eq(json_array_size(J(m, "assertions")), 2);
  json_decref(m);
  m = load("out/iteration-1/eval-2/without_skill/eval_metadata.json");
  cr_assert_str_eq(STR(m, "eval_name"), "eval-2");
  json_decref(m);

  /* outputs/: answer, workspace files (ours win a name), transcript, metrics */
  const char *run = "out/iteration-1/eval-1-People-table/with_skill/run-1";
  snprintf(p, sizeof p, "%s/outputs/answer.md", run);
  cr_assert_str_eq(text = slurp(p), "John Smith is first.");
  free(text);
  snprintf(p, sizeof p, "%s/outputs/sub/notes.txt", run);
  cr_assert(exists(p));
  snprintf(p, sizeof p, "%s/outputs/transcript.jsonl", run);
  cr_assert_str_eq(text = slurp(p), "{\"type\":\"result\"}\n");
  free(text);
  snprintf(p, sizeof p, "%s/outputs/metrics.json", run);
  m = load(p);
  cr_assert_eq(INT(J(m, "tool_calls"), "Bash"), 5);
  cr_assert_eq(INT(J(m, "tool_calls"), "Read"), 1);
  cr_assert_eq(INT(m, "total_tool_calls"), 6);
  cr_assert_eq(INT(m, "total_steps"), 3);
  cr_assert_eq(INT(m, "errors_encountered"), 0);
  cr_assert_eq(json_array_size(J(m, "files_created")), 2, "report.csv and sub/notes.txt");
  cr_assert_eq(INT(m, "output_chars"), 16 + 3 + 20);
  cr_assert_eq(INT(m, "transcript_chars"), 18);
  json_decref(m);

  snprintf(p, sizeof p, "%s/grading.json", run);
  json_t *g = load(p);
  json_t *e0 = json_array_get(J(g, "expectations"), 1);
  cr_assert_str_eq(STR(e0, "text"), "The table is sorted");
  cr_assert(json_is_true(J(e0, "passed")));
  cr_assert_str_eq(STR(e0, "evidence"), "");
  json_t *s = J(g, "summary");
  cr_assert_eq(INT(s, "passed"), 2);
  cr_assert_eq(INT(s, "failed"), 0);
  cr_assert_eq(INT(s, "total"), 2);
  cr_assert_float_eq(REAL(s, "pass_rate"), 1.0, 1e-12);
  cr_assert_eq(INT(J(g, "execution_metrics"), "output_chars"), 39);
  cr_assert_null(J(J(g, "execution_metrics"), "files_created"));
  cr_assert_null(J(J(g, "timing"), "total_duration_seconds"), "the script then reads timing.json");
  cr_assert_float_eq(REAL(J(g, "timing"), "executor_duration_seconds"), 10.0, 1e-12);
  json_t *u = J(g, "upskilld");
  cr_assert_str_eq(STR(u, "model"), "agent:claude-code");
  cr_assert(json_is_true(J(u, "skill_loaded")));
  cr_assert(json_is_null(J(u, "error")));
  cr_assert_eq(json_array_size(J(u, "outputs_skipped")), 1);
  cr_assert_str_eq(json_string_value(json_array_get(J(u, "outputs_skipped"), 0)), "answer.md");
  json_decref(g);

  snprintf(p, sizeof p, "%s/timing.json", run);
  json_t *t = load(p);
  cr_assert_eq(INT(t, "total_tokens"), 1200);
  cr_assert_eq(INT(t, "duration_ms"), 10000);
  cr_assert_float_eq(REAL(t, "total_duration_seconds"), 10.0, 1e-12);
  cr_assert_str_eq(STR(t, "executor_start"), "2026-01-15T10:30:00Z");
  json_decref(t);
  t = load("out/iteration-1/eval-2/without_skill/run-1/timing.json");
  cr_assert_null(J(t, "total_tokens"), "unknown tokens are left out");
  json_decref(t);
  g = load("out/iteration-1/eval-2/without_skill/run-2/grading.json");
  cr_assert_str_eq(
      json_string_value(json_array_get(J(J(g, "user_notes_summary"), "needs_review"), 0)),
      "timed out after 600 s");
  cr_assert_eq(INT(J(g, "execution_metrics"), "errors_encountered"), 1);
  json_decref(g);

  /* benchmark.json: with_skill first, the script's math */
  json_t *b = load("out/iteration-1/benchmark.json");
  json_t *md = J(b, "metadata");
  cr_assert_str_eq(STR(md, "skill_name"), "csv-report");
  cr_assert_str_eq(STR(md, "skill_path"), "/skills/csv-report");
  cr_assert_str_eq(STR(md, "executor_model"), "agent:claude-code, agent:codex");
  cr_assert_eq(json_array_size(J(md, "evals_run")), 2);
  cr_assert_eq(INT(md, "runs_per_configuration"), 2);
  json_t *runs = J(b, "runs");
  cr_assert_eq(json_array_size(runs), 8);
  const char *order[] = {"with_skill",    "with_skill",    "with_skill",    "with_skill",
                         "without_skill", "without_skill", "without_skill", "without_skill"};
  for (size_t i = 0; i < 8; i++) {
    json_t *x = json_array_get(runs, i);
    cr_assert_str_eq(STR(x, "configuration"), order[i]);
    cr_assert_eq(INT(x, "eval_id"), (json_int_t)(i % 4 / 2 + 1));
    cr_assert_eq(INT(x, "run_number"), (json_int_t)(i % 2 + 1));
  }
  json_t *r1 = J(json_array_get(runs, 1), "result");
  cr_assert_float_eq(REAL(r1, "pass_rate"), 0.5, 1e-12);
  cr_assert_eq(INT(r1, "passed"), 1);
  cr_assert_eq(INT(r1, "total"), 2);
  cr_assert_float_eq(REAL(r1, "time_seconds"), 20.0, 1e-12);
  cr_assert_eq(INT(r1, "tokens"), 1400);
  cr_assert_eq(INT(r1, "tool_calls"), 6);
  cr_assert_str_eq(STR(json_array_get(runs, 0), "eval_name"), "People table");
  cr_assert_str_eq(STR(json_array_get(runs, 3), "eval_name"), "eval-2");
  cr_assert_str_eq(STR(json_array_get(runs, 4), "model"), "agent:codex");
  json_t *last = json_array_get(runs, 7);
  cr_assert_eq(INT(J(last, "result"), "errors"), 1);
  cr_assert_str_eq(json_string_value(json_array_get(J(last, "notes"), 0)), "timed out after 600 s");
  cr_assert_eq(INT(J(json_array_get(runs, 4), "result"), "tokens"), 2, "output_chars");

  json_t *sum = J(b, "run_summary");
  const char *keys[3];
  size_t nk = 0;
  const char *k;
  json_t *v;
  json_object_foreach(sum, k, v) keys[nk < 3 ? nk++ : 2] = k;
  cr_assert_eq(nk, 3);
  cr_assert_str_eq(keys[0], "with_skill");
  cr_assert_str_eq(keys[1], "without_skill");
  cr_assert_str_eq(keys[2], "delta");
  json_t *w = J(sum, "with_skill"), *wo = J(sum, "without_skill");
  cr_assert_float_eq(REAL(J(w, "pass_rate"), "mean"), 0.875, 1e-12);
  cr_assert_float_eq(REAL(J(w, "pass_rate"), "stddev"), 0.25, 1e-12); /* sample: / (n - 1) */
  cr_assert_float_eq(REAL(J(w, "pass_rate"), "min"), 0.5, 1e-12);
  cr_assert_float_eq(REAL(J(wo, "pass_rate"), "mean"), 0.375, 1e-12);
  cr_assert_float_eq(REAL(J(wo, "pass_rate"), "stddev"), 0.4787, 1e-12); /* sqrt(.6875/3) */
  cr_assert_float_eq(REAL(J(w, "time_seconds"), "mean"), 25.0, 1e-12);
  cr_assert_float_eq(REAL(J(w, "time_seconds"), "stddev"), 12.9099, 1e-12);
  cr_assert_float_eq(REAL(J(w, "tokens"), "mean"), 1500.0, 1e-12);
  cr_assert_float_eq(REAL(J(w, "tokens"), "stddev"), 258.1989, 1e-12);
  cr_assert(json_is_integer(J(J(w, "tokens"), "min")), "tokens are ints, as in Python");
  cr_assert_eq(INT(J(w, "tokens"), "max"), 1800);
  cr_assert_float_eq(REAL(J(wo, "time_seconds"), "stddev"), 0.0, 1e-12);
  json_t *delta = J(sum, "delta");
  cr_assert_str_eq(STR(delta, "pass_rate"), "+0.50");
  cr_assert_str_eq(STR(delta, "time_seconds"), "+20.0");
  cr_assert_str_eq(STR(delta, "tokens"), "+1498");
  /* pass@k / pass^k (added after the script's figures): a run passes when every expectation
   * did and it has no error. With: eval 1 passes 1 of 2, eval 2 both; pass@1 (.5 + 1) / 2,
   * pass@2 (1 + 1) / 2, pass^2 (0 + 1) / 2. Without: no run passes (eval 2's second run
   * passed its expectation but timed out). */
  cr_assert_eq(json_array_size(J(w, "pass_at_k")), 2);
  cr_assert_float_eq(json_real_value(json_array_get(J(w, "pass_at_k"), 0)), 0.75, 1e-12);
  cr_assert_float_eq(json_real_value(json_array_get(J(w, "pass_at_k"), 1)), 1.0, 1e-12);
  cr_assert_float_eq(json_real_value(json_array_get(J(w, "pass_hat_k"), 0)), 0.75, 1e-12);
  cr_assert_float_eq(json_real_value(json_array_get(J(w, "pass_hat_k"), 1)), 0.5, 1e-12);
  cr_assert_float_eq(json_real_value(json_array_get(J(wo, "pass_at_k"), 1)), 0.0, 1e-12);
  cr_assert_float_eq(json_real_value(json_array_get(J(wo, "pass_hat_k"), 0)), 0.0, 1e-12);
  json_decref(b);

  text = slurp("out/iteration-1/benchmark.md");
  cr_assert(strstr(text, "# Skill Benchmark: csv-report\n\n**Model**: agent:claude-code, "
                         "agent:codex\n"),
            "%s", text);
  cr_assert(strstr(text, "**Evals**: 1, 2 (2 runs each per configuration)"), "%s", text);
  cr_assert(strstr(text, "| Metric | With Skill | Without Skill | Delta |"), "%s", text);
  cr_assert(strstr(text, "| Pass Rate | 88% \u00b1 25% | 38% \u00b1 48% | +0.50 |"), "%s", text);
  cr_assert(strstr(text, "| Time | 25.0s \u00b1 12.9s | 5.0s \u00b1 0.0s | +20.0s |"), "%s", text);
  cr_assert(strstr(text, "| Tokens | 1500 \u00b1 258 | 2 \u00b1 0 | +1498 |"), "%s", text);
  cr_assert(strstr(text, "\n| pass@1 | 75% | 0% | +0.75 |\n| pass@2 | 100% | 0% | +1.00 |\n"
                         "| pass^1 | 75% | 0% | +0.75 |\n| pass^2 | 50% | 0% | +0.50 |"),
            "%s", text);
  free(text);

  /* nothing temporary left beside it */
  snprintf(p, sizeof p, "%s/out", root);
  int entries = 0;
  DIR *dd = opendir(p);
  for (struct dirent *de; (de = readdir(dd));)
    entries += de->d_name[0] != '.';
  closedir(dd);
  cr_assert_eq(entries, 1);
}

Test(agentskills, refuses_and_leaves_nothing) {
  char dir[256], err[256], ws[2][256], missing[256];
  snprintf(dir, sizeof dir, "%s/out", root);
  snprintf(ws[0], sizeof ws[0], "%s/ws1", root);
  snprintf(ws[1], sizeof ws[1], "%s/ws2", root);
  snprintf(missing, sizeof missing, "%s/no-such-transcript", root);
  mkdir(ws[0], 0755);
  mkdir(ws[1], 0755);
  upk_as_run r[8];
  runs8(r, ws, missing);
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -ENOENT);
  cr_assert(strstr(err, "no-such-transcript"), "%s", err);
  cr_assert_not(exists("out"));
  DIR *dd = opendir(root);
  for (struct dirent *de; (de = readdir(dd));)
    cr_assert_null(strstr(de->d_name, ".tmp-"), "%s left behind", de->d_name);
  closedir(dd);

  runs8(r, ws, NULL);
  r[3].run_number = 1; /* eval 2, with_skill, run 1 twice */
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "run 1 twice"), "%s", err);
  runs8(r, ws, NULL);
  r[0].configuration = "baseline";
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -EINVAL);
  runs8(r, ws, NULL);
  r[1].prompt = "another prompt";
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "two prompts"), "%s", err);
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 0, err, sizeof err), -EINVAL);

  runs8(r, ws, NULL);
  static const char *const GONE[] = {"made.txt"};
  r[2].files_created = GONE;
  r[2].n_files_created = 1;
  r[2].workspace = ws[0];
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -ENOENT);
  cr_assert(strstr(err, "'made.txt'"), "%s", err);
  cr_assert_not(exists("out"));

  runs8(r, ws, NULL);
  put("out/keep.txt", "mine", 4);
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), -EEXIST);
  cr_assert(exists("out/keep.txt"));
  unlink(strcat(strcpy(missing, dir), "/keep.txt"));
  cr_assert_eq(upk_agentskills_write(dir, "x", NULL, r, 8, err, sizeof err), 0, "%s", err);
  cr_assert(exists("out/benchmark.json"), "an empty directory is filled");
}
