/* Provider wire formats. The request bodies follow the providers' API
 * references (Anthropic Messages, anthropic-version 2023-06-01; OpenAI Chat
 * Completions); error bodies are read in all three shapes seen in the wild:
 * Anthropic's {type:error, error:{type,message}}, OpenAI's {error:{message,
 * type,code}}, and the bare {error:"..."} of Ollama and llama.cpp. */
#include "models/providers.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/diag.h"
#include "common/dynbuf.h"
#include "common/xalloc.h"

enum { ALIAS_HOPS = 4, DEFAULT_ANTHROPIC_MAX_TOKENS = 4096, QUOTE_MAX = 300 };

/* ---- names ---------------------------------------------------------------------------- */

static bool has_prefix(const char *s, const char *p) {
  return !strncmp(s, p, strlen(p));
}

static bool valid_id(const char *id) {
  if (!*id)
    return false;
  for (const unsigned char *p = (const unsigned char *)id; *p; p++)
    if (*p <= ' ' || *p == 0x7f)
      return false;
  return true;
}

/* "o3-mini.low" -> id "o3-mini", effort "low" (fast-agent's spelling). */
static void split_effort(upk_model *m) {
  static const char *const efforts[] = {"minimal", "low", "medium", "high", NULL};
  char *dot = strrchr(m->id, '.');
  if (!dot)
    return;
  for (const char *const *e = efforts; *e; e++)
    if (!strcmp(dot + 1, *e)) {
      snprintf(m->effort, sizeof m->effort, "%s", *e);
      *dot = 0;
      return;
    }
}

static int set_model(upk_model *m, const char *provider, const char *id, char *err, size_t errlen) {
  m->provider = upk_provider_find(provider);
  m->generic = !strcmp(provider, "generic");
  m->api = !strcmp(provider, "anthropic") ? UPK_API_ANTHROPIC : UPK_API_OPENAI;
  if (strlen(id) >= sizeof m->id || !valid_id(id)) {
    snprintf(err, errlen, "model id '%.100s' for %s: empty, too long or has spaces", id, provider);
    return -EINVAL;
  }
  snprintf(m->id, sizeof m->id, "%s", id);
  if (!strcmp(provider, "openai"))
    split_effort(m);
  snprintf(m->name, sizeof m->name, "%s.%s", provider, m->id);
  return 0;
}

int upk_model_resolve(const upk_config *c, const char *name, upk_model *out, char *err,
                      size_t errlen) {
  memset(out, 0, sizeof *out);
  const char *n = name, *a;
  for (int hop = 0; hop < ALIAS_HOPS && c && (a = upk_config_alias(c, n)); hop++)
    n = a;
  static const char *const providers[] = {"anthropic", "openai", "generic"};
  for (size_t i = 0; i < 3; i++) {
    size_t pl = strlen(providers[i]);
    if (!strncmp(n, providers[i], pl) && n[pl] == '.')
      return set_model(out, providers[i], n + pl + 1, err, errlen);
  }
  if (has_prefix(n, "claude-"))
    return set_model(out, "anthropic", n, err, errlen);
  if (has_prefix(n, "gpt-") || has_prefix(n, "o1") || has_prefix(n, "o3") || has_prefix(n, "o4") ||
      has_prefix(n, "chatgpt-"))
    return set_model(out, "openai", n, err, errlen);
  snprintf(err, errlen,
           "unknown model name '%.100s': use an alias (opus, sonnet, haiku, or one from "
           "model_aliases), anthropic.<id>, openai.<id> or generic.<id>",
           name);
  return -EINVAL;
}

/* ---- requests ------------------------------------------------------------------------- */

void upk_wire_free(upk_wire *w) {
  free(w->url);
  for (size_t i = 0; i < sizeof w->headers / sizeof *w->headers; i++)
    free(w->headers[i]);
  free(w->body);
  memset(w, 0, sizeof *w);
}

static char *join_url(const char *base, const char *path) {
  size_t bl = strlen(base);
  while (bl && base[bl - 1] == '/')
    bl--;
  return upk_xasprintf("%.*s%s", (int)bl, base, path);
}

static json_t *copy_messages(const json_t *in, bool openai, const char *system, char *err,
                             size_t errlen) {
  json_t *out = json_array(), *msg;
  size_t i;
  if (openai && system)
    json_array_append_new(out, json_pack("{s:s,s:s}", "role", "system", "content", system));
  json_array_foreach((json_t *)in, i, msg) {
    const char *role = json_string_value(json_object_get(msg, "role"));
    json_t *content = json_object_get(msg, "content");
    if (!role || (strcmp(role, "user") && strcmp(role, "assistant")) || !json_is_string(content)) {
      snprintf(err, errlen, "messages[%zu]: needs role user or assistant and a string content", i);
      json_decref(out);
      return NULL;
    }
    json_array_append_new(out, json_pack("{s:s,s:O}", "role", role, "content", content));
  }
  return out;
}

static json_t *request_body(const upk_model *m, const upk_chat *chat, char *err, size_t errlen) {
  bool openai = m->api == UPK_API_OPENAI;
  json_t *msgs = copy_messages(chat->messages, openai, chat->system, err, errlen);
  if (!msgs)
    return NULL;
  json_t *b = json_pack("{s:s,s:o}", "model", m->id, "messages", msgs);
  if (!openai) {
    json_object_set_new(
        b, "max_tokens",
        json_integer(chat->max_tokens > 0 ? chat->max_tokens : DEFAULT_ANTHROPIC_MAX_TOKENS));
    if (chat->system)
      json_object_set_new(b, "system", json_string(chat->system));
  } else if (chat->max_tokens > 0) {
    /* OpenAI's newer models refuse max_tokens; compatible servers only know it. */
    json_object_set_new(b, m->generic ? "max_tokens" : "max_completion_tokens",
                        json_integer(chat->max_tokens));
  }
  if (chat->temperature >= 0)
    json_object_set_new(b, "temperature", json_real(chat->temperature));
  if (m->effort[0])
    json_object_set_new(b, "reasoning_effort", json_string(m->effort));
  return b;
}

static int request_target(const upk_model *m, upk_wire *w, char *err, size_t errlen) {
  const upk_provider_def *p = m->provider;
  const char *base = upk_provider_url(p);
  w->key = upk_provider_key(p);
  if (!base) {
    snprintf(err, errlen, "%s: no server configured: set %s (e.g. http://localhost:11434/v1)",
             m->name, p->url_env);
    return -EDESTADDRREQ;
  }
  if (!w->key && !m->generic) {
    snprintf(err, errlen,
             "%s: no API key: set %s, or use another model: ANTHROPIC_API_KEY or OPENAI_API_KEY, "
             "GENERIC_BASE_URL for a local OpenAI-compatible server, or an agent CLI you are "
             "logged in to (agent:claude-code, agent:codex)",
             m->name, p->key_env);
    return -ENOKEY;
  }
  const char *path = "/chat/completions";
  if (m->api == UPK_API_ANTHROPIC) {
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/')
      bl--;
    path = bl >= 3 && !strncmp(base + bl - 3, "/v1", 3) ? "/messages" : "/v1/messages";
  }
  w->url = join_url(base, path);
  return w->url ? 0 : -ENOMEM;
}

static int request_headers(const upk_model *m, upk_wire *w) {
  int n = 0;
  w->headers[n++] = upk_xstrdup("Content-Type: application/json");
  w->headers[n++] = upk_xstrdup("Accept: application/json");
  if (m->api == UPK_API_ANTHROPIC) {
    w->headers[n++] = upk_xstrdup("anthropic-version: 2023-06-01");
    w->headers[n++] = upk_xasprintf("x-api-key: %s", w->key);
  } else if (w->key) {
    w->headers[n++] = upk_xasprintf("Authorization: Bearer %s", w->key);
  }
  return 0;
}

int upk_provider_request(const upk_model *m, const upk_chat *chat, upk_wire *out, char *err,
                         size_t errlen) {
  memset(out, 0, sizeof *out);
  int rc = request_target(m, out, err, errlen);
  if (!rc)
    rc = request_headers(m, out);
  json_t *body = rc ? NULL : request_body(m, chat, err, errlen);
  if (!rc && !body)
    rc = -EINVAL;
  if (body) {
    out->body = json_dumps(body, JSON_COMPACT);
    out->body_len = out->body ? strlen(out->body) : 0;
    rc = out->body ? 0 : -ENOMEM;
    json_decref(body);
  }
  if (rc == -ENOMEM)
    snprintf(err, errlen, "out of memory");
  if (rc)
    upk_wire_free(out);
  return rc;
}

/* ---- answers -------------------------------------------------------------------------- */

void upk_answer_free(upk_answer *a) {
  free(a->text);
  free(a->stop_reason);
  free(a->raw_stop_reason);
  free(a->model);
  memset(a, 0, sizeof *a);
}

static const char *const merr_names[] = {
    "none",        "auth",      "permission", "unknown_model", "rate_limited", "server",
    "bad_request", "malformed", "timeout",    "connection",    "config",       "cancelled",
};

const char *upk_merr_name(upk_merr e) {
  return (size_t)e < sizeof merr_names / sizeof *merr_names ? merr_names[e] : "unknown";
}

bool upk_merr_retryable(upk_merr e) {
  return e == UPK_MERR_RATE_LIMITED || e == UPK_MERR_SERVER || e == UPK_MERR_CONNECTION;
}

static long usage_of(const json_t *usage, const char *key) {
  json_t *v = json_object_get(usage, key);
  return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

static const char *normal_stop(const char *raw) {
  static const char *const map[][2] = {{"stop", "end_turn"},
                                       {"length", "max_tokens"},
                                       {"tool_calls", "tool_use"},
                                       {"function_call", "tool_use"},
                                       {"content_filter", "content_filter"}};
  for (size_t i = 0; raw && i < sizeof map / sizeof *map; i++)
    if (!strcmp(raw, map[i][0]))
      return map[i][1];
  return raw;
}

static char *dup_or_null(const char *s) {
  return s ? upk_xstrdup(s) : NULL;
}

static int read_anthropic(json_t *doc, upk_answer *a, char *err, size_t errlen) {
  json_t *content = json_object_get(doc, "content"), *block;
  size_t i;
  if (!json_is_array(content)) {
    snprintf(err, errlen, "the answer has no content array");
    return -1;
  }
  upk_buf text = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&text, "");
  json_array_foreach(content, i, block) {
    json_t *t = json_object_get(block, "text");
    if (json_is_string(t) &&
        !strcmp(json_string_value(json_object_get(block, "type")) ?: "", "text"))
      upk_buf_puts(&text, json_string_value(t));
  }
  a->text = upk_buf_take(&text, NULL);
  json_t *usage = json_object_get(doc, "usage");
  a->input_tokens = usage_of(usage, "input_tokens");
  long cached = usage_of(usage, "cache_creation_input_tokens"),
       read = usage_of(usage, "cache_read_input_tokens");
  if (a->input_tokens >= 0)
    a->input_tokens += (cached > 0 ? cached : 0) + (read > 0 ? read : 0);
  a->output_tokens = usage_of(usage, "output_tokens");
  a->raw_stop_reason = dup_or_null(json_string_value(json_object_get(doc, "stop_reason")));
  return 0;
}

static int read_openai(json_t *doc, upk_answer *a, char *err, size_t errlen) {
  json_t *choice = json_array_get(json_object_get(doc, "choices"), 0);
  json_t *msg = json_object_get(choice, "message");
  if (!json_is_object(msg)) {
    snprintf(err, errlen, "the answer has no choices[0].message");
    return -1;
  }
  const char *text = json_string_value(json_object_get(msg, "content"));
  if (!text) /* a refusal comes instead of content */
    text = json_string_value(json_object_get(msg, "refusal"));
  a->text = upk_xstrdup(text ? text : "");
  json_t *usage = json_object_get(doc, "usage");
  a->input_tokens = usage_of(usage, "prompt_tokens");
  a->output_tokens = usage_of(usage, "completion_tokens");
  a->raw_stop_reason = dup_or_null(json_string_value(json_object_get(choice, "finish_reason")));
  return 0;
}

static upk_merr parse_ok(const upk_model *m, const char *body, size_t len, upk_answer *a, char *err,
                         size_t errlen) {
  json_error_t je;
  json_t *doc = json_loadb(body, len, 0, &je);
  if (!doc || !json_is_object(doc)) {
    bool cut = doc == NULL && (size_t)je.position >= len;
    snprintf(err, errlen, "%s: %s response body (%zu bytes) from %s: %s", m->name,
             cut ? "truncated" : "malformed", len, m->provider->name,
             doc ? "not a JSON object" : je.text);
    json_decref(doc);
    return UPK_MERR_MALFORMED;
  }
  char why[160];
  int rc = m->api == UPK_API_ANTHROPIC ? read_anthropic(doc, a, why, sizeof why)
                                       : read_openai(doc, a, why, sizeof why);
  if (!rc) {
    a->model = dup_or_null(json_string_value(json_object_get(doc, "model")));
    a->stop_reason = dup_or_null(normal_stop(a->raw_stop_reason));
  }
  json_decref(doc);
  if (rc || !a->text) {
    upk_answer_free(a);
    snprintf(err, errlen, "%s: malformed response from %s: %s", m->name, m->provider->name,
             rc ? why : "out of memory");
    return UPK_MERR_MALFORMED;
  }
  return UPK_MERR_NONE;
}

/* The provider's own words from an error body, or the start of the body. */
static void error_message(json_t *doc, const char *body, size_t len, char *out, size_t outlen,
                          bool *model_not_found) {
  json_t *e = json_object_get(doc, "error");
  const char *msg =
      json_is_string(e) ? json_string_value(e) : json_string_value(json_object_get(e, "message"));
  if (!msg)
    msg = json_string_value(json_object_get(doc, "message"));
  const char *code = json_string_value(json_object_get(e, "code"));
  const char *type = json_string_value(json_object_get(e, "type"));
  *model_not_found =
      (code && !strcmp(code, "model_not_found")) || (type && !strcmp(type, "not_found_error"));
  if (msg) {
    snprintf(out, outlen, "%.*s", QUOTE_MAX, msg);
    return;
  }
  size_t n = len < QUOTE_MAX ? len : QUOTE_MAX, k = 0;
  for (size_t i = 0; i < n && k + 1 < outlen; i++) /* keep a stray body printable */
    out[k++] = isprint((unsigned char)body[i]) ? body[i] : ' ';
  out[k] = 0;
  if (!k)
    snprintf(out, outlen, "(empty body)");
}

static upk_merr classify(long code, bool not_found) {
  if (code == 404 || not_found)
    return UPK_MERR_UNKNOWN_MODEL;
  if (code == 401)
    return UPK_MERR_AUTH;
  if (code == 403)
    return UPK_MERR_PERMISSION;
  if (code == 429)
    return UPK_MERR_RATE_LIMITED;
  if (code >= 500 || code == 408)
    return UPK_MERR_SERVER;
  return UPK_MERR_BAD_REQUEST;
}

static upk_merr parse_error(const upk_model *m, long code, const char *body, size_t len, char *err,
                            size_t errlen) {
  char msg[QUOTE_MAX + 8];
  bool not_found = false;
  json_t *doc = json_loadb(body, len, 0, NULL);
  error_message(doc, body, len, msg, sizeof msg, &not_found);
  json_decref(doc);
  upk_merr kind = classify(code, not_found);
  const upk_provider_def *p = m->provider;
  char *safe = upk_redact(msg, upk_provider_key(p));
  const char *s = safe ? safe : "";
  switch (kind) {
  case UPK_MERR_UNKNOWN_MODEL:
    snprintf(err, errlen, "unknown model '%s' at %s (HTTP %ld): %s", m->id, p->name, code, s);
    break;
  case UPK_MERR_AUTH:
    snprintf(err, errlen, "%s rejected the API key (HTTP 401): check %s: %s", p->name, p->key_env,
             s);
    break;
  case UPK_MERR_PERMISSION:
    snprintf(err, errlen, "%s refused access to '%s' (HTTP 403): %s", p->name, m->id, s);
    break;
  case UPK_MERR_RATE_LIMITED:
    snprintf(err, errlen, "%s rate limit (HTTP 429): %s", p->name, s);
    break;
  case UPK_MERR_SERVER:
    snprintf(err, errlen, "%s server error (HTTP %ld): %s", p->name, code, s);
    break;
  default:
    snprintf(err, errlen, "%s rejected the request (HTTP %ld): %s", p->name, code, s);
  }
  free(safe);
  return kind;
}

upk_merr upk_provider_parse(const upk_model *m, long code, const char *body, size_t len,
                            upk_answer *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  upk_merr e = code >= 200 && code < 300 ? parse_ok(m, body, len, out, err, errlen)
                                         : parse_error(m, code, body, len, err, errlen);
  if (e)
    upk_utf8_scrub(err); /* it quotes the body (jansson's "near '...'", the provider's words) */
  return e;
}

/* ---- redaction ------------------------------------------------------------------------ */

static size_t token_len(const char *s) {
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_' || s[n] == '*' || s[n] == '.')
    n++;
  return n;
}

/* Length of a secret starting at `s`, or 0. */
static size_t secret_at(const char *s, const char *key, size_t keylen) {
  if (keylen >= 4 && !strncmp(s, key, keylen))
    return keylen;
  if (!strncmp(s, "sk-", 3) && token_len(s) >= 11)
    return token_len(s);
  if (!strncasecmp(s, "Bearer ", 7) && token_len(s + 7) >= 8)
    return 7 + token_len(s + 7);
  return 0;
}

char *upk_redact(const char *s, const char *key) {
  static const char mark[] = "[redacted]";
  size_t keylen = key ? strlen(key) : 0, len = strlen(s);
  /* Each secret is at least 4 bytes and becomes 10: the output is at most 2.5x + 1. */
  char *out = upk_xmalloc(len * 5 / 2 + sizeof mark);
  size_t k = 0;
  for (size_t i = 0; i < len;) {
    size_t n = secret_at(s + i, key, keylen);
    if (n) {
      memcpy(out + k, mark, sizeof mark - 1);
      k += sizeof mark - 1;
      i += n;
    } else {
      out[k++] = s[i++];
    }
  }
  out[k] = 0;
  return out;
}
