/* upk_framer: LSP and MCP framing, AUTO detection, incremental feeding, errors and recovery,
 * bounded memory under hostile lengths, and upk_frame_write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "protocol/framing.h"

#define MAX_ERRS 16

typedef struct rec {
  size_t nmsg, cap;
  char **msgs;
  size_t *lens;
  int nerr;
  int codes[MAX_ERRS];
  char errs[MAX_ERRS][256];
} rec;

static void on_msg(void *ud, const char *body, size_t len) {
  rec *r = ud;
  if (r->nmsg == r->cap) {
    r->cap = r->cap ? r->cap * 2 : 16;
    r->msgs = realloc(r->msgs, r->cap * sizeof *r->msgs);
    r->lens = realloc(r->lens, r->cap * sizeof *r->lens);
  }
  r->msgs[r->nmsg] = malloc(len + 1);
  memcpy(r->msgs[r->nmsg], body, len);
  r->msgs[r->nmsg][len] = '\0';
  r->lens[r->nmsg++] = len;
}

static void on_err(void *ud, int code, const char *message) {
  rec *r = ud;
  cr_assert_lt(r->nerr, MAX_ERRS, "too many framing errors; last: %s", message);
  r->codes[r->nerr] = code;
  snprintf(r->errs[r->nerr++], sizeof r->errs[0], "%s", message);
}

static const upk_framer_callbacks cbs = {on_msg, on_err};
static upk_framer F;
static rec R;

static void rec_clear(void) {
  for (size_t i = 0; i < R.nmsg; i++)
    free(R.msgs[i]);
  free(R.msgs);
  free(R.lens);
  memset(&R, 0, sizeof R);
}

static void start(upk_framing mode, size_t max) {
  upk_framer_free(&F);
  rec_clear();
  upk_framer_init(&F, mode, max, &cbs, &R);
}

static void fini(void) {
  upk_framer_free(&F);
  rec_clear();
}

TestSuite(framing, .fini = fini);

/* Feed `n` bytes in chunks of `chunk` (0: all at once), from a private copy of each chunk so
 * that the framer cannot keep pointers into bytes it was not given. */
static void feed(const char *s, size_t n, size_t chunk) {
  if (chunk == 0)
    chunk = n ? n : 1;
  for (size_t i = 0; i < n; i += chunk) {
    size_t k = n - i < chunk ? n - i : chunk;
    char *copy = malloc(k);
    memcpy(copy, s + i, k);
    cr_assert_eq(upk_framer_feed(&F, copy, k), 0);
    free(copy);
  }
}

static void feeds(const char *s) {
  feed(s, strlen(s), 0);
}

static void expect_msg(size_t i, const char *body, size_t len, const char *ctx) {
  cr_assert_gt(R.nmsg, i, "%s: message %zu missing (got %zu)", ctx, i, R.nmsg);
  cr_assert_eq(R.lens[i], len, "%s: message %zu: %zu bytes, wanted %zu", ctx, i, R.lens[i], len);
  cr_assert(memcmp(R.msgs[i], body, len) == 0, "%s: message %zu is '%s', wanted '%.*s'", ctx, i,
            R.msgs[i], (int)len, body);
}

/* What one stream must produce, however it is split. */
typedef struct want {
  const char *msgs[8];
  int nmsg;
  int code[4];
  const char *err[4]; /* substring of the error message */
  int nerr;
  upk_framing mode;
} want;

static void verify(const want *w, const char *ctx) {
  cr_assert_eq(R.nmsg, (size_t)w->nmsg, "%s: %zu messages, wanted %d", ctx, R.nmsg, w->nmsg);
  for (int i = 0; i < w->nmsg; i++)
    expect_msg((size_t)i, w->msgs[i], strlen(w->msgs[i]), ctx);
  cr_assert_eq(R.nerr, w->nerr, "%s: %d errors (first: %s), wanted %d", ctx, R.nerr,
               R.nerr ? R.errs[0] : "-", w->nerr);
  for (int i = 0; i < w->nerr; i++) {
    cr_assert_eq(R.codes[i], w->code[i], "%s: error %d has code %d", ctx, i, R.codes[i]);
    cr_assert(strstr(R.errs[i], w->err[i]), "%s: error '%s' lacks '%s'", ctx, R.errs[i], w->err[i]);
  }
  cr_assert_eq(upk_framer_mode(&F), w->mode, "%s: mode %d", ctx, upk_framer_mode(&F));
}

/* Run `in` through a fresh framer in many chunkings and at every two-way split. */
static void check_stream(upk_framing mode, size_t max, const char *in, size_t n, const want *w) {
  static const size_t chunks[] = {0, 1, 2, 3, 5, 13, 64, 4096};
  char ctx[64];
  for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
    start(mode, max);
    feed(in, n, chunks[c]);
    snprintf(ctx, sizeof ctx, "chunks of %zu", chunks[c]);
    verify(w, ctx);
  }
  for (size_t split = 0; n <= 4096 && split <= n; split++) {
    start(mode, max);
    feed(in, split, 0);
    feed(in + split, n - split, 0);
    snprintf(ctx, sizeof ctx, "split at %zu", split);
    verify(w, ctx);
  }
}

#define CHECK(mode, max, in, ...)                                                                  \
  do {                                                                                             \
    const want w_ = __VA_ARGS__;                                                                   \
    check_stream(mode, max, in, sizeof(in) - 1, &w_);                                              \
  } while (0)

#define OK2 "Content-Length: 2\r\n\r\n{}"
#define LSP UPK_FRAMING_LSP
#define MCP UPK_FRAMING_MCP

/* ---- LSP ---------------------------------------------------------------------------------- */

UTest(framing, lsp_two_messages_any_split) {
  CHECK(LSP, 1024, "Content-Length: 7\r\n\r\n{\"a\":1}Content-Length: 12\r\n\r\n{\"b\":\"x\\ny\"}",
        {.msgs = {"{\"a\":1}", "{\"b\":\"x\\ny\"}"}, .nmsg = 2, .mode = LSP});
}

UTest(framing, lsp_many_messages_in_one_feed) {
  upk_buf in;
  upk_buf_init(&in, 1 << 20);
  for (int i = 0; i < 500; i++) {
    char body[32];
    int n = snprintf(body, sizeof body, "{\"id\":%d}", i);
    cr_assert_eq(upk_frame_write(LSP, body, (size_t)n, &in), 0);
  }
  start(LSP, 1024);
  feed(in.data, in.len, 0);
  cr_assert_eq(R.nmsg, 500);
  cr_assert_eq(R.nerr, 0);
  for (int i = 0; i < 500; i++) {
    char body[32];
    int n = snprintf(body, sizeof body, "{\"id\":%d}", i);
    expect_msg((size_t)i, body, (size_t)n, "one feed");
  }
  cr_assert_eq(upk_framer_pending(&F), 0);
  upk_buf_free(&in);
}

UTest(framing, lsp_header_names_case_insensitive) {
  CHECK(LSP, 64,
        "content-length: 2\r\n\r\n[]CONTENT-LENGTH: 2\r\n\r\n{}CoNtEnT-lEnGtH:\t3 \r\n\r\n[1]",
        {.msgs = {"[]", "{}", "[1]"}, .nmsg = 3, .mode = LSP});
}

UTest(framing, lsp_unknown_headers_ignored) {
  CHECK(LSP, 64,
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n"
        "X-Other: 99\r\n\r\n{}",
        {.msgs = {"{}"}, .nmsg = 1, .mode = LSP});
}

UTest(framing, lsp_bare_newlines_and_blank_lines_between_messages) {
  CHECK(LSP, 64, "\r\n\r\nContent-Length: 2\n\n{}\r\n\r\nContent-Length: 2\r\n\r\n[]",
        {.msgs = {"{}", "[]"}, .nmsg = 2, .mode = LSP});
}

UTest(framing, lsp_body_bytes_are_verbatim) {
  static const char in[] = "Content-Length: 9\r\n\r\na\r\n\0b\nc\r\nContent-Length: 1\r\n\r\nz";
  start(LSP, 64);
  feed(in, sizeof in - 1, 1);
  cr_assert_eq(R.nmsg, 2);
  expect_msg(0, "a\r\n\0b\nc\r\n", 9, "verbatim");
  expect_msg(1, "z", 1, "verbatim");
}

UTest(framing, lsp_zero_length_body_delivered_at_once) {
  start(LSP, 64);
  feeds("Content-Length: 0\r\n\r\n");
  cr_assert_eq(R.nmsg, 1, "an empty body must not wait for more input");
  cr_assert_eq(R.lens[0], 0);
  cr_assert_eq(upk_framer_pending(&F), 0);
  feeds(OK2);
  cr_assert_eq(R.nmsg, 2);
  expect_msg(1, "{}", 2, "after empty");
}

UTest(framing, lsp_missing_content_length_recovers) {
  CHECK(LSP, 64, "Content-Type: text/plain\r\n\r\n{}" OK2,
        {.msgs = {"{}"},
         .nmsg = 1,
         .code = {UPK_FRAME_EHEADER},
         .err = {"LSP header block without Content-Length"},
         .nerr = 1,
         .mode = LSP});
}

UTest(framing, lsp_negative_length_recovers) {
  CHECK(LSP, 64, "Content-Length: -5\r\n\r\n{}" OK2,
        {.msgs = {"{}"},
         .nmsg = 1,
         .code = {UPK_FRAME_EHEADER},
         .err = {"invalid Content-Length '-5': not a non-negative integer"},
         .nerr = 1,
         .mode = LSP});
}

UTest(framing, lsp_non_numeric_lengths_recover) {
  static const char *const bad[] = {"abc", "12abc", "", " ", "+5", "0x10", "1 2", "5.0", "2e1"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char in[128], expect[64];
    snprintf(in, sizeof in, "Content-Length: %s\r\n\r\n" OK2, bad[i]);
    start(LSP, 64);
    feeds(in);
    cr_assert_eq(R.nerr, 1, "'%s': %d errors", bad[i], R.nerr);
    cr_assert_eq(R.codes[0], UPK_FRAME_EHEADER);
    snprintf(expect, sizeof expect, "invalid Content-Length '%s'", bad[i][0] == ' ' ? "" : bad[i]);
    cr_assert(strstr(R.errs[0], expect), "'%s' gave '%s'", bad[i], R.errs[0]);
    cr_assert(strstr(R.errs[0], "not a non-negative integer"), "%s", R.errs[0]);
    cr_assert_eq(R.nmsg, 1, "'%s': the next message was lost", bad[i]);
    expect_msg(0, "{}", 2, bad[i]);
  }
}

UTest(framing, lsp_overflowing_length_recovers) {
  CHECK(LSP, 64, "Content-Length: 99999999999999999999999\r\n\r\n" OK2,
        {.msgs = {"{}"},
         .nmsg = 1,
         .code = {UPK_FRAME_EHEADER},
         .err = {"invalid Content-Length '99999999999999999999': too large"},
         .nerr = 1,
         .mode = LSP});
}

UTest(framing, lsp_bad_value_shown_as_printable_ascii) {
  start(LSP, 64);
  feeds("Content-Length: 1\xc3\xa9\x01\r\n\r\n" OK2);
  cr_assert_eq(R.nerr, 1);
  cr_assert_str_eq(R.errs[0], "invalid Content-Length '1\?\?\?': not a non-negative integer");
  cr_assert_eq(R.nmsg, 1);
}

UTest(framing, lsp_uint64_max_length_is_too_big_not_overflow) {
  start(LSP, 1024);
  feeds("Content-Length: 18446744073709551615\r\n\r\n");
  cr_assert_eq(R.nerr, 1);
  cr_assert_eq(R.codes[0], UPK_FRAME_ETOOBIG);
  cr_assert(strstr(R.errs[0], "18446744073709551615 bytes exceeds the limit of 1024 bytes"), "%s",
            R.errs[0]);
  cr_assert_eq(upk_framer_pending(&F), UINT64_MAX);
}

UTest(framing, lsp_1gib_length_streams_past_in_bounded_memory) {
  const size_t gib = (size_t)1 << 30, chunk = 64 * 1024;
  start(LSP, 16 << 20);
  feeds("Content-Length: 1073741824\r\n\r\n");
  cr_assert_eq(R.nerr, 1);
  cr_assert_eq(R.codes[0], UPK_FRAME_ETOOBIG);
  cr_assert(strstr(R.errs[0], "message of 1073741824 bytes exceeds the limit of 16777216 bytes"),
            "%s", R.errs[0]);
  char *zeros = calloc(1, chunk);
  size_t fed = 0;
  for (; fed < gib; fed += chunk) {
    cr_assert_eq(upk_framer_feed(&F, zeros, chunk), 0);
    if (fed < (8u << 20)) { /* the first few MiB: nothing may pile up */
      cr_assert_leq(F.in.cap, 4096, "buffered %zu bytes after %zu fed", F.in.cap, fed);
      cr_assert_eq(upk_framer_pending(&F), gib - fed - chunk);
    }
  }
  cr_assert_leq(F.in.cap, 4096);
  cr_assert_eq(R.nmsg, 0);
  cr_assert_eq(upk_framer_pending(&F), 0);
  feeds(OK2);
  cr_assert_eq(R.nerr, 1);
  cr_assert_eq(R.nmsg, 1, "the message after the skipped one was lost");
  expect_msg(0, "{}", 2, "after 1 GiB");
  free(zeros);
}

UTest(framing, lsp_oversize_message_skipped_with_small_cap) {
  char in[4096];
  int n = snprintf(in, sizeof in, "Content-Length: 2000\r\n\r\n%2000d" OK2, 7);
  want w = {.msgs = {"{}"},
            .nmsg = 1,
            .code = {UPK_FRAME_ETOOBIG},
            .err = {"message of 2000 bytes exceeds the limit of 1024 bytes"},
            .nerr = 1,
            .mode = LSP};
  check_stream(LSP, 1024, in, (size_t)n, &w);
  /* and nothing of the skipped body was ever held */
  start(LSP, 1024);
  feed(in, (size_t)n, 100);
  cr_assert_leq(F.in.cap, 512);
}

UTest(framing, lsp_message_exactly_at_cap_accepted) {
  char in[2200];
  int n = snprintf(in, sizeof in, "Content-Length: 1024\r\n\r\n%01024d", 5);
  start(LSP, 1024);
  feed(in, (size_t)n, 7);
  cr_assert_eq(R.nerr, 0);
  cr_assert_eq(R.nmsg, 1);
  cr_assert_eq(R.lens[0], 1024);
  n = snprintf(in, sizeof in, "Content-Length: 1025\r\n\r\n%01025d", 5);
  start(LSP, 1024);
  feed(in, (size_t)n, 7);
  cr_assert_eq(R.nerr, 1);
  cr_assert_eq(R.codes[0], UPK_FRAME_ETOOBIG);
  cr_assert_eq(R.nmsg, 0);
}

/* A header block of 9000 bytes: the junk lines come first, the valid message after them. */
UTest(framing, lsp_header_block_longer_than_8192_recovers) {
  upk_buf in;
  upk_buf_init(&in, 1 << 20);
  for (int i = 0; i < 300; i++)
    upk_buf_printf(&in, "X-Padding-%03d: %s\r\n", i, "aaaaaaaaaaaaaaa");
  cr_assert_gt(in.len, 8192);
  upk_buf_puts(&in, OK2 "Content-Length: 2\r\n\r\n[]");
  want w = {.msgs = {"{}", "[]"},
            .nmsg = 2,
            .code = {UPK_FRAME_EHEADER},
            .err = {"LSP header block longer than 8192 bytes"},
            .nerr = 1,
            .mode = LSP};
  check_stream(LSP, 1024, in.data, in.len, &w);
  cr_assert_leq(F.in.cap, 32768);
  upk_buf_free(&in);
}

UTest(framing, lsp_single_header_line_longer_than_8192_recovers) {
  upk_buf in;
  upk_buf_init(&in, 1 << 20);
  upk_buf_puts(&in, "X-Long: ");
  for (int i = 0; i < 20000; i++)
    upk_buf_puts(&in, "a");
  upk_buf_puts(&in, "\r\n\r\n" OK2);
  want w = {.msgs = {"{}"},
            .nmsg = 1,
            .code = {UPK_FRAME_EHEADER},
            .err = {"LSP header block longer than 8192 bytes"},
            .nerr = 1,
            .mode = LSP};
  check_stream(LSP, 1024, in.data, in.len, &w);
  upk_buf_free(&in);
}

UTest(framing, lsp_header_block_of_exactly_8192_accepted) {
  upk_buf in;
  upk_buf_init(&in, 1 << 20);
  const char *tail = "Content-Length: 2\r\n\r\n";
  upk_buf_puts(&in, "X-Pad: ");
  while (in.len < 8192 - strlen(tail) - 2)
    upk_buf_puts(&in, "b");
  upk_buf_puts(&in, "\r\n");
  upk_buf_puts(&in, tail);
  cr_assert_eq(in.len, 8192);
  upk_buf_puts(&in, "{}");
  want w = {.msgs = {"{}"}, .nmsg = 1, .mode = LSP};
  check_stream(LSP, 1024, in.data, in.len, &w);
  upk_buf_free(&in);
}

UTest(framing, lsp_forced_mode_does_not_take_json_lines) {
  CHECK(LSP, 64, "{\"jsonrpc\":\"2.0\"}\n\n" OK2,
        {.msgs = {"{}"},
         .nmsg = 1,
         .code = {UPK_FRAME_EHEADER},
         .err = {"without Content-Length"},
         .nerr = 1,
         .mode = LSP});
}

UTest(framing, lsp_pending_at_eof) {
  start(LSP, 64);
  cr_assert_eq(upk_framer_pending(&F), 0);
  feeds("\r\n");
  cr_assert_eq(upk_framer_pending(&F), 0, "blank lines are not a message");
  feeds("Content-Len");
  cr_assert_eq(upk_framer_pending(&F), 11);
  feeds("gth: 8\r\n\r\n{\"a\"");
  cr_assert_eq(R.nmsg, 0);
  cr_assert_eq(upk_framer_pending(&F), 8, "the whole expected body is reported");
  feeds(":12}");
  cr_assert_eq(R.nmsg, 1);
  expect_msg(0, "{\"a\":12}", 8, "pending");
  cr_assert_eq(upk_framer_pending(&F), 0);
}

/* ---- MCP ---------------------------------------------------------------------------------- */

UTest(framing, mcp_lines_crlf_and_blank_lines_any_split) {
  CHECK(MCP, 1024, "{\"a\":1}\n\r\n\n   \r\n{\"b\":2}\r\n[1,2]\n\t\n",
        {.msgs = {"{\"a\":1}", "{\"b\":2}", "[1,2]"}, .nmsg = 3, .mode = MCP});
}

UTest(framing, mcp_many_lines_in_one_feed) {
  upk_buf in;
  upk_buf_init(&in, 1 << 20);
  for (int i = 0; i < 1000; i++)
    cr_assert_eq(upk_buf_printf(&in, "{\"id\":%d}%s", i, i % 2 ? "\r\n" : "\n"), 0);
  start(MCP, 64);
  feed(in.data, in.len, 0);
  cr_assert_eq(R.nmsg, 1000);
  cr_assert_eq(R.nerr, 0);
  char body[32];
  int n = snprintf(body, sizeof body, "{\"id\":%d}", 999);
  expect_msg(999, body, (size_t)n, "last");
  expect_msg(0, "{\"id\":0}", 8, "first");
  cr_assert_eq(upk_framer_pending(&F), 0);
  upk_buf_free(&in);
}

UTest(framing, mcp_forced_mode_takes_lsp_headers_as_lines) {
  CHECK(MCP, 64, "Content-Length: 2\r\n\r\n{}\n",
        {.msgs = {"Content-Length: 2", "{}"}, .nmsg = 2, .mode = MCP});
}

UTest(framing, mcp_oversize_line_recovers) {
  char in[8192];
  int n = snprintf(in, sizeof in, "{\"a\":\"%05000d\"}\n{\"ok\":1}\n", 1);
  want w = {.msgs = {"{\"ok\":1}"},
            .nmsg = 1,
            .code = {UPK_FRAME_ETOOBIG},
            .err = {"exceeds the limit of 1024 bytes"},
            .nerr = 1,
            .mode = MCP};
  check_stream(MCP, 1024, in, (size_t)n, &w);
  start(MCP, 1024);
  feeds(in);
  cr_assert(strstr(R.errs[0], "message of 5008 bytes"), "%s", R.errs[0]);
}

UTest(framing, mcp_oversize_line_streams_in_bounded_memory) {
  static const size_t chunks[] = {64 * 1024, 100, 1};
  char *big = malloc(64 * 1024);
  memset(big, 'x', 64 * 1024);
  for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
    start(MCP, 1024);
    size_t total = chunks[c] == 1 ? 20000 : 4 << 20;
    for (size_t fed = 0; fed < total; fed += chunks[c]) {
      cr_assert_eq(upk_framer_feed(&F, big, chunks[c]), 0);
      cr_assert_leq(F.in.cap, 4096, "chunk %zu: %zu bytes held", chunks[c], F.in.cap);
    }
    cr_assert_eq(R.nerr, 1, "chunk %zu: %d errors", chunks[c], R.nerr);
    cr_assert_eq(R.codes[0], UPK_FRAME_ETOOBIG);
    feeds("\n{\"after\":true}\n");
    cr_assert_eq(R.nmsg, 1);
    expect_msg(0, "{\"after\":true}", 14, "after the long line");
    cr_assert_eq(R.nerr, 1);
  }
  free(big);
}

UTest(framing, mcp_line_exactly_at_cap_accepted) {
  char in[2200];
  /* the \r is not part of the message, even when the \n comes in a later read */
  char body[1025];
  int n = snprintf(in, sizeof in, "%01024d\r\n", 3);
  memcpy(body, in, 1024);
  body[1024] = '\0';
  want w = {.msgs = {body}, .nmsg = 1, .mode = MCP};
  check_stream(MCP, 1024, in, (size_t)n, &w);
  n = snprintf(in, sizeof in, "%01025d\n", 3);
  start(MCP, 1024);
  feed(in, (size_t)n, 9);
  cr_assert_eq(R.nerr, 1);
  cr_assert_eq(R.nmsg, 0);
}

UTest(framing, mcp_pending_at_eof) {
  start(MCP, 64);
  feeds("\n  \r\n");
  cr_assert_eq(upk_framer_pending(&F), 0);
  feeds("{\"a\":");
  cr_assert_eq(upk_framer_pending(&F), 5);
  feeds("1}\n");
  cr_assert_eq(upk_framer_pending(&F), 0);
  cr_assert_eq(R.nmsg, 1);
}

/* ---- AUTO --------------------------------------------------------------------------------- */

UTest(framing, auto_detects_mcp_from_object_and_array) {
  CHECK(UPK_FRAMING_AUTO, 64, "\r\n  \n{\"a\":1}\n[2]\n",
        {.msgs = {"{\"a\":1}", "[2]"}, .nmsg = 2, .mode = MCP});
  CHECK(UPK_FRAMING_AUTO, 64, "[{\"a\":1}]\n", {.msgs = {"[{\"a\":1}]"}, .nmsg = 1, .mode = MCP});
}

UTest(framing, auto_detects_lsp) {
  CHECK(UPK_FRAMING_AUTO, 64, "\r\n" OK2 "content-length: 3\r\n\r\n[1]",
        {.msgs = {"{}", "[1]"}, .nmsg = 2, .mode = LSP});
}

UTest(framing, auto_undecided_until_first_non_blank_byte) {
  start(UPK_FRAMING_AUTO, 64);
  feeds("\r\n \t\n");
  cr_assert_eq(upk_framer_mode(&F), UPK_FRAMING_AUTO);
  cr_assert_eq(upk_framer_pending(&F), 0);
  feeds("C");
  cr_assert_eq(upk_framer_mode(&F), LSP);
  start(UPK_FRAMING_AUTO, 64);
  feeds("{");
  cr_assert_eq(upk_framer_mode(&F), MCP);
  cr_assert_eq(R.nmsg, 0);
  cr_assert_eq(upk_framer_pending(&F), 1);
}

/* ---- upk_frame_write ---------------------------------------------------------------------- */

UTest(framing, frame_write_lsp_exact) {
  upk_buf out;
  upk_buf_init(&out, 1024);
  cr_assert_eq(upk_frame_write(LSP, "{\"a\":\"\xc3\xa9\"}", 10, &out), 0);
  cr_assert_eq(out.len, strlen("Content-Length: 10\r\n\r\n") + 10);
  cr_assert_str_eq(out.data, "Content-Length: 10\r\n\r\n{\"a\":\"\xc3\xa9\"}");
  cr_assert_eq(upk_frame_write(LSP, "", 0, &out), 0);
  cr_assert_str_eq(out.data,
                   "Content-Length: 10\r\n\r\n{\"a\":\"\xc3\xa9\"}Content-Length: 0\r\n\r\n");
  upk_buf_free(&out);
}

UTest(framing, frame_write_mcp_and_auto_are_lines) {
  upk_buf out;
  upk_buf_init(&out, 1024);
  cr_assert_eq(upk_frame_write(MCP, "{\"a\":1}", 7, &out), 0);
  cr_assert_eq(upk_frame_write(UPK_FRAMING_AUTO, "[]", 2, &out), 0);
  cr_assert_eq(out.len, 11);
  cr_assert_str_eq(out.data, "{\"a\":1}\n[]\n");
  upk_buf_free(&out);
}

UTest(framing, frame_write_is_all_or_nothing) {
  upk_buf out;
  upk_buf_init(&out, 30);
  cr_assert_eq(upk_buf_puts(&out, "abc"), 0);
  /* the header fits, the body does not: nothing of the frame may stay behind */
  cr_assert_eq(upk_frame_write(LSP, "0123456789", 10, &out), -E2BIG);
  cr_assert_eq(out.len, 3);
  cr_assert_str_eq(out.data, "abc");
  /* the body fits, the newline does not */
  cr_assert_eq(upk_frame_write(MCP, "0123456789012345678901234567", 27, &out), -E2BIG);
  cr_assert_eq(out.len, 3);
  cr_assert_str_eq(out.data, "abc");
  cr_assert_eq(upk_frame_write(MCP, "xy", 2, &out), 0);
  cr_assert_str_eq(out.data, "abcxy\n");
  upk_buf_free(&out);
}

UTest(framing, frame_write_round_trips_through_the_framer) {
  static const char *const bodies[] = {"{}", "{\"s\":\"a\\nb\\r\\n\"}", "[1,2,3]",
                                       "{\"u\":\"\xe2\x80\xa8\"}"};
  for (int m = 0; m < 2; m++) {
    upk_framing mode = m ? MCP : LSP;
    upk_buf out;
    upk_buf_init(&out, 1 << 16);
    for (size_t i = 0; i < 4; i++)
      cr_assert_eq(upk_frame_write(mode, bodies[i], strlen(bodies[i]), &out), 0);
    start(UPK_FRAMING_AUTO, 1024);
    feed(out.data, out.len, 3);
    cr_assert_eq(upk_framer_mode(&F), mode);
    cr_assert_eq(R.nmsg, 4);
    cr_assert_eq(R.nerr, 0);
    for (size_t i = 0; i < 4; i++)
      expect_msg(i, bodies[i], strlen(bodies[i]), mode == LSP ? "lsp" : "mcp");
    upk_buf_free(&out);
  }
}
