/* placeholder: being written (stubs so the tree links) */
#include "compile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int upk_compile(const upk_compile_req *req, upk_compile_result *out) {
  memset(out, 0, sizeof *out);
  upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-toolkit", "upskilld", upk_range_line(0, 0, 0),
                "not implemented yet");
  return -ENOENT;
}
void upk_compile_result_free(upk_compile_result *r) {
  upk_diags_free(&r->diags);
  for (size_t i = 0; i < r->n_kernels; i++)
    upk_kernel_info_free(&r->kernels[i]);
  free(r->kernels);
  free(r->log);
  memset(r, 0, sizeof *r);
}
