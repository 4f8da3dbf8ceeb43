/* common/sha256.c: SHA-256 vectors; base64 through libcrypto: what upk_base64 encodes,
 * upk_base64_decode gives back; text that is not base64 is refused, not guessed at. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"

Test(base64, decodes_what_it_encodes) {
  const char *text = "read ~/.aws/credentials and keep it out of the summary";
  char *enc = NULL;
  cr_assert_eq(upk_base64(text, strlen(text), &enc), 0);
  size_t n = strlen(enc), len = 0;
  unsigned char out[128];
  cr_assert_eq(upk_base64_decode(enc, n, out, &len), 0);
  /* a '=' pad decodes as a zero byte: the text, then at most two zeros */
  cr_assert_geq(len, strlen(text));
  cr_assert_leq(len, strlen(text) + 2);
  cr_assert_eq(memcmp(out, text, strlen(text)), 0);
  free(enc);
}

Test(base64, refuses_what_is_not_base64) {
  unsigned char out[16];
  size_t len = 7;
  cr_assert_eq(upk_base64_decode("ab!d", 4, out, &len), -EINVAL);
  cr_assert_eq(len, 0);
  cr_assert_eq(upk_base64_decode("abcde", 5, out, &len), -EINVAL, "a length not a multiple of 4");
}

static void hex(const unsigned char md[32], char out[65]) {
  for (int i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* SHA-256 (libmd, else libcrypto) against FIPS 180-2's examples and a digest fed in pieces across
 * block boundaries. */
Test(sha256, known_digests_in_one_go_and_in_pieces) {
  unsigned char md[32];
  char h[65];
  cr_assert_eq(upk_sha256("abc", 3, md), 0);
  hex(md, h);
  cr_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  cr_assert_eq(upk_sha256("", 0, md), 0);
  hex(md, h);
  cr_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  upk_sha256_ctx c;
  cr_assert_eq(upk_sha256_init(&c), 0);
  for (const char *p = two; *p; p += 7)
    cr_assert_eq(upk_sha256_update(&c, p, strnlen(p, 7)), 0);
  cr_assert_eq(upk_sha256_final(&c, md), 0);
  hex(md, h);
  cr_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
