/* placeholder: being written (stubs so the tree links) */
#include <errno.h>
#include <stdio.h>

#include "compile.h"

int upk_nvrtc_load(const char *cuda_path, char *reason, size_t reason_len) {
  snprintf(reason, reason_len, "not implemented yet");
  return -ENOENT;
}
