/** Mutants of the run's checks, for test builds only (meson -Dgpu_mutants=true, which
 * scripts/gpu-pack.sh builds beside the release pack; a normal build compiles every switch to
 * false). UPK_GPU_MUTANT=NAME[,NAME] turns the named checks off, so each GPU test can be seen
 * failing without the behaviour it names (docs/gpu.md "Seen failing"). Names: timed-hash,
 * poison, input-hash, guard, fresh-inputs, value-vary, odd-sizes, tolerance, constant-output,
 * rotation. */
#ifndef UPK_GPU_MUTANT_H
#define UPK_GPU_MUTANT_H

#include <stdbool.h>

#include "upk_config.h"

#if UPK_GPU_MUTANTS
/** True when UPK_GPU_MUTANT lists `name`. */
bool upk_mutant(const char *name);
#else
static inline bool upk_mutant(const char *name) {
  (void)name;
  return false;
}
#endif

#endif
