#include "protocol/binder.h"

#include "protocol/jsonrpc.h"
#include "common/suggest.h"

#include <stdio.h>
#include <stdlib.h>
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

/* "integer", or for a value with alternatives "string or object". */
static const char *type_desc(const upk_param *p, char *buf, size_t len) {
  if (p->type != UPK_T_ANY || !p->n_alts)
    return type_names[p->type];
  size_t at = 0;
  buf[0] = 0;
  for (size_t i = 0; i < p->n_alts && at < len; i++)
    at +=
        (size_t)snprintf(buf + at, len - at, "%s%s", i ? " or " : "", type_names[p->alts[i].type]);
  return buf;
}

static int is_protocol_key(const char *k) {
  return !strcmp(k, "_meta") || !strcmp(k, "workDoneToken") || !strcmp(k, "partialResultToken");
}

const upk_param *upk_param_find(const upk_param *spec, const char *name) {
  for (; spec && spec->name; spec++)
    if (!strcmp(spec->name, name))
      return spec;
  return NULL;
}

/* A bound or a value as people write it: 100, not 100.000000; 0.34, not 3.4e-01. */
static void fmt_num(char *buf, size_t len, double x) {
  if (x == (double)(long long)x)
    snprintf(buf, len, "%lld", (long long)x);
  else
    snprintf(buf, len, "%g", x);
}

static int out_of_range(const json_t *v, const upk_param *p, const char *path, char *err,
                        size_t errlen) {
  double x = json_number_value(v);
  bool low = p->has_min && x < p->min;
  bool high = p->has_max && (p->below_max ? x >= p->max : x > p->max);
  if (!low && !high)
    return 0;
  char lo[32], hi[32], got[32];
  fmt_num(lo, sizeof lo, p->min);
  fmt_num(hi, sizeof hi, p->max);
  if (json_is_integer(v))
    snprintf(got, sizeof got, "%lld", (long long)json_integer_value(v));
  else
    fmt_num(got, sizeof got, x);
  if (p->has_min && p->has_max && p->below_max)
    snprintf(err, errlen, "%s: must be from %s to below %s, got %s", path, lo, hi, got);
  else if (p->has_min && p->has_max)
    snprintf(err, errlen, "%s: must be between %s and %s, got %s", path, lo, hi, got);
  else if (p->has_min)
    snprintf(err, errlen, "%s: must be %s or more, got %s", path, lo, got);
  else
    snprintf(err, errlen, "%s: must be %s %s, got %s", path, p->below_max ? "below" : "at most", hi,
             got);
  return -1;
}

static int check_choice(const char *s, const upk_param *p, const char *path, char *err,
                        size_t errlen) {
  for (const char *const *c = p->choices; *c; c++)
    if (!strcmp(s, *c))
      return 0;
  size_t at = (size_t)snprintf(err, errlen, "%s: expected one of ", path);
  for (const char *const *c = p->choices; *c && at < errlen; c++)
    at += (size_t)snprintf(err + at, errlen - at, "%s%s", c == p->choices ? "" : ", ", *c);
  return -1;
}

static int check_fields(const json_t *obj, const upk_param *spec, const char *path, bool open,
                        bool top, char *err, size_t errlen);

/* One value against its entry; `path` names it in messages ("params.agents[2]"). */
static int check_value(const json_t *v, const upk_param *p, const char *path, char *err,
                       size_t errlen) {
  char buf[64];
  if (p->type == UPK_T_ANY && p->n_alts) {
    for (size_t i = 0; i < p->n_alts; i++)
      if (type_matches(v, p->alts[i].type))
        return check_value(v, &p->alts[i], path, err, errlen);
    snprintf(err, errlen, "%s: expected %s, got %s", path, type_desc(p, buf, sizeof buf),
             upk_json_type_name(v));
    return -1;
  }
  if (!type_matches(v, p->type)) {
    snprintf(err, errlen, "%s: expected %s, got %s", path, type_names[p->type],
             upk_json_type_name(v));
    return -1;
  }
  if (p->type == UPK_T_STRING && strlen(json_string_value(v)) != json_string_length(v)) {
    snprintf(err, errlen, "%s: the string contains a NUL character (\\u0000)", path);
    return -1;
  }
  if (p->choices && json_is_string(v) && check_choice(json_string_value(v), p, path, err, errlen))
    return -1;
  if (json_is_number(v) && out_of_range(v, p, path, err, errlen))
    return -1;
  if (p->items && json_is_array(v)) {
    size_t i;
    json_t *x;
    char sub[256];
    json_array_foreach(v, i, x) {
      snprintf(sub, sizeof sub, "%s[%zu]", path, i);
      if (check_value(x, p->items, sub, err, errlen))
        return -1;
    }
  }
  if (p->props && json_is_object(v))
    return check_fields(v, p->props, path, p->open, false, err, errlen);
  return 0;
}

/* "params.query: unknown parameter; did you mean ...?" or, when none is near, the names it
 * takes: a caller (often a model) learns what to send instead. */
static void unknown_key(const char *key, const upk_param *spec, const char *path, char *err,
                        size_t errlen) {
  const char *names[64];
  size_t n = 0;
  for (const upk_param *p = spec; p && p->name && n < 64; p++)
    names[n++] = p->name;
  const char *near = upk_suggest(key, names, n);
  int w =
      snprintf(err, errlen, "%s.%.*s: unknown parameter", path, (int)upk_utf8_prefix(key, 64), key);
  if (w < 0 || (size_t)w >= errlen)
    return;
  if (near) {
    snprintf(err + w, errlen - (size_t)w, "; did you mean '%s'?", near);
    return;
  }
  for (size_t i = 0; i < n && w > 0 && (size_t)w < errlen; i++)
    w += snprintf(err + w, errlen - (size_t)w, "%s%s", i ? ", " : "; it takes ", names[i]);
  if (!n)
    snprintf(err + w, errlen - (size_t)w, "; it takes none");
}

static int check_fields(const json_t *obj, const upk_param *spec, const char *path, bool open,
                        bool top, char *err, size_t errlen) {
  char sub[256], buf[64];
  const char *key;
  json_t *v;
  /* Unknown names first: {query} for {task} is told about query, not that task is missing. */
  json_object_foreach((json_t *)obj, key, v) {
    if (!open && !(top && is_protocol_key(key)) && !upk_param_find(spec, key)) {
      unknown_key(key, spec, path, err, errlen);
      return -1;
    }
  }
  for (const upk_param *p = spec; p && p->name; p++) {
    v = obj ? json_object_get(obj, p->name) : NULL;
    snprintf(sub, sizeof sub, "%s.%s", path, p->name);
    if (!v && p->required) {
      snprintf(err, errlen, "%s: required %s is missing", sub, type_desc(p, buf, sizeof buf));
      return -1;
    }
    if (v && check_value(v, p, sub, err, errlen))
      return -1;
  }
  return 0;
}

int upk_params_check(const json_t *params, const upk_param *spec, char *err, size_t errlen) {
  if (params && !json_is_object(params)) {
    snprintf(err, errlen, "params: expected object, got %s", upk_json_type_name(params));
    return -1;
  }
  return check_fields(params, spec, "params", false, true, err, errlen);
}

/* ---- schemas ---- */

/* A default's text as JSON, read by the entry's type. */
static json_t *default_text_json(const upk_param *p, const char *def) {
  switch (p->type) {
  case UPK_T_INTEGER:
    return json_integer(strtoll(def, NULL, 10));
  case UPK_T_NUMBER:
    return json_real(strtod(def, NULL));
  case UPK_T_BOOLEAN:
    return json_boolean(!strcmp(def, "true"));
  case UPK_T_STRING:
  case UPK_T_TEXT:
    return json_string(def);
  default:
    return json_loads(def, JSON_DECODE_ANY, NULL);
  }
}

static json_t *default_json(const upk_param *p) {
  return default_text_json(p, p->def);
}

static json_t *bound(const upk_param *p, double x) {
  return p->type == UPK_T_INTEGER ? json_integer((json_int_t)x) : json_real(x);
}

static json_t *fields_schema(const upk_param *spec, bool closed, bool result);

static json_t *value_schema(const upk_param *p, bool result) {
  json_t *s = json_object();
  if (p->description)
    json_object_set_new(s, "description", json_string(p->description));
  if (p->type == UPK_T_ANY && p->n_alts) {
    json_t *any = json_array();
    for (size_t i = 0; i < p->n_alts; i++)
      json_array_append_new(any, value_schema(&p->alts[i], result));
    json_object_set_new(s, "anyOf", any);
  } else if (p->type != UPK_T_ANY) {
    json_t *t = json_string(type_names[p->type]);
    json_object_set_new(s, "type", p->nullable ? json_pack("[o,s]", t, "null") : t);
  }
  if (p->choices) {
    json_t *e = json_array();
    for (const char *const *c = p->choices; *c; c++)
      json_array_append_new(e, json_string(*c));
    if (p->nullable)
      json_array_append_new(e, json_null());
    json_object_set_new(s, "enum", e);
  }
  if (p->has_min)
    json_object_set_new(s, "minimum", bound(p, p->min));
  if (p->has_max)
    json_object_set_new(s, p->below_max ? "exclusiveMaximum" : "maximum", bound(p, p->max));
  if (p->def)
    json_object_set_new(s, "default", default_json(p));
  if (p->items)
    json_object_set_new(s, "items", value_schema(p->items, result));
  if (p->props) {
    json_t *f = fields_schema(p->props, !result && !p->open, result);
    json_object_update(s, f);
    json_decref(f);
  }
  return s;
}

/* properties, required and (closed) additionalProperties: false, for the caller to merge. */
static json_t *fields_schema(const upk_param *spec, bool closed, bool result) {
  json_t *props = json_object(), *required = json_array();
  for (const upk_param *p = spec; p && p->name; p++) {
    json_t *prop = value_schema(p, result);
    if (!p->description && !result) /* every input names its meaning, even if empty */
      json_object_set_new(prop, "description", json_string(""));
    json_object_set_new(props, p->name, prop);
    if (p->required)
      json_array_append_new(required, json_string(p->name));
  }
  json_t *s = json_pack("{s:o}", "properties", props);
  if (closed)
    json_object_set_new(s, "additionalProperties", json_false());
  if (json_array_size(required))
    json_object_set_new(s, "required", required);
  else
    json_decref(required);
  return s;
}

static json_t *object_schema(const upk_param *spec, bool closed, bool result) {
  json_t *s = json_pack("{s:s}", "type", "object");
  json_t *f = fields_schema(spec, closed, result);
  json_object_update(s, f);
  json_decref(f);
  return s;
}

json_t *upk_params_schema(const upk_param *spec) {
  return object_schema(spec, true, false);
}

/* Where the first sentence of `d` ends ("e.g. " and "i.e. " end none), or NULL. */
static const char *sentence_end(const char *d) {
  for (const char *stop = strstr(d, ". "); stop; stop = strstr(stop + 1, ". "))
    if (stop - d < 3 || (strncmp(stop - 3, "e.g", 3) && strncmp(stop - 3, "i.e", 3)))
      return stop;
  return NULL;
}

/* Each description in schema `s` cut to its first sentence, nested ones too; an empty one
 * dropped, and so is each of anyOf's shapes' own (the property's says what it is). A boolean's
 * default of false goes too (what leaving a flag out means anyway), and additionalProperties:
 * an unknown argument is still refused, by name and with the nearest known one. */
static void first_sentences(json_t *s, bool shape) {
  const char *key;
  json_t *v;
  json_object_foreach(s, key, v) {
    if (!strcmp(key, "description") && json_is_string(v)) {
      const char *d = json_string_value(v), *stop = sentence_end(d);
      if (stop)
        json_object_set_new(s, key, json_stringn(d, (size_t)(stop - d) + 1));
    } else if (json_is_object(v)) {
      first_sentences(v, false);
    } else if (json_is_array(v)) {
      size_t i;
      json_t *x;
      json_array_foreach(v, i, x) if (json_is_object(x)) first_sentences(x, !strcmp(key, "anyOf"));
    }
  }
  json_t *d = json_object_get(s, "description");
  if (json_is_string(d) && (!json_string_length(d) || shape))
    json_object_del(s, "description");
  json_object_del(s, "additionalProperties"); /* still refused by name, with the nearest */
  if (json_is_false(json_object_get(s, "default")) &&
      !strcmp(json_string_value(json_object_get(s, "type")) ?: "", "boolean"))
    json_object_del(s, "default");
}

json_t *upk_params_tool_schema(const upk_param *spec) {
  json_t *s = upk_params_schema(spec), *props = json_object_get(s, "properties");
  for (const upk_param *p = spec; p && p->name; p++) {
    json_t *prop = json_object_get(props, p->name);
    if (p->expert && !p->required) { /* still accepted */
      json_object_del(props, p->name);
      continue;
    }
    if (p->tool_def)
      json_object_set_new(prop, "default", default_text_json(p, p->tool_def));
  }
  first_sentences(s, false);
  return s;
}

json_t *upk_result_schema(const upk_param *fields, const upk_param *refusal) {
  if (!refusal)
    return object_schema(fields, false, true);
  return json_pack("{s:s,s:[o,o]}", "type", "object", "anyOf", object_schema(fields, false, true),
                   object_schema(refusal, false, true));
}

/* ---- defaults ---- */

json_t *upk_params_defaulted(json_t *params, const upk_param *spec, bool tool) {
  json_t *out = json_is_object(params) ? json_copy(params) : json_object();
  for (const upk_param *p = spec; p && p->name; p++) {
    const char *def = tool && p->tool_def ? p->tool_def : p->def;
    if (def && !json_object_get(out, p->name))
      json_object_set_new(out, p->name, default_text_json(p, def));
  }
  return out;
}

json_int_t upk_param_int(const json_t *params, const upk_param *spec, const char *name) {
  json_t *v = json_object_get(params, name);
  if (json_is_integer(v))
    return json_integer_value(v);
  const upk_param *p = upk_param_find(spec, name);
  return p && p->def ? strtoll(p->def, NULL, 10) : 0;
}

double upk_param_num(const json_t *params, const upk_param *spec, const char *name, double none) {
  json_t *v = json_object_get(params, name);
  if (json_is_number(v))
    return json_number_value(v);
  const upk_param *p = upk_param_find(spec, name);
  return p && p->def ? strtod(p->def, NULL) : none;
}

bool upk_param_bool(const json_t *params, const upk_param *spec, const char *name) {
  json_t *v = json_object_get(params, name);
  if (json_is_boolean(v))
    return json_is_true(v);
  const upk_param *p = upk_param_find(spec, name);
  return p && p->def && !strcmp(p->def, "true");
}

const char *upk_param_str(const json_t *params, const upk_param *spec, const char *name) {
  json_t *v = json_object_get(params, name);
  if (json_is_string(v))
    return json_string_value(v);
  const upk_param *p = upk_param_find(spec, name);
  return p ? p->def : NULL;
}
