/** Model completions on the loop: one request to a provider, retried with
 * exponential backoff and jitter on 429, 5xx and connection errors (honouring
 * Retry-After), within an overall deadline and a bounded number of attempts.
 *
 * The layer the skill generator and evaluator sit on, and what
 * `models/complete` exposes. Loop thread only.
 */
#ifndef UPK_MODELS_H
#define UPK_MODELS_H

#include <uv.h>

#include "models/http.h"
#include "models/providers.h"

typedef struct upk_models upk_models;
typedef struct upk_completion upk_completion;

/** How hard to try. Zero fields take the defaults in brackets. */
typedef struct upk_retry_policy {
  int max_attempts;        /* tries in all [4] */
  long backoff_ms;         /* delay before the first retry, doubled each time, then jittered
                              to 50-100 % of it [500]; never more than 30 s */
  long timeout_ms;         /* the whole completion, retries and waits included [120000] */
  long connect_timeout_ms; /* [10000] */
} upk_retry_policy;

/** How a completion ended. Everything is borrowed for the callback's duration. */
typedef struct upk_completion_result {
  upk_merr error;           /* UPK_MERR_NONE on success */
  const char *message;      /* "" on success; keys redacted */
  long http_status;         /* of the last attempt; 0 when none was read */
  const upk_answer *answer; /* on success */
  int attempts;
  double elapsed_ms;
  const char *request_id; /* the provider's id for the last attempt; "" if none */
} upk_completion_result;

typedef void (*upk_completion_cb)(void *arg, const upk_completion_result *r);
/** Told before each retry: attempt number about to start, the wait, and why. */
typedef void (*upk_retry_cb)(void *arg, int attempt, long delay_ms, const char *why);

/** A completion service on `loop` (its own HTTP client and connection cache). */
int upk_models_new(uv_loop_t *loop, upk_models **out);
/** Abandon every completion in flight (callbacks not called) and free. NULL is fine. */
void upk_models_free(upk_models *m);

/** Start a completion; `cb` runs exactly once unless cancelled, from the loop, never from
 * inside this call. `on_retry` may be NULL. Returns 0 or a negative errno, with a
 * message in `err` (no key, no URL, bad messages). */
int upk_complete(upk_models *m, const upk_model *model, const upk_chat *chat,
                 const upk_retry_policy *policy, upk_completion_cb cb, upk_retry_cb on_retry,
                 void *arg, upk_completion **out, char *err, size_t errlen);
/** Stop a completion: its HTTP transfer is removed, its callback not called. */
void upk_completion_cancel(upk_completion *c);

/** Completions in flight. */
size_t upk_models_inflight(const upk_models *m);
/** The HTTP client underneath (for figures such as connections opened). */
upk_http *upk_models_http(const upk_models *m);

#endif
