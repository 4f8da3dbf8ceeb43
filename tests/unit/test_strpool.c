/* upk_strpool: copies that stay put while the pool grows, strings larger than a block, and
 * freeing everything at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strpool.h"
#include "tests/unit/unit.h"

UTest(strpool, copies_stay_put_across_blocks) {
  upk_strpool p = {0};
  enum { N = 20000 }; /* ~300 KB of copies: several blocks */
  char **v = malloc(N * sizeof *v);
  cr_assert_not_null(v);
  for (int i = 0; i < N; i++) {
    char s[32];
    snprintf(s, sizeof s, "skill-%d", i);
    v[i] = upk_strpool_dup(&p, s);
    cr_assert_not_null(v[i]);
    cr_assert_neq(v[i], s);
  }
  for (int i = 0; i < N; i++) { /* none moved or was overwritten by a later copy */
    char s[32];
    snprintf(s, sizeof s, "skill-%d", i);
    cr_assert_str_eq(v[i], s);
  }
  upk_strpool_free(&p);
  cr_assert_null(p.head);
  free(v);
}

UTest(strpool, ndup_copies_a_prefix_and_terminates_it) {
  upk_strpool p = {0};
  char *a = upk_strpool_ndup(&p, "abcdef", 3);
  char *e = upk_strpool_dup(&p, "");
  cr_assert_str_eq(a, "abc");
  cr_assert_str_eq(e, "");
  cr_assert_eq(e, a + 4, "copies are packed");
  upk_strpool_free(&p);
}

UTest(strpool, a_string_larger_than_a_block) {
  upk_strpool p = {0};
  size_t n = 200 * 1024;
  char *big = malloc(n + 1);
  cr_assert_not_null(big);
  memset(big, 'x', n);
  big[n] = '\0';
  char *small = upk_strpool_dup(&p, "before");
  char *copy = upk_strpool_dup(&p, big);
  char *after = upk_strpool_dup(&p, "after");
  cr_assert_eq(strlen(copy), n);
  cr_assert_eq(memcmp(copy, big, n + 1), 0);
  cr_assert_str_eq(small, "before");
  cr_assert_str_eq(after, "after");
  upk_strpool_free(&p);
  upk_strpool_free(&p); /* an empty pool frees nothing */
  free(big);
}
