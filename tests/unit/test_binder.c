/* The parameter binder: checks that name the field, protocol keys, and the JSON Schema. */
#include <string.h>

#include "unit.h"
#include "binder.h"

static const upk_param spec[] = {
    {"ms", UPK_T_INTEGER, 1, "milliseconds to sleep"},
    {"label", UPK_T_STRING, 0, "a label"},
    {"ratio", UPK_T_NUMBER, 0, NULL},
    {"flag", UPK_T_BOOLEAN, 0, "a flag"},
    {"opts", UPK_T_OBJECT, 0, "options"},
    {"items", UPK_T_ARRAY, 0, "items"},
    {NULL, 0, 0, NULL},
};

/* Check `json` (NULL: no params) against `s`; `want` NULL means it must pass. */
static void check(const upk_param *s, const char *json, const char *want) {
  json_t *params = json ? json_loads(json, JSON_DECODE_ANY, NULL) : NULL;
  cr_assert(!json || params, "bad test JSON: %s", json);
  char err[256] = "untouched";
  int rc = upk_params_check(params, s, err, sizeof err);
  if (want) {
    cr_assert_eq(rc, -1, "%s passed, wanted '%s'", json, want);
    cr_assert_str_eq(err, want, "%s", json);
    json_t *as_string = json_string(err);
    cr_assert_not_null(as_string, "message is not valid UTF-8: %s", err);
    json_decref(as_string);
  } else {
    cr_assert_eq(rc, 0, "%s failed: %s", json, err);
  }
  json_decref(params);
}

UTest(binder, accepts_good_params) {
  check(spec, "{\"ms\":5}", NULL);
  check(spec,
        "{\"ms\":0,\"label\":\"x\",\"ratio\":0.5,\"flag\":false,\"opts\":{\"k\":1},\"items\":[]}",
        NULL);
  check(spec, "{\"ms\":5,\"ratio\":3}", NULL); /* an integer is a number */
  check(spec + 1, NULL, NULL);                 /* nothing required: no params is fine */
  check(spec + 1, "{}", NULL);
  check(NULL, "{}", NULL);
  check(NULL, NULL, NULL);
}

UTest(binder, required_parameter_missing) {
  check(spec, "{}", "params.ms: required integer is missing");
  check(spec, NULL, "params.ms: required integer is missing");
  check(spec, "{\"label\":\"x\"}", "params.ms: required integer is missing");
}

UTest(binder, wrong_type_names_field_and_types) {
  check(spec, "{\"ms\":\"5\"}", "params.ms: expected integer, got string");
  check(spec, "{\"ms\":5.0}", "params.ms: expected integer, got number");
  check(spec, "{\"ms\":null}", "params.ms: expected integer, got null");
  check(spec, "{\"ms\":true}", "params.ms: expected integer, got boolean");
  check(spec, "{\"ms\":1,\"label\":7}", "params.label: expected string, got integer");
  check(spec, "{\"ms\":1,\"ratio\":\"0.5\"}", "params.ratio: expected number, got string");
  check(spec, "{\"ms\":1,\"flag\":1}", "params.flag: expected boolean, got integer");
  check(spec, "{\"ms\":1,\"opts\":[]}", "params.opts: expected object, got array");
  check(spec, "{\"ms\":1,\"items\":{}}", "params.items: expected array, got object");
}

UTest(binder, params_must_be_an_object) {
  check(spec, "[5]", "params: expected object, got array");
  check(spec, "\"x\"", "params: expected object, got string");
}

UTest(binder, unknown_parameter_named) {
  check(spec, "{\"ms\":1,\"msec\":2}", "params.msec: unknown parameter");
  check(NULL, "{\"a\":1}", "params.a: unknown parameter");
}

UTest(binder, protocol_keys_allowed) {
  check(spec, "{\"ms\":1,\"_meta\":{\"progressToken\":3}}", NULL);
  check(spec, "{\"ms\":1,\"workDoneToken\":\"w\",\"partialResultToken\":1}", NULL);
  check(NULL, "{\"_meta\":{}}", NULL);
  check(spec, "{\"ms\":1,\"_Meta\":{}}", "params._Meta: unknown parameter");
}

UTest(binder, long_unknown_key_truncated_on_a_character_boundary) {
  char json[512] = "{\"ms\":1,\"", want[256] = "params.";
  for (int i = 0; i < 100; i++)
    strcat(json, "k");
  strcat(json, "\":1}");
  for (int i = 0; i < 64; i++)
    strcat(want, "k");
  strcat(want, ": unknown parameter");
  check(spec, json, want);
  /* "é" is 2 bytes: after one ASCII byte, byte 64 falls inside a character */
  strcpy(json, "{\"ms\":1,\"x");
  strcpy(want, "params.x");
  for (int i = 0; i < 60; i++)
    strcat(json, "\xc3\xa9");
  for (int i = 0; i < 31; i++)
    strcat(want, "\xc3\xa9");
  strcat(json, "\":1}");
  strcat(want, ": unknown parameter");
  check(spec, json, want);
}

UTest(binder, error_text_fits_a_small_buffer) {
  json_t *p = json_pack("{s:s}", "ms", "x");
  char err[10];
  memset(err, 'Z', sizeof err);
  cr_assert_eq(upk_params_check(p, spec, err, sizeof err), -1);
  cr_assert_str_eq(err, "params.ms");
  json_decref(p);
}

UTest(binder, schema_shape) {
  json_t *schema = upk_params_schema(spec);
  json_t *want =
      json_loads("{\"type\":\"object\",\"properties\":{"
                 "\"ms\":{\"type\":\"integer\",\"description\":\"milliseconds to sleep\"},"
                 "\"label\":{\"type\":\"string\",\"description\":\"a label\"},"
                 "\"ratio\":{\"type\":\"number\",\"description\":\"\"},"
                 "\"flag\":{\"type\":\"boolean\",\"description\":\"a flag\"},"
                 "\"opts\":{\"type\":\"object\",\"description\":\"options\"},"
                 "\"items\":{\"type\":\"array\",\"description\":\"items\"}},"
                 "\"additionalProperties\":false,\"required\":[\"ms\"]}",
                 0, NULL);
  cr_assert_not_null(want);
  char *got = json_dumps(schema, JSON_COMPACT);
  cr_assert(json_equal(schema, want), "schema: %s", got);
  free(got);
  json_decref(schema);
  json_decref(want);
}

UTest(binder, schema_without_required_or_params) {
  json_t *schema = upk_params_schema(spec + 1);
  cr_assert_null(json_object_get(schema, "required"), "no required list when nothing is required");
  cr_assert_eq(json_object_size(json_object_get(schema, "properties")), 5);
  json_decref(schema);
  schema = upk_params_schema(NULL);
  json_t *want =
      json_loads("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", 0, NULL);
  cr_assert(json_equal(schema, want));
  json_decref(schema);
  json_decref(want);
}

UTest(binder, json_type_names) {
  const char *json = "[\"s\",1,1.5,true,false,null,{},[]]";
  const char *names[] = {"string",  "integer", "number", "boolean",
                         "boolean", "null",    "object", "array"};
  json_t *a = json_loads(json, 0, NULL);
  for (size_t i = 0; i < 8; i++)
    cr_assert_str_eq(upk_json_type_name(json_array_get(a, i)), names[i], "element %zu", i);
  json_decref(a);
}

/* A NUL inside a plain string param would silently cut it short in C; TEXT params keep it. */
UTest(binder, nul_in_strings) {
  static const upk_param text_spec[] = {
      {"label", UPK_T_STRING, 0, NULL}, {"source", UPK_T_TEXT, 0, NULL}, {NULL, 0, 0, NULL}};
  json_t *p = json_loads("{\"label\":\"a\\u0000b\"}", JSON_ALLOW_NUL, NULL);
  char err[256] = "";
  cr_assert_eq(upk_params_check(p, text_spec, err, sizeof err), -1);
  cr_assert(strstr(err, "params.label") && strstr(err, "NUL"), "%s", err);
  json_decref(p);
  p = json_loads("{\"source\":\"a\\u0000b\"}", JSON_ALLOW_NUL, NULL);
  cr_assert_eq(upk_params_check(p, text_spec, err, sizeof err), 0, "%s", err);
  json_decref(p);
  check(text_spec, "{\"source\":3}", "params.source: expected string, got integer");
}
