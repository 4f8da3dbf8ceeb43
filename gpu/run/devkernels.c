/* The run's device kernels (devkernels.h): source, NVRTC compile, launches. */
#include "gpu/run/devkernels.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/nvrtc.h"
#include "common/xalloc.h"

enum { THREADS = 256 };

/* Element types are upk_dtype's values: f32 0, f16 1, bf16 2, f64 3, i8 4,
 * i32 5, i64 6, u8 7, u32 8. Every double operation that could fuse into an
 * FMA is spelled with an _rn intrinsic (and --fmad=false is given), so the
 * device rounds exactly as the host's upk_gen_value and upk_compare do. */
const char upk_kgen_source[] =
    "typedef unsigned long long u64;\n"
    "typedef long long i64;\n"
    "#ifdef __CUDACC_RTC__\n"
    "#define UPK_D static __device__ __forceinline__\n"
    "#define UPK_ADD(a, b) __dadd_rn(a, b)\n"
    "#define UPK_SUB(a, b) __dsub_rn(a, b)\n"
    "#define UPK_MUL(a, b) __dmul_rn(a, b)\n"
    "#define UPK_DIV(a, b) __ddiv_rn(a, b)\n"
    "#else\n"
    "#define UPK_D static\n"
    "#define UPK_ADD(a, b) ((a) + (b))\n"
    "#define UPK_SUB(a, b) ((a) - (b))\n"
    "#define UPK_MUL(a, b) ((a) * (b))\n"
    "#define UPK_DIV(a, b) ((a) / (b))\n"
    "#endif\n"
    "/* ---- the formula (also C) ---- */\n"
    "UPK_D u64 upk_gen_bits(u64 seed, u64 i) {\n"
    "  u64 z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;\n"
    "  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;\n"
    "  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;\n"
    "  return z ^ (z >> 31);\n"
    "}\n"
    "UPK_D double upk_gen_value(u64 seed, double lo, double hi, u64 span, int is_int,\n"
    "                          int constant, u64 i) {\n"
    "  if (constant) return lo;\n"
    "  u64 bits = upk_gen_bits(seed, i);\n"
    "  if (is_int) return UPK_ADD(lo, (double)(span ? bits % span : bits));\n"
    "  return UPK_ADD(lo, UPK_MUL(UPK_SUB(hi, lo), (double)(bits >> 11) * 0x1.0p-53));\n"
    "}\n"
    "/* murmur3's finaliser: a bijection of 32-bit words. */\n"
    "UPK_D unsigned upk_fmix32(unsigned h) {\n"
    "  h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u;\n"
    "  return h ^ (h >> 16);\n"
    "}\n"
    "/* Word w at word index j of a buffer, as two 32-bit lanes of the buffer's\n"
    "   64-bit sum. Each lane is a bijection of w for a given j, so a buffer\n"
    "   that differs in one word always hashes differently; j makes the sum\n"
    "   depend on where each word is. 32-bit multiplies only: a 64-bit one is\n"
    "   several instructions on the device. */\n"
    "UPK_D u64 upk_hash_word(unsigned w, u64 j) {\n"
    "  unsigned k = (unsigned)j ^ ((unsigned)(j >> 32) * 0x27D4EB2Fu);\n"
    "  return ((u64)upk_fmix32(w ^ (k * 0x9E3779B1u)) << 32) |\n"
    "         upk_fmix32(w + k * 0x7FEB352Du + 0x165667B1u);\n"
    "}\n"
    "/* A byte outside the 16-byte-aligned body, at byte offset b: a word index\n"
    "   no aligned word of a real buffer reaches. */\n"
    "UPK_D u64 upk_hash_byte(unsigned char c, u64 b) {\n"
    "  return upk_hash_word(c, ~b);\n"
    "}\n"
    "/* Integers: truncate toward zero and clamp to [lo, hi] (upk_elem_set's rule). */\n"
    "UPK_D double upk_int_value(double v, double lo, double hi) {\n"
    "  v = isnan(v) ? 0.0 : trunc(v);\n"
    "  return v < lo ? lo : v > hi ? hi : v;\n"
    "}\n"
    "/* One pair as upk_compare judges it; the error maxima are updated. */\n"
    "UPK_D int upk_match_float(double g, double e, double atol, double rtol, double *mabs,\n"
    "                          double *mrel) {\n"
    "  if (isnan(g) || isnan(e)) return isnan(g) && isnan(e);\n"
    "  if (isinf(g) || isinf(e)) return g == e;\n"
    "  double d = fabs(UPK_SUB(g, e));\n"
    "  *mabs = fmax(*mabs, d);\n"
    "  if (e != 0) *mrel = fmax(*mrel, UPK_DIV(d, fabs(e)));\n"
    "  return d <= UPK_ADD(atol, UPK_MUL(rtol, fabs(e)));\n"
    "}\n"
    "UPK_D int upk_match_int(i64 g, i64 e, double atol, double rtol, double *mabs,\n"
    "                        double *mrel) {\n"
    "  if (g == e) return 1;\n"
    "  double d = (double)(g > e ? (u64)g - (u64)e : (u64)e - (u64)g), ae = fabs((double)e);\n"
    "  *mabs = fmax(*mabs, d);\n"
    "  if (e != 0) *mrel = fmax(*mrel, UPK_DIV(d, ae));\n"
    "  return d <= UPK_ADD(atol, UPK_MUL(rtol, ae));\n"
    "}\n"
    "#ifdef __CUDACC_RTC__\n"
    "/* ---- device only ---- */\n"
    "__device__ const double LO[9] = {0, 0, 0, 0, -128.0, -2147483648.0,\n"
    "  -9223372036854775808.0, 0, 0};\n"
    "__device__ const double HI[9] = {0, 0, 0, 0, 127.0, 2147483647.0,\n"
    "  9223372036854774784.0, 255.0, 4294967295.0};\n"
    "__device__ const int SIZE[9] = {4, 2, 2, 8, 1, 4, 8, 1, 4};\n"
    "static __device__ unsigned short f32_to_f16(float f) {\n"
    "  unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h;\n"
    "}\n"
    "static __device__ float f16_to_f32(unsigned short h) {\n"
    "  float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f;\n"
    "}\n"
    "static __device__ unsigned short f32_to_bf16(float f) {\n"
    "  unsigned x = __float_as_uint(f);\n"
    "  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (unsigned short)((x >> 16) | 0x40);\n"
    "  return (unsigned short)((x + 0x7FFFu + ((x >> 16) & 1)) >> 16);\n"
    "}\n"
    "static __device__ void store(void *p, int t, u64 i, double v) {\n"
    "  switch (t) {\n"
    "  case 0: ((float *)p)[i] = __double2float_rn(v); return;\n"
    "  case 1: ((unsigned short *)p)[i] = f32_to_f16(__double2float_rn(v)); return;\n"
    "  case 2: ((unsigned short *)p)[i] = f32_to_bf16(__double2float_rn(v)); return;\n"
    "  case 3: ((double *)p)[i] = v; return;\n"
    "  }\n"
    "  v = upk_int_value(v, LO[t], HI[t]);\n"
    "  switch (t) {\n"
    "  case 4: ((signed char *)p)[i] = (signed char)v; return;\n"
    "  case 5: ((int *)p)[i] = (int)v; return;\n"
    "  case 6: ((i64 *)p)[i] = (i64)v; return;\n"
    "  case 7: ((unsigned char *)p)[i] = (unsigned char)v; return;\n"
    "  default: ((unsigned *)p)[i] = (unsigned)v; return;\n"
    "  }\n"
    "}\n"
    "static __device__ double load(const void *p, int t, u64 i) {\n"
    "  switch (t) {\n"
    "  case 0: return ((const float *)p)[i];\n"
    "  case 1: return f16_to_f32(((const unsigned short *)p)[i]);\n"
    "  case 2: return __uint_as_float((unsigned)((const unsigned short *)p)[i] << 16);\n"
    "  case 3: return ((const double *)p)[i];\n"
    "  case 4: return ((const signed char *)p)[i];\n"
    "  case 5: return ((const int *)p)[i];\n"
    "  case 6: return (double)((const i64 *)p)[i];\n"
    "  case 7: return ((const unsigned char *)p)[i];\n"
    "  default: return ((const unsigned *)p)[i];\n"
    "  }\n"
    "}\n"
    "static __device__ i64 load_int(const void *p, int t, u64 i) {\n"
    "  switch (t) {\n"
    "  case 4: return ((const signed char *)p)[i];\n"
    "  case 5: return ((const int *)p)[i];\n"
    "  case 6: return ((const i64 *)p)[i];\n"
    "  case 7: return ((const unsigned char *)p)[i];\n"
    "  default: return ((const unsigned *)p)[i];\n"
    "  }\n"
    "}\n"
    "static __device__ u64 bytes_of(const void *p, int sz, u64 i) {\n"
    "  switch (sz) {\n"
    "  case 1: return ((const unsigned char *)p)[i];\n"
    "  case 2: return ((const unsigned short *)p)[i];\n"
    "  case 4: return ((const unsigned *)p)[i];\n"
    "  default: return ((const u64 *)p)[i];\n"
    "  }\n"
    "}\n"
    "#define GRID_STRIDE(i, n) \\\n"
    "  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (n); \\\n"
    "       i += (u64)gridDim.x * blockDim.x)\n"
    "extern \"C\" __global__ void upk_gen(void *dst, u64 n, int t, u64 first, u64 seed,\n"
    "                                    double lo, double hi, u64 span, int is_int,\n"
    "                                    int constant) {\n"
    "  GRID_STRIDE(i, n) store(dst, t, i, upk_gen_value(seed, lo, hi, span, is_int, constant,\n"
    "                                                   first + i));\n"
    "}\n"
    "extern \"C\" __global__ void upk_fill(void *dst, u64 n, int sz, u64 pattern) {\n"
    "  GRID_STRIDE(i, n) switch (sz) {\n"
    "    case 1: ((unsigned char *)dst)[i] = (unsigned char)pattern; break;\n"
    "    case 2: ((unsigned short *)dst)[i] = (unsigned short)pattern; break;\n"
    "    case 4: ((unsigned *)dst)[i] = (unsigned)pattern; break;\n"
    "    default: ((u64 *)dst)[i] = pattern; break;\n"
    "  }\n"
    "}\n"
    "/* A 16-byte load's four words into the buffer's sum (see upk_hash_word). */\n"
    "static __device__ u64 hash_vec(uint4 v, u64 vec) {\n"
    "  u64 j = vec * 4;\n"
    "  return upk_hash_word(v.x, j) + upk_hash_word(v.y, j + 1) + upk_hash_word(v.z, j + 2) +\n"
    "         upk_hash_word(v.w, j + 3);\n"
    "}\n"
    "/* Sum of upk_hash_word over the buffer: 16-byte loads, two in flight per\n"
    "   thread, 32-bit multiplies only, so memory bandwidth alone bounds it. The\n"
    "   bytes before the first 16-byte boundary and after the last are summed as\n"
    "   bytes (upk_hash_byte) by the first warp. */\n"
    "extern \"C\" __global__ void upk_hash(const unsigned char *p, u64 bytes, u64 *out) {\n"
    "  u64 lead = (16 - ((u64)p & 15)) & 15;\n"
    "  if (lead > bytes) lead = bytes;\n"
    "  u64 vecs = (bytes - lead) / 16, h = 0, tail = lead + vecs * 16;\n"
    "  const uint4 *v = (const uint4 *)(p + lead);\n"
    "  u64 stride = (u64)gridDim.x * blockDim.x, i = blockIdx.x * (u64)blockDim.x + threadIdx.x;\n"
    "  for (; i + stride < vecs; i += 2 * stride) {\n"
    "    uint4 a = __ldg(&v[i]), b = __ldg(&v[i + stride]);\n"
    "    h += hash_vec(a, i) + hash_vec(b, i + stride);\n"
    "  }\n"
    "  if (i < vecs) h += hash_vec(__ldg(&v[i]), i);\n"
    "  if (blockIdx.x == 0 && threadIdx.x < 32) {\n"
    "    for (u64 b = threadIdx.x; b < lead; b += 32) h += upk_hash_byte(p[b], b);\n"
    "    for (u64 b = tail + threadIdx.x; b < bytes; b += 32) h += upk_hash_byte(p[b], b);\n"
    "  }\n"
    "  for (int o = 16; o > 0; o /= 2) h += __shfl_down_sync(0xFFFFFFFFu, h, o);\n"
    "  if ((threadIdx.x & 31) == 0) atomicAdd(out, h);\n"
    "}\n"
    "static __device__ u64 dbits(double d) { return (u64)__double_as_longlong(d); }\n"
    "/* res: see devkernels.h's UPK_KG_* slots. got_b and exp may be null. */\n"
    "extern \"C\" __global__ void upk_check(const void *got, const void *got_b, const void *exp,\n"
    "    int t, u64 n, double atol, double rtol, int flags, u64 pat_a, u64 pat_b, u64 *res) {\n"
    "  int sz = SIZE[t], is_float = t <= 3;\n"
    "  u64 unw = 0, f_unw = ~0ull, f_diff = ~0ull, mis = 0, f_mis = ~0ull, f_ng = ~0ull,\n"
    "      f_ne = ~0ull;\n"
    "  double mabs = 0, mrel = 0, mexp = 0;\n"
    "  u64 g0 = bytes_of(got, sz, 0), e0 = exp ? bytes_of(exp, sz, 0) : 0;\n"
    "  GRID_STRIDE(i, n) {\n"
    "    u64 ga = bytes_of(got, sz, i);\n"
    "    if (ga != g0 && i < f_ng) f_ng = i;\n"
    "    if (got_b) {\n"
    "      u64 gb = bytes_of(got_b, sz, i);\n"
    "      if ((flags & 1) && ga == pat_a && gb == pat_b) { if (!unw++) f_unw = i; }\n"
    "      else if (ga != gb && i < f_diff) f_diff = i;\n"
    "    }\n"
    "    if (!exp || !(flags & 2)) continue;\n"
    "    if (bytes_of(exp, sz, i) != e0 && i < f_ne) f_ne = i;\n"
    "    int ok;\n"
    "    if (is_float) {\n"
    "      double g = load(got, t, i), e = load(exp, t, i);\n"
    "      if (isfinite(e) && fabs(e) > mexp) mexp = fabs(e);\n"
    "      ok = upk_match_float(g, e, atol, rtol, &mabs, &mrel);\n"
    "    } else {\n"
    "      i64 g = load_int(got, t, i), e = load_int(exp, t, i);\n"
    "      if (fabs((double)e) > mexp) mexp = fabs((double)e);\n"
    "      ok = upk_match_int(g, e, atol, rtol, &mabs, &mrel);\n"
    "    }\n"
    "    if (!ok && !mis++) f_mis = i;\n"
    "  }\n"
    "  if (unw) { atomicAdd(&res[0], unw); atomicMin(&res[1], f_unw); }\n"
    "  if (f_diff != ~0ull) atomicMin(&res[2], f_diff);\n"
    "  if (mis) { atomicAdd(&res[3], mis); atomicMin(&res[4], f_mis); }\n"
    "  if (mabs > 0) atomicMax(&res[5], dbits(mabs));\n"
    "  if (mrel > 0) atomicMax(&res[6], dbits(mrel));\n"
    "  if (f_ng != ~0ull) atomicMin(&res[7], f_ng);\n"
    "  if (f_ne != ~0ull) atomicMin(&res[8], f_ne);\n"
    "  if (mexp > 0) atomicMax(&res[9], dbits(mexp));\n"
    "}\n"
    "#endif\n";

/* ---- compile (once per process and arch) ---------------------------------- */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static char cached_arch[32];
static char *cached_cubin;

static int compile(const char *root, const char *arch, char **cubin, char *err, size_t err_len) {
  const upk_nvrtc *nv;
  upk_nvrtc_prog p = NULL;
  char opt_arch[48];
  int rc = upk_nvrtc_get(root, &nv, err, err_len);
  if (rc)
    return rc;
  snprintf(opt_arch, sizeof opt_arch, "-arch=%s", arch);
  const char *opts[] = {opt_arch, "--fmad=false", "-std=c++17"};
  if (nv->create(&p, upk_kgen_source, "upskilld_kgen.cu", 0, NULL, NULL))
    return snprintf(err, err_len, "nvrtcCreateProgram failed"), -ENOMEM;
  int crc = nv->compile(p, 3, opts);
  size_t n = 0;
  if (crc) {
    char *log = NULL;
    if (!nv->log_size(p, &n) && (log = upk_xmalloc(n + 1)) && !nv->log(p, log))
      snprintf(err, err_len, "the run's own kernels did not compile for %s: %.400s", arch, log);
    else
      snprintf(err, err_len, "the run's own kernels did not compile for %s", arch);
    free(log);
    rc = -EINVAL;
  } else if (nv->cubin_size(p, &n) || !(*cubin = upk_xmalloc(n)) || nv->cubin(p, *cubin)) {
    snprintf(err, err_len, "nvrtcGetCUBIN failed for the run's own kernels");
    rc = -EIO;
  }
  nv->destroy(&p);
  return rc;
}

int upk_kgen_cubin(const char *cuda_root, const char *arch, const void **cubin, char *err,
                   size_t err_len) {
  int rc = 0;
  pthread_mutex_lock(&cache_lock);
  if (!cached_cubin || strcmp(cached_arch, arch)) {
    char *c = NULL;
    if (!(rc = compile(cuda_root, arch, &c, err, err_len))) {
      free(cached_cubin);
      cached_cubin = c;
      snprintf(cached_arch, sizeof cached_arch, "%s", arch);
    } else {
      free(c);
    }
  }
  *cubin = cached_cubin;
  pthread_mutex_unlock(&cache_lock);
  return rc;
}

/* ---- load and launch ---------------------------------------------------- */

upk_cu_result upk_kgen_load(upk_kgen *g, const upk_cudrv *d, const void *cubin) {
  memset(g, 0, sizeof *g);
  g->drv = d;
  g->blocks = (unsigned)(d->sm_count > 0 ? d->sm_count : 16) * 8;
  upk_cu_result e = d->cu.ModuleLoadDataEx(&g->mod, cubin, 0, NULL, NULL);
  if (!e)
    e = d->cu.ModuleGetFunction(&g->gen, g->mod, "upk_gen");
  if (!e)
    e = d->cu.ModuleGetFunction(&g->hash, g->mod, "upk_hash");
  if (!e)
    e = d->cu.ModuleGetFunction(&g->fill, g->mod, "upk_fill");
  if (!e)
    e = d->cu.ModuleGetFunction(&g->check, g->mod, "upk_check");
  return e;
}

void upk_kgen_unload(upk_kgen *g) {
  if (g->mod)
    g->drv->cu.ModuleUnload(g->mod);
  g->mod = NULL;
}

/* Enough blocks for n elements, at most 8 per SM (grid-stride beyond). */
static unsigned blocks_for(const upk_kgen *g, size_t n) {
  size_t b = (n + THREADS - 1) / THREADS;
  return b == 0 ? 1 : b > g->blocks ? g->blocks : (unsigned)b;
}

static upk_cu_result go(upk_kgen *g, upk_cu_handle fn, size_t n, void **params) {
  upk_cu_result e =
      g->drv->cu.LaunchKernel(fn, blocks_for(g, n), 1, 1, THREADS, 1, 1, 0, NULL, params, NULL);
  return e ? e : g->drv->cu.CtxSynchronize();
}

upk_cu_result upk_kgen_fill_random(upk_kgen *g, upk_cu_ptr dst, upk_dtype t, size_t n,
                                   const upk_gen *p) {
  unsigned long long count = n, first = p->first, seed = p->seed, span = p->span;
  int type = (int)t, is_int = p->is_int, constant = p->constant;
  double lo = p->lo, hi = p->hi;
  void *params[] = {&dst, &count, &type, &first, &seed, &lo, &hi, &span, &is_int, &constant};
  return go(g, g->gen, n, params);
}

upk_cu_result upk_kgen_fill_pattern(upk_kgen *g, upk_cu_ptr dst, size_t n, size_t esize,
                                    uint64_t pattern) {
  unsigned long long count = n, pat = pattern;
  int sz = (int)esize;
  void *params[] = {&dst, &count, &sz, &pat};
  return go(g, g->fill, n, params);
}

upk_cu_result upk_kgen_hash_into(upk_kgen *g, upk_cu_ptr src, size_t bytes, upk_cu_ptr slot) {
  unsigned long long nb = bytes;
  size_t n = bytes / 16 ? bytes / 16 : 1; /* 16-byte loads */
  void *params[] = {&src, &nb, &slot};
  return g->drv->cu.LaunchKernel(g->hash, blocks_for(g, n), 1, 1, THREADS, 1, 1, 0, NULL, params,
                                 NULL);
}

upk_cu_result upk_kgen_hash(upk_kgen *g, upk_cu_ptr src, size_t bytes, upk_cu_ptr scratch,
                            uint64_t *out) {
  const upk_cu_api *cu = &g->drv->cu;
  upk_cu_result e = cu->MemsetD8(scratch, 0, 8);
  if (!e && !(e = upk_kgen_hash_into(g, src, bytes, scratch)))
    e = cu->CtxSynchronize();
  return e ? e : cu->MemcpyDtoH(out, scratch, 8);
}

upk_cu_result upk_kgen_check(upk_kgen *g, upk_cu_ptr got, upk_cu_ptr got_b, upk_cu_ptr exp,
                             upk_dtype t, size_t n, double atol, double rtol, int flags,
                             upk_cu_ptr res, uint64_t out[UPK_KG_SLOTS]) {
  const upk_cu_api *cu = &g->drv->cu;
  unsigned char pa[8], pb[8];
  unsigned long long count = n, pat_a = 0, pat_b = 0;
  int type = (int)t;
  upk_poison(pa, t, 1, 0);
  upk_poison(pb, t, 1, 1);
  memcpy(&pat_a, pa, upk_dtype_size(t));
  memcpy(&pat_b, pb, upk_dtype_size(t));
  for (int i = 0; i < UPK_KG_SLOTS; i++)
    out[i] = i == UPK_KG_FIRST_UNWRITTEN || i == UPK_KG_FIRST_DIFF || i == UPK_KG_FIRST_MISMATCH ||
                     i == UPK_KG_FIRST_NOT_GOT0 || i == UPK_KG_FIRST_NOT_EXP0
                 ? UINT64_MAX
                 : 0;
  void *params[] = {&got, &got_b, &exp, &type, &count, &atol, &rtol, &flags, &pat_a, &pat_b, &res};
  upk_cu_result e = cu->MemcpyHtoD(res, out, UPK_KG_SLOTS * sizeof *out);
  if (!e)
    e = go(g, g->check, n, params);
  return e ? e : cu->MemcpyDtoH(out, res, UPK_KG_SLOTS * sizeof *out);
}
