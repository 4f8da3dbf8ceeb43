/* The posting store (skills/index/store.c): its rows encode and decode as they were, bad
 * bytes are refused, a lookup served from it answers exactly as one that walks FTS5 (same
 * skills, same scores to the bit), also after skills change or go away, and it keeps to its
 * byte bound. And the other state a lookup's answer keeps between lookups (the truncated
 * roots) follows another connection's changes. */
#include "tests/unit/unit.h"
#include "tests/skills/index_helpers.h"

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "common/dynbuf.h"
#include "skills/index.h"
#include "skills/index/db_int.h"
#include "skills/index/store_int.h"

TestSuite(store, .init = th_setup, .fini = th_teardown);

Test(store, rows_round_trip) {
  /* one-byte shapes (counts of 3 or less) and wide rows (a count of 4 or more) */
  const upk__ix_srow rows[] = {{1, {1, 0, 0}},
                               {2, {0, 3, 1}},
                               {130, {0, 0, 200}},
                               {131, {4, 0, 0}},
                               {70000, {5, 6, 7}},
                               {70001, {1, 0, 0}},
                               {INT64_C(5000000000), {0, 1, 0}}};
  for (int which = 0; which < 2; which++) {
    upk_buf b = UPK_BUF_INIT(SIZE_MAX);
    int64_t prev = 0;
    size_t n = sizeof rows / sizeof *rows;
    for (size_t i = 0; i < n; i++) {
      upk__ix_srow r = rows[i];
      if (which && !r.count[0])
        r.count[0] = 9; /* the body: one column, never 0 */
      cr_assert_eq(upk__ix_store_encode(&b, which, prev, &r), 0);
      prev = r.rowid;
    }
    cr_assert_lt(b.len, n * 8, "%zu bytes for %zu rows", b.len, n);
    const unsigned char *p = (const unsigned char *)b.data, *end = p + b.len;
    prev = 0;
    for (size_t i = 0; i < n; i++) {
      upk__ix_srow got;
      cr_assert(upk__ix_store_decode(&p, end, which, prev, &got), "row %zu", i);
      cr_assert_eq(got.rowid, rows[i].rowid);
      if (which)
        cr_assert_eq(got.count[0], rows[i].count[0] ? rows[i].count[0] : 9u);
      else
        for (int c = 0; c < UPK_IX_STORE_COLS; c++)
          cr_assert_eq(got.count[c], rows[i].count[c], "row %zu column %d", i, c);
      prev = got.rowid;
    }
    cr_assert_eq(p, end);
    upk__ix_srow x;
    cr_assert_not(upk__ix_store_decode(&p, end, which, prev, &x), "read past the end");
    upk_buf_free(&b);
  }
}

Test(store, bad_rows_are_refused) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk__ix_srow r = {5, {1, 0, 0}};
  cr_assert_eq(upk__ix_store_encode(&b, 0, 5, &r), -EINVAL, "a rowid that does not grow");
  cr_assert_eq(upk__ix_store_encode(&b, 0, -1, &r), -EINVAL);
  upk_buf_free(&b);
  static const unsigned char cut[] = {0x85};                  /* a varint cut short */
  static const unsigned char zero[] = {0x00, 0x01};           /* a delta of 0 */
  static const unsigned char nocol[] = {0x01, 0x00};          /* a head row in no column */
  static const unsigned char shape[] = {0x01, 0x41};          /* no such shape */
  static const unsigned char wide0[] = {0x01, 0x40, 0, 0, 0}; /* wide, every count 0 */
  static const unsigned char widecut[] = {0x01, 0x40, 0x05};  /* wide, cut short */
  static const unsigned char body0[] = {0x01, 0x00};          /* a body row counted 0 */
  const struct {
    const unsigned char *p;
    size_t n;
    int which;
  } bad[] = {{cut, 1, 0},   {zero, 2, 0},    {nocol, 2, 0}, {shape, 2, 0},
             {wide0, 5, 0}, {widecut, 3, 0}, {body0, 2, 1}, {cut, 1, 1}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const unsigned char *p = bad[i].p;
    upk__ix_srow x;
    cr_assert_not(upk__ix_store_decode(&p, bad[i].p + bad[i].n, bad[i].which, 0, &x), "case %zu",
                  i);
  }
  upk__ix_srow none = {7, {0, 0, 0}};
  b = (upk_buf)UPK_BUF_INIT(SIZE_MAX);
  cr_assert_eq(upk__ix_store_encode(&b, 0, 0, &none), -EINVAL, "a head row in no column");
  cr_assert_eq(upk__ix_store_encode(&b, 1, 0, &none), -EINVAL, "a body row counted 0");
  upk_buf_free(&b);
}

static void skill(const char *dir, const char *desc, const char *body) {
  th_index_skill(dir, desc, body);
}

/* An index of skills/ as it is now, scanned once: *st says what the scan did. */
static upk_index *indexed(upk_index_stats *st) {
  return th_indexed((upk_index_options){0}, st);
}

/* 100 skills: "branches", "review", "pdf", "pages" in 33-34 rows of each table (the store
 * keeps words of 8 rows or more and in fewer than half), each skill's counts different. */
static upk_index *corpus(void) {
  static const char *const desc[] = {"Merge branches after a review.",
                                     "Merge PDF pages into one file.",
                                     "Format source files before a commit."};
  for (int i = 0; i < 100; i++) {
    char dir[32], body[1024] = "Nothing to see.";
    snprintf(dir, sizeof dir, "skill-%02d", i);
    for (int k = 0; i % 3 && k <= i % 4; k++)
      strcat(body, i % 3 == 1 ? " Then merge the branches again." : " Review the pages twice.");
    /* one head with a word 4 times: a row stored wide */
    skill(dir, i == 4 ? "Merge branches: branches, branches and more branches." : desc[i % 3],
          body);
  }
  upk_index_stats st;
  return indexed(&st);
}

static void fill(upk_index *ix) {
  int rc, steps = 0;
  while ((rc = upk_index_fill(ix)) == 1)
    cr_assert_lt(++steps, 1000);
  cr_assert_eq(rc, 0, "%s", upk_index_errmsg(ix));
  cr_assert_not(upk_index_fill_pending(ix));
  /* the rows' sizes read as the fill ends, not by the next lookup (tidy.c) */
  cr_assert(ix->size_loaded[0] && ix->size_loaded[1], "the sizes are left to the first lookup");
}

static const char *const tasks[] = {"merge branches", "review the pages", "merge pdf pages",
                                    "format source before a commit", "merging reviewed branch"};
#define NTASKS (sizeof tasks / sizeof *tasks)

/* Each task's answer: "path score;" per hit, the score's bits exact. */
static char *answers(upk_index *ix) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  for (size_t t = 0; t < NTASKS; t++) {
    upk_index_hits h;
    cr_assert_eq(upk_index_lookup(ix, tasks[t], 20, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
    cr_assert_gt(h.len, 0, "'%s' found nothing", tasks[t]);
    for (size_t i = 0; i < h.len; i++)
      upk_buf_printf(&b, "%s %a;", h.items[i].e.path, h.items[i].score);
    upk_buf_puts(&b, "\n");
    upk_index_hits_free(&h);
  }
  return upk_buf_take(&b, NULL);
}

/* The answers with the store off (every list walked through FTS5) and on (filled). */
static void same_either_way(upk_index *ix) {
  upk__ix_store_enable(ix, false);
  char *off = answers(ix);
  upk__ix_store_enable(ix, true);
  fill(ix);
  size_t hits = upk__ix_store_hits(ix);
  char *on = answers(ix);
  cr_assert_gt(upk__ix_store_hits(ix), hits, "no lookup read the store");
  cr_assert_str_eq(on, off);
  free(on);
  free(off);
}

Test(store, answers_are_fts5s) {
  upk_index *ix = corpus();
  same_either_way(ix);
  size_t lists, rows, bytes;
  upk__ix_store_size(ix, &lists, &rows, &bytes);
  cr_assert_geq(lists, 8, "%zu lists", lists); /* 4 words or more in each table */
  cr_assert_lt(bytes, rows * 8 + lists * 96, "%zu bytes for %zu rows", bytes, rows);
  upk_index_close(ix);
}

/* An edit, a removal and a new skill: the next lookup sees them (the store is emptied as
 * the rows change, and filled again the same as FTS5 answers). */
Test(store, lookups_see_changes) {
  upk_index *ix = corpus();
  fill(ix);
  char *before = answers(ix);
  skill("skill-07", "Merge branches after a review.", "Merge merge merge the branches.");
  nftw(th_path("skills/skill-08"), th_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  skill("zz-new", "Merge release branches.", "Merge them.");
  upk_index_stats st;
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(st.parsed, 2);
  cr_assert(upk_index_fill_pending(ix), "the store was not emptied");
  char *after = answers(ix); /* the store empty: every list from FTS5 */
  cr_assert(strstr(after, "zz-new"), "the new skill is not found");
  cr_assert_null(strstr(after, "skill-08/"), "the removed skill is still found");
  cr_assert_str_neq(after, before);
  same_either_way(ix); /* filled again */
  char *refilled = answers(ix);
  cr_assert_str_eq(refilled, after);
  /* a refresh of one skill */
  skill("skill-09", "Merge pages.", "Nothing else.");
  cr_assert_eq(upk_index_refresh(ix, th_path("skills/skill-09/SKILL.md"), NULL), 1);
  same_either_way(ix);
  free(before);
  free(after);
  free(refilled);
  upk_index_close(ix);
}

/* A lookup while a first index is written (an agent asks as its session starts) reads the rows'
 * sizes half way; the 300 rows written after it must not leave the store unread (each of its
 * lists holds them: without their sizes every list was walked through FTS5 instead). */
/* Skills [from, to): a third of them say "pdf" and "document" (the store keeps a word of 8
 * rows or more and in fewer than half of them). */
static void skills_from(int from, int to) {
  static const char *const desc[] = {"Merge branches after a review.",
                                     "Merge PDF pages into one document.",
                                     "Review pages and branches."};
  for (int i = from; i < to; i++) {
    char dir[32];
    snprintf(dir, sizeof dir, "skill-%03d", i);
    skill(dir, desc[i % 3], i % 2 ? "Merge the branches again." : "Review the pages twice.");
  }
}

/* A lookup while skills are being indexed (an agent asks as its session starts) reads the
 * sizes of the rows so far; the 300 rows written after it must not leave the store unread:
 * each list holds some of them, and a row without its size sent every list to FTS5. */
Test(store, read_after_a_lookup_met_the_first_index_half_way) {
  skills_from(0, 10);
  upk_index_stats st;
  upk_index_hits h;
  upk_index *ix = indexed(&st);
  cr_assert_eq(upk_index_lookup(ix, "merge branches", 5, NULL, 0, &h), 0); /* 10 rows' sizes */
  upk_index_hits_free(&h);
  skills_from(10, 310);
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(st.parsed, 300);
  fill(ix);
  size_t hits = upk__ix_store_hits(ix);
  cr_assert_eq(upk_index_lookup(ix, "pdf document", 5, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_gt(h.len, 0);
  upk_index_hits_free(&h);
  cr_assert_geq(upk__ix_store_hits(ix), hits + 2,
                "the store's lists of 'pdf' and 'document' were not read (%zu reads)",
                upk__ix_store_hits(ix) - hits);
  upk_index_close(ix);
}

Test(store, keeps_to_its_bound) {
  upk_index *ix = corpus();
  upk__ix_store_set_max(ix, 600);
  same_either_way(ix); /* some lists kept, others walked: the same answers */
  size_t lists, rows, bytes;
  upk__ix_store_size(ix, &lists, &rows, &bytes);
  cr_assert_leq(bytes, 600, "%zu bytes", bytes);
  upk__ix_store_set_max(ix, 0);
  upk__ix_store_enable(ix, true);
  fill(ix);
  size_t all;
  upk__ix_store_size(ix, &all, &rows, &bytes);
  cr_assert_gt(all, lists, "the bound kept every list (%zu)", all);
  upk_index_close(ix);
}

/* The truncated roots are kept between asks (a lookup's answer asks each time), and read again
 * when this connection changes a root or another connection commits: a second daemon's scan
 * that cut the root is reported by the next lookup's answer here. */
Test(store, truncated_roots_follow_another_connection) {
  skill("pdf-forms", "Fill PDF forms.", "Use pypdf.");
  upk_index_stats st;
  upk_index *ix = indexed(&st);
  char **cut;
  size_t n;
  upk_index_hits h;
  cr_assert(upk_index_truncated(ix, &cut, &n) == 0 && n == 0);
  sqlite3 *other;
  cr_assert_eq(sqlite3_open(th_path("cache/index.sqlite"), &other), SQLITE_OK);
  sqlite3_busy_timeout(other, 5000);
  cr_assert_eq(sqlite3_exec(other, "UPDATE root SET truncated = 1", NULL, NULL, NULL), SQLITE_OK,
               "%s", sqlite3_errmsg(other));
  cr_assert_eq(upk_index_lookup(ix, "pdf forms", 3, NULL, 0, &h), 0);
  upk_index_hits_free(&h);
  cr_assert_eq(upk_index_truncated(ix, &cut, &n), 0);
  cr_assert(n == 1 && !strcmp(cut[0], th_path("skills")), "another connection's mark not seen");
  upk_index_strings_free(cut, n);
  cr_assert_eq(sqlite3_exec(other, "UPDATE root SET truncated = 0", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(other);
  upk_index_root r = {(char *)th_path("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  cr_assert_eq(upk_index_set_roots(ix, &r, 1), 0); /* this connection writes the root's row */
  cr_assert(upk_index_truncated(ix, &cut, &n) == 0 && n == 0, "the mark taken off is still seen");
  upk_index_close(ix);
}

/* The truncated roots, from the roots' rows kept (roots.c): each directory once (two agents'
 * roots may share it), in the order of its first truncated root; a root not truncated
 * counts for nothing. */
Test(store, truncated_roots_once_each_in_root_order) {
  th_mkdirs("a");
  th_mkdirs("b");
  skill("pdf-forms", "Fill PDF forms.", "Use pypdf.");
  upk_index_stats st;
  upk_index *ix = indexed(&st);
  upk_index_root r[] = {{(char *)th_path("b"), "claude", UPK_INDEX_PROJECT, 0, 0},
                        {(char *)th_path("a"), "codex", UPK_INDEX_PROJECT, 0, 0},
                        {(char *)th_path("a"), "claude", UPK_INDEX_PROJECT, 0, 0}};
  cr_assert_eq(upk_index_set_roots(ix, r, 3), 0, "%s", upk_index_errmsg(ix));
  static const struct {
    const char *sql, *want;
  } cases[] = {
      {"UPDATE root SET truncated = 1", "b a "},
      {"UPDATE root SET truncated = (agent = 'claude')", "b a "},
      {"UPDATE root SET truncated = (agent = 'codex')", "a "},
      {"UPDATE root SET truncated = 0", ""},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    cr_assert_eq(sqlite3_exec(ix->db, cases[c].sql, NULL, NULL, NULL), SQLITE_OK);
    char **cut, got[256] = "";
    size_t n;
    cr_assert_eq(upk_index_truncated(ix, &cut, &n), 0);
    for (size_t k = 0; k < n; k++) {
      strcat(got, strrchr(cut[k], '/') + 1);
      strcat(got, " ");
    }
    upk_index_strings_free(cut, n);
    cr_assert_str_eq(got, cases[c].want, "%s", cases[c].sql);
  }
  upk_index_close(ix);
}

/* The agent a lookup's hit names, once "pdf forms" is asked. */
static char *hit_agent(upk_index *ix) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "pdf forms", 3, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(h.len, 1);
  char *agent = strdup(h.items[0].e.agent ? h.items[0].e.agent : "");
  upk_index_hits_free(&h);
  return agent;
}

/* The roots' rows a hit names are kept between lookups (hits.c), and read again when this
 * connection changes a root row or another connection commits one. */
Test(store, hits_follow_root_changes) {
  skill("pdf-forms", "Fill PDF forms.", "Use pypdf.");
  upk_index_stats st;
  upk_index *ix = indexed(&st);
  char *agent = hit_agent(ix);
  cr_assert_str_eq(agent, "claude");
  free(agent);
  sqlite3 *other;
  cr_assert_eq(sqlite3_open(th_path("cache/index.sqlite"), &other), SQLITE_OK);
  sqlite3_busy_timeout(other, 5000);
  cr_assert_eq(sqlite3_exec(other, "UPDATE root SET agent = 'codex'", NULL, NULL, NULL), SQLITE_OK,
               "%s", sqlite3_errmsg(other));
  sqlite3_close(other);
  agent = hit_agent(ix);
  cr_assert_str_eq(agent, "codex", "another connection's change not seen");
  free(agent);
  cr_assert_eq(sqlite3_exec(ix->db, "UPDATE root SET agent = 'cursor'", NULL, NULL, NULL),
               SQLITE_OK);
  agent = hit_agent(ix);
  cr_assert_str_eq(agent, "cursor", "this connection's change not seen");
  free(agent);
  upk_index_close(ix);
}

/* A word of UPK_IX_STORE_MIN_ROWS rows is read from the store, one of a row fewer is walked
 * through FTS5; both answer every skill that has it. */
Test(store, keeps_words_from_its_fewest_rows) {
  for (int i = 0; i < 100; i++) {
    char dir[32], desc[64];
    snprintf(dir, sizeof dir, "skill-%03d", i);
    const char *word = i < UPK_IX_STORE_MIN_ROWS           ? "Zebra"
                       : i < 2 * UPK_IX_STORE_MIN_ROWS - 1 ? "Yak"
                                                           : "Format";
    snprintf(desc, sizeof desc, "%s files, number %d.", word, i); /* no two alike */
    skill(dir, desc, "Steps.");
  }
  upk_index_stats st;
  upk_index *ix = indexed(&st);
  fill(ix);
  const char *const task[2] = {"zebra", "yak"};
  for (int k = 0; k < 2; k++) {
    size_t before = upk__ix_store_hits(ix);
    upk_index_hits h;
    cr_assert_eq(upk_index_lookup(ix, task[k], 64, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
    cr_assert_eq(h.len, (size_t)(UPK_IX_STORE_MIN_ROWS - k), "'%s': %zu hits", task[k], h.len);
    upk_index_hits_free(&h);
    if (k == 0)
      cr_assert_gt(upk__ix_store_hits(ix), before, "'%s' was not read from the store", task[k]);
    else
      cr_assert_eq(upk__ix_store_hits(ix), before, "'%s' was read from the store", task[k]);
  }
  upk_index_close(ix);
}
