/** Growable byte buffer with a hard size cap (after curl's dynbuf).
 *
 * Every append either succeeds completely or leaves the buffer as it was and
 * returns -E2BIG when the cap would be passed: the cap is the graceful failure for
 * sizes that come from outside (a message, a child's output). Memory itself is
 * allocated through upk_xrealloc (common/xalloc.h's policy: exhaustion aborts), so a
 * buffer made with UPK_BUF_INIT(SIZE_MAX) never fails and its callers need not check.
 * The data is NUL-terminated once anything (even "") was appended.
 */
#ifndef UPK_DYNBUF_H
#define UPK_DYNBUF_H

#include <stddef.h>

typedef struct upk_buf {
  char *data;
  size_t len;
  size_t cap; /* allocated bytes */
  size_t max; /* hard limit on len */
} upk_buf;

/** An empty buffer that will never hold more than `max` bytes, as an initializer. */
#define UPK_BUF_INIT(max)                                                                          \
  { NULL, 0, 0, (max) }

/** Initialise an empty buffer that will never hold more than `max` bytes. */
void upk_buf_init(upk_buf *b, size_t max);
/** Make room for `n` more bytes (plus the NUL) without changing the contents. */
int upk_buf_reserve(upk_buf *b, size_t n);
/** Append `n` bytes. Returns 0 or -E2BIG. */
int upk_buf_append(upk_buf *b, const void *data, size_t n);
/** Append a NUL-terminated string. */
int upk_buf_puts(upk_buf *b, const char *s);
/** Append printf-formatted text. */
int upk_buf_printf(upk_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Room to write at least `n` bytes in place (a read(2), libuv's alloc_cb): the address after
 * the contents, and in *avail how many bytes fit there (>= n, never past the cap). NULL when
 * `n` more would pass the cap. upk_buf_added then counts what was written. */
char *upk_buf_space(upk_buf *b, size_t n, size_t *avail);
/** Count `n` bytes written at upk_buf_space's address (n <= its *avail) as appended. */
void upk_buf_added(upk_buf *b, size_t n);
/** Drop the first `n` bytes, keeping the rest. */
void upk_buf_consume(upk_buf *b, size_t n);
/** Forget the contents but keep the allocation. */
void upk_buf_reset(upk_buf *b);
/** Release the allocation; the buffer is empty and reusable afterwards. */
void upk_buf_free(upk_buf *b);
/** Hand the allocation to the caller (who frees it); the buffer becomes empty. */
char *upk_buf_take(upk_buf *b, size_t *len);

#endif
