/* SHA-256 with libmd or libcrypto, opened on first use (sha256.h). */
#include "common/sha256.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "common/xalloc.h"

static struct {
  void *lib;
  EVP_MD_CTX *(*ctx_new)(void);
  void (*ctx_free)(EVP_MD_CTX *);
  const EVP_MD *(*sha256)(void);
  int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
  int (*update)(EVP_MD_CTX *, const void *, size_t);
  int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
  int (*encode_block)(unsigned char *, const unsigned char *, int);
  int (*decode_block)(unsigned char *, const unsigned char *, int);
} crypto;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  static const char *const names[] = {"libcrypto.so.3", "libcrypto.so"};
  void *lib = NULL;
  for (size_t i = 0; !lib && i < sizeof names / sizeof *names; i++)
    lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return;
  *(void **)&crypto.ctx_new = dlsym(lib, "EVP_MD_CTX_new");
  *(void **)&crypto.ctx_free = dlsym(lib, "EVP_MD_CTX_free");
  *(void **)&crypto.sha256 = dlsym(lib, "EVP_sha256");
  *(void **)&crypto.init = dlsym(lib, "EVP_DigestInit_ex");
  *(void **)&crypto.update = dlsym(lib, "EVP_DigestUpdate");
  *(void **)&crypto.final = dlsym(lib, "EVP_DigestFinal_ex");
  *(void **)&crypto.encode_block = dlsym(lib, "EVP_EncodeBlock");
  *(void **)&crypto.decode_block = dlsym(lib, "EVP_DecodeBlock");
  if (crypto.ctx_new && crypto.ctx_free && crypto.sha256 && crypto.init && crypto.update &&
      crypto.final && crypto.encode_block && crypto.decode_block)
    crypto.lib = lib; /* kept open for the process's life */
  else
    dlclose(lib);
}

/* libmd: SHA256Init/Update/Final over an opaque context (sha256.h's `bsd` room). */
static struct {
  void (*init)(void *);
  void (*update)(void *, const unsigned char *, size_t);
  void (*final)(unsigned char[32], void *);
  bool ok;
} bsd;
static pthread_once_t bsd_once = PTHREAD_ONCE_INIT;

/* The digest of "abc" (FIPS 180-2's first example), and the context's room's last bytes untouched:
 * a libmd whose context outgrew the room, or that computes something else, is not used. */
static bool bsd_selftest(void) {
  static const unsigned char want[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                         0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                         0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                         0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  upk_sha256_ctx c;
  unsigned char out[32];
  memset(c.bsd, 0xa5, sizeof c.bsd);
  bsd.init(c.bsd);
  bsd.update(c.bsd, (const unsigned char *)"abc", 3);
  bsd.final(out, c.bsd);
  for (size_t i = sizeof c.bsd - 32; i < sizeof c.bsd; i++)
    if (c.bsd[i] != 0xa5)
      return false;
  return !memcmp(out, want, sizeof want);
}

static void load_bsd(void) {
  void *lib = dlopen("libmd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return;
  *(void **)&bsd.init = dlsym(lib, "SHA256Init");
  *(void **)&bsd.update = dlsym(lib, "SHA256Update");
  *(void **)&bsd.final = dlsym(lib, "SHA256Final");
  bsd.ok = bsd.init && bsd.update && bsd.final && bsd_selftest();
  if (!bsd.ok)
    dlclose(lib); /* else kept open for the process's life */
}

int upk_sha256_init(upk_sha256_ctx *c) {
  c->md = NULL;
  pthread_once(&bsd_once, load_bsd);
  if (bsd.ok) {
    bsd.init(c->bsd);
    c->md = &bsd; /* the marker: libmd's context is c->bsd */
    return 0;
  }
  pthread_once(&once, load);
  if (!crypto.lib)
    return -ENOSYS;
  EVP_MD_CTX *md = crypto.ctx_new();
  if (!md)
    return -ENOMEM;
  if (crypto.init(md, crypto.sha256(), NULL) != 1) {
    crypto.ctx_free(md);
    return -EIO;
  }
  c->md = md;
  return 0;
}

int upk_sha256_update(upk_sha256_ctx *c, const void *p, size_t n) {
  if (c->md == (void *)&bsd) {
    bsd.update(c->bsd, p, n);
    return 0;
  }
  return c->md && crypto.update(c->md, p, n) == 1 ? 0 : -EIO;
}

int upk_sha256_final(upk_sha256_ctx *c, unsigned char out[32]) {
  if (c->md == (void *)&bsd) {
    bsd.final(out, c->bsd);
    c->md = NULL;
    return 0;
  }
  unsigned int n = 0;
  int ok = c->md && crypto.final(c->md, out, &n) == 1 && n == 32;
  upk_sha256_abort(c);
  return ok ? 0 : -EIO;
}

void upk_sha256_abort(upk_sha256_ctx *c) {
  if (c->md && c->md != (void *)&bsd)
    crypto.ctx_free(c->md);
  c->md = NULL;
}

int upk_sha256(const void *buf, size_t len, unsigned char out[32]) {
  upk_sha256_ctx c;
  int rc = upk_sha256_init(&c);
  if (!rc && (rc = upk_sha256_update(&c, buf, len)))
    upk_sha256_abort(&c);
  return rc ? rc : upk_sha256_final(&c, out);
}

int upk_base64(const void *p, size_t n, char **out) {
  *out = NULL;
  pthread_once(&once, load);
  if (!crypto.lib)
    return -ENOSYS;
  if (n > (size_t)INT_MAX / 4 * 3 - 3)
    return -EFBIG;
  char *b = upk_xmalloc((n + 2) / 3 * 4 + 1);
  crypto.encode_block((unsigned char *)b, p, (int)n); /* writes the NUL too */
  *out = b;
  return 0;
}

int upk_base64_decode(const char *s, size_t n, unsigned char *out, size_t *len) {
  *len = 0;
  pthread_once(&once, load);
  if (!crypto.lib)
    return -ENOSYS;
  if (n > (size_t)INT_MAX)
    return -EFBIG;
  int k = crypto.decode_block(out, (const unsigned char *)s, (int)n);
  if (k < 0)
    return -EINVAL;
  *len = (size_t)k;
  return 0;
}
