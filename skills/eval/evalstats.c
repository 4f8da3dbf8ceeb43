/* Evaluation statistics (see evalstats.h). */
#include "skills/eval/evalstats.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int upk_wilson(size_t k, size_t n, double z, double *lo, double *hi) {
  if (k > n)
    return -EINVAL;
  if (n == 0) {
    *lo = 0;
    *hi = 1;
    return -EDOM;
  }
  double nn = (double)n, p = (double)k / nn, z2 = z * z;
  double centre = p + z2 / (2 * nn);
  double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  double den = 1 + z2 / nn;
  /* At k == 0 and k == n the bound is exactly 0 or 1; rounding must not
   * leave it a hair off. */
  *lo = k == 0 ? 0 : (centre - half) / den;
  *hi = k == n ? 1 : (centre + half) / den;
  return 0;
}

int upk_newcombe_diff(size_t k1, size_t n1, size_t k2, size_t n2, double z, double *lo,
                      double *hi) {
  double l1, u1, l2, u2;
  int rc1 = upk_wilson(k1, n1, z, &l1, &u1), rc2 = upk_wilson(k2, n2, z, &l2, &u2);
  if (rc1 == -EINVAL || rc2 == -EINVAL)
    return -EINVAL;
  if (rc1 || rc2) {
    *lo = *hi = NAN;
    return -EDOM;
  }
  double p1 = (double)k1 / (double)n1, p2 = (double)k2 / (double)n2, d = p1 - p2;
  *lo = d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
  *hi = d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
  return 0;
}

/* ---- pass@k and pass^k ---------------------------------------------------- */

double upk_pass_at_k(size_t n, size_t c, size_t k) {
  if (k == 0 || k > n || c > n)
    return NAN;
  if (n - c < k)
    return 1.0; /* every draw of k holds a pass */
  /* C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i): Chen et al.'s numpy form,
   * with no factorial to overflow. */
  double miss = 1.0;
  for (size_t i = n - c + 1; i <= n; i++)
    miss *= 1.0 - (double)k / (double)i;
  return 1.0 - miss;
}

double upk_pass_hat_k(size_t n, size_t c, size_t k) {
  if (k == 0 || k > n || c > n)
    return NAN;
  if (c < k)
    return 0.0;
  /* C(c, k) / C(n, k) = prod_{i=0}^{k-1} (c-i)/(n-i) */
  double all = 1.0;
  for (size_t i = 0; i < k; i++)
    all *= (double)(c - i) / (double)(n - i);
  return all;
}

double upk_cond_pass_k(const upk_cond_stats *s, size_t k, bool hat, size_t *used) {
  double sum = 0;
  size_t m = 0;
  for (size_t i = 0; i < s->n_cases; i++) {
    const upk_case_count *c = &s->cases[i];
    if (k == 0 || c->n < k)
      continue; /* too few conclusive trials to draw k: left out, not counted as 0 */
    sum += hat ? upk_pass_hat_k(c->n, c->passed, k) : upk_pass_at_k(c->n, c->passed, k);
    m++;
  }
  if (used)
    *used = m;
  return m ? sum / (double)m : NAN;
}

/* ---- aggregation --------------------------------------------------------- */

typedef struct {
  unsigned run;
  size_t k, n;
} run_count;

/* Running sums for one model and condition. */
typedef struct {
  upk_cond_stats s;
  double assert_passed, assert_total, in_tok, out_tok;
  size_t answered;
  run_count *runs;
  size_t n_runs;
} acc;

static upk_case_count *case_of(acc *a, size_t idx) {
  upk_cond_stats *s = &a->s;
  for (size_t i = 0; i < s->n_cases; i++)
    if (s->cases[i].case_idx == idx)
      return &s->cases[i];
  s->cases = upk_xrealloc(s->cases, (s->n_cases + 1) * sizeof *s->cases);
  s->cases[s->n_cases] = (upk_case_count){.case_idx = idx};
  return &s->cases[s->n_cases++];
}

static int add_run(acc *a, unsigned run, bool passed) {
  size_t i = 0;
  while (i < a->n_runs && a->runs[i].run != run)
    i++;
  if (i == a->n_runs) {
    run_count *p = upk_xrealloc(a->runs, (a->n_runs + 1) * sizeof *p);
    a->runs = p;
    p[a->n_runs++] = (run_count){run, 0, 0};
  }
  a->runs[i].k += passed;
  a->runs[i].n++;
  return 0;
}

static int add_trial(acc *a, const upk_trial *t) {
  a->s.trials++;
  a->s.call_failures += t->call_failed;
  if (!t->call_failed) {
    a->answered++;
    a->in_tok += (double)t->input_tokens;
    a->out_tok += (double)t->output_tokens;
  }
  a->assert_passed += (double)t->assertions_passed;
  a->assert_total += (double)t->assertions_total;
  upk_assert_status v = t->verdict;
  upk_case_count *c = case_of(a, t->case_idx);
  c->trials++;
  a->s.max_k = c->trials > a->s.max_k ? c->trials : a->s.max_k;
  if (t->call_failed) /* no answer: an error with its reason (callFailures), not a failure */
    return 0;
  if (v == UPK_ASSERT_SKIPPED || v == UPK_ASSERT_PENDING) {
    a->s.skipped++; /* inconclusive: neither passed nor failed */
    return 0;
  }
  c->n++;
  c->passed += v == UPK_ASSERT_PASS;
  a->s.n++;
  a->s.passed += v == UPK_ASSERT_PASS;
  a->s.failed += v == UPK_ASSERT_FAIL;
  a->s.errors += v == UPK_ASSERT_ERROR;
  return add_run(a, t->run, v == UPK_ASSERT_PASS);
}

static void finish_runs(acc *a) {
  upk_cond_stats *s = &a->s;
  s->runs = a->n_runs;
  s->run_rate_min = s->run_rate_max = s->run_rate_sd = NAN;
  double sum = 0, sq = 0;
  for (size_t i = 0; i < a->n_runs; i++) {
    double r = (double)a->runs[i].k / (double)a->runs[i].n;
    s->run_rate_min = i == 0 || r < s->run_rate_min ? r : s->run_rate_min;
    s->run_rate_max = i == 0 || r > s->run_rate_max ? r : s->run_rate_max;
    sum += r;
    sq += r * r;
  }
  if (a->n_runs >= 2) {
    double m = sum / (double)a->n_runs;
    double var = (sq - (double)a->n_runs * m * m) / (double)(a->n_runs - 1);
    s->run_rate_sd = sqrt(var > 0 ? var : 0); /* sample sd; rounding can dip below 0 */
  }
  free(a->runs);
  a->runs = NULL;
}

static void finish(acc *a) {
  upk_cond_stats *s = &a->s;
  s->pass_rate = s->n ? (double)s->passed / (double)s->n : NAN;
  if (upk_wilson(s->passed, s->n, UPK_Z95, &s->ci_lo, &s->ci_hi) != 0)
    s->ci_lo = s->ci_hi = NAN;
  double trials = (double)s->trials;
  s->avg_assertions_passed = s->trials ? a->assert_passed / trials : NAN;
  s->avg_assertions_total = s->trials ? a->assert_total / trials : NAN;
  s->avg_input_tokens = a->answered ? a->in_tok / (double)a->answered : NAN;
  s->avg_output_tokens = a->answered ? a->out_tok / (double)a->answered : NAN;
  finish_runs(a);
}

static void compare(upk_model_stats *m) {
  m->lift = m->lift_lo = m->lift_hi = m->token_savings = NAN;
  const upk_cond_stats *s = &m->skill, *b = &m->baseline;
  if (m->has_skill && m->has_baseline && s->n && b->n) {
    m->lift = s->pass_rate - b->pass_rate;
    upk_newcombe_diff(s->passed, s->n, b->passed, b->n, UPK_Z95, &m->lift_lo, &m->lift_hi);
  }
  double st = s->avg_input_tokens + s->avg_output_tokens;
  double bt = b->avg_input_tokens + b->avg_output_tokens;
  if (m->has_skill && m->has_baseline && isfinite(st) && isfinite(bt) && bt > 0)
    m->token_savings = 1 - st / bt;
}

static size_t model_index(const upk_trial *t, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (strcmp(t[j].model, t[i].model) == 0)
      return j;
  return i;
}

/* One model: every trial of it, both conditions. */
static int compute_model(const upk_trial *t, size_t n, size_t first, upk_model_stats *m) {
  acc a[2]; /* [0] baseline, [1] with the skill */
  memset(a, 0, sizeof a);
  int rc = 0;
  for (size_t i = first; rc == 0 && i < n; i++)
    if (strcmp(t[i].model, t[first].model) == 0) {
      rc = add_trial(&a[t[i].with_skill], &t[i]);
      *(t[i].with_skill ? &m->has_skill : &m->has_baseline) = true;
    }
  finish(&a[0]);
  finish(&a[1]);
  m->baseline = a[0].s;
  m->skill = a[1].s;
  compare(m);
  return rc ? rc : (m->model = upk_xstrdup(t[first].model)) ? 0 : -ENOMEM;
}

int upk_evalstats_compute(const upk_trial *t, size_t n, upk_evalstats *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++)
    if (!t[i].model)
      return -EINVAL;
  out->models = upk_xcalloc(n + 1, sizeof *out->models);
  for (size_t i = 0; i < n; i++) {
    if (model_index(t, i) != i)
      continue;
    int rc = compute_model(t, n, i, &out->models[out->n++]);
    if (rc) {
      upk_evalstats_free(out);
      return rc;
    }
  }
  return 0;
}

void upk_evalstats_free(upk_evalstats *s) {
  for (size_t i = 0; i < s->n; i++) {
    free(s->models[i].model);
    free(s->models[i].skill.cases);
    free(s->models[i].baseline.cases);
  }
  free(s->models);
  memset(s, 0, sizeof *s);
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* [f(1) .. f(max_k)] of one case, or of the condition's mean (c NULL). */
static json_t *k_array(const upk_cond_stats *s, const upk_case_count *c, bool hat) {
  json_t *a = json_array();
  for (size_t k = 1; a && k <= s->max_k; k++) {
    double v = !c    ? upk_cond_pass_k(s, k, hat, NULL)
               : hat ? upk_pass_hat_k(c->n, c->passed, k)
                     : upk_pass_at_k(c->n, c->passed, k);
    if (json_array_append_new(a, num(v))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *k_cases(const upk_cond_stats *s) {
  json_t *a = json_array();
  for (size_t k = 1; a && k <= s->max_k; k++) {
    size_t used;
    upk_cond_pass_k(s, k, false, &used);
    if (json_array_append_new(a, json_integer((json_int_t)used))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *per_case(const upk_cond_stats *s) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < s->n_cases; i++) {
    const upk_case_count *c = &s->cases[i];
    json_t *o =
        json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "case", (json_int_t)c->case_idx, "trials",
                  (json_int_t)c->trials, "n", (json_int_t)c->n, "passed", (json_int_t)c->passed,
                  "passAtK", k_array(s, c, false), "passHatK", k_array(s, c, true));
    if (json_array_append_new(a, o)) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* pass@k, pass^k and the per-case figures, added to a condition's object. */
static json_t *with_pass_k(json_t *o, const upk_cond_stats *s) {
  if (o && (json_object_set_new(o, "passAtK", k_array(s, NULL, false)) ||
            json_object_set_new(o, "passHatK", k_array(s, NULL, true)) ||
            json_object_set_new(o, "passAtKCases", k_cases(s)) ||
            json_object_set_new(o, "perCase", per_case(s)))) {
    json_decref(o);
    return NULL;
  }
  return o;
}

static json_t *cond_json(const upk_cond_stats *s) {
  return with_pass_k(
      json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:[o,o], s:I, s:{s:o, s:o, s:o}, "
                "s:o, s:o, s:o, s:o}",
                "trials", (json_int_t)s->trials, "n", (json_int_t)s->n, "passed",
                (json_int_t)s->passed, "failed", (json_int_t)s->failed, "errors",
                (json_int_t)s->errors, "skipped", (json_int_t)s->skipped, "callFailures",
                (json_int_t)s->call_failures, "passRate", num(s->pass_rate), "passRateCi",
                num(s->ci_lo), num(s->ci_hi), "runs", (json_int_t)s->runs, "runPassRate", "min",
                num(s->run_rate_min), "max", num(s->run_rate_max), "sd", num(s->run_rate_sd),
                "avgAssertionsPassed", num(s->avg_assertions_passed), "avgAssertionsTotal",
                num(s->avg_assertions_total), "avgInputTokens", num(s->avg_input_tokens),
                "avgOutputTokens", num(s->avg_output_tokens)),
      s);
}

static json_t *model_json(const upk_model_stats *m) {
  return json_pack("{s:s, s:o, s:o, s:o, s:[o,o], s:o}", "model", m->model, "skill",
                   m->has_skill ? cond_json(&m->skill) : json_null(), "baseline",
                   m->has_baseline ? cond_json(&m->baseline) : json_null(), "lift", num(m->lift),
                   "liftCi", num(m->lift_lo), num(m->lift_hi), "tokenSavings",
                   num(m->token_savings));
}

char *upk_evalstats_json(const upk_evalstats *s) {
  json_t *models = json_array();
  for (size_t i = 0; models && i < s->n; i++)
    if (json_array_append_new(models, model_json(&s->models[i]))) {
      json_decref(models);
      return NULL;
    }
  json_t *root = models ? json_pack("{s:o}", "models", models) : NULL;
  char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
  json_decref(root);
  return text;
}
