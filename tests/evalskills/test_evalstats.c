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
  cr_assert_eq(k->n, 3, "skipped is left out of the rate");
  cr_assert_eq(k->passed, 1);
  cr_assert_eq(k->errors, 2);
  cr_assert_eq(k->call_failures, 1);
  NEAR(k->pass_rate, 1.0 / 3);
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
