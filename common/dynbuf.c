#include "common/dynbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void upk_buf_init(upk_buf *b, size_t max) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  b->max = max;
}

static int buf__reserve(upk_buf *b, size_t need) {
  if (need <= b->cap)
    return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need)
    cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  /* Never allocate far past the cap: a capped buffer stays capped in memory too. */
  if (cap > b->max + 1 && need <= b->max + 1)
    cap = b->max + 1;
  b->data = upk_xrealloc(b->data, cap);
  b->cap = cap;
  return 0;
}

int upk_buf_reserve(upk_buf *b, size_t n) {
  if (n > b->max || b->len > b->max - n)
    return -E2BIG;
  return buf__reserve(b, b->len + n + 1);
}

char *upk_buf_space(upk_buf *b, size_t n, size_t *avail) {
  if (upk_buf_reserve(b, n))
    return NULL;
  size_t room = b->cap - b->len - 1; /* the NUL's byte is kept */
  *avail = room < b->max - b->len ? room : b->max - b->len;
  return b->data + b->len;
}

void upk_buf_added(upk_buf *b, size_t n) {
  if (!n) /* a read that brought nothing; the buffer may have no data yet */
    return;
  b->len += n;
  b->data[b->len] = '\0';
}

int upk_buf_append(upk_buf *b, const void *data, size_t n) {
  if (n > b->max || b->len > b->max - n)
    return -E2BIG;
  int rc = buf__reserve(b, b->len + n + 1);
  if (rc)
    return rc;
  if (n)
    memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

int upk_buf_puts(upk_buf *b, const char *s) {
  return upk_buf_append(b, s, strlen(s));
}

int upk_buf_printf(upk_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return -EINVAL;
  if ((size_t)n < sizeof small)
    return upk_buf_append(b, small, (size_t)n);
  char *big = upk_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  int rc = upk_buf_append(b, big, (size_t)n);
  free(big);
  return rc;
}

void upk_buf_consume(upk_buf *b, size_t n) {
  if (n >= b->len) {
    upk_buf_reset(b);
    return;
  }
  memmove(b->data, b->data + n, b->len - n);
  b->len -= n;
  b->data[b->len] = '\0';
}

void upk_buf_reset(upk_buf *b) {
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

void upk_buf_free(upk_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
}

char *upk_buf_take(upk_buf *b, size_t *len) {
  char *p = b->data;
  if (len)
    *len = b->len;
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  return p;
}
