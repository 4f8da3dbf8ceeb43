/** Compiler options from an allowlist (issue 44, docs/security.md "Compiler options").
 *
 * Every option that reaches NVRTC or nvcc from outside upskilld passes here first: a request's
 * `options` (an agent's tool call, an editor's request), a kernel-builder project's build.toml
 * `cuda-flags`. An option is allowed anywhere when it only changes what is compiled and how
 * (architecture, optimisation, macros, dialect, line info, fast math, register limits, the
 * `--expt-*` switches, ptxas's report and warnings, harmless host-compiler warnings); an include
 * directory only when it lies under the include policy's roots (gpu/compile/includes.h). Everything
 * else is refused unless its origin may (common/trust.h's upk_policy_allows): a host compiler
 * (`-ccbin`), host-compiler or linker options that are not on the small harmless list (plugins,
 * libraries), options that write files (`-o`, `-M*`, `--keep`, ...), pre-includes and options
 * files (they read any file), and any option not on the allowlist (default deny). Values in the
 * next element, `NAME=VALUE`, joined short forms and comma lists are all understood.
 *
 * The user's own globs (`--allow-kernel-option`) allow an option from any origin, as clangd's
 * `--query-driver` allows a compiler a project names. A refusal is one error diagnostic
 * `kernel/option-refused` naming the option, its rule (`trust/run`, `trust/read`,
 * `trust/write`) and how the user allows it; the caller then compiles nothing. */
#ifndef UPK_GPU_KOPTS_H
#define UPK_GPU_KOPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"
#include "common/trust.h"
#include "gpu/compile/compile.h"

/** Where a list of options comes from. */
typedef struct upk_kopts_from {
  upk_origin origin; /* UPK_ORIGIN_AGENT: a request's options; UPK_ORIGIN_WORKSPACE: build.toml */
  bool trusted;      /* a workspace's project is trusted (upk_trust_check() == UPK_TRUST_YES) */
  const char *dir;   /* that project, for the refusal's `upskillctl trust DIR`; may be NULL */
  const char *what;  /* how the diagnostic names the list: "options", "build.toml cuda-flags" */
} upk_kopts_from;

/** What is allowed besides the allowlist. */
typedef struct upk_kopts_policy {
  upk_strv user_allow; /* the user's globs (fnmatch) matched against "NAME=VALUE" and as written */
  upk_strv roots;      /* include directories must lie under one of these (made real here) */
} upk_kopts_policy;

/** Options that passed, normalized: one element each, the value joined ("--ptxas-options=-v",
 * "-DX=1", "-ccbin=/usr/bin/gcc"), owned. `v` is NULL-terminated. */
typedef struct upk_kopts {
  char **v;
  size_t n, cap;
} upk_kopts;

/** Check `opts` from `from`. An allowed option is appended to `out` (normalized); a refused one
 * adds one error diagnostic "kernel/option-refused" to `diags` and nothing to `out`. Returns the
 * number refused. Never fails (allocation aborts, common/xalloc.h). */
size_t upk_kopts_check(upk_strv opts, const upk_kopts_from *from, const upk_kopts_policy *p,
                       upk_kopts *out, upk_diags *diags);

/** The options of `k` as a borrowed upk_strv (valid while `k` lives). */
upk_strv upk_kopts_strv(const upk_kopts *k);
void upk_kopts_free(upk_kopts *k);

#endif
