/* Cost limits (budget.h): one count of calls and one sum of dollars per request. */
#include "daemon/eval/budget.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *key, double def) {
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : def;
}

int upk_budget_price(const json_t *prices, const char *model, upk_price *out) {
  const json_t *p = json_object_get(prices, model);
  const char *slash = !p && !strncmp(model, "agent:", 6) ? strchr(model, '/') : NULL;
  if (slash) { /* agent:NAME/MODEL priced as agent:NAME */
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(slash - model), model);
    p = json_object_get(prices, name);
  }
  if (!json_is_object(p))
    return -ENOENT;
  *out = (upk_price){num(p, "input", 0), num(p, "output", 0), num(p, "cacheRead", -1)};
  return 0;
}

bool upk_budget_exhausted(upk_budget *b) {
  if (!b)
    return false;
  if (!b->reason && b->max_cost_usd > 0 && b->spent_usd >= b->max_cost_usd)
    b->reason = "max-cost-usd";
  else if (!b->reason && b->max_calls > 0 && b->calls >= b->max_calls)
    b->reason = "max-calls";
  return b->reason != NULL;
}

bool upk_budget_take(upk_budget *b) {
  if (!b)
    return true;
  if (upk_budget_exhausted(b))
    return false;
  b->calls++;
  return true;
}

double upk_budget_cost(const upk_price *p, long in, long out, long cache_read) {
  double cached = cache_read > 0 && p->cache_read >= 0 ? (double)cache_read : 0;
  double fresh = in > 0 ? (double)in - cached : 0;
  return (fresh * p->input + cached * (p->cache_read >= 0 ? p->cache_read : p->input) +
          (out > 0 ? (double)out : 0) * p->output) /
         1e6;
}

void upk_budget_charge(upk_budget *b, const char *model, long in, long out, long cache_read,
                       double reported_usd) {
  upk_price p;
  if (!b)
    return;
  if (reported_usd >= 0)
    b->spent_usd += reported_usd; /* the agent's own figure (Claude Code's total_cost_usd) */
  else if (upk_budget_price(b->prices, model, &p) == 0 && (in >= 0 || out >= 0))
    b->spent_usd += upk_budget_cost(&p, in, out, cache_read);
  else
    b->unpriced++;
}

json_t *upk_budget_stopped_json(const upk_budget *b) {
  if (!b || !b->reason)
    return NULL;
  bool cost = !strcmp(b->reason, "max-cost-usd");
  return json_pack("{s:s,s:o,s:f,s:I}", "reason", b->reason, "limit",
                   cost ? json_real(b->max_cost_usd) : json_integer(b->max_calls), "spent",
                   b->spent_usd, "calls", (json_int_t)b->calls);
}

json_t *upk_budget_json(const upk_budget *b) {
  if (!b || (b->max_calls <= 0 && b->max_cost_usd <= 0))
    return NULL;
  json_t *o = json_pack("{s:I,s:f,s:I}", "calls", (json_int_t)b->calls, "spentUsd", b->spent_usd,
                        "unpricedCalls", (json_int_t)b->unpriced);
  if (o && b->max_calls > 0)
    json_object_set_new(o, "maxCalls", json_integer(b->max_calls));
  if (o && b->max_cost_usd > 0)
    json_object_set_new(o, "maxCostUsd", json_real(b->max_cost_usd));
  return o;
}
