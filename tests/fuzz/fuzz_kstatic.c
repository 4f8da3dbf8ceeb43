/* libFuzzer target: the static checks before a run (gpu/run/static_checks.c) on a kernel file
 * nobody vetted, `SOURCE \0 REFERENCE` (the reference kernel's source, optional), every library
 * forbidden and reference files named. Invariants: diagnostics well formed, all of source
 * `upskilld-run` with a known code, at most 20 per code, every range inside the source. */
#include "tests/fuzz/fuzz_util.h"
#include "gpu/run/static_checks.h"

static const char *const CODES[] = {
    "run/forbidden-library", "run/timing-api",         "run/stream-api",
    "run/host-copy",         "run/host-thread",        "run/device-clock",
    "run/launch-counter",    "run/includes-reference", "run/reads-reference"};
enum { N_CODES = sizeof CODES / sizeof *CODES };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *z = memchr(data, 0, size);
  size_t len = z ? (size_t)(z - (const char *)data) : size;
  const char *files[] = {"/ws/problem.py", NULL, "ref.cu"};
  upk_kstatic_cfg cfg = {.forbid = UPK_FORBID_TORCH | UPK_FORBID_CUBLAS | UPK_FORBID_CUDNN |
                                   UPK_FORBID_CUTLASS | UPK_FORBID_THRUST,
                         .ref_files = files,
                         .n_ref_files = 3};
  if (z) {
    cfg.ref_source = z + 1;
    cfg.ref_len = size - len - 1;
  }
  int lines = 1;
  for (size_t i = 0; i < len; i++)
    lines += data[i] == '\n';
  upk_diags d = {0};
  CHECK(upk_kstatic_check((const char *)data, len, &cfg, &d) == 0);
  fuzz_check_diags(&d);
  int per[N_CODES] = {0};
  for (size_t i = 0; i < d.len; i++) {
    size_t k = 0;
    while (k < N_CODES && strcmp(d.items[i].code, CODES[k]))
      k++;
    CHECK(k < N_CODES && ++per[k] <= 20);
    CHECK(!strcmp(d.items[i].source, "upskilld-run"));
    CHECK(d.items[i].range.line >= 0 && d.items[i].range.end_line < lines);
  }
  upk_diags_free(&d);
  return 0;
}
