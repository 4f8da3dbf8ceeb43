/* The executable assertions' decisions (assertion.h): `diff` patterns against the changed
 * paths, and a `kernel` check's result against its limits. Running the script, git and the
 * compiler is the caller's: nothing here spawns a process. */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dynbuf.h"
#include "common/xalloc.h"
#include "skills/eval/assertion_int.h"

/* ---- labels -------------------------------------------------------------- */

static char *join_list(char *const *v, size_t n) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&b, "[");
  for (size_t i = 0; i < n; i++)
    upk_buf_printf(&b, "%s%s", i ? ", " : "", v[i]);
  upk_buf_puts(&b, "]");
  return upk_buf_take(&b, NULL);
}

char *upk_assert_exec_label(const upk_assertion *a) {
  const char *first = a->n_values ? a->values[0] : "";
  if (a->kind == UPK_ASSERT_SCRIPT)
    return a->exit_code ? upk_xasprintf("script \"%s\" (exit %d)", first, a->exit_code)
                        : upk_xasprintf("script \"%s\"", first);
  if (a->kind == UPK_ASSERT_KERNEL)
    return upk_xasprintf(
        "kernel {path: %s, arch: %s%s%s}", first, a->arch ? a->arch : UPK_ASSERT_DEFAULT_ARCH,
        a->max_registers || a->no_spills ? ", resources" : "", a->run ? ", run" : "");
  char *changed = join_list(a->values, a->n_values),
       *unchanged = join_list(a->unchanged, a->n_unchanged);
  char *s = changed && unchanged ? upk_xasprintf("diff {changed: %s, unchanged: %s%s}", changed,
                                                 unchanged, a->only ? ", only" : "")
                                 : NULL;
  free(changed);
  free(unchanged);
  return s;
}

/* ---- globs --------------------------------------------------------------- */

const char *upk_assert_glob_check(const char *p) {
  if (!*p)
    return "an empty pattern";
  if (*p == '/')
    return "an absolute pattern (patterns are relative to the workspace)";
  int depth = 0; /* inside [...] */
  for (const char *s = p; *s; s++) {
    if (*s == '\\' && s[1])
      s++;
    else if (*s == '[' && !depth)
      depth = 1, s += s[1] == '!' || s[1] == '^', s += s[1] == ']';
    else if (*s == ']' && depth)
      depth = 0;
  }
  if (depth)
    return "an unclosed '['";
  for (const char *part = p; part; part = strchr(part, '/') ? strchr(part, '/') + 1 : NULL) {
    size_t n = strcspn(part, "/");
    if (n == 0)
      return "an empty part ('//' or a trailing '/')";
    if ((n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.'))
      return "a '.' or '..' part";
    const char *star = strstr(part, "**");
    if (star && star < part + n && n != 2)
      return "'**' that is not a whole part (write dir/**/name)";
  }
  return NULL;
}

/* `pat` against `path`, both '/'-separated; `**` parts span any number of path parts. */
static bool glob_from(const char *pat, const char *path) {
  if (pat[0] == '*' && pat[1] == '*' && (pat[2] == '/' || !pat[2])) {
    if (!pat[2])
      return true; /* a trailing ** : everything below */
    for (const char *p = path; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
      if (glob_from(pat + 3, p))
        return true;
    return false;
  }
  const char *slash = strchr(pat, '/');
  const char *pslash = strchr(path, '/');
  if (!slash) /* the last part: the rest of the path must be one part */
    return !pslash && fnmatch(pat, path, FNM_PATHNAME) == 0;
  if (!pslash)
    return false;
  char *pp = upk_xstrndup(pat, (size_t)(slash - pat));
  char *pa = upk_xstrndup(path, (size_t)(pslash - path));
  bool ok = pp && pa && fnmatch(pp, pa, FNM_PATHNAME) == 0 && glob_from(slash + 1, pslash + 1);
  free(pp);
  free(pa);
  return ok;
}

bool upk_assert_glob(const char *pattern, const char *path) {
  return *path && glob_from(pattern, path);
}

/* ---- diff ---------------------------------------------------------------- */

static const char *first_match(const char *pattern, char *const *changed, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (upk_assert_glob(pattern, changed[i]))
      return changed[i];
  return NULL;
}

static bool any_match(char *const *patterns, size_t np, const char *path) {
  for (size_t i = 0; i < np; i++)
    if (upk_assert_glob(patterns[i], path))
      return true;
  return false;
}

upk_assert_status upk_assert_diff_decide(const upk_assertion *a, char *const *changed, size_t n,
                                         char **reason) {
  *reason = NULL;
  for (size_t i = 0; i < a->n_values; i++)
    if (!first_match(a->values[i], changed, n)) {
      *reason = upk_xasprintf("no changed path matches \"%s\"", a->values[i]);
      return UPK_ASSERT_FAIL;
    }
  for (size_t i = 0; i < a->n_unchanged; i++) {
    const char *hit = first_match(a->unchanged[i], changed, n);
    if (hit) {
      *reason = upk_xasprintf("\"%s\" changed (unchanged: \"%s\")", hit, a->unchanged[i]);
      return UPK_ASSERT_FAIL;
    }
  }
  for (size_t i = 0; a->only && i < n; i++)
    if (!any_match(a->values, a->n_values, changed[i])) {
      *reason = upk_xasprintf("\"%s\" changed, and only the `changed` paths may", changed[i]);
      return UPK_ASSERT_FAIL;
    }
  return UPK_ASSERT_PASS;
}

/* ---- kernel -------------------------------------------------------------- */

static char *limits_broken(const upk_assertion *a, const upk_kcheck_result *res, const char *arch) {
  if (res->n_kernels == 0)
    return upk_xasprintf("%s compiled no kernel (an uninstantiated template?)", a->values[0]);
  for (size_t k = 0; k < res->n_kernels; k++) {
    const upk_kcheck_kernel *kn = &res->kernels[k];
    const char *name = kn->name ? kn->name : "?";
    if (a->max_registers > 0 && kn->registers > a->max_registers)
      return upk_xasprintf("kernel %s uses %d registers (limit %d) for %s", name, kn->registers,
                           a->max_registers, arch);
    if (a->no_spills && (kn->spill_stores > 0 || kn->spill_loads > 0))
      return upk_xasprintf(
          "kernel %s spills registers (%ld bytes spill stores, %ld bytes spill loads)", name,
          kn->spill_stores, kn->spill_loads);
  }
  return NULL;
}

/* "compiled for sm_90a: k (32 registers, no spills), ..." */
static char *summary(const upk_kcheck_result *res, const char *arch) {
  char *s = upk_xasprintf("compiled for %s:", arch);
  for (size_t k = 0; s && k < res->n_kernels; k++) {
    const upk_kcheck_kernel *kn = &res->kernels[k];
    char *next =
        upk_xasprintf("%s%s %s (%d registers, %s)", s, k ? "," : "", kn->name ? kn->name : "?",
                      kn->registers, kn->spill_stores || kn->spill_loads ? "spills" : "no spills");
    free(s);
    s = next;
  }
  return s;
}

upk_assert_status upk_assert_kernel_decide(const upk_assertion *a, const upk_kcheck_result *res,
                                           char **reason) {
  const char *arch = a->arch && *a->arch ? a->arch : UPK_ASSERT_DEFAULT_ARCH;
  const char *path = a->n_values ? a->values[0] : "?";
  *reason = NULL;
  switch (res->status) {
  case UPK_ASSERT_PASS:
    break;
  case UPK_ASSERT_FAIL:
    *reason = upk_xasprintf("%s does not compile for %s: %s", path, arch,
                            res->reason ? res->reason : "no message");
    return UPK_ASSERT_FAIL;
  case UPK_ASSERT_SKIPPED:
    *reason = upk_xasprintf("%s was not checked: %s", path,
                            res->reason ? res->reason : "no CUDA toolkit");
    return UPK_ASSERT_SKIPPED;
  default:
    *reason =
        upk_xasprintf("the check of %s failed: %s", path, res->reason ? res->reason : "no message");
    return UPK_ASSERT_ERROR;
  }
  if (a->max_registers > 0 || a->no_spills) {
    *reason = limits_broken(a, res, arch);
    if (*reason)
      return UPK_ASSERT_FAIL;
  }
  *reason = summary(res, arch);
  return UPK_ASSERT_PASS;
}
