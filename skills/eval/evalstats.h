/** Evaluation statistics: per model, with and without the skill.
 *
 * Every model x run x case x condition is one trial. A trial's verdict comes
 * from its assertions (assertion.h): PASS, FAIL, ERROR (a broken assertion,
 * or the model call failed: never a pass) or SKIPPED (could not be checked:
 * left out of the pass rate, counted apart, never a pass).
 *
 * Per model and condition: the pass rate over the conclusive trials with a
 * Wilson 95 % score interval, the spread of the per-run pass rates, average
 * assertions passed, average input and output tokens (over trials that got an
 * answer). Per model: lift = with-skill rate - baseline rate with Newcombe's
 * hybrid-score 95 % interval, and token savings = 1 - (average total tokens
 * with the skill / average total tokens at baseline), as upskill defines it.
 * Benchmark mode (many models, many runs) keeps the baseline: it is just more
 * trials. Figures that cannot be computed are NaN (JSON null).
 *
 * pass@k and pass^k, per case and condition, from the case's n conclusive
 * trials of which c passed: pass@k = 1 - C(n-c, k) / C(n, k), the unbiased
 * estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained on
 * Code", arXiv:2107.03374), the chance that at least one of k trials drawn
 * without replacement passes; pass^k = C(c, k) / C(n, k), tau-bench's
 * (Yao et al. 2024, arXiv:2406.12045) chance that all k pass. Per condition,
 * the mean over the cases that have at least k conclusive trials (a skipped
 * trial lowers its case's n; a case with n < k is left out of that k).
 */
#ifndef UPK_EVALSTATS_H
#define UPK_EVALSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/eval/assertion.h"

/** z for a two-sided 95 % interval. */
#define UPK_Z95 1.959963984540054

/** One trial, as the evaluator recorded it (strings borrowed). */
typedef struct upk_trial {
  const char *model;
  bool with_skill;
  unsigned run;    /* 0-based */
  size_t case_idx; /* index in the case list */
  upk_assert_status verdict;
  bool call_failed; /* the model gave no answer (provider error, timeout) */
  size_t assertions_passed, assertions_total;
  long input_tokens, output_tokens;
} upk_trial;

/** One case's trials in one condition (for pass@k). */
typedef struct upk_case_count {
  size_t case_idx;
  size_t trials;    /* recorded, skipped ones included */
  size_t n, passed; /* conclusive, and the passes among them */
} upk_case_count;

typedef struct upk_cond_stats {
  size_t trials; /* recorded */
  size_t n;      /* conclusive: passed + failed + errors */
  size_t passed, failed, errors, skipped, call_failures;
  double pass_rate, ci_lo, ci_hi;                 /* Wilson 95 %; NaN when n == 0 */
  size_t runs;                                    /* distinct runs with a conclusive trial */
  double run_rate_min, run_rate_max, run_rate_sd; /* over runs; sd NaN below 2 runs */
  double avg_assertions_passed, avg_assertions_total;
  double avg_input_tokens, avg_output_tokens; /* over trials with an answer */
  upk_case_count *cases;                      /* in order of first appearance; owned */
  size_t n_cases;
  size_t max_k; /* the most trials a case has (the runs): k goes 1 .. max_k */
} upk_cond_stats;

typedef struct upk_model_stats {
  char *model;
  upk_cond_stats skill, baseline;
  bool has_skill, has_baseline;
  double lift, lift_lo, lift_hi; /* NaN unless both conditions have conclusive trials */
  double token_savings;          /* NaN unless both have answers and baseline tokens > 0 */
} upk_model_stats;

typedef struct upk_evalstats {
  upk_model_stats *models; /* in order of first appearance */
  size_t n;
} upk_evalstats;

/** Aggregate trials. Returns 0, -EINVAL (a trial without a model), -ENOMEM. */
int upk_evalstats_compute(const upk_trial *t, size_t n, upk_evalstats *out);
void upk_evalstats_free(upk_evalstats *s);

/** The summary as JSON text (indent 2): {"models": [{"model", "skill": {...},
 * "baseline": {...}|null, "lift", "liftCi": [lo, hi], "tokenSavings"}]}. A condition
 * carries "passAtK" / "passHatK" (k = 1 .. max_k, null where no case has k conclusive
 * trials), "passAtKCases" (how many cases each k averages) and "perCase" [{"case"
 * (0-based), "trials", "n", "passed", "passAtK", "passHatK"}].
 * malloc'd; NULL on ENOMEM. */
char *upk_evalstats_json(const upk_evalstats *s);

/** pass@k of one case with n conclusive trials, c of them passes: 1 - C(n-c, k) / C(n, k),
 * as a product (numerically stable). NaN when k == 0, k > n or c > n. */
double upk_pass_at_k(size_t n, size_t c, size_t k);
/** pass^k of one case: C(c, k) / C(n, k), as a product. NaN as for upk_pass_at_k. */
double upk_pass_hat_k(size_t n, size_t c, size_t k);
/** The mean of pass@k (hat: pass^k) over the condition's cases with at least k conclusive
 * trials; *used (may be NULL) gets how many those are. NaN when there are none. */
double upk_cond_pass_k(const upk_cond_stats *s, size_t k, bool hat, size_t *used);

/** Wilson score interval for k successes in n trials at z (UPK_Z95). n == 0
 * gives [0, 1] and -EDOM; k > n is -EINVAL. */
int upk_wilson(size_t k, size_t n, double z, double *lo, double *hi);
/** Newcombe's hybrid score interval (his method 10) for p1 - p2, from
 * Wilson intervals at z. Returns 0, -EDOM (an n is 0) or -EINVAL. */
int upk_newcombe_diff(size_t k1, size_t n1, size_t k2, size_t n2, double z, double *lo, double *hi);

#endif
