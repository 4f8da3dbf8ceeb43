/* The distance of a timed run to the device's limits (roofline.h). */
#include "gpu/run/roofline.h"

#include <stdio.h>
#include <string.h>

double upk_peak_bandwidth(const upk_device_clocks *c) {
  return 2.0 * (double)c->memory_clock_khz * 1e3 * (double)c->bus_width_bits / 8.0;
}

/* FLOPs an SM does a clock in `dtype` (an FMA counts 2). Hopper's numbers; older parts are
 * given Hopper's too, which only makes their fractions look lower. */
static double flops_per_clock(upk_dtype dtype) {
  switch (dtype) {
  case UPK_DT_F16:
  case UPK_DT_BF16:
    return 4096; /* dense tensor cores: 1,024 FMA a clock an SM */
  case UPK_DT_F64:
    return 128; /* 64 FP64 FMA a clock an SM */
  default:
    return 256; /* 128 FP32 FMA a clock an SM */
  }
}

double upk_peak_flops(const upk_device_clocks *c, upk_dtype dtype) {
  return (double)c->sm_count * (double)c->clock_khz * 1e3 * flops_per_clock(dtype);
}

double upk_run_bytes(const upk_run_spec *s) {
  double bytes = 0;
  for (size_t i = 0; i < s->n_args; i++) {
    const upk_run_arg *a = &s->args[i];
    if (a->is_buffer)
      bytes +=
          (double)a->count * (double)upk_dtype_size(a->dtype) * (a->role == UPK_ROLE_INOUT ? 2 : 1);
  }
  return bytes;
}

upk_dtype upk_run_compute_dtype(const upk_run_spec *s) {
  for (size_t i = 0; i < s->n_args; i++)
    if (s->args[i].is_buffer && s->args[i].role != UPK_ROLE_IN)
      return s->args[i].dtype;
  return UPK_DT_F32;
}

static const char *dtype_peak_name(upk_dtype t) {
  return t == UPK_DT_F16    ? "f16 tensor-core"
         : t == UPK_DT_BF16 ? "bf16 tensor-core"
         : t == UPK_DT_F64  ? "f64"
                            : "f32";
}

/* "92% of HBM peak: memory-bound, near the limit" */
static void summarize(char *out, size_t n, double frac, bool memory, upk_dtype dtype) {
  char what[64];
  snprintf(what, sizeof what, "%s peak", memory ? "HBM" : dtype_peak_name(dtype));
  const char *bound = memory ? "memory-bound" : "compute-bound";
  if (frac > 1.0)
    snprintf(out, n, "%.0f%% of %s: above the peak, so the timing or the byte count is wrong",
             frac * 100, what);
  else if (frac >= 0.8)
    snprintf(out, n, "%.0f%% of %s: %s, near the limit", frac * 100, what, bound);
  else if (frac >= 0.5)
    snprintf(out, n, "%.0f%% of %s: %s, some headroom left", frac * 100, what, bound);
  else
    snprintf(out, n,
             "%.0f%% of %s: far from the limit (latency, launch overhead, occupancy or access "
             "pattern)",
             frac * 100, what);
}

static void above_peak(upk_diags *diags, upk_range at, const char *what, double frac) {
  upk_diags_add(diags, UPK_SEV_WARNING, "run/above-peak", "upskilld-run", at,
                "the kernel ran at %.0f%% of the device's %s: no kernel beats the hardware, so "
                "the timer missed work (another stream, skipped or reused results) or the "
                "spec's shapes, roles or FLOP count overstate what a launch does",
                frac * 100, what);
}

json_t *upk_run_limits(const upk_run_spec *s, const upk_device_clocks *c, double time_ms,
                       upk_diags *diags, upk_range at) {
  double peak_bw = upk_peak_bandwidth(c), bytes = upk_run_bytes(s), secs = time_ms / 1e3;
  if (!(time_ms > 0) || peak_bw <= 0)
    return NULL;
  double bw = bytes / secs, bw_frac = bw / peak_bw;
  json_t *j = json_pack("{s:f,s:f,s:f,s:f}", "bytes", bytes, "achievedGBps", bw / 1e9, "peakGBps",
                        peak_bw / 1e9, "bandwidthFraction", bw_frac);
  upk_dtype dtype = upk_run_compute_dtype(s);
  double peak_fl = upk_peak_flops(c, dtype), fl_frac = -1;
  if (s->flops >= 0 && peak_fl > 0) {
    double fl = s->flops / secs;
    fl_frac = fl / peak_fl;
    json_object_set_new(j, "flops", json_real(s->flops));
    json_object_set_new(j, "achievedTflops", json_real(fl / 1e12));
    json_object_set_new(j, "peakTflops", json_real(peak_fl / 1e12));
    json_object_set_new(j, "computeFraction", json_real(fl_frac));
  }
  bool memory = fl_frac <= bw_frac;
  char summary[200];
  summarize(summary, sizeof summary, memory ? bw_frac : fl_frac, memory, dtype);
  json_object_set_new(j, "bound", json_string(memory ? "memory" : "compute"));
  json_object_set_new(j, "summary", json_string(summary));
  if (bw_frac > 1.0)
    above_peak(diags, at, "HBM bandwidth", bw_frac);
  if (fl_frac > 1.0)
    above_peak(diags, at, "arithmetic peak", fl_frac);
  return j;
}
