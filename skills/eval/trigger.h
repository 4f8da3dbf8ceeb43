/** Description-trigger evaluation: does a skill's description make the agent load the skill
 * for the queries it should, and only for those? The pure-C core of Anthropic's skill-creator
 * loop (skills/skill-creator/scripts/run_eval.py, run_loop.py, improve_description.py): the
 * eval set, the stratified train/test split, the scores, the choice of the best description,
 * the prompt that asks a model for a better description and the parser of its reply, and the
 * results as JSON. Running the queries (one agent session per run, counting the runs in which
 * the skill was loaded) is the caller's.
 *
 * Semantics, as skill-creator has them:
 * - The eval set is a JSON list of {"query": str, "should_trigger": bool}.
 * - Each query runs UPK_TRIGGER_RUNS times; its trigger rate is triggers / runs. A query
 *   passes when should_trigger and rate >= threshold, or !should_trigger and rate < threshold
 *   (threshold UPK_TRIGGER_THRESHOLD). A query with no run yet is "not run": it has no rate,
 *   does not pass and is left out of every total.
 * - The split holds out, in each should_trigger class of n queries, max(1, floor(n * holdout))
 *   of them (holdout UPK_TRIGGER_HOLDOUT); a class of one query goes to the test side, as in
 *   run_loop.py. Which queries are held out differs from run_loop.py (Python's seeded shuffle
 *   is not reproduced): here each is ranked by a keyed hash of (seed, query), so the split
 *   depends on the seed and the content only, never on the order or the platform.
 * - The best description is the one with the most test passes when there is a test set, else
 *   the most train passes; on a tie the earlier one wins (Python's max()).
 * - Only train results reach the improving model; test results never do.
 */
#ifndef UPK_TRIGGER_H
#define UPK_TRIGGER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"

/** Runs per query (run_eval.py --runs-per-query). */
#define UPK_TRIGGER_RUNS 3
/** A query counts as triggering when its rate is at least this (--trigger-threshold). */
#define UPK_TRIGGER_THRESHOLD 0.5
/** Fraction of each class held out for testing (run_loop.py --holdout). */
#define UPK_TRIGGER_HOLDOUT 0.4
/** run_loop.py's split seed. */
#define UPK_TRIGGER_SEED 42
/** At most this many queries are read from an eval set. */
#define UPK_TRIGGER_MAX_QUERIES 1000
/** A query longer than this (bytes) is refused. */
#define UPK_TRIGGER_MAX_QUERY_BYTES 8192
/** A description's hard limit in characters (code points), Agent Skills spec. */
#define UPK_TRIGGER_MAX_DESCRIPTION 1024

typedef struct upk_trigger_query {
  char *query; /* non-empty, at most UPK_TRIGGER_MAX_QUERY_BYTES, unique in its set */
  bool should_trigger;
} upk_trigger_query;

typedef struct upk_trigger_set {
  upk_trigger_query *items; /* in the file's order */
  size_t n;
} upk_trigger_set;

/** Parse an eval set: skill-creator's list [{"query", "should_trigger"}, ...] or
 * {"queries": [...]}. Each item needs a non-blank string `query` of at most
 * UPK_TRIGGER_MAX_QUERY_BYTES and a boolean `should_trigger`; other keys are ignored. Bad items
 * are reported as diagnostics naming their index (`queries[3]: ...`) and left out; items past
 * UPK_TRIGGER_MAX_QUERIES are left out with one diagnostic. A query repeated with the same
 * should_trigger is left out with a warning (run_eval.py merges repeats into one result);
 * repeated with the other answer, it is an error. Returns 0 (warnings allowed), -EINVAL when
 * the JSON is unusable, the set is empty or some item was bad (the good ones are in *out),
 * -ENOMEM (*out empty). *out is always initialised; free it with upk_trigger_set_free. */
int upk_trigger_queries_parse(const char *text, size_t len, upk_trigger_set *out, upk_diags *diags);
/** upk_trigger_queries_parse on a file (16 MiB at most). Also -errno when it cannot be read
 * (diagnostic eval/unreadable). */
int upk_trigger_queries_read(const char *path, upk_trigger_set *out, upk_diags *diags);
/** Append a copy of a query. Returns 0, -EINVAL (blank, over the byte limit, not UTF-8, or
 * the set is full), -EEXIST (already in the set), -ENOMEM. */
int upk_trigger_set_add(upk_trigger_set *s, const char *query, bool should_trigger);
void upk_trigger_set_free(upk_trigger_set *s);

/** A stratified split into train and test (index arrays into s, malloc'd, ascending, freed
 * by the caller; never NULL on success, even when empty). With holdout 0 every query is for
 * training; otherwise each should_trigger class of n >= 1 queries gives max(1, floor(n * holdout))
 * to test, so a class of n >= 2 keeps at least one on each side and a class of one is tested only
 * (run_loop.py split_eval_set). Within a class the queries ranked first by a keyed hash of (seed,
 * query) are held out. Returns 0, -EINVAL (holdout outside [0, 1)), -ENOMEM. */
int upk_trigger_split(const upk_trigger_set *s, uint64_t seed, double holdout, size_t **train,
                      size_t *n_train, size_t **test, size_t *n_test);

/** What running one query gave: how many runs, and in how many the skill was loaded. */
typedef struct upk_trigger_outcome {
  unsigned runs;
  unsigned triggers; /* <= runs */
} upk_trigger_outcome;

/** triggers / runs; NaN when runs is 0 (not run). */
double upk_trigger_rate(upk_trigger_outcome o);
/** Whether a query passes: should_trigger ? rate >= threshold : rate < threshold (run_eval.py
 * run_eval). False when not run, or triggers > runs. */
bool upk_trigger_pass(bool should_trigger, upk_trigger_outcome o, double threshold);

/** A confusion matrix with its ratios. precision = TP / (TP + FP) and recall = TP / (TP + FN),
 * each 1.0 when its denominator is 0; accuracy = (TP + TN) / (TP + FP + FN + TN), 0.0 when
 * that is 0 (run_loop.py print_eval_stats defines the 0/0 cases so). */
typedef struct upk_trigger_counts {
  size_t tp, fp, fn, tn;
  double precision, recall, accuracy;
} upk_trigger_counts;

/** The scores of one description over a subset of the queries. */
typedef struct upk_trigger_score {
  size_t total;   /* queries run at least once */
  size_t passed;  /* = queries.tp + queries.tn */
  size_t failed;  /* total - passed */
  size_t not_run; /* queries of the subset with no run: in no other figure */
  /* Per query, "triggered" meaning rate >= threshold: TP passed should-trigger queries, FN
   * failed ones, FP failed should-not-trigger queries, TN passed ones. */
  upk_trigger_counts queries;
  /* Per run, as run_loop.py's --verbose line counts: TP = triggers of should-trigger
   * queries, FN = their other runs, FP = triggers of should-not-trigger queries, TN = their
   * other runs. */
  upk_trigger_counts runs;
} upk_trigger_score;

/** Score outcomes[] (one per query of s, same order) over the queries idx[0..n) (all of s
 * when idx is NULL). Returns 0, -EINVAL (an index out of range or repeated, triggers > runs,
 * threshold NaN; *out zeroed), -ENOMEM. */
int upk_trigger_tally(const upk_trigger_set *s, const upk_trigger_outcome *outcomes,
                      const size_t *idx, size_t n, double threshold, upk_trigger_score *out);

/** The best of k evaluated descriptions, as run_loop.py picks it: the most test passes when
 * test is not NULL (one score per candidate), else the most train passes; on a tie the
 * earlier candidate wins. Returns 0 with *best set, or -EINVAL (k == 0, train NULL). */
int upk_trigger_best(const upk_trigger_score *train, const upk_trigger_score *test, size_t k,
                     size_t *best);

/** One description evaluated over a set (all borrowed). */
typedef struct upk_trigger_eval {
  const char *skill_name; /* NULL: left out of the JSON; "" in the prompt */
  const char *description;
  const upk_trigger_set *set;
  const upk_trigger_outcome *outcomes; /* set->n, in the set's order */
  const size_t *train;                 /* indices into set (upk_trigger_split) */
  size_t n_train;
  const size_t *test; /* n_test 0: no test set */
  size_t n_test;
  double threshold;
} upk_trigger_eval;

/** An earlier attempt: a description and its outcomes over the same set (borrowed). */
typedef struct upk_trigger_attempt {
  const char *description;
  const upk_trigger_outcome *outcomes; /* set->n, in the set's order */
} upk_trigger_attempt;

/** The prompt asking a model for a better description, as improve_description.py writes it:
 * the skill's name, the current description with its train score, the TRAIN queries that
 * failed to trigger and those that triggered but should not (each with triggers/runs), every
 * attempt in history (oldest first; run_loop.py includes the current description, already
 * evaluated, as the last one) with its train score and train results (queries cut to 80
 * characters), the skill's content when given (skill_content: the SKILL.md, NULL to leave
 * out), the advice on generalising, the 1024-character limit and, added here from the Agent
 * Skills spec, that the description may not contain angle brackets. Test queries and test
 * scores never appear. malloc'd; NULL on ENOMEM or an invalid eval (as upk_trigger_tally). */
char *upk_trigger_improve_prompt(const upk_trigger_eval *cur, const char *skill_content,
                                 const upk_trigger_attempt *history, size_t n_history);
/** The follow-up improve_description.py sends when a proposed description is over the limit:
 * `prompt` (the improve prompt), the too-long description with its length, and a request to
 * rewrite it under 1024 characters. malloc'd; NULL on ENOMEM. */
char *upk_trigger_shorten_prompt(const char *prompt, const char *description);
/** Parse the model's reply: the text of the first <new_description>...</new_description>
 * (the whole reply when there is none), stripped of white space and surrounding '"' as
 * improve_description.py does (invalid UTF-8 bytes become '?'). Returns 0 with *description
 * malloc'd; -E2BIG when it is over UPK_TRIGGER_MAX_DESCRIPTION characters (code points, as
 * Python's len()): the case improve_description.py answers with upk_trigger_shorten_prompt;
 * -EINVAL when it is empty or contains '<' or '>'. On -E2BIG and -EINVAL why[] says what is
 * wrong, in quick_validate.py's words, and *description still holds the text (the caller
 * frees it). -ENOMEM: *description NULL. why may be NULL. */
int upk_trigger_parse_reply(const char *reply, char **description, char *why, size_t why_len);

/** The results as JSON, run_eval.py's output with the split added: {"skill_name"?,
 * "description", "trigger_threshold", "results": [{"query", "should_trigger",
 * "trigger_rate", "triggers", "runs", "pass", "split": "train" | "test"}] (train and test
 * queries in the set's order; queries not run are left out), "summary": {"total", "passed",
 * "failed"} (train and test together), run_loop.py's history figures "train_passed",
 * "train_failed", "train_total", "test_passed", "test_failed", "test_total" (null without a
 * test set), and "train" / "test" (null without one): {"total", "passed", "failed",
 * "not_run", "tp", "fp", "fn", "tn", "precision", "recall", "accuracy", "runs": {"tp", "fp",
 * "fn", "tn", "precision", "recall", "accuracy"}}}. New reference; NULL on ENOMEM or an
 * invalid eval (as upk_trigger_tally, a query both in train and test, n_train or n_test > 0
 * with no index array, or a description or name that is not UTF-8). */
json_t *upk_trigger_result_json(const upk_trigger_eval *ev);

/** A SKILL.md text with its frontmatter's `description` replaced (written as a JSON string,
 * which YAML reads as the same double-quoted scalar); the rest byte for byte. malloc'd; NULL
 * when `md` has no frontmatter with a top-level description, or on ENOMEM. */
char *upk_trigger_with_description(const char *md, const char *description);

#endif
