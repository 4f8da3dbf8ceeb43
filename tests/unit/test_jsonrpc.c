/* JSON-RPC envelopes: parsing hostile bodies, classification, id keys, builders, dumping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "protocol/jsonrpc.h"

static json_t *parse_ok(const char *s) {
  char err[256] = "";
  json_t *v = upk_rpc_parse(s, strlen(s), err, sizeof err);
  cr_assert_not_null(v, "'%s' did not parse: %s", s, err);
  return v;
}

/* Parse must fail, with a message that is valid UTF-8 (it goes back in a JSON error). */
static void parse_fails(const char *s, size_t n, const char *needle) {
  char err[256];
  memset(err, 'Z', sizeof err);
  json_t *v = upk_rpc_parse(s, n, err, sizeof err);
  cr_assert_null(v, "'%.40s' parsed but must not", s);
  cr_assert_lt(strlen(err), sizeof err);
  cr_assert(strncmp(err, "invalid JSON at line ", 21) == 0, "%s", err);
  if (needle)
    cr_assert(strstr(err, needle), "'%s' lacks '%s'", err, needle);
  json_t *as_string = json_string(err);
  cr_assert_not_null(as_string, "error text is not valid UTF-8: %s", err);
  json_decref(as_string);
}

static char *dump(const json_t *v) {
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  cr_assert_eq(upk_rpc_dump(v, &b), 0);
  return upk_buf_take(&b, NULL);
}

/* The builder's output, dumped, must be exactly `want`; `v` is released. */
static void dumps_as(json_t *v, const char *want) {
  cr_assert_not_null(v);
  char *got = dump(v);
  cr_assert_str_eq(got, want);
  json_t *back = json_loads(want, 0, NULL);
  cr_assert(json_equal(v, back));
  json_decref(back);
  free(got);
  json_decref(v);
}

/* ---- parsing ------------------------------------------------------------------------------ */

UTest(jsonrpc, parse_valid_and_bounded_by_len) {
  json_t *v = parse_ok("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
  cr_assert(json_is_object(v));
  cr_assert_eq(json_integer_value(json_object_get(v, "id")), 1);
  json_decref(v);
  char err[64];
  v = upk_rpc_parse("[1]trailing", 3, err, sizeof err); /* only len bytes count */
  cr_assert(json_is_array(v));
  json_decref(v);
}

UTest(jsonrpc, parse_invalid_json) {
  parse_fails("{\"a\":}", 6, "line 1 column 6");
  parse_fails("", 0, NULL);
  parse_fails("   \r\n", 5, NULL);
  parse_fails("{} x", 4, NULL);
  parse_fails("{}{}", 4, NULL);
  parse_fails("{\"a\":1,}", 8, NULL);
  parse_fails("{'a':1}", 7, NULL);
  parse_fails("[1,2", 4, NULL);
  parse_fails("{\"id\":99999999999999999999}", 27, NULL); /* does not fit an integer */
  parse_fails("[1]\0[2]", 7, NULL);                       /* raw NUL byte in the body */
}

/* \u0000 is valid JSON: it reaches the method, which decides (kernel source answers a
 * diagnostic; plain string params refuse it, see test_binder). */
UTest(jsonrpc, parse_keeps_escaped_nul) {
  char err[128];
  json_t *v = upk_rpc_parse("[\"a\\u0000b\"]", 12, err, sizeof err);
  cr_assert_not_null(v, "%s", err);
  cr_assert_eq(json_string_length(json_array_get(v, 0)), 3);
  json_decref(v);
}

UTest(jsonrpc, parse_error_text_truncated_safely) {
  char err[8];
  memset(err, 'Z', sizeof err);
  cr_assert_null(upk_rpc_parse("{", 1, err, sizeof err));
  cr_assert_str_eq(err, "invalid");
}

UTest(jsonrpc, parse_rejects_invalid_utf8) {
  static const char *const bad[] = {
      "{\"a\":\"\xff\"}",         /* never valid */
      "{\"a\":\"\xc0\xaf\"}",     /* overlong '/' */
      "{\"a\":\"\xed\xa0\x80\"}", /* UTF-16 surrogate */
      "{\"a\":\"\xc3\"}",         /* truncated sequence */
      "{\"\xfe\":1}",             /* in a key */
      "[\xe2\x82]",               /* outside a string */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    parse_fails(bad[i], strlen(bad[i]), NULL);
  json_t *v = parse_ok("{\"a\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}");
  json_decref(v);
}

static char *nested(size_t depth, const char *open, const char *close) {
  size_t lo = strlen(open), lc = strlen(close);
  char *s = malloc(depth * (lo + lc) + 2), *p = s;
  for (size_t i = 0; i < depth; i++, p += lo)
    memcpy(p, open, lo);
  *p++ = '1';
  for (size_t i = 0; i < depth; i++, p += lc)
    memcpy(p, close, lc);
  *p = '\0';
  return s;
}

UTest(jsonrpc, parse_deep_nesting_fails_cleanly) {
  char *arr = nested(100000, "[", "]");
  parse_fails(arr, strlen(arr), "depth");
  parse_fails(arr, 100000, "depth"); /* unterminated, too */
  char *obj = nested(100000, "{\"a\":", "}");
  parse_fails(obj, strlen(obj), "depth");
  free(arr);
  free(obj);
  char *ok = nested(1000, "[", "]"); /* reasonable depth still parses */
  json_t *v = parse_ok(ok);
  json_decref(v);
  free(ok);
}

/* ---- classification ----------------------------------------------------------------------- */

#define V "\"jsonrpc\":\"2.0\""

static const struct kase {
  const char *json;
  upk_rpc_kind kind;
  const char *why; /* for INVALID: substring of out.why */
  const char *key; /* upk_rpc_id_key of out.id, or NULL when out.id must be NULL */
} cases[] = {
    {"{" V ",\"id\":1,\"method\":\"m\"}", UPK_RPC_REQUEST, NULL, "i:1"},
    {"{" V ",\"id\":\"x\",\"method\":\"m\",\"params\":{\"a\":1}}", UPK_RPC_REQUEST, NULL, "s:x"},
    {"{" V ",\"id\":0,\"method\":\"m\",\"params\":[]}", UPK_RPC_REQUEST, NULL, "i:0"},
    {"{" V ",\"id\":-3,\"method\":\"m\"}", UPK_RPC_REQUEST, NULL, "i:-3"},
    {"{" V ",\"method\":\"n\"}", UPK_RPC_NOTIFICATION, NULL, NULL},
    {"{" V ",\"method\":\"n\",\"params\":[1,2]}", UPK_RPC_NOTIFICATION, NULL, NULL},
    {"{" V ",\"id\":5,\"result\":null}", UPK_RPC_RESPONSE, NULL, "i:5"},
    {"{" V ",\"id\":\"r\",\"error\":{\"code\":1,\"message\":\"m\"}}", UPK_RPC_RESPONSE, NULL,
     "s:r"},
    {"{" V ",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"m\"}}", UPK_RPC_RESPONSE, NULL,
     NULL},
    {"[]", UPK_RPC_INVALID, "must be a JSON object", NULL},
    {"7", UPK_RPC_INVALID, "must be a JSON object", NULL},
    {"\"s\"", UPK_RPC_INVALID, "must be a JSON object", NULL},
    {"null", UPK_RPC_INVALID, "must be a JSON object", NULL},
    {"{\"id\":1,\"method\":\"m\"}", UPK_RPC_INVALID, "missing \"jsonrpc\": \"2.0\"", "i:1"},
    {"{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"m\"}", UPK_RPC_INVALID,
     "\"jsonrpc\" must be \"2.0\"", "i:2"},
    {"{\"jsonrpc\":2.0,\"method\":\"m\"}", UPK_RPC_INVALID, "\"jsonrpc\" must be \"2.0\"", NULL},
    {"{\"jsonrpc\":null,\"id\":\"q\",\"method\":\"m\"}", UPK_RPC_INVALID, "must be \"2.0\"", "s:q"},
    {"{" V ",\"id\":1,\"method\":5}", UPK_RPC_INVALID, "\"method\" must be a string", "i:1"},
    {"{" V ",\"method\":null}", UPK_RPC_INVALID, "\"method\" must be a string", NULL},
    {"{" V ",\"id\":1,\"method\":\"m\",\"params\":5}", UPK_RPC_INVALID,
     "\"params\" must be an object or an array", "i:1"},
    {"{" V ",\"method\":\"m\",\"params\":\"s\"}", UPK_RPC_INVALID, "\"params\" must be", NULL},
    {"{" V ",\"id\":1.5,\"method\":\"m\"}", UPK_RPC_INVALID,
     "\"id\" must be a string or an integer", NULL},
    {"{" V ",\"id\":true,\"method\":\"m\"}", UPK_RPC_INVALID, "\"id\" must be", NULL},
    {"{" V ",\"id\":{},\"method\":\"m\"}", UPK_RPC_INVALID, "\"id\" must be", NULL},
    {"{" V ",\"id\":[1],\"method\":\"m\"}", UPK_RPC_INVALID, "\"id\" must be", NULL},
    {"{" V ",\"id\":null,\"method\":\"m\"}", UPK_RPC_INVALID, "\"id\" must be", NULL},
    {"{" V ",\"id\":false,\"result\":1}", UPK_RPC_INVALID, "\"id\" must be", NULL},
    {"{" V "}", UPK_RPC_INVALID, "missing \"method\"", NULL},
    {"{" V ",\"id\":9}", UPK_RPC_INVALID, "missing \"method\"", "i:9"},
    {"{" V ",\"result\":1}", UPK_RPC_INVALID, "missing \"method\"", NULL},
};

UTest(jsonrpc, classify_table) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const struct kase *c = &cases[i];
    json_t *v = parse_ok(c->json);
    upk_rpc_msg m;
    memset(&m, 0x5a, sizeof m);
    upk_rpc_classify(v, &m);
    cr_assert_eq(m.kind, c->kind, "%s: kind %d, wanted %d (%s)", c->json, m.kind, c->kind,
                 m.why ? m.why : "-");
    if (c->kind == UPK_RPC_INVALID) {
      cr_assert_not_null(m.why, "%s", c->json);
      cr_assert(strstr(m.why, c->why), "%s: why '%s' lacks '%s'", c->json, m.why, c->why);
      cr_assert_null(m.method);
    } else {
      cr_assert_null(m.why, "%s: why '%s'", c->json, m.why);
    }
    if (c->key) {
      char key[UPK_RPC_KEY_MAX];
      cr_assert_not_null(m.id, "%s: no id", c->json);
      cr_assert_eq(m.id, json_object_get(v, "id"), "the id is borrowed from the message");
      upk_rpc_id_key(m.id, key);
      cr_assert_str_eq(key, c->key, "%s", c->json);
    } else {
      cr_assert_null(m.id, "%s: id must be NULL", c->json);
    }
    if (c->kind == UPK_RPC_REQUEST || c->kind == UPK_RPC_NOTIFICATION) {
      cr_assert_str_eq(m.method, json_string_value(json_object_get(v, "method")));
      cr_assert_eq(m.params, json_object_get(v, "params"));
    }
    json_decref(v);
  }
}

/* ---- id keys ------------------------------------------------------------------------------ */

static void key_of(json_t *id, char key[UPK_RPC_KEY_MAX]) {
  memset(key, 'Z', UPK_RPC_KEY_MAX);
  upk_rpc_id_key(id, key);
  cr_assert_lt(strlen(key), UPK_RPC_KEY_MAX);
  json_t *s = json_string(key);
  cr_assert_not_null(s, "key is not valid UTF-8: %s", key);
  json_decref(s);
  json_decref(id);
}

UTest(jsonrpc, id_key_integer_and_string_are_distinct) {
  char a[UPK_RPC_KEY_MAX], b[UPK_RPC_KEY_MAX];
  key_of(json_integer(1), a);
  key_of(json_string("1"), b);
  cr_assert_str_eq(a, "i:1");
  cr_assert_str_eq(b, "s:1");
  key_of(json_integer(-9223372036854775807LL - 1), a);
  cr_assert_str_eq(a, "i:-9223372036854775808");
  key_of(json_string(""), a);
  cr_assert_str_eq(a, "s:");
  key_of(json_string("i:1"), a);
  cr_assert_str_eq(a, "s:i:1");
  key_of(json_null(), a);
  key_of(json_string("(null)"), b);
  cr_assert_str_neq(a, b, "a null id must not look like a string id");
}

UTest(jsonrpc, id_key_long_strings) {
  char s[2000], k1[UPK_RPC_KEY_MAX], k2[UPK_RPC_KEY_MAX];
  memset(s, 'a', sizeof s);
  s[76] = '\0'; /* the longest id kept verbatim */
  key_of(json_string(s), k1);
  cr_assert_eq(strlen(k1), 78);
  cr_assert(strncmp(k1, "s:aaaa", 6) == 0);
  s[76] = 'a';
  s[77] = '\0'; /* one more byte: hashed */
  key_of(json_string(s), k1);
  cr_assert(strncmp(k1, "h:77:", 5) == 0, "%s", k1);
  /* long ids that differ only at the end, or only in length, get different keys */
  s[77] = 'a';
  s[1999] = '\0';
  key_of(json_string(s), k1);
  s[1998] = 'b';
  key_of(json_string(s), k2);
  cr_assert_str_neq(k1, k2);
  s[1998] = '\0';
  key_of(json_string(s), k2);
  cr_assert_str_neq(k1, k2);
  /* and the same id always gets the same key */
  key_of(json_string(s), k1);
  cr_assert_str_eq(k1, k2);
  /* embedded NULs are not truncated away */
  key_of(json_stringn("a\0b", 3), k1);
  key_of(json_stringn("a\0c", 3), k2);
  cr_assert_str_neq(k1, k2);
  key_of(json_string("a"), k2);
  cr_assert_str_neq(k1, k2);
}

UTest(jsonrpc, id_key_prefix_never_splits_utf8) {
  char s[200] = "aa";
  for (int i = 0; i < 40; i++)
    strcat(s, "\xe2\x82\xac"); /* the euro sign: 3 bytes, so byte 40 falls inside one */
  char key[UPK_RPC_KEY_MAX];
  key_of(json_string(s), key); /* key_of checks that the key is valid UTF-8 */
  cr_assert(strncmp(key, "h:122:", 6) == 0, "%s", key);
}

/* ---- builders ----------------------------------------------------------------------------- */

UTest(jsonrpc, build_result) {
  json_t *id = json_integer(7);
  json_t *r = upk_rpc_result(id, json_pack("{s:i}", "x", 1));
  cr_assert_eq(id->refcount, 2, "the id is borrowed, so the response holds a reference");
  dumps_as(r, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":1}}");
  cr_assert_eq(id->refcount, 1);
  json_decref(id);
  dumps_as(upk_rpc_result(NULL, NULL), "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":null}");
}

UTest(jsonrpc, build_error) {
  json_t *id = json_string("a");
  dumps_as(upk_rpc_error(id, UPK_RPC_METHOD_NOT_FOUND, "method not found: x", NULL),
           "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32601,\"message\":\"method not "
           "found: x\"}}");
  dumps_as(upk_rpc_error(NULL, UPK_RPC_PARSE_ERROR, "bad", json_pack("{s:i}", "at", 3)),
           "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\","
           "\"data\":{\"at\":3}}}");
  dumps_as(upk_rpc_error(id, -32000, "caf\xe9", NULL),
           "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32000,\"message\":\"error "
           "(message not valid UTF-8)\"}}");
  cr_assert_eq(id->refcount, 1);
  json_decref(id);
}

UTest(jsonrpc, build_notification_and_request) {
  dumps_as(upk_rpc_notification("initialized", NULL),
           "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}");
  dumps_as(upk_rpc_notification("$/progress", json_pack("{s:s}", "token", "t")),
           "{\"jsonrpc\":\"2.0\",\"method\":\"$/progress\",\"params\":{\"token\":\"t\"}}");
  json_t *id = json_integer(3);
  dumps_as(upk_rpc_request(id, "window/workDoneProgress/create", json_pack("{s:i}", "token", 1)),
           "{\"jsonrpc\":\"2.0\",\"method\":\"window/workDoneProgress/create\",\"params\":{"
           "\"token\":1},\"id\":3}");
  cr_assert_eq(id->refcount, 1);
  json_decref(id);
}

UTest(jsonrpc, null_params_are_no_params) {
  json_t *v =
      json_loads("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"shutdown\",\"params\":null}", 0, NULL);
  upk_rpc_msg m;
  upk_rpc_classify(v, &m);
  cr_assert_eq(m.kind, UPK_RPC_REQUEST);
  cr_assert_null(m.params);
  json_decref(v);
}

UTest(jsonrpc, built_messages_classify_as_what_they_are) {
  json_t *id = json_string("k");
  json_t *msgs[] = {upk_rpc_request(id, "m", NULL), upk_rpc_notification("n", json_array()),
                    upk_rpc_result(id, json_true()), upk_rpc_error(id, 1, "e", NULL)};
  upk_rpc_kind kinds[] = {UPK_RPC_REQUEST, UPK_RPC_NOTIFICATION, UPK_RPC_RESPONSE,
                          UPK_RPC_RESPONSE};
  for (int i = 0; i < 4; i++) {
    upk_rpc_msg m;
    upk_rpc_classify(msgs[i], &m);
    cr_assert_eq(m.kind, kinds[i], "message %d: %s", i, m.why ? m.why : "-");
    json_decref(msgs[i]);
  }
  json_decref(id);
}

/* ---- dumping ------------------------------------------------------------------------------ */

UTest(jsonrpc, dump_never_emits_a_newline) {
  json_t *v = json_pack("{s:s,s:s,s:[s]}", "a", "line1\nline2\r\n", "u", "\xe2\x80\xa8\xe2\x80\xa9",
                        "nested", "\n\n\n");
  char *s = dump(v);
  cr_assert_null(strchr(s, '\n'), "%s", s);
  cr_assert_null(strchr(s, '\r'), "%s", s);
  cr_assert(strstr(s, "line1\\nline2\\r\\n"), "%s", s);
  json_t *back = json_loads(s, 0, NULL);
  cr_assert(json_equal(v, back));
  json_decref(back);
  json_decref(v);
  free(s);
}

UTest(jsonrpc, dump_appends_and_grows) {
  upk_buf b;
  upk_buf_init(&b, 1 << 24);
  cr_assert_eq(upk_buf_puts(&b, "prefix:"), 0);
  json_t *small = json_pack("{s:i}", "a", 1);
  cr_assert_eq(upk_rpc_dump(small, &b), 0);
  cr_assert_str_eq(b.data, "prefix:{\"a\":1}");
  char *big = malloc(300001);
  memset(big, 'q', 300000);
  big[300000] = '\0';
  json_t *large = json_pack("{s:s}", "s", big);
  cr_assert_eq(upk_rpc_dump(large, &b), 0);
  cr_assert_eq(b.len, 14 + 300008);
  cr_assert_eq(b.data[b.len], '\0');
  cr_assert(strncmp(b.data + 14, "{\"s\":\"qqq", 9) == 0);
  cr_assert_str_eq(b.data + b.len - 3, "q\"}");
  json_decref(small);
  json_decref(large);
  free(big);
  upk_buf_free(&b);
}

UTest(jsonrpc, dump_into_a_small_capped_buffer) {
  upk_buf b;
  upk_buf_init(&b, 100); /* far below any growth quantum, but the message fits */
  json_t *v = upk_rpc_result(NULL, json_integer(1));
  cr_assert_eq(upk_rpc_dump(v, &b), 0);
  cr_assert_str_eq(b.data, "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":1}");
  cr_assert_leq(b.cap, 101);
  json_decref(v);
  upk_buf_free(&b);
}

UTest(jsonrpc, dump_too_big_leaves_the_buffer_as_it_was) {
  upk_buf b;
  upk_buf_init(&b, 64);
  cr_assert_eq(upk_buf_puts(&b, "abc"), 0);
  json_t *v = json_pack("{s:s}", "s",
                        "0123456789012345678901234567890123456789012345678901234567890123456789");
  cr_assert_eq(upk_rpc_dump(v, &b), -E2BIG);
  cr_assert_eq(b.len, 3);
  cr_assert_str_eq(b.data, "abc", "the buffer must stay NUL-terminated after a failed dump");
  json_decref(v);
  v = json_string("bare"); /* not a container: not a message */
  cr_assert_eq(upk_rpc_dump(v, &b), -EINVAL);
  cr_assert_str_eq(b.data, "abc");
  json_decref(v);
  upk_buf_free(&b);
}

UTest(jsonrpc, dump_reals_compactly) {
  json_t *v = json_pack("{s:f,s:f,s:I}", "a", 0.1, "b", 2.5, "c", (json_int_t)1 << 53);
  char *s = dump(v);
  cr_assert_str_eq(s, "{\"a\":0.1,\"b\":2.5,\"c\":9007199254740992}");
  free(s);
  json_decref(v);
}

/* jansson quotes the bad input in its message; the daemon sends that message back as a JSON
 * string, so it must stay printable ASCII whatever bytes the client sent (found by the fuzzer). */
UTest(jsonrpc, parse_error_text_is_printable_ascii) {
  /* jansson quotes the token: here two bytes of a UTF-8 character and a control
   * character; quotes of longer tokens can be cut inside a sequence. */
  const char *bad = "{\"a\":\"\xc3\xa9\x01\"}";
  char err[256];
  cr_assert_null(upk_rpc_parse(bad, strlen(bad), err, sizeof err));
  cr_assert(strlen(err) > 0);
  for (const char *c = err; *c; c++)
    cr_assert((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f, "byte 0x%02x in '%s'",
              (unsigned char)*c, err);
  json_t *r = upk_rpc_error(NULL, UPK_RPC_PARSE_ERROR, err, NULL);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "error"), "message")), err);
  json_decref(r);
}

/* A member of a result dumped ahead and spliced in: the bytes parse to the value of the whole
 * response dumped, and are exactly jansson's dump of it with that member last, for ids jansson
 * must escape, values holding what JSON escapes, members beside it (a modern answer's), reals.
 * The message itself is left as it was. */
static void splices_as_dumped(json_t *id, json_t *result, const char *key) {
  json_t *msg = upk_rpc_result(id, json_incref(result));
  upk_json_member m = {key, json_object_get(result, key), NULL};
  m.text = upk_json_text_dump(m.value);
  cr_assert_not_null(m.text);
  char *whole = dump(msg);
  json_t *reordered = json_deep_copy(msg), *r = json_object_get(reordered, "result");
  json_t *v = json_incref(json_object_get(r, key));
  json_object_del(r, key);
  json_object_set_new(r, key, v); /* the member last */
  char *want = dump(reordered);
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  cr_assert_eq(upk_buf_puts(&b, "before\n"), 0);
  cr_assert_eq(upk_rpc_dump_spliced(msg, &m, &b), 0);
  cr_assert_str_eq(b.data + 7, want);
  cr_assert_eq(b.len, 7 + strlen(want));
  char err[256];
  json_t *back = upk_rpc_parse(b.data + 7, b.len - 7, err, sizeof err);
  cr_assert_not_null(back, "%s", err);
  json_t *unkept = parse_ok(whole); /* the wire's reals are 12 digits: the dumped, not msg */
  cr_assert(json_equal(back, unkept), "the spliced answer parses to another value");
  cr_assert(json_equal(json_object_get(msg, "result"), result), "the message was changed");
  cr_assert_eq(json_object_get(json_object_get(msg, "result"), key), m.value);
  json_decref(unkept);
  json_decref(back);
  upk_buf_free(&b);
  free(whole);
  free(want);
  json_decref(reordered);
  upk_json_text_unref(m.text);
  json_decref(msg);
  json_decref(id);
  json_decref(result);
}

UTest(jsonrpc, spliced_member_is_the_dumped_answer) {
  json_t *skills =
      json_pack("[{s:s,s:{s:s}},{s:s}]", "uri", "skill://a/SKILL.md", "frontmatter", "description",
                "quotes \" back\\slash \u00e9 \t tab \u2028 0}}", "uri", "skill://b");
  json_t *page = json_pack("{s:O,s:s}", "skills", skills, "nextCursor", "s1:646:646");
  splices_as_dumped(json_integer(7), json_incref(page), "skills");
  splices_as_dumped(json_string("id \"0}}\" \\ \u00e9\n"), json_incref(page), "skills");
  splices_as_dumped(NULL, json_incref(page), "skills");
  json_t *modern =
      json_pack("{s:O,s:s,s:s,s:{s:{s:s}}}", "skills", skills, "nextCursor", "s1:1:200",
                "resultType", "complete", "_meta", "serverInfo", "name", "u");
  splices_as_dumped(json_integer(8), modern, "skills");
  splices_as_dumped(json_integer(-1), json_pack("{s:f,s:[]}", "x", 0.1 + 0.2, "y"), "x");
  splices_as_dumped(json_integer(1), json_pack("{s:i}", "n", 0), "n"); /* the stand-in's value */
  splices_as_dumped(json_integer(2), json_pack("{s:s,s:[]}", "s", "", "t"), "s");
  json_decref(page);
  json_decref(skills);
}

UTest(jsonrpc, splice_refuses_what_it_cannot_vouch_for) {
  json_t *five = json_integer(5), *other5 = json_integer(5), *id = json_integer(1);
  upk_json_member m = {"n", five, upk_json_text_dump(five)};
  upk_buf b;
  upk_buf_init(&b, 1 << 20);
  cr_assert_eq(upk_buf_puts(&b, "x"), 0);
  json_t *err = upk_rpc_error(id, -32600, "no", NULL);
  cr_assert_eq(upk_rpc_dump_spliced(err, &m, &b), -EINVAL); /* no result */
  json_t *bare = upk_rpc_result(id, json_incref(five));
  cr_assert_eq(upk_rpc_dump_spliced(bare, &m, &b), -EINVAL); /* a result, not an object */
  json_t *missing = upk_rpc_result(id, json_pack("{s:O}", "k", five));
  cr_assert_eq(upk_rpc_dump_spliced(missing, &m, &b), -EINVAL); /* no such member */
  json_t *equal = upk_rpc_result(id, json_pack("{s:O}", "n", other5));
  cr_assert_eq(upk_rpc_dump_spliced(equal, &m, &b), -EINVAL); /* an equal value, not the one */
  cr_assert_eq(upk_rpc_dump_spliced(equal, NULL, &b), -EINVAL);
  cr_assert_eq(b.len, 1);
  cr_assert_str_eq(b.data, "x");
  upk_buf_free(&b);
  json_t *long_one = json_string("0123456789abcdefghij0123456789");
  json_t *ok = upk_rpc_result(id, json_pack("{s:O}", "n", long_one));
  upk_json_member big = {"n", long_one, upk_json_text_dump(long_one)};
  upk_buf_init(&b, 45); /* room for the frame, not for the text: nothing of it stays */
  cr_assert_eq(upk_rpc_dump_spliced(ok, &big, &b), -E2BIG);
  cr_assert_eq(b.len, 0);
  upk_buf_free(&b);
  upk_json_text_unref(big.text);
  upk_json_text_unref(m.text);
  json_decref(ok);
  json_decref(long_one);
  json_decref(equal);
  json_decref(missing);
  json_decref(bare);
  json_decref(err);
  json_decref(five);
  json_decref(other5);
  json_decref(id);
}
