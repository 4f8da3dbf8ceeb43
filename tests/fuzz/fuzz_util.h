/* What every libFuzzer target here checks besides "no crash, no leak, no UB": a broken
 * invariant calls abort(), which libFuzzer records as a crash with its input. */
#ifndef UPK_FUZZ_UTIL_H
#define UPK_FUZZ_UTIL_H

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/diag_json.h"

#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "fuzz: invariant broken: %s (%s:%d)\n", #c, __FILE__, __LINE__);             \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

/* The input as a NUL-terminated string (parsers that take C strings stop at an inner NUL,
 * as they would on a file read that way). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size) {
  char *s = (char *)malloc(size + 1);
  CHECK(s);
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

/* Whether jansson takes `s` as a string: valid UTF-8 without NUL. */
static inline int fuzz_utf8(const char *s) {
  json_t *j = json_string(s);
  json_decref(j);
  return j != NULL;
}

/* Every diagnostic has a code, a source and a message a client receives as written (valid
 * UTF-8: upk_diag_json replaces any other text by a placeholder), and a range that does not
 * end before it starts (line -1 is "the whole file"). */
static inline void fuzz_check_diags(const upk_diags *d) {
  for (size_t i = 0; i < d->len; i++) {
    const upk_diag *g = &d->items[i];
    CHECK(g->severity >= UPK_SEV_ERROR && g->severity <= UPK_SEV_HINT);
    CHECK(g->code && g->code[0] && fuzz_utf8(g->code));
    CHECK(g->source && g->source[0]);
    CHECK(g->message && g->message[0]);
    if (!fuzz_utf8(g->message)) {
      fprintf(stderr, "fuzz: diagnostic %s: message not valid UTF-8: %s\n", g->code, g->message);
      abort();
    }
    CHECK(!g->file || fuzz_utf8(g->file));
    CHECK(g->range.line >= -1 && g->range.col >= -1);
    if (g->range.line >= 0) {
      CHECK(g->range.end_line >= g->range.line);
      CHECK(g->range.end_line > g->range.line || g->range.end_col >= g->range.col);
    }
  }
  /* Building the array is the check: jansson refuses a string that is not valid UTF-8 when
   * the value is made, so dumping it as text again (a third of a skill_md run) checks nothing
   * more. */
  json_t *j = upk_diags_json(d);
  CHECK(j && json_array_size(j) == d->len);
  json_decref(j);
}

#endif
