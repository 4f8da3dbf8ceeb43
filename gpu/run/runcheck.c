/* Host-side runtime checks on kernel buffers (see runcheck.h). Everything
 * here is deterministic and testable without a GPU. */
#include "gpu/run/runcheck.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static const struct {
  const char *name;
  size_t size;
  bool is_float;
  double lo, hi; /* integer range */
} DT[UPK_DT_COUNT] = {
    [UPK_DT_F32] = {"f32", 4, true, 0, 0},
    [UPK_DT_F16] = {"f16", 2, true, 0, 0},
    [UPK_DT_BF16] = {"bf16", 2, true, 0, 0},
    [UPK_DT_F64] = {"f64", 8, true, 0, 0},
    [UPK_DT_I8] = {"i8", 1, false, -128.0, 127.0},
    [UPK_DT_I32] = {"i32", 4, false, -2147483648.0, 2147483647.0},
    /* 2^63 - 1 is not a double; the largest double below 2^63 is the bound. */
    [UPK_DT_I64] = {"i64", 8, false, -9223372036854775808.0, 9223372036854774784.0},
    [UPK_DT_U8] = {"u8", 1, false, 0.0, 255.0},
    [UPK_DT_U32] = {"u32", 4, false, 0.0, 4294967295.0},
};

size_t upk_dtype_size(upk_dtype t) {
  return DT[t].size;
}

const char *upk_dtype_name(upk_dtype t) {
  return DT[t].name;
}

bool upk_dtype_is_float(upk_dtype t) {
  return DT[t].is_float;
}

int upk_dtype_parse(const char *s, upk_dtype *out) {
  for (int i = 0; s && i < UPK_DT_COUNT; i++) {
    if (!strcmp(s, DT[i].name)) {
      *out = (upk_dtype)i;
      return 0;
    }
  }
  return -EINVAL;
}

bool upk_dtype_holds(upk_dtype t, double v) {
  if (DT[t].is_float)
    return true;
  return isfinite(v) && floor(v) == v && v >= DT[t].lo && v <= DT[t].hi;
}

/* ---- half precision ---------------------------------------------------- */

static uint32_t f32_bits(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  return x;
}

static float bits_f32(uint32_t x) {
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

/* Round `m >> shift` to nearest, ties to even. */
static uint32_t shift_rne(uint32_t m, int shift) {
  uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return r + (rem > half || (rem == half && (r & 1)));
}

uint16_t upk_f32_to_f16(float f) {
  uint32_t x = f32_bits(f), ax = x & 0x7FFFFFFFu;
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  if (ax > 0x7F800000u) /* NaN: keep it quiet, keep what fits of the payload */
    return sign | 0x7E00 | (uint16_t)((ax >> 13) & 0x1FF);
  if (ax >= 0x477FF000u) /* >= 65520 rounds to infinity (and infinity stays) */
    return sign | 0x7C00;
  int e = (int)(ax >> 23);
  if (e >= 113) /* normal half: rebias 127 -> 15; a carry may bump the exponent */
    return sign | (uint16_t)shift_rne((ax & 0x7FFFFFu) | ((uint32_t)(e - 112) << 23), 13);
  if (e < 102) /* below 2^-25: rounds to zero */
    return sign;
  /* Subnormal half: units of 2^-24. */
  return sign | (uint16_t)shift_rne((ax & 0x7FFFFFu) | 0x800000u, 126 - e);
}

float upk_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  if (e == 31)
    return bits_f32(sign | 0x7F800000u | (m << 13));
  if (e == 0) {
    float v = ldexpf((float)m, -24);
    return sign ? -v : v;
  }
  return bits_f32(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t upk_f32_to_bf16(float f) {
  uint32_t x = f32_bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u)
    return (uint16_t)((x >> 16) | 0x40); /* quiet NaN */
  /* Adding 0x7FFF plus the kept LSB rounds half to even; overflow carries
   * into the exponent and reaches infinity as it should. */
  return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1)) >> 16);
}

float upk_bf16_to_f32(uint16_t h) {
  return bits_f32((uint32_t)h << 16);
}

/* ---- element access ----------------------------------------------------- */

static int64_t get_i64(const void *buf, upk_dtype t, size_t i) {
  switch (t) {
  case UPK_DT_I8:
    return ((const int8_t *)buf)[i];
  case UPK_DT_I32:
    return ((const int32_t *)buf)[i];
  case UPK_DT_I64:
    return ((const int64_t *)buf)[i];
  case UPK_DT_U8:
    return ((const uint8_t *)buf)[i];
  case UPK_DT_U32:
    return ((const uint32_t *)buf)[i];
  default:
    return 0;
  }
}

double upk_elem_get(const void *buf, upk_dtype t, size_t i) {
  switch (t) {
  case UPK_DT_F32:
    return ((const float *)buf)[i];
  case UPK_DT_F64:
    return ((const double *)buf)[i];
  case UPK_DT_F16:
    return upk_f16_to_f32(((const uint16_t *)buf)[i]);
  case UPK_DT_BF16:
    return upk_bf16_to_f32(((const uint16_t *)buf)[i]);
  default:
    return (double)get_i64(buf, t, i);
  }
}

/* Integers: truncate toward zero and clamp, so no value is undefined behaviour. */
static double to_int_range(upk_dtype t, double v) {
  if (isnan(v))
    return 0;
  v = trunc(v);
  return v < DT[t].lo ? DT[t].lo : v > DT[t].hi ? DT[t].hi : v;
}

void upk_elem_set(void *buf, upk_dtype t, size_t i, double v) {
  switch (t) {
  case UPK_DT_F32:
    ((float *)buf)[i] = (float)v;
    return;
  case UPK_DT_F64:
    ((double *)buf)[i] = v;
    return;
  case UPK_DT_F16:
    ((uint16_t *)buf)[i] = upk_f32_to_f16((float)v);
    return;
  case UPK_DT_BF16:
    ((uint16_t *)buf)[i] = upk_f32_to_bf16((float)v);
    return;
  default:
    break;
  }
  v = to_int_range(t, v);
  switch (t) {
  case UPK_DT_I8:
    ((int8_t *)buf)[i] = (int8_t)v;
    return;
  case UPK_DT_I32:
    ((int32_t *)buf)[i] = (int32_t)v;
    return;
  case UPK_DT_I64:
    ((int64_t *)buf)[i] = (int64_t)v;
    return;
  case UPK_DT_U8:
    ((uint8_t *)buf)[i] = (uint8_t)v;
    return;
  case UPK_DT_U32:
    ((uint32_t *)buf)[i] = (uint32_t)v;
    return;
  default:
    return;
  }
}

/* ---- random numbers ----------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

void upk_rng_seed(upk_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    r->s[i] = splitmix64(&seed);
}

uint64_t upk_rng_next(upk_rng *r) {
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

double upk_rng_unit(upk_rng *r) {
  return (double)(upk_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t upk_trial_seed(uint64_t seed, unsigned trial) {
  if (trial == 0)
    return seed;
  uint64_t x = seed ^ ((uint64_t)trial * 0xD1B54A32D192ED03ull);
  return splitmix64(&x);
}

void upk_gen_random(upk_gen *g, upk_dtype t, uint64_t seed, double low, double high) {
  memset(g, 0, sizeof *g);
  g->seed = seed;
  g->is_int = !DT[t].is_float;
  if (!g->is_int) {
    g->lo = low, g->hi = high;
    return;
  }
  double lo = ceil(low), hi = floor(high);
  g->lo = lo, g->hi = hi;
  g->span = hi >= lo ? (uint64_t)(hi - lo) + 1 : 1; /* 0 after wrapping: all 2^64 */
}

void upk_gen_value_of(upk_gen *g, double v) {
  memset(g, 0, sizeof *g);
  g->lo = g->hi = v;
  g->constant = true;
}

uint64_t upk_gen_bits(uint64_t seed, uint64_t i) {
  uint64_t x = seed + i * 0x9E3779B97F4A7C15ull;
  return splitmix64(&x); /* adds the golden step once more: position i + 1 */
}

/* Written as one rounded operation per line so no compiler fuses them into
 * an FMA: the device does the same steps with __dmul_rn and __dadd_rn. */
double upk_gen_value(const upk_gen *g, uint64_t i) {
  if (g->constant)
    return g->lo;
  uint64_t bits = upk_gen_bits(g->seed, i);
  if (g->is_int) {
    uint64_t k = g->span ? bits % g->span : bits;
    volatile double kd = (double)k;
    return g->lo + kd;
  }
  volatile double u = (double)(bits >> 11) * 0x1.0p-53, width = g->hi - g->lo;
  volatile double scaled = width * u;
  return g->lo + scaled;
}

void upk_gen_fill(void *buf, upk_dtype t, size_t count, const upk_gen *g) {
  for (size_t i = 0; i < count; i++)
    upk_elem_set(buf, t, i, upk_gen_value(g, g->first + i));
}

void upk_fill_random(void *buf, upk_dtype t, size_t count, uint64_t seed, double low, double high) {
  upk_gen g;
  upk_gen_random(&g, t, seed, low, high);
  upk_gen_fill(buf, t, count, &g);
}

void upk_fill_value(void *buf, upk_dtype t, size_t count, double v) {
  for (size_t i = 0; i < count; i++)
    upk_elem_set(buf, t, i, v);
}

/* ---- poison ------------------------------------------------------------- */

/* Pattern B for element type t, little-endian in the low bytes. */
static uint64_t pattern_b(upk_dtype t) {
  switch (t) {
  case UPK_DT_F32:
    return 0x7FE5A5A5u; /* quiet NaN */
  case UPK_DT_F64:
    return 0x7FFDA5A5A5A5A5A5ull; /* quiet NaN */
  case UPK_DT_F16:
    return 0x7EA5u; /* quiet NaN */
  case UPK_DT_BF16:
    return 0x7FE5u; /* quiet NaN */
  default:
    return 0xA5A5A5A5A5A5A5A5ull;
  }
}

static void pattern_bytes(upk_dtype t, int pattern, unsigned char *out) {
  uint64_t v = pattern ? pattern_b(t) : ~0ull;
  memcpy(out, &v, DT[t].size); /* little-endian host, as the device is */
}

void upk_poison(void *buf, upk_dtype t, size_t count, int pattern) {
  unsigned char p[8];
  size_t sz = DT[t].size;
  pattern_bytes(t, pattern, p);
  for (size_t i = 0; i < count; i++)
    memcpy((char *)buf + i * sz, p, sz);
}

size_t upk_unwritten(const void *run_a, const void *run_b, upk_dtype t, size_t count,
                     size_t *first) {
  unsigned char pa[8], pb[8];
  size_t sz = DT[t].size, n = 0;
  pattern_bytes(t, 0, pa);
  pattern_bytes(t, 1, pb);
  *first = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    if (memcmp((const char *)run_a + i * sz, pa, sz) ||
        memcmp((const char *)run_b + i * sz, pb, sz))
      continue;
    if (n++ == 0)
      *first = i;
  }
  return n;
}

/* ---- guard zones -------------------------------------------------------- */

bool upk_guard_scan(const void *zone, size_t len, unsigned char sentinel, size_t elem_size,
                    bool after, upk_guard_hit *out) {
  const unsigned char *z = zone;
  size_t last_slot = SIZE_MAX;
  memset(out, 0, sizeof *out);
  if (!elem_size)
    elem_size = 1;
  for (size_t o = 0; o < len; o++) {
    if (z[o] == sentinel)
      continue;
    /* Slots count outward from the buffer's edge, so they are monotonic in o
     * (rising after the end, falling before the start). */
    size_t slot = (after ? o : len - 1 - o) / elem_size + 1;
    out->bytes++;
    if (slot != last_slot)
      out->elems++;
    last_slot = slot;
    if (!out->near || slot < out->near)
      out->near = slot;
    if (slot > out->far)
      out->far = slot;
  }
  return out->bytes > 0;
}

/* ---- comparison --------------------------------------------------------- */

/* Whether one pair matches; updates the error maxima. */
static bool match_float(double g, double e, double atol, double rtol, upk_cmp *c) {
  if (isnan(g) || isnan(e))
    return isnan(g) && isnan(e);
  if (isinf(g) || isinf(e))
    return g == e;
  double d = fabs(g - e);
  c->max_abs = fmax(c->max_abs, d);
  if (e != 0)
    c->max_rel = fmax(c->max_rel, d / fabs(e));
  return d <= atol + rtol * fabs(e);
}

/* The difference is taken in integers: i64 values beyond 2^53 that differ
 * by 1 would be equal as doubles. */
static bool match_int(int64_t g, int64_t e, double atol, double rtol, upk_cmp *c) {
  if (g == e)
    return true;
  double d = (double)(g > e ? (uint64_t)g - (uint64_t)e : (uint64_t)e - (uint64_t)g);
  double ae = fabs((double)e);
  c->max_abs = fmax(c->max_abs, d);
  if (e != 0)
    c->max_rel = fmax(c->max_rel, d / ae);
  return d <= atol + rtol * ae;
}

void upk_compare(const void *got, const void *exp, upk_dtype t, size_t count, double atol,
                 double rtol, upk_cmp *out) {
  memset(out, 0, sizeof *out);
  out->count = count;
  out->first = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    bool ok = DT[t].is_float
                  ? match_float(upk_elem_get(got, t, i), upk_elem_get(exp, t, i), atol, rtol, out)
                  : match_int(get_i64(got, t, i), get_i64(exp, t, i), atol, rtol, out);
    if (ok || out->mismatches++)
      continue;
    out->first = i;
    out->first_got = upk_elem_get(got, t, i);
    out->first_expected = upk_elem_get(exp, t, i);
  }
}

bool upk_is_constant(const void *buf, upk_dtype t, size_t count) {
  size_t sz = DT[t].size;
  for (size_t i = 1; i < count; i++)
    if (memcmp((const char *)buf + i * sz, buf, sz))
      return false;
  return true;
}

double upk_max_abs(const void *buf, upk_dtype t, size_t count) {
  double m = 0;
  for (size_t i = 0; i < count; i++) {
    double v = fabs(upk_elem_get(buf, t, i));
    if (isfinite(v) && v > m)
      m = v;
  }
  return m;
}

size_t upk_first_diff(const void *a, const void *b, upk_dtype t, size_t count) {
  size_t sz = DT[t].size;
  for (size_t i = 0; i < count; i++)
    if (memcmp((const char *)a + i * sz, (const char *)b + i * sz, sz))
      return i;
  return SIZE_MAX;
}

/* ---- statistics --------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int upk_stats_of(const double *ms, size_t n, upk_stats *out) {
  memset(out, 0, sizeof *out);
  if (n == 0)
    return -EINVAL;
  double *s = upk_xmalloc(n * sizeof *s), sum = 0, sq = 0;
  memcpy(s, ms, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  for (size_t i = 0; i < n; i++)
    sum += s[i];
  out->n = n;
  out->mean = sum / (double)n;
  for (size_t i = 0; i < n; i++)
    sq += (s[i] - out->mean) * (s[i] - out->mean);
  out->stddev = sqrt(sq / (double)n);
  out->min = s[0];
  out->max = s[n - 1];
  out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  free(s);
  return 0;
}

/* ---- compute-sanitizer reports ------------------------------------------ */

enum { SAN_MSG = 900 };

/* The first " in FILE:LINE" in `s` whose FILE's base name is `base`
 * (zero-based line), else -1. */
static int source_line(const char *s, const char *base) {
  for (const char *p = strstr(s, " in "); p; p = strstr(p + 1, " in ")) {
    const char *file = p + 4, *colon = strrchr(file, ':');
    int line;
    if (!colon || sscanf(colon + 1, "%d", &line) != 1 || line < 1)
      continue;
    const char *slash = memrchr(file, '/', (size_t)(colon - file));
    const char *name = slash ? slash + 1 : file;
    if ((size_t)(colon - name) == strlen(base) && !strncmp(name, base, strlen(base)))
      return line - 1;
  }
  return -1;
}

static bool san_skip_header(const char *h) {
  static const char *const skip[] = {"COMPUTE-SANITIZER",           "ERROR SUMMARY",
                                     "RACECHECK SUMMARY",           "LEAK SUMMARY",
                                     "Target application returned", NULL};
  for (const char *const *s = skip; *s; s++)
    if (!strncmp(h, *s, strlen(*s)))
      return true;
  return false;
}

typedef struct san_finding {
  char msg[SAN_MSG];
  int line;
  bool open;
} san_finding;

static int san_flush(san_finding *f, const char *tool, upk_diags *out, int *n) {
  if (!f->open)
    return 0;
  f->open = false;
  int line = f->line < 0 ? 0 : f->line;
  if (upk_diags_add(out, UPK_SEV_ERROR, "run/sanitizer", "compute-sanitizer",
                    upk_range_line(line, 0, 0), "%s: %s", tool, f->msg))
    return -ENOMEM;
  (*n)++;
  return 0;
}

/* An indented detail line: keep where, who and what, drop host backtraces. */
static void san_detail(san_finding *f, const char *d, const char *base) {
  if (!f->open || !strncmp(d, "Saved host backtrace", 20) || !strncmp(d, "Host Frame", 10) ||
      !strncmp(d, "Device Frame", 12) || !*d)
    return;
  if (f->line < 0)
    f->line = source_line(d, base);
  size_t len = strlen(f->msg);
  if (len + 3 < sizeof f->msg)
    snprintf(f->msg + len, sizeof f->msg - len, "; %s", d);
}

static void san_line(san_finding *f, const char *body, const char *base, const char *tool,
                     upk_diags *out, int *n, int *rc) {
  if (*body == ' ') {
    while (*body == ' ')
      body++;
    san_detail(f, body, base);
    return;
  }
  if (san_flush(f, tool, out, n))
    *rc = -ENOMEM;
  if (!*body || san_skip_header(body))
    return;
  snprintf(f->msg, sizeof f->msg, "%s", body);
  f->line = source_line(body, base);
  f->open = true;
}

int upk_sanitizer_parse(const char *text, const char *tool, const char *file_name, upk_diags *out) {
  static const char prefix[] = "========= ";
  const char *slash = file_name ? strrchr(file_name, '/') : NULL;
  const char *base = slash ? slash + 1 : file_name ? file_name : "";
  san_finding f = {.line = -1};
  int n = 0, rc = 0;
  char line[1024];
  for (const char *p = text; p && *p && rc == 0;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    p = nl ? nl + 1 : NULL;
    line[strcspn(line, "\r")] = '\0';
    /* Lines without the prefix are the program's own output; a bare
     * "=========" line separates findings. */
    if (!strncmp(line, prefix, sizeof prefix - 1))
      san_line(&f, line + sizeof prefix - 1, base, tool, out, &n, &rc);
    else if (!strcmp(line, "=========") && san_flush(&f, tool, out, &n))
      rc = -ENOMEM;
  }
  if (rc == 0 && san_flush(&f, tool, out, &n))
    rc = -ENOMEM;
  return rc ? rc : n;
}
