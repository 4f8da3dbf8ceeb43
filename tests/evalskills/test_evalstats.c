/* Evaluation statistics: the Wilson interval against published values
 * (Newcombe 1998, Statistics in Medicine 17:857, table I and example), lift
 * with Newcombe's hybrid interval, token savings as upskill defines it, and
 * skipped / failed calls never counted as passes. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/evalstats.h"

#define NEAR(a, b) cr_assert_float_eq((a), (b), 5e-5, "%.6f != %.6f", (double)(a), (double)(b))

Test(wilson, published_values) {
  double lo, hi;
  cr_assert_eq(upk_wilson(81, 263, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.2553);
  NEAR(hi, 0.3662);
  cr_assert_eq(upk_wilson(15, 148, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.0624);
  NEAR(hi, 0.1605);
  cr_assert_eq(upk_wilson(8, 10, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.4902);
  NEAR(hi, 0.9433);
  cr_assert_eq(upk_wilson(1, 29, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.0061);
  NEAR(hi, 0.1718);
}

Test(wilson, edges) {
  double lo, hi;
  cr_assert_eq(upk_wilson(0, 10, UPK_Z95, &lo, &hi), 0);
  cr_assert_eq(lo, 0.0);
  NEAR(hi, 0.2775);
  cr_assert_eq(upk_wilson(10, 10, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.7225);
  cr_assert_eq(hi, 1.0, "exactly 1, not 0.9999999999999999");
  cr_assert_eq(upk_wilson(0, 0, UPK_Z95, &lo, &hi), -EDOM);
  cr_assert_eq(lo, 0.0);
  cr_assert_eq(hi, 1.0);
  cr_assert_eq(upk_wilson(3, 2, UPK_Z95, &lo, &hi), -EINVAL);
}

Test(wilson, newcombe_difference) {
  double lo, hi;
  cr_assert_eq(upk_newcombe_diff(56, 70, 48, 80, UPK_Z95, &lo, &hi), 0);
  NEAR(lo, 0.0524);
  NEAR(hi, 0.3339);
  cr_assert_eq(upk_newcombe_diff(9, 10, 3, 10, UPK_Z95, &lo, &hi), 0);
  cr_assert(lo > 0 && hi < 1 && lo < 0.6 && hi > 0.6);
  cr_assert_eq(upk_newcombe_diff(1, 0, 1, 1, UPK_Z95, &lo, &hi), -EINVAL);
  cr_assert_eq(upk_newcombe_diff(0, 0, 1, 1, UPK_Z95, &lo, &hi), -EDOM);
}

static upk_trial trial(const char *m, bool skill, unsigned run, size_t c, upk_assert_status v,
                       long in, long out) {
  return (upk_trial){.model = m,
                     .with_skill = skill,
                     .run = run,
                     .case_idx = c,
                     .verdict = v,
                     .assertions_passed = v == UPK_ASSERT_PASS ? 2 : 1,
                     .assertions_total = 2,
                     .input_tokens = in,
                     .output_tokens = out};
}

/* Benchmark: 2 models x 3 runs x 2 cases, with the skill and at baseline. */
Test(stats, benchmark_keeps_the_baseline) {
  upk_trial t[48];
  size_t n = 0;
  const char *models[] = {"sonnet", "generic.qwen3:4b"};
  for (int m = 0; m < 2; m++)
    for (unsigned r = 0; r < 3; r++)
      for (size_t c = 0; c < 2; c++) {
        /* sonnet: skill passes all but run 2 case 1; baseline passes case 0 only.
         * qwen: skill passes case 0; baseline nothing. */
        bool sp = m == 0 ? !(r == 2 && c == 1) : c == 0;
        bool bp = m == 0 ? c == 0 : false;
        t[n++] = trial(models[m], true, r, c, sp ? UPK_ASSERT_PASS : UPK_ASSERT_FAIL, 900, 100);
        t[n++] = trial(models[m], false, r, c, bp ? UPK_ASSERT_PASS : UPK_ASSERT_FAIL, 400, 600);
      }
  upk_evalstats s;
  cr_assert_eq(upk_evalstats_compute(t, n, &s), 0);
  cr_assert_eq(s.n, 2);
  const upk_model_stats *a = &s.models[0];
  cr_assert_str_eq(a->model, "sonnet");
  cr_assert(a->has_skill && a->has_baseline);
  cr_assert_eq(a->skill.n, 6);
  cr_assert_eq(a->skill.passed, 5);
  NEAR(a->skill.pass_rate, 5.0 / 6);
  double lo, hi;
  upk_wilson(5, 6, UPK_Z95, &lo, &hi);
  NEAR(a->skill.ci_lo, lo);
  NEAR(a->skill.ci_hi, hi);
  NEAR(a->baseline.pass_rate, 0.5);
  NEAR(a->lift, 5.0 / 6 - 0.5);
  upk_newcombe_diff(5, 6, 3, 6, UPK_Z95, &lo, &hi);
  NEAR(a->lift_lo, lo);
  NEAR(a->lift_hi, hi);
  NEAR(a->token_savings, 0.0); /* 1000 tokens either way */
  cr_assert_eq(a->skill.runs, 3);
  NEAR(a->skill.run_rate_min, 0.5);
  NEAR(a->skill.run_rate_max, 1.0);
  NEAR(a->skill.run_rate_sd, sqrt(1.0 / 12)); /* rates 1, 1, 0.5 */
  NEAR(a->skill.avg_assertions_passed, (5 * 2 + 1) / 6.0);
  const upk_model_stats *b = &s.models[1];
  NEAR(b->baseline.pass_rate, 0.0);
  NEAR(b->lift, 0.5);
  cr_assert(isnan(b->baseline.run_rate_sd) == false);
  NEAR(b->baseline.run_rate_sd, 0.0);
  upk_evalstats_free(&s);
}

Test(stats, skipped_and_failed_calls_are_never_passes) {
  upk_trial t[] = {
      trial("m", true, 0, 0, UPK_ASSERT_PASS, 100, 50),
      trial("m", true, 0, 1, UPK_ASSERT_SKIPPED, 100, 50),
      trial("m", true, 0, 2, UPK_ASSERT_ERROR, 100, 50),
      trial("m", true, 0, 3, UPK_ASSERT_PASS, 0, 0),
      trial("m", false, 0, 0, UPK_ASSERT_PASS, 300, 150),
  };
  t[3].call_failed = true; /* a PASS verdict on a failed call cannot stand */
  upk_evalstats s;
  cr_assert_eq(upk_evalstats_compute(t, 5, &s), 0);
  const upk_cond_stats *k = &s.models[0].skill;
  cr_assert_eq(k->trials, 4);
  cr_assert_eq(k->skipped, 1);
  cr_assert_eq(k->n, 2, "skipped and a failed call (no answer: an error) are left out of the rate");
  cr_assert_eq(k->passed, 1);
  cr_assert_eq(k->errors, 1);
  cr_assert_eq(k->call_failures, 1);
  NEAR(k->pass_rate, 1.0 / 2);
  NEAR(k->avg_input_tokens, 100.0); /* the failed call's zeros are not averaged in */
  NEAR(s.models[0].token_savings, 1 - 150.0 / 450.0);
  upk_evalstats_free(&s);
}

Test(stats, without_baseline_lift_is_null) {
  upk_trial t[] = {trial("m", true, 0, 0, UPK_ASSERT_PASS, 1, 1)};
  upk_evalstats s;
  cr_assert_eq(upk_evalstats_compute(t, 1, &s), 0);
  cr_assert(isnan(s.models[0].lift));
  cr_assert(isnan(s.models[0].token_savings));
  cr_assert(isnan(s.models[0].skill.run_rate_sd), "one run has no spread");
  char *text = upk_evalstats_json(&s);
  json_t *j = json_loads(text, 0, NULL);
  cr_assert_not_null(j, "%s", text);
  json_t *m = json_array_get(json_object_get(j, "models"), 0);
  cr_assert(json_is_null(json_object_get(m, "lift")));
  cr_assert(json_is_null(json_object_get(m, "baseline")));
  cr_assert_float_eq(json_real_value(json_object_get(json_object_get(m, "skill"), "passRate")), 1.0,
                     1e-9);
  cr_assert_eq(json_array_size(json_object_get(json_object_get(m, "skill"), "passRateCi")), 2);
  json_decref(j);
  free(text);
  upk_evalstats_free(&s);
  upk_trial bad = {.model = NULL};
  cr_assert_eq(upk_evalstats_compute(&bad, 1, &s), -EINVAL);
}

/* ---- pass@k and pass^k, against values worked by hand ---- */

Test(passk, hand_computed) {
  /* n=5, c=2: pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10; pass^2 = C(2,2)/C(5,2) = 1/10 */
  NEAR(upk_pass_at_k(5, 2, 2), 0.7);
  NEAR(upk_pass_hat_k(5, 2, 2), 0.1);
  /* k=1 is the plain rate either way */
  NEAR(upk_pass_at_k(5, 2, 1), 0.4);
  NEAR(upk_pass_hat_k(5, 2, 1), 0.4);
  /* n=5, c=2, k=3: 1 - C(3,3)/C(5,3) = 1 - 1/10; C(2,3) = 0 */
  NEAR(upk_pass_at_k(5, 2, 3), 0.9);
  cr_assert_eq(upk_pass_hat_k(5, 2, 3), 0.0);
  /* n=5, c=2, k=4: n - c < k, every draw holds a pass */
  cr_assert_eq(upk_pass_at_k(5, 2, 4), 1.0);
  /* n=5, c=3, k=2: 1 - C(2,2)/C(5,2) = 0.9; C(3,2)/C(5,2) = 0.3 */
  NEAR(upk_pass_at_k(5, 3, 2), 0.9);
  NEAR(upk_pass_hat_k(5, 3, 2), 0.3);
  /* n=10, c=4, k=3: 1 - C(6,3)/C(10,3) = 1 - 20/120; C(4,3)/C(10,3) = 4/120 */
  NEAR(upk_pass_at_k(10, 4, 3), 1 - 20.0 / 120);
  NEAR(upk_pass_hat_k(10, 4, 3), 4.0 / 120);
}

Test(passk, edges) {
  cr_assert_eq(upk_pass_at_k(5, 0, 3), 0.0, "c = 0: never");
  cr_assert_eq(upk_pass_hat_k(5, 0, 1), 0.0);
  cr_assert_eq(upk_pass_at_k(5, 5, 5), 1.0, "c = n: always");
  cr_assert_eq(upk_pass_hat_k(5, 5, 5), 1.0);
  cr_assert_eq(upk_pass_hat_k(5, 5, 2), 1.0);
  cr_assert(isnan(upk_pass_at_k(3, 1, 4)), "k > n is null");
  cr_assert(isnan(upk_pass_hat_k(3, 1, 4)));
  cr_assert(isnan(upk_pass_at_k(0, 0, 1)));
  cr_assert(isnan(upk_pass_at_k(3, 1, 0)), "k = 0 is no draw");
  cr_assert(isnan(upk_pass_hat_k(3, 4, 1)), "c > n is refused");
  /* large n: the product neither overflows nor loses the value */
  NEAR(upk_pass_at_k(1000, 1, 1), 0.001);
  NEAR(upk_pass_hat_k(1000, 999, 1), 0.999);
  /* C(500,10)/C(1000,10) = 0.0009331878021845 (exact integers, Python's math.comb) */
  cr_assert_float_eq(upk_pass_at_k(1000, 500, 10), 1 - 0.0009331878021845, 1e-12);
  cr_assert_float_eq(upk_pass_hat_k(1000, 500, 10), 0.0009331878021845, 1e-12);
}

/* 2 cases x 5 runs, with the skill: case 0 passes runs 0 and 3 (c=2), case 1 passes
 * all but run 4, which is skipped (n=4, c=4); baseline: case 0 never, case 1 once. */
static size_t five_runs(upk_trial *t) {
  size_t n = 0;
  for (unsigned r = 0; r < 5; r++) {
    t[n++] = trial("m", true, r, 0, r == 0 || r == 3 ? UPK_ASSERT_PASS : UPK_ASSERT_FAIL, 1, 1);
    t[n++] = trial("m", true, r, 1, r == 4 ? UPK_ASSERT_SKIPPED : UPK_ASSERT_PASS, 1, 1);
    t[n++] = trial("m", false, r, 0, UPK_ASSERT_FAIL, 1, 1);
    t[n++] = trial("m", false, r, 1, r == 2 ? UPK_ASSERT_PASS : UPK_ASSERT_ERROR, 1, 1);
  }
  return n;
}

Test(passk, per_condition_mean_over_cases) {
  upk_trial t[20];
  upk_evalstats s;
  cr_assert_eq(upk_evalstats_compute(t, five_runs(t), &s), 0);
  const upk_cond_stats *k = &s.models[0].skill, *b = &s.models[0].baseline;
  cr_assert_eq(k->max_k, 5, "k runs to the runs, skipped trials included");
  cr_assert_eq(k->n_cases, 2);
  cr_assert_eq(k->cases[1].n, 4, "the skipped trial lowers n");
  cr_assert_eq(k->cases[1].trials, 5);
  size_t used;
  /* k=1: (0.4 + 1) / 2; k=2: (0.7 + 1) / 2; pass^2: (0.1 + 1) / 2 */
  NEAR(upk_cond_pass_k(k, 1, false, &used), 0.7);
  cr_assert_eq(used, 2);
  NEAR(upk_cond_pass_k(k, 2, false, NULL), 0.85);
  NEAR(upk_cond_pass_k(k, 2, true, NULL), 0.55);
  /* k=5: case 1 has only 4 conclusive trials and is left out */
  NEAR(upk_cond_pass_k(k, 5, false, &used), 1.0);
  cr_assert_eq(used, 1);
  NEAR(upk_cond_pass_k(k, 5, true, NULL), 0.0);
  /* baseline: case 0 c=0, case 1 n=5 c=1 (errors are conclusive failures) */
  NEAR(upk_cond_pass_k(b, 2, false, NULL), (0 + 0.4) / 2);
  NEAR(upk_cond_pass_k(b, 2, true, NULL), 0.0);
  cr_assert(isnan(upk_cond_pass_k(b, 6, false, &used)), "no case has 6 trials");
  cr_assert_eq(used, 0);
  upk_evalstats_free(&s);
}

Test(passk, json_shape) {
  upk_trial t[20];
  upk_evalstats s;
  cr_assert_eq(upk_evalstats_compute(t, five_runs(t), &s), 0);
  char *text = upk_evalstats_json(&s);
  json_t *j = json_loads(text, 0, NULL);
  cr_assert_not_null(j, "%s", text);
  json_t *k = json_object_get(json_array_get(json_object_get(j, "models"), 0), "skill");
  json_t *at = json_object_get(k, "passAtK"), *hat = json_object_get(k, "passHatK");
  cr_assert_eq(json_array_size(at), 5);
  cr_assert_eq(json_array_size(hat), 5);
  NEAR(json_real_value(json_array_get(at, 1)), 0.85);
  NEAR(json_real_value(json_array_get(hat, 1)), 0.55);
  json_t *used = json_object_get(k, "passAtKCases");
  cr_assert_eq(json_integer_value(json_array_get(used, 3)), 2);
  cr_assert_eq(json_integer_value(json_array_get(used, 4)), 1);
  json_t *c1 = json_array_get(json_object_get(k, "perCase"), 1);
  cr_assert_eq(json_integer_value(json_object_get(c1, "case")), 1);
  cr_assert_eq(json_integer_value(json_object_get(c1, "n")), 4);
  cr_assert(json_is_null(json_array_get(json_object_get(c1, "passAtK"), 4)), "k > n is null");
  json_t *c0 = json_array_get(json_object_get(k, "perCase"), 0);
  NEAR(json_real_value(json_array_get(json_object_get(c0, "passAtK"), 1)), 0.7);
  NEAR(json_real_value(json_array_get(json_object_get(c0, "passHatK"), 1)), 0.1);
  json_t *b = json_object_get(json_array_get(json_object_get(j, "models"), 0), "baseline");
  NEAR(json_real_value(json_array_get(json_object_get(b, "passAtK"), 0)), 0.1);
  json_decref(j);
  free(text);
  upk_evalstats_free(&s);
}
