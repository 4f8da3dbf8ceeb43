/* YAML to JSON (config.h upk_yaml_to_json): libyaml's document API, scalars typed as YAML 1.2's
 * core schema, depth and node count bounded. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/xalloc.h"
#include "models/yaml_json.h"

enum { YAML_MAX_DEPTH = 32, YAML_MAX_NODES = 100000 };

/* A plain (unquoted) scalar typed as YAML 1.2's core schema does. */
static json_t *plain_scalar(const char *s) {
  if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"))
    return json_null();
  if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
    return json_true();
  if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
    return json_false();
  char *end;
  errno = 0;
  long long i = strtoll(s, &end, 10);
  if (!*end && !errno)
    return json_integer(i);
  double d = strtod(s, &end);
  if (!*end && isfinite(d) && strpbrk(s, "0123456789"))
    return json_real(d);
  return json_string(s);
}

enum { YAML_MAX_KEYS = 1000 }; /* in one mapping: upskill's settings are a few dozen */

/* Why a document was refused, for the caller's "LINE:COL: problem". */
typedef struct yaml_why {
  char text[200];
  yaml_mark_t mark;
} yaml_why;

static json_t *refuse_node(yaml_why *why, yaml_node_t *n, const char *fmt, const char *arg) {
  snprintf(why->text, sizeof why->text, fmt, arg);
  why->mark = n->start_mark;
  return NULL;
}

/* A scalar's text as libyaml decoded it: NULL when it holds a NUL ("\0" escaped, or a raw NUL
 * byte), which a C string would silently cut ("ab\0c" read as "ab"). */
static const char *scalar_text(yaml_node_t *n, yaml_why *why) {
  const char *v = (const char *)n->data.scalar.value;
  if (strlen(v) != n->data.scalar.length) {
    refuse_node(why, n, "a value holds a NUL character (\\0): refused%s", "");
    return NULL;
  }
  return v;
}

static json_t *node_json(yaml_document_t *doc, yaml_node_t *n, int depth, int *budget,
                         yaml_why *why) {
  if (!n)
    return NULL;
  if (depth > YAML_MAX_DEPTH || --*budget < 0)
    return refuse_node(why, n, "nested too deeply or too large%s", "");
  if (n->type == YAML_SCALAR_NODE) {
    const char *v = scalar_text(n, why);
    if (!v)
      return NULL;
    return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? plain_scalar(v) : json_string(v);
  }
  if (n->type == YAML_SEQUENCE_NODE) {
    json_t *a = json_array();
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
      json_t *v = node_json(doc, yaml_document_get_node(doc, *it), depth + 1, budget, why);
      if (!v || json_array_append_new(a, v)) {
        json_decref(a);
        return NULL;
      }
    }
    return a;
  }
  if (n->type != YAML_MAPPING_NODE)
    return NULL;
  if (n->data.mapping.pairs.top - n->data.mapping.pairs.start > YAML_MAX_KEYS)
    return refuse_node(why, n, "more than %s keys in one mapping", "1000");
  json_t *o = json_object(); /* jansson hashes its keys: a duplicate is found in O(1) */
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    const char *key = NULL;
    json_t *v = NULL;
    if (!k || k->type != YAML_SCALAR_NODE)
      refuse_node(why, k ? k : n, "a non-scalar mapping key (keys must be text)%s", "");
    else if ((key = scalar_text(k, why)) && json_object_get(o, key))
      refuse_node(why, k, "duplicate key '%.100s'", key);
    else if (key)
      v = node_json(doc, yaml_document_get_node(doc, p->value), depth + 1, budget, why);
    if (!v || json_object_set_new(o, key, v)) {
      json_decref(o);
      return NULL;
    }
  }
  return o;
}

json_t *upk_yaml_to_json(const char *text, size_t len, char *err, size_t errlen) {
  yaml_parser_t parser;
  yaml_document_t doc;
  const char *nul = memchr(text, 0, len);
  if (nul) { /* libyaml's "control characters are not allowed" would not say which */
    size_t line = 1, col = 1;
    for (const char *c = text; c < nul; c++)
      *c == '\n' ? (line++, col = 1) : col++;
    snprintf(err, errlen, "%zu:%zu: a NUL byte (\\0): refused", line, col);
    return NULL;
  }
  if (!yaml_parser_initialize(&parser)) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  json_t *out = NULL;
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errlen, "%zu:%zu: %s", parser.problem_mark.line + 1,
             parser.problem_mark.column + 1, parser.problem ? parser.problem : "invalid YAML");
    yaml_parser_delete(&parser);
    return NULL;
  }
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  int budget = YAML_MAX_NODES;
  yaml_why why = {.text = "nested too deeply, too large, or a non-scalar mapping key"};
  out = root ? node_json(&doc, root, 0, &budget, &why) : json_object(); /* empty: no settings */
  if (!out)
    snprintf(err, errlen, "%zu:%zu: %s", why.mark.line + 1, why.mark.column + 1, why.text);
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return out;
}
