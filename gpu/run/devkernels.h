/** The run's own device kernels: input generation, hashing, poison fills
 * and the output checks, so a run moves no full buffer through the host
 * (docs/gpu.md "Inputs and checks on the device"). Compiled with NVRTC for
 * the device's architecture once per worker process, loaded per run.
 *
 * The generator is counter-based: element i of a buffer seeded s is a
 * function of (s, i) alone (splitmix64 of s + (i + 1) * golden), so the
 * device fills any size in one pass and the host computes any single
 * element for a report (upk_gen_value in runcheck.h). The formula part of
 * upk_kgen_source is also valid C: tests/run compile it with the host's C
 * compiler and compare it with the host version. Internal to the run op. */
#ifndef UPK_GPU_KGEN_H
#define UPK_GPU_KGEN_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/run/cudrv.h"
#include "gpu/run/runcheck.h"

/** The CUDA source (formula part valid C when __CUDACC_RTC__ is not defined). */
extern const char upk_kgen_source[];

/** Slots of the check kernel's result array (UPK_KG_SLOTS 64-bit words). */
enum {
  UPK_KG_UNWRITTEN,       /* elements holding pattern A after run A and B after run B */
  UPK_KG_FIRST_UNWRITTEN, /* minima start at UINT64_MAX */
  UPK_KG_FIRST_DIFF,      /* first index where run A and run B differ bitwise */
  UPK_KG_MISMATCHES,
  UPK_KG_FIRST_MISMATCH,
  UPK_KG_MAX_ABS, /* the bits of a non-negative double */
  UPK_KG_MAX_REL,
  UPK_KG_FIRST_NOT_GOT0, /* first index whose bytes differ from got[0] */
  UPK_KG_FIRST_NOT_EXP0, /* first index whose bytes differ from exp[0] */
  UPK_KG_MAX_ABS_EXP,    /* largest finite |exp| */
  UPK_KG_SLOTS
};

/** Check kernel flags. */
enum { UPK_KG_UNWRITTEN_CHECK = 1, UPK_KG_COMPARE = 2, UPK_KG_RUNS_AB = 4 };

/** The loaded module of one run. */
typedef struct upk_kgen {
  upk_cu_handle mod, gen, hash, fill, check;
  const upk_cudrv *drv;
  unsigned blocks; /* grid of the grid-stride kernels */
} upk_kgen;

/** Compile upk_kgen_source for `arch` ("sm_90a") with the NVRTC of the
 * toolkit at `cuda_root`; the cubin is cached for the process's life.
 * Returns 0 with `*cubin` (not to be freed), or -errno with `err`. */
int upk_kgen_cubin(const char *cuda_root, const char *arch, const void **cubin, char *err,
                   size_t err_len);

/** Load the cubin in the current context. Returns 0 or the CUresult. */
upk_cu_result upk_kgen_load(upk_kgen *g, const upk_cudrv *d, const void *cubin);
void upk_kgen_unload(upk_kgen *g);

/** Fill `n` elements of `dst`: random per `p` (counter-based, element
 * `first + i` of the buffer), synchronously. Returns the CUresult. */
upk_cu_result upk_kgen_fill_random(upk_kgen *g, upk_cu_ptr dst, upk_dtype t, size_t n,
                                   const upk_gen *p);
/** Fill `n` elements of `esize` bytes with the little-endian `pattern`. */
upk_cu_result upk_kgen_fill_pattern(upk_kgen *g, upk_cu_ptr dst, size_t n, size_t esize,
                                    uint64_t pattern);
/** A 64-bit hash of `bytes` bytes: the sum of upk_hash_word over its words
 * (order-sensitive; one changed word always changes it; not cryptographic: it
 * tells whether a kernel changed a buffer). `scratch` is 8 device bytes. */
upk_cu_result upk_kgen_hash(upk_kgen *g, upk_cu_ptr src, size_t bytes, upk_cu_ptr scratch,
                            uint64_t *out);
/** The same hash added into `slot` (8 device bytes the caller zeroed), queued on the
 * default stream with no wait: timed launches hash this way and read every slot back once. */
upk_cu_result upk_kgen_hash_into(upk_kgen *g, upk_cu_ptr src, size_t bytes, upk_cu_ptr slot);
/** One pass over an output: run A `got`, run B `got_b` (0: none), expected
 * `exp` (0: none) with `flags`; `res` is UPK_KG_SLOTS device words, results
 * into `out`. Tolerances as upk_compare's. */
upk_cu_result upk_kgen_check(upk_kgen *g, upk_cu_ptr got, upk_cu_ptr got_b, upk_cu_ptr exp,
                             upk_dtype t, size_t n, double atol, double rtol, int flags,
                             upk_cu_ptr res, uint64_t out[UPK_KG_SLOTS]);

#endif
