/* A hit's `why` for a skill only the body ranked (query.c): which of the head's words it has,
 * found in the head's row lists when the ranking holds every phrase's, read back from its text
 * when it does not (an AND of words common in heads that met no row walked none). Either way
 * the hit names the head field it matched in; a lookup that took the lists where they are
 * incomplete would name none. */
#include "tests/unit/unit.h"
#include "tests/skills/index_helpers.h"

#include <string.h>

TestSuite(why, .init = th_setup, .fini = th_teardown);

static upk_index *indexed(void) {
  upk_index_stats st;
  return th_indexed((upk_index_options){0}, &st);
}

/* The hit named `name` for task, its why holding want; twice (the second from kept lists). */
static void expect_why(upk_index *ix, const char *task, const char *name, const char *want) {
  for (int pass = 0; pass < 2; pass++) {
    upk_index_hits h;
    cr_assert_eq(upk_index_lookup(ix, task, 10, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
    const upk_index_hit *hit = NULL;
    for (size_t i = 0; i < h.len; i++)
      hit = !hit && !strcmp(h.items[i].e.name, name) ? &h.items[i] : hit;
    cr_assert(hit, "'%s': %s is not a hit (pass %d)", task, name, pass);
    cr_expect(strstr(hit->why, want), "'%s', pass %d: why is \"%s\", not \"%s\"", task, pass,
              hit->why, want);
    upk_index_hits_free(&h);
  }
}

/* 80 short heads with "deploy" in name and description (among 200 skills) fill the head's 64
 * best; the one skill whose body is about rollbacks says "deploy" once in a long description:
 * only the body ranks it, and its why still names the description. */
Test(why, a_hit_only_the_body_ranked_names_its_head_fields) {
  char dir[32];
  for (int i = 0; i < 200; i++) {
    snprintf(dir, sizeof dir, i < 80 ? "deploy-%03d" : "format-%03d", i);
    th_index_skill(dir, i < 80 ? "Deploy services." : "Format files.", "Steps.");
  }
  th_index_skill(
      "zeta-notes",
      "Notes kept by the team about many things: windows, owners, calendars, on-call, the "
      "office, travel, budgets, hiring, and when to deploy.",
      "Rollback. Rollback the release. Rollback again, rollback twice, rollback to the tag.");
  upk_index *ix = indexed();
  expect_why(ix, "deploy rollback", "zeta-notes", "deploy (description");
  expect_why(ix, "deploy rollback", "zeta-notes", "rollback (body)");
  upk_index_close(ix);
}

/* "alpha" in 50 heads of 100, "beta" in the other 50: each in half the heads, asked as an AND
 * that no head has; the body alone ranks the one skill whose body has both. */
Test(why, an_and_that_met_no_head_reads_the_text) {
  char dir[32], desc[64];
  for (int i = 0; i < 100; i++) {
    snprintf(dir, sizeof dir, "tool-%02d", i);
    snprintf(desc, sizeof desc, "Works on %s data.", i < 50 ? "alpha" : "beta");
    th_index_skill(dir, desc, i == 77 ? "Alpha and beta together." : "Steps.");
  }
  upk_index *ix = indexed();
  expect_why(ix, "alpha beta", "tool-77", "beta (description, body)");
  expect_why(ix, "alpha beta", "tool-77", "alpha (body)");
  upk_index_close(ix);
}
