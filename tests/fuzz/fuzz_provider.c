/* libFuzzer target: model provider responses (models/providers.c), and the answer text as
 * skill generation reads it (skills/eval/teacher_parse.c: the SKILL.md and the test cases in a
 * model's answer). No provider response is streamed: models.c asks for whole bodies.
 * The first input byte picks the provider (Anthropic, OpenAI, generic) and the HTTP status;
 * the rest is the body. Invariants: a 2xx either gives an answer with text or MALFORMED, any
 * other status gives the error kind its code calls for; the message is non-empty, valid UTF-8
 * (it goes to the client as a JSON string) and holds no API key. */
#include "skills/eval/evalcase.h"
#include "tests/fuzz/fuzz_util.h"
#include "models/providers.h"
#include "skills/eval/teacher.h"

#define KEY "sk-ant-fuzzSECRETkey0123456789"

static const long codes[] = {200, 201, 400, 401, 403, 404, 408, 429, 500, 529, 302, 418};
static const char *const models[] = {"anthropic.claude-sonnet-4-5", "openai.gpt-4o",
                                     "generic.llama3"};

static void check_answer_text(const char *text) {
  char *md = NULL;
  int rc = upk_teacher_extract_skill(text, &md);
  CHECK(rc == 0 || rc == -ENOENT);
  CHECK(rc != 0 || md);
  free(md);
  upk_evalcases cases;
  upk_diags d = {0};
  rc = upk_teacher_extract_cases(text, &cases, &d);
  CHECK(rc == 0 || rc == -ENOENT);
  CHECK(rc != 0 || cases.n > 0);
  fuzz_check_diags(&d);
  if (rc == 0)
    upk_evalcases_free(&cases);
  upk_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static upk_config cfg;
  static int ready;
  if (!ready) {
    setenv("ANTHROPIC_API_KEY", KEY, 1);
    setenv("OPENAI_API_KEY", KEY, 1);
    setenv("GENERIC_BASE_URL", "http://127.0.0.1:9/v1", 1);
    upk_config_defaults(&cfg);
    ready = 1;
  }
  upk_model m;
  char err[768];
  CHECK(upk_model_resolve(&cfg, models[data[0] % 3], &m, err, sizeof err) == 0);
  long code = codes[(data[0] >> 2) % (sizeof codes / sizeof *codes)];
  const char *body = (const char *)data + 1;
  size_t len = size - 1;

  upk_answer a;
  err[0] = 0;
  upk_merr kind = upk_provider_parse(&m, code, body, len, &a, err, sizeof err);
  if (code >= 200 && code < 300) {
    CHECK(kind == UPK_MERR_NONE || kind == UPK_MERR_MALFORMED);
  } else {
    CHECK(kind != UPK_MERR_NONE && kind != UPK_MERR_MALFORMED);
    CHECK(code != 401 || kind == UPK_MERR_AUTH || kind == UPK_MERR_UNKNOWN_MODEL);
    CHECK(code != 429 || kind == UPK_MERR_RATE_LIMITED || kind == UPK_MERR_UNKNOWN_MODEL);
  }
  if (kind == UPK_MERR_NONE) {
    CHECK(a.text);
    check_answer_text(a.text);
    upk_answer_free(&a);
  } else {
    CHECK(err[0]);
    if (!fuzz_utf8(err)) {
      fprintf(stderr, "fuzz: provider error message not valid UTF-8: %s\n", err);
      abort();
    }
    CHECK(!strstr(err, KEY));
  }
  char *text = fuzz_cstr((const uint8_t *)body, len);
  char *safe = upk_redact(text, KEY);
  CHECK(safe && !strstr(safe, KEY));
  free(safe);
  free(text);
  return 0;
}
