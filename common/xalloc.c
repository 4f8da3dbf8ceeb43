/* The out-of-memory policy (xalloc.h): one message and abort. */
#include "common/xalloc.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__((noreturn)) out_of_memory(size_t n) {
  /* fprintf may itself allocate; a fixed write does not. */
  static const char msg[] = "upskilld: out of memory\n";
  (void)n;
  fwrite(msg, 1, sizeof msg - 1, stderr);
  abort();
}

void *upk_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory(n);
  return p;
}

void *upk_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    out_of_memory(count * size);
  return p;
}

void *upk_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory(n);
  return q;
}

void *upk_xreallocarray(void *p, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    out_of_memory(SIZE_MAX);
  return upk_xrealloc(p, count * size);
}

char *upk_xstrdup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  return memcpy(upk_xmalloc(n), s, n);
}

char *upk_xstrndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *p = upk_xmalloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *upk_xvasprintf(const char *fmt, va_list ap) {
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    out_of_memory(0);
  return s;
}

char *upk_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = upk_xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

FILE *upk_xmemstream(char **buf, size_t *len) {
  FILE *f = open_memstream(buf, len);
  if (!f)
    out_of_memory(0);
  return f;
}

static void *json_xmalloc(size_t n) {
  return upk_xmalloc(n);
}

void upk_xalloc_install(void) {
  json_set_alloc_funcs(json_xmalloc, free);
}

size_t upk_pow2_at_least(size_t n, size_t min) {
  size_t p = min ? min : 1;
  while (p < n && p <= SIZE_MAX / 2)
    p *= 2;
  return p;
}

void *upk_xgrow(void *array, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return array;
  size_t n = *cap ? *cap : 8;
  while (n < need)
    n = n > SIZE_MAX / 2 ? need : n * 2;
  array = upk_xreallocarray(array, n, size);
  *cap = n;
  return array;
}
