/* libFuzzer target: torch op schemas of a kernel-builder project (gpu/reference/torchop.c): the
 * input as a torch-ext C++ source (upk_torchop_scan: ops.def string literals, comments, raw
 * strings) and as one schema (upk_torchop_parse). The seeds are torch_binding.cpp files written
 * here in kernel-builder's shape. Invariants: every kept op has a name and at most 64 arguments,
 * each named, once; its schema text parses again to the same op; the bad-schema warnings are well
 * formed diagnostics at a line of the input. */
#include "tests/fuzz/fuzz_util.h"
#include "gpu/reference/torchop.h"

static void same_op(const upk_torchop *a) {
  upk_torchop b;
  char err[256];
  CHECK(upk_torchop_parse(a->schema, &b, err, sizeof err) == 0);
  CHECK(!strcmp(a->name, b.name) && !strcmp(a->overload, b.overload));
  CHECK(a->n_args == b.n_args && a->n_ret_tensors == b.n_ret_tensors && a->ret_list == b.ret_list);
  for (size_t i = 0; i < a->n_args; i++)
    CHECK(!strcmp(a->args[i].name, b.args[i].name) && a->args[i].written == b.args[i].written &&
          a->args[i].kind == b.args[i].kind);
  upk_torchop_free(&b);
}

static void check_op(const upk_torchop *op) {
  CHECK(op->name[0] && op->schema && op->n_args <= UPK_TORCHOP_MAX_ARGS);
  for (size_t i = 0; i < op->n_args; i++) {
    CHECK(op->args[i].name[0] && op->args[i].type[0]);
    CHECK(op->args[i].kind <= UPK_TOP_OTHER);
    for (size_t j = 0; j < i; j++)
      CHECK(strcmp(op->args[i].name, op->args[j].name));
  }
  same_op(op);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = fuzz_cstr(data, size);
  upk_torchop_set set = {0};
  upk_diags d = {0};
  CHECK(upk_torchop_scan(buf, size, "torch-ext/torch_binding.cpp", &set, &d) == 0);
  fuzz_check_diags(&d);
  for (size_t i = 0; i < d.len; i++)
    CHECK(d.items[i].severity == UPK_SEV_WARNING && d.items[i].range.line >= 0);
  for (size_t i = 0; i < set.n; i++) {
    check_op(&set.ops[i]);
    CHECK(upk_torchop_find(&set, set.ops[i].name) != NULL || set.ops[i].overload[0]);
  }
  upk_torchop_set_free(&set);
  upk_diags_free(&d);
  upk_torchop op;
  char err[256];
  int rc = upk_torchop_parse(buf, &op, err, sizeof err);
  CHECK(rc == 0 || rc == -EINVAL);
  if (rc == 0) {
    check_op(&op);
    upk_torchop_free(&op);
  } else {
    CHECK(!strncmp(err, "at column ", 10));
  }
  free(buf);
  return 0;
}
