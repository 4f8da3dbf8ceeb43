/** Cost limits (`maxCalls`, `maxCostUsd`) shared by every path that calls a model or runs an
 * agent: eval trials, grader calls, the teacher and test writer of skills/generate, trigger
 * optimisation. Each path asks upk_budget_take() before a call starts and charges what the call
 * used with upk_budget_charge() when it ends. Calls already in flight when a limit is reached
 * finish (and are charged); no new one starts. A NULL budget has no limits. Loop thread only.
 */
#ifndef UPK_BUDGET_H
#define UPK_BUDGET_H

#include <jansson.h>
#include <stdbool.h>

/** USD per million tokens. */
typedef struct upk_price {
  double input, output, cache_read; /* cache_read < 0: billed as input */
} upk_price;

typedef struct upk_budget {
  long max_calls;       /* 0: no limit */
  double max_cost_usd;  /* 0: no limit */
  const json_t *prices; /* the config's prices (borrowed): model -> {input, output, cacheRead} */
  long calls;           /* calls started */
  double spent_usd;     /* what the finished calls cost */
  long unpriced;        /* finished calls whose cost could not be known */
  const char *reason;   /* "max-calls" or "max-cost-usd" once a call was refused; else NULL */
} upk_budget;

/** The configured price of `model` (a canonical "provider.id", or an agent id "agent:NAME[/M]",
 * which falls back to "agent:NAME"). 0, or -ENOENT. */
int upk_budget_price(const json_t *prices, const char *model, upk_price *out);
/** May a new call start? Yes: counts it and returns true. No (a limit is reached): records why
 * and returns false. Always true for a NULL budget. */
bool upk_budget_take(upk_budget *b);
/** Whether a limit was reached (a call was refused, or the cost or calls reached the limit);
 * when it was, b->reason says which. False for a NULL budget. */
bool upk_budget_exhausted(upk_budget *b);
/** A finished call of `model`: its tokens (-1: unknown) and, for an agent, its own reported cost
 * (< 0: none, the price is used). `cache_read` is the part of `in` read from a cache (-1: none). */
void upk_budget_charge(upk_budget *b, const char *model, long in, long out, long cache_read,
                       double reported_usd);
/** The cost of `in` / `out` tokens at `p`, in USD. */
double upk_budget_cost(const upk_price *p, long in, long out, long cache_read);
/** {reason, limit, spent, calls} once a limit stopped something; NULL before. New reference. */
json_t *upk_budget_stopped_json(const upk_budget *b);
/** {maxCalls?, maxCostUsd?, calls, spentUsd, unpricedCalls} for a result; NULL when no limit
 * was set. New reference. */
json_t *upk_budget_json(const upk_budget *b);

#endif
