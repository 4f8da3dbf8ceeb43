/* The skill index: scanning roots, lookup ranking and `why`, shadowing,
 * refresh, hostile task text, hostile trees, the cache file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "skills/index.h"
#include "skills/skill.h"

static char tmp[PATH_MAX];

static void rm_rf(const char *p) {
  char cmd[PATH_MAX + 32];
  snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", p, p);
  (void)!system(cmd);
}

static void setup(void) {
  snprintf(tmp, sizeof tmp, "/tmp/upk-index-XXXXXX");
  cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void) {
  rm_rf(tmp);
}

static void mkdir_p(const char *path) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", path);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      mkdir(p, 0755);
      *s = '/';
    }
  mkdir(p, 0755);
}

static void write_file(const char *path, const char *text) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  *strrchr(dir, '/') = 0;
  mkdir_p(dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

/* root/<dir>/SKILL.md with a name, a description and a body. */
static void skill(const char *root, const char *dir, const char *desc, const char *body) {
  char path[PATH_MAX], text[8192];
  snprintf(path, sizeof path, "%s/%s/SKILL.md", root, dir);
  snprintf(text, sizeof text, "---\nname: %s\ndescription: %s\n---\n%s\n", dir, desc, body);
  write_file(path, text);
}

static char *at(const char *rel) {
  static char buf[4][PATH_MAX];
  static int k;
  char *b = buf[k++ % 4];
  snprintf(b, PATH_MAX, "%s/%s", tmp, rel);
  return b;
}

static upk_index *open_with(const upk_index_root *roots, size_t n, upk_diags *diags) {
  upk_index *ix;
  cr_assert_eq(upk_index_open(&ix, NULL), 0);
  cr_assert_eq(upk_index_set_roots(ix, roots, n), 0, "%s", upk_index_errmsg(ix));
  upk_index_stats st;
  cr_assert_eq(upk_index_scan(ix, &st, diags), 0, "%s", upk_index_errmsg(ix));
  return ix;
}

/* A small library of skills, worded as people publish them. */
static void library(const char *root) {
  skill(root, "pdf-processing",
        "Extract text and tables from PDF files, fill PDF forms, merge and split documents. "
        "Use when working with PDF files.",
        "# PDF processing\n\n## Fill a form\nUse pypdf to read AcroForm fields and write "
        "values.\n\n## Merge\n```python\nfrom pypdf import PdfWriter\n```\n");
  skill(root, "git-commit-messages",
        "Write conventional commit messages from staged changes. Use before committing.",
        "# Commit messages\n\nRun `git diff --staged`, summarize the change in the imperative "
        "mood, keep the subject under 50 characters.\n");
  skill(root, "kubernetes-deploy",
        "Deploy services to Kubernetes clusters with kubectl and Helm; roll back failed "
        "rollouts.",
        "# Deploying\n\n## Rollout\n`kubectl rollout status deploy/x`\n\n## Rollback\n"
        "`kubectl rollout undo`\n");
  skill(root, "react-testing", "Write tests for React components with Testing Library and Jest.",
        "# React tests\n\nRender the component, query by role, assert on what the user sees. "
        "Mock fetch calls.\n");
  skill(root, "sql-query-tuning",
        "Speed up slow PostgreSQL queries: read EXPLAIN ANALYZE plans, add indexes, rewrite "
        "joins.",
        "# Query tuning\n\n## Read the plan\nLook for sequential scans on large tables.\n");
  skill(root, "release-notes",
        "Draft release notes and changelogs from merged pull requests and tags.",
        "# Release notes\n\nGroup changes into Added, Changed, Fixed. Link each pull request.\n");
  skill(root, "docker-compose-dev",
        "Set up local development environments with Docker Compose: services, volumes, "
        "healthchecks.",
        "# Compose\n\nWrite docker-compose.yml with one service per process.\n");
  skill(root, "cuda-kernel-debugging",
        "Debug CUDA kernels: illegal memory access, sticky errors, compute-sanitizer.",
        "# Debugging kernels\n\nRun compute-sanitizer --tool memcheck on the binary.\n");
}

static void expect_top(upk_index *ix, const char *task, const char *want) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 5, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_gt(h.len, 0, "no hit for '%s'", task);
  cr_expect_str_eq(h.items[0].e.name, want, "'%s' ranked %s first (why: %s)", task,
                   h.items[0].e.name, h.items[0].why);
  upk_index_hits_free(&h);
}

/* The top hit for task is want, and its why holds why_part. */
static void expect_top_why(upk_index *ix, const char *task, const char *want,
                           const char *why_part) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 5, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_gt(h.len, 0, "no hit for '%s'", task);
  cr_assert_str_eq(h.items[0].e.name, want, "'%s' ranked %s first", task, h.items[0].e.name);
  cr_assert_not_null(strstr(h.items[0].why, why_part), "'%s': why %s", task, h.items[0].why);
  upk_index_hits_free(&h);
}

TestSuite(index, .init = setup, .fini = teardown);

UTest(index, scans_and_lists) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  cr_assert_eq(upk_index_count(ix), 8);
  upk_index_entries e;
  cr_assert_eq(upk_index_list(ix, NULL, NULL, &e), 0);
  cr_assert_eq(e.len, 8);
  cr_assert_str_eq(e.items[0].name, "cuda-kernel-debugging"); /* ordered by name */
  cr_assert_str_eq(e.items[0].agent, "claude");
  cr_assert(e.items[0].usable && !e.items[0].shadowed);
  char *real = realpath(at("skills/cuda-kernel-debugging"), NULL);
  char want[PATH_MAX];
  snprintf(want, sizeof want, "%s/SKILL.md", real);
  cr_assert_str_eq(e.items[0].path, want);
  free(real);
  upk_index_entries_free(&e);
  upk_index_scope user = UPK_INDEX_USER;
  cr_assert_eq(upk_index_list(ix, NULL, &user, &e), 0);
  cr_assert_eq(e.len, 0);
  upk_index_entries_free(&e);
  upk_index_close(ix);
}

UTest(index, paraphrased_tasks_rank_the_right_skill_first) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  expect_top(ix, "I need to fill out a form inside a PDF", "pdf-processing");
  expect_top(ix, "my postgres query takes forever, how do I make it faster?", "sql-query-tuning");
  expect_top(ix, "add unit tests for the React login component", "react-testing");
  expect_top(ix, "the k8s rollout failed, undo it", "kubernetes-deploy");
  expect_top(ix, "summarize merged PRs into a changelog for v2.0", "release-notes");
  expect_top(ix, "what should my commit message say for these staged changes",
             "git-commit-messages");
  expect_top(ix, "illegal memory access in my kernel", "cuda-kernel-debugging");
  upk_index_close(ix);
}

UTest(index, camel_case_identifiers_match_words) {
  skill(at("s"), "aws-iam", "Debug access denied errors from AWS by fixing IAM policies.", "IAM.");
  skill(at("s"), "aws-lambda", "Deploy AWS Lambda functions.", "Handlers.");
  upk_index_root r = {at("s"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  expect_top_why(ix, "AccessDenied from aws", "aws-iam", "accessdenied (description)");
  upk_index_close(ix);
}

UTest(index, why_names_matched_terms_and_fields) {
  library(at("skills"));
  upk_index_root r = {at("skills"), NULL, UPK_INDEX_BUILTIN, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "merge two PDFs", 3, NULL, 0, &h), 0);
  cr_assert_gt(h.len, 0);
  upk_index_hit *top = &h.items[0];
  cr_assert_str_eq(top->e.name, "pdf-processing");
  cr_assert_null(top->e.agent);
  cr_assert_eq(top->e.scope, UPK_INDEX_BUILTIN);
  cr_assert_gt(top->score, 0);
  cr_assert_not_null(strstr(top->why, "merge ("), "why: %s", top->why);
  cr_assert_not_null(strstr(top->why, "pdfs (name"), "why: %s", top->why);
  bool saw_pdf = false;
  for (size_t i = 0; i < top->n_matches; i++)
    if (!strcmp(top->matches[i].term, "pdfs")) {
      saw_pdf = true;
      cr_assert(top->matches[i].fields & UPK_FIELD_NAME);
      cr_assert(top->matches[i].fields & UPK_FIELD_DESCRIPTION);
    }
  cr_assert(saw_pdf);
  upk_index_hits_free(&h);
  upk_index_close(ix);
}

UTest(index, project_shadows_user_and_it_is_reported) {
  skill(at("proj"), "deploy", "Deploy this repository's web app to staging.", "Project way.");
  skill(at("home"), "deploy", "Deploy anything to production servers.", "User way.");
  skill(at("home"), "lint", "Lint code.", "Run the linter.");
  upk_index_root r[] = {{at("home"), "claude", UPK_INDEX_USER, 0, 0},
                        {at("proj"), "claude", UPK_INDEX_PROJECT, 0, 0}};
  upk_diags d = {0};
  upk_index *ix = open_with(r, 2, &d);
  bool reported = false;
  for (size_t i = 0; i < d.len; i++)
    if (!strcmp(d.items[i].code, "index/shadowed")) {
      reported = true;
      cr_assert_str_eq(d.items[i].file, at("home/deploy"));
      cr_assert_not_null(strstr(d.items[i].message, at("proj/deploy")), "%s", d.items[i].message);
    }
  cr_assert(reported);
  upk_diags_free(&d);
  upk_index_shadow *sh;
  size_t n;
  cr_assert_eq(upk_index_shadows(ix, &sh, &n), 0);
  cr_assert_eq(n, 1);
  cr_assert_str_eq(sh[0].winner, at("proj/deploy"));
  cr_assert_str_eq(sh[0].shadowed, at("home/deploy"));
  cr_assert_eq(sh[0].winner_scope, UPK_INDEX_PROJECT);
  cr_assert_str_eq(sh[0].agent, "claude");
  upk_index_shadows_free(sh, n);
  /* a page's names only (inclusive range) */
  cr_assert_eq(upk_index_shadows_between(ix, "deploy", "lint", &sh, &n), 0);
  cr_assert_eq(n, 1);
  upk_index_shadows_free(sh, n);
  cr_assert_eq(upk_index_shadows_between(ix, "e", "lint", &sh, &n), 0);
  cr_assert_eq(n, 0);
  upk_index_shadows_free(sh, n);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "deploy to production", 5, NULL, 0, &h), 0);
  cr_assert_eq(h.len, 1, "the shadowed skill must not be offered");
  cr_assert_str_eq(h.items[0].e.dir, at("proj/deploy"));
  upk_index_hits_free(&h);
  upk_index_skill s;
  cr_assert_eq(upk_index_get(ix, "deploy", "claude", &s), 0);
  cr_assert_str_eq(s.e.dir, at("proj/deploy"));
  upk_index_skill_free(&s);
  upk_index_close(ix);
}

UTest(index, agents_filter_and_shared_directories) {
  skill(at("codex"), "terraform-plan", "Review Terraform plans before apply.", "tf plan");
  skill(at("shared"), "helm-charts", "Write Helm charts for Kubernetes.", "helm");
  skill(at("builtin"), "h100-cuda-kernels", "Write CUDA kernels for H100.", "sm_90a");
  upk_index_root r[] = {{at("codex"), "codex", UPK_INDEX_PROJECT, 0, 0},
                        {at("shared"), "codex", UPK_INDEX_USER, 0, 0},
                        {at("shared"), "gemini", UPK_INDEX_USER, 0, 0},
                        {at("builtin"), NULL, UPK_INDEX_BUILTIN, -1, 0}};
  upk_index *ix = open_with(r, 4, NULL);
  const char *claude[] = {"claude"}, *gemini[] = {"gemini"};
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "terraform plan review", 5, claude, 1, &h), 0);
  for (size_t i = 0; i < h.len; i++)
    cr_assert_str_neq(h.items[i].e.name, "terraform-plan");
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_lookup(ix, "helm chart", 5, NULL, 0, &h), 0);
  cr_assert_eq(h.len, 1, "one SKILL.md seen by two agents is one hit");
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_lookup(ix, "helm chart", 5, gemini, 1, &h), 0);
  cr_assert_eq(h.len, 1);
  cr_assert_str_eq(h.items[0].e.agent, "gemini");
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_lookup(ix, "cuda kernel for h100", 5, claude, 1, &h), 0);
  cr_assert_eq(h.len, 1, "builtin skills are candidates for every agent");
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_count(ix), 3);
  upk_index_close(ix);
}

/* Copies of one skill (other files, one name) in several places are one hit,
 * ranked where the best copy ranked and placed at the installed copy agents
 * read first (project before user scope), never at the built-in one when one
 * is installed, even one that did not rank; they leave room for the next
 * names however few hits are asked for. */
UTest(index, a_skill_installed_and_built_in_is_one_hit_at_its_installed_copy) {
  skill(at("builtin"), "helm-charts", "Write Helm charts and chart templates for Kubernetes.",
        "helm chart helm chart templates values");
  skill(at("claude"), "helm-charts", "Write Helm charts for Kubernetes.", "helm chart values");
  skill(at("codex"), "helm-charts", "Helm charts.", "notes");
  skill(at("claude"), "kube-lint", "Lint Kubernetes manifests before a chart release.", "lint");
  upk_index_root r[] = {{at("builtin"), NULL, UPK_INDEX_BUILTIN, -1, 0},
                        {at("codex"), "codex", UPK_INDEX_USER, 0, 0}, /* found first */
                        {at("claude"), "claude", UPK_INDEX_PROJECT, 0, 0}};
  upk_index *ix = open_with(r, 3, NULL);
  const char *task = "write helm chart templates for kubernetes";
  upk_index_hits h;
  for (size_t limit = 1; limit <= 3; limit++) {
    cr_assert_eq(upk_index_lookup(ix, task, limit, NULL, 0, &h), 0);
    cr_assert_eq(h.len, limit < 2 ? limit : 2, "limit %zu: %zu hits", limit, h.len);
    cr_assert_str_eq(h.items[0].e.name, "helm-charts");
    cr_assert_eq(h.items[0].e.scope, UPK_INDEX_PROJECT, "the installed copy read first");
    cr_assert_str_eq(h.items[0].e.agent, "claude");
    cr_assert_str_eq(h.items[0].e.description, "Write Helm charts for Kubernetes.");
    cr_assert(strstr(h.items[0].why, "templates (description"), "ranked as the best copy: %s",
              h.items[0].why);
    if (h.len > 1)
      cr_assert_str_eq(h.items[1].e.name, "kube-lint");
    upk_index_hits_free(&h);
  }
  const char *codex[] = {"codex"};
  cr_assert_eq(upk_index_lookup(ix, task, 1, codex, 1, &h), 0);
  cr_assert_eq(h.len, 1);
  cr_assert_str_eq(h.items[0].e.agent, "codex", "the copy that agent reads");
  upk_index_hits_free(&h);
  upk_index_close(ix);
}

/* A SKILL.md several agents read is reported with the placement read first:
 * the highest priority, then the scope's order, then the roots' order. */
UTest(index, a_shared_skill_is_reported_where_it_is_read_first) {
  skill(at("shared"), "helm-charts", "Write Helm charts for Kubernetes.", "helm");
  upk_index_root r[] = {{at("shared"), "codex", UPK_INDEX_PROJECT, 0, 0},
                        {at("shared"), "gemini", UPK_INDEX_USER, 5, 0},
                        {at("shared"), "claude", UPK_INDEX_PROJECT, 5, 0},
                        {at("shared"), "cursor", UPK_INDEX_PROJECT, 5, 0}};
  upk_index *ix = open_with(r, 4, NULL);
  static const struct {
    const char *agents[4];
    size_t n;
    const char *want;
  } cases[] = {
      {{"codex", "gemini", "claude", "cursor"}, 4, "claude"},
      {{"codex", "gemini"}, 2, "gemini"},  /* priority before scope */
      {{"gemini", "cursor"}, 2, "cursor"}, /* scope before the roots' order */
      {{"cursor", "claude"}, 2, "claude"}, /* the roots' order, not the agents' */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    upk_index_hits h;
    cr_assert_eq(upk_index_lookup(ix, "helm chart", 5, cases[i].agents, cases[i].n, &h), 0);
    cr_assert_eq(h.len, 1);
    cr_assert_str_eq(h.items[0].e.agent, cases[i].want, "case %zu", i);
    upk_index_hits_free(&h);
  }
  upk_index_close(ix);
}

static size_t hits_for(upk_index *ix, const char *task, const char *name) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 10, NULL, 0, &h), 0);
  size_t n = 0;
  for (size_t i = 0; i < h.len; i++)
    n += !strcmp(h.items[i].e.name, name);
  upk_index_hits_free(&h);
  return n;
}

UTest(index, refresh_after_add_change_remove) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  /* add */
  skill(at("skills"), "oauth-login", "Add OAuth2 login with PKCE to a web app.", "Redirect.");
  cr_assert_eq(upk_index_refresh(ix, at("skills/oauth-login"), NULL), 1);
  cr_assert_eq(hits_for(ix, "PKCE login", "oauth-login"), 1);
  /* change: the description no longer speaks of PKCE; the mtime may not tick */
  skill(at("skills"), "oauth-login", "Add single sign-on with SAML.", "Assertions, metadata.");
  cr_assert_eq(upk_index_refresh(ix, at("skills/oauth-login/SKILL.md"), NULL), 1);
  cr_assert_eq(hits_for(ix, "PKCE", "oauth-login"), 0);
  cr_assert_eq(hits_for(ix, "SAML single sign-on", "oauth-login"), 1);
  /* remove */
  rm_rf(at("skills/oauth-login"));
  cr_assert_eq(upk_index_refresh(ix, at("skills/oauth-login"), NULL), 1);
  cr_assert_eq(hits_for(ix, "SAML single sign-on", "oauth-login"), 0);
  cr_assert_eq(upk_index_count(ix), 8);
  /* a file inside a skill, the root itself, and a path outside every root */
  write_file(at("skills/release-notes/templates/notes.md"), "x");
  cr_assert_eq(upk_index_refresh(ix, at("skills/release-notes/templates/notes.md"), NULL), 1);
  rm_rf(at("skills/react-testing"));
  cr_assert_eq(upk_index_refresh(ix, at("skills"), NULL), 1);
  cr_assert_eq(upk_index_count(ix), 7);
  cr_assert_eq(upk_index_refresh(ix, "/nonexistent/elsewhere", NULL), 0);
  upk_index_close(ix);
}

/* What an editor's save does: a temporary file, then a rename over SKILL.md;
 * both paths come in one burst and are one rescan, in one transaction. */
UTest(index, refresh_many_takes_a_burst_of_paths) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  skill(at("skills"), "oauth-login", "Add OAuth2 login with PKCE to a web app.", "Redirect.");
  write_file(at("skills/oauth-login/SKILL.md.tmp"), "x");
  const char *paths[] = {at("skills/oauth-login/SKILL.md.tmp"), at("skills/oauth-login/SKILL.md"),
                         "/nonexistent/elsewhere"};
  cr_assert_eq(upk_index_refresh_many(ix, paths, 3, NULL), 1, "one path belongs to no root");
  cr_assert_eq(hits_for(ix, "PKCE login", "oauth-login"), 1);
  cr_assert_eq(upk_index_count(ix), 9);
  const char *bad[] = {at("skills"), ""};
  cr_assert_eq(upk_index_refresh_many(ix, bad, 2, NULL), -EINVAL);
  upk_index_close(ix);
}

/* The body is searched as prose: a word only in a code block does not find
 * the skill (a task is said in words; identifiers in examples matched
 * tasks by accident), nor does one past the first UPK_INDEX_BODY_MAX bytes. */
UTest(index, body_is_searched_as_prose) {
  char body[16384];
  int n = snprintf(body, sizeof body,
                   "# Usage\n\nRotate the quokkaprose keys.\n\n```sh\nwombatcode --now\n```\n\n"
                   "    indented numbatcode\n\n");
  while (n < 12000)
    n += snprintf(body + n, sizeof body - (size_t)n, "Filler words about nothing at all. ");
  snprintf(body + n, sizeof body - (size_t)n, "\n\nLate bilbylate mention.\n");
  skill(at("skills"), "key-rotation", "Rotate credentials on a schedule.", body);
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  cr_assert_eq(hits_for(ix, "quokkaprose", "key-rotation"), 1);
  cr_assert_eq(hits_for(ix, "wombatcode", "key-rotation"), 0);
  cr_assert_eq(hits_for(ix, "numbatcode", "key-rotation"), 0);
  cr_assert_eq(hits_for(ix, "bilbylate", "key-rotation"), 0);
  upk_index_close(ix);
}

/* Open the cache file at o, set the n roots r and scan: what a daemon's start does. */
static upk_index *open_roots(const upk_index_options *o, const upk_index_root *r, size_t n,
                             upk_index_stats *st) {
  upk_index *ix;
  cr_assert_eq(upk_index_open(&ix, o), 0);
  cr_assert_eq(upk_index_set_roots(ix, r, n), 0);
  cr_assert_eq(upk_index_scan(ix, st, NULL), 0, "%s", upk_index_errmsg(ix));
  return ix;
}

static upk_index *open_cached(const upk_index_options *o, const upk_index_root *r,
                              upk_index_stats *st) {
  return open_roots(o, r, 1, st);
}

/* A restart's rescan writes only what changed: skills removed or added while
 * no daemon ran are still found out. */
UTest(index, restart_rescan_finds_what_changed_meanwhile) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index_options o = {.db_path = at("cache/index.sqlite")};
  upk_index_stats st;
  upk_index_close(open_cached(&o, &r, &st));
  rm_rf(at("skills/react-testing"));
  skill(at("skills"), "oauth-login", "Add OAuth2 login with PKCE to a web app.", "Redirect.");
  upk_index *ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.parsed, 1);
  cr_assert_eq(st.unchanged, 7);
  cr_assert_eq(st.removed, 1);
  cr_assert_eq(upk_index_count(ix), 8);
  cr_assert_eq(hits_for(ix, "PKCE login", "oauth-login"), 1);
  cr_assert_eq(hits_for(ix, "React components Testing Library", "react-testing"), 0);
  upk_index_entries all;
  cr_assert_eq(upk_index_list(ix, NULL, NULL, &all), 0);
  cr_assert_eq(all.len, 8);
  for (size_t i = 0; i < all.len; i++)
    cr_assert_str_neq(all.items[i].name, "react-testing");
  upk_index_entries_free(&all);
  upk_index_close(ix);
  /* The placement added last is stored last, out of the walk's order: the next restart finds it
   * all the same (none is swept and written again). */
  skill(at("skills"), "release-notes", "Draft release notes from merged pull requests.", "Tags.");
  ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.parsed, 1);
  cr_assert_eq(st.removed, 0);
  cr_assert_eq(upk_index_count(ix), 8);
  cr_assert_eq(hits_for(ix, "PKCE login", "oauth-login"), 1);
  upk_index_close(ix);
}

/* The stored generation (table scan_gen) and the newest placement's, read through a second
 * connection. */
static void gens(const char *db_path, int64_t *stored, int64_t *newest) {
  sqlite3 *db;
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_open(db_path, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_prepare_v2(db,
                                  "SELECT (SELECT gen FROM scan_gen), (SELECT max(gen) FROM place)",
                                  -1, &st, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  *stored = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
  *newest = sqlite3_column_int64(st, 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* A restart reads the placements' generation from one stored row (a scan of 240,000
 * placements took 18-34 ms): the row is written with the placements, by a scan and by a
 * refresh, and a file without it (written before it existed) falls back to the scan. Either
 * way a skill removed meanwhile is swept. */
UTest(index, the_placements_generation_is_stored_with_them) {
  library(at("skills"));
  char db[PATH_MAX], root[PATH_MAX]; /* at()'s buffers are reused */
  snprintf(db, sizeof db, "%s", at("cache/index.sqlite"));
  snprintf(root, sizeof root, "%s", at("skills"));
  upk_index_root r = {root, "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index_options o = {.db_path = db};
  upk_index_stats st;
  int64_t stored, newest, first;
  upk_index *ix = open_cached(&o, &r, &st);
  gens(db, &stored, &newest);
  cr_assert(newest > 0 && stored == newest, "stored %lld, newest %lld", (long long)stored,
            (long long)newest);
  first = newest;
  skill(at("skills"), "oauth-login", "Add OAuth2 login with PKCE to a web app.", "Redirect.");
  cr_assert_eq(upk_index_refresh(ix, at("skills/oauth-login"), NULL), 1, "%s",
               upk_index_errmsg(ix));
  gens(db, &stored, &newest);
  cr_assert(newest > first && stored == newest, "after a refresh: stored %lld, newest %lld",
            (long long)stored, (long long)newest);
  upk_index_close(ix);

  rm_rf(at("skills/react-testing"));
  ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.removed, 1);
  cr_assert_eq(hits_for(ix, "React components Testing Library", "react-testing"), 0);
  upk_index_close(ix);

  sqlite3 *h;
  cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(h, "DELETE FROM scan_gen", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(h);
  rm_rf(at("skills/oauth-login"));
  ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.removed, 1, "without the row: %zu removed", st.removed);
  cr_assert_eq(hits_for(ix, "PKCE login", "oauth-login"), 0);
  upk_index_close(ix);
}

/* tmp/skills as a root with a cache file, in buffers of their own (at()'s are reused), and
 * its first index. */
typedef struct cached {
  char root[PATH_MAX], db[PATH_MAX];
  upk_index_root r;
  upk_index_options o;
} cached;

static void first_index(cached *c, int max_depth) {
  snprintf(c->root, PATH_MAX, "%s", at("skills"));
  snprintf(c->db, PATH_MAX, "%s", at("cache/index.sqlite"));
  c->r = (upk_index_root){c->root, "claude", UPK_INDEX_PROJECT, 0, max_depth};
  c->o = (upk_index_options){.db_path = c->db};
  upk_index_stats st;
  upk_index_close(open_cached(&c->o, &c->r, &st));
  cr_assert(!st.same_tree, "a first index");
}

/* dir/SKILL.md made another name of from/SKILL.md: one inode, one mtime, another path. */
static void same_skill_file(const char *from, const char *dir) {
  char a[PATH_MAX], b[PATH_MAX];
  snprintf(a, sizeof a, "%s/SKILL.md", from);
  snprintf(b, sizeof b, "%s/SKILL.md", dir);
  mkdir_p(dir);
  cr_assert_eq(link(a, b), 0);
}

/* The link `link` (under tmp) made to lead to `target`; a restart must then not trust the
 * tree, and read skill `name` at `want` (all relative to tmp). */
static void relink_then_restart(cached *c, const char *link, const char *target, const char *name,
                                const char *want) {
  char l[PATH_MAX];
  snprintf(l, sizeof l, "%s", at(link));
  cr_assert_eq(unlink(l), 0);
  cr_assert_eq(symlink(at(target), l), 0);
  upk_index_stats st;
  upk_index *ix = open_cached(&c->o, &c->r, &st);
  cr_assert(!st.same_tree);
  upk_index_skill sk;
  cr_assert_eq(upk_index_get(ix, name, NULL, &sk), 0);
  cr_assert_str_eq(sk.e.path, at(want));
  upk_index_skill_free(&sk);
  upk_index_close(ix);
}

/* A file's text and times, to put it back exactly as it was: same size, mtime and inode. */
typedef struct saved_file {
  char path[PATH_MAX], text[4096];
  size_t len;
  struct stat st;
} saved_file;

static void save_file(saved_file *f, const char *path) {
  snprintf(f->path, sizeof f->path, "%s", path);
  cr_assert_eq(stat(path, &f->st), 0);
  FILE *in = fopen(path, "r");
  cr_assert_not_null(in);
  f->len = fread(f->text, 1, sizeof f->text, in);
  fclose(in);
}

static void restore_file(const saved_file *f) {
  FILE *out = fopen(f->path, "w"); /* in place: the inode stays */
  cr_assert_not_null(out);
  fwrite(f->text, 1, f->len, out);
  fclose(out);
  struct timespec times[2] = {f->st.st_atim, f->st.st_mtim};
  cr_assert_eq(utimensat(AT_FDCWD, f->path, times, 0), 0);
}

/* A restart whose walk finds the tree as the last complete scan left it writes nothing and
 * looks nothing up (same_tree); anything a full check would catch defeats that: an edit, a
 * refresh written in between (even one the tree went back on), a skill directory that is a
 * link now leading elsewhere to the very same file, another directory limit. */
UTest(index, a_restart_trusts_only_the_tree_it_indexed_last) {
  library(at("skills"));
  skill(at("a"), "linked-skill", "Calibrate the frobnitz sensor array.", "Steps.");
  same_skill_file(at("a/linked-skill"), at("b/linked-skill"));
  cr_assert_eq(symlink(at("a/linked-skill"), at("skills/linked-skill")), 0);
  cached c;
  first_index(&c, 0);
  upk_index_stats st;
  upk_index_close(open_cached(&c.o, &c.r, &st));
  cr_assert(st.same_tree);
  cr_assert_eq(st.skills, 9);
  cr_assert_eq(st.unchanged, 9);
  cr_assert_eq(st.parsed, 0);
  /* an edit */
  skill(at("skills"), "release-notes", "Draft release notes from the quuxly changelog.", "x");
  upk_index *ix = open_cached(&c.o, &c.r, &st);
  cr_assert(!st.same_tree);
  cr_assert_eq(st.parsed, 1);
  cr_assert_eq(hits_for(ix, "quuxly changelog", "release-notes"), 1);
  upk_index_close(ix);
  upk_index_close(open_cached(&c.o, &c.r, &st));
  cr_assert(st.same_tree);
  /* a refresh, then the file back as it was: same size, mtime and inode as last scanned */
  saved_file was;
  save_file(&was, at("skills/react-testing/SKILL.md"));
  ix = open_cached(&c.o, &c.r, &st);
  skill(at("skills"), "react-testing", "Snapshot the wibblefrost components.", "changed");
  cr_assert_geq(upk_index_refresh(ix, at("skills/react-testing"), NULL), 0);
  cr_assert_eq(hits_for(ix, "wibblefrost", "react-testing"), 1);
  upk_index_close(ix);
  restore_file(&was);
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert(!st.same_tree, "a refresh wrote since the last complete scan");
  cr_assert_eq(hits_for(ix, "wibblefrost", "react-testing"), 0);
  cr_assert_eq(hits_for(ix, "React components Testing Library", "react-testing"), 1);
  upk_index_close(ix);
  /* the link now leads to the same file (one inode, one mtime) in another directory */
  relink_then_restart(&c, "skills/linked-skill", "b/linked-skill", "linked-skill",
                      "b/linked-skill/SKILL.md");
  /* a root set aside and taken back (its id comes back, its placements do not) */
  skill(at("extra"), "extra-skill", "Polish the grommet inventory.", "x");
  char extra[PATH_MAX];
  snprintf(extra, sizeof extra, "%s", at("extra"));
  upk_index_root two[] = {c.r, {extra, "claude", UPK_INDEX_USER, 0, 0}};
  cr_assert_eq(upk_index_open(&ix, &c.o), 0);
  cr_assert_eq(upk_index_set_roots(ix, two, 2), 0);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0);
  upk_index_close(ix);
  cr_assert_eq(upk_index_open(&ix, &c.o), 0);
  cr_assert_eq(upk_index_set_roots(ix, two, 1), 0);
  cr_assert_eq(upk_index_set_roots(ix, two, 2), 0);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0);
  cr_assert(!st.same_tree);
  cr_assert_eq(hits_for(ix, "grommet inventory", "extra-skill"), 1);
  upk_index_close(ix);
  /* another directory limit */
  upk_index_options few = c.o;
  few.max_dirs = 3;
  ix = open_cached(&few, &c.r, &st);
  cr_assert(!st.same_tree);
  cr_assert_eq(upk_index_count(ix), 3);
  upk_index_close(ix);
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert(!st.same_tree);
  cr_assert_eq(upk_index_count(ix), 9);
  upk_index_close(ix);
}

/* A folder of skills under a root that is a link: switched to another folder holding the
 * same files (hard links: one inode, one mtime), a restart finds each skill where it now is. */
UTest(index, a_restart_follows_a_folder_link_to_the_same_files) {
  skill(at("lib1"), "frob-tuning", "Tune the frobnitz.", "x");
  same_skill_file(at("lib1/frob-tuning"), at("lib2/frob-tuning"));
  mkdir_p(at("skills"));
  cr_assert_eq(symlink(at("lib1"), at("skills/group")), 0);
  cached c;
  first_index(&c, 2);
  relink_then_restart(&c, "skills/group", "lib2", "frob-tuning", "lib2/frob-tuning/SKILL.md");
}

/* A refresh between the steps of a full scan (the daemon answers between them) writes after
 * the scan's walk: that scan leaves no digest, and the next one checks every skill. Nor does
 * a scan that did not end. */
UTest(index, a_scan_with_a_refresh_between_its_steps_is_not_trusted_later) {
  library(at("skills"));
  cached c;
  first_index(&c, 0);
  upk_index_stats st;
  upk_index *ix;
  cr_assert_eq(upk_index_open(&ix, &c.o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &c.r, 1), 0);
  skill(at("skills"), "sql-query-tuning", "Tune the zanzibar query planner.", "x");
  size_t total;
  cr_assert_eq(upk_index_scan_begin(ix, &total, NULL), 0);
  cr_assert_eq(upk_index_scan_step(ix, 1, &st, NULL), 1);
  cr_assert_geq(upk_index_refresh(ix, at("skills/sql-query-tuning"), NULL), 0);
  cr_assert_eq(upk_index_scan_step(ix, SIZE_MAX, &st, NULL), 0);
  upk_index_close(ix);
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert(!st.same_tree);
  cr_assert_eq(hits_for(ix, "zanzibar planner", "sql-query-tuning"), 1);
  upk_index_close(ix);
  upk_index_close(open_cached(&c.o, &c.r, &st));
  cr_assert(st.same_tree);
  /* A scan cut short after writing its first step, then the tree back as it was indexed:
   * what that step wrote is not what the digest stands for. */
  saved_file was;
  save_file(&was, at("skills/cuda-kernel-debugging/SKILL.md")); /* the walk's first */
  skill(at("skills"), "cuda-kernel-debugging", "Debug the flimflam kernels.", "x");
  cr_assert_eq(upk_index_open(&ix, &c.o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &c.r, 1), 0);
  cr_assert_eq(upk_index_scan_begin(ix, &total, NULL), 0);
  cr_assert_eq(upk_index_scan_step(ix, 1, &st, NULL), 1);
  upk_index_close(ix);
  restore_file(&was);
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert(!st.same_tree);
  cr_assert_eq(hits_for(ix, "flimflam", "cuda-kernel-debugging"), 0);
  cr_assert_eq(hits_for(ix, "compute-sanitizer memcheck", "cuda-kernel-debugging"), 1);
  upk_index_close(ix);
}

static int db_int(const char *db_path, const char *sql);

/* A restart that finds a few skills changed leaves the word statistics (df) as a refresh
 * does, stale: retaking them walks the whole FTS index. A new word is still found (asked as a
 * prefix). A twentieth of the skills changed, they are taken again. */
UTest(index, a_restart_with_few_changes_keeps_the_word_statistics) {
  char dir[64], desc[128];
  for (int i = 0; i < 40; i++) {
    snprintf(dir, sizeof dir, "skill-%02d", i);
    snprintf(desc, sizeof desc, "Handle chore number %d for the team.", i);
    skill(at("skills"), dir, desc, "Steps.");
  }
  cached c;
  first_index(&c, 0);
  upk_index_stats st;
  upk_index *ix = open_cached(&c.o, &c.r, &st);
  while (upk_index_tidy(ix, 50) == 1) /* the merge the first index left, and its snapshot */
    ;
  cr_assert_gt(db_int(c.db, "SELECT count(*) FROM df"), 0);
  upk_index_close(ix);
  const char *df_of = "SELECT count(*) FROM df WHERE term IN ('zorblax', 'quorbix')";
  cr_assert_eq(db_int(c.db, df_of), 0);
  skill(at("skills"), "new-one", "Polish the zorblax.", "x");
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert_eq(st.parsed, 1);
  cr_assert_eq(hits_for(ix, "zorblax", "new-one"), 1);
  upk_index_close(ix);
  cr_assert_eq(db_int(c.db, df_of), 0, "one skill in 41: the statistics are kept");
  skill(at("skills"), "skill-01", "Tune the quorbix.", "x");
  skill(at("skills"), "skill-02", "Tune the quorbix again.", "x");
  skill(at("skills"), "skill-03", "Tune the quorbix once more.", "x");
  ix = open_cached(&c.o, &c.r, &st);
  cr_assert_eq(st.parsed, 3);
  upk_index_close(ix);
  cr_assert_eq(db_int(c.db, df_of), 2, "3 skills in 41 (and the one before): taken again");
}

/* A folder of more skills than PREFETCH_MIN (their SKILL.md are stat'ed on two threads
 * ahead of the walk): a restart finds each one unchanged but the two edited meanwhile, the
 * lowercase skill.md, and nothing in a plain file or in a SKILL.md that is a directory. */
UTest(index, a_restart_of_a_large_folder_finds_each_change) {
  enum { N = 600 };
  char dir[64], desc[128];
  for (int i = 0; i < N; i++) {
    snprintf(dir, sizeof dir, "skill-%03d", i);
    snprintf(desc, sizeof desc, "Handle task number %d for the team.", i);
    skill(at("big"), dir, desc, "Steps.");
  }
  write_file(at("big/lower-case/skill.md"),
             "---\nname: lower-case\ndescription: Lowercase.\n---\n");
  write_file(at("big/not-a-skill.txt"), "text\n");
  mkdir_p(at("big/odd/SKILL.md"));
  upk_index_root r = {at("big"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index_options o = {.db_path = at("cache/index.sqlite")};
  upk_index_stats st;
  upk_index_close(open_cached(&o, &r, &st));
  cr_assert_eq(st.parsed, N + 1);
  skill(at("big"), "skill-007", "Rotate the signing keys of the zorblat service.", "Longer now.");
  skill(at("big"), "skill-599", "Plan the quarterly quibbleton budget review.", "Longer too.");
  upk_index *ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.parsed, 2);
  cr_assert_eq(st.unchanged, N - 1);
  cr_assert_eq(st.removed, 0);
  cr_assert_eq(upk_index_count(ix), N + 1);
  cr_assert_eq(hits_for(ix, "zorblat signing keys", "skill-007"), 1);
  cr_assert_eq(hits_for(ix, "quibbleton budget", "skill-599"), 1);
  upk_index_close(ix);
}

/* The directory of the placement named `name` that shadowing leaves seen, or "" when none. */
static const char *resolved_dir(upk_index *ix, const char *name) {
  static char dir[PATH_MAX];
  upk_index_entries e;
  dir[0] = '\0';
  cr_assert_eq(upk_index_list(ix, "claude", NULL, &e), 0);
  for (size_t i = 0; i < e.len; i++)
    if (!strcmp(e.items[i].name, name) && !e.items[i].shadowed) {
      cr_assert_eq(dir[0], '\0', "%s is seen twice", name);
      snprintf(dir, sizeof dir, "%s", e.items[i].dir);
    }
  upk_index_entries_free(&e);
  return dir;
}

static upk_index *open_home_and_project(const upk_index_options *o, upk_index_stats *st) {
  upk_index_root r[] = {{at("home"), "claude", UPK_INDEX_USER, 0, 0},
                        {at("proj"), "claude", UPK_INDEX_PROJECT, 0, 0}};
  return open_roots(o, r, 2, st);
}

/* A restart that finds a few skills changed redoes shadowing only for the names they carry,
 * and drops only the documents they left: each kind of change must still be seen. */
UTest(index, a_restart_with_few_changes_redoes_shadowing_where_they_are) {
  char dir[64], desc[128];
  for (int i = 0; i < 100; i++) { /* three changes stay under a twentieth: see complete() */
    snprintf(dir, sizeof dir, "chore-%03d", i);
    snprintf(desc, sizeof desc, "Handle chore number %d for the team.", i);
    skill(at("home"), dir, desc, "Steps.");
  }
  const char *names[] = {"deploy", "lint", "fmt", "tidy"};
  for (int i = 0; i < 4; i++)
    skill(at("home"), names[i], "The user's own way.", "Home.");
  skill(at("proj"), "deploy", "Deploy this repository.", "Project.");
  skill(at("proj"), "fmt", "Format this repository.", "Project.");
  skill(at("proj"), "tidy", "Tidy this repository.", "Project.");
  cr_assert_eq(symlink(at("home/chore-001"), at("proj/alias")), 0);
  char db[PATH_MAX]; /* at()'s buffers are reused */
  snprintf(db, sizeof db, "%s", at("cache/index.sqlite"));
  upk_index_options o = {.db_path = db, .keep_twins = true}; /* home's four are one text */
  upk_index_stats st;
  upk_index *ix = open_home_and_project(&o, &st);
  cr_assert_str_eq(resolved_dir(ix, "deploy"), at("proj/deploy"));
  cr_assert_str_eq(resolved_dir(ix, "fmt"), at("proj/fmt"));
  cr_assert_str_eq(resolved_dir(ix, "lint"), at("home/lint"));
  cr_assert_str_eq(resolved_dir(ix, "tidy"), at("proj/tidy"));
  cr_assert_str_eq(resolved_dir(ix, "chore-001"), at("proj/alias"));
  upk_index_close(ix);
  cr_assert_eq(db_int(db, "SELECT count(*) FROM doc"), 107);
  /* While no daemon runs: a skill removed, one renamed onto a name the user has, one made
   * unusable under the same name (no placement changes, only its document), and a link
   * led to another skill (a placement changes, no document is parsed). */
  rm_rf(at("proj/deploy"));
  cr_assert_eq(unlink(at("proj/alias")), 0);
  cr_assert_eq(symlink(at("home/chore-002"), at("proj/alias")), 0);
  write_file(at("proj/tidy/SKILL.md"),
             "---\nname: lint\ndescription: Lint this repository.\n---\nx\n");
  write_file(at("proj/fmt/SKILL.md"), "# no frontmatter: not usable\n");
  ix = open_home_and_project(&o, &st);
  cr_assert_eq(st.parsed, 2, "%zu", st.parsed);
  cr_assert_eq(st.removed, 1, "%zu", st.removed);
  cr_assert_str_eq(resolved_dir(ix, "deploy"), at("home/deploy"), "the shadowing one went");
  cr_assert_str_eq(resolved_dir(ix, "lint"), at("proj/tidy"), "renamed onto the user's");
  cr_assert_str_eq(resolved_dir(ix, "tidy"), at("home/tidy"), "the user's comes back");
  cr_assert_str_eq(resolved_dir(ix, "fmt"), at("home/fmt"), "a usable one comes first");
  cr_assert_str_eq(resolved_dir(ix, "chore-001"), at("home/chore-001"), "the link left it");
  cr_assert_str_eq(resolved_dir(ix, "chore-002"), at("proj/alias"));
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "the user's own way", 10, NULL, 0, &h), 0);
  size_t home = 0;
  for (size_t i = 0; i < h.len; i++)
    home += !strncmp(h.items[i].e.dir, at("home/"), strlen(at("home/")));
  cr_assert_eq(home, 3, "home's deploy, fmt and tidy are offered, not its lint");
  upk_index_hits_free(&h);
  upk_index_close(ix);
  cr_assert_eq(db_int(db, "SELECT count(*) FROM doc"), 106,
               "the removed skill's document is dropped");
}

/* A project skill that is a link to a user skill: both are found by the first index, whose
 * parsing runs ahead of storing (one chunk parses both paths of the one file); the file is one
 * document, and the project's placement shadows the user's. */
UTest(index, a_skill_linked_from_another_root_is_one_document_from_the_first_index) {
  skill(at("home"), "shared-style", "Apply the house writing style.", "Short words.");
  mkdir_p(at("proj"));
  cr_assert_eq(symlink(at("home/shared-style"), at("proj/shared-style")), 0);
  char db[PATH_MAX];
  snprintf(db, sizeof db, "%s", at("cache/index.sqlite"));
  upk_index_options o = {.db_path = db};
  upk_index_stats st;
  upk_index *ix = open_home_and_project(&o, &st);
  cr_assert_eq(st.parsed, 1);
  cr_assert_str_eq(resolved_dir(ix, "shared-style"), at("proj/shared-style"));
  upk_index_close(ix);
  cr_assert_eq(db_int(db, "SELECT count(*) FROM doc"), 1);
  cr_assert_eq(db_int(db, "SELECT count(*) FROM place"), 2);
}

UTest(index, fts5_syntax_in_the_task_is_just_text) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  static const char *const tasks[] = {"\"unbalanced quote pdf",
                                      "pdf*",
                                      "-pdf",
                                      "NEAR(pdf form, 2)",
                                      "pdf AND OR NOT",
                                      "^pdf",
                                      "name: pdf",
                                      "{name description}: pdf",
                                      "((( pdf",
                                      "pdf)",
                                      "*",
                                      "\"",
                                      ":",
                                      "col:umn + pdf - form",
                                      "pdf\" OR \"x",
                                      "NOT",
                                      "AND",
                                      "pdf\x01\x02\x7f",
                                      "\xff\xfe pdf",
                                      "pdf; DROP TABLE doc; --",
                                      "'pdf'",
                                      "pdf^2",
                                      "!@#$%&*()[]{}<>?/\\|`~"};
  for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++) {
    upk_index_hits h;
    int rc = upk_index_lookup(ix, tasks[i], 5, NULL, 0, &h);
    cr_assert_eq(rc, 0, "task '%s': %s", tasks[i], upk_index_errmsg(ix));
    if (strstr(tasks[i], "pdf") && !strstr(tasks[i], "DROP"))
      cr_expect(h.len > 0 && !strcmp(h.items[0].e.name, "pdf-processing"), "task '%s'", tasks[i]);
    upk_index_hits_free(&h);
  }
  cr_assert_eq(upk_index_count(ix), 8);
  upk_index_close(ix);
}

UTest(index, empty_task_is_a_clear_error) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "", 5, NULL, 0, &h), -EINVAL);
  cr_assert_not_null(strstr(upk_index_errmsg(ix), "empty"));
  cr_assert_eq(upk_index_lookup(ix, " \t\n ", 5, NULL, 0, &h), -EINVAL);
  cr_assert_eq(upk_index_lookup(ix, NULL, 5, NULL, 0, &h), -EINVAL);
  cr_assert_eq(h.len, 0);
  cr_assert_eq(upk_index_lookup(ix, "how do I do this?", 5, NULL, 0, &h), 0);
  upk_index_hits_free(&h);
  upk_index_close(ix);
}

UTest(index, thousands_of_non_skill_folders) {
  char p[PATH_MAX];
  for (int i = 0; i < 1500; i++) {
    snprintf(p, sizeof p, "%s/junk/dir-%04d", tmp, i);
    mkdir_p(p);
  }
  skill(at("junk"), "zz-last-skill", "Found past many folders.", "body");
  skill(at("junk"), "aa-first-skill", "Found before many folders.", "body");
  upk_index_root r = {at("junk"), "claude", UPK_INDEX_PROJECT, 0, 6};
  upk_diags d = {0};
  upk_index *ix = open_with(&r, 1, &d);
  cr_assert_eq(upk_index_count(ix), 2);
  cr_assert_eq(d.len, 0);
  upk_index_close(ix);
  /* over the limit: reported, not fatal */
  upk_index_options o = {.max_dirs = 100};
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &r, 1), 0);
  cr_assert_eq(upk_index_scan(ix, NULL, &d), 0);
  cr_assert_eq(upk_index_count(ix), 1, "aa-first-skill sorts before the limit");
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "index/dir-limit");
  char **cut;
  size_t n;
  cr_assert_eq(upk_index_truncated(ix, &cut, &n), 0);
  cr_assert_eq(n, 1, "the root is marked truncated");
  cr_assert_str_eq(cut[0], at("junk"));
  upk_index_strings_free(cut, n);
  upk_diags_free(&d);
  upk_index_close(ix);
  /* the default limit is far above 1,500 directories: nothing marked */
  ix = open_with(&r, 1, NULL);
  cr_assert_eq(upk_index_truncated(ix, &cut, &n), 0);
  cr_assert_eq(n, 0);
  upk_index_close(ix);
}

UTest(index, stepped_scan_reports_progress_and_pages) {
  char name[32];
  for (int i = 0; i < 30; i++) {
    snprintf(name, sizeof name, "%c%c-step-%02d", 'a' + i % 26, 'a' + i % 26, i);
    skill(at("many"), name, "Steps through a big collection of skills.", "body");
  }
  upk_index_root r = {at("many"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix;
  upk_index_options o = {.keep_twins = true}; /* 30 skills of one text, each counted */
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &r, 1), 0);
  size_t total = 0, done = 0, t2 = 0;
  cr_assert_not(upk_index_scanning(ix, NULL, NULL));
  cr_assert_eq(upk_index_scan_begin(ix, &total, NULL), 0);
  cr_assert_eq(total, 30);
  cr_assert_eq(upk_index_count(ix), 0, "the walk parses nothing");
  upk_index_stats st;
  cr_assert_eq(upk_index_scan_step(ix, 12, &st, NULL), 1);
  cr_assert(upk_index_scanning(ix, &done, &t2));
  cr_assert_eq(done, 12);
  cr_assert_eq(t2, 30);
  cr_assert_eq(upk_index_count(ix), 12, "a step's skills are visible at once");
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "big collection", 50, NULL, 0, &h), 0);
  cr_assert_eq(h.len, 12);
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_scan_step(ix, 12, &st, NULL), 1);
  cr_assert_eq(upk_index_scan_step(ix, 12, &st, NULL), 0);
  cr_assert_not(upk_index_scanning(ix, NULL, NULL));
  cr_assert_eq(st.skills, 30);
  cr_assert_eq(upk_index_count(ix), 30);
  upk_index_entries e;
  size_t all = 0;
  cr_assert_eq(upk_index_list_page(ix, NULL, NULL, 25, 10, &e, &all), 0);
  cr_assert_eq(e.len, 5);
  cr_assert_eq(all, 30);
  cr_assert_str_eq(e.items[4].name, "zz-step-25", "ordered by name: %s", e.items[4].name);
  upk_index_entries_free(&e);
  cr_assert_eq(upk_index_list_page(ix, NULL, NULL, 40, 10, &e, &all), 0);
  cr_assert_eq(e.len, 0);
  cr_assert_eq(all, 30, "past the end the total is still given");
  upk_index_entries_free(&e);
  /* a skill deleted before the next scan is swept when the scan completes */
  char gone[PATH_MAX];
  snprintf(gone, sizeof gone, "%s/aa-step-00", at("many"));
  rm_rf(gone);
  cr_assert_eq(upk_index_scan_begin(ix, &total, NULL), 0);
  cr_assert_eq(total, 29);
  cr_assert_eq(upk_index_scan_step(ix, 100, &st, NULL), 0);
  cr_assert_eq(st.unchanged, 29);
  cr_assert_eq(st.removed, 1);
  cr_assert_eq(upk_index_count(ix), 29);
  upk_index_close(ix);
}

static bool has_code(const upk_diags *d, const char *code) {
  for (size_t i = 0; i < d->len; i++)
    if (!strcmp(d->items[i].code, code))
      return true;
  return false;
}

UTest(index, symlink_loops_and_symlinked_skills) {
  skill(at("tree/cat/a"), "deep-skill", "A skill two levels down.", "body");
  cr_assert_eq(symlink("../..", at("tree/cat/a/loop")), 0);
  cr_assert_eq(symlink("self", at("tree/self")), 0);
  skill(at("store"), "linked-skill", "Reached through a symbolic link.", "body");
  cr_assert_eq(symlink(at("store/linked-skill"), at("tree/linked-skill")), 0);
  upk_index_root r = {at("tree"), "cursor", UPK_INDEX_PROJECT, 0, 6};
  upk_diags d = {0};
  upk_index *ix = open_with(&r, 1, &d);
  cr_assert(has_code(&d, "index/symlink-loop"));
  cr_assert_eq(upk_index_count(ix), 2);
  upk_index_skill s;
  cr_assert_eq(upk_index_get(ix, "linked-skill", NULL, &s), 0);
  char *real = realpath(at("store/linked-skill"), NULL), want[PATH_MAX];
  snprintf(want, sizeof want, "%s/SKILL.md", real);
  cr_assert_str_eq(s.e.path, want);
  cr_assert_str_eq(s.e.dir, at("tree/linked-skill"));
  free(real);
  upk_index_skill_free(&s);
  /* a change at the link target refreshes the placement that links to it */
  skill(at("store"), "linked-skill", "Now about zebras.", "body");
  cr_assert_eq(upk_index_refresh(ix, at("store/linked-skill/SKILL.md"), NULL), 1);
  cr_assert_eq(hits_for(ix, "zebras", "linked-skill"), 1);
  upk_diags_free(&d);
  upk_index_close(ix);
}

UTest(index, unreadable_directories_are_reported) {
  skill(at("r/ok"), "fine", "A readable skill.", "body");
  skill(at("r/locked"), "hidden-away", "Cannot be read.", "body");
  chmod(at("r/locked"), 0);
  write_file(at("notadir"), "x");
  upk_index_root r[] = {{at("r"), "claude", UPK_INDEX_PROJECT, 0, 3},
                        {at("notadir"), "claude", UPK_INDEX_USER, 0, 0},
                        {at("missing"), "claude", UPK_INDEX_USER, 0, 0}};
  upk_diags d = {0};
  upk_index *ix = open_with(r, 3, &d);
  cr_assert(has_code(&d, "index/root-not-dir"));
  if (geteuid() != 0) { /* root reads anything */
    cr_assert(has_code(&d, "index/unreadable-dir"));
    cr_assert_eq(upk_index_count(ix), 1);
  }
  upk_diags_free(&d);
  upk_index_close(ix);
}

/* A SKILL.md the parser refuses (past UPK_SKILL_MAX_BYTES; a sparse file, so nothing is
 * written): one warning naming it, its own diagnostic given its path, and the skill beside
 * it indexed. */
UTest(index, an_unloadable_skill_is_reported_and_the_rest_indexed) {
  skill(at("big"), "small-one", "A skill of ordinary size.", "body");
  skill(at("big"), "huge-one", "Far too large to load.", "body");
  cr_assert_eq(truncate(at("big/huge-one/SKILL.md"), (off_t)UPK_SKILL_MAX_BYTES + 1), 0);
  upk_index_root r = {at("big"), "claude", UPK_INDEX_PROJECT, 0, 3};
  upk_diags d = {0};
  upk_index *ix = open_with(&r, 1, &d);
  cr_assert_eq(upk_index_count(ix), 1);
  bool warned = false;
  for (size_t i = 0; i < d.len; i++) {
    cr_assert(d.items[i].file && strstr(d.items[i].file, "huge-one/SKILL.md"), "%s: %s",
              d.items[i].code, d.items[i].file ? d.items[i].file : "(no file)");
    warned |= !strcmp(d.items[i].code, "index/skill-unreadable");
  }
  cr_assert(warned);
  cr_assert_eq(hits_for(ix, "ordinary", "small-one"), 1);
  upk_diags_free(&d);
  upk_index_close(ix);
}

UTest(index, broken_frontmatter_is_still_found_with_warnings) {
  write_file(at("s/audio-convert/SKILL.md"),
             "---\nname: audio-convert\ndescription: Use when: the user wants to convert audio "
             "files between wav, mp3 and flac\n---\n# Audio\nUse ffmpeg.\n");
  write_file(at("s/garbage/SKILL.md"), "---\n: : [\n---\nA body about turnips.\n");
  write_file(at("s/no-frontmatter/SKILL.md"), "# Just markdown about parsnips\n");
  upk_index_root r = {at("s"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "convert a wav recording to mp3", 5, NULL, 0, &h), 0);
  cr_assert_gt(h.len, 0);
  cr_assert_str_eq(h.items[0].e.name, "audio-convert");
  upk_index_hits_free(&h);
  upk_index_entries e;
  cr_assert_eq(upk_index_list(ix, NULL, NULL, &e), 0);
  cr_assert_eq(e.len, 3, "every SKILL.md is listed, loadable or not");
  for (size_t i = 0; i < e.len; i++) {
    if (!strcmp(e.items[i].name, "audio-convert"))
      cr_assert_gt(e.items[i].diags.len, 0, "the YAML repair is reported");
    else {
      cr_assert_not(e.items[i].usable, "%s", e.items[i].name);
      cr_assert_gt(e.items[i].diags.len, 0, "%s", e.items[i].name);
    }
  }
  upk_index_entries_free(&e);
  upk_index_close(ix);
}

UTest(index, cache_file_survives_restarts_and_is_versioned) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index_options o = {.db_path = at("cache/upskilld/index.sqlite")};
  upk_index_stats st;
  upk_index *ix = open_cached(&o, &r, &st);
  cr_assert_eq(st.parsed, 8);
  upk_index_close(ix);
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_count(ix), 8);
  cr_assert_eq(upk_index_set_roots(ix, &r, 1), 0);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0);
  cr_assert_eq(st.parsed, 0);
  cr_assert_eq(st.unchanged, 8);
  expect_top(ix, "fill a PDF form", "pdf-processing");
  upk_index_close(ix);
  /* created with 16 KiB pages: a first index writes far fewer WAL frames */
  cr_assert_eq(db_int(o.db_path, "PRAGMA page_size"), 16384);
  /* another schema version: rebuilt, not misread */
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(o.db_path, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "PRAGMA user_version=999", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_count(ix), 0);
  upk_index_close(ix);
  /* garbage in the file: rebuilt too */
  write_file(o.db_path, "this is not a database, not even close, just some text...........");
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  upk_index_close(ix);
  char *def = upk_index_default_path("/some/workspace");
  cr_assert_not_null(strstr(def, "upskilld/index-v"));
  free(def);
}

UTest(index, get_returns_text_files_and_meta) {
  library(at("skills"));
  write_file(at("skills/pdf-processing/scripts/fill.py"), "print(1)\n");
  write_file(at("skills/pdf-processing/.hidden"), "x");
  write_file(at("skills/pdf-processing/skill_meta.json"), "{\"name\":\"pdf-processing\"}");
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  upk_index_skill s;
  cr_assert_eq(upk_index_get(ix, "pdf-processing", NULL, &s), 0);
  cr_assert_not_null(strstr(s.text, "name: pdf-processing"));
  cr_assert_eq(s.n_files, 3);
  cr_assert_str_eq(s.files[0], "SKILL.md");
  cr_assert_str_eq(s.files[1], "scripts/fill.py");
  cr_assert_str_eq(s.files[2], "skill_meta.json");
  cr_assert_not_null(s.meta_text);
  upk_index_skill_free(&s);
  cr_assert_eq(upk_index_get(ix, "no-such-skill", NULL, &s), -ENOENT);
  cr_assert_not_null(strstr(upk_index_errmsg(ix), "no-such-skill"));
  upk_index_close(ix);
}

UTest(index, roots_can_change) {
  library(at("a"));
  skill(at("b"), "only-in-b", "Lives in b.", "body");
  upk_index_root r[] = {{at("a"), "claude", UPK_INDEX_PROJECT, 0, 0},
                        {at("b"), "claude", UPK_INDEX_USER, 0, 0}};
  upk_index *ix = open_with(r, 2, NULL);
  cr_assert_eq(upk_index_count(ix), 9);
  cr_assert_eq(upk_index_set_roots(ix, &r[1], 1), 0);
  cr_assert_eq(upk_index_count(ix), 1);
  cr_assert_eq(upk_index_scan(ix, NULL, NULL), 0);
  cr_assert_eq(upk_index_count(ix), 1);
  upk_index_scope s;
  cr_assert_eq(upk_index_scope_parse("builtin", &s), 0);
  cr_assert_eq(s, UPK_INDEX_BUILTIN);
  cr_assert_str_eq(upk_index_scope_name(UPK_INDEX_EXTRA), "extra");
  cr_assert_eq(upk_index_scope_parse("nope", &s), -EINVAL);
  upk_index_close(ix);
}

/* The first column of the first row of `sql` on an index file, or -1 when there is no row. */
static int db_int(const char *db_path, const char *sql) {
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(db_path, &db), SQLITE_OK);
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
  int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

/* Counts one FTS5 table's segments in an index file (its %_idx table). */
static int segments(const char *db_path, const char *table) {
  char sql[128];
  snprintf(sql, sizeof sql, "SELECT count(DISTINCT segid) FROM %s_idx", table);
  return db_int(db_path, sql);
}

/* Merging the full-text index in steps ends with one segment per table and
 * answers as before; a step with nothing left to merge says so. */
UTest(index, tidy_merges_the_index_in_steps) {
  library(at("skills"));
  upk_index_root r = {at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  char db_path[PATH_MAX]; /* at() reuses its buffers */
  snprintf(db_path, sizeof db_path, "%s", at("cache/index.sqlite"));
  upk_index_options o = {.db_path = db_path};
  upk_index_stats st;
  upk_index *ix = open_cached(&o, &r, &st);
  for (int i = 0; i < 6; i++) { /* each refresh is a transaction: a segment of its own */
    char desc[128];
    snprintf(desc, sizeof desc, "Add OAuth2 login with PKCE, version %d.", i);
    skill(at("skills"), "oauth-login", desc, "Redirect URIs and code verifiers.");
    cr_assert_eq(upk_index_refresh(ix, at("skills/oauth-login/SKILL.md"), NULL), 1);
  }
  cr_assert_gt(segments(o.db_path, "fts") + segments(o.db_path, "fts_body"), 2);
  int steps = 0, rc;
  while ((rc = upk_index_tidy(ix, 1)) == 1)
    cr_assert_lt(++steps, 1000, "the merge never ends");
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  cr_assert_gt(steps, 0, "there was something to merge");
  cr_assert_eq(segments(o.db_path, "fts"), 1);
  cr_assert_eq(segments(o.db_path, "fts_body"), 1);
  cr_assert_eq(upk_index_tidy(ix, 200), 0, "nothing left");
  expect_top(ix, "PKCE login", "oauth-login");
  expect_top(ix, "fill a PDF form", "pdf-processing");
  cr_assert_eq(hits_for(ix, "code verifiers", "oauth-login"), 1);
  upk_index_close(ix);
}

/* One FTS5 table's stored `automerge` setting (its %_config table; -1 when none is stored). */
static int automerge(const char *db_path, const char *table) {
  char sql[128];
  snprintf(sql, sizeof sql, "SELECT v FROM %s_config WHERE k = 'automerge'", table);
  return db_int(db_path, sql);
}

/* The first index of an empty index writes without merging (automerge 0, a fifth faster at
 * 60,000 skills) and sets merging back for the refreshes after it; tidying then merges. */
/* n skills <prefix>-NN "about topicNN and shared words" in skills/, an index file (db_path,
 * o) opened on them and its first, stepped scan begun. */
static upk_index *begin_first_index(const char *prefix, int n, char db_path[PATH_MAX],
                                    upk_index_options *o, upk_index_root *r) {
  char dir[64], desc[128];
  for (int i = 0; i < n; i++) {
    snprintf(dir, sizeof dir, "%s-%02d", prefix, i);
    snprintf(desc, sizeof desc, "Bulk skill %d about topic%d and shared words.", i, i);
    skill(at("skills"), dir, desc, "Body text of a bulk skill.");
  }
  *r = (upk_index_root){at("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  snprintf(db_path, PATH_MAX, "%s", at("cache/index.sqlite"));
  *o = (upk_index_options){.db_path = db_path};
  upk_index *ix = NULL;
  cr_assert_eq(upk_index_open(&ix, o), 0);
  upk_index_set_roots(ix, r, 1);
  size_t total = 0;
  cr_assert_eq(upk_index_scan_begin(ix, &total, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(total, (size_t)n);
  return ix;
}

UTest(index, the_first_index_merges_afterwards) {
  upk_index_root r;
  char db_path[PATH_MAX];
  upk_index_options o;
  upk_index *ix = begin_first_index("bulk", 40, db_path, &o, &r);
  upk_index_stats st;
  cr_assert_eq(upk_index_scan_step(ix, 10, &st, NULL), 1, "more to come");
  cr_assert_eq(automerge(db_path, "fts"), 0, "no merging while the first index is written");
  cr_assert_eq(automerge(db_path, "fts_body"), 0);
  int rc;
  while ((rc = upk_index_scan_step(ix, 10, &st, NULL)) == 1)
    ;
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(automerge(db_path, "fts"), 2, "merging is back for refreshes");
  cr_assert_eq(automerge(db_path, "fts_body"), 2);
  cr_assert_gt(segments(db_path, "fts"), 1, "four batches, four segments");
  /* The word statistics are taken once merged; lookups ask FTS5's vocabulary meanwhile. */
  cr_assert_eq(db_int(db_path, "SELECT count(*) FROM df"), 0);
  expect_top(ix, "topic17", "bulk-17");
  cr_assert_eq(hits_for(ix, "shared words", "bulk-03"), 1, "common words are known, not prefixes");
  cr_assert(upk_index_merge_pending(ix));
  /* A session stopped before the merge: the next one still has it to do, and its restart
   * leaves the snapshot to the merge's end too. */
  upk_index_close(ix);
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert(upk_index_merge_pending(ix), "the merge never ended");
  upk_index_set_roots(ix, &r, 1);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert(upk_index_merge_pending(ix));
  cr_assert_eq(db_int(db_path, "SELECT count(*) FROM df"), 0, "not over unmerged segments");
  expect_top(ix, "topic17", "bulk-17");
  while ((rc = upk_index_tidy(ix, 50)) == 1)
    ;
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  cr_assert_not(upk_index_merge_pending(ix));
  cr_assert_eq(segments(db_path, "fts"), 1);
  cr_assert_gt(db_int(db_path, "SELECT count(*) FROM df WHERE term = 'topic17' AND head = 1"), 0,
               "the snapshot is taken at the end of the merge");
  expect_top(ix, "topic17", "bulk-17");
  upk_index_close(ix);
}

/* An index left unmerged whose word statistics an earlier version took all the same (at the
 * restart after a session stopped before its merge): its segments say the merge is due. */
UTest(index, an_unmerged_index_is_merged_whatever_took_its_statistics) {
  upk_index_root r;
  char db_path[PATH_MAX];
  upk_index_options o;
  upk_index *ix = begin_first_index("many", 42, db_path, &o, &r);
  upk_index_stats st;
  int rc;
  while ((rc = upk_index_scan_step(ix, 3, &st, NULL)) == 1) /* 14 batches, a segment each */
    ;
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  upk_index_close(ix);
  cr_assert_gt(segments(db_path, "fts"), 8);
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(db_path, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "INSERT INTO df SELECT term, doc, 0 FROM vocab", NULL, NULL, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  sqlite3_close(db);
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert(upk_index_merge_pending(ix), "%d segments", segments(db_path, "fts"));
  while ((rc = upk_index_tidy(ix, 50)) == 1)
    ;
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  cr_assert_not(upk_index_merge_pending(ix));
  cr_assert_eq(segments(db_path, "fts"), 1);
  upk_index_close(ix);
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_not(upk_index_merge_pending(ix), "merged: nothing due at the next open");
  upk_index_close(ix);
}

/* A word in half the skills or more weighs nothing in bm25: a task made
 * only of such words still gets skills with all of them; with one rare word
 * besides, that word decides. */
UTest(index, words_in_half_the_skills_are_not_ranked) {
  char dir[64], desc[256];
  for (int i = 0; i < 90; i++) {
    snprintf(dir, sizeof dir, "tool-%02d", i);
    snprintf(desc, sizeof desc, "Works with tool number %d. %s", i,
             i % 3 ? "Use when this capability is needed." : "Handy.");
    skill(at("s"), dir, desc, "Steps.");
  }
  skill(at("s"), "k8s-secrets", "Rotate Kubernetes secrets. Use when this capability is needed.",
        "kubectl.");
  upk_index_root r = {at("s"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "capability needed", 5, NULL, 0, &h), 0);
  cr_assert_eq(h.len, 5, "rows with every word, not none");
  for (size_t i = 0; i < h.len; i++)
    cr_expect(strstr(h.items[i].why, "capability (description)") &&
                  strstr(h.items[i].why, "needed (description)"),
              "%s: %s", h.items[i].e.name, h.items[i].why);
  upk_index_hits_free(&h);
  expect_top(ix, "the capability to rotate secrets is needed", "k8s-secrets");
  upk_index_close(ix);
}

/* `why` names a word matched through its longer form (k8s: kubernetes) or
 * as the words of an identifier, in the field it matched in. */
UTest(index, why_names_expansions_and_phrases) {
  library(at("skills"));
  upk_index_root r = {at("skills"), NULL, UPK_INDEX_BUILTIN, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  expect_top_why(ix, "k8s rollback", "kubernetes-deploy", "k8s (name, description");
  expect_top_why(ix, "notes from the merged prs", "release-notes", "prs (description");
  upk_index_close(ix);
}

static bool hits_name(upk_index *ix, const char *task, const char *name) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 10, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  bool found = false;
  for (size_t i = 0; i < h.len; i++)
    found |= !strcmp(h.items[i].e.name, name);
  upk_index_hits_free(&h);
  return found;
}

/* An abbreviation is also asked by its full form only where the index
 * mostly spells the word out: where skills write "repo" themselves, asking
 * "repository" too counted their words twice and brought in skills that
 * never say "repo". */
UTest(index, abbreviations_expand_only_where_the_index_spells_them_out) {
  skill(at("a"), "repository-stats", "Count commits and contributors of a repository.", "Charts.");
  skill(at("a"), "branch-janitor", "Prune stale branches and tags.", "Steps.");
  upk_index_root r = {at("a"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *ix = open_with(&r, 1, NULL);
  cr_expect(hits_name(ix, "tidy up my repo", "repository-stats"),
            "no skill says repo: it is asked as repository");
  upk_index_close(ix);

  char dir[64], desc[128];
  for (int i = 0; i < 6; i++) {
    snprintf(dir, sizeof dir, "repo-tool-%d", i);
    snprintf(desc, sizeof desc, "Tool %d for a git repo: clone the repo, stats of the repo.", i);
    skill(at("b"), dir, desc, "Steps.");
  }
  skill(at("b"), "repository-stats", "Count commits and contributors of a repository.", "Charts.");
  r.dir = at("b");
  ix = open_with(&r, 1, NULL);
  cr_expect(!hits_name(ix, "tidy up my repo", "repository-stats"),
            "six skills say repo, one says repository: repo is asked as written");
  cr_expect(hits_name(ix, "tidy up my repo", "repo-tool-3"));
  upk_index_close(ix);
}

/* The listing's stamp (upk_index_stamp, the MCP listing's kept pages hold under it) moves when
 * a row a page reads changes, not when a scan writes the same values again: a catch-up scan
 * after the first index upserted every place with its own document, and the second walk of a
 * 40,000-skill listing rebuilt all its pages. */
UTest(index, listing_stamp_moves_only_with_a_change) {
  skill(at("proj"), "deploy", "Deploy this repository's web app to staging.", "Project way.");
  skill(at("proj"), "lint", "Lint code.", "Run the linter.");
  skill(at("home"), "deploy", "Deploy anything to production servers.", "User way.");
  upk_index_root r[] = {{at("home"), "claude", UPK_INDEX_USER, 0, 0},
                        {at("proj"), "claude", UPK_INDEX_PROJECT, 0, 0}};
  upk_index *ix = open_with(r, 2, NULL);
  uint64_t s0, s1, s2;
  cr_assert_eq(upk_index_stamp(ix, &s0), 0);
  upk_index_stats st;
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(upk_index_stamp(ix, &s1), 0);
  cr_assert_eq(s1, s0, "a scan that changed nothing moved the stamp");
  cr_assert_eq(unlink(at("proj/deploy/SKILL.md")), 0);
  cr_assert_eq(rmdir(at("proj/deploy")), 0);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(upk_index_stamp(ix, &s2), 0);
  cr_assert_neq(s2, s1, "a skill gone, another now visible: the stamp moves");
  upk_index_close(ix);
}
