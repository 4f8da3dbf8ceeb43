#include "binder.h"

#include "jsonrpc.h"

#include <stdio.h>
#include <string.h>

static const char *type_names[] = {"string", "integer", "number", "boolean",
                                   "object", "array",   "any",    "string"};

const char *upk_json_type_name(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    return "object";
  case JSON_ARRAY:
    return "array";
  case JSON_STRING:
    return "string";
  case JSON_INTEGER:
    return "integer";
  case JSON_REAL:
    return "number";
  case JSON_TRUE:
  case JSON_FALSE:
    return "boolean";
  default:
    return "null";
  }
}

static int type_matches(const json_t *v, upk_ptype t) {
  switch (t) {
  case UPK_T_STRING:
  case UPK_T_TEXT:
    return json_is_string(v);
  case UPK_T_INTEGER:
    return json_is_integer(v);
  case UPK_T_NUMBER:
    return json_is_number(v);
  case UPK_T_BOOLEAN:
    return json_is_boolean(v);
  case UPK_T_OBJECT:
    return json_is_object(v);
  case UPK_T_ARRAY:
    return json_is_array(v);
  default:
    return 1;
  }
}

static int is_protocol_key(const char *k) {
  return !strcmp(k, "_meta") || !strcmp(k, "workDoneToken") || !strcmp(k, "partialResultToken");
}

static const upk_param *find_param(const upk_param *spec, const char *name) {
  for (; spec && spec->name; spec++)
    if (!strcmp(spec->name, name))
      return spec;
  return NULL;
}

int upk_params_check(const json_t *params, const upk_param *spec, char *err, size_t errlen) {
  if (params && !json_is_object(params)) {
    snprintf(err, errlen, "params: expected object, got %s", upk_json_type_name(params));
    return -1;
  }
  for (const upk_param *p = spec; p && p->name; p++) {
    json_t *v = params ? json_object_get(params, p->name) : NULL;
    if (!v && p->required) {
      snprintf(err, errlen, "params.%s: required %s is missing", p->name, type_names[p->type]);
      return -1;
    }
    if (v && !type_matches(v, p->type)) {
      snprintf(err, errlen, "params.%s: expected %s, got %s", p->name, type_names[p->type],
               upk_json_type_name(v));
      return -1;
    }
    if (v && p->type == UPK_T_STRING && strlen(json_string_value(v)) != json_string_length(v)) {
      snprintf(err, errlen, "params.%s: the string contains a NUL character (\\u0000)", p->name);
      return -1;
    }
  }
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)params, key, v) {
    if (!is_protocol_key(key) && !find_param(spec, key)) {
      snprintf(err, errlen, "params.%.*s: unknown parameter", (int)upk_utf8_prefix(key, 64), key);
      return -1;
    }
  }
  return 0;
}

json_t *upk_params_schema(const upk_param *spec) {
  json_t *props = json_object(), *required = json_array();
  for (const upk_param *p = spec; p && p->name; p++) {
    json_t *prop = json_pack("{s:s}", "description", p->description ? p->description : "");
    if (p->type != UPK_T_ANY)
      json_object_set_new(prop, "type", json_string(type_names[p->type]));
    json_object_set_new(props, p->name, prop);
    if (p->required)
      json_array_append_new(required, json_string(p->name));
  }
  json_t *schema =
      json_pack("{s:s,s:o,s:b}", "type", "object", "properties", props, "additionalProperties", 0);
  if (json_array_size(required))
    json_object_set_new(schema, "required", required);
  else
    json_decref(required);
  return schema;
}
