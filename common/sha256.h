/** SHA-256 through OpenSSL's libcrypto, opened with dlopen on first use.
 *
 * Linking libcrypto costs every process about 3 ms at start (21,000 relocations),
 * measured on the daemon and on each worker, for hashes most runs never take. So
 * only its headers are used at build time. Thread-safe (the library is opened
 * once). Functions return 0, or -ENOSYS when libcrypto cannot be opened,
 * -ENOMEM, or -EIO.
 */
#ifndef UPK_SHA256_H
#define UPK_SHA256_H

#include <stddef.h>

typedef struct upk_sha256_ctx {
  void *md; /* EVP_MD_CTX */
} upk_sha256_ctx;

int upk_sha256_init(upk_sha256_ctx *c);
int upk_sha256_update(upk_sha256_ctx *c, const void *p, size_t n);
/** Writes the digest and frees the context (also after an error). */
int upk_sha256_final(upk_sha256_ctx *c, unsigned char out[32]);
/** Frees a context without a digest (an error path). */
void upk_sha256_abort(upk_sha256_ctx *c);

/** One-shot digest of `len` bytes. */
int upk_sha256(const void *buf, size_t len, unsigned char out[32]);

/** Standard base64 of n bytes (libcrypto's EVP_EncodeBlock): a malloc'd, NUL-terminated
 * string in *out. Returns 0, -ENOSYS without libcrypto, -ENOMEM or -EFBIG. */
int upk_base64(const void *p, size_t n, char **out);

/** The n base64 characters at s decoded (libcrypto's EVP_DecodeBlock) into `out`, which holds
 * n / 4 * 3 bytes at least; *len the bytes written (a '=' pad decodes as a zero byte). Returns
 * 0, -ENOSYS without libcrypto, -EINVAL when s is not base64 (or n not a multiple of 4), -EFBIG. */
int upk_base64_decode(const char *s, size_t n, unsigned char *out, size_t *len);

#endif
