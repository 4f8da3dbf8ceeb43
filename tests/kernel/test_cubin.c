/* gpu/cubin: kernel facts read from real cubins (the real NVRTC compiles
 * tests/kernel/corpus) agree with ptxas's -v report kernel by kernel; a
 * compile whose log is empty (what NVRTC's driver cache hands back on a GPU
 * machine) still lists every kernel with the same numbers; NVRTC's cache is
 * off; malformed images never crash. Skips where the toolkit is missing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/compile/compile.h"
#include "gpu/compile/cubin.h"
#include "common/fileio.h"
#include "gpu/compile/nvlog.h"
#include "gpu/compile/toolkit.h"

#define NEED_TOOLKIT()                                                                             \
  do {                                                                                             \
    char p_[600];                                                                                  \
    snprintf(p_, sizeof p_, "%s/include/nvrtc.h", upk_cuda_default_path(NULL));                    \
    if (access(p_, R_OK))                                                                          \
      cr_skip_test("no CUDA toolkit (include/nvrtc.h) at %s", upk_cuda_default_path(NULL));        \
  } while (0)

/* Every corpus file that compiles, and the architectures it is checked on. */
static const char *const files[] = {
    "saxpy.cu", "reduce.cu",         "sgemm_tiled.cu",  "smem40k.cu",
    "spill.cu", "scale_template.cu", "half_bf16_cg.cu", "tma_bulk_mbarrier.cu"};
static const char *const archs[] = {"sm_90a", "sm_90", "sm_80"};

static void compile_corpus(const char *name, const char *arch, upk_compile_result *r) {
  char path[600];
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(path, sizeof path, "%s/tests/kernel/corpus/%s", root ? root : ".", name);
  size_t len = 0;
  char *src = upk_read_file(path, 1 << 20, &len);
  cr_assert(src, "cannot read %s", path);
  upk_compile_req req = {.source = src, .source_len = len, .file_name = name, .arch = arch};
  cr_assert_eq(upk_compile(&req, r), 0, "%s %s", name, arch);
  free(src);
}

static const upk_kernel_info *by_mangled(const upk_kernel_info *k, size_t n, const char *m) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(k[i].mangled, m))
      return &k[i];
  return NULL;
}

static void free_list(upk_kernel_info *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    upk_kernel_info_free(&k[i]);
  free(k);
}

static size_t count_code(const upk_diags *d, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += !strcmp(d->items[i].code, code);
  return n;
}

/* The cubin's figures equal ptxas's for every kernel of every file and arch. */
Test(cubin, agrees_with_ptxas_report) {
  NEED_TOOLKIT();
  size_t checked = 0;
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    for (size_t a = 0; a < sizeof archs / sizeof *archs; a++) {
      if (strstr(files[f], "sm90a") || (strstr(files[f], "tma") && !strcmp(archs[a], "sm_80")))
        continue; /* sm_90-only features */
      upk_compile_result r;
      compile_corpus(files[f], archs[a], &r);
      cr_assert(r.ok && r.cubin, "%s %s did not compile", files[f], archs[a]);
      upk_kernel_info *rep = NULL, *cub = NULL;
      size_t n_rep = 0, n_cub = 0;
      cr_assert_eq(upk_nvlog_report(r.log, &rep, &n_rep), 0);
      cr_assert_eq(upk_cubin_kernels(r.cubin, r.cubin_size, &cub, &n_cub), 0);
      cr_assert_gt(n_cub, 0, "%s %s: no kernels in the cubin", files[f], archs[a]);
      cr_assert_eq(n_cub, n_rep, "%s %s: %zu kernels in the cubin, %zu in the report", files[f],
                   archs[a], n_cub, n_rep);
      for (size_t i = 0; i < n_cub; i++) {
        const upk_kernel_info *c = &cub[i], *p = by_mangled(rep, n_rep, c->mangled);
        cr_assert(p, "%s %s: %s is not in the report", files[f], archs[a], c->mangled);
        const char *k = c->mangled;
        cr_expect_eq(c->registers, p->registers, "%s %s regs %d vs %d", archs[a], k, c->registers,
                     p->registers);
        cr_expect_eq(c->barriers, p->barriers, "%s %s barriers %d vs %d", archs[a], k, c->barriers,
                     p->barriers);
        cr_expect_eq(c->stack_frame, p->stack_frame, "%s %s stack", archs[a], k);
        cr_expect_eq(c->cumulative_stack, p->cumulative_stack, "%s %s cumulative stack", archs[a],
                     k);
        cr_expect_eq(c->smem_static, p->smem_static, "%s %s smem %ld vs %ld", archs[a], k,
                     c->smem_static, p->smem_static);
        if (p->cmem0) /* ptxas prints cmem[0] only before sm_90 */
          cr_expect_eq(c->cmem0, p->cmem0, "%s %s cmem0 %ld vs %ld", archs[a], k, c->cmem0,
                       p->cmem0);
        checked++;
      }
      free_list(rep, n_rep);
      free_list(cub, n_cub);
      upk_compile_result_free(&r);
    }
  }
  cr_assert_geq(checked, 20, "only %zu kernels compared", checked);
}

/* A cache hit's empty log: the same kernels, the same numbers, one warning
 * per kernel saying the spill counts are unknown. */
Test(cubin, empty_log_keeps_every_kernel) {
  NEED_TOOLKIT();
  const char *const some[] = {"reduce.cu", "scale_template.cu", "spill.cu", "sgemm_tiled.cu"};
  for (size_t f = 0; f < sizeof some / sizeof *some; f++) {
    upk_compile_result r;
    compile_corpus(some[f], "sm_90a", &r);
    cr_assert(r.ok && r.n_kernels > 0, "%s", some[f]);
    upk_kernel_info *k = NULL;
    size_t n = 0;
    upk_diags d = {0};
    cr_assert_eq(upk_cubin_facts(r.cubin, r.cubin_size, "", &k, &n, &d), 0);
    cr_assert_eq(n, r.n_kernels, "%s: %zu kernels without a log, %zu with", some[f], n,
                 r.n_kernels);
    for (size_t i = 0; i < n; i++) {
      const upk_kernel_info *w = by_mangled(r.kernels, r.n_kernels, k[i].mangled);
      cr_assert(w, "%s: %s missing", some[f], k[i].mangled);
      cr_expect_eq(k[i].registers, w->registers);
      cr_expect_eq(k[i].barriers, w->barriers);
      cr_expect_eq(k[i].stack_frame, w->stack_frame);
      cr_expect_eq(k[i].smem_static, w->smem_static);
      cr_expect_eq(k[i].cmem0, w->cmem0);
      cr_expect_eq(k[i].max_threads, w->max_threads);
    }
    cr_assert_eq(count_code(&d, "kernel/no-ptxas-report"), n);
    cr_assert_eq(count_code(&r.diags, "kernel/no-ptxas-report"), 0, "with a log: no warning");
    free_list(k, n);
    upk_diags_free(&d);
    upk_compile_result_free(&r);
  }
}

/* Launch bounds and cluster dims come from the image, whatever the source's
 * macros; spills come only from the report. */
Test(cubin, attributes_and_spills) {
  NEED_TOOLKIT();
  const char *src = "#define THREADS 256\n"
                    "extern \"C\" __global__ void __launch_bounds__(THREADS, 2) lb(float *p)"
                    " { p[threadIdx.x] = 1.f; }\n"
                    "extern \"C\" __global__ void __cluster_dims__(2, 1, 1) cl(float *p)"
                    " { p[threadIdx.x] = 2.f; }\n";
  upk_compile_req req = {.source = src, .source_len = strlen(src), .file_name = "k.cu"};
  upk_compile_result r;
  cr_assert_eq(upk_compile(&req, &r), 0);
  upk_kernel_info *k = NULL;
  size_t n = 0;
  cr_assert_eq(upk_cubin_kernels(r.cubin, r.cubin_size, &k, &n), 0);
  const upk_kernel_info *lb = by_mangled(k, n, "lb"), *cl = by_mangled(k, n, "cl");
  cr_assert(lb && cl);
  cr_assert_eq(lb->max_threads, 256);
  cr_assert_eq(cl->cluster[0], 2);
  cr_assert_eq(cl->cluster[1], 1);
  cr_assert_eq(lb->cluster[0], 0);
  free_list(k, n);
  upk_compile_result_free(&r);

  upk_compile_result s;
  compile_corpus("spill.cu", "sm_90a", &s);
  long spills = 0;
  for (size_t i = 0; i < s.n_kernels; i++)
    spills += s.kernels[i].spill_stores;
  cr_assert_gt(spills, 0, "spill.cu's spills reach the result from the report");
  upk_compile_result_free(&s);
}

/* NVRTC is asked not to use its driver cache: with the cache's own trace on,
 * it says nothing of a cache at all (without --no-cache it logs its lookup). */
Test(cubin, nvrtc_cache_is_off) {
  NEED_TOOLKIT();
  const char *src = "extern \"C\" __global__ void k(float *p) { p[0] = 1.f; }\n";
  const char *opt[] = {"--enable-cache-trace"};
  upk_compile_req req = {
      .source = src, .source_len = strlen(src), .file_name = "k.cu", .options = {opt, 1}};
  upk_compile_result r;
  cr_assert_eq(upk_compile(&req, &r), 0);
  cr_assert(r.ok);
  cr_assert_eq(r.n_kernels, 1);
  cr_assert_null(strstr(r.log ? r.log : "", "[nvrtc cache]"), "NVRTC consulted its cache:\n%s",
                 r.log);
  upk_compile_result_free(&r);
}

/* Every truncation and many corruptions of a real cubin: no crash, no read
 * outside the image (ASan watches), 0 or -EINVAL. */
Test(cubin, malformed_images) {
  NEED_TOOLKIT();
  upk_compile_result r;
  compile_corpus("reduce.cu", "sm_90a", &r);
  cr_assert(r.cubin);
  unsigned char *copy = malloc(r.cubin_size);
  for (size_t len = 0; len <= r.cubin_size; len += len < 256 ? 1 : 61) {
    unsigned char *exact = malloc(len ? len : 1); /* exactly len bytes: ASan sees overreads */
    memcpy(exact, r.cubin, len);
    upk_kernel_info *k = NULL;
    size_t n = 0;
    int rc = upk_cubin_kernels(exact, len, &k, &n);
    cr_assert(rc == 0 || rc == -EINVAL, "len %zu: %d", len, rc);
    free_list(k, n);
    free(exact);
  }
  unsigned seed = 12345;
  for (int trial = 0; trial < 2000; trial++) {
    memcpy(copy, r.cubin, r.cubin_size);
    for (int flips = 0; flips < 8; flips++) {
      seed = seed * 1103515245u + 12345u;
      copy[(seed >> 8) % r.cubin_size] ^= (unsigned char)(seed >> 24 | 1);
    }
    upk_kernel_info *k = NULL;
    size_t n = 0;
    int rc = upk_cubin_kernels(copy, r.cubin_size, &k, &n);
    cr_assert(rc == 0 || rc == -EINVAL);
    free_list(k, n);
  }
  free(copy);
  upk_kernel_info *k = NULL;
  size_t n = 9;
  cr_assert_eq(upk_cubin_kernels("not an elf", 10, &k, &n), -EINVAL);
  cr_assert_eq(n, 0);
  cr_assert_eq(upk_cubin_kernels(NULL, 0, &k, &n), -EINVAL);
  upk_compile_result_free(&r);
}
