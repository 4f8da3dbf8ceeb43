/* libFuzzer target: kernel-builder's build.toml (gpu/project/buildtoml.cc, toml++), as
 * kernel/validate reads a project. The file sits in a directory that does not exist, so the
 * source checks only stat missing paths.
 * Invariants: parsing never fails but for memory; diagnostics well formed (line and column
 * from toml++'s positions); every kept string is valid UTF-8 and every kept capability is one
 * upk_bt_cap_parse accepts. */
extern "C" {
#include "gpu/project/buildtoml.h"
#include "tests/fuzz/fuzz_util.h"
}

static void check_list(const upk_bt_list *l) {
  for (size_t i = 0; i < l->n; i++)
    CHECK(l->v[i].s && fuzz_utf8(l->v[i].s));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  upk_buildtoml b;
  int rc = upk_buildtoml_parse((const char *)data, size, "/nonexistent-upk-fuzz/build.toml", &b);
  CHECK(rc == 0);
  fuzz_check_diags(&b.diags);
  CHECK(!b.name || fuzz_utf8(b.name));
  check_list(&b.backends);
  for (size_t i = 0; i < b.n_kernels; i++) {
    const upk_bt_kernel *k = &b.kernels[i];
    CHECK(k->name && fuzz_utf8(k->name));
    check_list(&k->src);
    check_list(&k->include);
    check_list(&k->cuda_flags);
    for (size_t j = 0; j < k->n_caps; j++) {
      upk_bt_cap c;
      CHECK(k->caps[j].text.s && upk_bt_cap_parse(k->caps[j].text.s, &c));
      CHECK(c.major == k->caps[j].major && c.minor == k->caps[j].minor);
    }
  }
  upk_buildtoml_free(&b);
  return 0;
}
