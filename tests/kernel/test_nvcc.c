/* gpu/nvcc (issue 7) with the real nvcc on tests/kernel/mixed: whole files
 * with host code. Per-kernel registers, spills and shared memory equal what
 * `nvcc -cubin -Xptxas -v`, run here directly, prints; error lines equal
 * nvcc's; the automatic backend choice; a missing torch header is one
 * diagnostic at its #include; ptxas errors land on source lines; the compile
 * dies with the thread that started it. Skips without the toolkit's nvcc. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu/compile/validate.h"
#include "gpu/compile/nvcc.h"
#include "gpu/compile/toolkit.h"
#include "common/landlock.h"

#define NEED_NVCC()                                                                                \
  do {                                                                                             \
    char p_[600];                                                                                  \
    if (upk_nvcc_path(NULL, p_, sizeof p_))                                                        \
      cr_skip_test("no nvcc at %s (the nvcc backend needs the full CUDA toolkit)", p_);            \
  } while (0)

static void mixed_path(const char *name, char *path, size_t len) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  snprintf(path, len, "%s/tests/kernel/mixed/%s", root ? root : ".", name);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s (UPK_SOURCE_ROOT unset?)", path);
  char *buf = malloc(1 << 20);
  *len = fread(buf, 1, (1 << 20) - 1, f);
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

/* Validate a file of tests/kernel/mixed as kernel/validate {path} does. */
static int validate(const char *name, upk_backend backend, const char *arch,
                    upk_kvalidate_result *r, char **text) {
  static char path[700], dir[700];
  size_t len;
  mixed_path(name, path, sizeof path);
  snprintf(dir, sizeof dir, "%s", path);
  *strrchr(dir, '/') = '\0';
  *text = slurp(path, &len);
  upk_kvalidate_req req = {
      .compile = {.source = *text, .source_len = len, .file_name = path, .arch = arch},
      .file_dir = dir,
      .backend = backend};
  return upk_kernel_validate(&req, r);
}

/* ---- nvcc itself, run here: the reference figures ---- */

typedef struct ref_kernel {
  char mangled[256];
  int registers;
  long spill_stores, spill_loads, smem, stack;
} ref_kernel;

/* `nvcc -cubin -arch=ARCH -Xptxas -v FILE`: its ptxas report, parsed here
 * independently of gpu/nvlog. Returns the number of kernels. */
static int nvcc_reference(const char *name, const char *arch, ref_kernel *out, int max) {
  char path[700], cmd[2000], nvcc[600], line[1024];
  mixed_path(name, path, sizeof path);
  upk_nvcc_path(NULL, nvcc, sizeof nvcc);
  snprintf(cmd, sizeof cmd, "%s -cubin -arch=%s -Xptxas -v -o /dev/null '%s' 2>&1", nvcc, arch,
           path);
  FILE *p = popen(cmd, "r");
  cr_assert(p);
  int n = -1;
  while (fgets(line, sizeof line, p)) {
    char *s;
    if (sscanf(line, "ptxas info    : Compiling entry function '%255[^']'", out[n + 1].mangled) ==
            1 &&
        n + 1 < max) {
      n++;
      continue;
    }
    if (n < 0)
      continue;
    if ((s = strstr(line, "bytes stack frame")))
      sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
             &out[n].stack, &out[n].spill_stores, &out[n].spill_loads);
    if ((s = strstr(line, "Used ")))
      sscanf(s, "Used %d registers", &out[n].registers);
    if ((s = strstr(line, " bytes smem")))
      while (s > line && s[-1] >= '0' && s[-1] <= '9')
        s--, out[n].smem = strtol(s, NULL, 10);
  }
  pclose(p);
  return n + 1;
}

static const upk_kernel_info *by_mangled(const upk_kvalidate_result *r, const char *m) {
  for (size_t i = 0; i < r->c.n_kernels; i++)
    if (r->c.kernels[i].mangled && !strcmp(r->c.kernels[i].mangled, m))
      return &r->c.kernels[i];
  return NULL;
}

static void check_fidelity(const char *name, const char *arch) {
  ref_kernel ref[16] = {0};
  int n = nvcc_reference(name, arch, ref, 16);
  cr_assert_gt(n, 0, "%s: nvcc reported no kernel", name);
  upk_kvalidate_result r;
  char *text;
  cr_assert_eq(validate(name, UPK_BACKEND_AUTO, arch, &r, &text), 0);
  cr_assert_str_eq(r.backend, "nvcc", "%s has host code: auto must pick nvcc", name);
  cr_assert(r.c.ok, "%s: %s", name, r.c.diags.len ? r.c.diags.items[0].message : "not ok");
  cr_assert_eq(r.c.n_kernels, (size_t)n, "%s: %zu kernels, nvcc says %d", name, r.c.n_kernels, n);
  for (int i = 0; i < n; i++) {
    const upk_kernel_info *k = by_mangled(&r, ref[i].mangled);
    cr_assert(k, "%s: kernel %s missing", name, ref[i].mangled);
    cr_expect_eq(k->registers, ref[i].registers, "%s %s registers", name, k->name);
    cr_expect_eq(k->spill_stores, ref[i].spill_stores, "%s %s spill stores", name, k->name);
    cr_expect_eq(k->spill_loads, ref[i].spill_loads, "%s %s spill loads", name, k->name);
    cr_expect_eq(k->smem_static, ref[i].smem, "%s %s smem", name, k->name);
    cr_expect_eq(k->stack_frame, ref[i].stack, "%s %s stack", name, k->name);
    cr_expect(k->line >= 0, "%s %s: its source line is known", name, k->name);
  }
  cr_assert_not_null(r.c.cubin, "a cubin on success");
  upk_kvalidate_result_free(&r);
  free(text);
}

Test(nvcc, saxpy_main_equals_nvcc) {
  NEED_NVCC();
  check_fidelity("saxpy_main.cu", "sm_90a");
}

Test(nvcc, template_instances_equal_nvcc) {
  NEED_NVCC();
  check_fidelity("reduce_templates.cu", "sm_90a");
}

Test(nvcc, spills_equal_nvcc) {
  NEED_NVCC();
  check_fidelity("spill_bounds.cu", "sm_90a");
  ref_kernel ref[4] = {0};
  nvcc_reference("spill_bounds.cu", "sm_90a", ref, 4);
  bool spilled = false;
  for (int i = 0; i < 4; i++)
    spilled |= ref[i].spill_stores > 0;
  cr_assert(spilled, "the fixture must really spill");
}

Test(nvcc, clusters_and_smem_equal_nvcc) {
  NEED_NVCC();
  check_fidelity("cluster_smem.cu", "sm_90a");
  check_fidelity("cluster_smem.cu", "sm_90");
}

Test(nvcc, constant_memory_and_streams_equal_nvcc) {
  NEED_NVCC();
  check_fidelity("streams_events.cu", "sm_90a");
}

/* nvcc's own error lines, read from its log, against ours. */
Test(nvcc, error_lines_equal_nvcc) {
  NEED_NVCC();
  char path[700], cmd[2000], nvcc[600], line[1024];
  mixed_path("err_mixed.cu", path, sizeof path);
  upk_nvcc_path(NULL, nvcc, sizeof nvcc);
  snprintf(cmd, sizeof cmd, "cd \"$(dirname '%s')\" && %s -cubin -arch=sm_90a -o /dev/null %s 2>&1",
           path, nvcc, "err_mixed.cu");
  FILE *p = popen(cmd, "r");
  int want[8], n_want = 0, l;
  char kind[32];
  while (fgets(line, sizeof line, p))
    if (sscanf(line, "err_mixed.cu(%d): %31[a-z]", &l, kind) == 2 && n_want < 8)
      want[n_want++] = (!strcmp(kind, "error") ? 1000 : 0) + l - 1;
  pclose(p);
  cr_assert_eq(n_want, 2, "nvcc gives one error and one warning");
  upk_kvalidate_result r;
  char *text;
  cr_assert_eq(validate("err_mixed.cu", UPK_BACKEND_AUTO, NULL, &r, &text), 0);
  cr_assert_str_eq(r.backend, "nvcc");
  cr_assert_not(r.c.ok);
  for (int i = 0; i < n_want; i++) {
    bool found = false;
    for (size_t j = 0; j < r.c.diags.len; j++) {
      const upk_diag *d = &r.c.diags.items[j];
      int sev = want[i] >= 1000 ? UPK_SEV_ERROR : UPK_SEV_WARNING;
      found |= d->range.line == want[i] % 1000 && (int)d->severity == sev && !d->file &&
               !strcmp(d->source, "nvcc");
    }
    cr_expect(found, "nvcc's diagnostic on line %d is ours too", want[i] % 1000 + 1);
  }
  const upk_diag *e = NULL;
  for (size_t j = 0; j < r.c.diags.len; j++)
    if (r.c.diags.items[j].severity == UPK_SEV_ERROR)
      e = e ? e : &r.c.diags.items[j];
  cr_assert(e);
  cr_expect_eq(e->range.col, 11, "the column comes from nvcc's caret");
  cr_expect(strstr(e->message, "undefined_scale"));
  upk_kvalidate_result_free(&r);
  free(text);
}

Test(nvcc, auto_picks_nvrtc_for_device_only_code) {
  NEED_NVCC();
  const char *src = "extern \"C\" __global__ void k(float *y) { y[threadIdx.x] = 2.0f; }\n";
  upk_kvalidate_req req = {
      .compile = {.source = src, .source_len = strlen(src), .file_name = "k.cu"}};
  upk_kvalidate_result a, b;
  cr_assert_eq(upk_kernel_validate(&req, &a), 0);
  cr_assert_str_eq(a.backend, "nvrtc");
  cr_assert(a.c.ok);
  req.backend = UPK_BACKEND_NVCC; /* asked for: nvcc, same figures */
  cr_assert_eq(upk_kernel_validate(&req, &b), 0);
  cr_assert_str_eq(b.backend, "nvcc");
  cr_assert(b.c.ok, "%s", b.c.diags.len ? b.c.diags.items[0].message : "");
  cr_assert_eq(a.c.n_kernels, 1);
  cr_assert_eq(b.c.n_kernels, 1);
  cr_expect_str_eq(b.c.kernels[0].name, "k");
  cr_expect_eq(a.c.kernels[0].registers, b.c.kernels[0].registers);
  upk_kvalidate_result_free(&a);
  upk_kvalidate_result_free(&b);
}

Test(nvcc, missing_torch_header_is_one_diagnostic) {
  NEED_NVCC();
  upk_kvalidate_result r;
  char *text;
  cr_assert_eq(validate("torch_ext.cu", UPK_BACKEND_AUTO, NULL, &r, &text), 0);
  cr_assert_str_eq(r.backend, "nvcc", "torch bindings are host code");
  cr_assert_not(r.c.ok);
  cr_assert_eq(upk_diags_count(&r.c.diags, UPK_SEV_ERROR), 1, "one error, not a wall");
  const upk_diag *d = &r.c.diags.items[0];
  for (size_t i = 0; i < r.c.diags.len; i++)
    if (r.c.diags.items[i].severity == UPK_SEV_ERROR)
      d = &r.c.diags.items[i];
  cr_expect_str_eq(d->code, "nvcc/missing-include");
  cr_expect_eq(d->range.line, 1, "the #include is on line 2");
  cr_expect_eq(d->range.col, 10, "the range starts at the header's name");
  cr_expect_eq(d->range.end_col, 27);
  cr_expect(strstr(d->message, "cannot find torch/extension.h"), "%s", d->message);
  cr_expect(strstr(d->message, "includes"), "it says what to do: %s", d->message);
  upk_kvalidate_result_free(&r);
  free(text);
}

/* A header that includes what is missing: the diagnostic is on the main
 * file's #include of that header, naming where the missing include is. */
Test(nvcc, missing_header_inside_a_header) {
  NEED_NVCC();
  char dir[] = "/tmp/upk-test-nvcc-XXXXXX", p[600];
  cr_assert(mkdtemp(dir));
  snprintf(p, sizeof p, "%s/ops.cuh", dir);
  FILE *f = fopen(p, "w");
  fputs("#pragma once\n#include <c10/cuda/CUDAStream.h>\n", f);
  fclose(f);
  const char *src = "#include <cstdio>\n#include \"ops.cuh\"\n__global__ void k() {}\n"
                    "int main() { k<<<1, 1>>>(); }\n";
  snprintf(p, sizeof p, "%s/main.cu", dir);
  upk_kvalidate_req req = {.compile = {.source = src, .source_len = strlen(src), .file_name = p},
                           .file_dir = dir};
  upk_kvalidate_result r;
  cr_assert_eq(upk_kernel_validate(&req, &r), 0);
  cr_assert_str_eq(r.backend, "nvcc");
  cr_assert_eq(upk_diags_count(&r.c.diags, UPK_SEV_ERROR), 1);
  const upk_diag *d = &r.c.diags.items[0];
  cr_expect_str_eq(d->code, "nvcc/missing-include");
  cr_expect_eq(d->range.line, 1, "on the main file's #include \"ops.cuh\"");
  cr_expect_null(d->file);
  cr_expect(strstr(d->message, "c10/cuda/CUDAStream.h") && strstr(d->message, "ops.cuh"), "%s",
            d->message);
  upk_kvalidate_result_free(&r);
  snprintf(p, sizeof p, "rm -rf '%s'", dir);
  cr_assert_eq(system(p), 0);
}

static const upk_diag *find_code(const upk_kvalidate_result *r, const char *code) {
  for (size_t i = 0; i < r->c.diags.len; i++)
    if (!strcmp(r->c.diags.items[i].code, code))
      return &r->c.diags.items[i];
  return NULL;
}

/* wgmma needs sm_90a: ptxas cites a PTX line, which lands on the asm's line. */
Test(nvcc, ptxas_error_on_the_source_line) {
  NEED_NVCC();
  const char *src = "#include <cstdio>\n"
                    "__global__ void fence(float *y) {\n"
                    "  y[0] = 1.0f;\n"
                    "  asm volatile(\"wgmma.fence.sync.aligned;\");\n"
                    "}\n"
                    "int main() { fence<<<1, 128>>>(nullptr); printf(\"ok\\n\"); }\n";
  upk_kvalidate_req req = {
      .compile = {
          .source = src, .source_len = strlen(src), .file_name = "fence.cu", .arch = "sm_90"}};
  upk_kvalidate_result r;
  cr_assert_eq(upk_kernel_validate(&req, &r), 0);
  cr_assert_str_eq(r.backend, "nvcc");
  cr_assert_not(r.c.ok);
  const upk_diag *d = find_code(&r, "ptxas/error");
  cr_assert(d, "a ptxas error");
  cr_expect(strstr(d->message, "wgmma.fence"), "%s", d->message);
  cr_expect_eq(d->range.line, 3, "the asm statement's line");
  upk_kvalidate_result_free(&r);
  req.compile.arch = "sm_90a"; /* and it compiles for the 'a' target */
  cr_assert_eq(upk_kernel_validate(&req, &r), 0);
  cr_expect(r.c.ok);
  upk_kvalidate_result_free(&r);
}

Test(nvcc, names_filter_and_unknown_name) {
  NEED_NVCC();
  char path[700];
  size_t len;
  mixed_path("reduce_templates.cu", path, sizeof path);
  char *text = slurp(path, &len);
  const char *names[] = {"block_sum<float, 256>"};
  upk_compile_req req = {.source = text, .source_len = len, .file_name = path, .names = {names, 1}};
  upk_compile_result r;
  cr_assert_eq(upk_nvcc_compile(&req, &r), 0);
  cr_assert_eq(r.n_kernels, 1);
  cr_expect_str_eq(r.kernels[0].name, "block_sum<float, 256>");
  cr_expect_str_eq(r.kernels[0].mangled, "_Z9block_sumIfLi256EEvPKT_PS0_i");
  upk_compile_result_free(&r);
  const char *none[] = {"not_here"};
  req.names = (upk_strv){none, 1};
  cr_assert_eq(upk_nvcc_compile(&req, &r), 0);
  cr_expect_eq(r.n_kernels, 0);
  cr_expect_not(r.ok && upk_diags_count(&r.diags, UPK_SEV_ERROR) == 0);
  bool unknown = false;
  for (size_t i = 0; i < r.diags.len; i++)
    unknown |= !strcmp(r.diags.items[i].code, "kernel/unknown-name");
  cr_expect(unknown);
  upk_compile_result_free(&r);
  free(text);
}

Test(nvcc, missing_nvcc_is_a_diagnostic) {
  const char *src = "int main() { return 0; }\n";
  upk_compile_req req = {.source = src,
                         .source_len = strlen(src),
                         .file_name = "m.cu",
                         .cuda_path = "/nonexistent/cuda"};
  upk_compile_result r;
  cr_assert_eq(upk_nvcc_compile(&req, &r), -ENOENT);
  cr_assert_eq(r.diags.len, 1);
  cr_expect_str_eq(r.diags.items[0].code, "kernel/no-nvcc");
  cr_expect_not(r.ok);
  upk_compile_result_free(&r);
}

Test(nvcc, supported_archs_come_from_nvcc) {
  NEED_NVCC();
  cr_expect(upk_nvcc_supports(NULL, "sm_90"));
  cr_expect(upk_nvcc_supports(NULL, "sm_80"));
  cr_expect_not(upk_nvcc_supports(NULL, "sm_35"), "no CUDA 13 builds Kepler");
}

/* ---- the guard: the compile dies with the thread that started it ---- */

static bool gone(pid_t pid) {
  char p[64], st[256];
  snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(p, "r");
  if (!f)
    return true;
  size_t n = fread(st, 1, sizeof st - 1, f);
  fclose(f);
  st[n] = '\0';
  const char *close = strrchr(st, ')');
  return close && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

Test(nvcc, child_group_dies_with_its_starter) {
  char dir[] = "/tmp/upk-test-guard-XXXXXX", pids[600];
  cr_assert(mkdtemp(dir));
  snprintf(pids, sizeof pids, "%s/pids", dir);
  pid_t starter = fork();
  if (starter == 0) { /* plays the worker: starts a "compile" with its own child, then waits */
    char script[800];
    snprintf(script, sizeof script, "sleep 60 & echo $$ $! > %s.tmp; mv %s.tmp %s; wait", pids,
             pids, pids);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    char *out;
    size_t len;
    int status;
    upk_child_run(argv, NULL, &out, &len, &status);
    _exit(0);
  }
  int sh = 0, sleeper = 0;
  for (int i = 0; i < 500 && !sleeper; i++) {
    FILE *f = fopen(pids, "r");
    if (f && fscanf(f, "%d %d", &sh, &sleeper) != 2)
      sleeper = 0;
    if (f)
      fclose(f);
    usleep(10000);
  }
  cr_assert_gt(sleeper, 0, "the child started");
  cr_assert_not(gone(sleeper));
  kill(starter, SIGKILL); /* as the pool kills a worker at its deadline */
  waitpid(starter, NULL, 0);
  for (int i = 0; i < 500 && !(gone(sh) && gone(sleeper)); i++)
    usleep(10000);
  cr_expect(gone(sh), "the compile process died with the worker");
  cr_expect(gone(sleeper), "and so did its own children (the whole group)");
  if (!gone(sleeper))
    kill(sleeper, SIGKILL);
  unlink(pids);
  rmdir(dir);
}

Test(nvcc, child_output_and_status) {
  const char *argv[] = {"/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL};
  char *out;
  size_t len;
  int status;
  cr_assert_eq(upk_child_run(argv, "/", &out, &len, &status), 0);
  cr_expect_eq(status, 3);
  cr_expect(strstr(out, "out\n") && strstr(out, "err\n"), "stdout and stderr together: %s", out);
  free(out);
  const char *missing[] = {"/nonexistent/nvcc", NULL};
  cr_expect_eq(upk_child_run(missing, NULL, &out, &len, &status), -ENOEXEC);
  free(out);
}

static void put_file(const char *dir, const char *name, const char *text) {
  char p[700];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  cr_assert(f, "cannot write %s", p);
  fputs(text, f);
  fclose(f);
}

/* A header only the compiler finds: thrust's headers build their host system's path from a
 * macro the file may define, so `#include <thrust/copy.h>` reaches dir/out-side, outside the
 * allowed directories, which the include policy's scan never sees. The header's text must not
 * come back, from nvcc or NVRTC, confined by Landlock (the file cannot be opened) or not (nvcc's
 * dependency list, or the files NVRTC's diagnostics name, refuse the compile; a preprocessor that
 * stopped before listing what it read has its output withheld). */
static void thrust_steered(const char *dir, bool landlock) {
  char p[700], src[1024], file[700], proj[700];
  snprintf(src, sizeof src,
           "#define THRUST_HOST_SYSTEM 4\n#define __THRUST_HOST_SYSTEM_NAMESPACE "
           "../../../../../../../../../../..%s/out-side\n#include <thrust/copy.h>\n"
           "#pragma message(\"got \" SECRET_MACRO)\n"
           "__global__ void k(float *y) { y[0] = 1.f; }\nint main() { return 0; }\n",
           dir);
  snprintf(proj, sizeof proj, "%s/proj", dir);
  put_file(proj, "t.cu", src);
  snprintf(file, sizeof file, "%s/t.cu", proj);
  upk_kvalidate_req req = {.compile = {.source = src, .source_len = strlen(src), .file_name = file},
                           .file_dir = proj,
                           .backend = UPK_BACKEND_NVCC};
  upk_kvalidate_result r;
  setenv("UPK_TEST_NO_SANDBOX", "1", 1); /* the hole bubblewrap would hide */
  if (!landlock)
    setenv("UPK_TEST_NO_LANDLOCK", "1", 1);
  for (int nvrtc = 0; nvrtc < 2; nvrtc++) {
    if (nvrtc) { /* device code only */
      *strstr(src, "int main") = '\0';
      req.compile.source_len = strlen(src);
      req.backend = UPK_BACKEND_NVRTC;
    }
    cr_assert_eq(upk_kernel_validate(&req, &r), 0);
    const char *who = nvrtc ? "NVRTC" : "nvcc";
    cr_expect_not(r.c.ok, "%s", who);
    cr_expect_eq(r.c.confined, landlock, "%s confined: %d", who, r.c.confined);
    bool refused = find_code(&r, "kernel/include-outside") ||
                   (landlock && !nvrtc && find_code(&r, "nvcc/missing-include"));
    cr_expect(refused, "%s (Landlock %d): no refusal: %s %s", who, landlock,
              r.c.diags.len ? r.c.diags.items[0].code : "none",
              r.c.diags.len ? r.c.diags.items[0].message : "");
    for (size_t i = 0; i < r.c.diags.len; i++) {
      const char *m = r.c.diags.items[i].message;
      cr_expect(!strstr(m, "SECRET_TEXT_42") && !strstr(m, "SECRET_VALUE_43"),
                "%s (Landlock %d) leaked: %s", who, landlock, m);
    }
    cr_expect(!r.c.log || (!strstr(r.c.log, "SECRET_TEXT_42") && !strstr(r.c.log, "SECRET_VALUE")),
              "%s (Landlock %d): the log leaked it", who, landlock);
    upk_kvalidate_result_free(&r);
  }
  unsetenv("UPK_TEST_NO_SANDBOX");
  unsetenv("UPK_TEST_NO_LANDLOCK");
  snprintf(p, sizeof p, "%s/proj/t.cu", dir);
  unlink(p);
}

Test(nvcc, a_header_only_the_compiler_reaches_is_refused) {
  NEED_NVCC();
  char dir[] = "/tmp/upk-test-nvcc-XXXXXX", p[700];
  cr_assert(mkdtemp(dir));
  snprintf(p, sizeof p, "%s/proj", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/out-side", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/out-side/detail", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  /* The first header thrust reaches defines a macro the file quotes; the others warn. */
  put_file(p, "execution_policy.h",
           "#define SECRET_MACRO \"SECRET_VALUE_43\"\n#warning SECRET_TEXT_42\n");
  put_file(p, "copy.h", "#warning SECRET_TEXT_42\n");
  thrust_steered(dir, false);
  if (upk_landlock_abi() > 0)
    thrust_steered(dir, true);
  else
    cr_log_warn("no Landlock in this kernel: only the unconfined checks ran");
  snprintf(p, sizeof p, "rm -rf '%s'", dir);
  cr_assert_eq(system(p), 0);
}
