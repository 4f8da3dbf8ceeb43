/* gpu/buildtoml + gpu/project (issue 7): kernel-builder projects. build.toml
 * errors on the right line, capability strings, the jobs a project gives,
 * and whole-project validation over capabilities (rows equal to nvcc run
 * directly). The parsing tests need no toolkit; the rest skip without nvcc. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/project/buildtoml.h"
#include "gpu/compile/validate.h"
#include "gpu/compile/nvcc.h"
#include "gpu/project/project.h"

#define NEED_NVCC()                                                                                \
  do {                                                                                             \
    char p_[600];                                                                                  \
    if (upk_nvcc_path(NULL, p_, sizeof p_))                                                        \
      cr_skip_test("no nvcc at %s (projects are validated with the full CUDA toolkit)", p_);       \
  } while (0)

static const char *project_dir(const char *name) {
  static char p[700];
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(p, sizeof p, "%s/tests/kernel/projects/%s", root ? root : ".", name);
  return p;
}

static const upk_diag *diag_at(const upk_diags *d, const char *code, int line) {
  for (size_t i = 0; i < d->len; i++)
    if (!strcmp(d->items[i].code, code) && d->items[i].range.line == line)
      return &d->items[i];
  return NULL;
}

static size_t count_code(const upk_diags *d, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += !strcmp(d->items[i].code, code);
  return n;
}

/* ---- build.toml ---- */

Test(buildtoml, capability_strings) {
  static const char *const good[] = {"9.0", "9.0a",  "9.0+PTX", "9.0a+PTX",
                                     "8.0", "10.0a", "12.1",    "7.5"};
  static const char *const bad[] = {"9.5", "sm_90",     "9",    "9.0b", "8.9a", "9.0+ptx",
                                    "",    "9.0a+PTX+", " 9.0", "90",   "9.00", "a9.0"};
  upk_bt_cap c;
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    cr_expect(upk_bt_cap_parse(good[i], &c), "\"%s\" is a capability", good[i]);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_expect_not(upk_bt_cap_parse(bad[i], &c), "\"%s\" is not", bad[i]);
  cr_assert(upk_bt_cap_parse("9.0a+PTX", &c));
  cr_expect(c.major == 9 && c.minor == 0 && c.arch_specific && c.ptx);
  cr_assert(upk_bt_cap_parse("10.3", &c));
  cr_expect(c.major == 10 && c.minor == 3 && !c.arch_specific && !c.ptx);
}

Test(buildtoml, good_project) {
  upk_buildtoml b;
  cr_assert_eq(upk_buildtoml_load(project_dir("good"), &b), 0);
  cr_assert_eq(b.diags.len, 0, "no diagnostics: %s", b.diags.len ? b.diags.items[0].message : "");
  cr_expect_str_eq(b.name, "fused-ops");
  cr_expect_eq(b.version, 1);
  cr_expect_eq(b.edition, 5);
  cr_expect_str_eq(b.framework, "torch");
  cr_expect_eq(b.torch_src.n, 2);
  cr_assert_eq(b.n_kernels, 4);
  const char *order[] = {"activation", "rmsnorm", "softmax", "transpose"};
  for (int i = 0; i < 4; i++)
    cr_expect_str_eq(b.kernels[i].name, order[i], "kernels in file order");
  const upk_bt_kernel *k = &b.kernels[1];
  cr_expect_eq(k->line, 20, "[kernel.rmsnorm] is on line 21");
  cr_expect_str_eq(k->backend, "cuda");
  cr_assert_eq(k->n_caps, 1);
  cr_expect(k->caps[0].arch_specific && k->caps[0].ptx);
  cr_expect_eq(k->caps[0].text.line, 25);
  cr_expect_eq(k->caps[0].text.col, 21);
  cr_assert_eq(k->cuda_flags.n, 3);
  cr_expect_str_eq(k->cuda_flags.v[2].s, "-DRMS_EPS=1e-6f");
  cr_expect_eq(b.kernels[0].src.n, 2);
  cr_expect_eq(b.kernels[0].include.n, 1);
  upk_buildtoml_free(&b);
}

Test(buildtoml, errors_on_their_lines) {
  upk_buildtoml b;
  cr_assert_eq(upk_buildtoml_load(project_dir("bad"), &b), 0);
  const upk_diag *d = diag_at(&b.diags, "buildtoml/unknown-key", 6);
  cr_assert(d, "homepage (line 7) is not an edition-5 key");
  cr_expect(strstr(d->message, "homepage"), "%s", d->message);
  cr_expect_eq(d->range.col, 0);
  cr_expect_eq(d->range.end_col, 8);
  cr_expect(d->file && strstr(d->file, "bad/build.toml"), "the diagnostic names build.toml");
  d = diag_at(&b.diags, "buildtoml/missing-src", 14);
  cr_assert(d, "kernel_src/missing.cu (line 15) does not exist");
  cr_expect(strstr(d->message, "kernel_src/missing.cu"));
  cr_expect_eq(d->range.col, 30);
  cr_expect_eq(count_code(&b.diags, "buildtoml/missing-src"), 1, "scale.cu exists");
  cr_expect_eq(count_code(&b.diags, "buildtoml/bad-capability"), 2, "9.5 and sm_90");
  d = diag_at(&b.diags, "buildtoml/bad-capability", 15);
  cr_assert(d);
  cr_expect(strstr(d->message, "\"9.5\""), "%s", d->message);
  cr_expect_eq(d->range.col, 28, "on the string itself");
  d = diag_at(&b.diags, "buildtoml/unknown-key", 16);
  cr_assert(d, "cuda_flags (line 17) is spelled cuda-flags");
  cr_expect(strstr(d->message, "cuda-flags"), "%s", d->message);
  d = diag_at(&b.diags, "buildtoml/missing-key", 18);
  cr_assert(d, "[kernel.noarch] (line 19) has no backend");
  cr_expect_eq(count_code(&b.diags, "buildtoml/unknown-key"), 2, "homepage and cuda_flags only");
  cr_expect(strstr(d->message, "backend"));
  cr_assert_eq(b.n_kernels, 2);
  cr_expect_eq(b.kernels[0].n_caps, 2, "the well-formed capabilities are kept");
  upk_buildtoml_free(&b);
}

static void parse_text(const char *text, upk_buildtoml *b) {
  cr_assert_eq(upk_buildtoml_parse(text, strlen(text), "/nowhere/build.toml", b), 0);
}

Test(buildtoml, syntax_error_line) {
  upk_buildtoml b;
  parse_text("[general]\nname = \"x\"\nversion = = 1\n", &b);
  cr_assert_eq(b.diags.len, 1);
  cr_expect_str_eq(b.diags.items[0].code, "buildtoml/syntax");
  cr_expect_eq(b.diags.items[0].range.line, 2);
  upk_buildtoml_free(&b);
}

Test(buildtoml, editions_and_framework) {
  upk_buildtoml b;
  parse_text("[general]\nname = \"x\"\nversion = 1\nedition = 3\nlicense = \"MIT\"\n"
             "backends = [\"cuda\"]\n",
             &b);
  const upk_diag *d = diag_at(&b.diags, "buildtoml/edition", 3);
  cr_assert(d);
  cr_expect_eq(d->severity, UPK_SEV_ERROR, "3 must be migrated");
  upk_buildtoml_free(&b);
  parse_text("[general]\nname = \"x\"\nversion = 1\nedition = 4\nlicense = \"MIT\"\n"
             "backends = [\"cuda\", \"opencl\"]\n[torch]\n[tvm-ffi]\nsrc = []\n",
             &b);
  d = diag_at(&b.diags, "buildtoml/edition", 3);
  cr_assert(d);
  cr_expect_eq(d->severity, UPK_SEV_WARNING, "4 is upgraded in memory");
  cr_expect(diag_at(&b.diags, "buildtoml/unknown-value", 5), "opencl is no backend");
  cr_expect(diag_at(&b.diags, "buildtoml/framework", 7), "one framework section only");
  upk_buildtoml_free(&b);
  parse_text("[general]\nname = 1\n", &b);
  cr_expect(diag_at(&b.diags, "buildtoml/type", 1), "name must be a string");
  cr_expect_geq(count_code(&b.diags, "buildtoml/missing-key"), 4, "version, edition, ...");
  upk_buildtoml_free(&b);
}

Test(buildtoml, unreadable) {
  upk_buildtoml b;
  cr_assert_eq(upk_buildtoml_load("/nonexistent/project", &b), 0);
  cr_assert_eq(b.diags.len, 1);
  cr_expect_str_eq(b.diags.items[0].code, "buildtoml/unreadable");
  upk_buildtoml_free(&b);
}

/* ---- projects ---- */

Test(project, jobs_per_file_and_capability) {
  NEED_NVCC();
  upk_project p;
  cr_assert_eq(upk_project_load(project_dir("good"), NULL, &p), 0);
  cr_assert_eq(p.n_jobs, 6, "activation x2, rmsnorm, softmax x2, transpose");
  static const char *const want[][3] = {
      {"activation", "kernel_src/activation.cu", "sm_90"},
      {"activation", "kernel_src/activation.cu", "sm_90a"},
      {"rmsnorm", "kernel_src/rmsnorm.cu", "sm_90a"},
      {"softmax", "kernel_src/softmax.cu", "sm_80"},
      {"softmax", "kernel_src/softmax.cu", "sm_90a"},
      {"transpose", "kernel_src/transpose.cu", "sm_90a"},
  };
  for (size_t i = 0; i < 6; i++) {
    cr_expect_str_eq(p.jobs[i].kernel->name, want[i][0]);
    cr_expect_str_eq(p.jobs[i].src, want[i][1]);
    cr_expect_str_eq(p.jobs[i].arch, want[i][2]);
    cr_expect_eq(p.jobs[i].file[0], '/', "absolute");
  }
  cr_expect_eq(p.jobs[2].flags.n, 3);
  cr_assert_eq(p.jobs[0].includes.n, 1);
  cr_expect(strstr(p.jobs[0].includes.v[0], "/good/kernel_src/include"));
  upk_project_free(&p);
}

Test(project, defaults_and_unsupported_capabilities) {
  NEED_NVCC();
  char dir[] = "/tmp/upk-test-project-XXXXXX", path[600];
  cr_assert(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/k.cu", dir);
  FILE *f = fopen(path, "w");
  fputs("extern \"C\" __global__ void k(float *y) { y[0] = 1; }\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/build.toml", dir);
  f = fopen(path, "w");
  fputs("[general]\nname = \"t\"\nversion = 1\nedition = 5\nlicense = \"MIT\"\n"
        "backends = [\"cuda\"]\n[torch]\nsrc = []\n"
        "[kernel.a]\nbackend = \"cuda\"\ndepends = []\nsrc = [\"k.cu\"]\n"
        "[kernel.b]\nbackend = \"cuda\"\ndepends = []\nsrc = [\"k.cu\"]\n"
        "cuda-capabilities = [\"7.0\", \"9.0\"]\n"
        "[kernel.c]\nbackend = \"metal\"\ndepends = []\nsrc = [\"k.cu\"]\n",
        f);
  fclose(f);
  upk_project p;
  cr_assert_eq(upk_project_load(dir, NULL, &p), 0);
  cr_assert_eq(p.n_jobs, 2, "a: 9.0 by default; b: 9.0 (7.0 is not built by CUDA 13)");
  cr_expect_str_eq(p.jobs[0].arch, "sm_90");
  cr_expect(diag_at(&p.bt.diags, "buildtoml/default-capability", 8));
  const upk_diag *d = diag_at(&p.bt.diags, "buildtoml/unsupported-capability", 16);
  cr_assert(d, "7.0 is skipped with a warning on its line");
  cr_expect_eq(d->severity, UPK_SEV_WARNING);
  cr_expect_eq(d->range.col, 21);
  cr_expect(diag_at(&p.bt.diags, "buildtoml/not-validated", 17), "metal is not validated");
  upk_project_free(&p);
  snprintf(path, sizeof path, "rm -rf '%s'", dir);
  cr_assert_eq(system(path), 0);
}

/* Registers of one kernel as nvcc itself reports them for one file and arch. */
static int nvcc_registers(const char *file, const char *arch, const char *flags,
                          const char *mangled) {
  char cmd[2000], line[1024], nvcc[600], entry[300] = "";
  upk_nvcc_path(NULL, nvcc, sizeof nvcc);
  snprintf(cmd, sizeof cmd, "%s -x cu -cubin -arch=%s %s -Xptxas -v -o /dev/null '%s' 2>&1", nvcc,
           arch, flags, file);
  FILE *p = popen(cmd, "r");
  int regs = -1;
  while (fgets(line, sizeof line, p)) {
    sscanf(line, "ptxas info    : Compiling entry function '%299[^']'", entry);
    const char *u = strstr(line, "Used ");
    if (u && !strcmp(entry, mangled))
      sscanf(u, "Used %d registers", &regs);
  }
  pclose(p);
  return regs;
}

Test(project, validates_every_file_for_every_capability) {
  NEED_NVCC();
  upk_project p;
  cr_assert_eq(upk_project_load(project_dir("good"), NULL, &p), 0);
  upk_kvalidate_result rs[6];
  int rcs[6];
  upk_kvalidate_req base = {0};
  cr_assert_eq(upk_project_validate(&p, &base, 0, rs, rcs), 0);
  static const char *const backend[] = {"nvrtc", "nvrtc", "nvcc", "nvcc", "nvcc", "nvcc"};
  for (size_t i = 0; i < p.n_jobs; i++) {
    const upk_project_job *j = &p.jobs[i];
    cr_expect_eq(rcs[i], 0);
    cr_expect(rs[i].c.ok, "%s %s: %s", j->src, j->arch,
              rs[i].c.diags.len ? rs[i].c.diags.items[0].message : "");
    cr_expect_str_eq(rs[i].backend, backend[i],
                     "%s: device-only code keeps NVRTC, host code "
                     "and cuda-flags take nvcc",
                     j->src);
    cr_assert_gt(rs[i].c.n_kernels, 0, "%s %s", j->src, j->arch);
    char inc[800]; /* what build.toml gives this kernel */
    snprintf(inc, sizeof inc, "-I'%s'%s", j->includes.n ? j->includes.v[0] : ".",
             j->flags.n ? " -DRMS_EPS=1e-6f --use_fast_math" : "");
    for (size_t k = 0; k < rs[i].c.n_kernels; k++) {
      const upk_kernel_info *ki = &rs[i].c.kernels[k];
      int want = nvcc_registers(j->file, j->arch, inc, ki->mangled);
      cr_expect_eq(ki->registers, want, "%s %s %s: %d registers, nvcc says %d", j->src, j->arch,
                   ki->name, ki->registers, want);
    }
  }
  for (size_t i = 0; i < p.n_jobs; i++)
    upk_kvalidate_result_free(&rs[i]);
  upk_project_free(&p);
}

static json_t *validate_json(const char *dir) {
  char err[256] = "";
  json_t *params = json_pack("{s:s,s:b}", "project", dir, "noCache", 1);
  json_t *r = upk_kernel_validate_json(params, err, sizeof err);
  json_decref(params);
  cr_assert(r, "%s", err);
  return r;
}

Test(project, wire_result_rows_and_dependencies) {
  NEED_NVCC();
  json_t *r = validate_json(project_dir("good"));
  cr_expect(json_is_true(json_object_get(r, "ok")));
  cr_expect_str_eq(json_string_value(json_object_get(r, "name")), "fused-ops");
  json_t *rows = json_object_get(r, "rows"), *row;
  cr_assert_eq(json_array_size(rows), 6);
  size_t i;
  json_array_foreach(rows, i, row) {
    cr_expect(json_is_string(json_object_get(row, "kernel")));
    cr_expect(json_is_string(json_object_get(row, "capability")));
    cr_expect(json_array_size(json_object_get(row, "kernels")) > 0);
  }
  cr_expect_str_eq(json_string_value(json_object_get(json_array_get(rows, 2), "capability")),
                   "9.0a+PTX");
  json_t *deps = json_object_get(r, "dependencies");
  bool toml = false, header = false;
  json_array_foreach(deps, i, row) {
    const char *path = json_string_value(json_object_get(row, "path"));
    toml |= strstr(path, "good/build.toml") != NULL;
    header |= strstr(path, "common.cuh") != NULL;
  }
  cr_expect(toml, "build.toml is a dependency (editing it revalidates)");
  cr_expect(header, "so are the headers the sources reach");
  json_decref(r);
}

Test(project, bad_build_toml_in_the_result) {
  NEED_NVCC();
  json_t *r = validate_json(project_dir("bad"));
  cr_expect(json_is_false(json_object_get(r, "ok")));
  json_t *diags = json_object_get(r, "diagnostics"), *d;
  size_t i, bad_caps = 0;
  json_array_foreach(diags, i, d) {
    bad_caps += !strcmp(json_string_value(json_object_get(d, "code")), "buildtoml/bad-capability");
    cr_expect(strstr(json_string_value(json_object_get(d, "file")), "build.toml"));
  }
  cr_expect_eq(bad_caps, 2);
  /* scale.cu still validates for the good capabilities, 9.0 and 9.0a+PTX */
  cr_expect_eq(json_array_size(json_object_get(r, "rows")), 2);
  json_decref(r);
}

Test(project, missing_torch_is_one_diagnostic_per_row) {
  NEED_NVCC();
  json_t *r = validate_json(project_dir("torch_missing"));
  json_t *rows = json_object_get(r, "rows");
  cr_assert_eq(json_array_size(rows), 1);
  json_t *row = json_array_get(rows, 0), *d;
  cr_expect_str_eq(json_string_value(json_object_get(row, "backend")), "nvcc");
  json_t *diags = json_object_get(row, "diagnostics");
  size_t i, errors = 0;
  json_array_foreach(diags, i, d) {
    if (json_integer_value(json_object_get(d, "severity")) != 1)
      continue;
    errors++;
    cr_expect_str_eq(json_string_value(json_object_get(d, "code")), "nvcc/missing-include");
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    cr_expect_eq(json_integer_value(json_object_get(start, "line")), 1);
    cr_expect(strstr(json_string_value(json_object_get(d, "file")), "kernel_src/relu.cu"));
  }
  cr_expect_eq(errors, 1);
  json_decref(r);
}
