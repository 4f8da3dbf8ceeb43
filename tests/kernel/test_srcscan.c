/* The source scan: kernels with their attributes and positions, includes,
 * __CUDA_ARCH__ regions and the dynamic-smem / opt-in / host-code facts, on
 * ordinary CUDA, on the odd corners of the lexer, and on garbage. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/srcscan.h"

static upk_src_facts scan_n(const char *src, size_t len) {
  upk_src_facts f;
  cr_assert_eq(upk_src_scan(src, len, &f), 0);
  return f;
}

static upk_src_facts scan(const char *src) {
  return scan_n(src, strlen(src));
}

static const upk_src_kernel *kernel(const upk_src_facts *f, const char *name) {
  const upk_src_kernel *k = upk_src_find_kernel(f, name);
  cr_assert(k, "kernel %s not found (%zu kernels)", name, f->n_kernels);
  return k;
}

Test(srcscan, extern_c_kernel_name_position) {
  upk_src_facts f = scan("// y = a*x + y\n"
                         "extern \"C\" __global__ void saxpy(int n, float a) {\n"
                         "  int i = threadIdx.x;\n}\n");
  cr_assert_eq(f.n_kernels, 1);
  const upk_src_kernel *k = kernel(&f, "saxpy");
  cr_assert_eq(k->line, 1);
  cr_assert_eq(k->col, 27);
  cr_assert_eq(k->max_threads, 0);
  cr_assert_eq(k->min_blocks, 0);
  cr_assert_eq(k->cluster[0], 0);
  cr_assert_eq(k->cluster_line, -1);
  cr_assert_not(k->is_template);
  cr_assert_not(f.has_host_code);
  cr_assert_not(f.uses_dynamic_smem);
  upk_src_facts_free(&f);
}

Test(srcscan, launch_bounds_before_or_after_the_return_type) {
  upk_src_facts f = scan("__global__ void __launch_bounds__(1024) a(float *p) {}\n"
                         "__global__ __launch_bounds__(256, 2) void b(float *p) {}\n"
                         "__launch_bounds__(0x80, 4) __global__ void c() {}\n"
                         "static __global__ void\n    __launch_bounds__(384, 1)\n    d() {}\n"
                         "__global__ void __launch_bounds__(MAXT, 2) e() {}\n"
                         "__global__ void __launch_bounds__(1'024) g() {}\n");
  cr_assert_eq(f.n_kernels, 6);
  cr_assert_eq(kernel(&f, "a")->max_threads, 1024);
  cr_assert_eq(kernel(&f, "a")->min_blocks, 0);
  cr_assert_eq(kernel(&f, "b")->max_threads, 256);
  cr_assert_eq(kernel(&f, "b")->min_blocks, 2);
  cr_assert_eq(kernel(&f, "c")->max_threads, 128);
  cr_assert_eq(kernel(&f, "c")->min_blocks, 4);
  cr_assert_eq(kernel(&f, "d")->max_threads, 384);
  cr_assert_eq(kernel(&f, "d")->line, 5);
  cr_assert_eq(kernel(&f, "d")->col, 4);
  cr_assert_eq(kernel(&f, "e")->max_threads, 0, "a macro is not a literal");
  cr_assert_eq(kernel(&f, "e")->min_blocks, 2);
  cr_assert_eq(kernel(&f, "g")->max_threads, 1024);
  upk_src_facts_free(&f);
}

Test(srcscan, cluster_dims_and_its_position) {
  upk_src_facts f = scan("__global__ void __cluster_dims__(2, 1, 1) a() {}\n"
                         "  __global__ void __cluster_dims__(4) b() {}\n"
                         "__cluster_dims__(2, 8) __global__ void c() {}\n"
                         "__global__ void __cluster_dims__(N, 2, 1) d() {}\n");
  const upk_src_kernel *a = kernel(&f, "a"), *b = kernel(&f, "b");
  cr_assert(a->cluster[0] == 2 && a->cluster[1] == 1 && a->cluster[2] == 1);
  cr_assert_eq(a->cluster_line, 0);
  cr_assert_eq(a->cluster_col, 16);
  cr_assert(b->cluster[0] == 4 && b->cluster[1] == 1 && b->cluster[2] == 1);
  cr_assert_eq(b->cluster_line, 1);
  cr_assert_eq(b->cluster_col, 18);
  cr_assert(kernel(&f, "c")->cluster[0] == 2 && kernel(&f, "c")->cluster[1] == 8);
  cr_assert(kernel(&f, "d")->cluster[0] == 0 && kernel(&f, "d")->cluster[1] == 2);
  upk_src_facts_free(&f);
}

Test(srcscan, templates_and_explicit_instantiations) {
  upk_src_facts f = scan("template <typename T, int N = (3 > 2)>\n"
                         "__global__ void scale(T *d, T k) { d[0] *= k; }\n"
                         "template __global__ void scale<float, 1>(float *, float);\n"
                         "template <> __global__ void scale<double, 1>(double *d, double k) {}\n"
                         "__global__ void plain(int *p) {}\n");
  cr_assert_eq(f.n_kernels, 3, "definitions only, got %zu", f.n_kernels);
  const upk_src_kernel *k = kernel(&f, "scale<float>");
  cr_assert(k->is_template);
  cr_assert_eq(k->line, 1);
  cr_assert_eq(k->col, 16);
  cr_assert(f.kernels[1].is_template, "the specialisation is a template too");
  cr_assert_eq(f.kernels[1].line, 3);
  cr_assert_not(kernel(&f, "plain")->is_template);
  cr_assert(upk_src_find_kernel(&f, "ns::plain"), "qualified names match on the last part");
  cr_assert_null(upk_src_find_kernel(&f, "missing"));
  cr_assert_null(upk_src_find_kernel(&f, "scal"));
  upk_src_facts_free(&f);
}

Test(srcscan, declarations_are_not_definitions) {
  upk_src_facts f = scan("__global__ void k(int *p);\n"
                         "extern \"C\" { __global__ void inner(int); }\n"
                         "__global__ void k(int *p) noexcept { p[0] = 1; }\n"
                         "__global__ void __attribute__((noinline)) attr(int *p) {}\n");
  cr_assert_eq(f.n_kernels, 2);
  cr_assert_eq(kernel(&f, "k")->line, 2);
  cr_assert_eq(kernel(&f, "attr")->col, 42);
  upk_src_facts_free(&f);
}

Test(srcscan, comments_strings_and_chars_hide_code) {
  upk_src_facts f =
      scan("// __global__ void c1() {}\n"
           "/* __global__ void c2() {}\n   extern __shared__ float s[]; */\n"
           "const char *s = \"__global__ void s1() {} cudaMalloc main(\";\n"
           "const char *r = R\"x( \" __global__ void s2() {} )\" )x\";\n"
           "char q = '\"'; char b = '\\'';\n"
           "__global__ void real() {} // cudaFuncAttributeMaxDynamicSharedMemorySize\n"
           "#if 0 /* #include \"no.h\" */\n#endif\n");
  cr_assert_eq(f.n_kernels, 1, "got %zu kernels", f.n_kernels);
  cr_assert_eq(kernel(&f, "real")->line, 6);
  cr_assert_not(f.uses_dynamic_smem);
  cr_assert_not(f.has_smem_optin);
  cr_assert_not(f.has_host_code);
  cr_assert_eq(f.n_includes, 0);
  upk_src_facts_free(&f);
}

Test(srcscan, line_continuations_keep_original_positions) {
  upk_src_facts f = scan("__glo\\\nbal__ void \\\n  cont(int x) {}\n"
                         "// a comment that goes on \\\n__global__ void hidden() {}\n"
                         "__global__ void after() {}\n");
  cr_assert_eq(f.n_kernels, 2, "got %zu", f.n_kernels);
  cr_assert_eq(kernel(&f, "cont")->line, 2);
  cr_assert_eq(kernel(&f, "cont")->col, 2);
  cr_assert_null(upk_src_find_kernel(&f, "hidden"), "a continued // comment swallows the line");
  cr_assert_eq(kernel(&f, "after")->line, 5);
  upk_src_facts_free(&f);
}

Test(srcscan, includes_with_ranges) {
  upk_src_facts f = scan("#include <cuda_fp16.h>\n"
                         "  #  include \"sub/common.cuh\" // note\n"
                         "#include MACRO_HEADER\n"
                         "#include <cuda/barrier\n"
                         "// #include \"commented.h\"\n"
                         "#define X \"#include <fake.h>\"\n");
  /* #include MACRO is recorded as computed: the include policy refuses what it cannot read */
  cr_assert_eq(f.n_includes, 4, "got %zu", f.n_includes);
  cr_assert(f.includes[2].computed && !f.includes[2].probe);
  cr_assert_str_eq(f.includes[2].target, "MACRO_HEADER");
  cr_assert_str_eq(f.includes[0].target, "cuda_fp16.h");
  cr_assert(f.includes[0].angled);
  cr_assert_eq(f.includes[0].line, 0);
  cr_assert_eq(f.includes[0].col, 10);
  cr_assert_eq(f.includes[0].end_col, 21);
  cr_assert_str_eq(f.includes[1].target, "sub/common.cuh");
  cr_assert_not(f.includes[1].angled);
  cr_assert_eq(f.includes[1].line, 1);
  cr_assert_eq(f.includes[1].col, 14);
  cr_assert_eq(f.includes[1].end_col, 28);
  cr_assert_str_eq(f.includes[3].target, "cuda/barrier", "unterminated: to the end of the line");
  upk_src_facts_free(&f);
}

Test(srcscan, dynamic_shared_memory_and_optin) {
  upk_src_facts f = scan("extern \"C\" __global__ void k(float *o) {\n"
                         "  __shared__ float s[32];\n  o[0] = s[0];\n}\n");
  cr_assert_not(f.uses_dynamic_smem, "extern \"C\" then a body's __shared__ is static");
  upk_src_facts_free(&f);
  f = scan("__global__ void k(float *o) {\n"
           "  extern __shared__ __align__(16) float dyn[];\n  o[0] = dyn[0];\n}\n");
  cr_assert(f.uses_dynamic_smem);
  cr_assert_not(f.has_smem_optin);
  upk_src_facts_free(&f);
  f = scan("void setup() { cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
           "n); }\n");
  cr_assert(f.has_smem_optin);
  upk_src_facts_free(&f);
}

Test(srcscan, host_code_hints) {
  static const char *const host[] = {
      "int main(int argc, char **argv) { return 0; }",
      "void run() { k<<<1, 32>>>(p); }",
      "void run() { cudaMalloc(&p, 4); }",
      "void run() { cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice); }",
      "void run() { cudaLaunchKernel((void *)k, g, b, a, 0, 0); }",
      "#include <iostream>\n",
      "#include <torch/extension.h>\n",
      "at::Tensor f(torch::Tensor x) { return x; }",
  };
  for (size_t i = 0; i < sizeof host / sizeof *host; i++) {
    upk_src_facts f = scan(host[i]);
    cr_assert(f.has_host_code, "not seen as host code: %s", host[i]);
    upk_src_facts_free(&f);
  }
  static const char *const device[] = {
      "__global__ void k(int *p) { p[0] = p[1] << 3; }",
      "__device__ int domain(int x) { return x; } struct s { int main; };",
      "#include <cuda_fp16.h>\n__global__ void k() {}",
  };
  for (size_t i = 0; i < sizeof device / sizeof *device; i++) {
    upk_src_facts f = scan(device[i]);
    cr_assert_not(f.has_host_code, "seen as host code: %s", device[i]);
    upk_src_facts_free(&f);
  }
}

Test(srcscan, arch_regions_with_branches) {
  upk_src_facts f = scan("#if defined(USE_X)\n"                         /* 0: not about the arch */
                         "int a;\n"                                     /* 1 */
                         "#elif __CUDA_ARCH__ >= 900\n"                 /* 2 */
                         "int b;\n"                                     /* 3 */
                         "#else\n"                                      /* 4 */
                         "int c;\n"                                     /* 5 */
                         "#endif\n"                                     /* 6 */
                         "#ifdef __CUDA_ARCH_FEAT_SM90_ALL // sm_90a\n" /* 7 */
                         "#  if __CUDA_ARCH__ /* */ < 1000\n"           /* 8 */
                         "#  endif\n"                                   /* 9 */
                         "#endif\n"                                     /* 10 */
                         "#ifndef __CUDA_ARCH__\n"                      /* 11 */
                         "int host;\n");                                /* 12, never closed */
  cr_assert_eq(f.n_regions, 5, "got %zu", f.n_regions);
  cr_assert_str_eq(f.regions[0].cond, "!(defined(USE_X)) && (__CUDA_ARCH__ >= 900)");
  cr_assert_eq(f.regions[0].line, 2);
  cr_assert_eq(f.regions[0].end_line, 4);
  cr_assert_str_eq(f.regions[1].cond, "!(defined(USE_X)) && !(__CUDA_ARCH__ >= 900)");
  cr_assert_eq(f.regions[1].line, 4);
  cr_assert_eq(f.regions[1].end_line, 6);
  cr_assert_str_eq(f.regions[2].cond, "(defined __CUDA_ARCH_FEAT_SM90_ALL)");
  cr_assert_eq(f.regions[2].end_line, 10);
  cr_assert_str_eq(f.regions[3].cond, "(__CUDA_ARCH__ < 1000)");
  cr_assert_eq(f.regions[3].line, 8);
  cr_assert_eq(f.regions[3].end_line, 9);
  cr_assert_str_eq(f.regions[4].cond, "(!defined __CUDA_ARCH__)");
  cr_assert_eq(f.regions[4].line, 11);
  cr_assert_geq(f.regions[4].end_line, 13, "unclosed: past the last line");
  upk_src_facts_free(&f);
}

Test(srcscan, unterminated_comment_and_string) {
  upk_src_facts f = scan("__global__ void a() {}\n/* never closed\n__global__ void b() {}\n");
  cr_assert_eq(f.n_kernels, 1);
  upk_src_facts_free(&f);
  f = scan("const char *s = \"unterminated\n__global__ void b() {}\n'x\n__global__ void c() {}");
  cr_assert_eq(f.n_kernels, 2, "a string or char ends at its line's end");
  cr_assert_eq(kernel(&f, "c")->line, 3);
  upk_src_facts_free(&f);
  f = scan("const char *r = R\"d(never closed\n__global__ void hidden() {}\n");
  cr_assert_eq(f.n_kernels, 0);
  upk_src_facts_free(&f);
}

Test(srcscan, nul_bytes_are_blanks) {
  static const char src[] = "__global__ void a() {}\0\0__global__\0void b() {}";
  upk_src_facts f = scan_n(src, sizeof src - 1);
  cr_assert_eq(f.n_kernels, 2);
  cr_assert_eq(kernel(&f, "b")->col, 40);
  upk_src_facts_free(&f);
  f = scan_n("", 0);
  cr_assert_eq(f.n_kernels, 0);
  upk_src_facts_free(&f);
  f = scan_n(NULL, 0);
  cr_assert_eq(f.n_kernels, 0);
  upk_src_facts_free(&f);
}

/* Garbage of every shape must come back with a result (no crash, no hang). */
Test(srcscan, garbage_and_huge_input) {
  size_t n = 4u << 20;
  char *g = malloc(n);
  cr_assert(g);
  unsigned x = 12345;
  for (size_t i = 0; i < n; i++)
    g[i] = (char)((x = x * 1103515245u + 12345u) >> 16);
  upk_src_facts f = scan_n(g, n);
  upk_src_facts_free(&f);
  memset(g, '(', n); /* deep nesting */
  memcpy(g, "__global__ void k", 17);
  f = scan_n(g, n);
  cr_assert_eq(f.n_kernels, 0);
  upk_src_facts_free(&f);
  size_t off = 0; /* a very long #elif chain on the arch */
  off += sprintf(g + off, "#if __CUDA_ARCH__ == 1\n");
  while (off + 64 < (1u << 20))
    off += sprintf(g + off, "#elif __CUDA_ARCH__ == %zu\n", off);
  f = scan_n(g, off);
  cr_assert_gt(f.n_regions, 100);
  cr_assert_leq(f.n_regions, 10000, "regions are capped");
  upk_src_facts_free(&f);
  memset(g, '#', n); /* directives without end */
  f = scan_n(g, n);
  upk_src_facts_free(&f);
  free(g);
}

Test(srcscan, lexer_positions_and_tokens) {
  upk_src_lexer lx;
  const char *src = "a \\\n+= u8\"s\" 'c'\n#x <<< ::";
  cr_assert_eq(upk_src_lex_open(&lx, src, strlen(src)), 0);
  upk_src_token t;
  int line, col;
  const char *want[] = {"a", "+", "=", "u8\"s\"", "'c'", "#", "x", "<<<", "::"};
  for (size_t i = 0; i < 9; i++) {
    cr_assert(upk_src_lex_next(&lx, &t));
    cr_assert_eq(t.len, strlen(want[i]), "token %zu", i);
    cr_assert(!memcmp(t.text, want[i], t.len), "token %zu", i);
  }
  cr_assert_not(upk_src_lex_next(&lx, &t));
  upk_src_lex_pos(&lx, 2, &line, &col); /* '+' after the splice */
  cr_assert_eq(line, 1);
  cr_assert_eq(col, 0);
  upk_src_lex_close(&lx);
}
