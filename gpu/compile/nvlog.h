/** Pure parsers of what NVRTC and ptxas print, and of the PTX and cubin they
 * produce: no NVRTC calls, so every function here is testable on text.
 *
 * Formats (../shared/reference/cuda-validation.md §3, observed with NVRTC 13.0):
 * - front end: `FILE(LINE): error: MSG` (also `warning #177-D:`, `remark #20200-D:`,
 *   `catastrophic error:`), then the source line echoed with 2 extra leading
 *   spaces, then a caret line; `detected during ...` notes may follow. Error
 *   lines carry no number in NVRTC 13 (`--display-error-number` is accepted
 *   and ignored), warnings and remarks do.
 * - ptxas: `ptxas application ptx input, line N; error   : MSG` cites a PTX
 *   line; `ptxas error   : Entry function 'k' uses too much shared data ...`
 *   names a kernel; the `-v` report is `Compiling entry function`, a
 *   `N bytes stack frame, ...` line and a `Used N registers, ...` line.
 */
#ifndef UPK_GPU_NVLOG_H
#define UPK_GPU_NVLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/compile/compile.h"
#include "common/diag.h"
#include "gpu/compile/kernel.h"

/** What the parsers need besides the log. */
typedef struct upk_nvlog_ctx {
  const char *main_file; /* the program's name as NVRTC was given it ("kernel.cu") */
  const char *source;    /* the main file's text (end columns, kernel names); may be NULL */
  size_t source_len;
  const char *ptx; /* the -lineinfo PTX ptxas assembled; NULL: ptxas errors stay unplaced */
} upk_nvlog_ctx;

/** Front-end diagnostics of `log`, appended to `out` (source "nvrtc"). Code
 * `nvrtc/<n>` when the line carries a number, else `nvrtc/error`,
 * `nvrtc/warning` or `nvrtc/remark`; remarks are UPK_SEV_INFO. The column
 * comes from the caret (caret offset - 2, in UTF-16 units of the echoed line),
 * the end from the token at the caret. A diagnostic in another file than
 * ctx->main_file gets `file` set. "N errors detected" lines, NVRTC's own
 * name-expression unit (`__nv_name_map`) and PCH notices are not diagnostics;
 * `nvrtc: error:` and `Command-line error:` lines are (at line 0).
 * Returns 0 or -ENOMEM. */
int upk_nvlog_frontend(const char *log, const upk_nvlog_ctx *ctx, upk_diags *out);

/** ptxas errors and warnings of `log` (source "ptxas"): `ptxas/error`,
 * `ptxas/warning`, `ptxas/spill` (-warn-spills), `ptxas/local-memory`
 * (-warn-lmem-usage). A cited PTX line is mapped to the source through the
 * nearest preceding `.loc` of ctx->ptx; a message naming a function is
 * placed on that kernel's name. "Ptx assembly aborted" is not a diagnostic.
 * Returns 0 or -ENOMEM. */
int upk_nvlog_ptxas(const char *log, const upk_nvlog_ctx *ctx, upk_diags *out);

/** Whether `log` holds an error line of the front end, ptxas or NVRTC's
 * option parser (ptxas's "Ptx assembly aborted" alone does not count). */
bool upk_nvlog_has_error(const char *log);

/** The ptxas `-v` report: one upk_kernel_info per `Compiling entry function`
 * (mangled set, name NULL, line/col -1), resources from the lines that follow;
 * trailing `, N bytes <kind>` items are read by kind, not position. `*kernels`
 * is NULL when there are none. Returns 0 or -ENOMEM. */
int upk_nvlog_report(const char *log, upk_kernel_info **kernels, size_t *n);

/** Name expressions NVRTC could not parse: sets bad[i] for each names.v[i]
 * echoed in a failing `#pragma nv_mangled_name` line. Returns how many error
 * lines the `__nv_name_map` unit has (0: every name parsed). */
int upk_nvlog_bad_names(const char *log, upk_strv names, bool *bad);

/** A source position from PTX debug lines. */
typedef struct upk_ptx_pos {
  int line, col; /* zero-based; col -1 when the .loc gives none */
  char *file;    /* NULL: the main file; else the .file name (owned) */
} upk_ptx_pos;

/** The source position of PTX line `ptx_line` (1-based): the nearest `.loc`
 * before it. Inlined code outside the main file is placed at its call site in
 * the main file (`inlined_at`). Returns 0, -ENOENT or -ENOMEM. */
int upk_ptx_map_line(const char *ptx, int ptx_line, const char *main_file, upk_ptx_pos *pos);
/** The position of kernel `entry` (mangled): the first `.loc` of its body. */
int upk_ptx_entry_pos(const char *ptx, const char *entry, const char *main_file, upk_ptx_pos *pos);

/** A kernel's name as a person writes it: `_Z5scaleIfEvPT_S0_i` -> `scale<float>`
 * (abi::__cxa_demangle, less the return type and parameters); names that are
 * not mangled (extern "C") are copied. Returns 0, -EINVAL (not demangled:
 * `out` holds the input) or -ENOSPC. */
int upk_demangle_kernel(const char *mangled, char *out, size_t out_len);

#endif
