/* libFuzzer target: evaluation test files (skills/evaluate's `tests`: a bare list,
 * {"cases": [...]} or a whole skill_meta.json) read by upk_evalcases_parse.
 * Invariants: diagnostics well formed; the good cases are written back (upk_evalcases_dump)
 * as a file that parses clean to as many cases and writes back byte for byte the same, and
 * that meta.c's strict reader also accepts once turned into skill_meta.json tests. */
#include "skills/eval/evalcase.h"
#include "tests/fuzz/fuzz_util.h"

static void round_trip(const upk_evalcases *c) {
  char *text = upk_evalcases_dump(c);
  CHECK(text);
  upk_evalcases back;
  upk_diags d = {0};
  int rc = upk_evalcases_parse(text, strlen(text), &back, &d);
  if (rc != 0)
    fprintf(stderr, "fuzz: dumped cases do not parse back:\n%s\n%s\n", text,
            d.len ? d.items[0].message : "");
  CHECK(rc == 0 && back.n == c->n);
  char *again = upk_evalcases_dump(&back);
  CHECK(again && strcmp(again, text) == 0);
  free(again);
  free(text);
  upk_evalcases_free(&back);
  upk_diags_free(&d);

  upk_skill_meta m;
  CHECK(upk_meta_init(&m) == 0);
  CHECK(upk_evalcases_to_meta(c, &m) == 0);
  char *meta = upk_meta_dump(&m);
  CHECK(meta);
  upk_skill_meta mb;
  rc = upk_meta_parse(meta, strlen(meta), &mb, &d);
  if (rc != 0)
    fprintf(stderr, "fuzz: cases as skill_meta.json do not parse:\n%s\n%s\n", meta,
            d.len ? d.items[0].message : "");
  CHECK(rc == 0 && mb.n_tests == c->n);
  upk_meta_free(&mb);
  upk_meta_free(&m);
  free(meta);
  upk_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_evalcases c;
  upk_diags d = {0};
  int rc = upk_evalcases_parse((const char *)data, size, &c, &d);
  CHECK(rc == 0 || rc == -EINVAL);
  CHECK(rc == 0 || upk_diags_count(&d, UPK_SEV_ERROR) > 0);
  fuzz_check_diags(&d);
  for (size_t i = 0; i < c.n; i++)
    CHECK(c.items[i].input && c.items[i].n_asserts > 0);
  if (c.n)
    round_trip(&c);
  upk_evalcases_free(&c);
  upk_diags_free(&d);
  return 0;
}
