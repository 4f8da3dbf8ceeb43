/* String pool: blocks of BLOCK_BYTES bytes (or one string's size, when larger), filled
 * from the front and chained, newest first. */
#include "common/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define BLOCK_BYTES (64 * 1024)

struct upk_strpool_block {
  upk_strpool_block *next;
  char data[];
};

char *upk_strpool_ndup(upk_strpool *p, const char *s, size_t n) {
  if (!p->head || p->cap - p->used < n + 1) {
    size_t cap = n + 1 > BLOCK_BYTES ? n + 1 : BLOCK_BYTES;
    upk_strpool_block *b = upk_xmalloc(sizeof *b + cap);
    b->next = p->head;
    p->head = b;
    p->used = 0;
    p->cap = cap;
  }
  char *out = p->head->data + p->used;
  memcpy(out, s, n);
  out[n] = '\0';
  p->used += n + 1;
  return out;
}

char *upk_strpool_dup(upk_strpool *p, const char *s) {
  return upk_strpool_ndup(p, s, strlen(s));
}

void upk_strpool_free(upk_strpool *p) {
  for (upk_strpool_block *b = p->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  memset(p, 0, sizeof *p);
}
