/** How close a timed run came to the device's limits: the bytes its arguments say a launch
 * reads and writes (the run spec's shapes and in/out roles) and the FLOPs it does (run.flops,
 * or 2mnk of run.gemm), over the median kernel time, each as a fraction of the device's peak
 * read from the driver (memory clock x bus width; SM count x clock x FLOPs a clock an SM does).
 * An agent reads "92% of HBM peak: memory-bound, near the limit" and stops optimising.
 * Pure: no CUDA here, so every figure is tested without a GPU. */
#ifndef UPK_GPU_ROOFLINE_H
#define UPK_GPU_ROOFLINE_H

#include <jansson.h>

#include "common/diag.h"
#include "gpu/run/runspec.h"

/** What the driver says, as cuDeviceGetAttribute gives it (0: unknown). */
typedef struct upk_device_clocks {
  int sm_major;         /* compute capability, for the FLOPs an SM does a clock */
  int sm_count;         /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
  int clock_khz;        /* CU_DEVICE_ATTRIBUTE_CLOCK_RATE */
  int memory_clock_khz; /* CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE */
  int bus_width_bits;   /* CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH */
} upk_device_clocks;

/** Peak DRAM bandwidth in bytes/s (double data rate: 2 transfers a clock); 0 when unknown.
 * H100 SXM: 2,619 MHz x 5,120 bits = 3.35 TB/s. */
double upk_peak_bandwidth(const upk_device_clocks *c);
/** Peak FLOP/s for arithmetic in `dtype`: CUDA cores for f32 and f64, dense tensor cores for
 * f16 and bf16 (sm_90: 256, 128 and 4,096 FLOPs a clock an SM); 0 when unknown. */
double upk_peak_flops(const upk_device_clocks *c, upk_dtype dtype);

/** Bytes a launch moves by its arguments: in and out buffers once, inout twice. */
double upk_run_bytes(const upk_run_spec *s);
/** The dtype the arithmetic is in: the first output buffer's (f32 when there is none). */
upk_dtype upk_run_compute_dtype(const upk_run_spec *s);

/** The `limits` object of a timed run: bytes, achievedGBps, peakGBps, bandwidthFraction, and
 * with a FLOP count flops, achievedTflops, peakTflops, computeFraction; `bound` (memory or
 * compute: the larger fraction) and `summary`, the sentence an agent reads. NULL when the
 * time or the device's peaks are unknown. A fraction over 1 adds a run/above-peak warning to
 * `diags` at `at` (the timer missed work, or the spec's shapes overstate it). */
json_t *upk_run_limits(const upk_run_spec *s, const upk_device_clocks *c, double time_ms,
                       upk_diags *diags, upk_range at);

#endif
