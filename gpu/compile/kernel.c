#include "gpu/compile/kernel.h"

#include <stdlib.h>

void upk_kernel_info_free(upk_kernel_info *k) {
  if (!k)
    return;
  for (size_t i = 0; i < k->n_launches; i++) {
    free(k->launches[i].written);
    free(k->launches[i].block_text);
    free(k->launches[i].smem_text);
    free(k->launches[i].why);
  }
  free(k->launches);
  k->launches = NULL;
  k->n_launches = 0;
  free(k->name);
  free(k->mangled);
  k->name = k->mangled = NULL;
}
