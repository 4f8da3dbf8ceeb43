/** Runtime checks of a kernel's buffers, on the host: element types,
 * f16/bf16 conversion, seeded random fills, NaN poison and the "never
 * written" test, input hashing, tolerance comparison, constant-output and
 * determinism checks, timing statistics, and compute-sanitizer report
 * parsing, guard-zone scans. Pure functions (no CUDA, no JSON). The run op runs
 * the buffer checks on the device (devkernels.h: the same rules, one pass per
 * buffer) and uses these for what it copies back: guard zones, the elements
 * a report quotes, the host side of the generator.
 *
 * Why two poison patterns: an output buffer is filled with pattern A
 * before the first run and pattern B before the second; an element still
 * holding A after run one and B after run two was never written. A kernel
 * that legitimately writes a value equal to a pattern writes the same value
 * both times, so it is never reported (this matters for integer outputs,
 * where every bit pattern is a valid value). Pattern A is all 0xFF bytes, so
 * the device fills it with one cuMemsetD8 (NaN for every float type). */
#ifndef UPK_GPU_RUNCHECK_H
#define UPK_GPU_RUNCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "common/sha256.h" /* upk_sha256 for input hashes */

/** Element types of kernel arguments. */
typedef enum upk_dtype {
  UPK_DT_F32,
  UPK_DT_F16,
  UPK_DT_BF16,
  UPK_DT_F64,
  UPK_DT_I8,
  UPK_DT_I32,
  UPK_DT_I64,
  UPK_DT_U8,
  UPK_DT_U32,
  UPK_DT_COUNT
} upk_dtype;

/** "f32, f16, bf16, f64, i8, i32, i64, u8, u32" (for messages). */
#define UPK_DTYPE_NAMES "f32, f16, bf16, f64, i8, i32, i64, u8, u32"

/** Bytes per element. */
size_t upk_dtype_size(upk_dtype t);
/** "f32", ... */
const char *upk_dtype_name(upk_dtype t);
/** Parse a dtype name; returns 0 or -EINVAL. */
int upk_dtype_parse(const char *s, upk_dtype *out);
bool upk_dtype_is_float(upk_dtype t);
/** Whether `v` is representable in an integer dtype (integral and in range);
 * always true for float dtypes. */
bool upk_dtype_holds(upk_dtype t, double v);

/** IEEE binary16 / bfloat16 from float, round to nearest, ties to even
 * (NaN stays NaN, overflow goes to infinity). */
uint16_t upk_f32_to_f16(float f);
float upk_f16_to_f32(uint16_t h);
uint16_t upk_f32_to_bf16(float f);
float upk_bf16_to_f32(uint16_t h);

/** Element i as a double / store a double into element i (rounded to the
 * dtype: RNE for halves, truncation toward zero for integers). */
double upk_elem_get(const void *buf, upk_dtype t, size_t i);
void upk_elem_set(void *buf, upk_dtype t, size_t i, double v);

/** The pseudo-random generator: xoshiro256** seeded through splitmix64
 * (Blackman & Vigna), so a seed gives the same numbers on every machine. */
typedef struct upk_rng {
  uint64_t s[4];
} upk_rng;
void upk_rng_seed(upk_rng *r, uint64_t seed);
uint64_t upk_rng_next(upk_rng *r);
/** Uniform double in [0, 1) with 53 random bits. */
double upk_rng_unit(upk_rng *r);
/** The seed of trial `trial` (0-based) for a buffer seeded `seed`: trial 0
 * uses `seed` itself, later trials a splitmix64 mix of both. */
uint64_t upk_trial_seed(uint64_t seed, unsigned trial);

/** A buffer's fill, counter-based: element i is a function of (seed, i)
 * alone, so the device fills it in one pass (devkernels.h) and the host computes
 * any one element for a report. The same formula is in devkernels.c's source. */
typedef struct upk_gen {
  uint64_t seed;
  double lo, hi; /* floats: [lo, hi); integers: lo = ceil(low) */
  uint64_t span; /* integers: lo .. lo + span - 1 (0: all 2^64 values) */
  bool is_int;
  bool constant;  /* every element is lo (init.value) */
  uint64_t first; /* the buffer index of the first element a fill writes */
} upk_gen;
/** Random floats in [low, high) or integers in [ceil(low), floor(high)]. */
void upk_gen_random(upk_gen *g, upk_dtype t, uint64_t seed, double low, double high);
/** Every element `v`. */
void upk_gen_value_of(upk_gen *g, double v);
/** splitmix64 at position i: the 64 random bits of element i. */
uint64_t upk_gen_bits(uint64_t seed, uint64_t i);
/** Element i's value before rounding to the dtype (upk_elem_set rounds). */
double upk_gen_value(const upk_gen *g, uint64_t i);
/** Elements g->first .. g->first + count - 1 into buf[0 .. count - 1]. */
void upk_gen_fill(void *buf, upk_dtype t, size_t count, const upk_gen *g);

/** Fill with uniform values: floats in [low, high), integers in
 * [ceil(low), floor(high)] inclusive (upk_gen_random from element 0). */
void upk_fill_random(void *buf, upk_dtype t, size_t count, uint64_t seed, double low, double high);
/** Fill every element with `v` (rounded to the dtype). */
void upk_fill_value(void *buf, upk_dtype t, size_t count, double v);

/** Poison pattern 0 (A: all 0xFF bytes) or 1 (B: a NaN with payload 0xA5.. for
 * floats, 0xA5 bytes for integers). */
void upk_poison(void *buf, upk_dtype t, size_t count, int pattern);
/** Elements holding pattern A in `run_a` and pattern B in `run_b` (never
 * written by the kernel); `*first` is the first such index (SIZE_MAX: none). */
size_t upk_unwritten(const void *run_a, const void *run_b, upk_dtype t, size_t count,
                     size_t *first);

/** Guard zones: every device buffer sits between two zones of
 * UPK_GUARD_BYTES filled with a sentinel byte, checked after each launch,
 * so a write past either end is caught without a sanitizer (reads stay
 * memcheck's job). 64 KiB holds 16384 floats of overrun. */
#define UPK_GUARD_BYTES ((size_t)64 << 10)
/** The sentinels: launch A's guards hold one, launch B's the other, so a
 * stray write of one sentinel's value is still seen in the other launch. */
#define UPK_GUARD_A 0xE7
#define UPK_GUARD_B 0x18

/** What a guard zone scan found. Distances are in elements from the
 * buffer's edge, 1-based: 1 is the element right past the end (zone after)
 * or right before the start (zone before). */
typedef struct upk_guard_hit {
  size_t bytes;     /* bytes no longer holding the sentinel */
  size_t elems;     /* element slots holding at least one such byte */
  size_t near, far; /* the closest and farthest such slot */
} upk_guard_hit;

/** Scan a zone of `len` bytes that must hold `sentinel` everywhere; `after`:
 * the zone follows the buffer's end, else it precedes its start. Fills `out`
 * (zeros when intact) and returns whether any byte changed. */
bool upk_guard_scan(const void *zone, size_t len, unsigned char sentinel, size_t elem_size,
                    bool after, upk_guard_hit *out);

/** The result of comparing a kernel's output with the expected one. */
typedef struct upk_cmp {
  size_t count, mismatches;
  double max_abs, max_rel; /* over elements where both are finite; rel where exp != 0 */
  size_t first;            /* first mismatching index; SIZE_MAX when all match */
  double first_got, first_expected;
} upk_cmp;

/** Element-wise |got - exp| <= atol + rtol * |exp|. NaN matches NaN only,
 * an infinity matches the same infinity only; integers compare exactly when
 * atol and rtol are 0. Fills `out`. */
void upk_compare(const void *got, const void *exp, upk_dtype t, size_t count, double atol,
                 double rtol, upk_cmp *out);
/** Whether every element equals element 0 (bitwise; an empty buffer is constant). */
bool upk_is_constant(const void *buf, upk_dtype t, size_t count);
/** Largest |x| over finite elements (0 when none). */
double upk_max_abs(const void *buf, upk_dtype t, size_t count);
/** First index whose bytes differ between two runs; SIZE_MAX when identical. */
size_t upk_first_diff(const void *a, const void *b, upk_dtype t, size_t count);

/** Timing statistics of n samples (milliseconds). */
typedef struct upk_stats {
  double median, min, max, mean, stddev;
  size_t n;
} upk_stats;
/** Median (mean of the middle two when n is even), min, max, mean and
 * population standard deviation. Returns 0, or -EINVAL when n is 0, -ENOMEM. */
int upk_stats_of(const double *ms, size_t n, upk_stats *out);

/** compute-sanitizer's text report -> one diagnostic per finding (code
 * "run/sanitizer", source "compute-sanitizer"), positioned at the kernel
 * source line the report names when it is in `file_name` (zero-based).
 * Returns the number of findings, or -ENOMEM. */
int upk_sanitizer_parse(const char *text, const char *tool, const char *file_name, upk_diags *out);

#endif
