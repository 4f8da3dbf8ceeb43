/* common/sha256.c's base64 through libcrypto: what upk_base64 encodes, upk_base64_decode gives
 * back; text that is not base64 is refused, not guessed at. */
#include <criterion/criterion.h>
#include <errno.h>
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
