/* Shape sweeps, odd sizes, the run's seed and the rotation plan
 * (gpu/run/runshape.c, gpu/run/runplan.c): what a kernel would be judged at, and
 * every bad input named by its field, with no GPU. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "gpu/run/runplan.h"
#include "gpu/run/runspec.h"

/* y[i] = f(x[i]) for i < n: one in, one out, n. */
static const char *ELEMWISE = "{\"kernel\":\"k\",\"grid\":4,\"block\":256,\"args\":["
                              "{\"name\":\"x\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"in\"},"
                              "{\"name\":\"y\",\"dtype\":\"f32\",\"count\":1024,\"role\":\"out\"},"
                              "{\"name\":\"n\",\"dtype\":\"i32\",\"value\":1024}]%s}";

static json_t *load(const char *fmt, const char *extra) {
  char text[4096];
  snprintf(text, sizeof text, fmt, extra ? extra : "");
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  cr_assert_not_null(j, "bad test JSON: %s: %s", text, e.text);
  return j;
}

static void parse(const char *fmt, const char *extra, upk_run_spec *s) {
  json_t *j = load(fmt, extra);
  char err[512];
  cr_assert_eq(upk_runspec_parse(j, s, err, sizeof err), 0, "%s", err);
  json_decref(j);
}

static void rejects(const char *fmt, const char *extra, const char *want) {
  json_t *j = load(fmt, extra);
  char err[512];
  cr_assert_eq(upk_runspec_check(j, err, sizeof err), -EINVAL, "accepted; wanted '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
  json_decref(j);
}

Test(runshape, odd_size_rule) {
  cr_assert_eq(upk_run_odd_size(1024, 256, 1), 1037);
  cr_assert_eq(upk_run_odd_size(1024, 256, -1), 1017);
  cr_assert_eq(upk_run_odd_size(19, 32, 1), 34, "32 is a multiple of the block: moved on by 2");
  cr_assert_eq(upk_run_odd_size(263, 256, -1), 254);
  cr_assert_eq(upk_run_odd_size(8, 256, 1), 0, "below 16: a channel count, left alone");
  cr_assert_eq(upk_run_odd_size(1024, 1, 1), 1037);
  /* A block of 2 and an even size: stepping by 2 stays even forever (found by fuzz_runspec). */
  cr_assert_eq(upk_run_odd_size(121, 2, 1), 135);
  cr_assert_eq(upk_run_odd_size(125, 2, -1), 117);
}

Test(runshape, default_sweep_adds_odd_sizes) {
  upk_run_spec s;
  parse(ELEMWISE, "", &s);
  cr_assert_eq(s.n_given_shapes, 1);
  cr_assert_eq(s.n_shapes, 3, "the spec's size, one above, one below");
  cr_assert_eq(s.shapes[0].args[0].count, 1024);
  cr_assert_eq(s.shapes[0].grid[0], 4);
  const upk_run_shape *up = &s.shapes[1], *down = &s.shapes[2];
  cr_assert_eq(up->odd, 1);
  cr_assert_eq(down->odd, -1);
  cr_assert_eq(up->args[0].count, 1037);
  cr_assert_eq(up->args[1].count, 1037);
  cr_assert_eq(up->args[2].value, 1037, "n follows the size it equals");
  cr_assert_eq(up->grid[0], 5, "4 blocks of 256 scaled up: 5 cover 1037");
  cr_assert_eq(down->args[0].count, 1017);
  cr_assert_eq(down->args[2].value, 1017);
  cr_assert_eq(down->grid[0], 4);
  cr_assert_eq(up->block[0], 256);
  upk_run_spec v;
  upk_runspec_at(&s, 1, &v);
  cr_assert_eq(v.args[1].count, 1037);
  cr_assert_eq(v.grid[0], 5);
  cr_assert_eq(v.flops, -1, "flops count the spec's own size");
  cr_assert_eq(s.args[0].count, 1024, "the spec's own args are untouched");
  /* Shape 0 is the spec's own args, as a PyTorch reference resolves them after the parse. */
  s.args[0].count = 777;
  upk_runspec_at(&s, 0, &v);
  cr_assert_eq(v.args[0].count, 777);
  upk_runspec_free(&s);
}

Test(runshape, odd_sizes_off) {
  upk_run_spec s;
  parse(ELEMWISE, ",\"oddSizes\":false", &s);
  cr_assert_eq(s.n_shapes, 1);
  upk_runspec_free(&s);
  rejects(ELEMWISE, ",\"oddSizes\":\"no\"", "run.oddSizes: must be true or false");
}

Test(runshape, given_shapes) {
  upk_run_spec s;
  parse(ELEMWISE,
        ",\"shapes\":[{\"args\":{\"x\":4096,\"y\":4096,\"n\":4096}},"
        "{\"args\":{\"x\":[64,33],\"y\":[64,33],\"n\":2112},\"grid\":9,\"block\":[128]}]",
        &s);
  cr_assert_eq(s.n_given_shapes, 2);
  cr_assert_eq(s.n_shapes, 6);
  cr_assert_eq(s.shapes[0].args[0].count, 4096);
  cr_assert_eq(s.shapes[0].args[2].value, 4096);
  cr_assert_eq(s.shapes[0].grid[0], 16, "4 blocks for 1024 -> 16 for 4096");
  cr_assert_eq(s.shapes[1].args[1].count, 2112);
  cr_assert_eq(s.shapes[1].args[1].rank, 2);
  cr_assert_eq(s.shapes[1].grid[0], 9, "a given grid is kept");
  cr_assert_eq(s.shapes[1].block[0], 128);
  /* The odd sizes of shape 1: both dimensions of 16 or more move (64 -> 77, 33 -> 46),
   * n follows the count it equals; the 1-D grid grows as the most grown of the dimensions
   * and the count (here the count). */
  const upk_run_shape *o = NULL;
  for (size_t k = 2; k < s.n_shapes; k++)
    if (s.shapes[k].of == 1 && s.shapes[k].odd == 1)
      o = &s.shapes[k];
  cr_assert_not_null(o);
  cr_assert_eq(o->args[0].shape[0], 77);
  cr_assert_eq(o->args[0].shape[1], 46);
  cr_assert_eq(o->args[0].count, 77 * 46);
  cr_assert_eq(o->args[2].value, 77 * 46);
  cr_assert_eq(o->grid[0], 16, "ceil(9 * 77 * 46 / 2112)");
  cr_assert_eq(o->grid[1], 1, "a 1-D grid stays 1-D");
  upk_runspec_free(&s);
}

/* A matmul: every dimension moves by the same rule, so M, N and K stay consistent. */
Test(runshape, odd_sizes_keep_a_matmul_consistent) {
  static const char *MM = "{\"grid\":[3,4],\"block\":[16,16],\"args\":["
                          "{\"name\":\"a\",\"dtype\":\"f32\",\"shape\":[64,32],\"role\":\"in\"},"
                          "{\"name\":\"b\",\"dtype\":\"f32\",\"shape\":[32,48],\"role\":\"in\"},"
                          "{\"name\":\"c\",\"dtype\":\"f32\",\"shape\":[64,48],\"role\":\"out\"},"
                          "{\"name\":\"M\",\"dtype\":\"i32\",\"value\":64},{\"name\":\"N\","
                          "\"dtype\":\"i32\",\"value\":48},"
                          "{\"name\":\"K\",\"dtype\":\"i32\",\"value\":32}]%s}";
  upk_run_spec s;
  parse(MM, "", &s);
  cr_assert_eq(s.n_shapes, 3);
  const upk_run_shape *up = &s.shapes[1];
  size_t m = up->args[0].shape[0], k = up->args[0].shape[1], n = up->args[1].shape[1];
  cr_assert_eq(m, 77);
  cr_assert_eq(k, 45);
  cr_assert_eq(n, 61);
  cr_assert_eq(up->args[1].shape[0], k);
  cr_assert_eq(up->args[2].shape[0], m);
  cr_assert_eq(up->args[2].shape[1], n);
  cr_assert_eq(up->args[3].value, m);
  cr_assert_eq(up->args[4].value, n);
  cr_assert_eq(up->args[5].value, k);
  cr_assert_eq(up->grid[0], 4, "ceil(3 * 61 / 48)");
  cr_assert_eq(up->grid[1], 5, "ceil(4 * 77 / 64)");
  upk_runspec_free(&s);
}

Test(runshape, bad_shapes) {
  rejects(ELEMWISE, ",\"shapes\":[]", "run.shapes: is empty");
  rejects(ELEMWISE, ",\"shapes\":{}", "run.shapes: must be an array");
  rejects(ELEMWISE, ",\"shapes\":[3]", "run.shapes[0]: must be an object");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{}}]", "run.shapes[0].args: required");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":8},\"gird\":1}]",
          "run.shapes[0].gird: unknown field");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"z\":8}}]",
          "run.shapes[0].args.z: no argument of that name; the kernel's are x, y, n");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":0}}]", "run.shapes[0].args.x: a buffer");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"n\":\"big\"}}]",
          "run.shapes[0].args.n: a scalar: must be a number");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"n\":1.5}}]", "1.5 is not a i32 value");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":8},\"block\":[64,64]}]",
          "run.shapes[0].block: over 1024 threads");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":8}},{\"args\":{\"y\":8},\"grid\":0}]",
          "run.shapes[1].grid: each dimension");
  rejects(ELEMWISE, ",\"reference\":{\"file\":\"exp.bin\"},\"shapes\":[{\"args\":{\"x\":8}}]",
          "run.shapes: not with reference.file");
}

/* Too large for any device: refused before a worker or a launch, naming the size. */
Test(runshape, too_large_named_by_size) {
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":3000000000,\"y\":3000000000}}]",
          "run.shapes[0]: its buffers need 24000000000 bytes (22.4 GiB), over the 16 GiB");
  /* The odd size above a shape just under the cap is over it. */
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":2147483648,\"y\":2147483648}}]",
          "run.shapes[0] with odd sizes (+13): its buffers need 17179869288 bytes");
  upk_run_spec s;
  parse(ELEMWISE, ",\"oddSizes\":false,\"shapes\":[{\"args\":{\"x\":2147483648,\"y\":2147483648}}]",
        &s);
  cr_assert_eq(s.n_shapes, 1);
  upk_runspec_free(&s);
}

/* A block per row over [rows, cols] (bench/gpu/e2e/softmax.json): a 1-D grid
 * must cover the rows at each odd size. Scaled by the last dimension alone the
 * grid fell 21 rows short at 4,089 x 1,017 (seen on an H100). */
Test(runshape, one_dimensional_grid_covers_every_dimension) {
  static const char *ROWS =
      "{\"kernel\":\"k\",\"grid\":4096,\"block\":256,\"args\":["
      "{\"name\":\"x\",\"dtype\":\"f32\",\"shape\":[4096,1024],\"role\":\"in\"},"
      "{\"name\":\"y\",\"dtype\":\"f32\",\"shape\":[4096,1024],\"role\":\"out\"},"
      "{\"name\":\"rows\",\"dtype\":\"i32\",\"value\":4096}]%s}";
  upk_run_spec s;
  parse(ROWS, "", &s);
  cr_assert_eq(s.n_shapes, 3);
  const upk_run_shape *up = &s.shapes[1], *down = &s.shapes[2];
  cr_assert_eq(down->args[1].shape[0], 4089);
  cr_assert_eq(down->args[1].shape[1], 1017);
  cr_assert_eq(down->grid[0], 4089, "a block for each of 4089 rows, not %u", down->grid[0]);
  cr_assert_eq(up->grid[0], 4162, "up: the elements grew most (4109 x 1037), not %u", up->grid[0]);
  upk_runspec_free(&s);
}

/* Hostile sizes: counts that would wrap the byte total, too many shape sets,
 * a grid that scales past CUDA's limit. A spec may come from an agent (MCP). */
Test(runshape, hostile_shapes) {
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":4611686018427387904}}]",
          "run.shapes[0].args.x: 4611686018427387904 elements; at most");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":[4611686018427387904,4]}}]",
          "run.shapes[0].args.x: has over");
  rejects(ELEMWISE, ",\"shapes\":[{\"args\":{\"x\":[65536,65536,65536]}}]", "has over");
  char many[2048] = ",\"shapes\":[";
  for (int i = 0; i < 17; i++)
    strcat(many, i ? ",{\"args\":{\"n\":1}}" : "{\"args\":{\"n\":1}}");
  strcat(many, "]");
  rejects(ELEMWISE, many, "run.shapes: 17 shape sets; at most 16");
  static const char *WIDE = "{\"grid\":[1,60000],\"block\":32,\"args\":["
                            "{\"name\":\"y\",\"dtype\":\"u8\",\"shape\":[60000,32],"
                            "\"role\":\"out\"}]%s}";
  rejects(WIDE, ",\"shapes\":[{\"args\":{\"y\":[120000,32]}}]",
          "run.shapes[0].grid: the grid scaled to this shape has 120000 blocks in y; CUDA allows "
          "65535");
}

Test(runshape, seeds) {
  rejects(ELEMWISE, ",\"seed\":\"abc\"", "run.seed: must be a non-negative integer");
  rejects(ELEMWISE, ",\"seed\":-1", "run.seed: must be a non-negative integer");
  rejects(ELEMWISE, ",\"seed\":1.5", "run.seed: must be a non-negative integer");
  upk_run_spec a, b, c;
  parse(ELEMWISE, ",\"seed\":7", &a);
  cr_assert(a.seed_given);
  cr_assert_eq(a.seed, 7);
  parse(ELEMWISE, "", &b);
  parse(ELEMWISE, "", &c);
  cr_assert(!b.seed_given);
  cr_assert_neq(b.seed, c.seed, "each request draws its own seed");
  cr_assert_lt(b.seed, (uint64_t)1 << 63, "reported as a JSON integer");
  /* Same seed, same inputs; another seed, other inputs; every set its own. */
  const upk_run_arg *x = &a.args[0];
  cr_assert_eq(upk_run_set_seed(&a, x, 3), upk_trial_seed(upk_run_input_seed(&a, 42), 3));
  cr_assert_neq(upk_run_set_seed(&a, x, 0), upk_run_set_seed(&b, &b.args[0], 0));
  cr_assert_neq(upk_run_set_seed(&a, x, 0), upk_run_set_seed(&a, x, 1));
  cr_assert_neq(upk_run_input_seed(&a, 42), 42, "the caller's seed alone does not pick inputs");
  upk_runspec_free(&a);
  upk_runspec_free(&b);
  upk_runspec_free(&c);
}

/* An expected-output file was made from the caller's inputs: those stay. */
Test(runshape, file_reference_keeps_the_callers_inputs) {
  upk_run_spec s;
  parse(ELEMWISE, ",\"reference\":{\"file\":\"exp.bin\"}", &s);
  cr_assert_eq(upk_run_input_seed(&s, 42), 42);
  cr_assert_eq(s.n_shapes, 1, "no odd sizes: the file has one size");
  upk_runspec_free(&s);
}

Test(runshape, value_inputs_vary_per_set) {
  upk_run_arg f = {
      .is_buffer = true, .dtype = UPK_DT_F32, .init = {.kind = UPK_INIT_VALUE, .value = 2}};
  upk_run_arg u = {
      .is_buffer = true, .dtype = UPK_DT_U8, .init = {.kind = UPK_INIT_VALUE, .value = 255}};
  cr_assert_eq(upk_run_set_value(&f, 0), 2, "set 0 holds the caller's value");
  cr_assert_eq(upk_run_set_value(&f, 1), 2.5);
  cr_assert_eq(upk_run_set_value(&f, 2), 3);
  cr_assert_eq(upk_run_set_value(&u, 0), 255);
  cr_assert_eq(upk_run_set_value(&u, 1), 254, "255 + 1 does not fit u8");
}

Test(runshape, rotation_plan) {
  upk_run_spec s, v;
  parse(ELEMWISE, ",\"seed\":5,\"trials\":3,\"iterations\":20", &s);
  upk_runspec_at(&s, 0, &v);
  upk_run_plan p;
  upk_run_plan_of(&v, UPK_RUN_ROTATION_MAX_BYTES, &p);
  cr_assert_eq(p.shape_bytes, 8192);
  cr_assert_eq(p.set_bytes, 8192, "x, and the expected y");
  cr_assert_eq(p.sets, UPK_RUN_MAX_SETS, "as many sets as the cap allows when memory does");
  cr_assert_eq(p.trials, UPK_RUN_MAX_SETS, "every set is a checked correctness trial");
  cr_assert_eq(p.timed, 20);
  cr_assert_eq(p.hashed, 20, "every timed launch is hashed");
  cr_assert_eq(p.hash_bytes, 4096);
  upk_run_plan_of(&v, 8192 * 7 + 100, &p);
  cr_assert_eq(p.sets, 7, "bounded by memory");
  cr_assert_eq(p.trials, 7);
  upk_run_spec few;
  parse(ELEMWISE, ",\"iterations\":4", &few);
  upk_runspec_at(&few, 0, &v);
  upk_run_plan_of(&v, UPK_RUN_ROTATION_MAX_BYTES, &p);
  cr_assert_eq(p.sets, 4, "no more sets than timed launches");
  cr_assert_eq(p.trials, 5, "run.trials when that is more");
  upk_runspec_free(&few);
  upk_runspec_at(&s, 0, &v);
  upk_run_plan_of(&v, 10, &p);
  cr_assert_eq(p.sets, 1);
  cr_assert_eq(p.trials, 3, "never fewer than run.trials");
  json_t *j = upk_run_plan_json(&s, 8192 * 7 + 100);
  cr_assert_not_null(j);
  cr_assert_eq(json_integer_value(json_object_get(j, "seed")), 5);
  cr_assert(json_is_true(json_object_get(j, "seedGiven")));
  json_t *shapes = json_object_get(j, "shapes");
  cr_assert_eq(json_array_size(shapes), 3);
  json_t *s1 = json_array_get(shapes, 1);
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(s1, "args"), "x")), 1037);
  cr_assert_eq(json_integer_value(json_object_get(s1, "odd")), 1);
  cr_assert_eq(json_integer_value(json_object_get(s1, "bufferSets")), 6,
               "1037 * 8 bytes a set: 6 fit");
  cr_assert_eq(json_integer_value(json_object_get(s1, "hashedLaunches")), 20);
  cr_assert_eq(json_integer_value(json_object_get(s1, "inputsHashedLaunches")), 6, "one per set");
  const char *seed = json_string_value(json_object_get(json_object_get(j, "inputs"), "x"));
  char want[24];
  snprintf(want, sizeof want, "%016llx", (unsigned long long)upk_run_input_seed(&s, 42));
  cr_assert_str_eq(seed, want);
  cr_assert_null(json_object_get(json_object_get(j, "inputs"), "y"), "out buffers are poisoned");
  json_decref(j);
  upk_runspec_free(&s);
}

/* Inputs are hashed once per set, on its last timed launch: every set's
 * inputs are looked at, and the launches after a kernel starts writing its
 * inputs include each set's last. */
Test(runshape, inputs_hashed_on_each_sets_last_launch) {
  const unsigned cases[][2] = {{20, 6}, {50, 8}, {5, 5}, {7, 1}, {1, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    unsigned timed = cases[c][0], sets = cases[c][1], per_set[8] = {0}, last[8] = {0};
    for (unsigned n = 0; n < timed; n++) {
      last[n % sets] = n;
      if (upk_run_inputs_hashed_at(timed, sets, n))
        per_set[n % sets]++;
    }
    for (unsigned s = 0; s < sets; s++) {
      cr_assert_eq(per_set[s], 1, "%u launches, %u sets: set %u hashed once", timed, sets, s);
      cr_assert(upk_run_inputs_hashed_at(timed, sets, last[s]), "set %u at its last launch", s);
    }
    cr_assert_not(upk_run_inputs_hashed_at(timed, sets, timed), "no launch past the last");
  }
}
