/* Run-spec parsing and validation: defaults, and a message naming the
 * field for every kind of bad input. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "gpu/run/runspec.h"

static const char *BASE_ARGS =
    "[{\"name\":\"x\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"in\"},"
    " {\"name\":\"y\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"out\"},"
    " {\"dtype\":\"i32\",\"value\":1024}]";

static json_t *spec(const char *extra) {
  char text[4096];
  snprintf(text, sizeof text, "{\"kernel\":\"k\",\"grid\":4,\"block\":256,\"args\":%s%s%s}",
           BASE_ARGS, extra && *extra ? "," : "", extra ? extra : "");
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  cr_assert_not_null(j, "bad test JSON: %s: %s", text, e.text);
  return j;
}

/* The spec must fail with a message containing `want`. */
static void rejects(json_t *run, const char *want) {
  char err[512];
  cr_assert_eq(upk_runspec_check(run, err, sizeof err), -EINVAL, "accepted; wanted '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
  json_decref(run);
}

static void rejects_text(const char *text, const char *want) {
  json_t *j = json_loads(text, 0, NULL);
  cr_assert_not_null(j);
  rejects(j, want);
}

Test(runspec, defaults) {
  json_t *j = spec(NULL);
  upk_run_spec s;
  char err[256];
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(s.kernel, "k");
  cr_assert_eq(s.grid[0], 4);
  cr_assert_eq(s.grid[1], 1);
  cr_assert_eq(s.block[0], 256);
  cr_assert_eq(s.n_args, 3);
  cr_assert(s.args[0].is_buffer && s.args[0].role == UPK_ROLE_IN);
  cr_assert_eq(s.args[0].init.kind, UPK_INIT_RANDOM);
  cr_assert_eq(s.args[0].init.seed, 42);
  cr_assert(!s.args[2].is_buffer);
  cr_assert_str_eq(s.args[2].name, "arg2");
  cr_assert_eq(s.trials, 5);
  cr_assert_eq(s.timeout_ms, 10000);
  cr_assert_eq(s.ref.kind, UPK_REF_NONE);
  cr_assert_eq(s.sanitizer, UPK_SAN_NONE);
  double atol, rtol;
  upk_runspec_tolerance(&s, UPK_DT_F32, &atol, &rtol);
  cr_assert_float_eq(atol, 1e-4, 0);
  upk_runspec_tolerance(&s, UPK_DT_BF16, &atol, &rtol);
  cr_assert_float_eq(rtol, 1e-2, 0);
  upk_runspec_free(&s);
  json_decref(j);
}

Test(runspec, full_spec) {
  json_t *j = json_loads(
      "{\"grid\":[2,3],\"block\":[16,16,1],\"sharedBytes\":65536,"
      "\"args\":[{\"name\":\"a\",\"dtype\":\"bf16\",\"shape\":[4,8],\"role\":\"inout\","
      "\"init\":{\"random\":{\"seed\":7,\"low\":0,\"high\":2}}},"
      "{\"name\":\"n\",\"dtype\":\"u32\",\"value\":32}],"
      "\"reference\":{\"name\":\"ref_k\",\"grid\":1,\"block\":32},\"atol\":0.5,\"rtol\":0,"
      "\"trials\":2,\"warmup\":0,\"iterations\":3,\"timeoutMs\":500,\"sanitizer\":\"racecheck\"}",
      0, NULL);
  upk_run_spec s;
  char err[256];
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_null(s.kernel);
  cr_assert_eq(s.args[0].count, 32);
  cr_assert_eq(s.args[0].rank, 2);
  cr_assert_eq(s.args[0].init.seed, 7);
  cr_assert_eq(s.ref.kind, UPK_REF_KERNEL);
  cr_assert(s.ref.has_launch && s.ref.block[0] == 32);
  cr_assert_eq(s.sanitizer, UPK_SAN_RACECHECK);
  double atol, rtol;
  upk_runspec_tolerance(&s, UPK_DT_BF16, &atol, &rtol);
  cr_assert_float_eq(atol, 0.5, 0);
  cr_assert_float_eq(rtol, 0, 0);
  upk_runspec_free(&s);
  json_decref(j);
}

Test(runspec, bad_dtype_names_the_field) {
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f8\",\"count\":1,\"role\":\"out\"}]}",
      "run.args[0].dtype: unknown dtype 'f8'; expected one of f32, f16, bf16, f64");
}

Test(runspec, unknown_field) {
  rejects(spec("\"gird\":3"), "run.gird: unknown field; expected one of kernel, grid");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":1,\"role\":\"out\","
               "\"size\":4}]}",
               "run.args[0].size: unknown field");
}

Test(runspec, launch_limits) {
  rejects_text("{\"grid\":1,\"block\":[64,32],\"args\":[]}", "run.block: 64 x 32 x 1 = 2048 "
                                                             "threads per block; CUDA allows at "
                                                             "most 1024");
  rejects_text("{\"grid\":[1,70000],\"block\":1,\"args\":[]}",
               "run.grid[1]: 70000 is out of range");
  rejects_text("{\"grid\":0,\"block\":1,\"args\":[]}", "run.grid: 0 is out of range");
  rejects_text("{\"grid\":[1,1,1,1],\"block\":1,\"args\":[]}", "run.grid: must have 1 to 3");
  rejects_text("{\"block\":1,\"args\":[]}", "run.grid: required");
  rejects(spec("\"sharedBytes\":300000"), "run.sharedBytes: 300000 is out of range");
}

Test(runspec, buffer_errors) {
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"role\":\"out\"}]}",
               "run.args[0]: a buffer needs count or shape");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"o\"}]}",
               "run.args[0].role: unknown role 'o'");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":6,\"shape\":[2,2],"
               "\"role\":\"out\"}]}",
               "run.args[0].shape: holds 4 elements but count is 6");
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"in\"}]}",
      "run.args: no out or inout buffer");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\","
               "\"init\":{\"value\":1}}]}",
               "run.args[0].init: an out buffer is filled with NaN");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"name\":\"a\",\"dtype\":\"f32\",\"count\":4,"
               "\"role\":\"out\"},{\"name\":\"a\",\"dtype\":\"f32\",\"count\":4,\"role\":\"in\"}]}",
               "run.args[1].name: 'a' is already the name of run.args[0]");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f64\",\"count\":1500000000,"
               "\"role\":\"out\"},{\"dtype\":\"f64\",\"count\":1500000000,\"role\":\"in\"}]}",
               "run.args: buffers total over 16 GiB");
}

Test(runspec, init_errors) {
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"inout\","
      "\"init\":{\"random\":{\"low\":2,\"high\":1}}}]}",
      "run.args[0].init.random: low (2) must be below high (1)");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"u8\",\"count\":4,\"role\":\"inout\","
               "\"init\":{\"random\":{\"low\":0,\"high\":300}}}]}",
               "does not fit u8");
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"i32\",\"count\":4,\"role\":\"inout\","
      "\"init\":{\"value\":1.5}}]}",
      "run.args[0].init.value: 1.5 is not a i32 value");
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"inout\","
      "\"init\":{\"value\":1,\"file\":\"x\"}}]}",
      "run.args[0].init: needs exactly one of random, value, file");
  rejects_text("{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"},"
               "{\"dtype\":\"f16\",\"value\":70000}]}",
               "run.args[1].value: 70000 overflows f16");
}

Test(runspec, reference_and_counts) {
  rejects(spec("\"reference\":{\"file\":\"e.bin\",\"name\":\"r\"}"),
          "run.reference: give either file");
  rejects(spec("\"reference\":{\"source\":\"x\"}"), "run.reference.name: required");
  rejects(spec("\"reference\":{\"name\":\"r\",\"sharedBytes\":4}"),
          "run.reference.sharedBytes: needs the reference's grid and block");
  rejects(spec("\"trials\":0"), "run.trials: 0 is out of range; expected 1..100");
  rejects(spec("\"atol\":-1"), "run.atol: must be >= 0");
  rejects(spec("\"timeoutMs\":\"10s\""), "run.timeoutMs: must be an integer");
  rejects(spec("\"sanitizer\":\"leakcheck\""),
          "run.sanitizer: unknown tool 'leakcheck'; expected one of memcheck");
  rejects_text("[1]", "run: must be an object");
  rejects_text(
      "{\"grid\":1,\"block\":1,\"args\":[{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"},"
      "{\"dtype\":\"f32\",\"count\":4,\"role\":\"inout\"}],\"reference\":{\"file\":\"e\"}}",
      "run.reference.file: needs exactly one out or inout buffer (found 2)");
}
