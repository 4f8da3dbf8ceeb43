/* Validation: skills-ref's 21 validator cases (test_validator.py) in STRICT
 * mode with its exact messages, then the extra warnings, LENIENT grading,
 * positions and bad input. */
#include "tests/skills/skill_helpers.h"

#include <grp.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "skills/skill.h"
#include "skills/validate.h"

TestSuite(validate, .init = th_setup, .fini = th_teardown);

static upk_diags d;

/* Validate a directory strictly; returns the error count. */
static size_t strict(const char *path) {
  upk_diags_free(&d);
  return upk_skill_validate_path(path, UPK_VALIDATE_STRICT, &d);
}

static size_t lenient(const char *path) {
  upk_diags_free(&d);
  return upk_skill_validate_path(path, UPK_VALIDATE_LENIENT, &d);
}

static void assert_only_error(const char *code, const char *message) {
  cr_assert_eq(upk_diags_count(&d, UPK_SEV_ERROR), 1, "%s", th_dump(&d));
  const upk_diag *x = th_find(&d, code);
  cr_assert(x, "no %s in%s", code, th_dump(&d));
  cr_assert_eq(x->severity, UPK_SEV_ERROR);
  cr_assert_str_eq(x->message, message);
  cr_assert_str_eq(x->source, "upskilld-skill");
}

/* ---- skills-ref tests/test_validator.py ------------------------------ */

Test(validate, ref_valid_skill) {
  cr_assert_eq(strict(th_skill("my-skill", "name: my-skill\ndescription: A test skill\n")), 0, "%s",
               th_dump(&d));
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
}

Test(validate, ref_nonexistent_path) {
  char msg[4200];
  snprintf(msg, sizeof msg, "Path does not exist: %s", th_path("nonexistent"));
  cr_assert_eq(strict(th_path("nonexistent")), 1);
  cr_assert_eq(d.len, 1);
  assert_only_error("skill/path-not-found", msg);
}

Test(validate, ref_not_a_directory) {
  th_write("file.txt", "test");
  char msg[4200];
  snprintf(msg, sizeof msg, "Not a directory: %s", th_path("file.txt"));
  cr_assert_eq(strict(th_path("file.txt")), 1);
  assert_only_error("skill/not-a-directory", msg);
}

Test(validate, ref_missing_skill_md) {
  th_mkdirs("my-skill");
  cr_assert_eq(strict(th_path("my-skill")), 1);
  assert_only_error("skill/missing-skill-md", "Missing required file: SKILL.md");
}

Test(validate, ref_invalid_name_uppercase) {
  strict(th_skill("MySkill", "name: MySkill\ndescription: A test skill\n"));
  assert_only_error("skill/name-uppercase", "Skill name 'MySkill' must be lowercase");
}

Test(validate, ref_name_too_long) {
  char name[71], fm[200];
  memset(name, 'a', 70);
  name[70] = '\0';
  snprintf(fm, sizeof fm, "name: %s\ndescription: A test skill\n", name);
  strict(th_skill(name, fm));
  char msg[200];
  snprintf(msg, sizeof msg, "Skill name '%s' exceeds 64 character limit (70 chars)", name);
  assert_only_error("skill/name-too-long", msg);
}

Test(validate, ref_leading_hyphen) {
  strict(th_skill("-my-skill", "name: -my-skill\ndescription: A test skill\n"));
  assert_only_error("skill/name-hyphen-edge", "Skill name cannot start or end with a hyphen");
}

Test(validate, ref_consecutive_hyphens) {
  strict(th_skill("my--skill", "name: my--skill\ndescription: A test skill\n"));
  assert_only_error("skill/name-consecutive-hyphens",
                    "Skill name cannot contain consecutive hyphens");
}

Test(validate, ref_invalid_characters) {
  strict(th_skill("my_skill", "name: my_skill\ndescription: A test skill\n"));
  assert_only_error("skill/name-invalid-chars",
                    "Skill name 'my_skill' contains invalid characters. Only letters, digits, "
                    "and hyphens are allowed.");
}

Test(validate, ref_name_directory_mismatch) {
  strict(th_skill("wrong-name", "name: correct-name\ndescription: A test skill\n"));
  assert_only_error("skill/name-dir-mismatch",
                    "Directory name 'wrong-name' must match skill name 'correct-name'");
}

Test(validate, ref_unexpected_fields) {
  strict(th_skill("my-skill", "name: my-skill\ndescription: A test skill\nunknown_field: x\n"));
  assert_only_error("skill/unexpected-fields",
                    "Unexpected fields in frontmatter: unknown_field. Only ['allowed-tools', "
                    "'compatibility', 'description', 'license', 'metadata', 'name'] are "
                    "allowed.");
}

Test(validate, ref_valid_with_all_fields) {
  cr_assert_eq(strict(th_skill("my-skill", "name: my-skill\ndescription: A test skill\n"
                                           "license: MIT\nmetadata:\n  author: Test\n")),
               0, "%s", th_dump(&d));
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
}

Test(validate, ref_allowed_tools_accepted) {
  cr_assert_eq(strict(th_skill("my-skill", "name: my-skill\ndescription: A test skill\n"
                                           "allowed-tools: Bash(jq:*) Bash(git:*)\n")),
               0, "%s", th_dump(&d));
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
}

Test(validate, ref_i18n_chinese_name) {
  cr_assert_eq(strict(th_skill("技能", "name: 技能\ndescription: A skill with a Chinese name\n")),
               0, "%s", th_dump(&d));
}

Test(validate, ref_i18n_russian_name_with_hyphens) {
  cr_assert_eq(strict(th_skill("мой-навык", "name: мой-навык\ndescription: A skill\n")), 0, "%s",
               th_dump(&d));
}

Test(validate, ref_i18n_russian_lowercase) {
  cr_assert_eq(strict(th_skill("навык", "name: навык\ndescription: A skill\n")), 0, "%s",
               th_dump(&d));
}

Test(validate, ref_i18n_russian_uppercase_rejected) {
  strict(th_skill("НАВЫК", "name: НАВЫК\ndescription: A skill\n"));
  assert_only_error("skill/name-uppercase", "Skill name 'НАВЫК' must be lowercase");
}

Test(validate, ref_description_too_long) {
  char fm[1300] = "name: my-skill\ndescription: ";
  size_t n = strlen(fm);
  memset(fm + n, 'x', 1100);
  strcpy(fm + n + 1100, "\n");
  strict(th_skill("my-skill", fm));
  assert_only_error("skill/description-too-long",
                    "Description exceeds 1024 character limit (1100 chars)");
}

Test(validate, ref_valid_compatibility) {
  cr_assert_eq(strict(th_skill("my-skill", "name: my-skill\ndescription: A test skill\n"
                                           "compatibility: Requires Python 3.11+\n")),
               0, "%s", th_dump(&d));
}

Test(validate, ref_compatibility_too_long) {
  char fm[800] = "name: my-skill\ndescription: A test skill\ncompatibility: ";
  size_t n = strlen(fm);
  memset(fm + n, 'x', 550);
  strcpy(fm + n + 550, "\n");
  strict(th_skill("my-skill", fm));
  assert_only_error("skill/compatibility-too-long",
                    "Compatibility exceeds 500 character limit (550 chars)");
}

Test(validate, ref_nfkc_normalization) {
  /* Directory in NFC (U+00E9), name in NFD (e + U+0301): equal after NFKC. */
  cr_assert_eq(strict(th_skill("caf\xC3\xA9", "name: cafe\xCC\x81\ndescription: A skill\n")), 0,
               "%s", th_dump(&d));
}

/* ---- more of skills-ref's rules ---------------------------------------- */

Test(validate, several_name_errors_at_once_in_order) {
  strict(th_skill("x", "name: -My--Skill-\ndescription: d\n"));
  cr_assert_eq(upk_diags_count(&d, UPK_SEV_ERROR), 4, "%s", th_dump(&d));
  cr_assert_str_eq(d.items[0].message, "Skill name '-My--Skill-' must be lowercase");
  cr_assert_str_eq(d.items[1].message, "Skill name cannot start or end with a hyphen");
  cr_assert_str_eq(d.items[2].message, "Skill name cannot contain consecutive hyphens");
  cr_assert_str_eq(d.items[3].message, "Directory name 'x' must match skill name '-My--Skill-'");
}

Test(validate, missing_name_and_description) {
  cr_assert_eq(strict(th_skill("my-skill", "license: MIT\n")), 2, "%s", th_dump(&d));
  cr_assert_str_eq(d.items[0].message, "Missing required field in frontmatter: name");
  cr_assert_str_eq(d.items[1].message, "Missing required field in frontmatter: description");
  th_assert_range(d.items[0].range, 0, 0, 0, 3);
}

Test(validate, empty_and_non_string_fields) {
  strict(th_skill("my-skill", "name: \"  \"\ndescription:\n  - a\ncompatibility:\n  a: b\n"));
  cr_assert_eq(upk_diags_count(&d, UPK_SEV_ERROR), 3, "%s", th_dump(&d));
  cr_assert_str_eq(th_find(&d, "skill/name-empty")->message,
                   "Field 'name' must be a non-empty string");
  cr_assert_str_eq(th_find(&d, "skill/description-empty")->message,
                   "Field 'description' must be a non-empty string");
  cr_assert_str_eq(th_find(&d, "skill/compatibility-not-string")->message,
                   "Field 'compatibility' must be a string");
}

Test(validate, unexpected_fields_sorted_and_claude_code_hints) {
  strict(th_skill("my-skill", "name: my-skill\ndescription: d\nzeta: 1\nargument-hint: x\n"
                              "user-invocable: false\n"));
  const upk_diag *x = th_find(&d, "skill/unexpected-fields");
  cr_assert_str_eq(x->message, "Unexpected fields in frontmatter: argument-hint, user-invocable, "
                               "zeta. Only ['allowed-tools', 'compatibility', 'description', "
                               "'license', 'metadata', 'name'] are allowed.");
  th_assert_range(x->range, 3, 0, 3, 4); /* the first unexpected key in the file */
  cr_assert_eq(th_count_code(&d, "skill/claude-code-field"), 2);
  x = th_find(&d, "skill/claude-code-field");
  cr_assert_eq(x->severity, UPK_SEV_HINT);
  th_assert_range(x->range, 4, 0, 4, 13);
  cr_assert_str_eq(x->message, "'argument-hint' is a Claude Code extension: other agents ignore "
                               "it and skills-ref rejects it; for a portable skill drop it or "
                               "move it under metadata");
}

Test(validate, names_with_dots_and_slashes) {
  strict(th_skill("evil", "name: ../evil\ndescription: d\n"));
  cr_assert(th_has_message(&d, "Skill name '../evil' contains invalid characters. Only letters, "
                               "digits, and hyphens are allowed."),
            "%s", th_dump(&d));
  strict(th_skill("a-b", "name: a/b\ndescription: d\n"));
  cr_assert(th_find(&d, "skill/name-invalid-chars"), "%s", th_dump(&d));
  cr_assert(th_find(&d, "skill/name-dir-mismatch"));
}

Test(validate, fullwidth_name_normalised_by_nfkc) {
  /* NFKC folds fullwidth letters, as skills-ref does before checking. */
  cr_assert_eq(strict(th_skill("my-skill", "name: \xEF\xBD\x8D\xEF\xBD\x99-skill\n"
                                           "description: d\n")),
               0, "%s", th_dump(&d));
}

Test(validate, name_positions_exact) {
  strict(th_skill("my-skill", "description: d\nname:   My-Skill  \n"));
  const upk_diag *x = th_find(&d, "skill/name-uppercase");
  cr_assert_str_eq(x->message, "Skill name 'My-Skill' must be lowercase");
  th_assert_range(x->range, 2, 8, 2, 16);
}

/* ---- warnings where agents are stricter ----------------------------- */

Test(validate, reserved_words_in_name) {
  cr_assert_eq(strict(th_skill("claude-helper", "name: claude-helper\ndescription: d\n")), 0);
  const upk_diag *x = th_find(&d, "skill/name-reserved-word");
  cr_assert_eq(x->severity, UPK_SEV_WARNING);
  cr_assert_str_eq(x->message, "Skill name 'claude-helper' contains the reserved word 'claude'; "
                               "claude.ai and the Claude API refuse such skills");
}

Test(validate, angle_brackets_in_description) {
  cr_assert_eq(strict(th_skill("my-skill", "name: my-skill\ndescription: Use <foo> tags\n")), 0);
  const upk_diag *x = th_find(&d, "skill/description-angle-brackets");
  cr_assert_eq(x->severity, UPK_SEV_WARNING);
  th_assert_range(x->range, 2, 13, 2, 27);
}

Test(validate, unicode_name_gets_ascii_advice) {
  strict(th_skill("caf\xC3\xA9", "name: caf\xC3\xA9\ndescription: d\n"));
  const upk_diag *x = th_find(&d, "skill/name-not-ascii");
  cr_assert_eq(x->severity, UPK_SEV_WARNING);
  cr_assert_str_eq(x->message, "Skill name 'café' is not ASCII; the specification and opencode "
                               "accept only ^[a-z0-9]+(-[a-z0-9]+)*$");
}

Test(validate, body_over_500_lines) {
  size_t n = 0, cap = 700 * 8 + 100;
  char *t = malloc(cap);
  n += (size_t)sprintf(t, "---\nname: my-skill\ndescription: d\n---\n");
  for (int i = 0; i < 600; i++)
    n += (size_t)sprintf(t + n, "line %d\n", i);
  th_write("my-skill/SKILL.md", t);
  free(t);
  cr_assert_eq(strict(th_path("my-skill")), 0);
  const upk_diag *x = th_find(&d, "skill/body-too-long");
  cr_assert_str_eq(x->message, "SKILL.md body is 600 lines; keep it under 500 lines and move "
                               "details into references/");
  th_assert_range(x->range, 504, 0, 505, 0);
}

Test(validate, broken_and_outside_references) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\ndescription: d\n---\n"
                                "Read [the guide](references/guide.md) then run `scripts/go.py`.\n"
                                "See [up](../other/x.md) and [ok](references/ok.md).\n");
  th_write("my-skill/references/ok.md", "ok");
  cr_assert_eq(strict(th_path("my-skill")), 0);
  cr_assert_eq(th_count_code(&d, "skill/broken-reference"), 2, "%s", th_dump(&d));
  const upk_diag *x = th_find(&d, "skill/broken-reference");
  cr_assert_str_eq(x->message,
                   "Referenced file 'references/guide.md' does not exist in the skill directory");
  th_assert_range(x->range, 4, 17, 4, 36);
  x = &d.items[1];
  cr_assert_str_eq(x->message,
                   "Referenced file 'scripts/go.py' does not exist in the skill directory");
  th_assert_range(x->range, 4, 48, 4, 61);
  x = th_find(&d, "skill/reference-outside");
  th_assert_range(x->range, 5, 9, 5, 22);
}

Test(validate, synced_folder_reserved) {
  strict(th_skill("Synced", "name: Synced\ndescription: d\n"));
  cr_assert(th_find(&d, "skill/dir-reserved"), "%s", th_dump(&d));
}

Test(validate, lowercase_file_name_warned) {
  th_write("my-skill/skill.md", "---\nname: my-skill\ndescription: d\n---\n");
  cr_assert_eq(strict(th_path("my-skill")), 0);
  const upk_diag *x = th_find(&d, "skill/lowercase-filename");
  cr_assert_eq(x->severity, UPK_SEV_WARNING);
}

/* ---- LENIENT: the client guide ---------------------------------------- */

Test(validate, lenient_name_mismatch_and_length_are_warnings) {
  char fm[200], name[80];
  memset(name, 'a', 70);
  name[70] = '\0';
  snprintf(fm, sizeof fm, "name: %s\ndescription: d\n", name);
  cr_assert_eq(lenient(th_skill("other", fm)), 0, "%s", th_dump(&d));
  cr_assert_eq(th_find(&d, "skill/name-too-long")->severity, UPK_SEV_WARNING);
  cr_assert_eq(th_find(&d, "skill/name-dir-mismatch")->severity, UPK_SEV_WARNING);
}

Test(validate, lenient_missing_description_is_error) {
  cr_assert_eq(lenient(th_skill("my-skill", "name: my-skill\n")), 1);
  cr_assert_eq(th_find(&d, "skill/description-missing")->severity, UPK_SEV_ERROR);
  cr_assert_eq(lenient(th_skill("my-skill", "name: my-skill\ndescription: ''\n")), 1);
  cr_assert(th_find(&d, "skill/description-empty"));
}

Test(validate, lenient_unparseable_frontmatter_is_error) {
  th_write("my-skill/SKILL.md", "---\nname: [oops\n---\n");
  cr_assert_eq(lenient(th_path("my-skill")), 1);
  cr_assert(th_find(&d, "skill/invalid-yaml"));
}

Test(validate, lenient_everything_else_warns) {
  cr_assert_eq(lenient(th_skill("x", "name: My_Skill\ndescription: d\nfoo: 1\n")), 0, "%s",
               th_dump(&d));
  cr_assert_eq(th_find(&d, "skill/unexpected-fields")->severity, UPK_SEV_WARNING);
  cr_assert_eq(th_find(&d, "skill/name-uppercase")->severity, UPK_SEV_WARNING);
  cr_assert_eq(th_find(&d, "skill/name-invalid-chars")->severity, UPK_SEV_WARNING);
}

static size_t install_mode(const char *path) {
  upk_diags_free(&d);
  return upk_skill_validate_path(path, UPK_VALIDATE_INSTALL, &d);
}

/* INSTALL: lenient, except the name rules agents enforce (docs/skills.md, "Install rules"). */
Test(validate, install_refuses_names_agents_refuse) {
  cr_assert_eq(install_mode(th_skill("Bad_Skill", "name: Bad_Skill\ndescription: d\nfoo: 1\n")), 2,
               "%s", th_dump(&d));
  cr_assert_eq(th_find(&d, "skill/name-uppercase")->severity, UPK_SEV_ERROR);
  cr_assert_eq(th_find(&d, "skill/name-invalid-chars")->severity, UPK_SEV_ERROR);
  cr_assert_eq(th_find(&d, "skill/unexpected-fields")->severity, UPK_SEV_WARNING);
  cr_assert_eq(install_mode(th_skill("caf\xc3\xa9", "name: caf\xc3\xa9\ndescription: d\n")), 1);
  cr_assert_eq(th_find(&d, "skill/name-not-ascii")->severity, UPK_SEV_ERROR);
  cr_assert_eq(install_mode(th_skill("a--b", "name: a--b\ndescription: d\n")), 1);
  cr_assert(th_find(&d, "skill/name-consecutive-hyphens"));
  /* the directory is named after the skill once installed: a source's differing one warns */
  cr_assert_eq(install_mode(th_skill("dir", "name: good-name\ndescription: d\n")), 0);
  cr_assert_eq(th_find(&d, "skill/name-dir-mismatch")->severity, UPK_SEV_WARNING);
  char fm[1200];
  snprintf(fm, sizeof fm, "name: long-desc\ndescription: %01100d\n", 0);
  cr_assert_eq(install_mode(th_skill("long-desc", fm)), 0, "%s", th_dump(&d));
  cr_assert_eq(th_find(&d, "skill/description-too-long")->severity, UPK_SEV_WARNING);
  cr_assert_eq(strict(th_path("long-desc")), 1, "strict still refuses it");
}

Test(validate, unquoted_colon_strict_error_lenient_loads) {
  const char *dir = th_skill("my-skill", "name: my-skill\ndescription: Use when: the user asks\n");
  cr_assert_eq(strict(dir), 1, "%s", th_dump(&d));
  const upk_diag *x = th_find(&d, "skill/yaml-unquoted-colon");
  cr_assert_eq(x->severity, UPK_SEV_ERROR);
  cr_assert_str_eq(x->message,
                   "Invalid YAML in frontmatter: mapping values are not allowed in this context "
                   "(line 3, column 22). The value of 'description' contains \": \": quote it "
                   "(description: \"...\") or use a block scalar (description: >-); it was read "
                   "as if quoted");
  th_assert_range(x->range, 2, 13, 2, 36);
  cr_assert_eq(lenient(dir), 0, "%s", th_dump(&d));
  cr_assert_eq(th_find(&d, "skill/yaml-unquoted-colon")->severity, UPK_SEV_WARNING);
}

Test(validate, bom_strict_error_lenient_warning) {
  th_write("my-skill/SKILL.md", "\xEF\xBB\xBF---\nname: my-skill\ndescription: d\n---\n");
  cr_assert_eq(strict(th_path("my-skill")), 1);
  cr_assert_str_eq(th_find(&d, "skill/bom")->message,
                   "SKILL.md starts with a UTF-8 byte order mark, so skills-ref reports "
                   "\"SKILL.md must start with YAML frontmatter (---)\": save it as UTF-8 without "
                   "BOM");
  cr_assert_eq(lenient(th_path("my-skill")), 0);
}

Test(validate, strictyaml_refusals) {
  const char *dir = th_skill("my-skill", "name: my-skill\ndescription: &d text\n"
                                         "allowed-tools: [Read, Write]\nlicense: !!str MIT\n");
  strict(dir);
  cr_assert(th_find(&d, "skill/yaml-anchor"), "%s", th_dump(&d));
  cr_assert(th_find(&d, "skill/yaml-flow-style"));
  cr_assert(th_find(&d, "skill/yaml-tag"));
  cr_assert(th_find(&d, "skill/allowed-tools-not-string"));
  th_assert_range(th_find(&d, "skill/yaml-flow-style")->range, 3, 15, 3, 16);
  cr_assert_eq(lenient(dir), 0, "%s", th_dump(&d));
}

Test(validate, duplicate_keys) {
  strict(th_skill("my-skill", "name: my-skill\ndescription: a\ndescription: b\n"));
  const upk_diag *x = th_find(&d, "skill/yaml-duplicate-key");
  cr_assert_str_eq(x->message, "Invalid YAML in frontmatter (line 4, column 1): duplicate key "
                               "'description'; the last one is used");
  th_assert_range(x->range, 3, 0, 3, 11);
}

/* ---- text and bad paths ------------------------------------------------ */

Test(validate, text_has_no_directory_checks) {
  const char *t = "---\nname: some-name\ndescription: d\n---\nSee `scripts/missing.py`.\n";
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_validate_text(t, strlen(t), UPK_VALIDATE_STRICT, &d), 0, "%s",
               th_dump(&d));
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
}

Test(validate, text_parse_error_counts) {
  const char *t = "# no frontmatter\n";
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_validate_text(t, strlen(t), UPK_VALIDATE_STRICT, &d), 1);
  cr_assert_str_eq(d.items[0].message, "SKILL.md must start with YAML frontmatter (---)");
}

Test(validate, skill_md_path_accepted) {
  th_skill("my-skill", "name: my-skill\ndescription: d\n");
  cr_assert_eq(strict(th_path("my-skill/SKILL.md")), 0, "%s", th_dump(&d));
}

Test(validate, symlink_loop) {
  symlink(th_path("b"), th_path("a"));
  symlink(th_path("a"), th_path("b"));
  cr_assert_eq(strict(th_path("a")), 1);
  cr_assert(th_find(&d, "skill/symlink-loop"), "%s", th_dump(&d));
  th_mkdirs("my-skill");
  symlink("SKILL.md", th_path("my-skill/SKILL.md"));
  cr_assert_eq(strict(th_path("my-skill")), 1);
  cr_assert(th_find(&d, "skill/symlink-loop"), "%s", th_dump(&d));
}

Test(validate, symlinked_skill_directory_followed) {
  th_skill("real", "name: link\ndescription: d\n");
  symlink(th_path("real"), th_path("link"));
  cr_assert_eq(strict(th_path("link")), 0, "%s", th_dump(&d));
}

/* Runs as nobody in a child when the tests run as root (root reads
 * anything); the child's exit status carries the verdict. */
static int unreadable_child(void) {
  if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
    return 10;
  if (strict(th_path("my-skill")) != 1)
    return 11;
  const upk_diag *x = th_find(&d, "skill/unreadable");
  char msg[4200];
  snprintf(msg, sizeof msg, "Cannot read %s/SKILL.md: Permission denied", th_path("my-skill"));
  return x && strcmp(x->message, msg) == 0 ? 0 : 12;
}

Test(validate, unreadable_directory) {
  th_skill("my-skill", "name: my-skill\ndescription: d\n");
  chmod(th_root, 0755);
  chmod(th_path("my-skill"), 0);
  pid_t pid = fork();
  if (pid == 0)
    _exit(unreadable_child());
  int status = 0;
  waitpid(pid, &status, 0);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
}

Test(validate, skill_md_that_is_a_directory_or_fifo) {
  th_mkdirs("a/SKILL.md");
  cr_assert_eq(strict(th_path("a")), 1);
  cr_assert(th_find(&d, "skill/not-regular-file"), "%s", th_dump(&d));
  th_mkdirs("b");
  mkfifo(th_path("b/SKILL.md"), 0644);
  cr_assert_eq(strict(th_path("b")), 1); /* must not block on the FIFO */
  cr_assert(th_find(&d, "skill/not-regular-file"), "%s", th_dump(&d));
}

Test(validate, many_non_skill_folders_do_not_matter) {
  th_skill("my-skill", "name: my-skill\ndescription: d\n");
  char rel[64];
  for (int i = 0; i < 2000; i++) {
    snprintf(rel, sizeof rel, "my-skill/assets/d%d", i);
    th_mkdirs(rel);
  }
  cr_assert_eq(strict(th_path("my-skill")), 0, "%s", th_dump(&d));
}

Test(validate, hangul_nfd_directory_matches_nfc_name) {
  /* macOS stores names decomposed: 한 = U+1112 U+1161 U+11AB. */
  cr_assert_eq(strict(th_skill("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB", "name: \xED\x95\x9C\n"
                                                                       "description: d\n")),
               0, "%s", th_dump(&d));
}
