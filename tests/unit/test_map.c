/* upk_map: lookups, replacement, removal (also while iterating), insertion order kept across
 * growth and removal, and the xalloc growth helper. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "common/xalloc.h"
#include "tests/unit/unit.h"

typedef struct item {
  int n;
} item;
UPK_MAP_TYPED(item_map, item)

UTest(map, set_get_replace_remove) {
  upk_map m = {0};
  item a = {1}, b = {2};
  cr_assert_null(item_map_get(&m, "a"));
  cr_assert_null(item_map_remove(&m, "a"));
  cr_assert_null(item_map_set(&m, "a", &a));
  cr_assert_eq(item_map_get(&m, "a"), &a);
  cr_assert_eq(item_map_set(&m, "a", &b), &a, "a replaced value is handed back");
  cr_assert_eq(item_map_get(&m, "a")->n, 2);
  cr_assert_eq(upk_map_size(&m), 1);
  cr_assert_eq(item_map_remove(&m, "a"), &b);
  cr_assert_null(item_map_get(&m, "a"));
  cr_assert_eq(upk_map_size(&m), 0);
  upk_map_clear(&m);
}

UTest(map, many_keys_keep_insertion_order_across_growth_and_removal) {
  upk_map m = {0};
  enum { N = 5000 };
  static item v[N];
  char key[32];
  for (int i = 0; i < N; i++) {
    v[i].n = i;
    snprintf(key, sizeof key, "file:///k/%d", i);
    cr_assert_null(upk_map_set(&m, key, &v[i]));
  }
  for (int i = 0; i < N; i += 2) { /* drop the even ones */
    snprintf(key, sizeof key, "file:///k/%d", i);
    cr_assert_eq(upk_map_remove(&m, key), &v[i]);
  }
  cr_assert_eq(upk_map_size(&m), N / 2);
  int want = 1;
  for (UPK_MAP_EACH(it, &m)) {
    cr_assert_eq(((item *)it.value)->n, want, "order: got %d, want %d", ((item *)it.value)->n,
                 want);
    snprintf(key, sizeof key, "file:///k/%d", want);
    cr_assert_str_eq(it.key, key);
    want += 2;
  }
  cr_assert_eq(want, N + 1);
  upk_map_clear(&m);
  cr_assert_eq(upk_map_size(&m), 0);
  cr_assert_null(upk_map_get(&m, "file:///k/1"));
}

UTest(map, removing_the_current_entry_while_iterating) {
  upk_map m = {0};
  item v[4] = {{0}, {1}, {2}, {3}};
  const char *keys[] = {"w", "x", "y", "z"};
  for (int i = 0; i < 4; i++)
    upk_map_set(&m, keys[i], &v[i]);
  int seen = 0;
  for (UPK_MAP_EACH(it, &m)) {
    cr_assert_eq(upk_map_remove(&m, it.key), &v[seen]);
    seen++;
  }
  cr_assert_eq(seen, 4);
  cr_assert_eq(upk_map_size(&m), 0);
  upk_map_set(&m, "again", &v[0]); /* usable after being emptied */
  cr_assert_eq(upk_map_get(&m, "again"), &v[0]);
  upk_map_clear(&m);
}

UTest(xalloc, grow_doubles_and_keeps_contents) {
  int *a = NULL;
  size_t cap = 0;
  for (int i = 0; i < 1000; i++) {
    UPK_GROW(a, cap, (size_t)i + 1);
    a[i] = i;
  }
  cr_assert_geq(cap, 1000);
  cr_assert_lt(cap, 2048, "doubling from 8: %zu", cap);
  for (int i = 0; i < 1000; i++)
    cr_assert_eq(a[i], i);
  free(a);
  char *s = upk_xasprintf("%s-%d", "run", 7);
  cr_assert_str_eq(s, "run-7");
  free(s);
}

UTest(xalloc, pow2_at_least_sizes_a_table) {
  cr_assert_eq(upk_pow2_at_least(0, 1024), 1024);
  cr_assert_eq(upk_pow2_at_least(1024, 1024), 1024);
  cr_assert_eq(upk_pow2_at_least(1025, 1024), 2048);
  cr_assert_eq(upk_pow2_at_least(3000, 16), 4096);
  cr_assert_eq(upk_pow2_at_least(5, 0), 8);
  size_t top = SIZE_MAX / 2 + 1;
  cr_assert_eq(upk_pow2_at_least(SIZE_MAX, 1), top, "no overflow past the largest power");
}
