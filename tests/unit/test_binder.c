/* The parameter binder: checks that name the field, protocol keys, and the JSON Schema. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "protocol/binder.h"

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
  check(spec, "{\"ms\":1,\"msec\":2}",
        "params.msec: unknown parameter; it takes ms, label, ratio, flag, opts, items");
  check(NULL, "{\"a\":1}", "params.a: unknown parameter; it takes none");
}

/* A model that sends a name the tool does not take learns the nearest, else every name; and
 * an unknown name is told before a missing one ({query} for {task}). */
UTest(binder, unknown_parameter_suggests) {
  check(spec, "{\"ms\":1,\"lable\":\"x\"}",
        "params.lable: unknown parameter; did you mean 'label'?");
  check(spec, "{\"query\":\"x\"}",
        "params.query: unknown parameter; it takes ms, label, ratio, flag, opts, items");
}

UTest(binder, protocol_keys_allowed) {
  check(spec, "{\"ms\":1,\"_meta\":{\"progressToken\":3}}", NULL);
  check(spec, "{\"ms\":1,\"workDoneToken\":\"w\",\"partialResultToken\":1}", NULL);
  check(NULL, "{\"_meta\":{}}", NULL);
  check(spec, "{\"ms\":1,\"_Meta\":{}}",
        "params._Meta: unknown parameter; it takes ms, label, ratio, flag, opts, items");
}

UTest(binder, long_unknown_key_truncated_on_a_character_boundary) {
  char json[512] = "{\"ms\":1,\"", want[256] = "params.";
  for (int i = 0; i < 100; i++)
    strcat(json, "k");
  strcat(json, "\":1}");
  for (int i = 0; i < 64; i++)
    strcat(want, "k");
  strcat(want, ": unknown parameter; it takes ms, label, ratio, flag, opts, items");
  check(spec, json, want);
  /* "é" is 2 bytes: after one ASCII byte, byte 64 falls inside a character */
  strcpy(json, "{\"ms\":1,\"x");
  strcpy(want, "params.x");
  for (int i = 0; i < 60; i++)
    strcat(json, "\xc3\xa9");
  for (int i = 0; i < 31; i++)
    strcat(want, "\xc3\xa9");
  strcat(json, "\":1}");
  strcat(want, ": unknown parameter; it takes ms, label, ratio, flag, opts, items");
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

/* ---- items, ranges, choices, defaults, nested objects, alternatives (issue 32) ---- */

static const upk_param msg_fields[] = {
    {"role", UPK_T_STRING, 1, NULL, UPK_ONE_OF("user", "assistant")},
    {"content", UPK_T_STRING, 1, NULL},
    {0},
};
static const upk_param rich[] = {
    {"limit", UPK_T_INTEGER, 0, "how many", UPK_RANGE(1, 100), .def = "10"},
    {"offset", UPK_T_INTEGER, 0, NULL, UPK_MIN(0), .def = "0"},
    {"ratio", UPK_T_NUMBER, 0, NULL, UPK_RANGE_BELOW(0, 1), .def = "0.34"},
    {"temp", UPK_T_NUMBER, 0, NULL, UPK_MAX(2)},
    {"mode", UPK_T_STRING, 0, NULL, UPK_ONE_OF("strict", "lenient"), .def = "strict"},
    {"fast", UPK_T_BOOLEAN, 0, NULL, .def = "true"},
    {"agents", UPK_T_ARRAY, 0, NULL, UPK_ITEMS(UPK_T_STRING)},
    {"sizes", UPK_T_ARRAY, 0, NULL, UPK_ITEMS_OF(.type = UPK_T_INTEGER, UPK_RANGE(1, 1024))},
    {"messages", UPK_T_ARRAY, 0, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = msg_fields)},
    {"from", UPK_T_ANY, 0, "a path or a skill",
     UPK_ANY_OF({.type = UPK_T_STRING}, {.type = UPK_T_OBJECT, .props = msg_fields})},
    {"run", UPK_T_OBJECT, 0, NULL, .props = msg_fields, .open = 1},
    {0},
};

UTest(binder, ranges_name_the_bounds_and_the_value) {
  check(rich, "{\"limit\":1}", NULL);
  check(rich, "{\"limit\":100}", NULL);
  check(rich, "{\"limit\":500}", "params.limit: must be between 1 and 100, got 500");
  check(rich, "{\"limit\":0}", "params.limit: must be between 1 and 100, got 0");
  check(rich, "{\"offset\":-1}", "params.offset: must be 0 or more, got -1");
  check(rich, "{\"ratio\":0}", NULL);
  check(rich, "{\"ratio\":0.99}", NULL);
  check(rich, "{\"ratio\":1}", "params.ratio: must be from 0 to below 1, got 1");
  check(rich, "{\"ratio\":-0.5}", "params.ratio: must be from 0 to below 1, got -0.5");
  check(rich, "{\"temp\":2.5}", "params.temp: must be at most 2, got 2.5");
  check(rich, "{\"limit\":1.5}", "params.limit: expected integer, got number");
}

UTest(binder, choices_list_what_is_allowed) {
  check(rich, "{\"mode\":\"lenient\"}", NULL);
  check(rich, "{\"mode\":\"loose\"}", "params.mode: expected one of strict, lenient");
  check(rich, "{\"mode\":3}", "params.mode: expected string, got integer");
}

UTest(binder, array_items_are_checked_with_their_index) {
  check(rich, "{\"agents\":[\"claude\",\"codex\"],\"sizes\":[1,1024]}", NULL);
  check(rich, "{\"agents\":[\"claude\",7]}", "params.agents[1]: expected string, got integer");
  check(rich, "{\"sizes\":[256,4096]}", "params.sizes[1]: must be between 1 and 1024, got 4096");
  check(rich, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", NULL);
  check(rich, "{\"messages\":[{\"role\":\"bot\",\"content\":\"hi\"}]}",
        "params.messages[0].role: expected one of user, assistant");
  check(rich, "{\"messages\":[{\"role\":\"user\"}]}",
        "params.messages[0].content: required string is missing");
  check(rich, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\",\"name\":\"n\"}]}",
        "params.messages[0].name: unknown parameter; it takes role, content");
  check(rich, "{\"messages\":[\"hi\"]}", "params.messages[0]: expected object, got string");
  /* protocol keys are allowed at the top only */
  check(rich, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\",\"_meta\":{}}]}",
        "params.messages[0]._meta: unknown parameter; it takes role, content");
}

static const upk_param need_from[] = {
    {"from", UPK_T_ANY, 1, NULL, UPK_ANY_OF({.type = UPK_T_STRING}, {.type = UPK_T_OBJECT})}, {0}};

UTest(binder, alternatives_and_open_objects) {
  check(rich, "{\"from\":\"skills/x\"}", NULL);
  check(rich, "{\"from\":{\"role\":\"user\",\"content\":\"x\"}}", NULL);
  check(rich, "{\"from\":5}", "params.from: expected string or object, got integer");
  check(rich, "{\"from\":{\"role\":\"user\"}}", "params.from.content: required string is missing");
  check(rich, "{\"run\":{\"role\":\"user\",\"content\":\"x\",\"more\":1}}", NULL);
  check(rich, "{\"run\":{\"role\":\"user\",\"content\":1}}",
        "params.run.content: expected string, got integer");
  check(need_from, "{}", "params.from: required string or object is missing");
}

UTest(binder, defaults_come_from_the_table) {
  json_t *none = json_object(), *given = json_pack("{s:i,s:f,s:s,s:b}", "limit", 3, "ratio", 0.5,
                                                   "mode", "lenient", "fast", 0);
  cr_assert_eq(upk_param_int(none, rich, "limit"), 10);
  cr_assert_eq(upk_param_int(given, rich, "limit"), 3);
  cr_assert_eq(upk_param_int(none, rich, "offset"), 0);
  cr_assert_float_eq(upk_param_num(none, rich, "ratio", -1), 0.34, 1e-12);
  cr_assert_float_eq(upk_param_num(given, rich, "ratio", -1), 0.5, 1e-12);
  cr_assert_float_eq(upk_param_num(none, rich, "temp", -1), -1, 1e-12, "no default: `none`");
  cr_assert_str_eq(upk_param_str(none, rich, "mode"), "strict");
  cr_assert_str_eq(upk_param_str(given, rich, "mode"), "lenient");
  cr_assert(upk_param_bool(none, rich, "fast"));
  cr_assert(!upk_param_bool(given, rich, "fast"));
  cr_assert_null(upk_param_str(none, rich, "nope"));
  cr_assert_eq(upk_param_int(NULL, rich, "limit"), 10, "no params at all");
  json_decref(none);
  json_decref(given);
}

static const upk_param faced[] = {
    {"task", UPK_T_STRING, 1, NULL},
    {"limit", UPK_T_INTEGER, 0, NULL, UPK_RANGE(1, 100), .def = "10"},
    {"ratio", UPK_T_NUMBER, 0, NULL, .def = "0.5"},
    {"fast", UPK_T_BOOLEAN, 0, NULL, .def = "true"},
    {"mode", UPK_T_STRING, 0, NULL, .def = "strict"},
    {"waitMs", UPK_T_INTEGER, 0, NULL, .tool_def = "30000"},
    {"temp", UPK_T_NUMBER, 0, NULL},
    {0},
};

/* What a handler receives: the given fields untouched, the absent ones at the face's default. */
UTest(binder, defaulted_params_per_face) {
  json_t *given = json_pack("{s:s,s:i,s:b}", "task", "t", "limit", 3, "fast", 0);
  json_t *plain = upk_params_defaulted(given, faced, false);
  json_t *tool = upk_params_defaulted(given, faced, true);
  json_t *none = upk_params_defaulted(NULL, faced, true);
  char *a = json_dumps(plain, JSON_SORT_KEYS | JSON_COMPACT);
  char *b = json_dumps(tool, JSON_SORT_KEYS | JSON_COMPACT);
  char *c = json_dumps(none, JSON_SORT_KEYS | JSON_COMPACT);
  cr_assert_str_eq(a,
                   "{\"fast\":false,\"limit\":3,\"mode\":\"strict\",\"ratio\":0.5,\"task\":\"t\"}");
  cr_assert_str_eq(b, "{\"fast\":false,\"limit\":3,\"mode\":\"strict\",\"ratio\":0.5,"
                      "\"task\":\"t\",\"waitMs\":30000}");
  cr_assert_str_eq(c, "{\"fast\":true,\"limit\":10,\"mode\":\"strict\",\"ratio\":0.5,"
                      "\"waitMs\":30000}");
  cr_assert_eq(json_object_size(given), 3, "the request's own params are not changed");
  cr_assert_neq(plain, given);
  free(a);
  free(b);
  free(c);
  json_decref(plain);
  json_decref(tool);
  json_decref(none);
  json_decref(given);
}

/* The schema publishes the plain default only: a tool default is the face's business. */
UTest(binder, schema_publishes_def_not_tool_def) {
  json_t *s = upk_params_schema(faced);
  json_t *props = json_object_get(s, "properties");
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(props, "limit"), "default")), 10);
  cr_assert_null(json_object_get(json_object_get(props, "waitMs"), "default"));
  json_decref(s);
}

static void schema_is(json_t *schema, const char *want_json) {
  json_t *want = json_loads(want_json, 0, NULL);
  cr_assert_not_null(want, "bad test JSON: %s", want_json);
  char *got = json_dumps(schema, JSON_COMPACT | JSON_SORT_KEYS);
  cr_assert(json_equal(schema, want), "schema: %s", got);
  free(got);
  json_decref(schema);
  json_decref(want);
}

static const upk_param published[] = {
    {"limit", UPK_T_INTEGER, 0, "how many", UPK_RANGE(1, 100), .def = "10"},
    {"ratio", UPK_T_NUMBER, 0, NULL, UPK_RANGE_BELOW(0, 1), .def = "0.5"},
    {"mode", UPK_T_STRING, 0, "m", UPK_ONE_OF("strict", "lenient"), .def = "strict"},
    {"fast", UPK_T_BOOLEAN, 0, "f", .def = "true"},
    {"agents", UPK_T_ARRAY, 0, "a", UPK_ITEMS(UPK_T_STRING)},
    {0}};

UTest(binder, schema_publishes_items_ranges_choices_and_defaults) {
  schema_is(
      upk_params_schema(published),
      "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{"
      "\"limit\":{\"type\":\"integer\",\"description\":\"how many\",\"minimum\":1,"
      "\"maximum\":100,\"default\":10},"
      "\"ratio\":{\"type\":\"number\",\"description\":\"\",\"minimum\":0.0,"
      "\"exclusiveMaximum\":1.0,\"default\":0.5},"
      "\"mode\":{\"type\":\"string\",\"description\":\"m\",\"enum\":[\"strict\",\"lenient\"],"
      "\"default\":\"strict\"},"
      "\"fast\":{\"type\":\"boolean\",\"description\":\"f\",\"default\":true},"
      "\"agents\":{\"type\":\"array\",\"description\":\"a\",\"items\":{\"type\":\"string\"}}}}");
}

static const upk_param nested[] = {
    {"from", UPK_T_ANY, 1, "f",
     UPK_ANY_OF({.type = UPK_T_STRING}, {.type = UPK_T_OBJECT, .props = msg_fields})},
    {0}};

UTest(binder, schema_of_nested_objects_and_alternatives) {
  schema_is(
      upk_params_schema(nested),
      "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"from\"],"
      "\"properties\":{\"from\":{\"description\":\"f\",\"anyOf\":[{\"type\":\"string\"},"
      "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"role\",\"content\"],"
      "\"properties\":{\"role\":{\"type\":\"string\",\"description\":\"\","
      "\"enum\":[\"user\",\"assistant\"]},\"content\":{\"type\":\"string\","
      "\"description\":\"\"}}}]}}}");
}

/* Results: other keys allowed everywhere, null where the field says so, and a refusal's data
 * as a second shape (clients validate an isError result's structuredContent too). */
UTest(binder, result_schema) {
  static const upk_param ok[] = {{"text", UPK_T_STRING, 1, "the answer"},
                                 {"stop", UPK_T_STRING, 1, NULL, .nullable = 1},
                                 {"usage", UPK_T_OBJECT, 0, NULL, .props = msg_fields},
                                 {0}};
  static const upk_param refusal[] = {{"kind", UPK_T_STRING, 1, NULL}, {0}};
  schema_is(upk_result_schema(ok, NULL),
            "{\"type\":\"object\",\"required\":[\"text\",\"stop\"],\"properties\":{"
            "\"text\":{\"type\":\"string\",\"description\":\"the answer\"},"
            "\"stop\":{\"type\":[\"string\",\"null\"]},"
            "\"usage\":{\"type\":\"object\",\"required\":[\"role\",\"content\"],\"properties\":{"
            "\"role\":{\"type\":\"string\",\"enum\":[\"user\",\"assistant\"]},"
            "\"content\":{\"type\":\"string\"}}}}}");
  json_t *both = upk_result_schema(ok, refusal);
  cr_assert_str_eq(json_string_value(json_object_get(both, "type")), "object");
  cr_assert_eq(json_array_size(json_object_get(both, "anyOf")), 2);
  json_t *second = json_array_get(json_object_get(both, "anyOf"), 1);
  cr_assert_str_eq(json_string_value(json_array_get(json_object_get(second, "required"), 0)),
                   "kind");
  json_decref(both);
}
