/* Mutants of the run's checks (mutant.h): compiled in test builds only. */
#include "gpu/run/mutant.h"

#if UPK_GPU_MUTANTS
#include <stdlib.h>
#include <string.h>

bool upk_mutant(const char *name) {
  const char *list = getenv("UPK_GPU_MUTANT");
  size_t n = strlen(name);
  for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
    if (strcspn(p, ",") == n && !strncmp(p, name, n))
      return true;
  }
  return false;
}
#endif
