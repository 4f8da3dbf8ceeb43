/* placeholder: being written (stubs so the tree links) */
#include "lint.h"

int upk_lint_source(const char *src, size_t len, const upk_src_facts *facts, const char *arch,
                    upk_diags *out) {
  return 0;
}
int upk_lint_kernels(const upk_kernel_info *k, size_t n, const upk_src_facts *facts,
                     const char *arch, long dynamic_smem, upk_diags *out) {
  return 0;
}
int upk_arch_number(const char *arch) {
  return -1;
}
