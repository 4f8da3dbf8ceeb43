/** SHA-256 through libmd (the BSD message digest library dpkg itself uses, so on every Debian
 * system), else OpenSSL's libcrypto; base64 through libcrypto. Each opened with dlopen on first
 * use.
 *
 * Linking libcrypto costs every process about 3 ms at start (21,000 relocations), and a first
 * digest through it 3.4 MiB of resident memory (the library's pages and its providers): the
 * daemon's index digests every skill's files, so an idle daemon paid that. libmd's SHA-256 costs
 * about 50 KiB. libmd is used only after a self-test (the digest of "abc", and nothing written
 * past the room its context is given). Thread-safe (each library is opened once). Functions
 * return 0, or -ENOSYS when neither library can be opened, -ENOMEM, or -EIO.
 */
#ifndef UPK_SHA256_H
#define UPK_SHA256_H

#include <stddef.h>

typedef struct upk_sha256_ctx {
  void *md; /* EVP_MD_CTX, or a marker when libmd does the work in `bsd` */
  _Alignas(16) unsigned char bsd[256]; /* libmd's SHA2_CTX (208 bytes in libmd 1.0) */
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
