/* Providers' wire formats and the configuration, without a network: model names, the exact
 * requests, answers and errors in each provider's shape, redaction, YAML and config layers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "models/config.h"
#include "models/providers.h"

static upk_config cfg;

static void setup(void) {
  upk_config_defaults(&cfg);
  setenv("ANTHROPIC_API_KEY", "sk-ant-secret-0123456789", 1);
  setenv("OPENAI_API_KEY", "sk-proj-secret-0123456789", 1);
  unsetenv("ANTHROPIC_BASE_URL");
  unsetenv("OPENAI_BASE_URL");
  unsetenv("GENERIC_BASE_URL");
  unsetenv("GENERIC_API_KEY");
}

static void teardown(void) {
  upk_config_free(&cfg);
}

TestSuite(models, .init = setup, .fini = teardown);

static upk_model resolve_ok(const char *name) {
  upk_model m;
  char err[256];
  cr_assert_eq(upk_model_resolve(&cfg, name, &m, err, sizeof err), 0, "%s: %s", name, err);
  return m;
}

UTest(models, names_resolve_like_upskill) {
  upk_model m = resolve_ok("sonnet");
  cr_assert_str_eq(m.name, "anthropic.claude-sonnet-4-5");
  cr_assert_eq(m.api, UPK_API_ANTHROPIC);
  m = resolve_ok("openai.gpt-4.1");
  cr_assert_str_eq(m.id, "gpt-4.1");
  cr_assert_str_eq(m.effort, "");
  m = resolve_ok("openai.o3-mini.high");
  cr_assert_str_eq(m.id, "o3-mini");
  cr_assert_str_eq(m.effort, "high");
  m = resolve_ok("generic.llama3.2:3b");
  cr_assert(m.generic);
  cr_assert_str_eq(m.id, "llama3.2:3b");
  cr_assert_eq(m.api, UPK_API_OPENAI);
  cr_assert_str_eq(resolve_ok("claude-3-haiku").provider->name, "anthropic");
  cr_assert_str_eq(resolve_ok("gpt-4o").provider->name, "openai");
}

UTest(models, aliases_follow_the_config) {
  json_t *layer =
      json_pack("{s:{s:s,s:s}}", "model_aliases", "fast", "haiku", "haiku", "generic.tiny");
  char err[256];
  cr_assert_eq(upk_config_apply(&cfg, layer, "test", err, sizeof err), 0, "%s", err);
  json_decref(layer);
  cr_assert_str_eq(resolve_ok("fast").name, "generic.tiny"); /* alias of an alias */
}

UTest(models, bad_names_are_clear) {
  upk_model m;
  char err[256];
  cr_assert_eq(upk_model_resolve(&cfg, "mystery", &m, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "unknown model name 'mystery'"), "%s", err);
  cr_assert_eq(upk_model_resolve(&cfg, "anthropic.", &m, err, sizeof err), -EINVAL);
  cr_assert_eq(upk_model_resolve(&cfg, "openai.has space", &m, err, sizeof err), -EINVAL);
}

static json_t *one_message(const char *text) {
  return json_pack("[{s:s,s:s}]", "role", "user", "content", text);
}

static json_t *wire_body(const upk_wire *w) {
  json_t *b = json_loadb(w->body, w->body_len, 0, NULL);
  cr_assert_not_null(b, "body is not JSON: %s", w->body);
  return b;
}

static bool has_header(const upk_wire *w, const char *h) {
  for (int i = 0; w->headers[i]; i++)
    if (!strcmp(w->headers[i], h))
      return true;
  return false;
}

UTest(models, anthropic_request) {
  setenv("ANTHROPIC_BASE_URL", "http://proxy.local/v1/", 1);
  upk_model m = resolve_ok("anthropic.claude-x");
  json_t *msgs = one_message("hi");
  upk_chat chat = {"sys", msgs, 0, 0.25};
  upk_wire w;
  char err[256];
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(w.url, "http://proxy.local/v1/messages");
  cr_assert(has_header(&w, "x-api-key: sk-ant-secret-0123456789"));
  cr_assert(has_header(&w, "anthropic-version: 2023-06-01"));
  cr_assert(has_header(&w, "Content-Type: application/json"));
  json_t *b = wire_body(&w),
         *want = json_pack("{s:s,s:[{s:s,s:s}],s:i,s:s,s:f}", "model", "claude-x", "messages",
                           "role", "user", "content", "hi", "max_tokens", 4096, "system", "sys",
                           "temperature", 0.25);
  cr_assert(json_equal(b, want), "%s", w.body);
  json_decref(b);
  json_decref(want);
  upk_wire_free(&w);
  setenv("ANTHROPIC_BASE_URL", "https://api.example.com", 1);
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), 0);
  cr_assert_str_eq(w.url, "https://api.example.com/v1/messages");
  upk_wire_free(&w);
  json_decref(msgs);
}

UTest(models, openai_and_generic_requests) {
  upk_model m = resolve_ok("openai.gpt-x");
  json_t *msgs = one_message("hi");
  upk_chat chat = {"sys", msgs, 100, -1};
  upk_wire w;
  char err[256];
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(w.url, "https://api.openai.com/v1/chat/completions");
  cr_assert(has_header(&w, "Authorization: Bearer sk-proj-secret-0123456789"));
  json_t *b = wire_body(&w);
  cr_assert_str_eq(
      json_string_value(json_object_get(json_array_get(json_object_get(b, "messages"), 0), "role")),
      "system");
  cr_assert_eq(json_integer_value(json_object_get(b, "max_completion_tokens")), 100);
  cr_assert_null(json_object_get(b, "temperature"));
  json_decref(b);
  upk_wire_free(&w);

  m = resolve_ok("generic.local");
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), -EDESTADDRREQ);
  cr_assert(strstr(err, "GENERIC_BASE_URL"), "%s", err);
  setenv("GENERIC_BASE_URL", "http://127.0.0.1:11434/v1", 1);
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(w.url, "http://127.0.0.1:11434/v1/chat/completions");
  for (int i = 0; w.headers[i]; i++)
    cr_assert(strncmp(w.headers[i], "Authorization", 13), "no key, no Authorization");
  b = wire_body(&w);
  cr_assert_eq(json_integer_value(json_object_get(b, "max_tokens")), 100);
  json_decref(b);
  upk_wire_free(&w);
  json_decref(msgs);
}

UTest(models, missing_key_names_the_variable) {
  unsetenv("OPENAI_API_KEY");
  upk_model m = resolve_ok("openai.gpt-x");
  json_t *msgs = one_message("hi");
  upk_chat chat = {NULL, msgs, 0, -1};
  upk_wire w;
  char err[256];
  cr_assert_eq(upk_provider_request(&m, &chat, &w, err, sizeof err), -ENOKEY);
  cr_assert(strstr(err, "OPENAI_API_KEY"), "%s", err);
  json_decref(msgs);
}

static upk_merr parse(const char *model, long code, const char *body, upk_answer *a, char *err) {
  upk_model m = resolve_ok(model);
  return upk_provider_parse(&m, code, body, strlen(body), a, err, 512);
}

UTest(models, anthropic_answer) {
  upk_answer a;
  char err[512];
  const char *body =
      "{\"model\":\"claude-x-2025\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
      "\"hmm\"},{\"type\":\"text\",\"text\":\"Hello \"},{\"type\":\"text\",\"text\":"
      "\"world\"}],\"stop_reason\":\"max_tokens\",\"usage\":{\"input_tokens\":10,"
      "\"cache_read_input_tokens\":5,\"output_tokens\":7}}";
  cr_assert_eq(parse("anthropic.claude-x", 200, body, &a, err), UPK_MERR_NONE, "%s", err);
  cr_assert_str_eq(a.text, "Hello world");
  cr_assert_str_eq(a.stop_reason, "max_tokens");
  cr_assert_str_eq(a.model, "claude-x-2025");
  cr_assert_eq(a.input_tokens, 15);
  cr_assert_eq(a.output_tokens, 7);
  upk_answer_free(&a);
}

UTest(models, openai_answer) {
  upk_answer a;
  char err[512];
  const char *body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                     "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":3,"
                     "\"completion_tokens\":1}}";
  cr_assert_eq(parse("openai.gpt-x", 200, body, &a, err), UPK_MERR_NONE, "%s", err);
  cr_assert_str_eq(a.text, "ok");
  cr_assert_str_eq(a.stop_reason, "max_tokens");
  cr_assert_str_eq(a.raw_stop_reason, "length");
  cr_assert_eq(a.input_tokens, 3);
  upk_answer_free(&a);
  /* A server that reports no usage: -1, not 0. */
  cr_assert_eq(parse("generic.x", 200,
                     "{\"choices\":[{\"message\":{\"content\":null,\"refusal\":\"no\"}}]}", &a,
                     err),
               UPK_MERR_NONE);
  cr_assert_str_eq(a.text, "no");
  cr_assert_eq(a.input_tokens, -1);
  upk_answer_free(&a);
}

UTest(models, malformed_and_truncated_answers) {
  upk_answer a;
  char err[512];
  cr_assert_eq(parse("anthropic.c", 200, "{\"content\":[{\"type\":\"text\",\"te", &a, err),
               UPK_MERR_MALFORMED);
  cr_assert(strstr(err, "truncated response body"), "%s", err);
  cr_assert_eq(parse("anthropic.c", 200, "<html>oops</html>", &a, err), UPK_MERR_MALFORMED);
  cr_assert(strstr(err, "malformed response body"), "%s", err);
  cr_assert_eq(parse("openai.g", 200, "{\"choices\":[]}", &a, err), UPK_MERR_MALFORMED);
  cr_assert(strstr(err, "choices[0].message"), "%s", err);
}

UTest(models, errors_are_classified) {
  upk_answer a;
  char err[512];
  cr_assert_eq(parse("openai.g", 401,
                     "{\"error\":{\"message\":\"Incorrect API key provided: "
                     "sk-proj-secret-0123456789.\",\"code\":\"invalid_api_key\"}}",
                     &a, err),
               UPK_MERR_AUTH);
  cr_assert(strstr(err, "OPENAI_API_KEY") && strstr(err, "[redacted]") && !strstr(err, "secret"),
            "%s", err);
  cr_assert_eq(
      parse("anthropic.c", 403,
            "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"no\"}}", &a,
            err),
      UPK_MERR_PERMISSION);
  cr_assert_eq(
      parse(
          "anthropic.c", 404,
          "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: c\"}}",
          &a, err),
      UPK_MERR_UNKNOWN_MODEL);
  cr_assert(strstr(err, "unknown model 'c' at anthropic (HTTP 404): model: c"), "%s", err);
  cr_assert_eq(parse("openai.g", 400,
                     "{\"error\":{\"message\":\"no such model\",\"code\":\"model_not_found\"}}", &a,
                     err),
               UPK_MERR_UNKNOWN_MODEL);
  cr_assert_eq(parse("generic.g", 404, "{\"error\":\"model 'g' not found\"}", &a, err),
               UPK_MERR_UNKNOWN_MODEL);
  cr_assert(strstr(err, "model 'g' not found"), "%s", err);
  cr_assert_eq(parse("anthropic.c", 429, "{}", &a, err), UPK_MERR_RATE_LIMITED);
  cr_assert_eq(parse("anthropic.c", 529,
                     "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
                     "\"Overloaded\"}}",
                     &a, err),
               UPK_MERR_SERVER);
  cr_assert_eq(parse("anthropic.c", 502,
                     "<html>\x01"
                     "bad gateway</html>",
                     &a, err),
               UPK_MERR_SERVER);
  cr_assert(strstr(err, "<html> bad gateway</html>"), "%s", err);
  cr_assert_eq(parse("anthropic.c", 400,
                     "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                     "\"message\":\"max_tokens: too big\"}}",
                     &a, err),
               UPK_MERR_BAD_REQUEST);
  cr_assert(upk_merr_retryable(UPK_MERR_RATE_LIMITED) && upk_merr_retryable(UPK_MERR_SERVER) &&
            upk_merr_retryable(UPK_MERR_CONNECTION) && !upk_merr_retryable(UPK_MERR_AUTH) &&
            !upk_merr_retryable(UPK_MERR_MALFORMED));
}

UTest(models, redaction) {
  char *s =
      upk_redact("key=abcd1234 and sk-ant-xyz0123456789 and Bearer tok_0123456789 ok", "abcd1234");
  cr_assert_str_eq(s, "key=[redacted] and [redacted] and [redacted] ok");
  free(s);
  s = upk_redact("sk-ab short, a, key", "a"); /* too short to be a key: left alone */
  cr_assert_str_eq(s, "sk-ab short, a, key");
  free(s);
  s = upk_redact("xyxyxyxy", "xy12");
  cr_assert_str_eq(s, "xyxyxyxy");
  free(s);
  s = upk_redact("abcdabcdabcd", "abcd"); /* growth: every 4 bytes become 10 */
  cr_assert_str_eq(s, "[redacted][redacted][redacted]");
  free(s);
}

UTest(models, yaml_scalars_are_typed) {
  char err[128];
  const char *y = "a: 3\nb: 2.5\nc: true\nd: ~\ne: '3'\nf: [x, 'y']\ng: {h: no}\n";
  json_t *j = upk_yaml_to_json(y, strlen(y), err, sizeof err);
  cr_assert_not_null(j, "%s", err);
  json_t *want = json_pack("{s:i,s:f,s:b,s:n,s:s,s:[s,s],s:{s:s}}", "a", 3, "b", 2.5, "c", 1, "d",
                           "e", "3", "f", "x", "y", "g", "h", "no");
  cr_assert(json_equal(j, want), "%s", json_dumps(j, JSON_COMPACT));
  json_decref(j);
  json_decref(want);
  cr_assert_null(upk_yaml_to_json("a: [1,\n", 7, err, sizeof err));
  cr_assert(!strncmp(err, "2:1:", 4), "%s", err);
  j = upk_yaml_to_json("", 0, err, sizeof err);
  cr_assert(json_is_object(j) && json_object_size(j) == 0);
  json_decref(j);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

UTest(models, config_layers_later_wins) {
  char dir[] = "/tmp/upk-config-XXXXXX", path[512];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/upskilld", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/upskilld/config.yaml", dir);
  write_file(path, "skill_generation_model: opus\neval_model: haiku\nmax_refine_attempts: 5\n"
                   "runs_dir: /r\nauto_eval: true\n");
  snprintf(path, sizeof path, "%s/upskill.config.yaml", dir);
  write_file(path, "eval_model: openai.gpt-x\nmodel_aliases: {opus: anthropic.claude-opus-9}\n");
  setenv("XDG_CONFIG_HOME", dir, 1);
  json_t *init = json_pack("{s:{s:i}}", "upskilld", "max_attempts", 2);
  upk_config c;
  char err[256];
  cr_assert_eq(upk_config_load(&c, dir, init, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(c.skill_generation_model, "opus");
  cr_assert_str_eq(c.eval_model, "openai.gpt-x");
  cr_assert_null(c.test_gen_model);
  cr_assert_eq(c.max_refine_attempts, 5);
  cr_assert_eq(c.max_attempts, 2);
  cr_assert_str_eq(c.runs_dir, "/r");
  cr_assert_str_eq(upk_config_alias(&c, "opus"), "anthropic.claude-opus-9");
  cr_assert_str_eq(upk_config_alias(&c, "sonnet"), "anthropic.claude-sonnet-4-5");
  cr_assert_eq(json_array_size(c.sources), 2);
  upk_config_free(&c);
  /* A value of the wrong type and an unknown key: each named with its line, the rest applied. */
  write_file(path, "max_refine_attempts: many\nrequest_timeout_ms: 5000\neval_modle: x\n");
  cr_assert_eq(upk_config_load(&c, dir, NULL, err, sizeof err), 0, "%s", err);
  const char *m0 = json_string_value(json_object_get(json_array_get(c.refused, 0), "message"));
  const char *m1 = json_string_value(json_object_get(json_array_get(c.refused, 1), "message"));
  cr_assert(m0 && strstr(m0, "upskill.config.yaml:1: max_refine_attempts: expected an integer"),
            "%s", m0);
  cr_assert(m1 && strstr(m1, "upskill.config.yaml:3: unknown key 'eval_modle' (did you mean "
                             "'eval_model'?): ignored"),
            "%s", m1);
  cr_assert_eq(c.request_timeout_ms, 5000, "the rest of the file still applies");
  cr_assert_eq(c.max_refine_attempts, 5, "the user's value stays");
  upk_config_free(&c);
  json_decref(init);
  unlink(path);
  snprintf(path, sizeof path, "%s/upskilld/config.yaml", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/upskilld", dir);
  rmdir(path);
  rmdir(dir);
  unsetenv("XDG_CONFIG_HOME");
}

/* A config file's size comes from outside: over 1 MiB it is refused with its path and why. */
UTest(models, oversize_config_is_refused) {
  char dir[] = "/tmp/upk-config-XXXXXX", path[512];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/upskill.config.yaml", dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  for (int i = 0; i < (1 << 20) / 16 + 1; i++)
    fputs("# padding line.\n", f);
  fclose(f);
  upk_config c;
  char err[600];
  cr_assert_eq(upk_config_load(&c, dir, NULL, err, sizeof err), -EFBIG);
  cr_assert(strstr(err, "upskill.config.yaml: File too large"), "%s", err);
  upk_config_free(&c);
  unlink(path);
  rmdir(dir);
}

/* Found by tests/fuzz (fuzz_config): `model: null` left no teacher model, and generation
 * without params.model then passed NULL to upk_model_resolve (a crash); a sequence used as a
 * mapping key leaked its value. */
UTest(models, config_null_restores_the_default) {
  char err[256];
  const char *y = "model: ~\nskills_dir: null\neval_model: haiku\n";
  json_t *layer = upk_yaml_to_json(y, strlen(y), err, sizeof err);
  cr_assert_not_null(layer, "%s", err);
  upk_config c;
  upk_config_defaults(&c);
  cr_assert_eq(upk_config_apply(&c, layer, "test", err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(c.skill_generation_model, "sonnet");
  cr_assert_str_eq(c.skills_dir, "./skills");
  cr_assert_str_eq(c.eval_model, "haiku");
  upk_model m;
  cr_assert_eq(upk_model_resolve(&c, c.skill_generation_model, &m, err, sizeof err), 0, "%s", err);
  json_decref(layer);
  upk_config_free(&c);
  cr_assert_null(upk_yaml_to_json("? [a, b]\n: 1\n", 12, err, sizeof err));
  cr_assert(strstr(err, "non-scalar mapping key"), "%s", err);
}

/* Found by tests/fuzz (fuzz_provider): jansson's "near '...'" quotes the body's bytes, which
 * may be cut inside a character; the message must stay a JSON string. */
UTest(models, malformed_body_message_is_utf8) {
  static const char body[] = "{\"content\": \"\\\xc3\xa9\"}";
  upk_model m = resolve_ok("anthropic.claude-x");
  upk_answer a;
  char err[512];
  cr_assert_eq(upk_provider_parse(&m, 200, body, strlen(body), &a, err, sizeof err),
               UPK_MERR_MALFORMED);
  json_t *s = json_string(err);
  cr_assert_not_null(s, "not UTF-8: %s", err);
  cr_assert(strstr(err, "malformed response body"), "%s", err);
  json_decref(s);
}
