/* libFuzzer target: SKILL.md text (YAML frontmatter with libyaml, Markdown body with cmark),
 * parsed as skills/validate and skills/lookup's indexer read it, then validated in both modes.
 * Invariants: parsing never fails on text under the size cap; every diagnostic is well formed
 * (fuzz_util.h); what parsing extracted (name, description, fields, headings) is valid UTF-8
 * or absent, since the daemon sends it as JSON strings. The same bytes as the MCP Skills
 * extension reads them: the frontmatter as JSON (an object, or a refusal with a reason), and as
 * a skill:// URI (decoded to an absolute path without "..", or refused). */
#include <string.h>

#include "skills/catalog.h"
#include "tests/fuzz/fuzz_util.h"
#include "skills/skill.h"
#include "skills/validate.h"

static void check_opt(const char *s) {
  CHECK(!s || fuzz_utf8(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_skill s;
  upk_diags d = {0};
  int rc = upk_skill_parse((const char *)data, size, NULL, &s, &d);
  CHECK(rc == 0);
  if (!s.has_frontmatter)
    CHECK(upk_diags_count(&d, UPK_SEV_ERROR) > 0);
  check_opt(s.name);
  check_opt(s.description);
  for (size_t i = 0; i < s.n_fields; i++)
    CHECK(s.fields[i].key && fuzz_utf8(s.fields[i].key));
  for (size_t i = 0; i < s.n_headings; i++)
    CHECK(s.headings[i].text && s.headings[i].line >= s.body_line);
  fuzz_check_diags(&s.issues);
  fuzz_check_diags(&d);
  for (int mode = UPK_VALIDATE_STRICT; mode <= UPK_VALIDATE_LENIENT; mode++) {
    upk_diags v = {0};
    upk_skill_validate(&s, (upk_validate_mode)mode, &v);
    fuzz_check_diags(&v);
    upk_diags_free(&v);
  }
  upk_skill_free(&s);
  upk_diags_free(&d);
  json_t *fm = NULL;
  char why[256] = "";
  rc = upk_catalog_frontmatter((const char *)data, size, &fm, why, sizeof why);
  CHECK(rc ? !fm && why[0] : json_is_object(fm));
  json_decref(fm);
  char *uri = strndup((const char *)data, size > 4096 ? 4096 : size), *path = NULL;
  upk_catalog_bases b = {"/w", "/h", "/b"};
  if (uri && !upk_catalog_uri_path(&b, uri, &path))
    CHECK(path[0] == '/' && !strstr(path, "/../") && !strstr(path, "//"));
  free(path);
  free(uri);
  return 0;
}
