/* libFuzzer target: what NVRTC and ptxas print (gpu/compile/nvlog.c): front-end errors with echoed
 * source and caret lines, ptxas errors citing PTX lines, the `-v` resource report, the
 * name-expression unit's errors, PTX `.loc` mapping and kernel-name demangling.
 * The input is `LOG \0 SOURCE \0 PTX` (missing parts are empty); the seeds are real logs.
 * Invariants: diagnostics well formed (columns from carets and UTF-16 units of echoed lines);
 * has_error agrees with the front end and ptxas parsers finding an error; report entries have
 * a mangled name and no negative resource counts. */
#include "tests/fuzz/fuzz_util.h"
#include "gpu/compile/cubin.h"
#include "gpu/compile/nvlog.h"

static const char *part(const char *p, const char *end, const char **next) {
  const char *z = memchr(p, 0, (size_t)(end - p));
  *next = z ? z + 1 : end;
  return p;
}

static void check_kernels(const char *log, const char *ptx) {
  upk_kernel_info *k = NULL;
  size_t n = 0;
  CHECK(upk_nvlog_report(log, &k, &n) == 0);
  CHECK(n == 0 || k);
  for (size_t i = 0; i < n; i++) {
    CHECK(k[i].mangled); /* may be empty: a log can say "entry function ''" */
    CHECK(k[i].registers >= 0 && k[i].stack_frame >= 0 && k[i].smem_static >= 0);
    CHECK(k[i].spill_stores >= 0 && k[i].spill_loads >= 0 && k[i].cmem0 >= 0);
    CHECK(k[i].barriers >= 0 && k[i].cumulative_stack >= 0);
    char name[512];
    int rc = upk_demangle_kernel(k[i].mangled, name, sizeof name);
    CHECK(rc == 0 || rc == -EINVAL || rc == -ENOSPC);
    CHECK(rc == -ENOSPC || strlen(name) < sizeof name);
    upk_ptx_pos pos = {0};
    rc = upk_ptx_entry_pos(ptx, k[i].mangled, "kernel.cu", &pos);
    CHECK(rc == 0 || rc == -ENOENT);
    free(pos.file);
    upk_kernel_info_free(&k[i]);
  }
  free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = fuzz_cstr(data, size);
  const char *end = buf + size, *next;
  const char *log = part(buf, end, &next);
  const char *src = next < end ? part(next, end, &next) : "";
  const char *ptx = next < end ? next : "";
  upk_nvlog_ctx ctx = {"kernel.cu", src, strlen(src), ptx[0] ? ptx : NULL};

  upk_diags fe = {0}, pt = {0};
  CHECK(upk_nvlog_frontend(log, &ctx, &fe) == 0);
  CHECK(upk_nvlog_ptxas(log, &ctx, &pt) == 0);
  fuzz_check_diags(&fe);
  fuzz_check_diags(&pt);
  if (upk_diags_count(&fe, UPK_SEV_ERROR) || upk_diags_count(&pt, UPK_SEV_ERROR))
    CHECK(upk_nvlog_has_error(log));
  upk_diags_free(&fe);
  upk_diags_free(&pt);

  check_kernels(log, ptx);
  static const char *const names[] = {"saxpy", "scale<float>", "&k<int, 2>", "vec_add"};
  bool bad[4] = {0};
  CHECK(upk_nvlog_bad_names(log, (upk_strv){names, 4}, bad) >= 0);
  for (int line = 1; line < 4 && ptx[0]; line++) {
    upk_ptx_pos pos = {0};
    int rc = upk_ptx_map_line(ptx, line * 7, "kernel.cu", &pos);
    CHECK(rc == 0 || rc == -ENOENT);
    CHECK(rc != 0 || pos.line >= 0);
    free(pos.file);
  }
  (void)upk_cubin_section_size(data, size, ".nv.constant0.saxpy");
  upk_kernel_info *k = NULL; /* the cubin reader: any bytes, no crash, 0 or -EINVAL */
  size_t n = 0;
  int crc = upk_cubin_kernels(data, size, &k, &n);
  CHECK(crc == 0 || crc == -EINVAL);
  for (size_t i = 0; i < n; i++)
    upk_kernel_info_free(&k[i]);
  free(k);
  free(buf);
  return 0;
}
