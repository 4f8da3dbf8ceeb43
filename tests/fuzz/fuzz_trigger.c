/* libFuzzer target: trigger eval sets (skills/eval {trigger}: skill-creator's
 * [{"query", "should_trigger"}] or {"queries": [...]}) read by upk_trigger_queries_parse.
 * Invariants: diagnostics well formed; every query kept is non-empty, within the limits and
 * unique; the split covers each query exactly once; scoring and the result JSON work on what
 * was kept. */
#include "tests/fuzz/fuzz_util.h"
#include "skills/eval/trigger.h"

static void use(const upk_trigger_set *s) {
  size_t *train = NULL, *test = NULL, nt = 0, ne = 0;
  CHECK(upk_trigger_split(s, UPK_TRIGGER_SEED, UPK_TRIGGER_HOLDOUT, &train, &nt, &test, &ne) == 0);
  CHECK(nt + ne == s->n);
  upk_trigger_outcome *oc = calloc(s->n, sizeof *oc);
  CHECK(oc);
  for (size_t i = 0; i < s->n; i++)
    oc[i] = (upk_trigger_outcome){3, (unsigned)(i % 4 == 0 ? 3 : i % 2)};
  upk_trigger_score sc;
  CHECK(upk_trigger_tally(s, oc, train, nt, UPK_TRIGGER_THRESHOLD, &sc) == 0);
  CHECK(sc.total == nt && sc.passed + sc.failed == sc.total);
  upk_trigger_eval ev = {"fuzz", "a description",      s, oc, train, nt, test,
                         ne,     UPK_TRIGGER_THRESHOLD};
  json_t *j = upk_trigger_result_json(&ev);
  CHECK(j);
  json_decref(j);
  free(oc);
  free(train);
  free(test);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_trigger_set s;
  upk_diags d = {0};
  int rc = upk_trigger_queries_parse((const char *)data, size, &s, &d);
  CHECK(rc == 0 || rc == -EINVAL);
  CHECK(rc == 0 || upk_diags_count(&d, UPK_SEV_ERROR) > 0);
  fuzz_check_diags(&d);
  for (size_t i = 0; i < s.n; i++) {
    CHECK(s.items[i].query && *s.items[i].query);
    CHECK(strlen(s.items[i].query) <= UPK_TRIGGER_MAX_QUERY_BYTES);
    for (size_t k = 0; k < i; k++)
      CHECK(strcmp(s.items[i].query, s.items[k].query) != 0);
  }
  if (s.n)
    use(&s);
  upk_trigger_set_free(&s);
  upk_diags_free(&d);
  return 0;
}
