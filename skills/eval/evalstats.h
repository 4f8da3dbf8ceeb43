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

typedef struct upk_cond_stats {
  size_t trials; /* recorded */
  size_t n;      /* conclusive: passed + failed + errors */
  size_t passed, failed, errors, skipped, call_failures;
  double pass_rate, ci_lo, ci_hi;                 /* Wilson 95 %; NaN when n == 0 */
  size_t runs;                                    /* distinct runs with a conclusive trial */
  double run_rate_min, run_rate_max, run_rate_sd; /* over runs; sd NaN below 2 runs */
  double avg_assertions_passed, avg_assertions_total;
  double avg_input_tokens, avg_output_tokens; /* over trials with an answer */
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
 * "baseline": {...}|null, "lift", "liftCi": [lo, hi], "tokenSavings"}]}.
 * malloc'd; NULL on ENOMEM. */
char *upk_evalstats_json(const upk_evalstats *s);

/** Wilson score interval for k successes in n trials at z (UPK_Z95). n == 0
 * gives [0, 1] and -EDOM; k > n is -EINVAL. */
int upk_wilson(size_t k, size_t n, double z, double *lo, double *hi);
/** Newcombe's hybrid score interval (his method 10) for p1 - p2, from
 * Wilson intervals at z. Returns 0, -EDOM (an n is 0) or -EINVAL. */
int upk_newcombe_diff(size_t k1, size_t n1, size_t k2, size_t n2, double z, double *lo, double *hi);

#endif
