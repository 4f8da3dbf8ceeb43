/** FNV-1a, 64-bit: a short stable name for a key (file names, map keys), not a secret and not
 * collision-proof. Chain calls to hash several fields; start from UPK_FNV1A_INIT. */
#ifndef UPK_FNV1A_H
#define UPK_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define UPK_FNV1A_INIT 14695981039346656037ull

static inline uint64_t upk_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

#endif
