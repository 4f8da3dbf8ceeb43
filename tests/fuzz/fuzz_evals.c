/* libFuzzer target: the Agent Skills guide's evals/evals.json read by
 * upk_agentskills_parse_evals_info (a skill directory that does not exist, so every `files`
 * entry is refused). Invariants: diagnostics well formed; every eval kept has a prompt, its
 * info runs alongside (one statement slot per assertion), and the cases write back as tests. */
#include "skills/eval/agentskills.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_evalcases c;
  upk_as_evals info = {0};
  upk_diags d = {0};
  int rc = upk_agentskills_parse_evals_info((const char *)data, size, "/nonexistent-skill", &c,
                                            &info, &d);
  CHECK(rc == 0 || rc == -EINVAL);
  CHECK(rc == 0 || upk_diags_count(&d, UPK_SEV_ERROR) > 0);
  fuzz_check_diags(&d);
  CHECK(info.n == c.n);
  for (size_t i = 0; i < c.n; i++) {
    CHECK(c.items[i].input && *c.items[i].input);
    CHECK(info.items[i].n_sources == c.items[i].n_asserts);
    CHECK(info.items[i].name);
  }
  char *text = c.n ? upk_evalcases_dump(&c) : NULL;
  CHECK(!c.n || text);
  free(text);
  upk_evalcases_free(&c);
  upk_as_evals_free(&info);
  upk_diags_free(&d);
  return 0;
}
