/** The out-of-memory policy: allocations that abort.
 *
 * jansson already makes recovery from an exhausted heap impossible (a json_pack that fails
 * half-way leaves nothing to report with), so the daemon does not pretend: every allocation
 * whose size the program chooses goes through these, which print one line and abort when
 * the heap is exhausted. Graceful failure (a NULL and -ENOMEM) is kept only where a size
 * comes from outside (a message, a file, a model's answer): those call malloc and check it,
 * with a hard cap first. upk_xalloc_install() makes jansson allocate through them too. */
#ifndef UPK_XALLOC_H
#define UPK_XALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** malloc(n) that never returns NULL (n == 0 allocates one byte). */
void *upk_xmalloc(size_t n);
/** calloc(count, size) that never returns NULL; aborts on overflow. */
void *upk_xcalloc(size_t count, size_t size);
/** realloc(p, n) that never returns NULL (n == 0 keeps one byte). */
void *upk_xrealloc(void *p, size_t n);
/** realloc(p, count * size), checking the product for overflow. */
void *upk_xreallocarray(void *p, size_t count, size_t size);
/** strdup(s) that never returns NULL; NULL for a NULL s. */
char *upk_xstrdup(const char *s);
/** strndup(s, n) that never returns NULL. */
char *upk_xstrndup(const char *s, size_t n);
/** A newly allocated formatted string (asprintf) that never returns NULL. */
char *upk_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** The same with a va_list. */
char *upk_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/** open_memstream(buf, len) that never returns NULL: text printed to it is *buf after fclose
 * (a printf-to-string builder; the caller frees *buf). */
FILE *upk_xmemstream(char **buf, size_t *len);
/** Make jansson allocate through upk_xmalloc: call once before the first JSON value. */
void upk_xalloc_install(void);
/** Grows an array of *cap elements of `size` bytes so that it holds at least `need`:
 * doubling (from 8), never less than need. Returns the array (moved or not). */
void *upk_xgrow(void *array, size_t *cap, size_t need, size_t size);
/** The smallest power of two that is >= n and >= min (min a power of two): the size of an
 * open-addressing table. n past the largest size_t power of two gives that power. */
size_t upk_pow2_at_least(size_t n, size_t min);

/** Grow `array` (an lvalue of pointer type) whose capacity is `cap` to hold `need` elements. */
#define UPK_GROW(array, cap, need) ((array) = upk_xgrow((array), &(cap), (need), sizeof *(array)))

#ifdef __cplusplus
}
#endif

#endif
