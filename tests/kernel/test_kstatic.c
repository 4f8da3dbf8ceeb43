/* Static checks before a run (gpu/run/static_checks.c, issue 50 part 4): each rule on a planted
 * kernel, placed at its token; the same words in comments, strings, members and other namespaces
 * never fire; run.forbid's parse and its PyTorch default; then the real kernels of this repository
 * (the KernelBench kernels, the lint corpus, the projects) must come out clean. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "gpu/run/static_checks.h"
#include "gpu/run/runspec.h"

enum {
  ALL = UPK_FORBID_TORCH | UPK_FORBID_CUBLAS | UPK_FORBID_CUDNN | UPK_FORBID_CUTLASS |
        UPK_FORBID_THRUST
};

static upk_diags check_cfg(const char *src, const upk_kstatic_cfg *cfg) {
  upk_diags d = {0};
  cr_assert_eq(upk_kstatic_check(src, strlen(src), cfg, &d), 0);
  for (size_t i = 0; i < d.len; i++)
    cr_assert_str_eq(d.items[i].source, "upskilld-run");
  return d;
}

static upk_diags check(const char *src, unsigned forbid) {
  upk_kstatic_cfg cfg = {.forbid = forbid};
  return check_cfg(src, &cfg);
}

static size_t count(const upk_diags *d, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < d->len; i++)
    n += !strcmp(d->items[i].code, code);
  return n;
}

/* The diagnostic `code` at zero-based line and column, whose message has `want`. */
static void has(const upk_diags *d, const char *code, int line, int col, const char *want) {
  for (size_t i = 0; i < d->len; i++) {
    const upk_diag *x = &d->items[i];
    if (!strcmp(x->code, code) && x->range.line == line && x->range.col == col) {
      cr_assert(strstr(x->message, want), "%s at %d:%d: '%s' lacks '%s'", code, line, col,
                x->message, want);
      return;
    }
  }
  char all[4096] = "";
  for (size_t i = 0; i < d->len; i++) {
    size_t n = strlen(all);
    snprintf(all + n, sizeof all - n, "\n  %s %d:%d %s", d->items[i].code, d->items[i].range.line,
             d->items[i].range.col, d->items[i].message);
  }
  cr_assert_fail("no %s at %d:%d; got:%s", code, line, col, all);
}

Test(kstatic, torch_namespaces_and_headers) {
  const char *src = "#include <torch/extension.h>\n"                        /* 0 */
                    "#include \"ATen/ATen.h\"\n"                            /* 1 */
                    "// torch::matmul(a, b) in a comment\n"                 /* 2 */
                    "const char *s = \"at::native::add\";\n"                /* 3 */
                    "void f(Vec v) { v.at(3); my::at::x(); }\n"             /* 4 */
                    "void g(T a, T b) { auto c = torch::matmul(a, b); }\n"  /* 5 */
                    "void h(T a) { at::native::relu(a); ::c10::Half x; }\n" /* 6 */
                    "using namespace at;\n";                                /* 7 */
  upk_diags d = check(src, UPK_FORBID_TORCH);
  has(&d, "run/forbidden-library", 0, 10, "torch/extension.h");
  has(&d, "run/forbidden-library", 1, 10, "PyTorch");
  has(&d, "run/forbidden-library", 5, 28, "'torch' is a namespace of PyTorch");
  has(&d, "run/forbidden-library", 6, 14, "'at'");
  has(&d, "run/forbidden-library", 7, 16, "'at'");
  cr_assert_eq(count(&d, "run/forbidden-library"), 5, "one per line, none in lines 2-4");
  upk_diags_free(&d);
  /* Not forbidden: nothing. */
  d = check(src, UPK_FORBID_CUBLAS | UPK_FORBID_THRUST);
  cr_assert_eq(d.len, 0);
  upk_diags_free(&d);
}

Test(kstatic, cublas_cudnn_cutlass_thrust) {
  const char *src =
      "#include <cublas_v2.h>\n"                                                        /* 0 */
      "#include <cudnn.h>\n"                                                            /* 1 */
      "#include \"cutlass/gemm/device/gemm.h\"\n"                                       /* 2 */
      "#include <thrust/sort.h>\n"                                                      /* 3 */
      "#include <cute/tensor.hpp>\n"                                                    /* 4 */
      "void f() { cublasSgemm(h, CUBLAS_OP_N); }\n"                                     /* 5 */
      "void g() { cudnnConvolutionForward(h); }\n"                                      /* 6 */
      "using G = cutlass::gemm::device::Gemm<float>;\n"                                 /* 7 */
      "void s(float *p) { thrust::sort(p, p + 4); }\n"                                  /* 8 */
      "struct cfg { int cublas_ws; int cudnn; }; void u(cfg c) { c.cublas_ws = 1; }\n"  /* 9 */
      "using S = cutlass::gemm::GemmShape<128, 128, 8>; void v() { cute::gemm(a); }\n"; /* 10 */
  upk_diags d = check(src, ALL);
  has(&d, "run/forbidden-library", 0, 10, "cuBLAS");
  has(&d, "run/forbidden-library", 1, 10, "cuDNN");
  has(&d, "run/forbidden-library", 2, 10, "CUTLASS");
  has(&d, "run/forbidden-library", 3, 10, "Thrust");
  has(&d, "run/forbidden-library", 5, 11, "'cublasSgemm' belongs to cuBLAS");
  has(&d, "run/forbidden-library", 6, 11, "'cudnnConvolutionForward' belongs to cuDNN");
  has(&d, "run/forbidden-library", 7, 25, "'device'");
  has(&d, "run/forbidden-library", 8, 19, "'thrust'");
  cr_assert_eq(count(&d, "run/forbidden-library"), 8, "CuTe, member names, GemmShape stay");
  upk_diags_free(&d);
  /* Only what is forbidden fires. */
  d = check(src, UPK_FORBID_CUBLAS);
  cr_assert_eq(count(&d, "run/forbidden-library"), 2);
  upk_diags_free(&d);
}

Test(kstatic, timing_streams_host_copies_threads) {
  const char *src =
      "// cudaEventRecord(start) and std::thread in a comment\n"                      /* 0 */
      "void f(float *d, float *h, cudaStream_t s, cudaEvent_t e) {\n"                 /* 1 */
      "  cudaEventRecord(e, s);\n"                                                    /* 2 */
      "  cudaDeviceSynchronize();\n"                                                  /* 3 */
      "  cudaStream_t mine; cudaStreamCreateWithFlags(&mine, 1);\n"                   /* 4 */
      "  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);\n"                      /* 5 */
      "  atexit(flush); std::thread t(work);\n"                                       /* 6 */
      "  auto t0 = std::chrono::steady_clock::now();\n"                               /* 7 */
      "  cuStreamSynchronize(0); cuEventElapsedTime(0, 0, 0);\n"                      /* 8 */
      "  printf(\"cudaEventRecord\"); int clock = 3; obj.atexit(1); my::thread(2);\n" /* 9 */
      "  cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, s);\n"                      /* 10 */
      "}\n";
  upk_diags d = check(src, 0);
  has(&d, "run/timing-api", 2, 2, "'cudaEventRecord'");
  has(&d, "run/timing-api", 3, 2, "'cudaDeviceSynchronize'");
  has(&d, "run/stream-api", 4, 21, "hidden from it");
  has(&d, "run/host-copy", 5, 27, "'cudaMemcpyDeviceToHost'");
  has(&d, "run/host-thread", 6, 2, "'atexit'");
  has(&d, "run/timing-api", 7, 17, "std::chrono");
  has(&d, "run/stream-api", 8, 2, "'cuStreamSynchronize'");
  has(&d, "run/timing-api", 8, 26, "'cuEventElapsedTime'");
  cr_assert_eq(count(&d, "run/timing-api"), 4, "one per line");
  cr_assert_eq(count(&d, "run/host-thread"), 1, "std::thread shares atexit's line");
  cr_assert_eq(count(&d, "run/host-copy"), 1, "host-to-device is fine");
  cr_assert_eq(d.len, 8, "nothing from lines 0, 9, 10");
  upk_diags_free(&d);
  d = check("void g() { std::thread t(work); }\n", 0);
  has(&d, "run/host-thread", 0, 16, "'std::thread'");
  upk_diags_free(&d);
}

Test(kstatic, device_clocks_warn) {
  const char *src =
      "__global__ void k(long long *t) {\n"
      "  long long a = clock64();\n"
      "  unsigned long long g; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g));\n"
      "  t[0] = a + g; float clock = 1.f; (void)clock;\n"
      "}\n";
  upk_diags d = check(src, ALL);
  has(&d, "run/device-clock", 1, 16, "'clock64'");
  has(&d, "run/device-clock", 2, 37, "%globaltimer");
  cr_assert_eq(d.len, 2);
  for (size_t i = 0; i < d.len; i++)
    cr_assert_eq(d.items[i].severity, UPK_SEV_WARNING);
  upk_diags_free(&d);
}

Test(kstatic, launch_counters) {
  const char *counter = "__device__ unsigned calls = 0;\n"                       /* 0 */
                        "__device__ int launches;\n"                             /* 1 */
                        "__device__ float scale(float x) { return 2.f * x; }\n"  /* 2 */
                        "__constant__ float coef[16];\n"                         /* 3 */
                        "__global__ void k(float *y, const float *x, int n) {\n" /* 4 */
                        "  if (threadIdx.x == 0 && blockIdx.x == 0) {\n"         /* 5 */
                        "    atomicAdd(&calls, 1u); launches++;\n"               /* 6 */
                        "  }\n"                                                  /* 7 */
                        "  if (calls > 3) return;\n"                             /* 8 */
                        "  int i = threadIdx.x; if (i < n) y[i] = scale(x[i]) * coef[0];\n"
                        "}\n";
  upk_diags d = check(counter, 0);
  has(&d, "run/launch-counter", 0, 20, "only ever increments (line 7)");
  has(&d, "run/launch-counter", 1, 15, "'launches'");
  cr_assert_eq(d.len, 2);
  cr_assert_eq(d.items[0].severity, UPK_SEV_WARNING);
  upk_diags_free(&d);
  /* threadFenceReduction's pattern: the last block resets the count. */
  const char *reset =
      "namespace r { __device__ unsigned int retired = 0; }\n"
      "__global__ void sum(float *o) {\n"
      "  unsigned t = atomicInc(&r::retired, gridDim.x);\n"
      "  if (t == gridDim.x - 1) r::retired = 0;\n"
      "}\n"
      "inline __device__ void operator+=(float2 &a, const float2 &b) { a.x += b.x; }\n"
      "__device__ int ticket;\n"
      "__global__ void q() { atomicAdd(&ticket, 1); atomicExch(&ticket, 0); }\n";
  d = check(reset, 0);
  cr_assert_eq(d.len, 0, "%s", d.len ? d.items[0].message : "");
  upk_diags_free(&d);
}

Test(kstatic, the_reference_file_is_not_read) {
  const char *files[] = {"/ws/problems/19_ReLU.py", "/ws/ref/relu_ref.cu"};
  upk_kstatic_cfg cfg = {.ref_files = files, .n_ref_files = 2};
  const char *src = "#include \"19_ReLU.py\"\n"                                 /* 0 */
                    "#include \"../ref/relu_ref.cu\"\n"                         /* 1 */
                    "#include \"my_19_ReLU.py.h\"\n"                            /* 2 */
                    "#if __has_include(\"relu_ref.cu\")\n#endif\n"              /* 3, 4 */
                    "void f() { fopen(\"/ws/problems/19_ReLU.py\", \"r\"); }\n" /* 5 */
                    "// relu_ref.cu in a comment\n";                            /* 6 */
  upk_diags d = check_cfg(src, &cfg);
  has(&d, "run/includes-reference", 0, 10, "/ws/problems/19_ReLU.py");
  has(&d, "run/includes-reference", 1, 10, "/ws/ref/relu_ref.cu");
  has(&d, "run/includes-reference", 3, 19, "__has_include");
  has(&d, "run/reads-reference", 5, 17, "19_ReLU.py");
  cr_assert_eq(d.len, 4);
  upk_diags_free(&d);
}

Test(kstatic, the_references_device_variables_are_not_named) {
  const char *ref = "__device__ float ref_out[1024];\n"
                    "__global__ void relu_ref(const float *x, float *y, int n) {\n"
                    "  int i = threadIdx.x; if (i < n) y[i] = ref_out[i] = fmaxf(x[i], 0.f);\n"
                    "}\n";
  upk_kstatic_cfg cfg = {.ref_source = ref, .ref_len = strlen(ref)};
  const char *cheat = "extern __device__ float ref_out[1024];\n"
                      "__global__ void relu(const float *x, float *y, int n) {\n"
                      "  int i = threadIdx.x; if (i < n) y[i] = ref_out[i];\n"
                      "}\n";
  upk_diags d = check_cfg(cheat, &cfg);
  has(&d, "run/reads-reference", 0, 24, "'ref_out' is a device variable of the reference");
  has(&d, "run/reads-reference", 2, 41, "ref_out");
  upk_diags_free(&d);
  /* Its own variable of the same name lives in its own module. */
  const char *own = "__device__ float ref_out[4];\n"
                    "__global__ void relu(float *y) { y[0] = ref_out[0]; }\n";
  d = check_cfg(own, &cfg);
  cr_assert_eq(d.len, 0);
  upk_diags_free(&d);
}

static json_t *py_spec(const char *forbid) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"kernel\":\"k\",\"grid\":1,\"block\":32,\"args\":[{\"name\":\"x\",\"from\":"
           "\"input0\"},{\"name\":\"y\",\"from\":\"output\"}],\"reference\":{\"pytorch\":{"
           "\"path\":\"p.py\"}}%s%s}",
           forbid ? ",\"forbid\":" : "", forbid ? forbid : "");
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  cr_assert_not_null(j, "%s", e.text);
  return j;
}

Test(kstatic, forbid_in_the_run_spec) {
  upk_run_spec s;
  char err[512];
  json_t *j = py_spec(NULL);
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.forbid, UPK_FORBID_PYTORCH_DEFAULT, "KernelBench's default");
  upk_runspec_free(&s);
  json_decref(j);
  j = py_spec("[]");
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.forbid, 0u, "an empty list allows everything");
  upk_runspec_free(&s);
  json_decref(j);
  j = py_spec("[\"thrust\",\"cutlass\"]");
  cr_assert_eq(upk_runspec_parse(j, &s, err, sizeof err), 0, "%s", err);
  cr_assert_eq(s.forbid, (unsigned)(UPK_FORBID_THRUST | UPK_FORBID_CUTLASS));
  upk_runspec_free(&s);
  json_decref(j);
  const char *bad[][2] = {{"[\"torch\",\"numpy\"]", "run.forbid[1]: unknown library 'numpy'"},
                          {"\"torch\"", "run.forbid: expected an array"},
                          {"[3]", "run.forbid[0]: unknown library '(not a string)'"}};
  for (size_t i = 0; i < 3; i++) {
    j = py_spec(bad[i][0]);
    cr_assert_eq(upk_runspec_check(j, err, sizeof err), -EINVAL, "%s accepted", bad[i][0]);
    cr_assert(strstr(err, bad[i][1]), "'%s' lacks '%s'", err, bad[i][1]);
    cr_assert(strstr(err, UPK_FORBID_NAMES) || i == 1, "%s", err);
    json_decref(j);
  }
}

/* Hostile input: no crash and a bounded answer on a file of nothing but forbidden calls. */
Test(kstatic, a_flood_is_capped) {
  size_t n = 20000, len = 0;
  char *src = malloc(n * 32 + 1);
  for (size_t i = 0; i < n; i++)
    len += (size_t)sprintf(src + len, "cudaEventRecord(e%zu);\n", i);
  upk_diags d = check(src, ALL);
  cr_assert_eq(count(&d, "run/timing-api"), 20);
  upk_diags_free(&d);
  free(src);
}

/* Hostile shapes: nesting past the tracked depth, stray closing braces, a declaration cut off at
 * the end, binary bytes. No crash, and file scope is still found after the deep nesting. */
Test(kstatic, hostile_shapes) {
  size_t n = 600, len = 0;
  char *src = malloc(4 * n + 256);
  for (size_t i = 0; i < n; i++)
    src[len++] = '{';
  for (size_t i = 0; i < n + 5; i++)
    src[len++] = '}';
  len +=
      (size_t)sprintf(src + len, "\n__device__ int c;\n__global__ void k() { c++; }\n__device__");
  src[len++] = '\0';
  src[len++] = '\xff';
  upk_diags d = {0};
  upk_kstatic_cfg cfg = {.forbid = ALL};
  cr_assert_eq(upk_kstatic_check(src, len, &cfg, &d), 0);
  has(&d, "run/launch-counter", 1, 15, "'c'");
  upk_diags_free(&d);
  free(src);
}

/* Real kernels nobody planted anything in: no error, with every library forbidden. */
static size_t scan_dir(const char *dir, size_t *files) {
  DIR *dp = opendir(dir);
  struct dirent *e;
  size_t errors = 0;
  cr_assert_not_null(dp, "%s", dir);
  while ((e = readdir(dp))) {
    char path[2048];
    size_t n = strlen(e->d_name), len;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.')
      continue;
    if (e->d_type == DT_DIR) {
      errors += scan_dir(path, files);
      continue;
    }
    if (!(n > 3 && !strcmp(e->d_name + n - 3, ".cu")) &&
        !(n > 4 && !strcmp(e->d_name + n - 4, ".cuh")))
      continue;
    char *text = upk_read_file(path, 16 << 20, &len);
    cr_assert_not_null(text, "%s", path);
    upk_diags d = {0};
    upk_kstatic_cfg cfg = {.forbid = ALL};
    cr_assert_eq(upk_kstatic_check(text, len, &cfg, &d), 0);
    for (size_t i = 0; i < d.len; i++)
      if (d.items[i].severity == UPK_SEV_ERROR) {
        errors++;
        cr_log_error("%s:%d: %s %s", path, d.items[i].range.line + 1, d.items[i].code,
                     d.items[i].message);
      }
    (*files)++;
    upk_diags_free(&d);
    free(text);
  }
  closedir(dp);
  return errors;
}

Test(kstatic, real_kernels_are_not_flagged) {
  /* Not tests/kernel/mixed: whole programs whose main() times and synchronizes, which a
   * submission may not (every hit there is real). */
  const char *dirs[] = {"tests/gpu/kernelbench/kernels", "tests/kernel/corpus",
                        "tests/kernel/projects/good", "bench/gpu"};
  size_t files = 0, errors = 0;
  const char *root = getenv("UPK_SOURCE_ROOT");
  cr_assert_not_null(root, "UPK_SOURCE_ROOT is set by tests/meson.build");
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
    errors += scan_dir(dir, &files);
  }
  cr_assert_geq(files, 20, "the kernels were found (%zu)", files);
  cr_assert_eq(errors, 0, "%zu errors in %zu files", errors, files);
}
