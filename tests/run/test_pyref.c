/* The PyTorch reference without torch: the spec's {"from"} buffers and
 * reference.pytorch validated field by field; the handoff format written by
 * a stand-in producer (upk_pyref_write, as tests/run/pyref_standin.c does)
 * read back, and every kind of corruption refused with a message saying
 * where; resolving buffers against the tensors (dtype and shape taken, or a
 * mismatch naming both sides); the per-trial feed; the kernel's parameter
 * types from its mangled symbol. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/worker/argsig.h"
#include "gpu/reference/pyref.h"

static json_t *parse_json(const char *text) {
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  cr_assert_not_null(j, "bad test JSON: %s: %s", text, e.text);
  return j;
}

/* A run with tensor buffers: args and the reference's extra fields given. */
static json_t *py_run(const char *args, const char *py_extra) {
  char text[4096];
  snprintf(text, sizeof text,
           "{\"grid\":4,\"block\":256,\"args\":%s,"
           "\"reference\":{\"pytorch\":{\"path\":\"p.py\"%s%s}}}",
           args, py_extra && *py_extra ? "," : "", py_extra ? py_extra : "");
  return parse_json(text);
}

static const char *ARGS =
    "[{\"name\":\"A\",\"from\":\"input0\"},{\"name\":\"B\",\"from\":\"input1\"},"
    "{\"name\":\"C\",\"from\":\"output\"},{\"dtype\":\"i32\",\"value\":64}]";

static void rejects(json_t *run, const char *want) {
  char err[512];
  cr_assert_eq(upk_runspec_check(run, err, sizeof err), -EINVAL, "accepted; wanted '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
  json_decref(run);
}

Test(pyref_spec, tensor_buffers_and_defaults) {
  json_t *j = py_run(ARGS, "\"compile\":true,\"globals\":{\"N\":64}");
  upk_run_spec s;
  char err[512];
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.ref.kind, UPK_REF_PYTORCH);
  cr_assert_str_eq(s.ref.py.path, "p.py");
  cr_assert(s.ref.py.compile);
  cr_assert_str_eq(s.ref.py.globals, "{\"N\":64}");
  cr_assert_eq(s.ref.py.seed, 42);
  cr_assert_eq(s.ref.py.timeout_ms, UPK_RUN_PY_TIMEOUT_DEFAULT_MS);
  cr_assert_eq(s.args[0].from, UPK_FROM_INPUT);
  cr_assert_eq(s.args[1].from_index, 1);
  cr_assert_eq(s.args[0].role, UPK_ROLE_IN);
  cr_assert_eq(s.args[0].init.kind, UPK_INIT_FEED);
  cr_assert_eq(s.args[2].from, UPK_FROM_OUTPUT);
  cr_assert_eq(s.args[2].from_index, 0);
  cr_assert_eq(s.args[2].role, UPK_ROLE_OUT);
  cr_assert(!s.args[3].is_buffer);
  upk_runspec_free(&s);
  json_decref(j);
}

Test(pyref_spec, params_and_given_extent) {
  json_t *j = py_run("[{\"from\":\"param:conv2d.weight\",\"dtype\":\"f32\",\"shape\":[8,3,3,3]},"
                     "{\"from\":\"output1\",\"dtype\":\"f16\"}]",
                     "\"seed\":7,\"model\":\"M\",\"inputs\":\"small\",\"initInputs\":\"init\"");
  upk_run_spec s;
  char err[512];
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.args[0].from, UPK_FROM_PARAM);
  cr_assert_str_eq(s.args[0].from_name, "conv2d.weight");
  cr_assert(s.args[0].dtype_given);
  cr_assert_eq(s.args[0].rank, 4);
  cr_assert_eq(s.args[0].count, 8 * 27);
  cr_assert_eq(s.args[1].from_index, 1);
  cr_assert_eq(s.args[1].dtype, UPK_DT_F16);
  cr_assert_eq(s.ref.py.seed, 7);
  cr_assert_str_eq(s.ref.py.model, "M");
  cr_assert_str_eq(s.ref.py.inputs, "small");
  cr_assert_str_eq(s.ref.py.init, "init");
  upk_runspec_free(&s);
  json_decref(j);
}

Test(pyref_spec, every_bad_field_is_named) {
  rejects(py_run("[{\"from\":\"inputs0\"},{\"from\":\"output\"}]", NULL),
          "run.args[0].from: 'inputs0' names no tensor");
  rejects(py_run("[{\"from\":\"input\"},{\"from\":\"output\"}]", NULL), "run.args[0].from");
  rejects(py_run("[{\"from\":\"param:\"},{\"from\":\"output\"}]", NULL), "run.args[0].from");
  rejects(py_run("[{\"from\":3},{\"from\":\"output\"}]", NULL),
          "run.args[0].from: must be a string");
  rejects(py_run("[{\"from\":\"input0\",\"role\":\"in\"},{\"from\":\"output\"}]", NULL),
          "run.args[0]: role with 'from' can only be \"inout\" on an output<N>");
  rejects(py_run("[{\"from\":\"input0\",\"init\":{\"value\":1}},{\"from\":\"output\"}]", NULL),
          "run.args[0].init: unknown field");
  rejects(py_run("[{\"from\":\"input0\",\"dtype\":\"f8\"},{\"from\":\"output\"}]", NULL),
          "run.args[0].dtype: unknown dtype 'f8'");
  rejects(py_run("[{\"from\":\"input0\"}]", NULL), "run.args: no out or inout buffer");
  rejects(py_run("[{\"from\":\"input0\"},{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}]", NULL),
          "run.args[1]: 'arg1' is a result buffer, but only the model's outputs");
  rejects(py_run(ARGS, "\"source\":\"x\""), "give exactly one of path");
  rejects(py_run(ARGS, "\"compile\":1"), "run.reference.pytorch.compile: must be true or false");
  rejects(py_run(ARGS, "\"globals\":[1]"), "run.reference.pytorch.globals: must be an object");
  rejects(py_run(ARGS, "\"timeoutMs\":0"), "run.reference.pytorch.timeoutMs: 0 is out of range");
  rejects(py_run(ARGS, "\"modle\":\"M\""), "run.reference.pytorch.modle: unknown field");
  rejects(parse_json("{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"output\"}],"
                     "\"reference\":{\"pytorch\":{\"path\":\"p.py\"}},\"sanitizer\":\"memcheck\"}"),
          "run.sanitizer: not with a PyTorch reference");
  rejects(parse_json("{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"input0\"},"
                     "{\"dtype\":\"f32\",\"count\":4,\"role\":\"out\"}]}"),
          "run.args[0]: 'from' names a tensor of a PyTorch reference; run.reference.pytorch is "
          "missing");
  rejects(parse_json("{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"output\"}],"
                     "\"reference\":{\"pytorch\":{\"path\":\"p.py\"},\"name\":\"k\"}}"),
          "run.reference: pytorch stands alone");
  rejects(parse_json("{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"output\"}],"
                     "\"reference\":{\"name\":\"k\"}}"),
          "run.args[0]: 'from' names a tensor");
}

/* ---- the handoff, written by a stand-in producer ------------------------- */

static char dir[] = "/tmp/upk-pyref-test-XXXXXX";

static void make_dir(void) {
  cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

static float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {6, 5, 4, 3, 2, 1}, C[4] = {9, 8, 7, 6};
static double TIMES[3] = {2.0, 1.0, 3.0};

static upk_pyref_tensor tensor(upk_pyref_kind kind, unsigned index, const char *name, upk_dtype dt,
                               const void *data, int rank, size_t d0, size_t d1) {
  upk_pyref_tensor t = {.kind = kind, .index = index, .dtype = dt, .rank = rank, .data = data};
  snprintf(t.name, sizeof t.name, "%s", name);
  t.shape[0] = d0, t.shape[1] = d1;
  t.count = rank == 2 ? d0 * d1 : rank == 1 ? d0 : 1;
  t.bytes = t.count * upk_dtype_size(dt);
  return t;
}

/* Trial `t`: A [2, 3], B [3, 2] with element 0 = t, C [2, 2], one parameter. */
static void write_trial(unsigned t, const char *file) {
  char path[256];
  float a[6], b[6];
  memcpy(a, A, sizeof a), memcpy(b, B, sizeof b);
  a[0] = (float)t;
  upk_pyref_tensor ts[] = {
      tensor(UPK_PYT_INPUT, 0, "", UPK_DT_F32, a, 2, 2, 3),
      tensor(UPK_PYT_INPUT, 1, "", UPK_DT_F32, b, 2, 3, 2),
      tensor(UPK_PYT_OUTPUT, 0, "", UPK_DT_F32, C, 2, 2, 2),
      tensor(UPK_PYT_PARAM, 0, "lin.weight", UPK_DT_F32, B, 1, 6, 0),
  };
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(upk_pyref_write(f, ts, 4), 0);
  fclose(f);
}

static void write_timing(void) {
  char path[256];
  upk_pyref_tensor t = tensor(UPK_PYT_TIME_EAGER, 0, "eager", UPK_DT_F64, TIMES, 1, 3, 0);
  snprintf(path, sizeof path, "%s/timing.upkt", dir);
  FILE *f = fopen(path, "wb");
  cr_assert_eq(upk_pyref_write(f, &t, 1), 0);
  fclose(f);
}

Test(pyref_fmt, round_trip, .init = make_dir, .fini = remove_dir) {
  char path[256], err[512];
  upk_pyref_file f;
  write_trial(3, "t.upkt");
  snprintf(path, sizeof path, "%s/t.upkt", dir);
  cr_assert_eq(upk_pyref_file_read(path, &f, err, sizeof err), 0, "%s", err);
  cr_assert_eq(f.n, 4);
  const upk_pyref_tensor *a = upk_pyref_find(&f, UPK_FROM_INPUT, 0, NULL);
  cr_assert_not_null(a);
  cr_assert_eq(a->rank, 2);
  cr_assert_eq(a->shape[1], 3);
  cr_assert_eq(((const float *)a->data)[0], 3.0f);
  cr_assert_eq(((const float *)a->data)[5], 6.0f);
  const upk_pyref_tensor *w = upk_pyref_find(&f, UPK_FROM_PARAM, 0, "lin.weight");
  cr_assert_not_null(w);
  cr_assert_eq(w->count, 6);
  cr_assert_null(upk_pyref_find(&f, UPK_FROM_INPUT, 2, NULL));
  cr_assert_null(upk_pyref_find(&f, UPK_FROM_PARAM, 0, "lin.bias"));
  upk_pyref_file_close(&f);
}

/* Rewrite byte `at` of a good file (or cut it to `cut` bytes) and expect `want`. */
static void corrupt(long at, unsigned char v, long cut, const char *want) {
  char path[256], err[512];
  upk_pyref_file f;
  write_trial(0, "bad.upkt");
  snprintf(path, sizeof path, "%s/bad.upkt", dir);
  if (cut >= 0)
    cr_assert_eq(truncate(path, cut), 0);
  if (at >= 0) {
    FILE *fp = fopen(path, "r+b");
    fseek(fp, at, SEEK_SET);
    fputc(v, fp);
    fclose(fp);
  }
  cr_assert_eq(upk_pyref_file_read(path, &f, err, sizeof err), -EINVAL, "accepted; wanted %s",
               want);
  cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
}

Test(pyref_fmt, corruption_is_refused, .init = make_dir, .fini = remove_dir) {
  corrupt(0, 'X', -1, "no UPKTENS1 header");
  corrupt(8, 2, -1, "unsupported version");
  corrupt(16, 'X', -1, "record 0: bad record magic");
  corrupt(16 + 4, 9, -1, "record 0: unknown kind");
  corrupt(16 + 12, 42, -1, "record 0: unknown dtype code");
  corrupt(16 + 16, 9, -1, "record 0: rank over 8");
  corrupt(16 + 24, 7, -1, "record 0: data bytes do not match dtype and shape");
  corrupt(-1, 0, 16 + 96 + 10, "record 0: data runs past the end");
  corrupt(-1, 0, 16 + 50, "record 0: truncated header");
  corrupt(-1, 0, 8, "too short");
}

Test(pyref_fmt, trailing_bytes_are_refused, .init = make_dir, .fini = remove_dir) {
  char path[256], err[512];
  upk_pyref_file f;
  write_trial(0, "t.upkt");
  snprintf(path, sizeof path, "%s/t.upkt", dir);
  FILE *fp = fopen(path, "ab");
  fputs("junk", fp);
  fclose(fp);
  cr_assert_eq(upk_pyref_file_read(path, &f, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "trailing bytes"), "%s", err);
  snprintf(path, sizeof path, "%s/none.upkt", dir);
  cr_assert_eq(upk_pyref_file_read(path, &f, err, sizeof err), -ENOENT);
}

/* ---- resolving and feeding ----------------------------------------------- */

static upk_diags diags;

static int session(const char *args, upk_run_spec *s, upk_pyref *p) {
  json_t *j = py_run(args, NULL);
  char err[512];
  cr_assert_eq(upk_runspec_parse(j, s, err, sizeof err), 0, "%s", err);
  json_decref(j);
  *p = (upk_pyref){.s = s, .diags = &diags, .cur_trial = -1};
  snprintf(p->dir, sizeof p->dir, "%s", dir);
  return upk_pyref_resolve(p, s);
}

static const char *first_message(void) {
  cr_assert_gt(diags.len, 0);
  return diags.items[0].message;
}

static void end_session(upk_run_spec *s, upk_pyref *p) {
  upk_pyref_file_close(&p->cur);
  upk_runspec_free(s);
  upk_diags_free(&diags);
}

Test(pyref_run, resolve_takes_dtype_and_shape_and_feeds, .init = make_dir, .fini = remove_dir) {
  upk_run_spec s;
  upk_pyref p;
  write_trial(0, "trial0.upkt");
  write_trial(1, "trial1.upkt");
  write_timing();
  cr_assert_eq(session(ARGS, &s, &p), 0);
  cr_assert_eq(s.args[0].dtype, UPK_DT_F32);
  cr_assert_eq(s.args[0].count, 6);
  cr_assert_eq(s.args[0].rank, 2);
  cr_assert_eq(s.args[2].count, 4);
  cr_assert(p.has_eager);
  cr_assert_float_eq(p.eager.median, 2.0, 1e-12);
  cr_assert(!p.has_compiled);
  float got[6];
  cr_assert_eq(upk_pyref_feed(&p, 1, 0, got, sizeof got, false), 0);
  cr_assert_eq(got[0], 1.0f, "trial 1's own input");
  cr_assert_eq(got[1], 2.0f);
  float exp[4];
  cr_assert_eq(upk_pyref_feed(&p, 1, 2, exp, sizeof exp, true), 0);
  cr_assert_eq(exp[3], 6.0f);
  cr_assert_eq(upk_pyref_feed(&p, 0, 0, got, sizeof got, false), 0);
  cr_assert_eq(got[0], 0.0f, "back to trial 0");
  /* A trial the helper did not write is a handoff diagnostic. */
  cr_assert_eq(upk_pyref_feed(&p, 2, 0, got, sizeof got, false), -EINVAL);
  cr_assert_str_eq(diags.items[0].code, "run/pytorch-handoff");
  cr_assert(strstr(first_message(), "trial 2"), "%s", first_message());
  json_t *j = upk_pyref_json(&p, &s);
  cr_assert_eq(json_array_size(json_object_get(j, "tensors")), 3);
  cr_assert_float_eq(json_real_value(json_object_get(j, "eagerTimeMs")), 2.0, 1e-12);
  json_decref(j);
  end_session(&s, &p);
}

Test(pyref_run, mismatches_name_both_sides, .init = make_dir, .fini = remove_dir) {
  upk_run_spec s;
  upk_pyref p;
  write_trial(0, "trial0.upkt");
  cr_assert_eq(session("[{\"name\":\"A\",\"from\":\"input0\",\"dtype\":\"f16\",\"shape\":[2,3]},"
                       "{\"from\":\"output\"}]",
                       &s, &p),
               -EINVAL);
  cr_assert_str_eq(diags.items[0].code, "run/pytorch-mismatch");
  cr_assert(strstr(first_message(), "run.args[0] 'A' (from input0): the run spec says f16 [2, 3], "
                                    "the PyTorch reference gives f32 [2, 3]"),
            "%s", first_message());
  end_session(&s, &p);
  cr_assert_eq(session("[{\"from\":\"input1\",\"shape\":[6]},{\"from\":\"output\"}]", &s, &p),
               -EINVAL);
  cr_assert(
      strstr(first_message(), "the run spec says [6], the PyTorch reference gives f32 [3, 2]"),
      "%s", first_message());
  end_session(&s, &p);
  cr_assert_eq(session("[{\"from\":\"input0\",\"count\":5},{\"from\":\"output\"}]", &s, &p),
               -EINVAL);
  cr_assert(strstr(first_message(), "says 5 elements"), "%s", first_message());
  end_session(&s, &p);
  cr_assert_eq(session("[{\"from\":\"input2\"},{\"from\":\"output\"}]", &s, &p), -EINVAL);
  cr_assert(strstr(first_message(), "{\"from\": \"input2\"}, which the PyTorch reference does not "
                                    "have; it has: input0 f32 [2, 3], input1 f32 [3, 2]"),
            "%s", first_message());
  end_session(&s, &p);
  cr_assert_eq(session("[{\"from\":\"param:lin.bias\"},{\"from\":\"output\"}]", &s, &p), -EINVAL);
  cr_assert(strstr(first_message(), "it has: param:lin.weight f32 [6]"), "%s", first_message());
  end_session(&s, &p);
  /* Agreeing dtype and shape pass. */
  cr_assert_eq(session("[{\"from\":\"input0\",\"dtype\":\"f32\",\"shape\":[2,3]},"
                       "{\"from\":\"output\",\"count\":4}]",
                       &s, &p),
               0);
  end_session(&s, &p);
}

Test(pyref_run, a_trial_with_another_shape_is_refused, .init = make_dir, .fini = remove_dir) {
  upk_run_spec s;
  upk_pyref p;
  char path[256];
  write_trial(0, "trial0.upkt");
  upk_pyref_tensor t = tensor(UPK_PYT_INPUT, 0, "", UPK_DT_F32, A, 1, 4, 0);
  snprintf(path, sizeof path, "%s/trial1.upkt", dir);
  FILE *f = fopen(path, "wb");
  cr_assert_eq(upk_pyref_write(f, &t, 1), 0);
  fclose(f);
  cr_assert_eq(session(ARGS, &s, &p), 0);
  float got[6];
  cr_assert_eq(upk_pyref_feed(&p, 1, 0, got, sizeof got, false), -EINVAL);
  cr_assert(
      strstr(first_message(),
             "trial 1: the PyTorch reference's input0 is f32 [4], but trial 0's was f32 [2, 3]"),
      "%s", first_message());
  end_session(&s, &p);
}

/* ---- the kernel's parameter types ------------------------------------------ */

Test(ksig, parameters_from_the_mangled_symbol) {
  upk_ksig_param p[UPK_KSIG_MAX_PARAMS];
  size_t n;
  cr_assert_eq(upk_ksig_params("_Z5twicePKfPfi", p, &n), 0);
  cr_assert_eq(n, 3);
  cr_assert_str_eq(p[0].text, "float const*");
  cr_assert(p[0].pointer && p[0].known && p[0].dtype == UPK_DT_F32);
  cr_assert(p[1].pointer && p[1].dtype == UPK_DT_F32);
  cr_assert(!p[2].pointer && p[2].known && p[2].dtype == UPK_DT_I32);
  cr_assert_eq(upk_ksig_params("_Z1kPK6__halfP13__nv_bfloat16lPh", p, &n), 0);
  cr_assert_eq(n, 4);
  cr_assert_eq(p[0].dtype, UPK_DT_F16);
  cr_assert_eq(p[1].dtype, UPK_DT_BF16);
  cr_assert_eq(p[2].dtype, UPK_DT_I64);
  cr_assert_eq(p[3].dtype, UPK_DT_U8);
  cr_assert_eq(upk_ksig_params("_Z5scaleIfEvPT_S0_i", p, &n), 0, "a template instance");
  cr_assert_eq(n, 3);
  cr_assert_eq(p[1].dtype, UPK_DT_F32);
  cr_assert_eq(upk_ksig_params("_Z1kv", p, &n), 0);
  cr_assert_eq(n, 0);
  cr_assert_eq(upk_ksig_params("twice", p, &n), -ENOENT, "extern \"C\": no types");
  cr_assert_eq(upk_ksig_params("_Zgarbage", p, &n), -ENOENT);
}

static void sig_spec(const char *args, upk_run_spec *s) {
  char text[1024], err[512];
  snprintf(text, sizeof text, "{\"grid\":1,\"block\":1,\"args\":%s}", args);
  json_t *j = parse_json(text);
  cr_assert_eq(upk_runspec_parse(j, s, err, sizeof err), 0, "%s", err);
  json_decref(j);
}

Test(ksig, arguments_are_checked_against_the_parameters) {
  upk_run_spec s;
  char err[512];
  sig_spec("[{\"dtype\":\"f32\",\"count\":4,\"role\":\"in\"},{\"dtype\":\"f32\",\"count\":4,"
           "\"role\":\"out\"},{\"dtype\":\"i32\",\"value\":4}]",
           &s);
  cr_assert_eq(upk_ksig_check("_Z5twicePKfPfi", &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(upk_ksig_check("twice", &s, err, sizeof err), 0, "nothing to check");
  cr_assert_eq(upk_ksig_check("_Z5twicePKfPfl", &s, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "run.args[2] 'arg2' is a i32 scalar, but the kernel's parameter 3 is long "
                        "(i64)"),
            "%s", err);
  cr_assert_eq(upk_ksig_check("_Z5twicePK6__halfPfi", &s, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "run.args[0] 'arg0' is a f32 x 4 buffer, but the kernel's parameter 1 is "
                        "__half const* (f16)"),
            "%s", err);
  cr_assert_eq(upk_ksig_check("_Z5twicePKfi", &s, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "the kernel takes 2 parameters; run.args has 3"), "%s", err);
  cr_assert_eq(upk_ksig_check("_Z5twicePKfS0_S0_", &s, err, sizeof err), -EINVAL);
  cr_assert(strstr(err, "run.args[2] 'arg2' is a i32 scalar, but the kernel's parameter 3 is float "
                        "const* (f32)"),
            "%s", err);
  upk_runspec_free(&s);
}
