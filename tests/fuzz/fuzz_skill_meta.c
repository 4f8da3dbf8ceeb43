/* libFuzzer target: skill_meta.json as skills/load reads it beside SKILL.md (upk_meta_parse),
 * and the same bytes as a tests file through meta.c's reader (upk_meta_parse_tests).
 * Invariants: diagnostics well formed; a file that parses clean is written back
 * (upk_meta_dump) as text that parses clean again, to the same number of tests, and writes
 * back byte for byte the same (a skill's metadata survives every save). */
#include "tests/fuzz/fuzz_util.h"
#include "skills/meta.h"

static void round_trip(const upk_skill_meta *m) {
  char *text = upk_meta_dump(m);
  CHECK(text);
  upk_skill_meta back;
  upk_diags d = {0};
  int rc = upk_meta_parse(text, strlen(text), &back, &d);
  if (rc != 0)
    fprintf(stderr, "fuzz: dumped skill_meta.json does not parse back:\n%s\n%s\n", text,
            d.len ? d.items[0].message : "");
  CHECK(rc == 0);
  CHECK(back.n_tests == m->n_tests && back.n_extra == m->n_extra);
  char *again = upk_meta_dump(&back);
  CHECK(again && strcmp(again, text) == 0);
  free(again);
  free(text);
  upk_meta_free(&back);
  upk_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_skill_meta m;
  upk_diags d = {0};
  int rc = upk_meta_parse((const char *)data, size, &m, &d);
  CHECK(rc == 0 || rc == -EINVAL);
  CHECK(rc == 0 || upk_diags_count(&d, UPK_SEV_ERROR) > 0);
  fuzz_check_diags(&d);
  if (rc == 0)
    round_trip(&m);
  upk_meta_free(&m);
  upk_diags_free(&d);

  upk_diags t = {0};
  rc = upk_meta_parse_tests((const char *)data, size, &m, &t);
  CHECK(rc == 0 || rc == -EINVAL);
  fuzz_check_diags(&t);
  upk_meta_free(&m);
  upk_diags_free(&t);
  return 0;
}
