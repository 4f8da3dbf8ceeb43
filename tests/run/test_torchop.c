/* torch op schemas of a kernel-builder project (gpu/reference/torchop.h): the schema
 * grammar, the scan of C++ sources for ops.def, a project's ops by its
 * build.toml, and the form of run.reference.pytorch.{op, args} in a run
 * spec. The fixtures are written here in the shape of kernel-builder's
 * torch-ext/torch_binding.cpp. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/run/run_test.h" /* rt_put */
#include "gpu/run/runspec.h"
#include "gpu/reference/torchop.h"

static upk_torchop parse_ok(const char *schema) {
  upk_torchop op;
  char err[256] = "";
  int rc = upk_torchop_parse(schema, &op, err, sizeof err);
  cr_assert_eq(rc, 0, "%s: %s", schema, err);
  return op;
}

static const char *parse_err(const char *schema) {
  static char err[256];
  upk_torchop op;
  cr_assert_eq(upk_torchop_parse(schema, &op, err, sizeof err), -EINVAL, "%s parsed", schema);
  return err;
}

Test(torchop, out_and_input) {
  upk_torchop op = parse_ok("scale_rows(Tensor! out, Tensor input) -> ()");
  cr_assert_str_eq(op.name, "scale_rows");
  cr_assert_eq(op.n_args, 2);
  cr_assert_str_eq(op.args[0].name, "out");
  cr_assert(op.args[0].written);
  cr_assert_eq(op.args[0].kind, UPK_TOP_TENSOR);
  cr_assert_str_eq(op.args[1].name, "input");
  cr_assert_not(op.args[1].written);
  cr_assert_eq(op.n_ret_tensors, 0);
  cr_assert_not(op.ret_list);
  upk_torchop_free(&op);
}

Test(torchop, every_kind_of_argument) {
  upk_torchop op = parse_ok(
      "myns::fused.out(Tensor(a!) x, Tensor (b!) y, Tensor !z, Tensor? bias=None, float eps=1e-6, "
      "int[] sizes, int[2] stride=[1, 1], SymInt n, bool flag, str mode=\"tanh\", Scalar s, "
      "ScalarType? dt=None, Tensor?[] list, *, Generator? gen=None) -> (Tensor out, Tensor lse)");
  cr_assert_str_eq(op.name, "fused");
  cr_assert_str_eq(op.overload, "out");
  cr_assert_eq(op.n_args, 14);
  cr_assert(op.args[0].written && op.args[1].written && op.args[2].written);
  cr_assert_str_eq(op.args[0].type, "Tensor(a!)");
  cr_assert(op.args[3].optional && op.args[3].has_default);
  cr_assert_str_eq(op.args[3].def, "None");
  cr_assert_eq(op.args[4].kind, UPK_TOP_FLOAT);
  cr_assert_str_eq(op.args[4].def, "1e-6");
  cr_assert(op.args[5].list && op.args[5].kind == UPK_TOP_INT);
  cr_assert_str_eq(op.args[6].def, "[1, 1]");
  cr_assert_eq(op.args[7].kind, UPK_TOP_INT);
  cr_assert_eq(op.args[8].kind, UPK_TOP_BOOL);
  cr_assert_str_eq(op.args[9].def, "\"tanh\"");
  cr_assert_eq(op.args[10].kind, UPK_TOP_SCALAR);
  cr_assert_eq(op.args[11].kind, UPK_TOP_OTHER);
  cr_assert_eq(op.args[12].kind, UPK_TOP_TENSOR_LIST);
  cr_assert(op.args[13].kwonly && !op.args[12].kwonly);
  cr_assert_eq(op.n_ret_tensors, 2);
  upk_torchop_free(&op);
}

Test(torchop, returns) {
  upk_torchop a = parse_ok("f(Tensor x) -> Tensor"), b = parse_ok("g(Tensor x) -> Tensor[]"),
              c = parse_ok("h() -> (Tensor, int)"), d = parse_ok("k(Tensor(a!) x) -> Tensor(a!)");
  cr_assert_eq(a.n_ret_tensors, 1);
  cr_assert(b.ret_list && b.n_ret_tensors == 0);
  cr_assert_eq(c.n_args, 0);
  cr_assert_eq(c.n_ret_tensors, 1);
  cr_assert_eq(d.n_ret_tensors, 1);
  upk_torchop_free(&a), upk_torchop_free(&b), upk_torchop_free(&c), upk_torchop_free(&d);
}

Test(torchop, errors_say_where) {
  cr_assert_str_eq(parse_err("f(Tensor x)"), "at column 12: expected '->' and the return type");
  cr_assert_str_eq(parse_err("f(Tensor x Tensor y) -> ()"), "at column 12: expected ',' or ')'");
  cr_assert_str_eq(parse_err("f(Tensor) -> ()"), "at column 9: expected an argument name");
  cr_assert_str_eq(parse_err("(Tensor x) -> ()"), "at column 1: expected the op's name");
  cr_assert_str_eq(parse_err("f(int[ x) -> ()"), "at column 7: expected ']' after '['");
  cr_assert_str_eq(parse_err("f(float x=) -> ()"),
                   "at column 11: expected a default value after '='");
  cr_assert_str_eq(parse_err("f(Tensor x, int x) -> ()"),
                   "at column 17: argument 'x' appears twice");
  cr_assert_str_eq(parse_err("f() -> () junk"),
                   "at column 11: unexpected 'j' after the return type");
}

static const char BINDING[] = "#include \"registration.h\"\n"
                              "// ops.def(\"commented(Tensor x) -> ()\");\n"
                              "/* ops.def(\"blocked(Tensor x) -> ()\"); */\n"
                              "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
                              "#if defined(CUDA_KERNEL)\n"
                              "  ops.def(\"scale_rows(Tensor! out, Tensor input) -> ()\");\n"
                              "#else\n"
                              "  ops.def(\"scale_rows(Tensor! out, Tensor input) -> ()\");\n"
                              "#endif\n"
                              "  ops.def(\"rope(Tensor x1, Tensor x2,\"\n"
                              "          \"Tensor! out1, Tensor! out2, bool conj) -> ()\");\n"
                              "  ops.def(\"inferred\", &inferred);\n"
                              "  ops.def(\"broken(Tensor x -> ()\");\n"
                              "  m->def(R\"(norm(Tensor x, float eps) -> Tensor)\");\n"
                              "  ops.def(\"na\" #DIM \"d_fwd(Tensor x) -> ()\");\n"
                              "}\n";

Test(torchop, scan_reads_defs_not_comments) {
  upk_torchop_set set = {0};
  upk_diags d = {0};
  cr_assert_eq(upk_torchop_scan(BINDING, strlen(BINDING), "tx/torch_binding.cpp", &set, &d), 0);
  cr_assert_eq(set.n, 3, "scale_rows once, rope, norm");
  cr_assert_str_eq(set.ops[0].name, "scale_rows");
  cr_assert_eq(set.ops[0].line, 5);
  cr_assert_str_eq(set.ops[0].file, "tx/torch_binding.cpp");
  const upk_torchop *rope = upk_torchop_find(&set, "rope");
  cr_assert_not_null(rope);
  cr_assert_eq(rope->n_args, 5, "adjacent literals are joined");
  cr_assert(rope->args[2].written && rope->args[3].written);
  cr_assert_not_null(upk_torchop_find(&set, "norm"));
  cr_assert_null(upk_torchop_find(&set, "commented"));
  cr_assert_null(upk_torchop_find(&set, "inferred"));
  cr_assert_eq(set.n_inferred, 1);
  cr_assert_str_eq(set.inferred[0], "inferred");
  cr_assert_null(upk_torchop_find(&set, "na"), "a macro's stringized name is not read");
  cr_assert_null(upk_torchop_find(&set, "scale_rows.out"), "no such overload");
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "torchop/bad-schema");
  cr_assert_eq(d.items[0].severity, UPK_SEV_WARNING);
  cr_assert_eq(d.items[0].range.line, 12);
  cr_assert_str_eq(d.items[0].file, "tx/torch_binding.cpp");
  cr_assert(strstr(d.items[0].message, "broken(Tensor x -> ()"), "%s", d.items[0].message);
  upk_torchop_set_free(&set);
  upk_diags_free(&d);
}

Test(torchop, load_a_project) {
  char dir[] = "/tmp/upk-torchop-XXXXXX", sub[600], err[600] = "";
  cr_assert_not_null(mkdtemp(dir));
  snprintf(sub, sizeof sub, "%s/torch-ext", dir);
  cr_assert_eq(mkdir(sub, 0700), 0);
  rt_put(dir, "build.toml",
         "[general]\nname = \"row-ops\"\nbackends = [\"cuda\"]\n\n[torch]\nsrc = "
         "[\"torch-ext/binding.cpp\", \"torch-ext/binding.h\"]\n");
  rt_put(dir, "torch-ext/binding.cpp", BINDING);
  rt_put(dir, "torch-ext/binding.h", "#pragma once\n");
  upk_torchop_set set;
  upk_diags d = {0};
  cr_assert_eq(upk_torchop_load(dir, &set, &d, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(set.package, "row_ops");
  cr_assert_eq(set.n_files, 2);
  cr_assert_eq(set.n, 3);
  upk_torchop_set_free(&set);
  upk_diags_free(&d);
  /* No [torch] src: torch-ext/torch_binding.cpp; none of either: -ENOENT. */
  rt_put(dir, "build.toml", "[general]\nname = \"row-ops\"\nbackends = [\"cuda\"]\n");
  cr_assert_eq(upk_torchop_load(dir, &set, &d, err, sizeof err), -ENOENT);
  cr_assert(strstr(err, "no readable torch-ext C++ source"), "%s", err);
  upk_torchop_set_free(&set);
  rt_put(dir, "torch-ext/torch_binding.cpp", "ops.def(\"only(Tensor! o, Tensor i) -> ()\");\n");
  cr_assert_eq(upk_torchop_load(dir, &set, &d, err, sizeof err), 0, "%s", err);
  cr_assert_eq(set.n, 1);
  upk_torchop_set_free(&set);
  upk_diags_free(&d);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* run.reference.pytorch with op: the form checked on the daemon's loop. */
static const char *spec_err(const char *py) {
  static char err[512];
  char text[1024];
  snprintf(text, sizeof text,
           "{\"grid\":1,\"block\":1,\"args\":[{\"from\":\"input0\"},{\"from\":\"output\"}],"
           "\"reference\":{\"pytorch\":%s}}",
           py);
  json_t *run = json_loads(text, 0, NULL);
  cr_assert_not_null(run, "%s", text);
  err[0] = '\0';
  int rc = upk_runspec_check(run, err, sizeof err);
  json_decref(run);
  return rc ? err : NULL;
}

Test(torchop, spec_form) {
  cr_assert_null(spec_err("{\"op\":\"scale_rows\",\"args\":{\"out\":{\"dtype\":\"f16\",\"shape\":"
                          "[4,8]},\"input\":{\"dtype\":\"f16\",\"shape\":[4,8],\"low\":0,"
                          "\"high\":2},\"eps\":1e-6,\"sizes\":[1,2],\"bias\":null}}"));
  cr_assert_null(spec_err("{\"op\":\"scale_rows\",\"project\":\"kb/row-ops\"}"));
  cr_assert_str_eq(spec_err("{\"op\":\"x\",\"path\":\"p.py\"}"),
                   "run.reference.pytorch: give exactly one of path (a problem .py file), source "
                   "(its text) or op (a torch op of a kernel-builder project's torch-ext/)");
  cr_assert_str_eq(spec_err("{\"path\":\"p.py\",\"args\":{}}"),
                   "run.reference.pytorch: args and project go with op (a torch op), not a "
                   "problem file");
  cr_assert_str_eq(spec_err("{\"op\":\"x\",\"model\":\"M\"}"),
                   "run.reference.pytorch: model is for a problem file, not an op");
  cr_assert_str_eq(spec_err("{\"op\":\"\"}"),
                   "run.reference.pytorch.op: must be a non-empty string");
  cr_assert(strstr(spec_err("{\"op\":\"x\",\"args\":[1]}"),
                   "run.reference.pytorch.args: must be an object of the op's arguments by name"));
  cr_assert_str_eq(spec_err("{\"op\":\"x\",\"args\":{\"out\":{\"shape\":[4]}}}"),
                   "run.reference.pytorch.args.out: dtype is required: one of f32, f16, bf16, "
                   "f64, i8, i32, i64, u8, u32");
  cr_assert_str_eq(spec_err("{\"op\":\"x\",\"args\":{\"out\":{\"dtype\":\"f32\"}}}"),
                   "run.reference.pytorch.args.out: shape is required: an array of up to 8 sizes");
  cr_assert(strstr(spec_err("{\"op\":\"x\",\"args\":{\"out\":{\"dtype\":\"f32\",\"shape\":[0]}}}"),
                   "args.out: every size of shape is a positive integer"));
  cr_assert(strstr(spec_err("{\"op\":\"x\",\"args\":{\"o\":{\"dtype\":\"f32\",\"shape\":[1],"
                            "\"init\":1}}}"),
                   "args.o: a tensor is {dtype, shape, low?, high?}; unknown key"));
  cr_assert_str_eq(spec_err("{\"op\":\"x\",\"args\":{\"o\":{\"dtype\":\"f32\",\"shape\":[1],"
                            "\"low\":1,\"high\":1}}}"),
                   "run.reference.pytorch.args.o: low must be below high");
  cr_assert(strstr(spec_err("{\"op\":\"x\",\"args\":{\"sizes\":[1,\"a\"]}}"),
                   "args.sizes: a list value holds numbers"));
}
