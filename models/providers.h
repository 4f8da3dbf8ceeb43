/** Model providers' wire formats: the Anthropic Messages API, OpenAI Chat
 * Completions, and OpenAI-compatible servers (llama.cpp, Ollama, vLLM, LM
 * Studio) by base URL.
 *
 * Pure functions: resolve a model name, build the exact request (URL,
 * headers, body), read the answer or classify the error, redact keys. No I/O
 * beyond getenv; models.h puts them on the wire. Any thread.
 */
#ifndef UPK_PROVIDERS_H
#define UPK_PROVIDERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "models/config.h"

typedef enum { UPK_API_ANTHROPIC, UPK_API_OPENAI } upk_api;

/** A resolved model. */
typedef struct upk_model {
  const upk_provider_def *provider; /* anthropic, openai or generic */
  upk_api api;                      /* the wire format it speaks */
  bool generic;                     /* an OpenAI-compatible server (max_tokens, optional key) */
  char id[256];                     /* the provider's model id */
  char effort[16];                  /* OpenAI reasoning effort ("openai.o3-mini.low"); "" if none */
  char name[300];                   /* canonical "provider.id" */
} upk_model;

/** Resolve a model name as upskill users write it: an alias from the config
 * (`opus`, `sonnet`, `haiku`, or any in model_aliases), `anthropic.<id>`,
 * `openai.<id>[.low|.medium|.high]`, `generic.<id>`, or a bare `claude-*` /
 * `gpt-*` / `o1*` / `o3*` / `o4*` id. Returns 0, or -EINVAL with a message. */
int upk_model_resolve(const upk_config *c, const char *name, upk_model *out, char *err,
                      size_t errlen);

/** One completion request. `messages` is an array of {role: user|assistant,
 * content: string}. */
typedef struct upk_chat {
  const char *system; /* NULL: none */
  const json_t *messages;
  long max_tokens;    /* <= 0: 4096 for Anthropic (required there), omitted for OpenAI */
  double temperature; /* < 0: the provider's default */
} upk_chat;

/** A request ready for the wire. */
typedef struct upk_wire {
  char *url;
  char *headers[6]; /* "Name: value", NULL-terminated; one may hold the API key */
  char *body;
  size_t body_len;
  const char *key; /* the API key in use (borrowed from the environment), for redaction */
} upk_wire;

/** Build the request: Anthropic: POST {base}/v1/messages with x-api-key and
 * anthropic-version; OpenAI and generic: POST {base}/chat/completions with
 * Authorization: Bearer (generic: only when GENERIC_API_KEY is set). A missing
 * key or base URL is -ENOKEY / -EDESTADDRREQ with a message naming the
 * variable to set. */
int upk_provider_request(const upk_model *m, const upk_chat *chat, upk_wire *out, char *err,
                         size_t errlen);
void upk_wire_free(upk_wire *w);

/** A provider's answer. Token counts are -1 when the server reported none. */
typedef struct upk_answer {
  char *text;
  char *stop_reason;     /* normalised: end_turn, max_tokens, stop_sequence, tool_use,
                            content_filter, or the provider's word */
  char *raw_stop_reason; /* as the provider said it */
  char *model;           /* the model id the server says answered */
  long input_tokens;     /* Anthropic: input + cache creation + cache read */
  long output_tokens;
} upk_answer;

void upk_answer_free(upk_answer *a);

/** What went wrong, for callers that decide on retries and for clients. */
typedef enum {
  UPK_MERR_NONE = 0,
  UPK_MERR_AUTH,          /* 401 */
  UPK_MERR_PERMISSION,    /* 403 */
  UPK_MERR_UNKNOWN_MODEL, /* 404, or model_not_found / not_found_error */
  UPK_MERR_RATE_LIMITED,  /* 429: retryable */
  UPK_MERR_SERVER,        /* 5xx, 529 overloaded, 408: retryable */
  UPK_MERR_BAD_REQUEST,   /* other 4xx */
  UPK_MERR_MALFORMED,     /* a 2xx body that is not the expected JSON (or is cut short) */
  UPK_MERR_TIMEOUT,
  UPK_MERR_CONNECTION, /* refused, reset, truncated transfer: retryable */
  UPK_MERR_CONFIG,     /* no key, no URL, unknown name */
  UPK_MERR_CANCELLED,
} upk_merr;

/** A stable name for an error kind ("auth", "unknown_model", ...). */
const char *upk_merr_name(upk_merr e);
/** Whether a retry may help. */
bool upk_merr_retryable(upk_merr e);

/** Read a response with HTTP status `code`: 0 and `out` filled for a good 2xx
 * answer, else the error kind with a message in `err` (the provider's own
 * message quoted, keys redacted). */
upk_merr upk_provider_parse(const upk_model *m, long code, const char *body, size_t len,
                            upk_answer *out, char *err, size_t errlen);

/** `s` with every occurrence of `key` and anything shaped like an API key
 * (sk-..., sk-ant-..., Bearer ...) replaced by "[redacted]"; malloc'd. */
char *upk_redact(const char *s, const char *key);

#endif
