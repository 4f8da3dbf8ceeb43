/* The lookup's scorer (upk_rank, skills/index/rank.c) against FTS5's own
 * bm25(): every hit's score is what bm25() gives its head and body rows,
 * read through a second connection to the index file; still so after
 * skills change size, go away, and a new one takes a freed row id (the
 * cache of row sizes follows every change). */
#include "tests/unit/unit.h"
#include "tests/skills/index_helpers.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>

#include "skills/index.h"
#include "skills/relevance.h"
#include "skills/index/postings_int.h"
#include "skills/index/words_int.h"

TestSuite(rank, .init = th_setup, .fini = th_teardown);

/* joint 0: the two tables' bm25 alone; a test that sets it checks the joint
 * part against its own count of the words' occurrences (joint_of). */
static upk_index_weights W = {.name = 7, .description = 3, .headings = 2, .body = 0.5};
static const char *const *joint_stems; /* the task's words as the index stems them */

static void skill(const char *dir, const char *desc, const char *body) {
  char rel[256], text[8192];
  snprintf(rel, sizeof rel, "skills/%s/SKILL.md", dir);
  snprintf(text, sizeof text, "---\nname: %s\ndescription: %s\n---\n%s\n", dir, desc, body);
  th_write(rel, text);
}

static int64_t doc_id(sqlite3 *db, const char *path) {
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, "SELECT id FROM doc WHERE path = ?1", -1, &st, NULL), 0);
  sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "no doc for %s", path);
  int64_t id = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return id;
}

/* -bm25() of one row (0 when it does not match). */
static double bm25_of(sqlite3 *db, const char *sql, const char *match, int64_t id) {
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), 0, "%s", sqlite3_errmsg(db));
  sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, id);
  double s = sqlite3_step(st) == SQLITE_ROW ? -sqlite3_column_double(st, 0) : 0;
  sqlite3_finalize(st);
  return s;
}

/* One number from sql, ?1 bound to text and ?2 to id. */
static double scalar(sqlite3 *db, const char *sql, const char *text, int64_t id) {
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), 0, "%s", sqlite3_errmsg(db));
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, id);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  double v = sqlite3_column_double(st, 0);
  sqlite3_finalize(st);
  return v;
}

/* One bm25 over a skill's head and body as one text, counted from FTS5's
 * own token instances: per word, the head's occurrences weighed by column
 * plus the body's, the idf from the skills with it anywhere (none in half
 * the skills or more), the length both tables' tokens. */
static double joint_of(sqlite3 *db, int64_t id) {
  double n = scalar(db, "SELECT count(*) FROM fts_docsize WHERE ?1 IS NULL", NULL, 0);
  double avgdl = scalar(db,
                        "SELECT (SELECT count(*) FROM temp.hi) + (SELECT count(*) FROM"
                        " temp.bi) WHERE ?1 IS NULL",
                        NULL, 0) /
                 n;
  double len = scalar(db,
                      "SELECT (SELECT count(*) FROM temp.hi WHERE doc = ?2) + (SELECT"
                      " count(*) FROM temp.bi WHERE doc = ?2) WHERE ?1 IS NULL",
                      NULL, id);
  double sum = 0;
  for (const char *const *w = joint_stems; *w; w++) {
    double u = scalar(db,
                      "SELECT count(*) FROM (SELECT doc FROM temp.hi WHERE term = ?1 UNION"
                      " SELECT doc FROM temp.bi WHERE term = ?1) WHERE ?2 = ?2",
                      *w, id);
    double tf = scalar(db,
                       "SELECT (SELECT coalesce(sum(CASE col WHEN 'name' THEN 7 WHEN"
                       " 'description' THEN 3 ELSE 2 END), 0) FROM temp.hi WHERE term = ?1"
                       " AND doc = ?2) + (SELECT count(*) FROM temp.bi WHERE term = ?1"
                       " AND doc = ?2)",
                       *w, id);
    if (2 * u < n && tf > 0)
      sum += log((n - u + 0.5) / (u + 0.5)) * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / avgdl));
  }
  return sum;
}

/* The task's hits are `want` in number, each scored as bm25() scores `match`
 * (plus W.joint times joint_of()). */
static void expect_bm25(upk_index *ix, const char *task, const char *match, size_t want) {
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(th_path("cache/index.sqlite"), &db), SQLITE_OK);
  cr_assert_eq(
      sqlite3_exec(db,
                   "CREATE VIRTUAL TABLE temp.hi USING fts5vocab(main, fts, instance);"
                   "CREATE VIRTUAL TABLE temp.bi USING fts5vocab(main, fts_body, instance)",
                   NULL, NULL, NULL),
      SQLITE_OK, "%s", sqlite3_errmsg(db));
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 20, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(h.len, want, "'%s': %zu hits", task, h.len);
  for (size_t i = 0; i < h.len; i++) {
    int64_t id = doc_id(db, h.items[i].e.path);
    double head = bm25_of(
        db, "SELECT bm25(fts, 7, 3, 2) FROM fts WHERE fts MATCH ?1 AND rowid = ?2", match, id);
    double body =
        bm25_of(db, "SELECT bm25(fts_body) FROM fts_body WHERE fts_body MATCH ?1 AND rowid = ?2",
                match, id);
    double expect = head + W.body * body + (W.joint ? W.joint * joint_of(db, id) : 0);
    cr_assert(expect > 0, "%s: bm25 finds no match", h.items[i].e.name);
    cr_assert(fabs(h.items[i].score - expect) <= 1e-12 * expect, "'%s', %s: %.17g, bm25 %.17g",
              task, h.items[i].e.name, h.items[i].score, expect);
  }
  upk_index_hits_free(&h);
  sqlite3_close(db);
}

/* Ten skills about something else, then the index of th_path("skills"), scanned. */
static upk_index *scanned_with_others(void) {
  for (int i = 0; i < 10; i++) {
    char dir[32];
    snprintf(dir, sizeof dir, "other-%02d", i);
    skill(dir, "Format source files before a commit.", "Run the formatter on staged files.");
  }
  upk_index_stats st;
  return th_indexed((upk_index_options){.weights = W, .keep_twins = true}, &st);
}

UTest(rank, scores_are_fts5_bm25_and_follow_changes) {
  skill("csv-joins", "Join CSV tables on a key.", "## Merge step\nUse pandas merge on a key.");
  skill("git-merge-conflicts", "Resolve merge conflicts after a rebase or a merge.",
        "Open each conflict and merge by hand; mark conflicts resolved.");
  skill("merge-pdfs", "Merge PDF files into one document.", "# Merge\n\nMerge pages in order.");
  skill("release-notes", "Draft release notes from merged pull requests.", "List merged changes.");
  skill("rotate-logs", "Rotate and compress old log files.", "Nothing about joining here.");
  skill("zz-archive", "Archive old branches after a merge.", "Tag, then delete the branch.");
  /* "merge" in 5 skills of 16: a real idf */
  upk_index *ix = scanned_with_others();
  upk_index_stats st;
  expect_bm25(ix, "merge", "\"merge\"", 5);
  expect_bm25(ix, "merge conflicts", "\"merge\" OR \"conflicts\"", 5);

  /* Longer (its row size changes), gone, and new in the freed row id. */
  char body[4096] = "# Merge\n\nMerge pages in order.";
  for (int i = 0; i < 40; i++)
    strcat(body, " Keep every bookmark and outline entry.");
  skill("merge-pdfs", "Merge PDF files into one document.", body);
  nftw(th_path("skills/zz-archive"), th_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  skill("zz-changelog", "Write a changelog entry for a merge and its conflicts.", "One line.");
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(st.parsed, 2);
  cr_assert_eq(st.removed, 1);
  expect_bm25(ix, "merge", "\"merge\"", 5);
  expect_bm25(ix, "merge conflicts", "\"merge\" OR \"conflicts\"", 5);
  upk_index_close(ix);
}

/* Two daemons on one workspace share the index file: what one writes, the
 * other's next lookup scores with (nothing it cached before still counts). */
UTest(rank, another_connections_changes_are_seen) {
  for (int i = 0; i < 12; i++) {
    char dir[32];
    snprintf(dir, sizeof dir, "skill-%02d", i);
    skill(dir, i % 3 ? "Format source files before a commit." : "Merge two branches.",
          "Run the formatter on staged files.");
  }
  upk_index_options o = {
      .db_path = th_path("cache/index.sqlite"), .weights = W, .keep_twins = true};
  upk_index_root r = {th_path("skills"), "claude", UPK_INDEX_PROJECT, 0, 0};
  upk_index *a, *b;
  upk_index_stats st;
  cr_assert_eq(upk_index_open(&a, &o), 0);
  cr_assert_eq(upk_index_set_roots(a, &r, 1), 0, "%s", upk_index_errmsg(a));
  cr_assert_eq(upk_index_scan(a, &st, NULL), 0, "%s", upk_index_errmsg(a));
  expect_bm25(a, "merge branches", "\"merge\" OR \"branches\"", 4);
  cr_assert_eq(upk_index_open(&b, &o), 0);
  cr_assert_eq(upk_index_set_roots(b, &r, 1), 0, "%s", upk_index_errmsg(b));
  char body[4096] = "Merge with care.";
  for (int i = 0; i < 40; i++)
    strcat(body, " Check the branches first.");
  skill("skill-03", "Merge two branches.", body);
  skill("skill-04", "Merge release branches.", "Merge them.");
  cr_assert_eq(upk_index_scan(b, &st, NULL), 0, "%s", upk_index_errmsg(b));
  cr_assert_eq(st.parsed, 2);
  expect_bm25(a, "merge branches", "\"merge\" OR \"branches\"", 5);
  upk_index_close(b);
  upk_index_close(a);
}

/* A phrase's rows are kept between lookups when there are 32 or more
 * (skills/index/postings.c): asked again, or in other forms of its words,
 * the same scores, from what was kept; after skills change, are removed and added (the phrase's row
 * count, so its idf, changes with them) and after a refresh, still bm25()'s. */
UTest(rank, kept_row_lists_follow_changes) {
  for (int i = 0; i < 48; i++) {
    char dir[32], body[512] = "Merge with care.";
    snprintf(dir, sizeof dir, "merge-%02d", i);
    for (int k = 0; k < i % 5; k++)
      strcat(body, " Then merge the branches again.");
    skill(dir, i % 2 ? "Merge branches after a review." : "Merge PDF pages into one file.", body);
  }
  upk_index *ix = scanned_with_others();
  upk_index_stats st;
  const char *match = "\"merge\" OR \"branches\"";
  expect_bm25(ix, "merge branches", match, 20);
  size_t hits = upk__ix_pcache_hits(ix);
  expect_bm25(ix, "merge branches", match, 20);
  cr_assert_gt(upk__ix_pcache_hits(ix), hits, "the second lookup did not use the kept rows");
  /* other forms of the same words: the same tokens, so the same lists, kept */
  hits = upk__ix_pcache_hits(ix);
  expect_bm25(ix, "merging branch", "\"merging\" OR \"branch\"", 20);
  cr_assert_gt(upk__ix_pcache_hits(ix), hits, "each word's list was kept under its tokens");
  /* "merge" kept, the other word in no row: the MATCH asks it alone and meets nothing */
  expect_bm25(ix, "merge zzyzxq", "\"merge\"", 20);

  char body[4096] = "Merge with care.";
  for (int i = 0; i < 40; i++)
    strcat(body, " Merge branches one at a time.");
  skill("merge-03", "Merge branches after a review.", body);
  nftw(th_path("skills/merge-08"), th_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  nftw(th_path("skills/merge-09"), th_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  skill("zz-merge", "Merge release branches.", "Merge them.");
  cr_assert_eq(upk_index_scan(ix, &st, NULL), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(st.parsed, 2);
  cr_assert_eq(st.removed, 2);
  expect_bm25(ix, "merge branches", match, 20);
  expect_bm25(ix, "merge branches", match, 20);

  skill("merge-04", "Merge branches after a review.", body);
  cr_assert_eq(upk_index_refresh(ix, th_path("skills/merge-04/SKILL.md"), NULL), 1, "%s",
               upk_index_errmsg(ix));
  expect_bm25(ix, "merge branches", match, 20);
  upk_index_close(ix);
}

/* upk__ix_is_stopword() looks the word up by bsearch. */
Test(rank, stopwords_are_sorted) {
  cr_assert(upk__ix_stopwords_sorted());
  cr_assert(upk__ix_is_stopword("please") && upk__ix_is_stopword("a") &&
            upk__ix_is_stopword("yourself") && !upk__ix_is_stopword("merge"));
}

/* Relevance (skills/relevance.h): in [0, 1]; generic words alone are no match; a sentence's
 * words in a skill's name and description are; a one-word task in the name is. */
static double rel_of(const char *task, const char *const *terms, const unsigned *fields, size_t n) {
  upk_index_match m[8];
  for (size_t i = 0; i < n; i++)
    m[i] = (upk_index_match){.term = (char *)terms[i], .fields = fields[i]};
  upk_index_hit h = {.matches = m, .n_matches = n};
  return upk_hit_relevance(task, &h);
}

Test(rank, relevance_in_0_1_and_generic_words_never_match) {
  cr_assert(upk_relevance_generic_sorted());
  enum { N = UPK_FIELD_NAME, D = UPK_FIELD_DESCRIPTION, B = UPK_FIELD_BODY };
  const char *poem[] = {"write", "first", "snow"};
  const unsigned poem_f[] = {N | D, N | D, B};
  double r = rel_of("write a poem about the first snow", poem, poem_f, 3);
  cr_assert(r >= 0 && r < UPK_RELEVANCE_CUT, "%g", r);
  const char *generic[] = {"make", "table", "use", "fix"};
  const unsigned generic_f[] = {N, N | D, N, D};
  cr_assert_eq(rel_of("make a table, use it, fix it", generic, generic_f, 4), 0);
  const char *csv[] = {"merge", "csv", "columns", "pandas"};
  const unsigned csv_f[] = {N | D, N | D, D, B};
  r = rel_of("merge two csv files on shared columns with pandas", csv, csv_f, 4);
  cr_assert(r >= UPK_RELEVANCE_CUT && r <= 1, "%g", r);
  const char *pdf[] = {"pdf"};
  const unsigned pdf_f[] = {N | D};
  r = rel_of("pdf", pdf, pdf_f, 1);
  cr_assert(r >= UPK_RELEVANCE_CUT && r <= 1, "%g", r);
  cr_assert_eq(rel_of("", NULL, NULL, 0), 0);
}

/* With `joint` weighed, each hit's score is the two tables' bm25 plus one
 * bm25 over the whole skill, counted here from FTS5's token instances: a
 * word in the head only, in the body only, in both, and a skill only the
 * body ranks. The same again from the kept lists. */
UTest(rank, joint_score_is_one_bm25_over_the_skill) {
  W.joint = 2;
  static const char *const stems[] = {"merg", "conflict", NULL};
  joint_stems = stems;
  skill("git-merge-conflicts", "Resolve merge conflicts after a rebase or a merge.",
        "Open each conflict and merge by hand; mark conflicts resolved.");
  skill("merge-pdfs", "Merge PDF files into one document.", "# Pages\n\nKeep pages in order.");
  skill("rebase-notes", "Keep a clean history.", "When conflicts come up, merge by hand.");
  skill("conflict-log", "Log every conflict a team meets.", "One line each.");
  for (int i = 0; i < 40; i++) {
    char dir[32];
    snprintf(dir, sizeof dir, "merge-%02d", i);
    skill(dir, i % 2 ? "Merge branches after a review." : "Squash commits.",
          i % 3 ? "Merge with care, then push." : "Push.");
  }
  upk_index *ix = scanned_with_others();
  expect_bm25(ix, "merge conflicts", "\"merge\" OR \"conflicts\"", 20);
  expect_bm25(ix, "merge conflicts", "\"merge\" OR \"conflicts\"", 20);
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "merge conflicts", 3, NULL, 0, &h), 0);
  cr_assert_str_eq(h.items[0].e.name, "git-merge-conflicts");
  upk_index_hits_free(&h);
  upk_index_close(ix);
}

/* issue 34: "migrate to CUDA 12" ranked cuda-11-migration first: bare numbers were left out of
 * the task, so versions and identifiers (12, sm_90, 042) did not count. They are kept now (rare
 * words: a high idf); one-character words ("5") still are not. */
static const char *first_hit(upk_index *ix, const char *task, char out[64]) {
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, task, 10, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_assert_gt(h.len, 0, "'%s': no hit", task);
  snprintf(out, 64, "%s", h.items[0].e.name);
  upk_index_hits_free(&h);
  return out;
}

UTest(rank, numbers_and_identifiers_in_a_task_count) {
  skill("cuda-11-migration", "Migrate a code base to CUDA 11: deprecated APIs and new flags.",
        "Replace the removed calls; rebuild with CUDA 11 and check the warnings.");
  skill("cuda-12-migration", "Migrate a code base to CUDA 12: deprecated APIs and new flags.",
        "Replace the removed calls; rebuild with CUDA 12 and check the warnings.");
  skill("hopper-tuning", "Tune kernels for sm_90 (H100): clusters, TMA and wgmma.",
        "Compile with -arch=sm_90a; use thread block clusters.");
  skill("ampere-tuning", "Tune kernels for sm_80 (A100): cp.async and tensor cores.",
        "Compile with -arch=sm_80; use cp.async pipelines.");
  skill("issue-042-fix", "Fix the crash of issue 042 in the tile loader.",
        "The tile loader reads past the end; clamp the index.");
  skill("issue-017-fix", "Fix the crash of issue 017 in the tile loader.",
        "The tile loader frees twice; drop the second free.");
  upk_index *ix = scanned_with_others();
  char got[64];
  cr_expect_str_eq(first_hit(ix, "migrate to CUDA 12", got), "cuda-12-migration");
  cr_expect_str_eq(first_hit(ix, "migrate to CUDA 11", got), "cuda-11-migration");
  cr_expect_str_eq(first_hit(ix, "cuda 12 migration of our code base", got), "cuda-12-migration");
  cr_expect_str_eq(first_hit(ix, "tune my kernel for sm_90", got), "hopper-tuning");
  cr_expect_str_eq(first_hit(ix, "tune my kernel for sm_80", got), "ampere-tuning");
  cr_expect_str_eq(first_hit(ix, "the tile loader crash from issue 042", got), "issue-042-fix");
  cr_expect_str_eq(first_hit(ix, "the tile loader crash from issue 017", got), "issue-017-fix");
  /* A number no skill holds is no prefix of one ("1" of "11", "12"), and asks nothing. */
  upk_index_hits h;
  cr_assert_eq(upk_index_lookup(ix, "2024", 10, NULL, 0, &h), 0, "%s", upk_index_errmsg(ix));
  cr_expect_eq(h.len, 0, "'2024': %zu hits, first %s", h.len, h.len ? h.items[0].e.name : "");
  upk_index_hits_free(&h);
  upk_index_close(ix);
}
