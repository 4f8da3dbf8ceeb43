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

#include "kgen.h"
#include "runcheck.h"
#include "toolkit.h"

Test(kgen, source_compiles_with_nvrtc_for_h100) {
  const void *cubin = NULL, *again = NULL;
  char err[1024] = "";
  int rc = upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_90a", &cubin, err, sizeof err);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_not_null(cubin);
  cr_assert_eq(memcmp(cubin, "\177ELF", 4), 0, "a cubin is an ELF file");
  cr_assert_eq(upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_90a", &again, err, sizeof err), 0);
  cr_assert_eq(cubin, again, "cached for the process");
  cr_assert_eq(upk_kgen_cubin(upk_cuda_default_path(NULL), "sm_80", &again, err, sizeof err), 0,
               "%s", err);
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

/* The formula part of the device source, compiled as C, against the host. */
Test(kgen, device_formula_matches_the_host_bit_for_bit) {
  char dir[] = "/tmp/upk-kgen-XXXXXX", src[128], bin[128], cmd[512];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(src, sizeof src, "%s/f.c", dir);
  snprintf(bin, sizeof bin, "%s/f", dir);
  FILE *f = fopen(src, "w");
  cr_assert_not_null(f);
  fputs("#include <stdio.h>\n#include <string.h>\n", f);
  fputs(upk_kgen_source, f);
  fputs("int main(void) {\n"
        "  unsigned long long seed, i, span; double lo, hi; int is_int;\n"
        "  while (scanf(\"%llu %llu %la %la %llu %d\", &seed, &i, &lo, &hi, &span, &is_int) == 6) {\n"
        "    double v = upk_gen_value(seed, lo, hi, span, is_int, 0, i);\n"
        "    unsigned long long b; memcpy(&b, &v, 8);\n"
        "    printf(\"%016llx\\n\", b);\n"
        "  }\n"
        "  return 0;\n"
        "}\n",
        f);
  fclose(f);
  const char *cc = getenv("CC") ? getenv("CC") : "cc";
  snprintf(cmd, sizeof cmd, "%s -std=c11 -O2 -o %s %s", cc, bin, src);
  cr_assert_eq(system(cmd), 0, "the formula part is valid C: %s", cmd);
  /* Inputs: floats and integer ranges (i64's full span too), small and huge indices. */
  char in[128], out[128];
  snprintf(in, sizeof in, "%s/in", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  f = fopen(in, "w");
  upk_gen cases[5];
  upk_gen_random(&cases[0], UPK_DT_F32, 42, -1, 1);
  upk_gen_random(&cases[1], UPK_DT_F64, 0xFFFFFFFFFFFFFFFFull, -3.5, 1e9);
  upk_gen_random(&cases[2], UPK_DT_I32, 7, 0, 100);
  upk_gen_random(&cases[3], UPK_DT_I64, 9, -9.3e18, 9.3e18);
  upk_gen_random(&cases[4], UPK_DT_BF16, 1, 0, 1);
  const unsigned long long idx[] = {0, 1, 2, 77, 4095, 1000003, 67108863, 1610612735ull,
                                    (1ull << 40) + 3};
  for (int c = 0; c < 5; c++)
    for (size_t j = 0; j < sizeof idx / sizeof *idx; j++)
      fprintf(f, "%llu %llu %a %a %llu %d\n", (unsigned long long)cases[c].seed, idx[j],
              cases[c].lo, cases[c].hi, (unsigned long long)cases[c].span, cases[c].is_int);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s < %s > %s", bin, in, out);
  cr_assert_eq(system(cmd), 0);
  f = fopen(out, "r");
  for (int c = 0; c < 5; c++)
    for (size_t j = 0; j < sizeof idx / sizeof *idx; j++) {
      unsigned long long got = 0, want;
      double v = upk_gen_value(&cases[c], idx[j]);
      memcpy(&want, &v, 8);
      cr_assert_eq(fscanf(f, "%llx", &got), 1);
      cr_assert_eq(got, want, "case %d index %llu: device formula %llx, host %llx (%a)", c,
                   idx[j], got, want, v);
    }
  fclose(f);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}
