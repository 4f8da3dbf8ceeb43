#include "gpu/compile/kernel.h"

#include <stdlib.h>

void upk_kernel_info_free(upk_kernel_info *k) {
  if (!k)
    return;
  free(k->name);
  free(k->mangled);
  k->name = k->mangled = NULL;
}
