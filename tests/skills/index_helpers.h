/* Helpers for the skill index's tests: a skill written under th_path("skills"), and that tree
 * indexed in a fresh index (skill_helpers.h's temporary directory). */
#ifndef UPK_TEST_INDEX_HELPERS_H
#define UPK_TEST_INDEX_HELPERS_H

#include "tests/skills/skill_helpers.h"

#include "skills/index.h"

/* skills/<dir>/SKILL.md with its name, description and body. */
static inline void th_index_skill(const char *dir, const char *desc, const char *body) {
  char rel[256], text[8192];
  snprintf(rel, sizeof rel, "skills/%s/SKILL.md", dir);
  snprintf(text, sizeof text, "---\nname: %s\ndescription: %s\n---\n%s\n", dir, desc, body);
  th_write(rel, text);
}

/* An index at cache/index.sqlite opened with o (its db_path set here), skills/ its one root
 * (claude's, project scope), scanned once: *st says what the scan did. */
static inline upk_index *th_indexed(upk_index_options o, upk_index_stats *st) {
  o.db_path = th_path("cache/index.sqlite");
  upk_index *ix;
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  upk_index_root r = {(char *)th_path("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  cr_assert_eq(upk_index_set_roots(ix, &r, 1), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(upk_index_scan(ix, st, NULL), 0, "%s", upk_index_errmsg(ix));
  return ix;
}

#endif
