/* gpu/compile with the real NVRTC on tests/kernel/corpus: resources equal to
 * what `nvcc -cubin -arch=<arch> -Xptxas -v` (CUDA 13.0.88) prints for the same
 * file, front-end and ptxas errors on nvcc's lines, names, bad input, a
 * missing toolkit. Skips where the toolkit is missing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/compile/compile.h"
#include "gpu/compile/toolkit.h"

static bool have_toolkit(void) {
  char p[600];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", upk_cuda_default_path(NULL));
  return access(p, R_OK) == 0;
}

#define NEED_TOOLKIT()                                                                             \
  do {                                                                                             \
    if (!have_toolkit())                                                                           \
      cr_skip_test("no CUDA toolkit (include/nvrtc.h) at %s", upk_cuda_default_path(NULL));        \
  } while (0)

/* A corpus file's text; its path in *path. */
static char *corpus(const char *name, char *path, size_t path_len, size_t *len) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(path, path_len, "%s/tests/kernel/corpus/%s", root ? root : ".", name);
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s (UPK_SOURCE_ROOT unset?)", path);
  static char buf[1 << 16];
  *len = fread(buf, 1, sizeof buf - 1, f);
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

/* Compile corpus file `name` for `arch`; names optional. */
static int compile_file(const char *name, const char *arch, upk_strv names, upk_compile_result *r) {
  char path[600];
  size_t len;
  const char *src = corpus(name, path, sizeof path, &len);
  upk_compile_req req = {
      .source = src, .source_len = len, .file_name = path, .arch = arch, .names = names};
  return upk_compile(&req, r);
}

static int compile_text(const char *src, const char *arch, upk_compile_result *r) {
  upk_compile_req req = {
      .source = src, .source_len = strlen(src), .file_name = "kernel.cu", .arch = arch};
  return upk_compile(&req, r);
}

static const upk_diag *find_code(const upk_compile_result *r, const char *code) {
  for (size_t i = 0; i < r->diags.len; i++)
    if (!strcmp(r->diags.items[i].code, code))
      return &r->diags.items[i];
  return NULL;
}

static const upk_kernel_info *find_kernel(const upk_compile_result *r, const char *name) {
  for (size_t i = 0; i < r->n_kernels; i++)
    if (!strcmp(r->kernels[i].name, name))
      return &r->kernels[i];
  return NULL;
}

static const char *dump(const upk_compile_result *r) {
  static char buf[4096];
  size_t used = (size_t)snprintf(buf, sizeof buf, "ok=%d kernels=%zu diags:", r->ok, r->n_kernels);
  for (size_t i = 0; i < r->diags.len && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, " [%s %d:%d %s]",
                             r->diags.items[i].code, r->diags.items[i].range.line,
                             r->diags.items[i].range.col, r->diags.items[i].message);
  return buf;
}

/* `nvcc -cubin -arch=ARCH -Xptxas -v FILE`, CUDA 13.0.88, copied by hand. */
static const struct want {
  const char *file, *arch, *kernel;
  int regs, barriers;
  long stack, spill_st, spill_ld, cumulative, smem;
} NVCC[] = {
    {"saxpy.cu", "sm_90a", "saxpy", 10, 0, 0, 0, 0, 0, 0},
    {"reduce.cu", "sm_90a", "block_sum", 14, 1, 0, 0, 0, 0, 128},
    {"sgemm_tiled.cu", "sm_90a", "sgemm_tiled", 32, 1, 0, 0, 0, 0, 8320},
    {"smem40k.cu", "sm_90a", "hist40k", 14, 1, 0, 0, 0, 0, 40960},
    {"spill.cu", "sm_90a", "local_lookup", 40, 0, 256, 0, 0, 256, 0},
    {"spill.cu", "sm_90a", "spill_heavy", 32, 0, 376, 804, 856, 376, 0},
    {"tma_bulk_mbarrier.cu", "sm_90a", "bulk_copy_scale", 12, 1, 0, 0, 0, 0, 4104},
    {"wgmma_setmaxnreg_sm90a.cu", "sm_90a", "warp_specialized", 168, 0, 0, 0, 0, 0, 0},
    {"wgmma_setmaxnreg_sm90a.cu", "sm_90", "warp_specialized", 4, 0, 0, 0, 0, 0, 0},
    {"scale_template.cu", "sm_90a", "scale<float>", 8, 0, 0, 0, 0, 0, 0},
    {"scale_template.cu", "sm_90a", "scale<double>", 8, 0, 0, 0, 0, 0, 0},
    {"scale_template.cu", "sm_90a", "scale_unrolled<float, 4>", 10, 0, 0, 0, 0, 0, 0},
    {"err_smem64k.cu", "sm_90a", "too_much_smem", 12, 1, 0, 0, 0, 0, 65536},
};

Test(compile, corpus_resources_equal_nvcc) {
  NEED_TOOLKIT();
  for (size_t i = 0; i < sizeof NVCC / sizeof *NVCC; i++) {
    const struct want *w = &NVCC[i];
    upk_compile_result r;
    cr_assert_eq(compile_file(w->file, w->arch, (upk_strv){0}, &r), 0);
    if (strcmp(r.nvrtc_version, "13.0"))
      cr_skip_test("figures are nvcc 13.0's; this NVRTC is %s", r.nvrtc_version);
    cr_assert(r.ok, "%s %s: %s", w->file, w->arch, dump(&r));
    const upk_kernel_info *k = find_kernel(&r, w->kernel);
    cr_assert(k, "%s %s: no kernel %s (%s)", w->file, w->arch, w->kernel, dump(&r));
    cr_assert_eq(k->registers, w->regs, "%s %s registers %d", w->file, w->kernel, k->registers);
    cr_assert_eq(k->barriers, w->barriers, "%s barriers", w->kernel);
    cr_assert_eq(k->stack_frame, w->stack, "%s stack", w->kernel);
    cr_assert_eq(k->spill_stores, w->spill_st, "%s spill stores", w->kernel);
    cr_assert_eq(k->spill_loads, w->spill_ld, "%s spill loads", w->kernel);
    cr_assert_eq(k->cumulative_stack, w->cumulative, "%s cumulative stack", w->kernel);
    cr_assert_eq(k->smem_static, w->smem, "%s smem", w->kernel);
    cr_assert_gt(k->cmem0, 0, "%s: cmem[0] from the cubin's .nv.constant0 section", w->kernel);
    upk_compile_result_free(&r);
  }
}

Test(compile, result_carries_cubin_version_and_log) {
  NEED_TOOLKIT();
  upk_compile_result r;
  cr_assert_eq(compile_file("saxpy.cu", NULL, (upk_strv){0}, &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  cr_assert_eq(r.diags.len, 0, "%s", dump(&r));
  cr_assert_geq(r.cubin_size, 64);
  cr_assert_eq(memcmp(r.cubin,
                      "\x7f"
                      "ELF",
                      4),
               0, "the cubin is an ELF image");
  cr_assert_str_eq(r.nvrtc_version, "13.0");
  cr_assert_gt(r.compile_ms, 0.0);
  cr_assert(r.log && strstr(r.log, "Compiling entry function 'saxpy' for 'sm_90a'"), "%s", r.log);
  cr_assert_str_eq(r.kernels[0].mangled, "saxpy");
  upk_compile_result_free(&r);
  cr_assert_null(r.cubin);
}

Test(compile, front_end_errors_on_nvcc_line_and_column) {
  NEED_TOOLKIT();
  upk_compile_result r;
  cr_assert_eq(compile_file("err_syntax.cu", NULL, (upk_strv){0}, &r), 0);
  cr_assert_not(r.ok);
  cr_assert_null(r.cubin);
  cr_assert_eq(r.diags.len, 1, "%s", dump(&r));
  const upk_diag *d = &r.diags.items[0];
  cr_assert_str_eq(d->code, "nvrtc/error");
  cr_assert_str_eq(d->message, "expected a \";\"");
  cr_assert_eq(d->range.line, 5); /* nvcc: err_syntax.cu(6), caret column 3 */
  cr_assert_eq(d->range.col, 2);
  cr_assert_null(d->file);
  upk_compile_result_free(&r);
  cr_assert_eq(compile_file("err_undefined.cu", NULL, (upk_strv){0}, &r), 0);
  d = find_code(&r, "nvrtc/error");
  cr_assert(d, "%s", dump(&r));
  cr_assert_str_eq(d->message, "identifier \"undefined_scale\" is undefined");
  cr_assert_eq(d->range.line, 4); /* nvcc: line 5, column 12 */
  cr_assert_eq(d->range.col, 11);
  cr_assert_eq(d->range.end_col, 26);
  upk_compile_result_free(&r);
}

Test(compile, numbered_warnings_keep_ok) {
  NEED_TOOLKIT();
  upk_compile_result r;
  cr_assert_eq(
      compile_text("__global__ void k(float *y) {\n  int unused;\n  y[0] = 1.0f;\n}\n", NULL, &r),
      0);
  cr_assert(r.ok, "%s", dump(&r));
  const upk_diag *d = find_code(&r, "nvrtc/177");
  cr_assert(d, "%s", dump(&r));
  cr_assert_eq(d->severity, UPK_SEV_WARNING);
  cr_assert_eq(d->range.line, 1);
  cr_assert_eq(d->range.col, 6);
  cr_assert_eq(d->range.end_col, 12);
  cr_assert_str_eq(r.kernels[0].name, "k", "demangled from _Z1kPf");
  cr_assert_str_eq(r.kernels[0].mangled, "_Z1kPf");
  upk_compile_result_free(&r);
}

Test(compile, template_instances_by_name) {
  NEED_TOOLKIT();
  const char *names[] = {"scale<float>", "scale_unrolled<float, 4>", "scale<int>"};
  upk_compile_result r;
  cr_assert_eq(compile_file("scale_template.cu", NULL, (upk_strv){names, 3}, &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  cr_assert_eq(r.n_kernels, 3, "only the named kernels: %s", dump(&r));
  const upk_kernel_info *f = find_kernel(&r, "scale<float>");
  const upk_kernel_info *u = find_kernel(&r, "scale_unrolled<float, 4>");
  const upk_kernel_info *i = find_kernel(&r, "scale<int>");
  cr_assert(f && u && i, "%s", dump(&r));
  cr_assert_str_eq(f->mangled, "_Z5scaleIfEvPT_S0_i");
  cr_assert_str_eq(u->mangled, "_Z14scale_unrolledIfLi4EEvPT_S0_i");
  cr_assert_str_eq(i->mangled, "_Z5scaleIiEvPT_S0_i", "instantiated by its name expression");
  cr_assert_eq(u->registers, 10);
  upk_compile_result_free(&r);
}

Test(compile, unknown_names_list_the_kernels) {
  NEED_TOOLKIT();
  const char *names[] = {"saxpy", "nope", "nope<int>"};
  upk_compile_result r;
  cr_assert_eq(compile_file("saxpy.cu", NULL, (upk_strv){names, 3}, &r), 0);
  cr_assert_not(r.ok);
  cr_assert_eq(r.n_kernels, 1, "%s", dump(&r));
  cr_assert_str_eq(r.kernels[0].name, "saxpy");
  cr_assert_eq(r.diags.len, 2, "one per unknown name, no NVRTC noise: %s", dump(&r));
  cr_assert_str_eq(r.diags.items[0].code, "kernel/unknown-name");
  cr_assert(strstr(r.diags.items[0].message, "'nope'"), "%s", r.diags.items[0].message);
  cr_assert(strstr(r.diags.items[0].message, "saxpy"), "%s", r.diags.items[0].message);
  cr_assert(strstr(r.diags.items[1].message, "'nope<int>'"), "%s", r.diags.items[1].message);
  upk_compile_result_free(&r);
}

Test(compile, unknown_arch_lists_what_nvrtc_supports) {
  NEED_TOOLKIT();
  upk_compile_result r;
  const char *src = "extern \"C\" __global__ void k(float *y) { y[0] = 1.0f; }\n";
  const char *bad[] = {"sm_42", "sm_80a", "90", "sm_90x", "compute_"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    cr_assert_eq(compile_text(src, bad[i], &r), 0);
    const upk_diag *d = find_code(&r, "kernel/unknown-arch");
    cr_assert(d, "%s: %s", bad[i], dump(&r));
    cr_assert(strstr(d->message, "sm_90") && strstr(d->message, bad[i]), "%s", d->message);
    cr_assert_not(r.ok);
    upk_compile_result_free(&r);
  }
  cr_assert_eq(compile_text(src, "compute_90a", &r), 0);
  cr_assert(r.ok, "PTX only: %s", dump(&r));
  cr_assert_null(r.cubin);
  upk_compile_result_free(&r);
  cr_assert_eq(compile_text(src, "sm_80", &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  upk_compile_result_free(&r);
}

Test(compile, invalid_option_is_quoted) {
  NEED_TOOLKIT();
  const char *opts[] = {"-Werror"};
  upk_compile_req req = {.source = "__global__ void k() {}\n",
                         .source_len = 23,
                         .file_name = "k.cu",
                         .options = {opts, 1}};
  upk_compile_result r;
  cr_assert_eq(upk_compile(&req, &r), 0);
  cr_assert_not(r.ok);
  cr_assert_eq(r.diags.len, 1, "%s", dump(&r));
  cr_assert_str_eq(r.diags.items[0].code, "nvrtc/invalid-option");
  cr_assert(strstr(r.diags.items[0].message, "'-Werror'"), "%s", r.diags.items[0].message);
  upk_compile_result_free(&r);
}

Test(compile, empty_and_binary_sources) {
  NEED_TOOLKIT();
  upk_compile_result r;
  const char *empties[] = {"", " \n\t\r\n  "};
  for (size_t i = 0; i < 2; i++) {
    cr_assert_eq(compile_text(empties[i], NULL, &r), 0);
    cr_assert_eq(r.diags.len, 1);
    cr_assert_str_eq(r.diags.items[0].code, "kernel/empty-source");
    cr_assert_not(r.ok);
    upk_compile_result_free(&r);
  }
  upk_compile_req req = {
      .source = "__global__ void k() {}\n\0junk", .source_len = 28, .file_name = "k.cu"};
  cr_assert_eq(upk_compile(&req, &r), 0);
  const upk_diag *d = find_code(&r, "kernel/binary-source");
  cr_assert(d, "%s", dump(&r));
  cr_assert_eq(d->range.line, 1, "at the NUL byte");
  cr_assert_eq(d->range.col, 0);
  cr_assert_eq(r.diags.len, 1);
  upk_compile_result_free(&r);
  cr_assert_eq(compile_text("\x89PNG\r\n\x1a\x0b\xff\xfe\x80\x81 image data", NULL, &r), 0);
  cr_assert(find_code(&r, "kernel/binary-source"), "%s", dump(&r));
  upk_compile_result_free(&r);
  /* One Latin-1 byte in a comment is text with a stray byte, not binary. */
  cr_assert_eq(compile_text("// caf\xe9\n__global__ void k(float *y) { y[0] = 1.0f; }\n", NULL, &r),
               0);
  cr_assert(r.ok, "%s", dump(&r));
  upk_compile_result_free(&r);
}

Test(compile, missing_toolkit_is_one_diagnostic) {
  char dir[] = "/tmp/upk-nocuda-XXXXXX";
  cr_assert(mkdtemp(dir));
  upk_compile_req req = {.source = "__global__ void k() {}\n",
                         .source_len = 23,
                         .file_name = "k.cu",
                         .cuda_path = dir};
  upk_compile_result r;
  cr_assert_eq(upk_compile(&req, &r), -ENOENT);
  cr_assert_not(r.ok);
  cr_assert_eq(r.diags.len, 1);
  cr_assert_str_eq(r.diags.items[0].code, "kernel/no-toolkit");
  cr_assert(strstr(r.diags.items[0].message, dir), "names the path: %s", r.diags.items[0].message);
  cr_assert_str_eq(r.nvrtc_version, "");
  upk_compile_result_free(&r);
  char reason[512];
  cr_assert_eq(upk_nvrtc_load(dir, reason, sizeof reason), -ENOENT);
  cr_assert(strstr(reason, dir), "%s", reason);
  rmdir(dir);
}

Test(compile, nvrtc_load_from_the_toolkit) {
  NEED_TOOLKIT();
  char reason[512] = "x";
  cr_assert_eq(upk_nvrtc_load(NULL, reason, sizeof reason), 0, "%s", reason);
  cr_assert_str_eq(reason, "");
}

/* sm_90a-only instructions, unguarded: ptxas refuses them for sm_90, citing
 * PTX lines that must come back as these source lines. */
static const char *WGMMA = "extern \"C\" __global__ void wg(float *out) {\n"
                           "  float v = out[threadIdx.x];\n"
                           "  asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n"
                           "  out[threadIdx.x] = v * 2.0f;\n"
                           "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 240;\\n\" ::: "
                           "\"memory\");\n"
                           "}\n";

Test(compile, sm90a_code_fails_for_sm90_on_its_source_lines) {
  NEED_TOOLKIT();
  upk_compile_result r;
  cr_assert_eq(compile_text(WGMMA, "sm_90a", &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  upk_compile_result_free(&r);
  cr_assert_eq(compile_text(WGMMA, "sm_90", &r), 0);
  cr_assert_not(r.ok);
  cr_assert_eq(r.diags.len, 2, "no separate 'Ptx assembly aborted': %s", dump(&r));
  const upk_diag *a = &r.diags.items[0], *b = &r.diags.items[1];
  cr_assert_str_eq(a->code, "ptxas/error");
  cr_assert(strstr(a->message, "Instruction 'wgmma.fence' not supported on .target 'sm_90'"), "%s",
            a->message);
  cr_assert_eq(a->range.line, 2, "%s", dump(&r));
  cr_assert_eq(a->range.col, 2);
  cr_assert_eq(a->range.end_col, 5);
  cr_assert(strstr(b->message, "setmaxnreg.inc"), "%s", b->message);
  cr_assert_eq(b->range.line, 4, "%s", dump(&r));
  upk_compile_result_free(&r);
}

Test(compile, static_smem_over_48k_lands_on_the_kernel) {
  NEED_TOOLKIT();
  upk_compile_result r;
  cr_assert_eq(compile_file("err_smem64k.cu", "sm_90", (upk_strv){0}, &r), 0);
  cr_assert_not(r.ok);
  const upk_diag *d = find_code(&r, "ptxas/error");
  cr_assert(d, "the error -v swallowed was recovered by compiling again: %s", dump(&r));
  cr_assert_str_eq(
      d->message, "Entry function 'too_much_smem' uses too much shared data (0x10000 bytes, 0xc000 "
                  "max)");
  cr_assert_eq(d->range.line, 1, "%s", dump(&r));
  cr_assert_eq(d->range.col, 27, "at the kernel's name");
  cr_assert_eq(d->range.end_col, 40);
  cr_assert(strstr(r.log, "uses too much shared data"), "the log is the retry's: %s", r.log);
  upk_compile_result_free(&r);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

Test(compile, header_errors_defines_and_pch) {
  NEED_TOOLKIT();
  char dir[] = "/tmp/upk-inc-XXXXXX", hdr[600];
  cr_assert(mkdtemp(dir));
  snprintf(hdr, sizeof hdr, "%s/common.cuh", dir);
  write_file(hdr, "__device__ float twice(float x) { return x * FACTOR; }\n");
  const char *src =
      "#include \"common.cuh\"\n__global__ void k(float *y) { y[0] = twice(y[0]); }\n";
  const char *incs[] = {dir}, *defs[] = {"FACTOR=2.0f"};
  upk_compile_req req = {.source = src,
                         .source_len = strlen(src),
                         .file_name = "k.cu",
                         .includes = {incs, 1},
                         .pch = true};
  upk_compile_result r;
  cr_assert_eq(upk_compile(&req, &r), 0);
  cr_assert_not(r.ok);
  cr_assert_eq(r.diags.len, 1, "%s", dump(&r));
  cr_assert_str_eq(r.diags.items[0].file, hdr);
  cr_assert_eq(r.diags.items[0].range.line, 0);
  upk_compile_result_free(&r);
  req.defines = (upk_strv){defs, 1};
  cr_assert_eq(upk_compile(&req, &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  upk_compile_result_free(&r);
  /* An edited header is seen at once: NVRTC's PCH would keep the old one. */
  write_file(hdr, "__device__ float twice(float x) { return x * undefined_thing; }\n");
  cr_assert_eq(upk_compile(&req, &r), 0);
  cr_assert_not(r.ok, "stale header: %s", dump(&r));
  cr_assert(strstr(r.diags.items[0].message, "undefined_thing"), "%s", dump(&r));
  upk_compile_result_free(&r);
  remove(hdr);
  rmdir(dir);
  char path[600];
  size_t len;
  const char *heavy = corpus("half_bf16_cg.cu", path, sizeof path, &len);
  upk_compile_req p = {.source = heavy, .source_len = len, .file_name = path, .pch = true};
  cr_assert_eq(upk_compile(&p, &r), 0);
  cr_assert(r.ok, "%s", dump(&r));
  cr_assert(strstr(r.log, "precompiled header"), "-pch reached NVRTC: %s", r.log);
  cr_assert_eq(r.n_kernels, 1);
  cr_assert_eq(r.kernels[0].registers, 20, "nvcc: 20 registers");
  cr_assert_eq(r.kernels[0].smem_static, 128);
  upk_compile_result_free(&r);
}
