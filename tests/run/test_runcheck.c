/* Host-side runtime checks: half conversions, PRNG, poison, hashing,
 * tolerance, statistics and sanitizer-report parsing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/run/runcheck.h"

Test(half, f16_known_values) {
  cr_assert_eq(upk_f32_to_f16(1.0f), 0x3C00);
  cr_assert_eq(upk_f32_to_f16(-2.0f), 0xC000);
  cr_assert_eq(upk_f32_to_f16(0.1f), 0x2E66);
  cr_assert_eq(upk_f32_to_f16(65504.0f), 0x7BFF);
  cr_assert_eq(upk_f32_to_f16(65519.0f), 0x7BFF, "below the midpoint stays finite");
  cr_assert_eq(upk_f32_to_f16(65520.0f), 0x7C00, "the midpoint ties to even: infinity");
  cr_assert_eq(upk_f32_to_f16(INFINITY), 0x7C00);
  cr_assert_eq(upk_f32_to_f16(-0.0f), 0x8000);
  cr_assert_eq(upk_f32_to_f16(ldexpf(1, -24)), 0x0001, "smallest subnormal");
  cr_assert_eq(upk_f32_to_f16(ldexpf(1, -25)), 0x0000, "half a unit ties to even (0)");
  cr_assert_eq(upk_f32_to_f16(ldexpf(3, -25)), 0x0002, "1.5 units ties to even (2)");
  cr_assert_eq(upk_f32_to_f16(ldexpf(5, -25)), 0x0002, "2.5 units ties to even (2)");
  cr_assert_eq(upk_f32_to_f16(ldexpf(1, -14)), 0x0400, "smallest normal");
  cr_assert_eq(upk_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3C00, "tie rounds to even mantissa");
  cr_assert_eq(upk_f32_to_f16(1.0f + ldexpf(3, -11)), 0x3C02, "tie rounds up to even mantissa");
  uint16_t nan = upk_f32_to_f16(NAN);
  cr_assert((nan & 0x7C00) == 0x7C00 && (nan & 0x3FF), "NaN stays NaN: %#x", nan);
}

Test(half, f16_round_trip_every_value) {
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = upk_f16_to_f32((uint16_t)h);
    if (isnan(f))
      continue;
    cr_assert_eq(upk_f32_to_f16(f), h, "%#x -> %g -> %#x", h, f, upk_f32_to_f16(f));
  }
  cr_assert_float_eq(upk_f16_to_f32(0x0001), ldexpf(1, -24), 0);
  cr_assert(isinf(upk_f16_to_f32(0xFC00)) && upk_f16_to_f32(0xFC00) < 0);
}

#ifdef __FLT16_MAX__
/* The compiler's own conversion is IEEE round-to-nearest-even: an oracle. */
Test(half, f16_matches_compiler_on_random_floats) {
  upk_rng r;
  upk_rng_seed(&r, 7);
  for (int i = 0; i < 200000; i++) {
    uint32_t bits = (uint32_t)upk_rng_next(&r);
    float f;
    memcpy(&f, &bits, sizeof f);
    if (isnan(f))
      continue;
    _Float16 h = (_Float16)f;
    uint16_t want;
    memcpy(&want, &h, sizeof want);
    cr_assert_eq(upk_f32_to_f16(f), want, "%a: got %#x want %#x", f, upk_f32_to_f16(f), want);
  }
}
#endif

Test(half, bf16_known_values_and_round_trip) {
  cr_assert_eq(upk_f32_to_bf16(1.0f), 0x3F80);
  cr_assert_eq(upk_f32_to_bf16(1.0f + ldexpf(1, -8)), 0x3F80, "tie to even");
  cr_assert_eq(upk_f32_to_bf16(1.0f + ldexpf(3, -8)), 0x3F82, "tie to even, upward");
  cr_assert_eq(upk_f32_to_bf16(1.0f + ldexpf(1, -8) + ldexpf(1, -20)), 0x3F81, "above the tie");
  cr_assert_eq(upk_f32_to_bf16(3.4028235e38f), 0x7F80, "FLT_MAX rounds to infinity");
  cr_assert_eq(upk_f32_to_bf16(-INFINITY), 0xFF80);
  uint16_t nan = upk_f32_to_bf16(NAN);
  cr_assert((nan & 0x7F80) == 0x7F80 && (nan & 0x7F), "NaN stays NaN: %#x", nan);
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = upk_bf16_to_f32((uint16_t)h);
    if (!isnan(f))
      cr_assert_eq(upk_f32_to_bf16(f), h);
  }
}

Test(dtype, parse_size_and_range) {
  upk_dtype t;
  cr_assert_eq(upk_dtype_parse("bf16", &t), 0);
  cr_assert_eq(t, UPK_DT_BF16);
  cr_assert_eq(upk_dtype_size(t), 2);
  cr_assert_lt(upk_dtype_parse("f8", &t), 0);
  cr_assert(upk_dtype_holds(UPK_DT_U8, 255) && !upk_dtype_holds(UPK_DT_U8, 256));
  cr_assert(!upk_dtype_holds(UPK_DT_I32, 1.5) && upk_dtype_holds(UPK_DT_F32, 1.5));
  int8_t b[1];
  upk_elem_set(b, UPK_DT_I8, 0, 1000.0);
  cr_assert_eq(b[0], 127, "integers clamp instead of wrapping");
}

Test(rng, xoshiro_reference_values) {
  upk_rng r;
  upk_rng_seed(&r, 0);
  cr_assert_eq(upk_rng_next(&r), 0x99ec5f36cb75f2b4ull);
  cr_assert_eq(upk_rng_next(&r), 0xbf6e1f784956452aull);
  upk_rng_seed(&r, 42);
  cr_assert_eq(upk_rng_next(&r), 0x15780b2e0c2ec716ull);
}

Test(rng, fill_random_is_seeded_and_in_range) {
  float a[1000], b[1000], c[1000];
  upk_fill_random(a, UPK_DT_F32, 1000, 5, -2, 3);
  upk_fill_random(b, UPK_DT_F32, 1000, 5, -2, 3);
  upk_fill_random(c, UPK_DT_F32, 1000, upk_trial_seed(5, 1), -2, 3);
  cr_assert_eq(memcmp(a, b, sizeof a), 0, "same seed, same numbers");
  cr_assert_neq(memcmp(a, c, sizeof a), 0, "the next trial gets fresh numbers");
  cr_assert_eq(upk_trial_seed(5, 0), 5);
  for (int i = 0; i < 1000; i++)
    cr_assert(a[i] >= -2 && a[i] < 3);
  int32_t n[1000];
  int seen[4] = {0};
  upk_fill_random(n, UPK_DT_I32, 1000, 9, 1, 3);
  for (int i = 0; i < 1000; i++) {
    cr_assert(n[i] >= 1 && n[i] <= 3, "integers in [low, high]: %d", n[i]);
    seen[n[i]]++;
  }
  cr_assert(seen[1] && seen[2] && seen[3], "both ends are reachable");
}

Test(poison, unwritten_elements_are_found) {
  float a[8], b[8];
  upk_poison(a, UPK_DT_F32, 8, 0);
  upk_poison(b, UPK_DT_F32, 8, 1);
  cr_assert(isnan(a[0]) && isnan(b[0]), "both patterns are NaN for floats");
  for (int i = 0; i < 8; i++)
    if (i != 3 && i != 6)
      a[i] = b[i] = (float)i;
  size_t first;
  cr_assert_eq(upk_unwritten(a, b, UPK_DT_F32, 8, &first), 2);
  cr_assert_eq(first, 3);
}

Test(poison, half_patterns_are_nan_and_ints_are_exact) {
  uint16_t h[2], bf[2];
  upk_poison(h, UPK_DT_F16, 2, 1);
  upk_poison(bf, UPK_DT_BF16, 2, 0);
  cr_assert(isnan(upk_f16_to_f32(h[0])) && isnan(upk_bf16_to_f32(bf[0])));
  /* -1 is a legitimate result equal to pattern A: written in both runs, not reported. */
  int32_t a[4], b[4];
  upk_poison(a, UPK_DT_I32, 4, 0);
  upk_poison(b, UPK_DT_I32, 4, 1);
  a[0] = b[0] = -1;
  a[1] = b[1] = 7;
  size_t first;
  cr_assert_eq(upk_unwritten(a, b, UPK_DT_I32, 4, &first), 2);
  cr_assert_eq(first, 2);
}

Test(hash, sha256_known_digest_and_change) {
  unsigned char d[32], e[32];
  static const unsigned char abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                        0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                        0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  cr_assert_eq(upk_sha256("abc", 3, d), 0);
  cr_assert_eq(memcmp(d, abc, 32), 0);
  float x[4] = {1, 2, 3, 4};
  upk_sha256(x, sizeof x, d);
  x[2] = 0;
  upk_sha256(x, sizeof x, e);
  cr_assert_neq(memcmp(d, e, 32), 0, "a written input changes the hash");
}

Test(compare, tolerance_and_first_mismatch) {
  float exp[4] = {1, 100, -3, 0}, got[4] = {1.00005f, 100.009f, -3.5f, 0};
  upk_cmp c;
  upk_compare(got, exp, UPK_DT_F32, 4, 1e-4, 1e-4, &c);
  cr_assert_eq(c.mismatches, 1, "only -3.5 vs -3 is beyond atol + rtol*|exp|");
  cr_assert_eq(c.first, 2);
  cr_assert_float_eq(c.first_got, -3.5, 1e-9);
  cr_assert_float_eq(c.first_expected, -3, 1e-9);
  cr_assert_float_eq(c.max_abs, 0.5, 1e-6);
  cr_assert_float_eq(c.max_rel, 0.5 / 3, 1e-6);
  upk_compare(got, exp, UPK_DT_F32, 4, 0.6, 0, &c);
  cr_assert_eq(c.mismatches, 0);
  cr_assert_eq(c.first, SIZE_MAX);
}

Test(compare, nan_inf_and_integers) {
  float exp[3] = {NAN, INFINITY, 1}, got[3] = {NAN, INFINITY, NAN};
  upk_cmp c;
  upk_compare(got, exp, UPK_DT_F32, 3, 1, 1, &c);
  cr_assert_eq(c.mismatches, 1, "NaN matches NaN, inf matches inf, NaN never matches 1");
  cr_assert_eq(c.first, 2);
  got[1] = -INFINITY;
  upk_compare(got, exp, UPK_DT_F32, 3, 1, 1, &c);
  cr_assert_eq(c.mismatches, 2);
  int64_t ia[2] = {INT64_MAX, 5}, ib[2] = {INT64_MAX - 1, 5};
  upk_compare(ia, ib, UPK_DT_I64, 2, 0, 0, &c);
  cr_assert_eq(c.mismatches, 1, "integers compare exactly, beyond double precision");
}

Test(compare, half_outputs_use_their_values) {
  uint16_t got[2], exp[2];
  got[0] = upk_f32_to_f16(1.0f), exp[0] = upk_f32_to_f16(1.0f);
  got[1] = upk_f32_to_f16(2.01f), exp[1] = upk_f32_to_f16(2.0f);
  upk_cmp c;
  upk_compare(got, exp, UPK_DT_F16, 2, 1e-2, 1e-2, &c);
  cr_assert_eq(c.mismatches, 0, "2.01 is within 1e-2 + 1e-2*2 of 2");
  cr_assert_gt(c.max_abs, 0);
}

Test(checks, constant_max_abs_first_diff) {
  float z[4] = {0, 0, 0, 0}, v[4] = {0, 1e-6f, -2e-6f, 0};
  cr_assert(upk_is_constant(z, UPK_DT_F32, 4));
  cr_assert(!upk_is_constant(v, UPK_DT_F32, 4));
  cr_assert_float_eq(upk_max_abs(v, UPK_DT_F32, 4), 2e-6, 1e-12);
  cr_assert_eq(upk_first_diff(z, v, UPK_DT_F32, 4), 1);
  cr_assert_eq(upk_first_diff(z, z, UPK_DT_F32, 4), SIZE_MAX);
}

Test(stats, median_min_max_mean_stddev) {
  double odd[5] = {5, 1, 4, 2, 3}, even[4] = {4, 1, 3, 2};
  upk_stats s;
  cr_assert_eq(upk_stats_of(odd, 5, &s), 0);
  cr_assert_float_eq(s.median, 3, 0);
  cr_assert_float_eq(s.min, 1, 0);
  cr_assert_float_eq(s.max, 5, 0);
  cr_assert_float_eq(s.mean, 3, 1e-12);
  cr_assert_float_eq(s.stddev, sqrt(2.0), 1e-12);
  cr_assert_eq(upk_stats_of(even, 4, &s), 0);
  cr_assert_float_eq(s.median, 2.5, 0);
  cr_assert_eq(odd[0], 5, "the samples are not reordered");
  cr_assert_eq(upk_stats_of(odd, 0, &s), -EINVAL);
}

static const char MEMCHECK[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at oob(float *, int)+0x70 in /work/k/kernel.cu:7\n"
    "=========     by thread (255,0,0) in block (3,0,0)\n"
    "=========     Address 0x7f3a1e000400 is out of bounds\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: cuLaunchKernel [0x2fe5b5] in libcuda.so.1\n"
    "=========\n"
    "program output line\n"
    "========= Program hit CUDA_ERROR_LAUNCH_FAILED (error 719) due to \"unspecified launch "
    "failure\" on CUDA API call to cuEventSynchronize.\n"
    "========= ERROR SUMMARY: 2 errors\n";

Test(sanitizer, memcheck_report_becomes_diagnostics) {
  upk_diags d = {0};
  cr_assert_eq(upk_sanitizer_parse(MEMCHECK, "memcheck", "/work/k/kernel.cu", &d), 2);
  cr_assert_str_eq(d.items[0].code, "run/sanitizer");
  cr_assert_eq(d.items[0].range.line, 6, "kernel.cu:7 is zero-based line 6");
  cr_assert(strstr(d.items[0].message, "Invalid __global__ write of size 4 bytes"));
  cr_assert(strstr(d.items[0].message, "block (3,0,0)"));
  cr_assert_null(strstr(d.items[0].message, "Host Frame"), "host backtraces are dropped");
  cr_assert(strstr(d.items[1].message, "CUDA_ERROR_LAUNCH_FAILED"));
  upk_diags_free(&d);
}

Test(sanitizer, racecheck_line_in_header_and_clean_report) {
  upk_diags d = {0};
  const char *race = "========= Error: Race reported between Write access at reduce+0x1a0 in "
                     "kernel.cu:12\n=========     and Read access at reduce+0x1c0 in kernel.cu:14 "
                     "[124 hazards]\n========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 "
                     "warnings)\n";
  cr_assert_eq(upk_sanitizer_parse(race, "racecheck", "kernel.cu", &d), 1);
  cr_assert_eq(d.items[0].range.line, 11);
  cr_assert(strstr(d.items[0].message, "racecheck: Error: Race reported"));
  upk_diags_free(&d);
  cr_assert_eq(upk_sanitizer_parse("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 "
                                   "errors\n",
                                   "memcheck", "kernel.cu", &d),
               0);
  cr_assert_eq(d.len, 0);
}

/* Guard zones on host memory: the same scan krun runs on the zones it
 * copies back after each launch. */
Test(guard, intact_zone_reports_nothing) {
  unsigned char z[4096];
  upk_guard_hit h;
  memset(z, UPK_GUARD_A, sizeof z);
  cr_assert_not(upk_guard_scan(z, sizeof z, UPK_GUARD_A, 4, true, &h));
  cr_assert_eq(h.bytes, 0);
  cr_assert_eq(h.elems, 0);
  cr_assert_not(upk_guard_scan(z, sizeof z, UPK_GUARD_B, 4, true, &h) == false,
                "the other sentinel is a change everywhere");
  cr_assert_eq(h.elems, 1024);
}

Test(guard, floats_past_the_end_are_counted_from_the_edge) {
  /* n = 1,000,003 rounded up to whole blocks: 253 floats written past the end. */
  float z[UPK_GUARD_BYTES / sizeof(float)];
  upk_guard_hit h;
  memset(z, UPK_GUARD_A, sizeof z);
  for (int i = 0; i < 253; i++)
    z[i] = 2.0f * (float)i + 1.0f;
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_A, sizeof(float), true, &h));
  cr_assert_eq(h.elems, 253);
  cr_assert_eq(h.near, 1, "the first element past the end");
  cr_assert_eq(h.far, 253);
  /* 463.0f is 0x43E78000: one of its bytes happens to equal the sentinel. */
  cr_assert_eq(h.bytes, 253 * 4 - 1);
}

Test(guard, one_byte_changed_far_out_names_its_element) {
  unsigned char z[1024];
  upk_guard_hit h;
  memset(z, UPK_GUARD_B, sizeof z);
  z[403] = 0; /* byte 3 of element 100 (0-based) past the end: distance 101 */
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_B, 4, true, &h));
  cr_assert_eq(h.bytes, 1);
  cr_assert_eq(h.elems, 1);
  cr_assert_eq(h.near, 101);
  cr_assert_eq(h.far, 101);
}

Test(guard, writes_before_the_start_count_backwards) {
  unsigned char z[1024];
  upk_guard_hit h;
  memset(z, UPK_GUARD_A, sizeof z);
  memset(z + 1024 - 8, 0, 8);  /* y[-1] and y[-2] of a float buffer */
  memset(z + 1024 - 40, 1, 4); /* y[-10] */
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_A, 4, false, &h));
  cr_assert_eq(h.elems, 3);
  cr_assert_eq(h.near, 1);
  cr_assert_eq(h.far, 10);
  cr_assert_eq(h.bytes, 12);
}

Test(guard, a_value_equal_to_the_sentinel_is_seen_with_the_other_one) {
  /* A write of 0xE7E7E7E7 hides in zone A; zone B (0x18) shows it. */
  uint32_t z[64];
  upk_guard_hit h;
  memset(z, UPK_GUARD_A, sizeof z);
  z[5] = 0xE7E7E7E7u;
  cr_assert_not(upk_guard_scan(z, sizeof z, UPK_GUARD_A, 4, true, &h));
  memset(z, UPK_GUARD_B, sizeof z);
  z[5] = 0xE7E7E7E7u;
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_B, 4, true, &h));
  cr_assert_eq(h.near, 6);
  cr_assert_neq(UPK_GUARD_A, UPK_GUARD_B);
}

Test(guard, double_elements_and_zero_size) {
  unsigned char z[256];
  upk_guard_hit h;
  memset(z, UPK_GUARD_A, sizeof z);
  z[16] = 0; /* element 2 of a double buffer past the end: distance 3 */
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_A, 8, true, &h));
  cr_assert_eq(h.near, 3);
  cr_assert(upk_guard_scan(z, sizeof z, UPK_GUARD_A, 0, true, &h), "size 0 is bytes");
  cr_assert_eq(h.near, 17);
}
