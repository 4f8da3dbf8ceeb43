/* The distance to the device's limits (roofline.h) without a GPU: H100 SXM's attributes as the
 * driver reports them, run specs parsed from JSON, and the figures and sentence an agent
 * reads. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "gpu/run/roofline.h"
#include "gpu/run/runspec.h"

/* What cuDeviceGetAttribute reports on an H100 80GB HBM3 (SXM). */
static const upk_device_clocks H100 = {9, 132, 1980000, 2619000, 5120};

static upk_run_spec spec_of(const char *json) {
  upk_run_spec s;
  char err[256] = "";
  json_t *j = json_loads(json, 0, NULL);
  cr_assert_not_null(j, "%s", json);
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  json_decref(j);
  return s;
}

Test(roofline, h100_peaks_from_the_driver_attributes) {
  cr_assert_float_eq(upk_peak_bandwidth(&H100), 3.352e12, 0.001e12); /* ~3.35 TB/s HBM3 */
  cr_assert_float_eq(upk_peak_flops(&H100, UPK_DT_F32), 66.9e12, 0.1e12);
  cr_assert_float_eq(upk_peak_flops(&H100, UPK_DT_BF16), 1070.5e12, 0.5e12);
  upk_device_clocks none = {0};
  cr_assert_eq(upk_peak_bandwidth(&none), 0);
}

/* A float4 copy of 64 Mi floats: 256 MiB read, 256 MiB written. */
static const char *const COPY =
    "{\"grid\":[65536],\"block\":[256],\"args\":["
    "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":67108864,\"role\":\"in\"},"
    "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":67108864,\"role\":\"out\"},"
    "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":67108864}]}";

Test(roofline, bytes_come_from_shapes_and_roles) {
  upk_run_spec s = spec_of(COPY);
  cr_assert_float_eq(upk_run_bytes(&s), 2.0 * 64 * 1048576 * 4, 1);
  upk_runspec_free(&s);
  s = spec_of("{\"grid\":[1],\"block\":[32],\"args\":["
              "{\"dtype\":\"f16\",\"shape\":[4,8],\"role\":\"inout\"}]}");
  cr_assert_float_eq(upk_run_bytes(&s), 2 * 32 * 2, 1e-9, "inout is read and written");
  cr_assert_eq(upk_run_compute_dtype(&s), UPK_DT_F16);
  upk_runspec_free(&s);
}

Test(roofline, a_copy_near_the_limit_reads_as_memory_bound) {
  upk_run_spec s = spec_of(COPY);
  upk_diags d = {0};
  /* 536.9 MB in 0.1748 ms: 3.07 TB/s */
  json_t *j = upk_run_limits(&s, &H100, 0.1748, &d, (upk_range){0});
  cr_assert_not_null(j);
  double frac = json_real_value(json_object_get(j, "bandwidthFraction"));
  cr_assert_float_eq(frac, 0.916, 0.002);
  cr_assert_str_eq(json_string_value(json_object_get(j, "bound")), "memory");
  cr_assert_str_eq(json_string_value(json_object_get(j, "summary")),
                   "92% of HBM peak: memory-bound, near the limit");
  cr_assert_null(json_object_get(j, "computeFraction"), "no FLOP count given");
  cr_assert_eq(d.len, 0);
  json_decref(j);
  j = upk_run_limits(&s, &H100, 1.0, &d, (upk_range){0});
  cr_assert(strstr(json_string_value(json_object_get(j, "summary")), "16% of HBM peak: far from"));
  json_decref(j);
  cr_assert_null(upk_run_limits(&s, &H100, 0, &d, (upk_range){0}), "no time, no figures");
  upk_device_clocks none = {0};
  cr_assert_null(upk_run_limits(&s, &none, 1.0, &d, (upk_range){0}), "no peak, no figures");
  upk_runspec_free(&s);
}

Test(roofline, gemm_shapes_give_the_flops_and_a_compute_bound_verdict) {
  upk_run_spec s = spec_of(
      "{\"grid\":[64,64],\"block\":[128],\"gemm\":{\"m\":8192,\"n\":8192,\"k\":8192},\"args\":["
      "{\"dtype\":\"bf16\",\"count\":67108864,\"role\":\"in\"},"
      "{\"dtype\":\"bf16\",\"count\":67108864,\"role\":\"in\"},"
      "{\"dtype\":\"bf16\",\"count\":67108864,\"role\":\"out\"}]}");
  cr_assert_float_eq(s.flops, 2.0 * 8192 * 8192 * 8192, 1);
  upk_diags d = {0};
  json_t *j = upk_run_limits(&s, &H100, 1.6, &d, (upk_range){0}); /* 687 TFLOP/s */
  cr_assert_float_eq(json_real_value(json_object_get(j, "achievedTflops")), 687.2, 0.5);
  cr_assert_str_eq(json_string_value(json_object_get(j, "bound")), "compute");
  cr_assert(strstr(json_string_value(json_object_get(j, "summary")),
                   "64% of bf16 tensor-core peak: compute-bound, some headroom left"),
            "%s", json_string_value(json_object_get(j, "summary")));
  json_decref(j);
  upk_runspec_free(&s);
}

Test(roofline, above_the_peak_is_a_warning) {
  upk_run_spec s = spec_of(COPY);
  upk_diags d = {0};
  json_t *j = upk_run_limits(&s, &H100, 0.05, &d, (upk_range){0}); /* 10.7 TB/s: impossible */
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "run/above-peak");
  cr_assert_eq(d.items[0].severity, UPK_SEV_WARNING);
  cr_assert(strstr(json_string_value(json_object_get(j, "summary")), "above the peak"));
  json_decref(j);
  upk_diags_free(&d);
  upk_runspec_free(&s);
}

Test(roofline, bad_work_fields_are_refused) {
  static const char *const bad[][2] = {
      {"{\"grid\":[1],\"block\":[1],\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}],"
       "\"flops\":-1}",
       "run.flops"},
      {"{\"grid\":[1],\"block\":[1],\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}],"
       "\"gemm\":{\"m\":1,\"n\":2}}",
       "run.gemm"},
      {"{\"grid\":[1],\"block\":[1],\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}],"
       "\"gemm\":{\"m\":1,\"n\":2,\"k\":3,\"x\":1}}",
       "run.gemm"},
      {"{\"grid\":[1],\"block\":[1],\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}],"
       "\"gemm\":{\"m\":1,\"n\":2,\"k\":3},\"flops\":6}",
       "run.gemm"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    upk_run_spec s;
    char err[256] = "";
    json_t *j = json_loads(bad[i][0], 0, NULL);
    cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), -EINVAL, "%s", bad[i][0]);
    cr_assert(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
    json_decref(j);
  }
}
