/* placeholder: being written (stubs so the tree links) */
#include <string.h>

#include "includes.h"

int upk_includes_check(const char *src, size_t len, const upk_include_policy *p, upk_diags *out,
                       upk_include_deps *deps) {
  memset(deps, 0, sizeof *deps);
  return 0;
}
void upk_include_deps_free(upk_include_deps *d) {}
