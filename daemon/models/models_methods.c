/* models/complete (MCP tool `complete`): one completion from any configured
 * provider. Params are checked on the loop; the configuration (YAML files)
 * is read and the model name resolved on the thread pool; the HTTP exchange
 * runs on the loop through curl's multi handle. Provider failures are
 * -32803 errors whose data says what kind they are (auth, unknown_model,
 * rate_limited, ...); only malformed params and unknown names are -32602. */
#include "daemon/models/models_methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config.h"
#include "daemon/core/jobs.h"
#include "daemon/models/models_service.h"
#include "common/log.h"
#include "daemon/core/tool_results.h"
#include "common/xalloc.h"

enum { MAX_TOKENS_MAX = 1000000, TIMEOUT_MAX_MS = 3600000 };

typedef struct complete_state {
  uv_work_t work;
  upk_job *job; /* NULL once the job is answered or cancelled */
  bool in_work;
  char *model_name, *system, *workspace;
  json_t *messages, *init_options;
  long max_tokens, timeout_ms;
  double temperature;
  upk_config cfg;
  upk_model model;
  int rc;
  char err[512];
  upk_completion *comp;
} complete_state;

static void state_free(complete_state *st) {
  free(st->model_name);
  free(st->system);
  free(st->workspace);
  json_decref(st->messages);
  json_decref(st->init_options);
  upk_config_free(&st->cfg);
  free(st);
}

static int bad(upk_job *job, const char *msg) {
  upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "%s", msg);
  return -1;
}

/* Params into `st`; answers -32602 and returns -1 when they are wrong. */
static int read_params(upk_job *job, json_t *params, complete_state *st) {
  json_t *messages = json_object_get(params, "messages"),
         *prompt = json_object_get(params, "prompt");
  json_t *max = json_object_get(params, "maxTokens"),
         *temp = json_object_get(params, "temperature");
  json_t *timeout = json_object_get(params, "timeoutMs");
  if (!messages == !prompt)
    return bad(job, "params: give exactly one of messages or prompt");
  if (messages && !json_array_size(messages))
    return bad(job, "params.messages: needs at least one message");
  st->messages = messages ? json_deep_copy(messages)
                          : json_pack("[{s:s,s:O}]", "role", "user", "content", prompt);
  st->model_name = upk_xstrdup(json_string_value(json_object_get(params, "model")));
  const char *system = json_string_value(json_object_get(params, "system"));
  st->system = system ? upk_xstrdup(system) : NULL;
  st->max_tokens = max ? (long)json_integer_value(max) : 0;
  st->temperature = temp ? json_number_value(temp) : -1;
  st->timeout_ms = timeout ? (long)json_integer_value(timeout) : 0;
  return 0;
}

/* Thread pool: files are read here, never on the loop. */
static void load(uv_work_t *w) {
  complete_state *st = w->data;
  st->rc = upk_config_load(&st->cfg, st->workspace, st->init_options, st->err, sizeof st->err);
  if (st->rc)
    return;
  char err[400];
  if (upk_model_resolve(&st->cfg, st->model_name, &st->model, err, sizeof err)) {
    snprintf(st->err, sizeof st->err, "params.model: %s", err);
    st->rc = 1; /* the client's mistake, not the configuration's */
  }
}

static json_t *tokens(long n) {
  return n >= 0 ? json_integer(n) : json_null();
}

static void on_retry(void *arg, int attempt, long delay_ms, const char *why) {
  complete_state *st = arg;
  char msg[1200];
  snprintf(msg, sizeof msg, "attempt %d of %d in %ld ms after: %s", attempt, st->cfg.max_attempts,
           delay_ms, why);
  upk_job_progress(st->job, attempt - 1, st->cfg.max_attempts, msg);
}

static void on_done(void *arg, const upk_completion_result *r) {
  complete_state *st = arg;
  upk_job *job = st->job;
  st->comp = NULL;
  st->job = NULL;
  if (r->error) {
    json_t *data =
        json_pack("{s:s,s:s,s:s,s:I,s:i,s:f,s:s?}", "kind", upk_merr_name(r->error), "provider",
                  st->model.provider->name, "model", st->model.name, "httpStatus",
                  (json_int_t)r->http_status, "attempts", r->attempts, "elapsedMs", r->elapsed_ms,
                  "requestId", r->request_id[0] ? r->request_id : NULL);
    upk_job_fail_data(job, UPK_RPC_REQUEST_FAILED, data, "%s", r->message);
  } else {
    const upk_answer *a = r->answer;
    json_t *res =
        json_pack("{s:s,s:s,s:s,s:{s:o,s:o},s:s?,s:i,s:f,s:s?,s:s?}", "text", a->text, "model",
                  st->model.name, "provider", st->model.provider->name, "usage", "inputTokens",
                  tokens(a->input_tokens), "outputTokens", tokens(a->output_tokens), "stopReason",
                  a->stop_reason, "attempts", r->attempts, "elapsedMs", r->elapsed_ms,
                  "responseModel", a->model, "requestId", r->request_id[0] ? r->request_id : NULL);
    upk_job_reply(job, res);
  }
  state_free(st);
}

static upk_retry_policy policy_of(const complete_state *st) {
  return (upk_retry_policy){
      .max_attempts = st->cfg.max_attempts,
      .backoff_ms = st->cfg.retry_backoff_ms,
      .timeout_ms = st->timeout_ms ? st->timeout_ms : st->cfg.request_timeout_ms,
      .connect_timeout_ms = st->cfg.connect_timeout_ms,
  };
}

static void loaded(uv_work_t *w, int status) {
  complete_state *st = w->data;
  st->in_work = false;
  upk_job *job = st->job;
  if (!job) { /* cancelled meanwhile */
    state_free(st);
    return;
  }
  upk_models *models = upk_models_get(job->server);
  upk_chat chat = {st->system, st->messages, st->max_tokens, st->temperature};
  upk_retry_policy pol = policy_of(st);
  char err[512];
  if (st->rc) {
    upk_job_fail_data(job, st->rc > 0 ? UPK_RPC_INVALID_PARAMS : UPK_RPC_REQUEST_FAILED,
                      json_pack("{s:s}", "kind", "config"), "%s", st->err);
  } else if (!models) {
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "cannot start the HTTP client");
  } else if (upk_complete(models, &st->model, &chat, &pol, on_done, on_retry, st, &st->comp, err,
                          sizeof err)) {
    upk_job_fail_data(job, UPK_RPC_REQUEST_FAILED,
                      json_pack("{s:s,s:s,s:s}", "kind", "config", "provider",
                                st->model.provider->name, "model", st->model.name),
                      "%s", err);
  } else {
    return; /* on_done answers */
  }
  state_free(st);
}

static void complete_cancel(upk_job *job) {
  complete_state *st = job->data;
  upk_job_fail(job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
  st->job = NULL;
  if (st->in_work) {
    uv_cancel((uv_req_t *)&st->work); /* if it already runs, `loaded` frees */
    return;
  }
  upk_completion_cancel(st->comp); /* curl_multi_remove_handle on the transfer */
  state_free(st);
}

static void complete_handler(upk_job *job, json_t *params) {
  complete_state *st = upk_xcalloc(1, sizeof *st);
  if (read_params(job, params, st)) {
    state_free(st);
    return;
  }
  upk_server *s = job->server;
  st->job = job;
  st->workspace = upk_session_workspace(s) ? upk_xstrdup(upk_session_workspace(s)) : NULL;
  st->init_options =
      upk_session_init_options(s) ? json_deep_copy(upk_session_init_options(s)) : NULL;
  st->work.data = st;
  st->in_work = true;
  upk_job_on_cancel(job, complete_cancel, st);
  int rc = uv_queue_work(upk_session_loop(s), &st->work, load, loaded);
  if (rc) {
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "cannot queue work: %s", uv_strerror(rc));
    state_free(st);
  }
}

static const upk_param message_fields[] = {
    {"role", UPK_T_STRING, 1, NULL, UPK_ONE_OF("user", "assistant")},
    {"content", UPK_T_STRING, 1, NULL},
    {0},
};

static const upk_param complete_params[] = {
    {"model", UPK_T_STRING, 1,
     "opus, sonnet, haiku (or an alias from the config), anthropic.<id>, openai.<id>, "
     "generic.<id>."},
    {"system", UPK_T_STRING, 0, "System prompt."},
    {"messages", UPK_T_ARRAY, 0, "The conversation, at least one message; or give prompt.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = message_fields)},
    {"prompt", UPK_T_STRING, 0, "A single user message (instead of messages)."},
    {"maxTokens", UPK_T_INTEGER, 0, "Most tokens to generate (Anthropic default 4096).",
     UPK_RANGE(1, MAX_TOKENS_MAX)},
    {"temperature", UPK_T_NUMBER, 0, "Sampling temperature.", UPK_RANGE(0, 2)},
    {"timeoutMs", UPK_T_INTEGER, 0,
     "Deadline for the whole completion, retries included (default: config, 120000).",
     UPK_RANGE(1, TIMEOUT_MAX_MS)},
    {0},
};

const upk_method upk_models_methods[] = {
    {"models/complete", "complete", "Complete with a model",
     "Call to ask a configured model (Anthropic, OpenAI or a compatible server) one prompt.",
     complete_params, complete_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_OPEN_WORLD | UPK_METHOD_NEEDS_MODEL,
     .result = upk_result_complete, .refusal = upk_refusal_complete},
};
const size_t upk_models_methods_count = sizeof upk_models_methods / sizeof *upk_models_methods;
