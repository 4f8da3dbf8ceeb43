/* Parsing SKILL.md: skills-ref's 15 parser cases (test_parser.py), then the
 * frontmatter details (CRLF, BOM, scalars, metadata, positions), the body
 * (headings, code, references, tokens) and bad input. */
#include "tests/skills/skill_helpers.h"

#include "skills/skill.h"
#include "skills/validate.h"

TestSuite(parse, .init = th_setup, .fini = th_teardown);

static upk_skill s;
static upk_diags d;

static int parse(const char *text) {
  upk_skill_free(&s);
  upk_diags_free(&d);
  return upk_skill_parse(text, strlen(text), NULL, &s, &d);
}

static int load(const char *path) {
  upk_skill_free(&s);
  upk_diags_free(&d);
  return upk_skill_load(path, &s, &d);
}

static const char *meta(const char *key) {
  for (size_t i = 0; i < s.n_meta; i++)
    if (strcmp(s.meta_keys[i], key) == 0)
      return s.meta_values[i];
  return NULL;
}

static void assert_fatal(const char *code, const char *message) {
  cr_assert_not(s.has_frontmatter);
  cr_assert_eq(d.len, 1, "%s", th_dump(&d));
  cr_assert_str_eq(d.items[0].code, code);
  cr_assert_eq(d.items[0].severity, UPK_SEV_ERROR);
  cr_assert_str_eq(d.items[0].message, message);
}

/* ---- skills-ref tests/test_parser.py ----------------------------------- */

Test(parse, ref_valid_frontmatter) {
  cr_assert_eq(parse("---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\n"
                     "Instructions here.\n"),
               0);
  cr_assert(s.has_frontmatter);
  cr_assert_str_eq(s.name, "my-skill");
  cr_assert_str_eq(s.description, "A test skill");
  cr_assert(strstr(s.body, "# My Skill"));
  cr_assert_eq(d.len, 0);
}

Test(parse, ref_missing_frontmatter) {
  parse("# No frontmatter here");
  assert_fatal("skill/no-frontmatter", "SKILL.md must start with YAML frontmatter (---)");
  th_assert_range(d.items[0].range, 0, 0, 0, 21);
}

Test(parse, ref_unclosed_frontmatter) {
  parse("---\nname: my-skill\ndescription: A test skill\n");
  assert_fatal("skill/frontmatter-not-closed", "SKILL.md frontmatter not properly closed with ---");
  th_assert_range(d.items[0].range, 0, 0, 0, 3);
}

Test(parse, ref_invalid_yaml) {
  parse("---\nname: [invalid\ndescription: broken\n---\nBody here\n");
  cr_assert_not(s.has_frontmatter);
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].message,
                   "Invalid YAML in frontmatter: while parsing a flow sequence, did not find "
                   "expected ',' or ']' (line 3, column 12)");
  th_assert_range(d.items[0].range, 2, 11, 2, 12);
}

Test(parse, ref_non_dict_frontmatter) {
  parse("---\n- just\n- a list\n---\nBody\n");
  assert_fatal("skill/frontmatter-not-mapping", "SKILL.md frontmatter must be a YAML mapping");
  th_assert_range(d.items[0].range, 1, 0, 2, 8);
}

Test(parse, ref_read_valid_skill) {
  th_write("my-skill/SKILL.md",
           "---\nname: my-skill\ndescription: A test skill\nlicense: MIT\n---\n# My Skill\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  cr_assert_str_eq(s.name, "my-skill");
  cr_assert_str_eq(s.description, "A test skill");
  cr_assert_str_eq(s.license, "MIT");
  cr_assert_str_eq(s.dir_name, "my-skill");
  cr_assert_str_eq(s.skill_file, "SKILL.md");
}

Test(parse, ref_read_with_metadata) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\ndescription: A test skill\nmetadata:\n"
                                "  author: Test Author\n  version: 1.0\n---\nBody\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  cr_assert_eq(s.n_meta, 2);
  cr_assert_str_eq(meta("author"), "Test Author");
  cr_assert_str_eq(meta("version"), "1.0");
}

Test(parse, ref_read_missing_skill_md) {
  th_mkdirs("my-skill");
  cr_assert_eq(load(th_path("my-skill")), -ENOENT);
  /* skills-ref's read_properties says "SKILL.md not found in ..."; its
   * validate() says what we say. */
  cr_assert_str_eq(d.items[0].message, "Missing required file: SKILL.md");
}

Test(parse, ref_read_missing_name) {
  th_write("my-skill/SKILL.md", "---\ndescription: A test skill\n---\nBody\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  cr_assert_null(s.name);
  upk_diags v = {0};
  cr_assert_eq(upk_skill_validate(&s, UPK_VALIDATE_STRICT, &v), 1);
  cr_assert_str_eq(v.items[0].message, "Missing required field in frontmatter: name");
  upk_diags_free(&v);
}

Test(parse, ref_read_missing_description) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\n---\nBody\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  upk_diags v = {0};
  cr_assert_eq(upk_skill_validate(&s, UPK_VALIDATE_STRICT, &v), 1);
  cr_assert_str_eq(v.items[0].message, "Missing required field in frontmatter: description");
  upk_diags_free(&v);
}

Test(parse, ref_prefers_uppercase) {
  th_write("my-skill/SKILL.md", "---\nname: upper\ndescription: d\n---\n");
  th_write("my-skill/skill.md", "---\nname: lower\ndescription: d\n---\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  cr_assert_str_eq(s.name, "upper");
  cr_assert_str_eq(s.skill_file, "SKILL.md");
}

Test(parse, ref_accepts_lowercase) {
  th_write("my-skill/skill.md", "---\nname: my-skill\ndescription: d\n---\n");
  cr_assert_eq(load(th_path("my-skill")), 0);
  cr_assert_str_eq(s.name, "my-skill");
  cr_assert_str_eq(s.skill_file, "skill.md");
}

Test(parse, ref_neither_file) {
  th_mkdirs("my-skill");
  cr_assert_eq(load(th_path("my-skill")), -ENOENT);
  cr_assert_str_eq(d.items[0].code, "skill/missing-skill-md");
}

Test(parse, ref_read_properties_lowercase_file) {
  th_write("my-skill/skill.md", "---\nname: my-skill\ndescription: A test skill\n---\n");
  cr_assert_eq(load(th_path("my-skill/skill.md")), 0);
  cr_assert_str_eq(s.description, "A test skill");
  cr_assert_str_eq(s.dir_name, "my-skill");
}

Test(parse, ref_allowed_tools) {
  parse("---\nname: my-skill\ndescription: d\nallowed-tools: Bash(jq:*) Bash(git:*)\n---\n");
  cr_assert_str_eq(s.allowed_tools, "Bash(jq:*) Bash(git:*)");
  cr_assert_str_eq(s.fields[2].key, "allowed-tools");
}

/* ---- frontmatter ------------------------------------------------------- */

Test(parse, crlf_and_bom) {
  parse("\xEF\xBB\xBF---\r\nname: my-skill\r\ndescription: \"quoted\"\r\n---\r\n# Title\r\n");
  cr_assert(s.has_frontmatter);
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
  cr_assert_str_eq(s.name, "my-skill");
  cr_assert_str_eq(s.description, "quoted");
  th_assert_range(s.fields[1].value_range, 2, 13, 2, 21);
  cr_assert_eq(s.n_headings, 1);
  cr_assert_str_eq(s.headings[0].text, "Title");
  cr_assert_eq(s.headings[0].line, 4);
  cr_assert_eq(s.issues.len, 2, "%s", th_dump(&s.issues));
  cr_assert_str_eq(s.issues.items[0].code, "skill/bom");
  cr_assert_str_eq(s.issues.items[1].code, "skill/crlf");
  cr_assert_eq(s.issues.items[1].severity, UPK_SEV_WARNING);
}

Test(parse, block_and_quoted_scalars) {
  parse("---\nname: 'my-skill'\ndescription: >-\n  Folded\n  text: with colon\nlicense: |\n"
        "  line1\n  line2\ncompatibility: 'it''s'\n---\n");
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
  cr_assert_str_eq(s.name, "my-skill");
  cr_assert_str_eq(s.description, "Folded text: with colon");
  cr_assert_str_eq(s.license, "line1\nline2\n");
  cr_assert_str_eq(s.compatibility, "it's");
  th_assert_range(s.fields[1].value_range, 2, 13, 4, 18);
  cr_assert_eq(s.issues.len, 0);
}

Test(parse, scalars_are_strings) {
  parse("---\nname: 123\ndescription: true\nmetadata:\n  version: 1.0\n  count: 010\n"
        "  flag: no\n  empty:\n---\n");
  cr_assert_str_eq(s.name, "123");
  cr_assert_str_eq(s.description, "true");
  cr_assert_str_eq(meta("version"), "1.0");
  cr_assert_str_eq(meta("count"), "010");
  cr_assert_str_eq(meta("flag"), "no");
  cr_assert_str_eq(meta("empty"), "");
}

Test(parse, metadata_nested_values_as_python_str) {
  parse("---\nname: a\ndescription: d\nmetadata:\n  tags:\n    - x\n    - \"it's\"\n"
        "  owner:\n    team: core\n---\n");
  cr_assert_str_eq(meta("tags"), "['x', \"it's\"]");
  cr_assert_str_eq(meta("owner"), "{'team': 'core'}");
  cr_assert_eq(s.issues.len, 2, "%s", th_dump(&s.issues));
  cr_assert_str_eq(s.issues.items[0].message,
                   "metadata 'tags' should be a string; it is read as its Python str() form");
}

/* A nested value whose str() form passes the 4 KB kept, with characters to escape past it:
 * the form is cut there. It looped forever (an escape's pointer moved only while there was
 * room), found by fuzz_skill_md (corpus/skill_md/regress-repr-escape-past-cap). */
Test(parse, metadata_nested_value_longer_than_kept, .timeout = 10) {
  char text[12000];
  size_t n =
      (size_t)snprintf(text, sizeof text, "---\nname: a\ndescription: d\nmetadata:\n  tags:\n");
  for (int i = 0; i < 300; i++) /* ~7 KB of str() form, each item with a backslash */
    n += (size_t)snprintf(text + n, sizeof text - n, "    - 'item %03d C:\\dir'\n", i);
  snprintf(text + n, sizeof text - n, "---\n");
  parse(text);
  const char *v = meta("tags");
  cr_assert(v && strncmp(v, "['item 000 C:\\\\dir', ", 21) == 0, "%.80s", v);
  cr_assert_eq(strlen(v), 4095, "cut at the 4 KB kept");
}

Test(parse, metadata_not_a_map) {
  parse("---\nname: a\ndescription: d\nmetadata: author\n---\n");
  cr_assert_eq(s.n_meta, 0);
  cr_assert_str_eq(s.issues.items[0].code, "skill/metadata-not-map");
  th_assert_range(s.issues.items[0].range, 3, 10, 3, 16);
}

Test(parse, field_positions) {
  parse("---\nname: my-skill\ndescription:   spaced value  \n---\n");
  th_assert_range(s.fields[0].key_range, 1, 0, 1, 4);
  th_assert_range(s.fields[0].value_range, 1, 6, 1, 14);
  th_assert_range(s.fields[1].key_range, 2, 0, 2, 11);
  th_assert_range(s.fields[1].value_range, 2, 15, 2, 27);
  cr_assert_eq(s.fm_end_line, 3);
  cr_assert_eq(s.body_line, 4);
}

Test(parse, positions_count_utf16_units) {
  /* U+1F600 is two UTF-16 units; é is one. */
  parse("---\ndescription: \xF0\x9F\x98\x80 \xC3\xA9: x\nname: a\n---\n");
  const upk_diag *x = th_find(&s.issues, "skill/yaml-unquoted-colon");
  cr_assert(x, "%s", th_dump(&s.issues));
  th_assert_range(x->range, 1, 13, 1, 20);
}

Test(parse, unquoted_colon_is_retried_quoted) {
  parse("---\nname: my-skill\ndescription: Use when: the user asks for 'x' # note\nlicense: MIT\n"
        "---\n");
  cr_assert(s.has_frontmatter);
  cr_assert_eq(d.len, 0, "%s", th_dump(&d));
  cr_assert_str_eq(s.description, "Use when: the user asks for 'x'");
  cr_assert_str_eq(s.license, "MIT");
  th_assert_range(s.fields[1].value_range, 2, 13, 2, 44);
  cr_assert_eq(s.issues.len, 1);
  cr_assert_str_eq(s.issues.items[0].code, "skill/yaml-unquoted-colon");
}

Test(parse, unquoted_colon_on_a_continuation_line) {
  parse("---\nname: my-skill\ndescription: Helps\n  when: asked\n  twice\n---\n");
  cr_assert(s.has_frontmatter, "%s", th_dump(&d));
  cr_assert_str_eq(s.description, "Helps when: asked twice");
  th_assert_range(s.fields[1].value_range, 2, 13, 4, 7);
}

Test(parse, unrepairable_colon_keeps_the_advice) {
  parse("---\nname: my-skill\n- description: a: b\n---\n");
  cr_assert_not(s.has_frontmatter);
  cr_assert(strstr(d.items[0].message, "Invalid YAML in frontmatter: "), "%s", th_dump(&d));
}

Test(parse, dashes_inside_the_frontmatter) {
  parse("---\nname: x\ndescription: a---b\n---\nbody\n");
  cr_assert_str_eq(s.description, "a---b");
  cr_assert_str_eq(s.body, "body\n");
  const upk_diag *x = th_find(&s.issues, "skill/frontmatter-dashes");
  cr_assert_str_eq(x->message, "skills-ref ends the frontmatter at the first \"---\" in the file, "
                               "here on line 3 instead of the closing line 4: do not write "
                               "\"---\" inside the frontmatter");
  th_assert_range(x->range, 2, 14, 2, 17);
}

Test(parse, closing_dashes_mid_line_follow_skills_ref) {
  parse("---\nname: x\ndescription: y ---\nbody\n");
  cr_assert(s.has_frontmatter, "%s", th_dump(&d));
  cr_assert_str_eq(s.description, "y");
  cr_assert_eq(s.fm_end_line, 2);
  cr_assert_str_eq(s.body, "body\n");
}

/* ---- body ---------------------------------------------------------------- */

Test(parse, body_structure) {
  parse("---\nname: a\ndescription: d\n---\n# Title *here*\n\nRun `scripts/run.py` and read "
        "[docs](references/api%20guide.md#top) or ./assets/logo.png.\n"
        "![img](assets/x.png) [web](https://x.y/z) [anchor](#a) [abs](/etc/x)\n\n"
        "```python title\nprint(1)\n```\n\n    indented\n\n## Next `code`\n");
  cr_assert_eq(s.n_headings, 2);
  cr_assert_eq(s.headings[0].level, 1);
  cr_assert_eq(s.headings[0].line, 4);
  cr_assert_str_eq(s.headings[0].text, "Title here");
  cr_assert_str_eq(s.headings[1].text, "Next code");
  cr_assert_eq(s.headings[1].line, 15);
  cr_assert_eq(s.n_code, 2);
  cr_assert_str_eq(s.code[0].lang, "python");
  cr_assert(s.code[0].fenced);
  cr_assert_eq(s.code[0].line, 9);
  cr_assert_str_eq(s.code[1].lang, "");
  cr_assert_not(s.code[1].fenced);
  /* the blocks' bytes in the body, whole lines, fences included */
  cr_assert_eq(s.code[0].end - s.code[0].start, strlen("```python title\nprint(1)\n```\n"));
  cr_assert(!strncmp(s.body + s.code[0].start, "```python title\nprint(1)\n```\n",
                     s.code[0].end - s.code[0].start));
  cr_assert(
      !strncmp(s.body + s.code[1].start, "    indented\n", 13)); /* cmark adds the blank line */
  cr_assert_eq(s.code[1].end, strstr(s.body, "## Next") - s.body);
  cr_assert_eq(s.n_refs, 4);
  cr_assert_str_eq(s.refs[0].target, "scripts/run.py");
  th_assert_range(s.refs[0].range, 6, 5, 6, 19);
  cr_assert_str_eq(s.refs[1].target, "references/api guide.md");
  cr_assert_str_eq(s.refs[2].target, "assets/logo.png");
  th_assert_range(s.refs[2].range, 6, 73, 6, 88);
  cr_assert_str_eq(s.refs[3].target, "assets/x.png");
  th_assert_range(s.refs[3].range, 7, 7, 7, 19);
  cr_assert_eq(s.body_lines, 12);
}

Test(parse, paths_in_text_start_after_a_break) {
  parse("---\nname: a\ndescription: d\n---\nUse (scripts/a.sh), \"references/b.md\", "
        "'assets/c.png' and <./scripts/d.py>; not myscripts/e.py, x.scripts/f or sassets/g.\n");
  cr_assert_eq(s.n_refs, 4, "%zu refs", s.n_refs);
  cr_assert_str_eq(s.refs[0].target, "scripts/a.sh");
  cr_assert_str_eq(s.refs[1].target, "references/b.md");
  cr_assert_str_eq(s.refs[2].target, "assets/c.png");
  cr_assert_str_eq(s.refs[3].target, "scripts/d.py");
  th_assert_range(s.refs[3].range, 4, 61, 4, 73);
}

Test(parse, crlf_found_after_a_lone_cr) {
  parse("---\nname: a\ndescription: d\n---\nx\ry\r\nz\n");
  cr_assert_eq(s.issues.len, 1, "%s", th_dump(&s.issues));
  cr_assert_str_eq(s.issues.items[0].code, "skill/crlf");
  th_assert_range(s.issues.items[0].range, 5, 1, 5, 1); /* a lone CR ends line 4 */
  cr_assert_eq(s.body_lines, 3);
}

Test(parse, tokens_are_words_times_1_3) {
  parse("---\nname: a\ndescription: d\n---\none two three four five six seven\n");
  /* 10 words: "---", "name:", "a", "description:", "d", "---", and 7 more = 13 */
  cr_assert_eq(s.tokens, 16);
}

/* ---- bad input ----------------------------------------------------------- */

Test(parse, empty_file) {
  cr_assert_eq(parse(""), 0);
  assert_fatal("skill/no-frontmatter", "SKILL.md must start with YAML frontmatter (---)");
}

Test(parse, empty_frontmatter) {
  parse("---\n---\nbody\n");
  assert_fatal("skill/frontmatter-not-mapping", "SKILL.md frontmatter must be a YAML mapping");
}

Test(parse, scalar_frontmatter) {
  parse("---\njust text\n---\n");
  assert_fatal("skill/frontmatter-not-mapping", "SKILL.md frontmatter must be a YAML mapping");
}

Test(parse, garbage_frontmatter) {
  parse("---\n{{{: ]]\n\t@@\n---\n");
  cr_assert_not(s.has_frontmatter);
  cr_assert_str_eq(d.items[0].code, "skill/invalid-yaml");
  cr_assert(strncmp(d.items[0].message, "Invalid YAML in frontmatter: ", 29) == 0);
}

Test(parse, binary_garbage_does_not_crash) {
  char buf[4096];
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof buf; i++) {
    x = x * 1103515245 + 12345;
    buf[i] = (char)(x >> 16);
  }
  memcpy(buf, "---\n", 4);
  upk_skill_free(&s);
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_parse(buf, sizeof buf, NULL, &s, &d), 0);
  cr_assert(th_find(&s.issues, "skill/invalid-utf8") || d.len > 0);
}

Test(parse, non_utf8_bytes_reported_with_position) {
  parse("---\nname: ok\ndescription: caf\xE9 au lait\n---\nbody \xC3\x28\n");
  cr_assert(s.has_frontmatter, "%s", th_dump(&d));
  cr_assert_str_eq(s.description, "caf? au lait");
  const upk_diag *x = th_find(&s.issues, "skill/invalid-utf8");
  cr_assert_str_eq(x->message, "SKILL.md is not valid UTF-8: byte 0xE9 at line 3, column 17 (2 "
                               "bad bytes, read as '?'); save the file as UTF-8");
  th_assert_range(x->range, 2, 16, 2, 17);
}

Test(parse, nul_bytes) {
  const char t[] = "---\nname: a\0b\ndescription: d\n---\n";
  upk_skill_free(&s);
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_parse(t, sizeof t - 1, NULL, &s, &d), 0);
  cr_assert_str_eq(s.name, "a?b");
  cr_assert(th_find(&s.issues, "skill/invalid-utf8"));
}

Test(parse, over_10_mb_refused) {
  size_t n = UPK_SKILL_MAX_BYTES + 1;
  char *big = malloc(n);
  memset(big, 'x', n);
  memcpy(big, "---\nname: a\ndescription: d\n---\n", 31);
  th_mkdirs("big");
  th_write_bytes("big/SKILL.md", big, n);
  cr_assert_eq(load(th_path("big")), -EFBIG);
  cr_assert_str_eq(d.items[0].code, "skill/too-large");
  cr_assert_str_eq(d.items[0].message,
                   "SKILL.md is 10485761 bytes; files over 10 MB (10485760 bytes) are refused");
  upk_skill_free(&s);
  upk_diags_free(&d);
  cr_assert_eq(upk_skill_parse(big, n, NULL, &s, &d), -EFBIG);
  free(big);
}

Test(parse, just_under_10_mb_loads) {
  size_t n = UPK_SKILL_MAX_BYTES;
  char *big = malloc(n);
  for (size_t i = 0; i < n; i++)
    big[i] = i % 64 == 63 ? '\n' : 'w';
  memcpy(big, "---\nname: big\ndescription: d\n---\n", 33);
  th_mkdirs("big");
  th_write_bytes("big/SKILL.md", big, n);
  free(big);
  cr_assert_eq(load(th_path("big")), 0, "%s", th_dump(&d));
  cr_assert_str_eq(s.name, "big");
  cr_assert_gt(s.body_lines, 100000);
}

Test(parse, path_problems) {
  cr_assert_eq(load(th_path("nope")), -ENOENT);
  cr_assert_str_eq(d.items[0].code, "skill/path-not-found");
  th_write("notes.txt", "x");
  cr_assert_eq(load(th_path("notes.txt")), -ENOTDIR);
  symlink(th_path("loop"), th_path("loop"));
  cr_assert_eq(load(th_path("loop")), -ELOOP);
  cr_assert_str_eq(d.items[0].code, "skill/symlink-loop");
}

Test(parse, dot_directory_resolves_its_name) {
  th_write("my-skill/SKILL.md", "---\nname: my-skill\ndescription: d\n---\n");
  char cwd[4096];
  cr_assert(getcwd(cwd, sizeof cwd));
  cr_assert_eq(chdir(th_path("my-skill")), 0);
  cr_assert_eq(load("."), 0);
  cr_assert_str_eq(s.dir_name, "my-skill");
  cr_assert_eq(load("SKILL.md"), 0);
  cr_assert_str_eq(s.dir_name, "my-skill");
  cr_assert_eq(chdir(cwd), 0);
}

Test(parse, free_twice_and_free_zeroed) {
  upk_skill z;
  memset(&z, 0, sizeof z);
  upk_skill_free(&z);
  parse("---\nname: a\ndescription: d\n---\n");
  upk_skill_free(&s);
  upk_skill_free(&s);
}

Test(parse, several_unquoted_colons_all_retried) {
  parse(
      "---\nname: my-skill\ndescription: a: b\nmetadata:\n  note: see: here\nlicense: c: d\n---\n");
  cr_assert(s.has_frontmatter, "%s", th_dump(&d));
  cr_assert_str_eq(s.description, "a: b");
  cr_assert_str_eq(meta("note"), "see: here");
  cr_assert_str_eq(s.license, "c: d");
  cr_assert_eq(th_count_code(&s.issues, "skill/yaml-unquoted-colon"), 3, "%s", th_dump(&s.issues));
  th_assert_range(s.issues.items[1].range, 4, 8, 4, 17);
}
