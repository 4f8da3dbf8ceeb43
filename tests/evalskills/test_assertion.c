/* Assertions on answers: contains / not_contains / regex, CUDA block
 * extraction from real-looking answers, kernel checks answered at once, later,
 * never (skipped), and by the real NVRTC through gpu/compile. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skills/eval/assertion.h"
#include "gpu/compile/compile.h"
#include "gpu/compile/toolkit.h"

static char *vals1[] = {"__syncthreads", "Shared Memory"};

static upk_assertion text(upk_assert_kind k, char **v, size_t n) {
  return (upk_assertion){.kind = k, .values = v, .n_values = n};
}

Test(text, contains_every_item_case_insensitively) {
  upk_assertion a = text(UPK_ASSERT_CONTAINS, vals1, 2);
  upk_assert_report r;
  cr_assert_eq(
      upk_assert_evaluate(&a, 1, "Use __SYNCTHREADS() after the SHARED memory load.", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_PASS);
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_PASS);
  cr_assert_eq(r.passed, 1);
  upk_assert_report_free(&r);
  cr_assert_eq(upk_assert_evaluate(&a, 1, "Use __syncthreads() only.", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "Shared Memory"), "%s", r.results[0].reason);
  cr_assert_str_eq(r.results[0].label, "contains [\"__syncthreads\", \"Shared Memory\"]");
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_FAIL);
  upk_assert_report_free(&r);
}

Test(text, not_contains) {
  char *bad[] = {"cudaDeviceSynchronize", "malloc("};
  upk_assertion a = text(UPK_ASSERT_NOT_CONTAINS, bad, 2);
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(&a, 1, "call CUDADEVICESYNCHRONIZE() in the loop", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "cudaDeviceSynchronize"));
  upk_assert_report_free(&r);
  cr_assert_eq(upk_assert_evaluate(&a, 1, "use streams and events", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_PASS);
  upk_assert_report_free(&r);
}

Test(text, regex_case_insensitive_and_line_anchored) {
  char *pats[] = {"^__global__ void [a-z_]+\\(", "blockDim\\.x ?\\* ?blockIdx\\.x"};
  upk_assertion a = text(UPK_ASSERT_REGEX, pats, 2);
  upk_assert_report r;
  const char *ans =
      "Here:\n__GLOBAL__ void scale(float *x) {\n int i = BLOCKDIM.X * blockIdx.x;\n}";
  cr_assert_eq(upk_assert_evaluate(&a, 1, ans, NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_PASS, "%s", r.results[0].reason);
  upk_assert_report_free(&r);
  cr_assert_eq(upk_assert_evaluate(&a, 1, "void __global__ scale() {}", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  upk_assert_report_free(&r);
}

Test(text, bad_regex_is_an_error_not_a_crash) {
  char *pats[] = {"ok", "([unclosed", "a{2,1}"};
  upk_assertion a = text(UPK_ASSERT_REGEX, pats, 3);
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(&a, 1, "ok ([unclosed", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_ERROR);
  cr_assert(strstr(r.results[0].reason, "invalid regular expression \"([unclosed\""), "%s",
            r.results[0].reason);
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_ERROR);
  cr_assert_eq(r.errors, 1);
  cr_assert_eq(r.passed, 0);
  upk_assert_report_free(&r);
}

Test(text, empty_assertions_prove_nothing) {
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(NULL, 0, "anything", NULL, &r), 0);
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_ERROR);
  upk_assert_report_free(&r);
  upk_assertion a = text(UPK_ASSERT_CONTAINS, NULL, 0);
  cr_assert_eq(upk_assert_evaluate(&a, 1, "anything", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_ERROR);
  upk_assert_report_free(&r);
}

/* ---- CUDA code blocks ---------------------------------------------------- */

static const char ANSWER[] =
    "Sure! Here is a tiled kernel.\n\n"
    "```cuda\n"
    "__global__ void scale(float *x, float a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n"
    "```\n\n"
    "Launch it from the host:\n\n"
    "```cpp\nscale<<<(n + 255) / 256, 256>>>(d_x, 2.0f, n);\n```\n\n"
    "And in Python (CuPy) you would write:\n\n"
    "```python\nk = cp.RawKernel(r'''__global__ void f() {}''', 'f')\n```\n\n"
    "- A variant inside a list:\n\n"
    "  ~~~cu\n"
    "  extern \"C\" __global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n"
    "  ~~~\n\n"
    "```\n__global__ void untagged(int *p) { *p = 1; }\n```\n\n"
    "```c++ {.numberLines}\ntemplate <int N> __global__ void t(float *x) { x[N] = 0; }\n```\n";

Test(blocks, extracts_cuda_fences_with_kernels) {
  char **b;
  size_t n;
  cr_assert_eq(upk_extract_cuda_blocks(ANSWER, &b, &n), 0);
  cr_assert_eq(n, 4, "got %zu blocks", n);
  cr_assert(strstr(b[0], "void scale("));
  cr_assert(strstr(b[1], "void add(") && !strstr(b[1], "  extern"), "list indent removed: %s",
            b[1]);
  cr_assert(strstr(b[2], "untagged"));
  cr_assert(strstr(b[3], "template <int N>"));
  upk_assert_blocks_free(b, n);
  cr_assert_eq(upk_extract_cuda_blocks("no code at all, just `__global__` inline", &b, &n), 0);
  cr_assert_eq(n, 0);
  upk_assert_blocks_free(b, n);
}

/* ---- kernel checks ------------------------------------------------------- */

typedef struct {
  int calls;
  int mode; /* 0: compile ok, 1: answer later, 2: fail, 3: skipped, 4: -EIO */
  int registers;
  long spills;
} fake;

static int fake_check(void *ctx, const upk_kcheck_req *q, upk_kcheck_result *out) {
  fake *f = ctx;
  f->calls++;
  if (f->mode == 1)
    return 1;
  if (f->mode == 4)
    return -EIO;
  out->status = f->mode == 0   ? UPK_ASSERT_PASS
                : f->mode == 2 ? UPK_ASSERT_FAIL
                               : UPK_ASSERT_SKIPPED;
  out->reason = f->mode == 2   ? strdup("kernel.cu(3): error: identifier \"y\" is undefined")
                : f->mode == 3 ? strdup("no CUDA toolkit")
                               : NULL;
  if (f->mode == 0) {
    out->kernels = calloc(1, sizeof *out->kernels);
    out->kernels[0] = (upk_kcheck_kernel){strdup("scale"), f->registers, f->spills, f->spills};
    out->n_kernels = 1;
  }
  (void)q;
  return 0;
}

static const char ONE[] = "```cuda\n__global__ void scale(float *x) { x[0] = 1; }\n```\n";
static const char TWO[] = "```cuda\n__global__ void a(float *x) { x[0] = 1; }\n```\n"
                          "```cu\n__global__ void b(float *x) { x[1] = 1; }\n```\n";

Test(kernel, no_checker_means_skipped_never_passed) {
  upk_assertion a[] = {{.kind = UPK_ASSERT_COMPILES},
                       {.kind = UPK_ASSERT_RESOURCES, .max_registers = 64}};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(a, 2, ONE, NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_SKIPPED);
  cr_assert_eq(r.results[1].status, UPK_ASSERT_SKIPPED);
  cr_assert_eq(r.passed, 0);
  cr_assert_eq(r.skipped, 2);
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_SKIPPED);
  upk_assert_report_free(&r);
}

Test(kernel, answer_without_code_fails) {
  fake f = {0};
  upk_kernel_checker ck = {fake_check, &f};
  upk_assertion a = {.kind = UPK_ASSERT_COMPILES};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(&a, 1, "Use a kernel with shared memory.", &ck, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "no CUDA code block"));
  cr_assert_eq(f.calls, 0);
  upk_assert_report_free(&r);
}

Test(kernel, requests_are_shared_per_block_and_arch) {
  fake f = {.mode = 0, .registers = 40};
  upk_kernel_checker ck = {fake_check, &f};
  upk_assertion a[] = {{.kind = UPK_ASSERT_COMPILES},
                       {.kind = UPK_ASSERT_RESOURCES, .max_registers = 64, .no_spills = true},
                       {.kind = UPK_ASSERT_COMPILES, .arch = "sm_80"}};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(a, 3, TWO, &ck, &r), 0);
  cr_assert_eq(r.n_blocks, 2);
  cr_assert_eq(r.n_requests, 4, "2 blocks x 2 archs, got %zu", r.n_requests);
  cr_assert_eq(f.calls, 4);
  for (size_t i = 0; i < 3; i++)
    cr_assert_eq(r.results[i].status, UPK_ASSERT_PASS, "%zu: %s", i, r.results[i].reason);
  cr_assert_str_eq(r.requests[0].arch, UPK_ASSERT_DEFAULT_ARCH);
  cr_assert_str_eq(r.results[1].label,
                   "resources {arch: sm_90a, maxRegisters: 64, noSpills: true}");
  upk_assert_report_free(&r);
}

Test(kernel, resource_limits_fail_with_reasons) {
  upk_assertion regs = {.kind = UPK_ASSERT_RESOURCES, .max_registers = 32};
  upk_assertion spill = {.kind = UPK_ASSERT_RESOURCES, .no_spills = true};
  fake f = {.mode = 0, .registers = 72, .spills = 16};
  upk_kernel_checker ck = {fake_check, &f};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(&regs, 1, ONE, &ck, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "72 registers (limit 32)"), "%s", r.results[0].reason);
  upk_assert_report_free(&r);
  cr_assert_eq(upk_assert_evaluate(&spill, 1, ONE, &ck, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "16 bytes spill stores"), "%s", r.results[0].reason);
  upk_assert_report_free(&r);
}

Test(kernel, compile_failure_skipped_and_checker_error) {
  upk_assertion a = {.kind = UPK_ASSERT_COMPILES};
  int modes[] = {2, 3, 4};
  upk_assert_status want[] = {UPK_ASSERT_FAIL, UPK_ASSERT_SKIPPED, UPK_ASSERT_ERROR};
  for (int i = 0; i < 3; i++) {
    fake f = {.mode = modes[i]};
    upk_kernel_checker ck = {fake_check, &f};
    upk_assert_report r;
    cr_assert_eq(upk_assert_evaluate(&a, 1, ONE, &ck, &r), 0);
    cr_assert_eq(r.results[0].status, want[i], "mode %d", modes[i]);
    cr_assert(r.results[0].reason && strstr(r.results[0].reason, "code block 1"));
    cr_assert_eq(r.passed, 0);
    upk_assert_report_free(&r);
  }
}

Test(kernel, answered_later) {
  fake f = {.mode = 1};
  upk_kernel_checker ck = {fake_check, &f};
  char *v[] = {"kernel"};
  upk_assertion a[] = {{.kind = UPK_ASSERT_CONTAINS, .values = v, .n_values = 1},
                       {.kind = UPK_ASSERT_COMPILES}};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(a, 2, TWO, &ck, &r), 0);
  cr_assert_eq(r.n_requests, 2);
  cr_assert_not(upk_assert_report_done(&r));
  cr_assert_eq(upk_assert_report_verdict(&r), UPK_ASSERT_FAIL, "contains 'kernel' is absent");
  cr_assert_eq(r.results[1].status, UPK_ASSERT_PENDING);
  upk_kcheck_result ok = {.status = UPK_ASSERT_PASS};
  cr_assert_eq(upk_assert_report_resolve(&r, 1, &ok), 0);
  cr_assert_eq(r.results[1].status, UPK_ASSERT_PENDING, "block 1 still open");
  upk_kcheck_result bad = {.status = UPK_ASSERT_FAIL, .reason = strdup("error: expected ';'")};
  cr_assert_eq(upk_assert_report_resolve(&r, 0, &bad), 0);
  cr_assert_null(bad.reason, "ownership taken");
  cr_assert(upk_assert_report_done(&r));
  cr_assert_eq(r.results[1].status, UPK_ASSERT_FAIL);
  cr_assert_str_eq(r.results[1].reason, "code block 1: error: expected ';'");
  upk_kcheck_result again = {.status = UPK_ASSERT_PASS, .reason = strdup("x")};
  cr_assert_eq(upk_assert_report_resolve(&r, 0, &again), -EALREADY);
  cr_assert_eq(upk_assert_report_resolve(&r, 9, &again), -EINVAL);
  upk_assert_report_free(&r);
}

/* ---- the real compiler --------------------------------------------------- */

static bool have_toolkit(void) {
  char p[600];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", upk_cuda_default_path(NULL));
  return access(p, R_OK) == 0;
}

/* The daemon's checker, in miniature: gpu/compile with NVRTC. */
static int nvrtc_check(void *ctx, const upk_kcheck_req *q, upk_kcheck_result *out) {
  (void)ctx;
  upk_compile_req req = {
      .source = q->code, .source_len = strlen(q->code), .file_name = "answer.cu", .arch = q->arch};
  upk_compile_result c;
  int rc = upk_compile(&req, &c);
  if (rc == -ENOENT) {
    out->status = UPK_ASSERT_SKIPPED;
  } else if (!c.ok) {
    out->status = UPK_ASSERT_FAIL;
    for (size_t i = 0; i < c.diags.len && !out->reason; i++)
      if (c.diags.items[i].severity == UPK_SEV_ERROR)
        out->reason = strdup(c.diags.items[i].message);
  } else {
    out->status = UPK_ASSERT_PASS;
    out->kernels = calloc(c.n_kernels + 1, sizeof *out->kernels);
    for (size_t i = 0; i < c.n_kernels; i++)
      out->kernels[out->n_kernels++] =
          (upk_kcheck_kernel){strdup(c.kernels[i].name), c.kernels[i].registers,
                              c.kernels[i].spill_stores, c.kernels[i].spill_loads};
  }
  upk_compile_result_free(&c);
  return 0;
}

Test(nvrtc, compiles_and_resources_with_the_real_compiler) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit (include/nvrtc.h) at %s", upk_cuda_default_path(NULL));
  upk_kernel_checker ck = {nvrtc_check, NULL};
  upk_assertion a[] = {{.kind = UPK_ASSERT_COMPILES},
                       {.kind = UPK_ASSERT_RESOURCES, .max_registers = 64, .no_spills = true},
                       {.kind = UPK_ASSERT_RESOURCES, .max_registers = 1}};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate(a, 3, ANSWER, &ck, &r), 0);
  cr_assert_eq(r.n_blocks, 4);
  cr_assert(upk_assert_report_done(&r));
  /* The template block instantiates nothing: resources cannot be judged. */
  cr_assert_eq(r.results[0].status, UPK_ASSERT_PASS, "%s", r.results[0].reason);
  cr_assert_eq(r.results[1].status, UPK_ASSERT_FAIL, "%s", r.results[1].reason);
  cr_assert(strstr(r.results[1].reason, "compiled no kernel"), "%s", r.results[1].reason);
  cr_assert_eq(r.results[2].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[2].reason, "registers (limit 1)"), "%s", r.results[2].reason);
  upk_assert_report_free(&r);
}

Test(nvrtc, a_broken_kernel_fails_with_the_compiler_message) {
  if (!have_toolkit())
    cr_skip_test("no CUDA toolkit (include/nvrtc.h) at %s", upk_cuda_default_path(NULL));
  upk_kernel_checker ck = {nvrtc_check, NULL};
  upk_assertion a = {.kind = UPK_ASSERT_COMPILES, .arch = "sm_90"};
  upk_assert_report r;
  const char *ans = "```cuda\n__global__ void k(float *x) { x[0] = y; }\n```\n";
  cr_assert_eq(upk_assert_evaluate(&a, 1, ans, &ck, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[0].reason, "\"y\" is undefined"), "%s", r.results[0].reason);
  upk_assert_report_free(&r);
}

/* ---- agent runs: files, tools, statements ---- */

Test(agent, files_tools_and_statements) {
  char dir[] = "/tmp/upk-assert-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[64];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  FILE *f = fopen(path, "w");
  fputs("x", f);
  fclose(f);
  char *files[] = {"out.txt"}, *missing[] = {"out.txt", "sub/none.txt"}, *escape[] = {"../x"};
  char *tools[] = {"write"}, *expect[] = {"The answer is friendly"};
  upk_assertion a[] = {text(UPK_ASSERT_FILES, files, 1), text(UPK_ASSERT_FILES, missing, 2),
                       text(UPK_ASSERT_FILES, escape, 1), text(UPK_ASSERT_TOOLS, tools, 1),
                       text(UPK_ASSERT_EXPECT, expect, 1)};
  const char *called[] = {"Skill", "Write"};
  upk_assert_env env = {dir, called, 2};
  upk_assert_report r;
  cr_assert_eq(upk_assert_evaluate_in(a, 5, "done", &env, NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_PASS);
  cr_assert_eq(r.results[1].status, UPK_ASSERT_FAIL);
  cr_assert(strstr(r.results[1].reason, "sub/none.txt"), "%s", r.results[1].reason);
  cr_assert_eq(r.results[2].status, UPK_ASSERT_ERROR, "no path out of the workspace");
  cr_assert_eq(r.results[3].status, UPK_ASSERT_PASS, "tool names compare case-insensitively");
  cr_assert_eq(r.results[4].status, UPK_ASSERT_SKIPPED, "a statement needs a grader");
  /* a grader's verdict, asked then given */
  cr_assert_eq(upk_assert_report_decide(&r, 4, UPK_ASSERT_PENDING, NULL), 0);
  cr_assert(!upk_assert_report_done(&r));
  cr_assert_eq(upk_assert_report_decide(&r, 4, UPK_ASSERT_PASS, "grader: friendly"), 0);
  cr_assert(upk_assert_report_done(&r));
  cr_assert_str_eq(r.results[4].reason, "grader: friendly");
  cr_assert_eq(upk_assert_report_decide(&r, 9, UPK_ASSERT_PASS, NULL), -EINVAL);
  upk_assert_report_free(&r);
  /* a model answered over an API leaves no files or tool calls: skipped, never a pass */
  cr_assert_eq(upk_assert_evaluate(&a[0], 1, "done", NULL, &r), 0);
  cr_assert_eq(r.results[0].status, UPK_ASSERT_SKIPPED);
  upk_assert_report_free(&r);
  unlink(path);
  rmdir(dir);
}
