/* A torch op of a kernel-builder project as the reference
 * (tests/gpu/torchop/silu-mul, see its README), through upk_kernel_run_json.
 * Everywhere: the project's op schema reads, its kernels compile, the run
 * spec parses. On a GPU with a python3 that has CUDA torch (UPSKILLD_PYTHON,
 * else python3): the correct kernel passes and is timed against the op, the
 * wrong one is a mismatch, and the project without build/ is
 * run/pytorch-op-unavailable. Elsewhere those skip, saying why. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/gpu/gpu_test.h"
#include "gpu/worker/run_op.h"
#include "gpu/compile/validate.h"
#include "gpu/run/runspec.h"
#include "gpu/reference/torchop.h"

static void proj_path(char *buf, size_t len, const char *rel) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(buf, len, "%s/tests/gpu/torchop/silu-mul%s%s", root ? root : ".", *rel ? "/" : "", rel);
}

static json_t *spec_file(const char *file, const char *kernel) {
  char path[1024];
  json_error_t e;
  proj_path(path, sizeof path, file);
  json_t *doc = json_load_file(path, 0, &e);
  cr_assert_not_null(doc, "%s: %s", path, e.text);
  json_t *run = json_incref(json_object_get(doc, "run"));
  json_decref(doc);
  json_object_set_new(run, "kernel", json_string(kernel));
  return run;
}

static json_t *spec(const char *kernel) {
  return spec_file(strstr(kernel, "scale") ? "run_inplace.json" : "run.json", kernel);
}

static bool have_toolkit(void) {
  return access("/usr/local/cuda/include/nvrtc.h", R_OK) == 0;
}

Test(torchop_gpu, the_project_reads_and_compiles) {
  char dir[1024], cu[1024], err[600];
  proj_path(dir, sizeof dir, "");
  upk_torchop_set set;
  upk_diags d = {0};
  cr_assert_eq(upk_torchop_load(dir, &set, &d, err, sizeof err), 0, "%s", err);
  const upk_torchop *op = upk_torchop_find(&set, "silu_and_mul");
  cr_assert_not_null(op);
  cr_assert_eq(op->n_args, 2);
  cr_assert(op->args[0].written && !op->args[1].written);
  op = upk_torchop_find(&set, "scale_");
  cr_assert(op && op->args[0].written && op->args[1].kind == UPK_TOP_FLOAT);
  cr_assert_str_eq(set.package, "upk_silu_mul");
  upk_torchop_set_free(&set);
  upk_diags_free(&d);
  json_t *run = spec("silu_and_mul_correct");
  cr_assert_eq(upk_runspec_check(run, err, sizeof err), 0, "%s", err);
  json_decref(run);
  run = spec("scale_inplace");
  cr_assert_eq(upk_runspec_check(run, err, sizeof err), 0, "%s", err);
  json_decref(run);
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit");
  setenv("XDG_CACHE_HOME", "/nonexistent-cache-dir", 1);
  proj_path(cu, sizeof cu, "csrc/silu_mul.cu");
  json_t *p = json_pack("{s:s,s:b}", "path", cu, "noCache", 1);
  json_t *r = upk_kernel_validate_json(p, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s",
            json_dumps(json_object_get(r, "diagnostics"), 0));
  cr_assert_eq(json_array_size(json_object_get(r, "kernels")), 3);
  json_decref(r);
  json_decref(p);
}

/* ---- on a GPU with torch --------------------------------------------------- */

static json_t *run_kernel(const char *kernel, const char *cu) {
  char path[1024], err[512] = "";
  proj_path(path, sizeof path, "csrc/silu_mul.cu");
  json_t *p = json_pack("{s:s,s:o,s:b}", "path", cu ? cu : path, "run", spec(kernel), "noCache", 1);
  json_t *r = upk_kernel_run_json(p, err, sizeof err);
  json_decref(p);
  cr_assert_not_null(r, "%s", err);
  char *dump = json_dumps(r, JSON_INDENT(1));
  fprintf(stderr, "%s: %s\n", kernel, dump);
  free(dump);
  return r;
}

Test(torchop_gpu, the_correct_kernel_passes_against_the_op, .timeout = 600) {
  need_gpu_and_torch();
  json_t *r = run_kernel("silu_and_mul_correct", NULL), *run = json_object_get(r, "run");
  cr_assert(run_ok(r));
  cr_assert(json_is_number(json_object_get(run, "referenceTimeMs")), "the op was timed");
  cr_assert(json_number_value(json_object_get(run, "speedup")) > 0);
  json_t *py = json_object_get(run, "pytorch");
  cr_assert_str_eq(json_string_value(json_object_get(py, "op")), "silu_and_mul");
  json_decref(r);
}

Test(torchop_gpu, the_wrong_kernel_is_a_mismatch, .timeout = 600) {
  need_gpu_and_torch();
  json_t *r = run_kernel("silu_and_mul_wrong", NULL);
  cr_assert(!run_ok(r));
  cr_assert_not_null(diag(r, "run/mismatch"));
  json_decref(r);
}

Test(torchop_gpu, an_in_place_kernel_passes_against_the_in_place_op, .timeout = 600) {
  need_gpu_and_torch();
  json_t *r = run_kernel("scale_inplace", NULL);
  cr_assert(run_ok(r));
  cr_assert(json_is_number(json_object_get(json_object_get(r, "run"), "referenceTimeMs")));
  json_decref(r);
}

/* The same project without build/: the op cannot be called, one diagnostic. */
Test(torchop_gpu, an_unbuilt_project_says_so, .timeout = 600) {
  need_gpu_and_torch();
  char src[1024], tmp[] = "/tmp/upk-torchop-gpu-XXXXXX", cmd[3000], cu[1200];
  proj_path(src, sizeof src, "");
  cr_assert_not_null(mkdtemp(tmp));
  snprintf(cmd, sizeof cmd, "cp -r '%s/.' '%s/' && rm -rf '%s/build'", src, tmp, tmp);
  cr_assert_eq(system(cmd), 0);
  snprintf(cu, sizeof cu, "%s/csrc/silu_mul.cu", tmp);
  json_t *r = run_kernel("silu_and_mul_correct", cu);
  json_t *d = diag(r, "run/pytorch-op-unavailable");
  cr_assert_not_null(d);
  cr_assert(strstr(json_string_value(json_object_get(d, "message")), "no built variant for torch"));
  cr_assert_eq(json_array_size(json_object_get(r, "kernels")), 3, "the compile half answered");
  json_decref(r);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  cr_assert_eq(system(cmd), 0);
}
