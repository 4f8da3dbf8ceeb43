/* Installing and removing skills: sources, validation, replacement, symlink
 * safety, concurrency, crashes, recovery, environments and the manifest. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "skills/fsutil.h"
#include "skills/install.h"
#include "tests/skills/install_test.h"

/* ---- basics --------------------------------------------------------------- */

UTest(install, from_path_into_claude) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "demo-skill", "v1");
  write_file(src, "demo-skill/references/notes.md", "notes\n");
  write_file(src, "demo-skill/scripts/run.sh", "#!/bin/sh\necho hi\n");
  chmod(path_of(src, "demo-skill/scripts/run.sh"), 0755);
  upk_install_result res;
  int rc = install_path(p, path_of(src, "demo-skill"), "claude", false, &res);
  cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
  cr_assert_str_eq(res.name, "demo-skill");
  cr_assert_eq(res.n_targets, 1);
  cr_assert_str_eq(res.targets[0].path, path_of(p, ".claude/skills/demo-skill"));
  cr_assert_str_eq(res.targets[0].agents[0], "claude");
  cr_assert_eq(strlen(res.hash), 64);
  cr_assert_str_eq(tree_hash(path_of(p, ".claude/skills/demo-skill")),
                   tree_hash(path_of(src, "demo-skill")));
  struct stat st;
  cr_assert_eq(stat(path_of(p, ".claude/skills/demo-skill/scripts/run.sh"), &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0755, "the executable bit is kept");
  cr_assert_not(has_tmp(path_of(p, ".claude/skills")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, from_skill_md_path) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "md-path", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "md-path/SKILL.md"), "codex", false, &res), 0);
  cr_assert(exists(path_of(p, ".agents/skills/md-path/SKILL.md")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, inline_markdown_and_files) {
  char *p = tmpdir();
  char *md = skill_md("inline-skill", "v1");
  upk_install_file files[] = {
      {"scripts/run.py", "print('x')\n", 11},
      {"references/deep/guide.md", "# Guide\n", 8},
      {"empty.txt", "", 0},
  };
  upk_install_req rq = inline_req(p, md, files, 3, "claude");
  upk_install_result res;
  int rc = upk_install(&rq, &res);
  cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
  cr_assert_str_eq(read_file(path_of(p, ".claude/skills/inline-skill/SKILL.md")), md);
  cr_assert_str_eq(read_file(path_of(p, ".claude/skills/inline-skill/scripts/run.py")),
                   "print('x')\n");
  cr_assert_str_eq(read_file(path_of(p, ".claude/skills/inline-skill/references/deep/guide.md")),
                   "# Guide\n");
  cr_assert_str_eq(read_file(path_of(p, ".claude/skills/inline-skill/empty.txt")), "");
  json_t *e = manifest_entry(path_of(p, ".claude/skills"), "inline-skill");
  cr_assert_str_eq(json_string_value(json_object_get(e, "sourceType")), "inline");
  cr_assert_eq(json_integer_value(json_object_get(e, "files")), 4);
  json_decref(e);
  upk_install_result_free(&res);
  free(md);
  rmrf(p);
}

UTest(install, default_agents_and_shared_directories) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "both", "v1");
  upk_install_req rq = path_req(p, path_of(src, "both"), NULL, false);
  upk_install_result res;
  cr_assert_eq(upk_install(&rq, &res), 0);
  cr_assert_eq(res.n_targets, 2, "default: .agents/skills and .claude/skills");
  cr_assert(exists(path_of(p, ".agents/skills/both/SKILL.md")));
  cr_assert(exists(path_of(p, ".claude/skills/both/SKILL.md")));
  upk_install_result_free(&res);
  /* codex and its alias share one directory and one copy. */
  const char *ids[] = {"codex", "agents", "gemini"};
  rq.agents = ids;
  rq.n_agents = 3;
  cr_assert_eq(upk_install(&rq, &res), 0);
  cr_assert_eq(res.n_targets, 2);
  cr_assert_eq(res.targets[0].n_agents, 2);
  cr_assert(res.targets[0].unchanged);
  cr_assert(exists(path_of(p, ".gemini/skills/both/SKILL.md")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, bad_requests) {
  char *p = tmpdir();
  char *md = skill_md("ok-skill", "v1");
  upk_install_req rq = inline_req(p, md, NULL, 0, "vim");
  upk_install_result res;
  cr_assert_eq(upk_install(&rq, &res), -EINVAL);
  cr_assert(has_code(&res.diags, "install/unknown-agent"));
  upk_install_result_free(&res);
  rq = inline_req(NULL, md, NULL, 0, "claude");
  cr_assert_eq(upk_install(&rq, &res), -EINVAL, "project scope without a root");
  cr_assert(has_code(&res.diags, "install/no-directory"));
  upk_install_result_free(&res);
  rq = inline_req(p, NULL, NULL, 0, "claude");
  cr_assert_eq(upk_install(&rq, &res), -EINVAL);
  cr_assert(has_code(&res.diags, "install/no-source"));
  upk_install_result_free(&res);
  cr_assert_eq(count_entries(p), 0, "nothing written");
  free(md);
  rmrf(p);
}

/* ---- validation ----------------------------------------------------------- */

UTest(install, errors_refuse_with_diagnostics) {
  char *p = tmpdir();
  const char *md = "---\nname: Bad_Name\n---\n# body\n"; /* bad name, no description */
  upk_install_req rq = inline_req(p, md, NULL, 0, "claude");
  upk_install_result res;
  cr_assert_eq(upk_install(&rq, &res), -EINVAL);
  cr_assert_geq(upk_diags_count(&res.diags, UPK_SEV_ERROR), 3, "validator errors + refusal");
  cr_assert(has_code(&res.diags, "install/invalid"));
  cr_assert_eq(res.diags.items[0].severity, UPK_SEV_ERROR, "validation diagnostics come first");
  cr_assert_eq(count_entries(p), 0, "nothing written");
  upk_install_result_free(&res);
  /* From a path: a directory whose name differs from the skill's. */
  char *src = tmpdir();
  make_skill(src, "right-name", "v1");
  rename(path_of(src, "right-name"), path_of(src, "wrong-name"));
  cr_assert_eq(install_path(p, path_of(src, "wrong-name"), "claude", false, &res), -EINVAL);
  cr_assert(has_code(&res.diags, "install/invalid"));
  cr_assert_eq(count_entries(p), 0);
  upk_install_result_free(&res);
  rmrf(src);
  rmrf(p);
}

UTest(install, warnings_pass_and_are_returned) {
  char *p = tmpdir();
  /* Valid for skills-ref, but over 500 body lines and with '<' '>' in the
   * description: agents are stricter, so strict mode warns. */
  size_t cap = 20000, n = 0;
  char *md = malloc(cap);
  n += (size_t)snprintf(md, cap, "---\nname: long-one\ndescription: \"Use <b> tags.\"\n---\n");
  for (int i = 0; i < 600; i++)
    n += (size_t)snprintf(md + n, cap - n, "line %d\n", i);
  upk_install_req rq = inline_req(p, md, NULL, 0, "claude");
  upk_install_result res;
  int rc = upk_install(&rq, &res);
  cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
  cr_assert_geq(upk_diags_count(&res.diags, UPK_SEV_WARNING), 1);
  cr_assert_eq(upk_diags_count(&res.diags, UPK_SEV_ERROR), 0);
  cr_assert(exists(path_of(p, ".claude/skills/long-one/SKILL.md")));
  upk_install_result_free(&res);
  free(md);
  rmrf(p);
}

UTest(install, inline_checked_as_a_directory) {
  char *p = tmpdir();
  const char *md = "---\nname: refs\ndescription: Checks references. Use when testing.\n---\n"
                   "# Refs\n\nSee [the guide](references/missing.md).\n";
  upk_install_req rq = inline_req(p, md, NULL, 0, "claude");
  upk_install_result res;
  /* Twice: staged the first time, already in place the second. */
  for (int round = 0; round < 2; round++) {
    int rc = upk_install(&rq, &res);
    cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
    cr_assert(has_code(&res.diags, "skill/broken-reference"), "round %d", round);
    cr_assert_str_eq(res.name, "refs");
    upk_install_result_free(&res);
  }
  rmrf(p);
}

UTest(install, unsafe_file_paths_refused) {
  char *p = tmpdir();
  char *md = skill_md("paths", "v1");
  const char *bad[] = {"../evil.txt", "/etc/evil", "a/../../evil", "./x", "a//b", "",
                       "a/",          "..",        "dir\\..\\evil"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    upk_install_file f = {bad[i], "x", 1};
    upk_install_req rq = inline_req(p, md, &f, 1, "claude");
    upk_install_result res;
    cr_assert_eq(upk_install(&rq, &res), -EINVAL, "'%s' accepted", bad[i]);
    cr_assert(has_code(&res.diags, "install/bad-path"), "'%s'", bad[i]);
    upk_install_result_free(&res);
  }
  upk_install_file dup[] = {{"SKILL.md", "x", 1}};
  upk_install_req rq = inline_req(p, md, dup, 1, "claude");
  upk_install_result res;
  cr_assert_eq(upk_install(&rq, &res), -EINVAL);
  cr_assert(has_code(&res.diags, "install/duplicate-path"));
  upk_install_result_free(&res);
  upk_install_file clash[] = {{"a", "x", 1}, {"a/b", "y", 1}};
  rq = inline_req(p, md, clash, 2, "claude");
  cr_assert_eq(upk_install(&rq, &res), -EINVAL);
  cr_assert(has_code(&res.diags, "install/duplicate-path"));
  upk_install_result_free(&res);
  cr_assert_eq(count_entries(p), 0, "nothing written");
  free(md);
  rmrf(p);
}

UTest(install, unsafe_names_refused) {
  char *p = tmpdir();
  const char *names[] = {"../escape", "a/b", ".hidden"};
  for (size_t i = 0; i < 3; i++) {
    char *md = skill_md(names[i], "v1");
    upk_install_req rq = inline_req(p, md, NULL, 0, "claude");
    upk_install_result res;
    cr_assert_eq(upk_install(&rq, &res), -EINVAL, "'%s'", names[i]);
    upk_install_result_free(&res);
    upk_remove_req rr = {.name = names[i], .scope = UPK_SCOPE_PROJECT, .project_root = p};
    cr_assert_eq(upk_remove(&rr, &res), -EINVAL, "remove '%s'", names[i]);
    cr_assert(has_code(&res.diags, "install/bad-name"));
    upk_install_result_free(&res);
    free(md);
  }
  cr_assert_eq(count_entries(p), 0);
  rmrf(p);
}

UTest(install, source_symlinks_not_copied) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "linky", "v1");
  cr_assert_eq(symlink("/etc/passwd", path_of(src, "linky/passwd")), 0);
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "linky"), "claude", false, &res), 0);
  cr_assert(has_code(&res.diags, "install/symlink-skipped"));
  cr_assert_not(exists(path_of(p, ".claude/skills/linky/passwd")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

/* ---- replacing ------------------------------------------------------------ */

UTest(install, replace_needs_force) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "rep", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "rep"), "claude", false, &res), 0);
  const char *h1 = tree_hash(path_of(p, ".claude/skills/rep"));
  upk_install_result_free(&res);
  /* The same content again: nothing to do, no force needed. */
  cr_assert_eq(install_path(p, path_of(src, "rep"), "claude", false, &res), 0);
  cr_assert(res.targets[0].unchanged);
  upk_install_result_free(&res);
  /* Different content without force: refused, old copy intact. */
  make_skill(src, "rep", "v2");
  cr_assert_eq(install_path(p, path_of(src, "rep"), "claude", false, &res), -EEXIST);
  cr_assert(has_code(&res.diags, "install/exists"));
  cr_assert_eq(res.targets[0].status, -EEXIST);
  cr_assert_str_eq(tree_hash(path_of(p, ".claude/skills/rep")), h1);
  upk_install_result_free(&res);
  /* With force: replaced. */
  cr_assert_eq(install_path(p, path_of(src, "rep"), "claude", true, &res), 0);
  cr_assert(res.targets[0].replaced);
  cr_assert_str_eq(tree_hash(path_of(p, ".claude/skills/rep")), tree_hash(path_of(src, "rep")));
  cr_assert_not(has_tmp(path_of(p, ".claude/skills")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, refusal_in_one_directory_writes_none) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "multi", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "multi"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  make_skill(src, "multi", "v2");
  upk_install_req rq = path_req(p, path_of(src, "multi"), NULL, false); /* agents + claude */
  cr_assert_eq(upk_install(&rq, &res), -EEXIST);
  cr_assert_not(exists(path_of(p, ".agents")), "no copy made while another is refused");
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, replace_without_rename_exchange) {
  upk_install_test_no_exchange = 1;
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "fallback", "v1");
  write_file(src, "fallback/old-only.txt", "old\n");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "fallback"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  rmrf(path_of(src, "fallback/old-only.txt"));
  make_skill(src, "fallback", "v2");
  cr_assert_eq(install_path(p, path_of(src, "fallback"), "claude", true, &res), 0);
  cr_assert(res.targets[0].replaced);
  cr_assert_str_eq(tree_hash(path_of(p, ".claude/skills/fallback")),
                   tree_hash(path_of(src, "fallback")));
  cr_assert_not(exists(path_of(p, ".claude/skills/fallback/old-only.txt")));
  cr_assert_not(has_tmp(path_of(p, ".claude/skills")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, not_a_skill_is_never_replaced) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "mine", "v1");
  write_file(p, ".claude/skills/mine/notes.txt", "my own files\n");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "mine"), "claude", true, &res), -EPERM);
  cr_assert(has_code(&res.diags, "install/not-a-skill"));
  cr_assert_str_eq(read_file(path_of(p, ".claude/skills/mine/notes.txt")), "my own files\n");
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

/* ---- manifest ------------------------------------------------------------- */

UTest(install, manifest_records_each_skill) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "one", "v1");
  make_skill(src, "two", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "one"), "claude", false, &res), 0);
  char want_hash[80];
  snprintf(want_hash, sizeof want_hash, "sha256:%s", res.hash);
  upk_install_result_free(&res);
  cr_assert_eq(install_path(p, path_of(src, "two"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  json_t *m = manifest(path_of(p, ".claude/skills"));
  cr_assert_eq(json_integer_value(json_object_get(m, "version")), 1);
  json_t *e = json_object_get(json_object_get(m, "skills"), "one");
  cr_assert(json_is_object(e));
  char real[PATH_MAX];
  cr_assert_not_null(realpath(path_of(src, "one"), real));
  cr_assert_str_eq(json_string_value(json_object_get(e, "source")), real);
  cr_assert_str_eq(json_string_value(json_object_get(e, "sourceType")), "path");
  cr_assert_str_eq(json_string_value(json_object_get(e, "hash")), want_hash);
  cr_assert_str_eq(json_string_value(json_array_get(json_object_get(e, "agents"), 0)), "claude");
  cr_assert_eq(json_integer_value(json_object_get(e, "files")), 1);
  cr_assert_gt(json_integer_value(json_object_get(e, "bytes")), 0);
  const char *at = json_string_value(json_object_get(e, "installedAt"));
  cr_assert(at && strlen(at) == 20 && at[10] == 'T' && at[19] == 'Z', "%s", at ? at : "");
  cr_assert_not_null(json_string_value(json_object_get(e, "updatedAt")));
  cr_assert(json_is_object(json_object_get(json_object_get(m, "skills"), "two")));
  json_decref(m);
  rmrf(p);
  rmrf(src);
}

UTest(install, manifest_keeps_first_install_time_and_source) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "dated", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "dated"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  char *root = path_of(p, ".claude/skills");
  json_t *m = manifest(root);
  json_t *e = json_object_get(json_object_get(m, "skills"), "dated");
  json_object_set_new(e, "installedAt", json_string("2001-02-03T04:05:06Z"));
  cr_assert_eq(json_dump_file(m, manifest_path(root), 0), 0);
  json_decref(m);
  make_skill(src, "dated", "v2");
  upk_install_req rq = path_req(p, path_of(src, "dated"), "claude", true);
  rq.source = "https://example.com/skills/dated";
  cr_assert_eq(upk_install(&rq, &res), 0);
  upk_install_result_free(&res);
  e = manifest_entry(root, "dated");
  cr_assert_str_eq(json_string_value(json_object_get(e, "installedAt")), "2001-02-03T04:05:06Z");
  cr_assert_str_eq(json_string_value(json_object_get(e, "source")),
                   "https://example.com/skills/dated");
  json_decref(e);
  rmrf(p);
  rmrf(src);
}

UTest(install, corrupt_manifest_kept_aside) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "fresh", "v1");
  char *m = manifest_path(path_of(p, ".claude/skills"));
  mkdirs(path_of(p, ".claude/skills"));
  /* The manifest lives under $XDG_STATE_HOME, which a fresh build directory has not made yet. */
  char *mdir = strdup(m);
  *strrchr(mdir, '/') = '\0';
  mkdirs(mdir);
  free(mdir);
  FILE *f = fopen(m, "w");
  cr_assert_not_null(f, "%s: %s", m, strerror(errno));
  fputs("{not json", f);
  fclose(f);
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "fresh"), "claude", false, &res), 0);
  cr_assert(has_code(&res.diags, "install/manifest-corrupt"));
  cr_assert_str_eq(read_file(fmt("%s.bad", m)), "{not json");
  json_t *e = manifest_entry(path_of(p, ".claude/skills"), "fresh");
  cr_assert_not_null(e);
  json_decref(e);
  upk_install_result_free(&res);
  unlink(fmt("%s.bad", m));
  rmrf(p);
  rmrf(src);
}

/* The agents' directories hold the skills and nothing else, so `git status` in a project shows
 * only what was installed; removing the last one leaves them empty and drops the manifest. */
UTest(install, nothing_of_ours_in_the_skills_directories) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "tidy", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "tidy"), NULL, false, &res), 0, "%s",
               first_msg(&res.diags));
  upk_install_result_free(&res);
  static const char *const roots[] = {".agents/skills", ".claude/skills"};
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(count_entries(path_of(p, roots[i])), 1, "%s holds more than the skill", roots[i]);
    json_t *m = manifest(path_of(p, roots[i]));
    cr_assert_str_eq(json_string_value(json_object_get(m, "root")), path_of(p, roots[i]));
    json_decref(m);
  }
  upk_remove_req rm = {.name = "tidy", .scope = UPK_SCOPE_PROJECT, .project_root = p};
  cr_assert_eq(upk_remove(&rm, &res), 0, "%s", first_msg(&res.diags));
  upk_install_result_free(&res);
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(count_entries(path_of(p, roots[i])), 0, "%s is not empty", roots[i]);
    cr_assert_not(exists(manifest_path(path_of(p, roots[i]))), "the manifest of %s stayed",
                  roots[i]);
  }
  rmrf(p);
  rmrf(src);
}

/* An older upskilld's lock file and manifest in the directory: the first install moves the
 * entries to the state directory (keeping their first install time) and deletes both. */
UTest(install, legacy_lock_and_manifest_moved_out) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "older", "v1");
  make_skill(src, "newer", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "older"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  char *root = path_of(p, ".claude/skills");
  json_t *m = manifest(root);
  json_t *e = json_object_get(json_object_get(m, "skills"), "older");
  json_object_set_new(e, "installedAt", json_string("2001-02-03T04:05:06Z"));
  cr_assert_eq(json_dump_file(m, path_of(root, UPK_LEGACY_MANIFEST), 0), 0);
  json_decref(m);
  unlink(manifest_path(root));
  write_file(root, UPK_LEGACY_LOCKFILE, "");
  cr_assert_eq(install_path(p, path_of(src, "newer"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  cr_assert_not(exists(path_of(root, UPK_LEGACY_MANIFEST)));
  cr_assert_not(exists(path_of(root, UPK_LEGACY_LOCKFILE)));
  cr_assert_eq(count_entries(root), 2);
  e = manifest_entry(root, "older");
  cr_assert_str_eq(json_string_value(json_object_get(e, "installedAt")), "2001-02-03T04:05:06Z");
  json_decref(e);
  e = manifest_entry(root, "newer");
  cr_assert_not_null(e);
  json_decref(e);
  rmrf(p);
  rmrf(src);
}

/* ---- user scope and the environment ---------------------------------------- */

static const char *test_getenv(void *ctx, const char *name) {
  size_t n = strlen(name);
  for (char **p = ctx; *p; p++)
    if (strncmp(*p, name, n) == 0 && (*p)[n] == '=')
      return *p + n + 1;
  return NULL;
}

UTest(install, user_scope_honours_overrides) {
  char *t = tmpdir(), *src = tmpdir();
  make_skill(src, "usr", "v1");
  char *vars[] = {fmt("HOME=%s/home", t), fmt("CLAUDE_CONFIG_DIR=%s/cfg", t),
                  fmt("XDG_CONFIG_HOME=%s/xdg", t), NULL};
  mkdirs(path_of(t, "home"));
  upk_env env = {test_getenv, vars};
  const char *ids[] = {"claude", "opencode", "goose", "codex"};
  upk_install_req rq = {.from_path = path_of(src, "usr"),
                        .agents = ids,
                        .n_agents = 4,
                        .scope = UPK_SCOPE_USER,
                        .env = &env};
  upk_install_result res;
  int rc = upk_install(&rq, &res);
  cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
  cr_assert(exists(path_of(t, "cfg/skills/usr/SKILL.md")), "$CLAUDE_CONFIG_DIR/skills");
  cr_assert(exists(path_of(t, "xdg/opencode/skills/usr/SKILL.md")));
  cr_assert(exists(path_of(t, "xdg/goose/skills/usr/SKILL.md")));
  cr_assert(exists(path_of(t, "home/.agents/skills/usr/SKILL.md")));
  cr_assert_not(exists(path_of(t, "home/.claude")), "not ~/.claude when overridden");
  upk_install_result_free(&res);
  /* Without XDG_CONFIG_HOME: ~/.config. */
  char *xdg = vars[2];
  vars[2] = NULL;
  const char *oc[] = {"opencode"};
  rq.agents = oc;
  rq.n_agents = 1;
  cr_assert_eq(upk_install(&rq, &res), 0);
  cr_assert(exists(path_of(t, "home/.config/opencode/skills/usr/SKILL.md")));
  upk_install_result_free(&res);
  upk_remove_req rr = {.name = "usr", .scope = UPK_SCOPE_USER, .env = &env};
  vars[2] = xdg;
  cr_assert_eq(upk_remove(&rr, &res), 0);
  cr_assert_eq(res.n_targets, 4, "found in every directory it was installed to");
  cr_assert_not(exists(path_of(t, "cfg/skills/usr")));
  cr_assert_not(exists(path_of(t, "xdg/goose/skills/usr")));
  cr_assert(exists(path_of(t, "home/.config/opencode/skills/usr")), "not in this environment");
  upk_install_result_free(&res);
  rmrf(t);
  rmrf(src);
}

/* ---- remove --------------------------------------------------------------- */

UTest(install, remove_installed_skill) {
  char *p = tmpdir(), *src = tmpdir();
  make_skill(src, "gone", "v1");
  make_skill(src, "stays", "v1");
  upk_install_result res;
  upk_install_req rq = path_req(p, path_of(src, "gone"), NULL, false);
  cr_assert_eq(upk_install(&rq, &res), 0);
  upk_install_result_free(&res);
  cr_assert_eq(install_path(p, path_of(src, "stays"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  const char *claude[] = {"claude"};
  upk_remove_req rr = {.name = "gone",
                       .agents = claude,
                       .n_agents = 1,
                       .scope = UPK_SCOPE_PROJECT,
                       .project_root = p};
  cr_assert_eq(upk_remove(&rr, &res), 0);
  cr_assert(res.targets[0].removed);
  cr_assert_not(exists(path_of(p, ".claude/skills/gone")));
  cr_assert(exists(path_of(p, ".agents/skills/gone")), "only the agent asked for");
  cr_assert(exists(path_of(p, ".claude/skills/stays/SKILL.md")));
  cr_assert_not(has_tmp(path_of(p, ".claude/skills")));
  json_t *e = manifest_entry(path_of(p, ".claude/skills"), "gone");
  cr_assert_null(e, "manifest entry dropped");
  e = manifest_entry(path_of(p, ".claude/skills"), "stays");
  cr_assert_not_null(e);
  json_decref(e);
  upk_install_result_free(&res);
  cr_assert_eq(upk_remove(&rr, &res), -ENOENT);
  cr_assert(has_code(&res.diags, "install/not-installed"));
  upk_install_result_free(&res);
  /* No agents: wherever it is. */
  rr.agents = NULL;
  rr.n_agents = 0;
  cr_assert_eq(upk_remove(&rr, &res), 0);
  cr_assert_eq(res.n_targets, 1);
  cr_assert_str_eq(res.targets[0].path, path_of(p, ".agents/skills/gone"));
  cr_assert_not(exists(path_of(p, ".agents/skills/gone")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(src);
}

UTest(install, remove_only_what_is_a_skill) {
  char *p = tmpdir(), *out = tmpdir();
  write_file(out, "victim/SKILL.md", "---\nname: victim\ndescription: x\n---\n");
  write_file(p, ".claude/skills/plain/notes.txt", "mine\n");
  cr_assert_eq(symlink(path_of(out, "victim"), path_of(p, ".claude/skills/victim")), 0);
  const char *claude[] = {"claude"};
  upk_remove_req rr = {.name = "victim",
                       .agents = claude,
                       .n_agents = 1,
                       .scope = UPK_SCOPE_PROJECT,
                       .project_root = p};
  upk_install_result res;
  cr_assert_eq(upk_remove(&rr, &res), -EPERM);
  cr_assert(has_code(&res.diags, "install/not-a-skill"));
  cr_assert(exists(path_of(p, ".claude/skills/victim")), "the link is left alone");
  cr_assert(exists(path_of(out, "victim/SKILL.md")), "its target too");
  upk_install_result_free(&res);
  rr.name = "plain";
  cr_assert_eq(upk_remove(&rr, &res), -EPERM);
  cr_assert(exists(path_of(p, ".claude/skills/plain/notes.txt")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(out);
}

/* ---- fsutil --------------------------------------------------------------- */

UTest(install, fsutil_paths_and_reads) {
  cr_assert(upk_rel_path_ok("SKILL.md"));
  cr_assert(upk_rel_path_ok("scripts/a.py"));
  cr_assert(upk_rel_path_ok(".hidden/x..y"));
  cr_assert_not(upk_rel_path_ok("a/./b"));
  cr_assert_not(upk_rel_path_ok("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q"), "deeper than 16");
  char *p = tmpdir();
  write_file(p, "f.txt", "12345");
  char *text;
  size_t len;
  cr_assert_eq(upk_read_file_at(AT_FDCWD, path_of(p, "f.txt"), 5, &text, &len), 0, "exactly max");
  cr_assert_eq(len, 5);
  cr_assert_str_eq(text, "12345");
  free(text);
  cr_assert_eq(upk_read_file_at(AT_FDCWD, path_of(p, "f.txt"), 4, &text, &len), -EFBIG);
  write_file(p, "empty", "");
  cr_assert_eq(upk_read_file_at(AT_FDCWD, path_of(p, "empty"), 0, &text, &len), 0);
  cr_assert_eq(len, 0);
  free(text);
  cr_assert_eq(symlink(path_of(p, "f.txt"), path_of(p, "link")), 0);
  cr_assert_eq(upk_read_file_at(AT_FDCWD, path_of(p, "link"), 100, &text, &len), -ELOOP);
  rmrf(p);
}
