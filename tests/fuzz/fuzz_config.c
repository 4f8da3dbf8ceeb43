/* libFuzzer target: the config file (models/config.c): `config.yaml` and
 * `upskill.config.yaml` read with libyaml into JSON, then merged over the defaults as
 * upk_config_load does. Invariants: a failure has a "LINE:COL: problem" or "where: key: what"
 * message that is valid UTF-8; success leaves every setting inside its documented range. */
#include "models/config.h"
#include "tests/fuzz/fuzz_util.h"

static void check_err(const char *err) {
  CHECK(err[0]);
  if (!fuzz_utf8(err)) {
    fprintf(stderr, "fuzz: config error not valid UTF-8: %s\n", err);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512] = "";
  json_t *layer = upk_yaml_to_json((const char *)data, size, err, sizeof err);
  if (!layer) {
    check_err(err);
    return 0;
  }
  char *dumped = json_dumps(layer, JSON_ENCODE_ANY);
  CHECK(dumped);
  free(dumped);
  upk_config c;
  upk_config_defaults(&c);
  err[0] = 0;
  int rc = json_is_null(layer) ? 0 : upk_config_apply(&c, layer, "config.yaml", err, sizeof err);
  if (rc) {
    CHECK(rc == -EINVAL);
    check_err(err);
  } else {
    CHECK(c.skill_generation_model && c.skills_dir);
    CHECK(c.max_refine_attempts >= 0 && c.max_attempts >= 1);
    CHECK(c.request_timeout_ms > 0 && c.connect_timeout_ms > 0 && c.retry_backoff_ms >= 0);
    CHECK(json_is_object(c.model_aliases));
  }
  upk_config_free(&c);
  json_decref(layer);
  return 0;
}
