/* Description-trigger evaluation as skill-creator runs it: the eval set read in both shapes
 * with bad items named and left out, the stratified split (seeded, order- and
 * platform-free), the scores worked out by hand (0/0 cases included), run_loop.py's choice of
 * the best description, an improve prompt that shows the model only train failures, the
 * reply parser's limits, and run_eval.py-shaped JSON. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/eval/trigger.h"

static upk_trigger_set s;
static upk_diags d;

static void fini(void) {
  upk_trigger_set_free(&s);
  upk_diags_free(&d);
}

TestSuite(trigger, .fini = fini);

static int parse(const char *text) {
  upk_trigger_set_free(&s);
  upk_diags_free(&d);
  return upk_trigger_queries_parse(text, strlen(text), &s, &d);
}

static const char *dump_diags(void) {
  static char buf[4096];
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < d.len && n < sizeof buf - 300; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s: %s\n", d.items[i].code, d.items[i].message);
  return buf;
}

/* A diagnostic with this code whose message contains `text`. */
static bool has_diag(const char *code, const char *text) {
  for (size_t i = 0; i < d.len; i++)
    if (strcmp(d.items[i].code, code) == 0 && strstr(d.items[i].message, text))
      return true;
  return false;
}

static void has(const char *text, const char *sub) {
  cr_assert(strstr(text, sub), "lacks \"%s\":\n%s", sub, text);
}

static void lacks(const char *text, const char *sub) {
  cr_assert(!strstr(text, sub), "should not contain \"%s\":\n%s", sub, text);
}

/* ---- parsing ------------------------------------------------------------- */

Test(trigger, parse_skill_creator_list) {
  cr_assert_eq(parse("[{\"query\": \"convert my q4.xlsx\", \"should_trigger\": true},"
                     " {\"query\": \"write fibonacci\", \"should_trigger\": false, \"note\": 1}]"),
               0, "%s", dump_diags());
  cr_assert_eq(s.n, 2);
  cr_assert_str_eq(s.items[0].query, "convert my q4.xlsx");
  cr_assert(s.items[0].should_trigger);
  cr_assert_str_eq(s.items[1].query, "write fibonacci");
  cr_assert_not(s.items[1].should_trigger);
  cr_assert_eq(d.len, 0);
  cr_assert_eq(parse("{\"queries\": [{\"query\": \"a\", \"should_trigger\": false}]}"), 0);
  cr_assert_eq(s.n, 1);
  cr_assert_not(s.items[0].should_trigger);
}

Test(trigger, parse_bad_items_named_and_left_out) {
  cr_assert_eq(parse("[{\"query\": \"good\", \"should_trigger\": true},"
                     " 7,"
                     " {\"should_trigger\": true},"
                     " {\"query\": \"  \\n\", \"should_trigger\": true},"
                     " {\"query\": 3, \"should_trigger\": false},"
                     " {\"query\": \"no answer\"},"
                     " {\"query\": \"string answer\", \"should_trigger\": \"yes\"},"
                     " {\"query\": \"good too\", \"should_trigger\": false}]"),
               -EINVAL);
  cr_assert_eq(s.n, 2, "%s", dump_diags());
  cr_assert_str_eq(s.items[0].query, "good");
  cr_assert_str_eq(s.items[1].query, "good too");
  cr_assert(has_diag("eval/wrong-type", "queries[1]"), "%s", dump_diags());
  cr_assert(has_diag("eval/missing-field", "queries[2]"));
  cr_assert(has_diag("eval/empty", "queries[3]"));
  cr_assert(has_diag("eval/wrong-type", "queries[4]"));
  cr_assert(has_diag("eval/missing-field", "queries[5]"));
  cr_assert(has_diag("eval/wrong-type", "queries[6]"));
  cr_assert_eq(upk_diags_count(&d, UPK_SEV_ERROR), 6);

  cr_assert_eq(parse("[{\"query\": \"a\", \"should_trigger\": tru"), -EINVAL);
  cr_assert(has_diag("eval/invalid-json", "line 1"));
  cr_assert_eq(s.n, 0);
  cr_assert_eq(parse("{\"cases\": []}"), -EINVAL);
  cr_assert(has_diag("eval/wrong-type", "queries"));
  cr_assert_eq(parse("[]"), -EINVAL);
  cr_assert(has_diag("eval/empty", "no queries"));
  cr_assert_eq(parse("[{\"query\": \"a\", \"query\": \"b\", \"should_trigger\": true}]"), -EINVAL,
               "duplicate keys are refused");
}

Test(trigger, parse_repeats) {
  cr_assert_eq(parse("[{\"query\": \"a\", \"should_trigger\": true},"
                     " {\"query\": \"b\", \"should_trigger\": true},"
                     " {\"query\": \"a\", \"should_trigger\": true}]"),
               0, "the same item twice is only a warning");
  cr_assert_eq(s.n, 2);
  cr_assert(has_diag("eval/duplicate", "queries[2]: the same query as queries[0]"), "%s",
            dump_diags());
  cr_assert_eq(d.items[0].severity, UPK_SEV_WARNING);
  cr_assert_eq(parse("[{\"query\": \"a\", \"should_trigger\": true},"
                     " {\"query\": \"a\", \"should_trigger\": false}]"),
               -EINVAL);
  cr_assert_eq(s.n, 1);
  cr_assert(s.items[0].should_trigger, "the first answer is kept");
  cr_assert(has_diag("eval/duplicate", "queries[1]"));
}

Test(trigger, parse_limits) {
  size_t big = UPK_TRIGGER_MAX_QUERY_BYTES + 1;
  char *text = malloc(big + 200);
  int k = sprintf(text, "[{\"query\": \"");
  memset(text + k, 'x', big);
  sprintf(text + k + big, "\", \"should_trigger\": true}, {\"query\": \"ok\", \"should_trigger\": "
                          "true}]");
  cr_assert_eq(parse(text), -EINVAL);
  cr_assert(has_diag("eval/too-large", "queries[0]"), "%s", dump_diags());
  cr_assert_eq(s.n, 1);
  /* exactly the limit: drop one 'x' */
  memmove(text + k + big - 1, text + k + big, strlen(text + k + big) + 1);
  cr_assert_eq(parse(text), 0, "%s", dump_diags());
  cr_assert_eq(strlen(s.items[0].query), UPK_TRIGGER_MAX_QUERY_BYTES);
  free(text);

  size_t n = UPK_TRIGGER_MAX_QUERIES + 5;
  text = malloc(n * 64 + 8);
  size_t len = (size_t)sprintf(text, "[");
  for (size_t i = 0; i < n; i++)
    len += (size_t)sprintf(text + len, "%s{\"query\": \"q%zu\", \"should_trigger\": %s}",
                           i ? "," : "", i, i % 2 ? "true" : "false");
  sprintf(text + len, "]");
  cr_assert_eq(parse(text), -EINVAL);
  cr_assert_eq(s.n, UPK_TRIGGER_MAX_QUERIES);
  cr_assert(has_diag("eval/too-large", "1005 queries"), "%s", dump_diags());
  free(text);

  upk_trigger_set t = {0};
  cr_assert_eq(upk_trigger_set_add(&t, "x", true), 0);
  cr_assert_eq(upk_trigger_set_add(&t, "x", false), -EEXIST);
  cr_assert_eq(upk_trigger_set_add(&t, " ", false), -EINVAL);
  cr_assert_eq(upk_trigger_set_add(&t, "bad \xff utf-8", false), -EINVAL);
  cr_assert_eq(t.n, 1);
  upk_trigger_set_free(&t);
}

Test(trigger, read_file) {
  char path[] = "/tmp/upk-trigger-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  const char *text = "[{\"query\": \"a\", \"should_trigger\": true}]";
  cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  cr_assert_eq(upk_trigger_queries_read(path, &s, &d), 0);
  cr_assert_eq(s.n, 1);
  unlink(path);
  upk_trigger_set_free(&s);
  cr_assert_eq(upk_trigger_queries_read(path, &s, &d), -ENOENT);
  cr_assert(has_diag("eval/unreadable", path));
}

/* ---- split --------------------------------------------------------------- */

/* pos should-trigger queries "p<i>" then neg others "n<i>"; reversed when asked. */
static void make(upk_trigger_set *t, int pos, int neg, bool reverse) {
  char q[32];
  for (int k = 0; k < pos + neg; k++) {
    int i = reverse ? pos + neg - 1 - k : k;
    snprintf(q, sizeof q, i < pos ? "p%d" : "n%d", i < pos ? i : i - pos);
    cr_assert_eq(upk_trigger_set_add(t, q, i < pos), 0);
  }
}

/* The held-out queries as a sorted, comma-joined string, and the class counts. */
static void held(const upk_trigger_set *t, uint64_t seed, double holdout, char *out,
                 size_t *pos_test, size_t *neg_test, size_t *n_train) {
  size_t *tr, *te, ntr, nte;
  cr_assert_eq(upk_trigger_split(t, seed, holdout, &tr, &ntr, &te, &nte), 0);
  cr_assert_eq(ntr + nte, t->n);
  const char *names[64];
  *pos_test = *neg_test = 0;
  for (size_t i = 0; i < nte; i++) {
    names[i] = t->items[te[i]].query;
    *(t->items[te[i]].should_trigger ? pos_test : neg_test) += 1;
    for (size_t j = 0; j < ntr; j++)
      cr_assert_neq(tr[j], te[i], "disjoint");
    if (i)
      cr_assert_lt(te[i - 1], te[i], "ascending");
  }
  for (size_t i = 1; i < nte; i++) /* insertion sort by text */
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      const char *x = names[j];
      names[j] = names[j - 1];
      names[j - 1] = x;
    }
  out[0] = '\0';
  for (size_t i = 0; i < nte; i++)
    strcat(strcat(out, names[i]), ",");
  *n_train = ntr;
  free(tr);
  free(te);
}

Test(trigger, split_deterministic_stratified_order_free) {
  upk_trigger_set a = {0}, b = {0};
  make(&a, 10, 8, false);
  make(&b, 10, 8, true);
  char h1[512], h2[512], h3[512];
  size_t p, n, ntr;
  held(&a, 42, UPK_TRIGGER_HOLDOUT, h1, &p, &n, &ntr);
  cr_assert_eq(p, 4, "floor(10 * 0.4) positives held out");
  cr_assert_eq(n, 3, "floor(8 * 0.4) negatives held out");
  cr_assert_eq(ntr, 11);
  held(&a, 42, UPK_TRIGGER_HOLDOUT, h2, &p, &n, &ntr);
  cr_assert_str_eq(h1, h2, "same seed, same split");
  held(&b, 42, UPK_TRIGGER_HOLDOUT, h3, &p, &n, &ntr);
  cr_assert_str_eq(h1, h3, "the order of the set does not matter");
  bool differs = false;
  for (uint64_t seed = 1; seed < 8 && !differs; seed++) {
    held(&a, seed, UPK_TRIGGER_HOLDOUT, h2, &p, &n, &ntr);
    differs = strcmp(h1, h2) != 0;
  }
  cr_assert(differs, "the seed matters");
  upk_trigger_set_free(&a);
  upk_trigger_set_free(&b);
}

Test(trigger, split_sizes) {
  upk_trigger_set a = {0};
  char h[512];
  size_t p, n, ntr;
  make(&a, 2, 3, false);
  held(&a, 7, 0.01, h, &p, &n, &ntr);
  cr_assert(p == 1 && n == 1, "at least one of each class held out");
  held(&a, 7, 0.99, h, &p, &n, &ntr);
  cr_assert(p == 1 && n == 2, "at least one of each class kept for training");
  cr_assert_eq(ntr, 2);
  held(&a, 7, 0, h, &p, &n, &ntr);
  cr_assert(p == 0 && n == 0 && ntr == 5, "holdout 0: all train");
  upk_trigger_set_free(&a);

  make(&a, 1, 4, false);
  held(&a, 7, 0.4, h, &p, &n, &ntr);
  cr_assert(p == 1 && n == 1, "a class of one is tested only, as run_loop.py does");
  cr_assert_eq(ntr, 3);
  upk_trigger_set_free(&a);

  make(&a, 0, 5, false);
  held(&a, 7, 0.4, h, &p, &n, &ntr);
  cr_assert(p == 0 && n == 2 && ntr == 3, "an empty class holds nothing out");
  size_t *tr, *te, nte;
  cr_assert_eq(upk_trigger_split(&a, 1, 1.0, &tr, &ntr, &te, &nte), -EINVAL);
  cr_assert_eq(upk_trigger_split(&a, 1, -0.1, &tr, &ntr, &te, &nte), -EINVAL);
  cr_assert_eq(upk_trigger_split(&a, 1, NAN, &tr, &ntr, &te, &nte), -EINVAL);
  upk_trigger_set_free(&a);

  cr_assert_eq(upk_trigger_split(&a, 1, 0.4, &tr, &ntr, &te, &nte), 0, "an empty set");
  cr_assert(tr && te && ntr == 0 && nte == 0);
  free(tr);
  free(te);
}

/* ---- scores -------------------------------------------------------------- */

static bool near(double a, double b) {
  return fabs(a - b) < 1e-12;
}

/* A+ 3/3 (TP), B+ 1/3 (FN), C- 2/3 (FP), D- 0/3 (TN), E+ not run. */
static void five(upk_trigger_set *t, upk_trigger_outcome *o) {
  const char *q[] = {"A", "B", "C", "D", "E"};
  const bool st[] = {true, true, false, false, true};
  const upk_trigger_outcome oc[] = {{3, 3}, {3, 1}, {3, 2}, {3, 0}, {0, 0}};
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(upk_trigger_set_add(t, q[i], st[i]), 0);
    o[i] = oc[i];
  }
}

Test(trigger, rate_and_pass) {
  cr_assert(near(upk_trigger_rate((upk_trigger_outcome){3, 2}), 2.0 / 3));
  cr_assert(isnan(upk_trigger_rate((upk_trigger_outcome){0, 0})));
  upk_trigger_outcome half = {2, 1};
  cr_assert(upk_trigger_pass(true, half, 0.5), "rate == threshold triggers");
  cr_assert_not(upk_trigger_pass(false, half, 0.5));
  cr_assert(upk_trigger_pass(false, (upk_trigger_outcome){3, 1}, 0.5));
  cr_assert_not(upk_trigger_pass(true, (upk_trigger_outcome){3, 1}, 0.5));
  cr_assert_not(upk_trigger_pass(false, (upk_trigger_outcome){0, 0}, 0.5), "not run: no pass");
  cr_assert_not(upk_trigger_pass(true, (upk_trigger_outcome){2, 3}, 0.5));
}

Test(trigger, tally_by_hand) {
  upk_trigger_outcome o[5];
  five(&s, o);
  upk_trigger_score sc;
  cr_assert_eq(upk_trigger_tally(&s, o, NULL, 0, 0.5, &sc), 0);
  cr_assert_eq(sc.total, 4);
  cr_assert_eq(sc.passed, 2);
  cr_assert_eq(sc.failed, 2);
  cr_assert_eq(sc.not_run, 1);
  cr_assert(sc.queries.tp == 1 && sc.queries.fn == 1 && sc.queries.fp == 1 && sc.queries.tn == 1);
  cr_assert(near(sc.queries.precision, 0.5) && near(sc.queries.recall, 0.5) &&
            near(sc.queries.accuracy, 0.5));
  /* runs: TP 3+1, FN 0+2, FP 2+0, TN 1+3 */
  cr_assert(sc.runs.tp == 4 && sc.runs.fn == 2 && sc.runs.fp == 2 && sc.runs.tn == 4);
  cr_assert(near(sc.runs.precision, 4.0 / 6) && near(sc.runs.recall, 4.0 / 6) &&
            near(sc.runs.accuracy, 8.0 / 12));

  size_t neg[] = {3}; /* D only: nothing predicted or expected to trigger */
  cr_assert_eq(upk_trigger_tally(&s, o, neg, 1, 0.5, &sc), 0);
  cr_assert(sc.passed == 1 && sc.queries.tn == 1);
  cr_assert(near(sc.queries.precision, 1.0) && near(sc.queries.recall, 1.0), "0/0 is 1.0");
  cr_assert(near(sc.queries.accuracy, 1.0));
  cr_assert(near(sc.runs.precision, 1.0) && near(sc.runs.recall, 1.0));

  size_t none[] = {4}; /* E only: not run */
  cr_assert_eq(upk_trigger_tally(&s, o, none, 1, 0.5, &sc), 0);
  cr_assert(sc.total == 0 && sc.not_run == 1);
  cr_assert(near(sc.queries.precision, 1.0) && near(sc.queries.recall, 1.0));
  cr_assert(near(sc.queries.accuracy, 0.0), "accuracy 0/0 is 0.0, as run_loop.py has it");
  cr_assert_eq(upk_trigger_tally(&s, o, none, 0, 0.5, &sc), 0);
  cr_assert_eq(sc.total + sc.not_run, 0, "an empty subset");

  size_t pos[] = {0, 1}; /* A, B: recall 1/2, precision 1/1 */
  cr_assert_eq(upk_trigger_tally(&s, o, pos, 2, 0.5, &sc), 0);
  cr_assert(near(sc.queries.precision, 1.0) && near(sc.queries.recall, 0.5));
  cr_assert_eq(upk_trigger_tally(&s, o, pos, 2, 0.3, &sc), 0);
  cr_assert_eq(sc.passed, 2, "1/3 passes a 0.3 threshold");

  size_t bad[] = {0, 0};
  cr_assert_eq(upk_trigger_tally(&s, o, bad, 2, 0.5, &sc), -EINVAL, "repeated index");
  bad[1] = 5;
  cr_assert_eq(upk_trigger_tally(&s, o, bad, 2, 0.5, &sc), -EINVAL, "out of range");
  cr_assert_eq(upk_trigger_tally(&s, o, NULL, 0, NAN, &sc), -EINVAL);
  o[2].triggers = 4;
  cr_assert_eq(upk_trigger_tally(&s, o, NULL, 0, 0.5, &sc), -EINVAL, "triggers > runs");
  cr_assert_eq(sc.total, 0);
}

Test(trigger, best_as_run_loop) {
  upk_trigger_score tr[4] = {0}, te[4] = {0};
  const size_t trp[] = {3, 9, 9, 5}, tep[] = {4, 2, 6, 6};
  for (int i = 0; i < 4; i++) {
    tr[i].passed = trp[i];
    te[i].passed = tep[i];
  }
  size_t b = 99;
  cr_assert_eq(upk_trigger_best(tr, te, 4, &b), 0);
  cr_assert_eq(b, 2, "most test passes; the tie with 3 goes to the earlier");
  cr_assert_eq(upk_trigger_best(tr, NULL, 4, &b), 0);
  cr_assert_eq(b, 1, "no test set: most train passes; the tie with 2 goes to the earlier");
  cr_assert_eq(upk_trigger_best(tr, te, 1, &b), 0);
  cr_assert_eq(b, 0);
  cr_assert_eq(upk_trigger_best(tr, te, 0, &b), -EINVAL);
}

/* ---- the improve prompt --------------------------------------------------- */

Test(trigger, improve_prompt_shows_train_only) {
  const char *q[] = {"train miss",
                     "train false alarm",
                     "test miss",
                     "test false alarm",
                     "train ok",
                     "a very long train query that goes on and on and on and on "
                     "and on well past eighty characters END"};
  const bool st[] = {true, false, true, false, true, false};
  for (int i = 0; i < 6; i++)
    cr_assert_eq(upk_trigger_set_add(&s, q[i], st[i]), 0);
  upk_trigger_outcome now[] = {{3, 0}, {3, 3}, {3, 1}, {3, 2}, {3, 3}, {3, 0}};
  upk_trigger_outcome before[] = {{3, 1}, {3, 2}, {3, 0}, {3, 3}, {3, 2}, {3, 2}};
  size_t train[] = {0, 1, 4, 5}, test[] = {2, 3};
  upk_trigger_eval ev = {.skill_name = "xlsx-tools",
                         .description = "Use for spreadsheets.",
                         .set = &s,
                         .outcomes = now,
                         .train = train,
                         .n_train = 4,
                         .test = test,
                         .n_test = 2,
                         .threshold = 0.5};
  upk_trigger_attempt hist[] = {{"First try.", before}, {"Use for spreadsheets.", now}};
  char *p = upk_trigger_improve_prompt(&ev, "# xlsx\nBody.", hist, 2);
  cr_assert(p);
  has(p, "for a Claude Code skill called \"xlsx-tools\". A \"skill\"");
  has(p, "<current_description>\n\"Use for spreadsheets.\"\n</current_description>");
  has(p, "Current scores (Train: 2/4):\n<scores_summary>\n");
  has(p, "FAILED TO TRIGGER (should have triggered but didn't):\n"
         "  - \"train miss\" (triggered 0/3 times)\n\n");
  has(p, "FALSE TRIGGERS (triggered but shouldn't have):\n"
         "  - \"train false alarm\" (triggered 3/3 times)\n\n");
  has(p, "PREVIOUS ATTEMPTS (do NOT repeat these");
  has(p, "<attempt train=1/4>\nDescription: \"First try.\"\nTrain results:\n"
         "  [FAIL] \"train miss\" (triggered 1/3)\n");
  has(p, "  [PASS] \"train ok\" (triggered 2/3)\n");
  has(p, "<attempt train=2/4>\nDescription: \"Use for spreadsheets.\"\n");
  has(p, "  [PASS] \"a very long train query that goes on and on and on and on and on well past "
         "eight\" (triggered 0/3)");
  lacks(p, "END\"");
  has(p, "</scores_summary>\n\nSkill content (for context on what the skill does):\n"
         "<skill_content>\n# xlsx\nBody.\n</skill_content>\n\n");
  has(p, "hard limit of 1024 characters");
  has(p, "angle brackets (< or >)");
  has(p, "in <new_description> tags, nothing else.");
  lacks(p, "test miss");
  lacks(p, "test false alarm");
  lacks(p, "test=");
  lacks(p, "Test:");
  free(p);

  ev.skill_name = NULL;
  p = upk_trigger_improve_prompt(&ev, NULL, NULL, 0);
  cr_assert(p);
  lacks(p, "PREVIOUS ATTEMPTS");
  lacks(p, "<skill_content>");
  has(p, "</scores_summary>\n\nBased on the failures");
  free(p);

  now[0].triggers = 2; /* every train query passes: no failure lists */
  now[1].triggers = 0;
  p = upk_trigger_improve_prompt(&ev, NULL, NULL, 0);
  lacks(p, "FAILED TO TRIGGER");
  lacks(p, "FALSE TRIGGERS");
  has(p, "Current scores (Train: 4/4):\n<scores_summary>\n</scores_summary>");
  free(p);
  now[0].triggers = 9;
  cr_assert_null(upk_trigger_improve_prompt(&ev, NULL, NULL, 0), "triggers > runs");
}

Test(trigger, shorten_prompt) {
  char *p = upk_trigger_shorten_prompt("PROMPT", "d\xc3\xa9sc");
  has(p,
      "PROMPT\n\n---\n\nA previous attempt produced this description, which at 4 characters "
      "is over the 1024-character hard limit:\n\n\"d\xc3\xa9sc\"\n\nRewrite it to be under 1024");
  free(p);
}

/* ---- the reply ------------------------------------------------------------ */

Test(trigger, parse_reply) {
  char *desc, why[200];
  cr_assert_eq(upk_trigger_parse_reply("Sure!\n<new_description>\n  \"Use this skill for "
                                       "spreadsheets.\"\n</new_description>\nthanks",
                                       &desc, why, sizeof why),
               0);
  cr_assert_str_eq(desc, "Use this skill for spreadsheets.");
  free(desc);
  cr_assert_eq(upk_trigger_parse_reply("  Plain answer, no tags.\n", &desc, why, sizeof why), 0);
  cr_assert_str_eq(desc, "Plain answer, no tags.");
  free(desc);
  cr_assert_eq(upk_trigger_parse_reply("<new_description>a</new_description> "
                                       "<new_description>b</new_description>",
                                       &desc, why, sizeof why),
               0);
  cr_assert_str_eq(desc, "a", "the first one");
  free(desc);

  cr_assert_eq(upk_trigger_parse_reply("<new_description>Use for <xml> files</new_description>",
                                       &desc, why, sizeof why),
               -EINVAL);
  cr_assert_str_eq(desc, "Use for <xml> files");
  has(why, "angle brackets");
  free(desc);
  cr_assert_eq(
      upk_trigger_parse_reply("<new_description> \"\" </new_description>", &desc, why, sizeof why),
      -EINVAL);
  has(why, "no description");
  free(desc);
  cr_assert_eq(upk_trigger_parse_reply("<new_description>a > b</new_description>", &desc, NULL, 0),
               -EINVAL, "why may be NULL");
  free(desc);

  /* 1024 two-byte characters pass (characters, not bytes); one more is too long. */
  char reply[4200] = "<new_description>";
  char *at = reply + strlen(reply);
  for (int i = 0; i < 1024; i++, at += 2)
    memcpy(at, "\xc3\xa9", 2);
  strcpy(at, "</new_description>");
  cr_assert_eq(upk_trigger_parse_reply(reply, &desc, why, sizeof why), 0);
  cr_assert_eq(strlen(desc), 2048);
  free(desc);
  memcpy(at, "x</new_description>", 20);
  cr_assert_eq(upk_trigger_parse_reply(reply, &desc, why, sizeof why), -E2BIG);
  has(why, "Description is too long (1025 characters). Maximum is 1024 characters.");
  cr_assert_eq(strlen(desc), 2049, "the text is kept for the shorten prompt");
  free(desc);
  memcpy(at, "<</new_description>", 20);
  cr_assert_eq(upk_trigger_parse_reply(reply, &desc, why, sizeof why), -E2BIG);
  has(why, "too long");
  has(why, "angle brackets");
  free(desc);
}

/* ---- JSON ----------------------------------------------------------------- */

Test(trigger, result_json_like_run_eval) {
  upk_trigger_outcome o[5];
  five(&s, o);
  size_t train[] = {0, 2, 4}, test[] = {1, 3};
  upk_trigger_eval ev = {.skill_name = "pdf",
                         .description = "Use for PDFs.",
                         .set = &s,
                         .outcomes = o,
                         .train = train,
                         .n_train = 3,
                         .test = test,
                         .n_test = 2,
                         .threshold = 0.5};
  json_t *j = upk_trigger_result_json(&ev);
  cr_assert(j);
  char *txt = json_dumps(j, JSON_COMPACT);
  cr_assert_str_eq(json_string_value(json_object_get(j, "skill_name")), "pdf");
  cr_assert_str_eq(json_string_value(json_object_get(j, "description")), "Use for PDFs.");
  json_t *res = json_object_get(j, "results");
  cr_assert_eq(json_array_size(res), 4, "E was not run: %s", txt);
  json_t *a = json_array_get(res, 0), *b = json_array_get(res, 1);
  cr_assert_str_eq(json_string_value(json_object_get(a, "query")), "A");
  cr_assert(json_is_true(json_object_get(a, "should_trigger")));
  cr_assert(near(json_real_value(json_object_get(a, "trigger_rate")), 1.0));
  cr_assert_eq(json_integer_value(json_object_get(a, "triggers")), 3);
  cr_assert_eq(json_integer_value(json_object_get(a, "runs")), 3);
  cr_assert(json_is_true(json_object_get(a, "pass")));
  cr_assert_str_eq(json_string_value(json_object_get(a, "split")), "train");
  cr_assert_str_eq(json_string_value(json_object_get(b, "split")), "test");
  cr_assert(json_is_false(json_object_get(b, "pass")));
  json_t *sum = json_object_get(j, "summary");
  cr_assert_eq(json_integer_value(json_object_get(sum, "total")), 4);
  cr_assert_eq(json_integer_value(json_object_get(sum, "passed")), 2);
  cr_assert_eq(json_integer_value(json_object_get(sum, "failed")), 2);
  cr_assert_eq(json_integer_value(json_object_get(j, "train_passed")), 1); /* A */
  cr_assert_eq(json_integer_value(json_object_get(j, "train_total")), 2);
  cr_assert_eq(json_integer_value(json_object_get(j, "test_passed")), 1); /* D */
  cr_assert_eq(json_integer_value(json_object_get(j, "test_failed")), 1);
  json_t *tr = json_object_get(j, "train");
  cr_assert_eq(json_integer_value(json_object_get(tr, "not_run")), 1);
  cr_assert_eq(json_integer_value(json_object_get(tr, "fp")), 1);
  cr_assert(near(json_real_value(json_object_get(tr, "precision")), 0.5));
  cr_assert(near(json_real_value(json_object_get(tr, "recall")), 1.0));
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(tr, "runs"), "fp")), 2);
  cr_assert(json_is_object(json_object_get(j, "test")));
  free(txt);
  json_decref(j);

  ev.skill_name = NULL;
  ev.n_test = 0;
  j = upk_trigger_result_json(&ev);
  cr_assert(j);
  cr_assert_null(json_object_get(j, "skill_name"));
  cr_assert(json_is_null(json_object_get(j, "test")));
  cr_assert(json_is_null(json_object_get(j, "test_passed")));
  cr_assert_eq(json_array_size(json_object_get(j, "results")), 2);
  json_decref(j);

  ev.train = NULL; /* no train side: its totals are empty, not the whole set */
  ev.n_train = 0;
  ev.test = train;
  ev.n_test = 3;
  j = upk_trigger_result_json(&ev);
  cr_assert(j);
  cr_assert_eq(json_integer_value(json_object_get(j, "train_total")), 0);
  cr_assert_eq(json_integer_value(json_object_get(j, "test_total")), 2);
  json_decref(j);
  ev.n_train = 1;
  cr_assert_null(upk_trigger_result_json(&ev), "n_train without indices");

  ev.train = train;
  ev.n_train = 3;
  size_t overlap[] = {0, 1};
  ev.test = overlap;
  ev.n_test = 2;
  cr_assert_null(upk_trigger_result_json(&ev), "a query on both sides");
}
