/* The run's own device kernels without a GPU: the source compiles with the
 * real NVRTC for sm_90a, and its formula part, compiled here as C by the
 * host's compiler, gives bit for bit the values the host computes for a
 * report (upk_gen_value), for floats and integers, at any element index. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/run/devkernels.h"
#include "gpu/run/runcheck.h"
#include "gpu/compile/toolkit.h"

Test(kgen, source_compiles_with_nvrtc_for_h100) {
  const void *cubin = NULL, *again = NULL;
  char err[1024] = "";
  int rc = upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_90a", &cubin, err, sizeof err);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_not_null(cubin);
  cr_assert_eq(memcmp(cubin, "\177ELF", 4), 0, "a cubin is an ELF file");
  cr_assert_eq(upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_90a", &again, err, sizeof err), 0);
  cr_assert_eq(cubin, again, "cached for the process");
  /* krun asks for the device's plain sm_XY (sm_90 on an H100). */
  const char *archs[] = {"sm_90", "sm_80", "sm_100"};
  for (size_t i = 0; i < 3; i++)
    cr_assert_eq(upk_kgen_cubin(upk_cuda_default_path(NULL), archs[i], &again, err, sizeof err), 0,
                 "%s: %s", archs[i], err);
}

Test(kgen, unknown_arch_is_an_error_not_a_crash) {
  const void *cubin = NULL;
  char err[1024] = "";
  cr_assert_neq(upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_1", &cubin, err, sizeof err), 0);
  cr_assert(err[0], "the reason is given");
}

Test(kgen, host_generator_is_counter_based_and_deterministic) {
  upk_gen g;
  float a[1000], b[10];
  upk_gen_random(&g, UPK_DT_F32, 42, -1, 1);
  upk_gen_fill(a, UPK_DT_F32, 1000, &g);
  g.first = 500;
  upk_gen_fill(b, UPK_DT_F32, 10, &g);
  cr_assert_eq(memcmp(a + 500, b, sizeof b), 0, "element i depends on (seed, i) only");
  for (int i = 0; i < 1000; i++)
    cr_assert(a[i] >= -1 && a[i] < 1, "a[%d] = %g", i, a[i]);
  cr_assert_neq(a[0], a[1]);
  cr_assert_eq(upk_gen_bits(0, 0), 0xe220a8397b1dcdafull, "splitmix64's first output for seed 0");
  int32_t v[2000];
  upk_gen_random(&g, UPK_DT_I32, 7, 0, 100);
  upk_gen_fill(v, UPK_DT_I32, 2000, &g);
  int seen_lo = 0, seen_hi = 0;
  for (int i = 0; i < 2000; i++) {
    cr_assert(v[i] >= 0 && v[i] <= 100);
    seen_lo |= v[i] == 0, seen_hi |= v[i] == 100;
  }
  cr_assert(seen_lo && seen_hi, "both ends are drawn");
  upk_gen_value_of(&g, -0.0);
  cr_assert(signbit(upk_gen_value(&g, 12345)), "a value fill keeps -0");
}

/* The formula part of the device source, compiled as C: a program reading
 * one case a line ("g": a generated value, "f"/"n": a float/integer pair
 * compared, "c": an integer store, "h": a word's hash term) and printing the
 * bits of its answers. */
static const char MAIN[] =
    "int main(void) {\n"
    "  char op;\n"
    "  while (scanf(\" %c\", &op) == 1) {\n"
    "    unsigned long long seed, i, span; double lo, hi, g, e, atol, rtol, mabs = 0, mrel = 0;\n"
    "    long long gi, ei; int is_int, ok = 0; double v = 0; unsigned w;\n"
    "    if (op == 'h' && scanf(\"%u %llu\", &w, &i) == 2) {\n"
    "      printf(\"%llu\\n\", upk_hash_word(w, i));\n"
    "      continue;\n"
    "    }\n"
    "    if (op == 'g' && scanf(\"%llu %llu %la %la %llu %d\", &seed, &i, &lo, &hi, &span,\n"
    "                           &is_int) == 6)\n"
    "      v = upk_gen_value(seed, lo, hi, span, is_int, 0, i);\n"
    "    else if (op == 'f' && scanf(\"%la %la %la %la\", &g, &e, &atol, &rtol) == 4)\n"
    "      ok = upk_match_float(g, e, atol, rtol, &mabs, &mrel);\n"
    "    else if (op == 'n' && scanf(\"%lld %lld %la %la\", &gi, &ei, &atol, &rtol) == 4)\n"
    "      ok = upk_match_int(gi, ei, atol, rtol, &mabs, &mrel);\n"
    "    else if (op == 'c' && scanf(\"%la %la %la\", &v, &lo, &hi) == 3)\n"
    "      v = upk_int_value(v, lo, hi);\n"
    "    else return 1;\n"
    "    printf(\"%d %a %a %a\\n\", ok, v, mabs, mrel);\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

typedef struct kdir {
  char dir[32], bin[64], in[64], out[64];
  FILE *cases;
} kdir;

/* Build the program from upk_kgen_source with the host's C compiler. */
static void build_formula(kdir *d) {
  char src[64], cmd[512];
  snprintf(d->dir, sizeof d->dir, "/tmp/upk-kgen-XXXXXX");
  cr_assert_not_null(mkdtemp(d->dir));
  snprintf(src, sizeof src, "%s/f.c", d->dir);
  snprintf(d->bin, sizeof d->bin, "%s/f", d->dir);
  snprintf(d->in, sizeof d->in, "%s/in", d->dir);
  snprintf(d->out, sizeof d->out, "%s/out", d->dir);
  FILE *f = fopen(src, "w");
  cr_assert_not_null(f);
  fputs("#include <math.h>\n#include <stdio.h>\n", f);
  fputs(upk_kgen_source, f);
  fputs(MAIN, f);
  fclose(f);
  const char *cc = getenv("CC") ? getenv("CC") : "cc";
  snprintf(cmd, sizeof cmd, "%s -std=c11 -O2 -o %s %s -lm", cc, d->bin, src);
  cr_assert_eq(system(cmd), 0, "the formula part is valid C: %s", cmd);
  d->cases = fopen(d->in, "w");
  cr_assert_not_null(d->cases);
}

/* Run the cases written so far; the answers' file, open for reading. */
static FILE *run_formula(kdir *d) {
  char cmd[256];
  fclose(d->cases);
  snprintf(cmd, sizeof cmd, "%s < %s > %s", d->bin, d->in, d->out);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  FILE *f = fopen(d->out, "r");
  cr_assert_not_null(f);
  return f;
}

static void drop(kdir *d, FILE *f) {
  char cmd[64];
  fclose(f);
  snprintf(cmd, sizeof cmd, "rm -rf %s", d->dir);
  cr_assert_eq(system(cmd), 0);
}

Test(kgen, device_generator_formula_matches_the_host_bit_for_bit) {
  kdir d;
  build_formula(&d);
  upk_gen cases[5];
  upk_gen_random(&cases[0], UPK_DT_F32, 42, -1, 1);
  upk_gen_random(&cases[1], UPK_DT_F64, 0xFFFFFFFFFFFFFFFFull, -3.5, 1e9);
  upk_gen_random(&cases[2], UPK_DT_I32, 7, 0, 100);
  upk_gen_random(&cases[3], UPK_DT_I64, 9, -9.3e18, 9.3e18);
  upk_gen_random(&cases[4], UPK_DT_BF16, 1, 0, 1);
  const unsigned long long idx[] = {
      0, 1, 2, 77, 4095, 1000003, 67108863, 1610612735ull, (1ull << 40) + 3};
  const size_t n_idx = sizeof idx / sizeof *idx;
  for (int c = 0; c < 5; c++)
    for (size_t j = 0; j < n_idx; j++)
      fprintf(d.cases, "g %llu %llu %a %a %llu %d\n", (unsigned long long)cases[c].seed, idx[j],
              cases[c].lo, cases[c].hi, (unsigned long long)cases[c].span, cases[c].is_int);
  FILE *f = run_formula(&d);
  for (int c = 0; c < 5; c++)
    for (size_t j = 0; j < n_idx; j++) {
      int ok;
      double got, mabs, mrel, want = upk_gen_value(&cases[c], idx[j]);
      cr_assert_eq(fscanf(f, "%d %la %la %la", &ok, &got, &mabs, &mrel), 4);
      cr_assert(!memcmp(&got, &want, sizeof got), "case %d index %llu: device %a, host %a", c,
                idx[j], got, want);
    }
  drop(&d, f);
}

/* The device's per-element comparison against upk_compare, edge cases included. */
Test(kgen, device_comparison_matches_upk_compare) {
  kdir d;
  build_formula(&d);
  const double F[][4] = {{1, 1, 1e-4, 1e-4},          {1.0001, 1, 1e-4, 1e-4},
                         {1.00021, 1, 1e-4, 1e-4},    {NAN, NAN, 1e-4, 1e-4},
                         {NAN, 1, 1e-4, 1e-4},        {INFINITY, INFINITY, 0, 0},
                         {-INFINITY, INFINITY, 0, 0}, {0, 1e-6, 1e-2, 1e-2},
                         {3, 0, 1e-4, 1e-4},          {-2.5, -2.4999, 0, 1e-4}};
  const long long N[][2] = {{5, 5},
                            {5, 6},
                            {9007199254740993ll, 9007199254740992ll},
                            {-9223372036854775807ll - 1, 9223372036854775807ll},
                            {0, -3}};
  const size_t nf = sizeof F / sizeof *F, nn = sizeof N / sizeof *N;
  for (size_t i = 0; i < nf; i++)
    fprintf(d.cases, "f %a %a %a %a\n", F[i][0], F[i][1], F[i][2], F[i][3]);
  for (size_t i = 0; i < nn; i++)
    fprintf(d.cases, "n %lld %lld %a %a\n", N[i][0], N[i][1], 0.0, 0.0);
  FILE *f = run_formula(&d);
  for (size_t i = 0; i < nf + nn; i++) {
    int ok;
    double v, mabs, mrel;
    upk_cmp c;
    cr_assert_eq(fscanf(f, "%d %la %la %la", &ok, &v, &mabs, &mrel), 4);
    if (i < nf)
      upk_compare(&F[i][0], &F[i][1], UPK_DT_F64, 1, F[i][2], F[i][3], &c);
    else
      upk_compare(&N[i - nf][0], &N[i - nf][1], UPK_DT_I64, 1, 0, 0, &c);
    cr_assert_eq(ok, c.mismatches == 0, "case %zu: device %d, host %zu mismatches", i, ok,
                 c.mismatches);
    cr_assert(mabs == c.max_abs && mrel == c.max_rel, "case %zu: device %a %a, host %a %a", i, mabs,
              mrel, c.max_abs, c.max_rel);
  }
  drop(&d, f);
}

/* Integer stores: truncation toward zero and clamping, as upk_elem_set. */
Test(kgen, device_integer_store_matches_upk_elem_set) {
  kdir d;
  build_formula(&d);
  const double V[] = {3.7, -3.7, 300, -300, NAN, 1e30, -1e30, 2147483647.5, 255.9};
  const upk_dtype T[] = {UPK_DT_I8, UPK_DT_U8, UPK_DT_I32, UPK_DT_U32, UPK_DT_I64};
  const double LO[] = {-128.0, 0, -2147483648.0, 0, -9223372036854775808.0};
  const double HI[] = {127.0, 255.0, 2147483647.0, 4294967295.0, 9223372036854774784.0};
  const size_t nv = sizeof V / sizeof *V, nt = sizeof T / sizeof *T;
  for (size_t t = 0; t < nt; t++)
    for (size_t i = 0; i < nv; i++)
      fprintf(d.cases, "c %a %a %a\n", V[i], LO[t], HI[t]);
  FILE *f = run_formula(&d);
  for (size_t t = 0; t < nt; t++)
    for (size_t i = 0; i < nv; i++) {
      int ok;
      double got, mabs, mrel;
      uint64_t buf = 0;
      cr_assert_eq(fscanf(f, "%d %la %la %la", &ok, &got, &mabs, &mrel), 4);
      upk_elem_set(&buf, T[t], 0, V[i]);
      cr_assert_eq(got, upk_elem_get(&buf, T[t], 0), "%s of %g: device %g, host %g",
                   upk_dtype_name(T[t]), V[i], got, upk_elem_get(&buf, T[t], 0));
    }
  drop(&d, f);
}

/* The device hash's word term: a changed word always changes both 32-bit
 * lanes of the sum, and the same word elsewhere adds something else (a
 * kernel that moves or swaps words is seen). */
Test(kgen, hash_word_term_sees_every_changed_or_moved_word) {
  kdir d;
  build_formula(&d);
  enum { N = 2000 };
  unsigned w[N], w2[N];
  unsigned long long j[N];
  uint64_t x = 0x1234;
  for (int c = 0; c < N; c++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    w[c] = (unsigned)(x >> 32), w2[c] = w[c] ^ (1u << (c % 32));
    j[c] = c < N / 2 ? (unsigned long long)c : x >> (c % 40);
    fprintf(d.cases, "h %u %llu\nh %u %llu\nh %u %llu\n", w[c], j[c], w2[c], j[c], w[c], j[c] + 1);
  }
  FILE *f = run_formula(&d);
  for (int c = 0; c < N; c++) {
    unsigned long long a, b, moved;
    cr_assert_eq(fscanf(f, "%llu %llu %llu", &a, &b, &moved), 3);
    cr_assert((uint32_t)a != (uint32_t)b && a >> 32 != b >> 32, "word %u vs %u at %llu: %llx %llx",
              w[c], w2[c], j[c], a, b);
    cr_assert_neq(a, moved, "word %u at %llu and at the next index", w[c], j[c]);
  }
  drop(&d, f);
}
