/* <available_skills>: skills-ref's four to-prompt cases plus byte-exact
 * comparisons (escaping, stripping, location resolution, index entries). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "skills/prompt.h"

static char tmp[PATH_MAX];

static void setup(void) {
  snprintf(tmp, sizeof tmp, "/tmp/upk-prompt-XXXXXX");
  cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void) {
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  (void)!system(cmd);
}

/* tmp/<dir>/<file> holding text; returns the skill directory. */
static char *make_skill(const char *dir, const char *file, const char *text) {
  static char d[PATH_MAX];
  char p[PATH_MAX + 16];
  snprintf(d, sizeof d, "%s/%s", tmp, dir);
  mkdir(d, 0755);
  snprintf(p, sizeof p, "%s/%s", d, file);
  FILE *f = fopen(p, "w");
  cr_assert_not_null(f);
  fputs(text, f);
  fclose(f);
  return d;
}

static char *real_tmp(void) {
  static char r[PATH_MAX];
  cr_assert_not_null(realpath(tmp, r));
  return r;
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

TestSuite(prompt, .init = setup, .fini = teardown);

/* skills-ref test_empty_list */
UTest(prompt, empty_list) {
  char *out;
  cr_assert_eq(upk_prompt_from_dirs(NULL, 0, &out, NULL), 0);
  cr_assert_str_eq(out, "<available_skills>\n</available_skills>");
  free(out);
  out = upk_prompt_render(NULL, 0);
  cr_assert_str_eq(out, "<available_skills>\n</available_skills>");
  free(out);
}

/* skills-ref test_single_skill, compared byte for byte */
UTest(prompt, single_skill) {
  const char *dir = make_skill("my-skill", "SKILL.md",
                               "---\nname: my-skill\ndescription: A test skill\n---\nBody\n");
  char *out, want[PATH_MAX * 2];
  cr_assert_eq(upk_prompt_from_dirs(&dir, 1, &out, NULL), 0);
  snprintf(want, sizeof want,
           "<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\nA test "
           "skill\n</description>\n<location>\n%s/my-skill/SKILL.md\n</location>\n</skill>\n"
           "</available_skills>",
           real_tmp());
  cr_assert_str_eq(out, want);
  free(out);
}

/* skills-ref test_multiple_skills */
UTest(prompt, multiple_skills) {
  char a[PATH_MAX], b[PATH_MAX];
  snprintf(a, sizeof a, "%s",
           make_skill("skill-a", "SKILL.md",
                      "---\nname: skill-a\ndescription: First skill\n---\nBody\n"));
  snprintf(b, sizeof b, "%s",
           make_skill("skill-b", "SKILL.md",
                      "---\nname: skill-b\ndescription: Second skill\n---\nBody\n"));
  const char *dirs[] = {a, b};
  char *out;
  cr_assert_eq(upk_prompt_from_dirs(dirs, 2, &out, NULL), 0);
  cr_assert_eq(count(out, "<skill>"), 2);
  cr_assert_eq(count(out, "</skill>"), 2);
  cr_assert_lt(strstr(out, "skill-a"), strstr(out, "skill-b"), "order is kept");
  free(out);
}

/* skills-ref test_special_characters_escaped */
UTest(prompt, special_characters_escaped) {
  const char *dir = make_skill("special-skill", "SKILL.md",
                               "---\nname: special-skill\ndescription: Use <foo> & <bar> tags\n"
                               "---\nBody\n");
  char *out;
  cr_assert_eq(upk_prompt_from_dirs(&dir, 1, &out, NULL), 0);
  cr_assert_not_null(strstr(out, "\n<description>\nUse &lt;foo&gt; &amp; &lt;bar&gt; tags\n"));
  cr_assert_null(strstr(out, "<foo>"));
  cr_assert_null(strstr(out, "<bar>"));
  free(out);
}

/* skills-ref test_special_characters_escaped_in_location */
UTest(prompt, special_characters_escaped_in_location) {
  const char *dir = make_skill("special-location-&-<>", "SKILL.md",
                               "---\nname: special-location\ndescription: Test skill with "
                               "special characters in path\n---\nBody\n");
  char *out;
  cr_assert_eq(upk_prompt_from_dirs(&dir, 1, &out, NULL), 0);
  cr_assert_not_null(strstr(out, "/special-location-&amp;-&lt;&gt;/SKILL.md\n</location>"));
  cr_assert_null(strstr(out, "special-location-&-<>"));
  free(out);
}

/* html.escape(quote=True) over every special character, and str.strip() */
UTest(prompt, render_is_byte_exact) {
  upk_prompt_skill s[] = {
      {"  a&b  ", " He said \"it's <fine>\" & left.\n", "/x/'q'/SKILL.md"},
      {"\xc2\xa0uni\xe3\x80\x80", "caf\xc3\xa9 \xe2\x80\x94 ok\tline\nnext\x1f", "/y/SKILL.md"}};
  char *out = upk_prompt_render(s, 2);
  cr_assert_str_eq(out, "<available_skills>\n"
                        "<skill>\n<name>\na&amp;b\n</name>\n"
                        "<description>\nHe said &quot;it&#x27;s &lt;fine&gt;&quot; &amp; left."
                        "\n</description>\n<location>\n/x/&#x27;q&#x27;/SKILL.md\n</location>\n"
                        "</skill>\n"
                        "<skill>\n<name>\nuni\n</name>\n"
                        "<description>\ncaf\xc3\xa9 \xe2\x80\x94 ok\tline\nnext\n</description>\n"
                        "<location>\n/y/SKILL.md\n</location>\n</skill>\n"
                        "</available_skills>");
  free(out);
  char *e = upk_prompt_escape("&<>\"'x");
  cr_assert_str_eq(e, "&amp;&lt;&gt;&quot;&#x27;x");
  free(e);
}

UTest(prompt, lowercase_file_symlinks_and_skill_md_paths) {
  make_skill("lower", "skill.md", "---\nname: lower\ndescription: lower-case file\n---\n");
  char link[PATH_MAX], md[PATH_MAX + 16], *out, want[PATH_MAX * 2];
  snprintf(link, sizeof link, "%s/via-link", tmp);
  cr_assert_eq(symlink("lower", link), 0);
  snprintf(md, sizeof md, "%s/via-link/skill.md", tmp);
  const char *dirs[] = {link, md};
  cr_assert_eq(upk_prompt_from_dirs(dirs, 2, &out, NULL), 0);
  snprintf(want, sizeof want, "<location>\n%s/lower/skill.md\n</location>", real_tmp());
  cr_assert_eq(count(out, want), 2, "%s", out);
  free(out);
}

UTest(prompt, unloadable_skill_fails_like_skills_ref) {
  const char *bad = make_skill("no-desc", "SKILL.md", "---\nname: no-desc\n---\nBody\n");
  char missing[PATH_MAX + 16], *out;
  upk_diags d = {0};
  cr_assert_eq(upk_prompt_from_dirs(&bad, 1, &out, &d), -EINVAL);
  cr_assert_null(out);
  cr_assert_eq(d.len, 1);
  snprintf(missing, sizeof missing, "%s/nope", tmp);
  const char *m = missing;
  cr_assert_eq(upk_prompt_from_dirs(&m, 1, &out, &d), -ENOENT);
  cr_assert_eq(d.len, 2);
  upk_diags_free(&d);
}

UTest(prompt, from_index_entries_skips_shadowed_and_duplicates) {
  upk_index_entry e[4] = {
      {.name = "a", .description = "A", .path = "/p/a/SKILL.md", .usable = true},
      {.name = "a", .description = "A2", .path = "/u/a/SKILL.md", .usable = true, .shadowed = true},
      {.name = "a", .description = "A", .path = "/p/a/SKILL.md", .usable = true},
      {.name = "b", .description = "", .path = "/p/b/SKILL.md", .usable = false}};
  char *out = upk_prompt_from_entries(e, 4);
  cr_assert_str_eq(out, "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nA\n"
                        "</description>\n<location>\n/p/a/SKILL.md\n</location>\n</skill>\n"
                        "</available_skills>");
  free(out);
}

/* issue 34: without an agent, a skill installed for two agents (two directories, neither
 * shadowed: each wins for its own agent) was listed twice. One entry per name: the first. */
UTest(prompt, from_index_entries_one_entry_per_name) {
  upk_index_entry e[3] = {
      {.name = "a", .description = "A", .path = "/p/.claude/skills/a/SKILL.md", .usable = true},
      {.name = "a", .description = "A", .path = "/p/.cursor/skills/a/SKILL.md", .usable = true},
      {.name = "b", .description = "B", .path = "/p/.cursor/skills/b/SKILL.md", .usable = true}};
  char *out = upk_prompt_from_entries(e, 3);
  cr_assert_str_eq(out, "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nA\n"
                        "</description>\n<location>\n/p/.claude/skills/a/SKILL.md\n</location>\n"
                        "</skill>\n<skill>\n<name>\nb\n</name>\n<description>\nB\n</description>\n"
                        "<location>\n/p/.cursor/skills/b/SKILL.md\n</location>\n</skill>\n"
                        "</available_skills>");
  free(out);
}
