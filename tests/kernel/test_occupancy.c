/* sm_90 occupancy: a table worked out by hand from the cuda_occupancy.h
 * formula, and a sweep compared with cuda_occupancy.h itself (header-only,
 * compiled here as a tiny C++ helper; no GPU needed). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/compile/occupancy.h"

typedef struct row {
  int threads, registers;
  long smem;
  int blocks, warps;
  double percent;
  const char *limiter;
} row;

/* Each row by hand: W = ceil(T/32); warps 64/W; registers
 * floor(16384 / roundUp(32R, 256)) * 4 / W; shared memory
 * floor(233472 / roundUp(S + 1024, 128)); 32 blocks. */
static const row TABLE[] = {
    {256, 32, 0, 8, 64, 100.0, "warps"},            /* 8 | 16*4/8=8 | 228 | 32 */
    {1024, 32, 0, 2, 64, 100.0, "warps"},           /* 2 | 16*4/32=2 */
    {384, 168, 0, 1, 12, 18.75, "registers"},       /* 5 | 3*4/12=1 (5376 per warp) */
    {256, 0, 40960, 5, 40, 62.5, "shared memory"},  /* 233472/41984 = 5 */
    {128, 64, 100000, 2, 8, 12.5, "shared memory"}, /* 101024 -> 101120; 233472/101120 = 2 */
    {32, 16, 0, 32, 32, 50.0, "blocks"},            /* 64 | 32*4/1 = 128 | 228 | 32 */
    {1, 1, 0, 32, 32, 50.0, "blocks"},
    {96, 40, 0, 16, 48, 75.0, "registers"},         /* 21 | 12*4/3 = 16 */
    {256, 256, 0, 1, 8, 12.5, "registers"},         /* 8192 per warp: 2*4/8 = 1 */
    {256, 32, 232448, 1, 8, 12.5, "shared memory"}, /* 227 KB: exactly one block */
    {256, 32, 232449, 0, 0, 0.0, "shared memory"},  /* over the per-block limit */
    {1024, 255, 0, 0, 0, 0.0, "registers"},         /* 8192 * 32 warps > 65536 */
    {256, 257, 0, 0, 0, 0.0, "registers"},          /* over the per-thread maximum */
    {640, 64, 0, 1, 20, 31.25, "registers"},        /* 64/20 = 3 | 8*4/20 = 1 */
    {768, 32, 0, 2, 48, 75.0, "warps"},             /* 64/24 = 2 | 16*4/24 = 2: a tie names warps */
};

Test(occupancy, hand_computed_table) {
  for (size_t i = 0; i < sizeof TABLE / sizeof *TABLE; i++) {
    const row *r = &TABLE[i];
    upk_occupancy o;
    cr_assert_eq(upk_occupancy_sm90(r->threads, r->registers, r->smem, &o), 0, "row %zu", i);
    cr_assert_eq(o.block_size, r->threads);
    cr_assert_eq(o.blocks_per_sm, r->blocks, "row %zu: %d blocks, want %d", i, o.blocks_per_sm,
                 r->blocks);
    cr_assert_eq(o.active_warps, r->warps, "row %zu", i);
    cr_assert_float_eq(o.percent, r->percent, 1e-9, "row %zu: %f", i, o.percent);
    cr_assert_str_eq(o.limiter, r->limiter, "row %zu", i);
    cr_assert_not(o.assumed);
  }
}

Test(occupancy, invalid_input) {
  upk_occupancy o;
  int bad[][2] = {{0, 32}, {-5, 32}, {1025, 32}, {256, -1}};
  for (size_t i = 0; i < 4; i++) {
    memset(&o, 0x5a, sizeof o);
    cr_assert_eq(upk_occupancy_sm90(bad[i][0], bad[i][1], 0, &o), -EINVAL, "case %zu", i);
    cr_assert_eq(o.blocks_per_sm, 0);
    cr_assert_eq(o.active_warps, 0);
    cr_assert_not_null(o.limiter);
  }
  cr_assert_eq(upk_occupancy_sm90(256, 32, -1, &o), -EINVAL);
  cr_assert_eq(o.blocks_per_sm, 0);
}

static const char HELPER[] =
    "#include <cuda_occupancy.h>\n#include <cstdio>\n"
    "int main() {\n"
    "  cudaOccDeviceProp p;\n"
    "  p.computeMajor = 9; p.computeMinor = 0; p.maxThreadsPerBlock = 1024;\n"
    "  p.maxThreadsPerMultiprocessor = 2048; p.regsPerBlock = 65536;\n"
    "  p.regsPerMultiprocessor = 65536; p.warpSize = 32; p.sharedMemPerBlock = 49152;\n"
    "  p.sharedMemPerMultiprocessor = 233472; p.numSms = 132;\n"
    "  p.sharedMemPerBlockOptin = 232448; p.reservedSharedMemPerBlock = 1024;\n"
    "  int t, r; long s;\n"
    "  while (std::scanf(\"%d %d %ld\", &t, &r, &s) == 3) {\n"
    "    cudaOccFuncAttributes a;\n"
    "    a.maxThreadsPerBlock = 1024; a.numRegs = r;\n"
    "    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN; a.maxDynamicSharedSizeBytes = 232448;\n"
    "    cudaOccDeviceState st; cudaOccResult res;\n"
    "    int e = cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &st, t, (size_t)s);\n"
    "    std::printf(\"%d %d %d\\n\", e, res.activeBlocksPerMultiprocessor,\n"
    "                res.limitingFactors);\n"
    "  }\n}\n";

static int limiter_bit(const char *name) {
  return !strcmp(name, "warps")           ? 1
         : !strcmp(name, "registers")     ? 2
         : !strcmp(name, "shared memory") ? 4
                                          : 8;
}

/* Every combination of a sweep, against the header's own function. */
Test(occupancy, matches_cuda_occupancy_h) {
  if (access("/usr/local/cuda/include/cuda_occupancy.h", R_OK))
    cr_skip_test("no /usr/local/cuda/include/cuda_occupancy.h");
  if (access("/usr/bin/c++", X_OK))
    cr_skip_test("no C++ compiler at /usr/bin/c++ for the cuda_occupancy.h helper");
  char dir[] = "/tmp/upk-occ-XXXXXX", cmd[512], path[128];
  cr_assert(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/occ.cpp", dir);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs(HELPER, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "/usr/bin/c++ -I/usr/local/cuda/include -o %s/occ %s 2>&1", dir, path);
  cr_assert_eq(system(cmd), 0, "the helper does not build");
  static const int threads[] = {1,   32,  33,  64,  96,  128, 160, 192,
                                256, 320, 384, 512, 640, 768, 1024};
  static const int regs[] = {0, 1, 16, 24, 32, 33, 40, 48, 64, 72, 96, 128, 168, 200, 255, 256};
  static const long smem[] = {0,     1,     1024,   8192,   16384,  40960,  48128,
                              49152, 65536, 100000, 150000, 200000, 232448, 232449};
  snprintf(path, sizeof path, "%s/in.txt", dir);
  f = fopen(path, "w");
  size_t n = 0;
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++)
    for (size_t j = 0; j < sizeof regs / sizeof *regs; j++)
      for (size_t k = 0; k < sizeof smem / sizeof *smem; k++, n++)
        fprintf(f, "%d %d %ld\n", threads[i], regs[j], smem[k]);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s/occ < %s/in.txt", dir, dir);
  FILE *p = popen(cmd, "r");
  cr_assert(p);
  size_t checked = 0;
  int t, r;
  long s;
  snprintf(path, sizeof path, "%s/in.txt", dir);
  FILE *in = fopen(path, "r");
  int err, blocks, bits;
  while (fscanf(in, "%d %d %ld", &t, &r, &s) == 3 &&
         fscanf(p, "%d %d %d", &err, &blocks, &bits) == 3) {
    upk_occupancy o;
    cr_assert_eq(upk_occupancy_sm90(t, r, s, &o), 0);
    cr_assert_eq(err, 0, "header error %d at %d %d %ld", err, t, r, s);
    cr_assert_eq(o.blocks_per_sm, blocks, "T=%d R=%d S=%ld: %d blocks, the header says %d", t, r, s,
                 o.blocks_per_sm, blocks);
    if (blocks > 0)
      cr_assert(bits & limiter_bit(o.limiter), "T=%d R=%d S=%ld: limiter %s, header bits %#x", t, r,
                s, o.limiter, bits);
    checked++;
  }
  fclose(in);
  pclose(p);
  cr_assert_eq(checked, n, "compared %zu of %zu", checked, n);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}
