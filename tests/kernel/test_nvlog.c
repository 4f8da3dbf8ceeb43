/* gpu/nvlog: NVRTC front-end logs, ptxas reports and errors, PTX `.loc`
 * mapping, kernel names and cubin sections, on literal texts copied from
 * NVRTC 13.0 and nvcc 13.0 output (no NVRTC needed). */
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/cubin.h"
#include "gpu/compile/nvlog.h"

static upk_nvlog_ctx ctx_for(const char *main_file, const char *source, const char *ptx) {
  upk_nvlog_ctx c = {.main_file = main_file,
                     .source = source,
                     .source_len = source ? strlen(source) : 0,
                     .ptx = ptx};
  return c;
}

static void assert_range(const upk_diag *d, int line, int col, int end_col) {
  cr_assert_eq(d->range.line, line, "line %d, want %d (%s)", d->range.line, line, d->message);
  cr_assert_eq(d->range.col, col, "col %d, want %d (%s)", d->range.col, col, d->message);
  cr_assert_eq(d->range.end_line, line);
  cr_assert_eq(d->range.end_col, end_col, "end %d, want %d (%s)", d->range.end_col, end_col,
               d->message);
}

/* ---- front end ---- */

Test(frontend, error_column_comes_from_the_caret) {
  const char *log = "err_syntax.cu(6): error: expected a \";\"\n"
                    "    y[0] = 1.0f;\n"
                    "    ^\n"
                    "\n"
                    "1 error detected in the compilation of \"err_syntax.cu\".\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("err_syntax.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 1, "the 'N errors detected' line is not a diagnostic");
  cr_assert_eq(d.items[0].severity, UPK_SEV_ERROR);
  cr_assert_str_eq(d.items[0].code, "nvrtc/error");
  cr_assert_str_eq(d.items[0].source, "nvrtc");
  cr_assert_str_eq(d.items[0].message, "expected a \";\"");
  cr_assert_null(d.items[0].file);
  assert_range(&d.items[0], 5, 2, 3); /* nvcc: line 6, caret column 3; the token is "y" */
  upk_diags_free(&d);
}

Test(frontend, end_column_covers_the_identifier) {
  const char *log = "/abs/k.cu(5): error: identifier \"undefined_scale\" is undefined\n"
                    "      y[i] = undefined_scale * y[i];\n"
                    "             ^\n\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("/abs/k.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 1);
  assert_range(&d.items[0], 4, 11, 26);
  upk_diags_free(&d);
}

Test(frontend, warnings_and_remarks_keep_their_numbers) {
  const char *log = "w.cu(3): remark #20200-D: #pragma message: \"hello\"\n"
                    "  #pragma message(\"hello\")\n"
                    "                          ^\n"
                    "\n"
                    "w.cu(2): warning #177-D: variable \"i\" was declared but never referenced\n"
                    "    int i;\n"
                    "        ^\n"
                    "\n"
                    "Remark: The warnings can be suppressed with \"-diag-suppress "
                    "<warning-number>\"\n\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("w.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 2);
  cr_assert_eq(d.items[0].severity, UPK_SEV_INFO);
  cr_assert_str_eq(d.items[0].code, "nvrtc/20200");
  cr_assert_str_eq(d.items[0].message, "#pragma message: \"hello\"");
  assert_range(&d.items[0], 2, 24, 24); /* caret past the end of the line: empty range */
  cr_assert_eq(d.items[1].severity, UPK_SEV_WARNING);
  cr_assert_str_eq(d.items[1].code, "nvrtc/177");
  assert_range(&d.items[1], 1, 6, 7);
  upk_diags_free(&d);
}

Test(frontend, unnumbered_warnings_and_remarks) {
  const char *log = "w.cu(3): remark: #pragma message: \"hello\"\n"
                    "w.cu(2): warning: variable \"i\" was declared but never referenced\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("w.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 2);
  cr_assert_str_eq(d.items[0].code, "nvrtc/remark");
  cr_assert_str_eq(d.items[1].code, "nvrtc/warning");
  assert_range(&d.items[1], 1, 0, 0); /* no caret: no column */
  upk_diags_free(&d);
}

Test(frontend, header_errors_name_their_file) {
  const char *log = "inc/h.cuh(1): error: identifier \"undefined_in_header\" is undefined\n"
                    "  static __device__ int f() { return undefined_in_header; }\n"
                    "                                     ^\n\n"
                    "1 error detected in the compilation of \"hd.cu\".\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("hd.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].file, "inc/h.cuh");
  assert_range(&d.items[0], 0, 35, 54);
  upk_diags_free(&d);
}

Test(frontend, catastrophic_errors_and_notes) {
  const char *log =
      "cat.cu(1): catastrophic error: could not open source file \"nope.h\" (no directories in "
      "search list)\n"
      "  #include <nope.h>\n"
      "                   ^\n\n"
      "1 catastrophic error detected in the compilation of \"cat.cu\".\n"
      "Compilation terminated.\n"
      "t.cu(3): error: expression must have pointer-to-class type but it has type \"int *\"\n"
      "    T v = y->nothing;\n"
      "          ^\n"
      "          detected during instantiation of \"void k(T *) [with T=int]\" at line 6\n\n"
      "t.cu(4): error: no instance of overloaded function \"f\" matches the argument list\n"
      "            argument types are: (int *)\n"
      "    f(y);\n"
      "    ^\n\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("cat.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 3);
  cr_assert_eq(d.items[0].severity, UPK_SEV_ERROR);
  assert_range(&d.items[0], 0, 17, 17);
  cr_assert_str_eq(d.items[1].file, "t.cu");
  cr_assert_str_eq(d.items[1].message,
                   "expression must have pointer-to-class type but it has type \"int *\" "
                   "(detected during instantiation of \"void k(T *) [with T=int]\" at line 6)");
  assert_range(&d.items[1], 2, 8, 9);
  cr_assert_str_eq(d.items[2].message, "no instance of overloaded function \"f\" matches the "
                                       "argument list; argument types are: (int *)");
  assert_range(&d.items[2], 3, 2, 3);
  upk_diags_free(&d);
}

Test(frontend, columns_are_utf16_and_tabs_count_once) {
  const char *log = "u8.cu(2): error: identifier \"undefined_x\" is undefined\n"
                    "    /* \xc3\xa9\xc3\xa9 */ y[0] = undefined_x;\n"
                    "                      ^\n\n"
                    "tab.cu(2): error: unrecognized token\n"
                    "  \ty[0] = \xc3\xa9 + 1;\n"
                    "  \t       ^\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("u8.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 2);
  /* The caret counts bytes (20); LSP counts UTF-16 units: the two é are one each. */
  assert_range(&d.items[0], 1, 18, 29);
  assert_range(&d.items[1], 1, 8, 9); /* the é: 2 bytes, 1 unit */
  upk_diags_free(&d);
}

Test(frontend, option_errors_and_the_name_map_unit) {
  const char *log = "nvrtc: error: unrecognized option -Werror found\n"
                    "Command-line error: invalid or no value specified with --nv_arch flag\n"
                    "__nv_name_map(2): error: identifier \"nope\" is undefined\n"
                    "  #pragma nv_mangled_name nope\n"
                    "                          ^\n\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("k.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_frontend(log, &c, &d), 0);
  cr_assert_eq(d.len, 2, "the __nv_name_map error is NVRTC's own unit, reported as unknown-name");
  cr_assert_str_eq(d.items[0].message, "unrecognized option -Werror found");
  cr_assert_str_eq(d.items[1].code, "nvrtc/error");
  assert_range(&d.items[1], 0, 0, 0);
  upk_diags_free(&d);
}

Test(frontend, bad_name_expressions_are_found) {
  const char *log =
      "__nv_name_map(2): error: identifier \"nope\" is undefined\n"
      "  #pragma nv_mangled_name nope<int>\n"
      "                          ^\n\n"
      "__nv_name_map(2): error: Error in parsing name expression for lowered name lookup. Input "
      "name expression was: \" nope < int >\"\n"
      "  #pragma nv_mangled_name nope<int>\n"
      "                          ^\n\n"
      "2 errors detected in the compilation of \"k.cu\".\n";
  const char *names[] = {"scale<float>", "nope<int>", "nope"};
  bool bad[3] = {false, false, false};
  cr_assert_eq(upk_nvlog_bad_names(log, (upk_strv){names, 3}, bad), 2);
  cr_assert(!bad[0]);
  cr_assert(bad[1]);
  cr_assert(!bad[2], "'nope' is a prefix of the bad one, not the bad one");
  cr_assert_eq(upk_nvlog_bad_names("k.cu(1): error: x\n", (upk_strv){names, 3}, bad), 0);
}

Test(frontend, has_error_tells_a_swallowed_error) {
  cr_assert(upk_nvlog_has_error("k.cu(3): error: expected a \";\"\n"));
  cr_assert(upk_nvlog_has_error("k.cu(1): catastrophic error: could not open source file\n"));
  cr_assert(upk_nvlog_has_error("ptxas error   : Entry function 'k' uses too much shared data "
                                "(0x10000 bytes, 0xc000 max)\n"));
  cr_assert(upk_nvlog_has_error("ptxas application ptx input, line 26; error   : Instruction "
                                "'wgmma.fence' not supported on .target 'sm_90'\n"));
  cr_assert(upk_nvlog_has_error("nvrtc: error: unrecognized option -Werror found\n"));
  /* The -v report alone (ptxas's error line swallowed, reference §3), warnings, "aborted". */
  cr_assert_not(upk_nvlog_has_error(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Used 12 registers, used 1 barriers, 65536 bytes smem\n"
      "k.cu(2): warning #177-D: variable \"i\" was declared but never referenced\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n"));
  cr_assert_not(upk_nvlog_has_error(NULL));
}

/* ---- ptxas -v report ---- */

Test(report, nvrtc_report_per_kernel) {
  const char *log =
      "ptxas warning : Local memory used for function 'local_lookup', size of stack frame: 256 "
      "bytes\n"
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'local_lookup' for 'sm_90a'\n"
      "ptxas info    : Function properties for local_lookup\n"
      "ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size\n"
      "ptxas info    : Compile time = 13.407 ms\n"
      "ptxas info    : Compiling entry function 'spill_heavy' for 'sm_90a'\n"
      "ptxas info    : Function properties for spill_heavy\n"
      "ptxas         .     376 bytes stack frame, 804 bytes spill stores, 856 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers, 376 bytes cumulative stack size\n"
      "ptxas info    : Compiling entry function '_Z5sgemmPf' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z5sgemmPf\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 8320 bytes smem, 380 bytes cmem[0], "
      "8 bytes cmem[2]\n";
  upk_kernel_info *k;
  size_t n;
  cr_assert_eq(upk_nvlog_report(log, &k, &n), 0);
  cr_assert_eq(n, 3);
  cr_assert_str_eq(k[0].mangled, "local_lookup");
  cr_assert_null(k[0].name);
  cr_assert_eq(k[0].line, -1);
  cr_assert_eq(k[0].registers, 40);
  cr_assert_eq(k[0].stack_frame, 256);
  cr_assert_eq(k[0].cumulative_stack, 256);
  cr_assert_eq(k[0].spill_stores, 0);
  cr_assert_eq(k[1].registers, 32);
  cr_assert_eq(k[1].stack_frame, 376);
  cr_assert_eq(k[1].spill_stores, 804);
  cr_assert_eq(k[1].spill_loads, 856);
  cr_assert_eq(k[1].cumulative_stack, 376);
  cr_assert_eq(k[2].barriers, 1);
  cr_assert_eq(k[2].smem_static, 8320);
  cr_assert_eq(k[2].cmem0, 380, "cmem[2] must not land in cmem[0]");
  for (size_t i = 0; i < n; i++)
    upk_kernel_info_free(&k[i]);
  free(k);
}

Test(report, nvcc_form_and_callee_properties) {
  /* nvcc prints the properties line without "ptxas ."; a non-inlined callee's
   * properties inside an entry's section are not the entry's. */
  const char *log = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                    "ptxas info    : Function properties for _Z6helperv\n"
                    "    64 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
                    "ptxas info    : Function properties for k\n"
                    "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                    "ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem\n";
  upk_kernel_info *k;
  size_t n;
  cr_assert_eq(upk_nvlog_report(log, &k, &n), 0);
  cr_assert_eq(n, 1);
  cr_assert_eq(k[0].stack_frame, 16);
  cr_assert_eq(k[0].spill_stores, 0);
  cr_assert_eq(k[0].registers, 10);
  cr_assert_eq(k[0].smem_static, 1024);
  upk_kernel_info_free(&k[0]);
  free(k);
  cr_assert_eq(upk_nvlog_report("k.cu(1): error: x\n", &k, &n), 0);
  cr_assert_eq(n, 0);
  cr_assert_null(k);
}

Test(report, counts_never_negative) {
  /* The fuzz campaign's find (regress-report-count-overflow): "Used <20 digits>" saturated
   * %ld and (int) made -1 registers; a sign, or text other than "registers" after the
   * number, is no count either. */
  const char *log = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                    "ptxas info    : Used 12 registers, used 2 barriers, 64 bytes smem\n"
                    "x.cu(3): error: Used 000000018446744073709551613): error\n"
                    "ptxas info    : Used -4 registers, used -1 barriers, -8 bytes smem\n"
                    "ptxas info    : Used 7 widgets\n";
  upk_kernel_info *k;
  size_t n;
  cr_assert_eq(upk_nvlog_report(log, &k, &n), 0);
  cr_assert_eq(n, 1);
  cr_assert_eq(k[0].registers, 12);
  cr_assert_eq(k[0].barriers, 2);
  cr_assert_eq(k[0].smem_static, 64);
  upk_kernel_info_free(&k[0]);
  free(k);
  cr_assert_eq(upk_nvlog_report("ptxas info    : Compiling entry function 'h'\n"
                                "ptxas info    : Used 99999999999 registers\n",
                                &k, &n),
               0);
  cr_assert_eq(n, 1);
  cr_assert_eq(k[0].registers, INT_MAX, "clamped, not wrapped");
  upk_kernel_info_free(&k[0]);
  free(k);
}

/* ---- ptxas errors and PTX lines ---- */

/* The PTX NVRTC 13.0 writes for this source with -arch=sm_90 -lineinfo (trimmed
 * above the entry; line numbers below are this text's). */
static const char *WG_SRC = "extern \"C\" __global__ void wg(float *out) {\n"
                            "  float v = out[threadIdx.x];\n"
                            "  asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n"
                            "  out[threadIdx.x] = v * 2.0f;\n"
                            "  helper(out);\n"
                            "}\n";
static const char *WG_PTX = ".version 9.0\n"                         /* 1 */
                            ".target sm_90\n"                        /* 2 */
                            ".visible .entry wg(\n"                  /* 3 */
                            "\t.param .u64 wg_param_0\n"             /* 4 */
                            ")\n"                                    /* 5 */
                            "{\n"                                    /* 6 */
                            "\t.loc\t1 1 0\n"                        /* 7 */
                            "\tld.param.u64 \t%rd1, [wg_param_0];\n" /* 8 */
                            "\t.loc\t1 2 3\n"                        /* 9 */
                            "\tld.global.f32 \t%f1, [%rd4];\n"       /* 10 */
                            "\t.loc\t1 3 3\n"                        /* 11 */
                            "\t// begin inline asm\n"                /* 12 */
                            "\twgmma.fence.sync.aligned;\n"          /* 13 */
                            "\t.loc\t2 7 5, function_name $L__info_string0, inlined_at 1 5 3\n"
                            "\tsetmaxnreg.inc.sync.aligned.u32 240;\n" /* 15 */
                            "\t.loc\t2 9 1\n"                          /* 16 */
                            "\tbar.sync 0;\n"                          /* 17 */
                            "\tret;\n"                                 /* 18 */
                            "}\n"                                      /* 19 */
                            "\t.file\t1 \"/tmp/pb/wg.cu\"\n"
                            "\t.file\t2 \"/usr/local/cuda/include/helper.h\"\n";

Test(ptxas, errors_map_to_source_lines_through_loc) {
  const char *log = "ptxas application ptx input, line 13; error   : Instruction 'wgmma.fence' not "
                    "supported on .target 'sm_90'\n"
                    "ptxas application ptx input, line 15; error   : Instruction 'setmaxnreg.inc' "
                    "not supported on .target 'sm_90'\n"
                    "ptxas application ptx input, line 17; warning : a warning in a header\n"
                    "ptxas fatal   : Ptx assembly aborted due to errors\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("wg.cu", WG_SRC, WG_PTX);
  cr_assert_eq(upk_nvlog_ptxas(log, &c, &d), 0);
  cr_assert_eq(d.len, 3, "'Ptx assembly aborted' is not a diagnostic");
  cr_assert_str_eq(d.items[0].code, "ptxas/error");
  cr_assert_str_eq(d.items[0].source, "ptxas");
  cr_assert_str_eq(d.items[0].message,
                   "Instruction 'wgmma.fence' not supported on .target 'sm_90' (PTX line 13)");
  cr_assert_null(d.items[0].file);
  assert_range(&d.items[0], 2, 2, 5); /* .loc 1 3 3: "asm" */
  /* Inlined from a header: placed at its call site in the main file. */
  assert_range(&d.items[1], 4, 2, 8);
  cr_assert_null(d.items[1].file);
  /* A header line with no main-file call site keeps the header's name. */
  cr_assert_eq(d.items[2].severity, UPK_SEV_WARNING);
  cr_assert_str_eq(d.items[2].code, "ptxas/warning");
  cr_assert_str_eq(d.items[2].file, "/usr/local/cuda/include/helper.h");
  cr_assert_eq(d.items[2].range.line, 8);
  upk_diags_free(&d);
}

Test(ptxas, entry_function_errors_land_on_the_kernel_name) {
  const char *src = "// 64 KB\n"
                    "extern \"C\" __global__ void __launch_bounds__(128)\n"
                    "    too_much_smem(float *out) {\n"
                    "  __shared__ float big[16384];\n"
                    "}\n";
  const char *ptx = ".visible .entry too_much_smem(\n"
                    "\t.param .u64 too_much_smem_param_0\n"
                    ")\n{\n"
                    "\t.loc\t1 2 0\n"
                    "\tret;\n}\n"
                    "\t.file\t1 \"/work/k.cu\"\n";
  const char *log = "ptxas error   : Entry function 'too_much_smem' uses too much shared data "
                    "(0x10000 bytes, 0xc000 max)\n"
                    "ptxas warning : Registers are spilled to local memory in function "
                    "'too_much_smem', 8 bytes spill stores, 8 bytes spill loads\n"
                    "ptxas warning : Local memory used for function 'too_much_smem', size of "
                    "stack frame: 16 bytes\n"
                    "ptxas error   : Entry function 'unknown_k' uses too much shared data\n";
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("/work/k.cu", src, ptx);
  cr_assert_eq(upk_nvlog_ptxas(log, &c, &d), 0);
  cr_assert_eq(d.len, 4);
  cr_assert_str_eq(d.items[0].message,
                   "Entry function 'too_much_smem' uses too much shared data (0x10000 bytes, "
                   "0xc000 max)");
  assert_range(&d.items[0], 2, 4, 17); /* the name sits a line below .loc's line */
  cr_assert_str_eq(d.items[1].code, "ptxas/spill");
  cr_assert_str_eq(d.items[2].code, "ptxas/local-memory");
  assert_range(&d.items[2], 2, 4, 17);
  assert_range(&d.items[3], 0, 0, 0); /* no such entry: not placed */
  upk_diags_free(&d);
}

Test(ptxas, unplaced_without_ptx) {
  upk_diags d = {0};
  upk_nvlog_ctx c = ctx_for("k.cu", NULL, NULL);
  cr_assert_eq(upk_nvlog_ptxas("ptxas fatal   : Unknown option 'v,-warn-spills'\n"
                               "ptxas info    : Used 10 registers\n",
                               &c, &d),
               0);
  cr_assert_eq(d.len, 1);
  cr_assert_str_eq(d.items[0].code, "ptxas/error");
  cr_assert_str_eq(d.items[0].message, "Unknown option 'v,-warn-spills'");
  upk_diags_free(&d);
}

Test(ptx, map_line_and_entry_pos) {
  upk_ptx_pos p;
  cr_assert_eq(upk_ptx_map_line(WG_PTX, 10, "wg.cu", &p), 0);
  cr_assert_eq(p.line, 1);
  cr_assert_eq(p.col, 2);
  cr_assert_null(p.file, "a relative program name matches NVRTC's absolute .file");
  cr_assert_eq(upk_ptx_map_line(WG_PTX, 5, "wg.cu", &p), -ENOENT, "no .loc before line 5");
  cr_assert_eq(upk_ptx_entry_pos(WG_PTX, "wg", "/tmp/pb/wg.cu", &p), 0);
  cr_assert_eq(p.line, 0);
  cr_assert_eq(p.col, -1, ".loc column 0 means none");
  cr_assert_eq(upk_ptx_entry_pos(WG_PTX, "w", "wg.cu", &p), -ENOENT, "names match whole");
  cr_assert_eq(upk_ptx_map_line(WG_PTX, 17, "other.cu", &p), 0);
  cr_assert_str_eq(p.file, "/usr/local/cuda/include/helper.h");
  free(p.file);
}

/* ---- names and cubins ---- */

Test(names, demangled_as_a_person_writes_them) {
  char out[256];
  cr_assert_eq(upk_demangle_kernel("_Z5scaleIfEvPT_S0_i", out, sizeof out), 0);
  cr_assert_str_eq(out, "scale<float>");
  cr_assert_eq(upk_demangle_kernel("_Z14scale_unrolledIfLi4EEvPT_S0_i", out, sizeof out), 0);
  cr_assert_str_eq(out, "scale_unrolled<float, 4>");
  cr_assert_eq(upk_demangle_kernel("_ZN2ns6kernelEPf", out, sizeof out), 0);
  cr_assert_str_eq(out, "ns::kernel");
  cr_assert_eq(upk_demangle_kernel("saxpy", out, sizeof out), 0);
  cr_assert_str_eq(out, "saxpy");
  cr_assert_eq(upk_demangle_kernel("_Zgarbage", out, sizeof out), -EINVAL);
  cr_assert_str_eq(out, "_Zgarbage");
  cr_assert_eq(upk_demangle_kernel("_Z5scaleIfEvPT_S0_i", out, 4), -ENOSPC);
}

/* A minimal ELF64: header, then section headers [null, .shstrtab, .nv.constant0.k]. */
static size_t tiny_elf(unsigned char *buf, size_t cap) {
  static const char names[] = "\0.shstrtab\0.nv.constant0.k";
  memset(buf, 0, cap);
  Elf64_Ehdr eh = {
      .e_shoff = 128, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 3, .e_shstrndx = 1};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  memcpy(buf, &eh, sizeof eh);
  memcpy(buf + 80, names, sizeof names);
  Elf64_Shdr sh[3] = {{0},
                      {.sh_name = 1, .sh_offset = 80, .sh_size = sizeof names},
                      {.sh_name = 11, .sh_size = 552}};
  memcpy(buf + 128, sh, sizeof sh);
  return 128 + sizeof sh;
}

Test(cubin, constant_bank_section_size) {
  unsigned char buf[512];
  size_t n = tiny_elf(buf, sizeof buf);
  cr_assert_eq(upk_cubin_section_size(buf, n, ".nv.constant0.k"), 552);
  cr_assert_eq(upk_cubin_section_size(buf, n, ".nv.constant0.other"), -1);
  cr_assert_eq(upk_cubin_section_size(buf, n - 1, ".nv.constant0.k"), -1, "truncated");
  cr_assert_eq(upk_cubin_section_size("not an elf at all", 17, ".text"), -1);
  cr_assert_eq(upk_cubin_section_size(NULL, 0, ".text"), -1);
}
