/* placeholder: being written (stubs so the tree links) */
#include <string.h>

#include "srcscan.h"

int upk_src_scan(const char *src, size_t len, upk_src_facts *out) {
  memset(out, 0, sizeof *out);
  return 0;
}
void upk_src_facts_free(upk_src_facts *f) {}
const upk_src_kernel *upk_src_find_kernel(const upk_src_facts *f, const char *name) {
  return NULL;
}
