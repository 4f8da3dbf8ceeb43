/* daemon/eval/budget.c and the config's prices (models/config.c): what a call costs, when a limit
 * refuses the next call and why, and prices that are refused as data or lowered by a project. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "daemon/eval/budget.h"
#include "models/config.h"
#include "tests/unit/unit.h"

static json_t *prices(void) {
  return json_pack("{s:{s:f,s:f},s:{s:f,s:f,s:f}}", "anthropic.claude-x", "input", 3.0, "output",
                   15.0, "agent:codex", "input", 1.0, "output", 10.0, "cacheRead", 0.1);
}

UTest(budget, prices_per_model_and_agent) {
  json_t *p = prices();
  upk_price pr;
  cr_assert_eq(upk_budget_price(p, "anthropic.claude-x", &pr), 0);
  cr_assert_float_eq(pr.output, 15.0, 1e-12);
  cr_assert_lt(pr.cache_read, 0, "no cacheRead: reads are billed as input");
  cr_assert_eq(upk_budget_price(p, "agent:codex/gpt-5", &pr), 0,
               "agent:NAME/MODEL is agent:NAME's");
  cr_assert_eq(upk_budget_price(p, "openai.gpt-x", &pr), -ENOENT);
  cr_assert_eq(upk_budget_price(p, "agent:claude-code", &pr), -ENOENT);
  /* a million input and a million output tokens, 400k of the input read from a cache */
  cr_assert_float_eq(upk_budget_cost(&pr, 1000000, 1000000, 400000), 0.6 * 1 + 0.4 * 0.1 + 10,
                     1e-9);
  json_decref(p);
}

UTest(budget, calls_refused_once_a_limit_is_reached) {
  json_t *p = prices();
  upk_budget b = {.max_calls = 2, .prices = p};
  cr_assert(upk_budget_take(&b));
  cr_assert(upk_budget_take(&b));
  cr_assert_not(upk_budget_take(&b), "the third call started");
  cr_assert_str_eq(b.reason, "max-calls");
  cr_assert_eq(b.calls, 2);
  json_t *st = upk_budget_stopped_json(&b);
  cr_assert_str_eq(json_string_value(json_object_get(st, "reason")), "max-calls");
  cr_assert_eq(json_integer_value(json_object_get(st, "limit")), 2);
  json_decref(st);

  upk_budget c = {.max_cost_usd = 0.001, .prices = p};
  cr_assert(upk_budget_take(&c));
  cr_assert_not(upk_budget_exhausted(&c));
  upk_budget_charge(&c, "anthropic.claude-x", 100, 100, -1, -1); /* 0.0018 USD */
  cr_assert_float_eq(c.spent_usd, 0.0018, 1e-12);
  cr_assert(upk_budget_exhausted(&c));
  cr_assert_str_eq(c.reason, "max-cost-usd");
  cr_assert_not(upk_budget_take(&c));
  upk_budget_charge(&c, "agent:claude-code", 10, 10, -1, 0.25); /* its own figure wins */
  upk_budget_charge(&c, "openai.unpriced", 10, 10, -1, -1);
  cr_assert_float_eq(c.spent_usd, 0.2518, 1e-12);
  cr_assert_eq(c.unpriced, 1);
  cr_assert(upk_budget_take(NULL), "no budget, no limit");
  cr_assert_null(upk_budget_json(&(upk_budget){0}), "no limit given: nothing to say");
  json_decref(p);
}

static int apply(upk_config *c, const char *yaml, char *err, size_t len) {
  json_t *layer = upk_yaml_to_json(yaml, strlen(yaml), err, len);
  cr_assert_not_null(layer, "%s", err);
  int rc = upk_config_apply(c, layer, "config.yaml", err, len);
  json_decref(layer);
  return rc;
}

UTest(budget, config_prices_checked_and_merged) {
  upk_config c;
  char err[256];
  upk_config_defaults(&c);
  cr_assert_eq(apply(&c, "prices: {anthropic.claude-x: {input: 3, output: 15}}", err, sizeof err),
               0, "%s", err);
  cr_assert_eq(apply(&c, "prices: {anthropic.claude-x: {output: 20}}", err, sizeof err), 0);
  upk_price p;
  cr_assert_eq(upk_budget_price(c.prices, "anthropic.claude-x", &p), 0);
  cr_assert_float_eq(p.input, 3, 1e-12, "a later layer changes only the fields it gives");
  cr_assert_float_eq(p.output, 20, 1e-12);
  const char *bad[][2] = {
      {"prices: [1, 2]", "config.yaml: prices: expected a mapping of model"},
      {"prices: {m: 3}", "every model maps to {input, output, cacheRead}"},
      {"prices: {m: {input: -1}}", "a price is a number of USD per million tokens"},
      {"prices: {m: {inptu: 1}}", "a price has input, output and cacheRead only"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    cr_assert_eq(apply(&c, bad[i][0], err, sizeof err), -EINVAL, "%s accepted", bad[i][0]);
    cr_assert_not_null(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
  }
  upk_config_free(&c);
}
