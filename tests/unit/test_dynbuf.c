/* upk_buf: all-or-nothing appends under a hard cap, NUL termination, consume/take/free. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/dynbuf.h"

UTest(dynbuf, append_puts_printf) {
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  cr_assert_eq(b.len, 0);
  cr_assert_null(b.data);
  cr_assert_eq(upk_buf_append(&b, "ab\0c", 4), 0);
  cr_assert_eq(b.len, 4);
  cr_assert_eq(memcmp(b.data, "ab\0c", 5), 0, "data is NUL-terminated");
  cr_assert_eq(upk_buf_puts(&b, "de"), 0);
  cr_assert_eq(upk_buf_printf(&b, "-%d-%s", 42, "x"), 0);
  cr_assert_eq(b.len, 11);
  cr_assert_eq(memcmp(b.data, "ab\0cde-42-x", 12), 0);
  cr_assert_eq(upk_buf_append(&b, NULL, 0), 0);
  cr_assert_eq(b.len, 11);
  upk_buf_free(&b);
}

UTest(dynbuf, printf_longer_than_its_stack_buffer) {
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  char big[1000];
  memset(big, 'y', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  cr_assert_eq(upk_buf_printf(&b, "<%s>", big), 0);
  cr_assert_eq(b.len, 1001);
  cr_assert_eq(b.data[0], '<');
  cr_assert_eq(b.data[1000], '>');
  cr_assert_eq(b.data[1001], '\0');
  upk_buf_free(&b);
}

UTest(dynbuf, cap_is_all_or_nothing) {
  upk_buf b;
  upk_buf_init(&b, 10);
  cr_assert_eq(upk_buf_puts(&b, "0123456"), 0);
  cr_assert_eq(upk_buf_puts(&b, "7890"), -E2BIG);
  cr_assert_eq(b.len, 7);
  cr_assert_str_eq(b.data, "0123456");
  cr_assert_eq(upk_buf_printf(&b, "%s", "abcd"), -E2BIG);
  cr_assert_str_eq(b.data, "0123456");
  cr_assert_eq(upk_buf_puts(&b, "789"), 0); /* exactly at the cap */
  cr_assert_str_eq(b.data, "0123456789");
  cr_assert_eq(upk_buf_append(&b, "x", 1), -E2BIG);
  cr_assert_eq(upk_buf_append(&b, "x", (size_t)-1), -E2BIG);
  cr_assert_eq(upk_buf_reserve(&b, 1), -E2BIG);
  cr_assert_eq(upk_buf_reserve(&b, 0), 0);
  cr_assert_leq(b.cap, 11, "a capped buffer never allocates past its cap");
  upk_buf_free(&b);
}

UTest(dynbuf, reserve_makes_room_without_changing_contents) {
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  cr_assert_eq(upk_buf_puts(&b, "keep"), 0);
  cr_assert_eq(upk_buf_reserve(&b, 5000), 0);
  cr_assert_geq(b.cap, 5005);
  cr_assert_str_eq(b.data, "keep");
  cr_assert_eq(upk_buf_reserve(&b, (1 << 20) + 1), -E2BIG);
  upk_buf_free(&b);
}

UTest(dynbuf, consume_reset_take_free) {
  upk_buf b;
  upk_buf_init(&b, 100);
  upk_buf_puts(&b, "hello world");
  upk_buf_consume(&b, 6);
  cr_assert_eq(b.len, 5);
  cr_assert_str_eq(b.data, "world");
  upk_buf_consume(&b, 50);
  cr_assert_eq(b.len, 0);
  cr_assert_str_eq(b.data, "");
  upk_buf_puts(&b, "abc");
  upk_buf_reset(&b);
  cr_assert_eq(b.len, 0);
  cr_assert_str_eq(b.data, "");
  cr_assert_gt(b.cap, 0, "reset keeps the allocation");
  upk_buf_puts(&b, "mine");
  size_t len = 0;
  char *p = upk_buf_take(&b, &len);
  cr_assert_eq(len, 4);
  cr_assert_str_eq(p, "mine");
  cr_assert_null(b.data);
  cr_assert_eq(b.len, 0);
  cr_assert_eq(b.cap, 0);
  free(p);
  cr_assert_eq(upk_buf_puts(&b, "again"), 0, "the buffer is reusable after take");
  upk_buf_free(&b);
  cr_assert_null(b.data);
  cr_assert_eq(upk_buf_puts(&b, "and after free"), 0);
  cr_assert_eq(b.max, 100);
  upk_buf_free(&b);
  upk_buf_reset(&b); /* harmless on an empty buffer */
  upk_buf_consume(&b, 3);
  cr_assert_eq(b.len, 0);
}

UTest(dynbuf, growth_is_geometric) {
  upk_buf b;
  upk_buf_init(&b, 1 << 24);
  size_t reallocs = 0, last_cap = 0;
  for (int i = 0; i < 100000; i++) {
    cr_assert_eq(upk_buf_append(&b, "0123456789", 10), 0);
    if (b.cap != last_cap) {
      reallocs++;
      last_cap = b.cap;
    }
  }
  cr_assert_eq(b.len, 1000000);
  cr_assert_leq(reallocs, 20, "%zu reallocations for 1 MB", reallocs);
  upk_buf_free(&b);
}

/* upk_buf_space/upk_buf_added: a read(2) into the buffer itself, as a libuv alloc_cb does. */
UTest(dynbuf, space_then_added_reads_in_place_under_the_cap) {
  upk_buf b;
  upk_buf_init(&b, 100);
  upk_buf_puts(&b, "ab");
  size_t avail = 0;
  char *at = upk_buf_space(&b, 10, &avail);
  cr_assert_not_null(at);
  cr_assert_eq(at, b.data + 2, "the space starts after the contents");
  cr_assert_geq(avail, 10);
  cr_assert_leq(avail, 98, "the space never reaches past the cap");
  cr_assert_lt(2 + avail, b.cap, "the NUL's byte is kept");
  memcpy(at, "cdef", 4);
  upk_buf_added(&b, 4);
  cr_assert_eq(b.len, 6);
  cr_assert_str_eq(b.data, "abcdef");
  cr_assert_null(upk_buf_space(&b, 95, &avail), "95 more would pass the cap of 100");
  cr_assert_str_eq(b.data, "abcdef", "a refused space changes nothing");
  at = upk_buf_space(&b, 94, &avail);
  cr_assert_not_null(at);
  cr_assert_eq(avail, 94, "exactly what the cap leaves");
  memset(at, 'x', avail);
  upk_buf_added(&b, avail);
  cr_assert_eq(b.len, 100);
  cr_assert_eq(b.data[100], '\0');
  cr_assert_null(upk_buf_space(&b, 1, &avail));
  upk_buf_free(&b);
}
