/** A string pool: copies of many short strings kept in large blocks and freed together.
 *
 * A restart of 60,000 skills held ~500,000 paths and names, each its own malloc and free:
 * a fifth of the restart. Copies never move, so the pointers handed out stay valid until
 * upk_strpool_free(). A zeroed upk_strpool is an empty pool. */
#ifndef UPK_STRPOOL_H
#define UPK_STRPOOL_H

#include <stddef.h>

typedef struct upk_strpool_block upk_strpool_block;

typedef struct upk_strpool {
  upk_strpool_block *head; /* the block being filled; older ones follow */
  size_t used, cap;        /* bytes of head's data used and held */
} upk_strpool;

/** Copies s[0..n) and a terminating NUL into the pool: the copy, or NULL when out of memory. */
char *upk_strpool_ndup(upk_strpool *p, const char *s, size_t n);
/** Copies the string s into the pool: the copy, or NULL when out of memory. */
char *upk_strpool_dup(upk_strpool *p, const char *s);
/** Frees every copy at once; the pool is empty again. */
void upk_strpool_free(upk_strpool *p);

#endif
