/* Launch sites read from source: each launch pattern of NVIDIA's cuda-samples
 * (matrixMul, reduction, histogram, transpose, vectorAdd, cudaTensorCoreGemm,
 * the cooperative and cudaLaunchKernelEx forms) on a kernel written here in that
 * pattern, and the input that must never give a wrong figure as known. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/compile/launches.h"

static upk_launches scan_d(const char *src, const char *const *defs, size_t nd) {
  upk_launches l;
  upk_launch_prelude pre = {.defines = defs, .n_defines = nd};
  cr_assert_eq(upk_launches_scan(src, strlen(src), &pre, &l), 0);
  return l;
}

static upk_launches scan(const char *src) {
  return scan_d(src, NULL, 0);
}

/* The launch at zero-based `line`. */
static const upk_launch *at_line(const upk_launches *l, int line) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].line == line)
      return &l->v[i];
  cr_assert_fail("no launch on line %d (%zu launches)", line, l->n);
  return NULL;
}

static void known(const upk_launch *l, int x, int y, int z, long smem) {
  cr_assert(l->block_known, "%s line %d: block unknown: %s", l->kernel, l->line,
            l->why ? l->why : "");
  cr_assert_eq(l->block[0], x, "%s line %d: x %d", l->kernel, l->line, l->block[0]);
  cr_assert_eq(l->block[1], y, "%s line %d: y %d", l->kernel, l->line, l->block[1]);
  cr_assert_eq(l->block[2], z, "%s line %d: z %d", l->kernel, l->line, l->block[2]);
  if (smem >= 0) {
    cr_assert(l->smem_known, "%s line %d: smem unknown: %s", l->kernel, l->line, l->why);
    cr_assert_eq(l->smem, smem, "%s line %d: smem %ld", l->kernel, l->line, l->smem);
  }
}

static void block_unknown(const upk_launch *l, const char *because) {
  cr_assert_not(l->block_known, "%s line %d: block known as %dx%dx%d", l->kernel, l->line,
                l->block[0], l->block[1], l->block[2]);
  cr_assert(l->why && strstr(l->why, because), "%s line %d: why '%s', want '%s'", l->kernel,
            l->line, l->why ? l->why : "(none)", because);
}

/* matrixMul: dim3 threads(block_size, block_size) of a parameter, launched in
 * if (block_size == 16) { K<16><<<grid, threads, 0, stream>>> } else { K<32>... }. */
Test(launches, matrixmul_pattern) {
  upk_launches l = scan("template <int BLOCK_SIZE> __global__ void MatMul(float *C) {}\n"
                        "int Multiply(int argc, int block_size, const dim3 &dimsA) {\n"
                        "  dim3 threads(block_size, block_size);\n"
                        "  dim3 grid(dimsA.x / threads.x, dimsA.y / threads.y);\n"
                        "  if (block_size == 16) {\n"
                        "    MatMul<16><<<grid, threads, 0, stream>>>(d_C);\n" /* 5 */
                        "  } else {\n"
                        "    MatMul<32><<<grid, threads, 0, stream>>>(d_C);\n" /* 7 */
                        "  }\n"
                        "  return 0;\n"
                        "}\n"
                        "int main() { int block_size = 32; Multiply(1, block_size, d); }\n");
  cr_assert_eq(l.n, 2);
  const upk_launch *a = at_line(&l, 5), *b = at_line(&l, 7);
  cr_assert_str_eq(a->kernel, "MatMul<16>");
  cr_assert_str_eq(a->via, "<<<>>>");
  cr_assert_eq(a->col, 4);
  known(a, 16, 16, 1, 0);
  cr_assert_str_eq(a->block_text, "threads");
  block_unknown(b, "block_size is a parameter");
  cr_assert(b->smem_known);
  upk_launches_free(&l);
}

/* reduction: switch (threads) { case 512: reduce4<T, 512><<<dimGrid, dimBlock, smemSize>>> };
 * shared memory from sizeof(T) is unknown, from sizeof(float) it is not. */
Test(launches, reduction_pattern) {
  upk_launches l = scan(
      "template <class T> void reduce(int size, int threads, T *d) {\n"
      "  dim3 dimBlock(threads, 1, 1);\n"
      "  int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);\n"
      "  int fsmem = (threads <= 32) ? 2 * threads * sizeof(float) : threads * sizeof(float);\n"
      "  switch (threads) {\n"
      "  case 512:\n"
      "    reduce4<T, 512><<<dimGrid, dimBlock, smemSize>>>(d, size);\n" /* 6 */
      "    break;\n"
      "  case 64: case 32:\n"
      "    reduce4<T, 32><<<dimGrid, dimBlock, fsmem>>>(d, size);\n" /* 9: two labels */
      "    break;\n"
      "  case 16:\n"
      "    reduce4<T, 16><<<dimGrid, dimBlock, fsmem>>>(d, size);\n" /* 12 */
      "  case 8:\n"
      "    reduce4<T, 8><<<dimGrid, dimBlock, fsmem>>>(d, size);\n" /* 14: falls through */
      "    break;\n"
      "  }\n"
      "  reduce0<T><<<dimGrid, dimBlock, fsmem>>>(d, size);\n" /* 17 */
      "}\n");
  cr_assert_eq(l.n, 5);
  const upk_launch *a = at_line(&l, 6);
  cr_assert_str_eq(a->kernel, "reduce4<T,512>");
  known(a, 512, 1, 1, -1);
  cr_assert_not(a->smem_known);
  cr_assert(strstr(a->why, "sizeof(T"), "%s", a->why);
  block_unknown(at_line(&l, 9), "threads is a parameter");
  known(at_line(&l, 12), 16, 1, 1, 128); /* (16 <= 32) ? 2 * 16 * 4 */
  block_unknown(at_line(&l, 14), "threads is a parameter");
  block_unknown(at_line(&l, 17), "threads is a parameter");
  upk_launches_free(&l);
}

/* histogram: block sizes from macros of macros in the file's own header (its code is not read,
 * an #if it leaves open ends with it). */
Test(launches, histogram_pattern) {
  const char *header = "#ifndef HIST_COMMON_H\n#define HIST_COMMON_H\n"
                       "#define LOG2_WARP_SIZE 5U\n"
                       "#define WARP_SIZE (1U << LOG2_WARP_SIZE)\n"
                       "#define WARP_COUNT 6\n"
                       "#define HIST_THREADBLOCK_SIZE (WARP_COUNT * WARP_SIZE)\n"
                       "const int MERGE_THREADBLOCK_SIZE = 64;\n"
                       "#endif\n#if 0\n";
  size_t hl = strlen(header);
  upk_launch_prelude pre = {.headers = &header, .header_lens = &hl, .n_headers = 1};
  const char *src = "#define MERGE_THREADBLOCK_SIZE 256\n"
                    "#define BIN_COUNT 256\n"
                    "void histogram256(uint *d_Hist, uint *d_Data, uint byteCount) {\n"
                    "  histogram256Kernel<<<PARTIAL_COUNT, HIST_THREADBLOCK_SIZE>>>(\n" /* 7 */
                    "      d_Partial, (uint *)d_Data, byteCount / sizeof(uint));\n"
                    "  mergeHistogram256Kernel<<<BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(\n"
                    "      d_Hist, d_Partial, PARTIAL_COUNT);\n"
                    "}\n";
  upk_launches l;
  cr_assert_eq(upk_launches_scan(src, strlen(src), &pre, &l), 0);
  cr_assert_eq(l.n, 2);
  known(at_line(&l, 3), 192, 1, 1, 0);
  cr_assert_str_eq(at_line(&l, 3)->kernel, "histogram256Kernel");
  known(at_line(&l, 5), 256, 1, 1, 0);
  upk_launches_free(&l);
  l = scan(src); /* without the header, its macros are not known */
  block_unknown(at_line(&l, 3), "HIST_THREADBLOCK_SIZE is not a constant");
  upk_launches_free(&l);
}

/* transpose: dim3 grid(...), threads(TILE_DIM, BLOCK_ROWS); a kernel through a pointer. */
Test(launches, transpose_pattern) {
  upk_launches l = scan("#define TILE_DIM 32\n"
                        "#define BLOCK_ROWS 16\n"
                        "int main(int argc, char **argv) {\n"
                        "  int size_x = 2048, size_y = 2048;\n"
                        "  dim3 grid(size_x / TILE_DIM, size_y / TILE_DIM), threads(TILE_DIM, "
                        "BLOCK_ROWS);\n"
                        "  void (*kernel)(float *, float *, int, int);\n"
                        "  for (int k = 0; k < 8; k++) {\n"
                        "    kernel = &copy;\n"
                        "    kernel<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);\n" /* 8 */
                        "  }\n"
                        "}\n");
  cr_assert_eq(l.n, 1);
  known(at_line(&l, 8), 32, 16, 1, 0);
  cr_assert_str_eq(at_line(&l, 8)->kernel, "kernel");
  upk_launches_free(&l);
}

/* vectorAdd: an int the file never changes; printf takes it by value. */
Test(launches, vectoradd_pattern) {
  upk_launches l =
      scan("int main(void) {\n"
           "  int numElements = 50000;\n"
           "  int threadsPerBlock = 256;\n"
           "  int blocksPerGrid = (numElements + threadsPerBlock - 1) / "
           "threadsPerBlock;\n"
           "  printf(\"%d blocks of %d threads\\n\", blocksPerGrid, threadsPerBlock);\n"
           "  vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, n);\n"
           "}\n");
  known(at_line(&l, 5), 256, 1, 1, 0);
  upk_launches_free(&l);
}

/* cudaTensorCoreGemm: THREADS_PER_BLOCK from macros; SHMEM_SZ an enum of MAX(...): unknown;
 * the same kernel through cudaLaunchKernel and cudaLaunchCooperativeKernel. */
Test(launches, tensorcore_gemm_pattern) {
  upk_launches l = scan(
      "#define WARP_SIZE 32\n"
      "#define WARPS_PER_BLOCK 8\n"
      "#define THREADS_PER_BLOCK (WARP_SIZE * WARPS_PER_BLOCK)\n"
      "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
      "int main() {\n"
      "  enum { SHMEM_SZ = MAX(sizeof(half) * 8 * 16 * 2, 16 * 16 * sizeof(float)) };\n"
      "  compute_gemm<<<sms, THREADS_PER_BLOCK, SHMEM_SZ>>>(A, B, C, D, alpha, beta);\n" /* 6 */
      "  constexpr size_t kSmem = 64 * 1024;\n"
      "  cudaLaunchKernel((void *)compute_gemm, dim3(sms), dim3(THREADS_PER_BLOCK), args, kSmem, "
      "0);\n" /* 8 */
      "  cudaLaunchCooperativeKernel((const void *)sync_k, grid, THREADS_PER_BLOCK / 2, args);\n"
      "}\n");
  cr_assert_eq(l.n, 3);
  const upk_launch *a = at_line(&l, 6);
  known(a, 256, 1, 1, -1);
  cr_assert_not(a->smem_known);
  cr_assert_str_eq(a->smem_text, "SHMEM_SZ");
  const upk_launch *b = at_line(&l, 8);
  cr_assert_str_eq(b->via, "cudaLaunchKernel");
  cr_assert_str_eq(b->kernel, "compute_gemm");
  known(b, 256, 1, 1, 65536);
  const upk_launch *c = at_line(&l, 9);
  cr_assert_str_eq(c->via, "cudaLaunchCooperativeKernel");
  cr_assert_str_eq(c->kernel, "sync_k");
  known(c, 128, 1, 1, 0);
  upk_launches_free(&l);
}

/* cudaLaunchKernelEx with a config whose members are assigned; one assigned twice is unknown. */
Test(launches, launch_kernel_ex_config) {
  upk_launches l = scan("void go() {\n"
                        "  cudaLaunchConfig_t config = {0};\n"
                        "  config.gridDim = dim3(132);\n"
                        "  config.blockDim = dim3(128, 2);\n"
                        "  config.dynamicSmemBytes = 2 * 4096;\n"
                        "  cudaLaunchKernelEx(&config, gemm_kernel, a, b);\n" /* 5 */
                        "  cudaLaunchConfig_t c2 = {grid, dim3(64), 512, stream};\n"
                        "  cudaLaunchKernelEx(&c2, other, a);\n" /* 7 */
                        "  for (int i = 0; i < 2; i++) {\n"
                        "    cudaLaunchKernelEx(&c3, third, a);\n" /* 9 */
                        "    c3.blockDim = dim3(64);\n"
                        "  }\n"
                        "  c3.blockDim = dim3(32);\n"
                        "}\n");
  cr_assert_eq(l.n, 3);
  known(at_line(&l, 5), 128, 2, 1, 8192);
  cr_assert_str_eq(at_line(&l, 5)->kernel, "gemm_kernel");
  known(at_line(&l, 7), 64, 1, 1, 512);
  cr_assert_not(at_line(&l, 9)->block_known);
  upk_launches_free(&l);
}

/* The request's -D wins over an #ifndef default; an #if the scan cannot decide is named. */
Test(launches, defines_and_conditionals) {
  static const char *const defs[] = {"BLOCK=128"};
  const char *src = "#ifndef BLOCK\n"
                    "#define BLOCK 256\n"
                    "#endif\n"
                    "#if 0\n"
                    "#define WIDE 1024\n"
                    "#else\n"
                    "#define WIDE 512\n"
                    "#endif\n"
                    "#ifdef _WIN32\n"
                    "#define ODD 64\n"
                    "#else\n"
                    "#define ODD 32\n"
                    "#endif\n"
                    "void f() {\n"
                    "  k<<<1, BLOCK>>>();\n" /* 14 */
                    "  k<<<1, WIDE>>>();\n"
                    "  k<<<1, ODD>>>();\n"
                    "#if USE_BIG\n"
                    "  k<<<1, 1024>>>();\n" /* 18 */
                    "#endif\n"
                    "}\n";
  upk_launches l = scan_d(src, defs, 1);
  known(at_line(&l, 14), 128, 1, 1, 0);
  known(at_line(&l, 15), 512, 1, 1, 0);
  block_unknown(at_line(&l, 16), "ODD is defined under an #if");
  known(at_line(&l, 18), 1024, 1, 1, 0);
  cr_assert_eq(at_line(&l, 18)->cond_line, 17);
  cr_assert_eq(at_line(&l, 14)->cond_line, -1);
  upk_launches_free(&l);
  l = scan(src);
  known(at_line(&l, 14), 256, 1, 1, 0);
  upk_launches_free(&l);
}

/* Never a wrong figure as known: changed variables, loops, shadowing, lambdas, templates. */
Test(launches, unknown_is_unknown) {
  upk_launches l = scan("const int N = 256;\n"
                        "template <int BS = 128> void t() { k<<<1, BS>>>(); }\n" /* 1 */
                        "void a(int n) {\n"
                        "  int threads = 32;\n"
                        "  for (int i = 0; i < 3; i++) {\n"
                        "    k<<<1, threads>>>();\n" /* 5: doubled below, in the loop */
                        "    threads *= 2;\n"
                        "  }\n"
                        "  int m = 64;\n"
                        "  get(&m);\n"
                        "  k<<<1, m>>>();\n"                          /* 10 */
                        "  auto f = [&](int N) { k<<<1, N>>>(); };\n" /* 11: the lambda's N */
                        "  k<<<1, N>>>();\n"                          /* 12: the global */
                        "  int q = 64;\n"
                        "  setup(q);\n"                             /* may take it by reference */
                        "  k<<<1, q>>>();\n"                        /* 15 */
                        "  k<<<1, dim3(8, 8, 8), 0>>>();\n"         /* 16 */
                        "  k<<<1, 64, min(a, b)>>>();\n"            /* 17 */
                        "  if (n == 4) { n = 8; k<<<1, n>>>(); }\n" /* 18 */
                        "  Outer<Inner<2>, 3><<<1, 96>>>();\n"      /* 19 */
                        "}\n");
  cr_assert_eq(l.n, 10);
  block_unknown(at_line(&l, 1), "BS is a template parameter");
  block_unknown(at_line(&l, 5), "threads is changed");
  block_unknown(at_line(&l, 10), "m is changed");
  block_unknown(at_line(&l, 11), "N is a parameter");
  known(at_line(&l, 12), 256, 1, 1, 0);
  block_unknown(at_line(&l, 15), "q is changed");
  known(at_line(&l, 16), 8, 8, 8, 0);
  cr_assert_not(at_line(&l, 17)->smem_known);
  block_unknown(at_line(&l, 18), "n is a parameter");
  known(at_line(&l, 19), 96, 1, 1, 0);
  cr_assert_str_eq(at_line(&l, 19)->kernel, "Outer<Inner<2>,3>");
  upk_launches_free(&l);
}

/* Macros of macros that double at each level, a self-referent macro, 500 launches, and garbage:
 * bounded time, unknown where it cannot follow. */
Test(launches, hostile_input_is_bounded) {
  char *src = malloc(1 << 20);
  size_t n = 0;
  n += (size_t)sprintf(src + n, "#define M0 1\n");
  for (int i = 1; i < 40; i++)
    n += (size_t)sprintf(src + n, "#define M%d (M%d + M%d)\n", i, i - 1, i - 1);
  n += (size_t)sprintf(src + n, "#define SELF (SELF + 1)\n#define A B\n#define B A\n");
  n += (size_t)sprintf(src + n, "void f() {\n  k<<<1, M39>>>();\n  k<<<1, SELF>>>();\n"
                                "  k<<<1, A>>>();\n  k<<<1, M7>>>();\n");
  for (int i = 0; i < 500; i++)
    n += (size_t)sprintf(src + n, "  k%d<<<grid, dim3(%d, 2), %d * sizeof(float)>>>(x);\n", i,
                         i % 512 + 1, i);
  n += (size_t)sprintf(src + n, "  k<<<1, ");
  for (int i = 0; i < 100000; i++) /* deep enough to overflow a stack if followed */
    src[n++] = i % 2 ? '(' : '-';
  n += (size_t)sprintf(src + n, "1>>>();\n");
  n += (size_t)sprintf(src + n, "}\n<<< >>> <<<,,, >>> cudaLaunchKernel( ( ) <<<");
  clock_t t0 = clock();
  upk_launches l = scan(src);
  double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
  cr_assert_lt(s, 2.0, "took %.2f s", s);
  cr_assert_geq(l.n, 504);
  cr_assert_not(l.v[0].block_known);
  cr_assert_not(l.v[1].block_known);
  cr_assert_not(l.v[2].block_known);
  known(&l.v[3], 128, 1, 1, 0);
  known(&l.v[4 + 499], 500, 2, 1, 499 * 4);
  cr_assert_not(l.v[504].block_known, "100000 nested parentheses: %s", l.v[504].why);
  upk_launches_free(&l);
  free(src);
}

Test(launches, matching_compiled_names) {
  cr_assert(upk_launch_matches("reduce4<T,512>", "void reduce4<int, 512u>"));
  cr_assert_not(upk_launch_matches("reduce4<T,512>", "void reduce4<int, 256u>"));
  cr_assert(upk_launch_matches("reduce4", "void reduce4<int, 256u>"));
  cr_assert(upk_launch_matches("MatMul<16>", "void MatMul<16>"));
  cr_assert_not(upk_launch_matches("MatMul<16>", "void MatMul<32>"));
  cr_assert(upk_launch_matches("reduce6<float,64,true>", "void reduce6<float, 64u, true>"));
  cr_assert_not(upk_launch_matches("reduce6<float,64,true>", "void reduce6<double, 64u, true>"));
  cr_assert(upk_launch_matches("ns::saxpy", "saxpy"));
  cr_assert_not(upk_launch_matches("saxpy", "saxpy2"));
}
