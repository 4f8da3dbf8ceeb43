/** Parameter specifications shared by both protocol faces of a method.
 *
 * A method declares its parameters once, as a NULL-terminated array of
 * upk_param. The same array checks incoming params (giving a -32602 message
 * that names the field) and generates the JSON Schema that MCP `tools/list`
 * publishes, so the two can never disagree. Types, array items, nested
 * objects, ranges, allowed strings and defaults all live in the table; the
 * binder hands a handler its params with the defaults filled in
 * (upk_params_defaulted), so a handler reads every field as given and never
 * repeats or re-checks one.
 *
 * The same struct describes what a method answers (upk_result_schema): MCP's
 * `outputSchema`, against which `structuredContent` is validated.
 */
#ifndef UPK_BINDER_H
#define UPK_BINDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum {
  UPK_T_STRING,
  UPK_T_INTEGER,
  UPK_T_NUMBER,
  UPK_T_BOOLEAN,
  UPK_T_OBJECT,
  UPK_T_ARRAY,
  UPK_T_ANY,  /* any value, or one of `alts` when given */
  UPK_T_TEXT, /* a string that may hold any character, NUL included (source text);
                 plain UPK_T_STRING params refuse NUL so C string handling never truncates */
} upk_ptype;

typedef struct upk_param upk_param;

/* The first four fields are positional in the tables; the rest are set by name, mostly
 * through the macros below: {"limit", UPK_T_INTEGER, 0, "...", UPK_RANGE(1, 100), .def = "10"}. */
struct upk_param {
  const char *name;
  upk_ptype type;
  int required;
  const char *description;
  const upk_param *items; /* UPK_T_ARRAY: what every item is (its name is unused) */
  const upk_param *props; /* UPK_T_OBJECT: its fields, NULL-terminated; NULL: any object */
  const upk_param *alts;  /* UPK_T_ANY: the shapes a value may take (first matching type wins) */
  size_t n_alts;
  const char *const *choices;       /* strings: the allowed values, NULL-terminated */
  bool has_min, has_max, below_max; /* below_max: the maximum itself is excluded */
  double min, max;                  /* integers and numbers: inclusive bounds */
  const char *def; /* the default as text, read by type: "10", "0.34", "true", "strict" */
  /* The default when an MCP tool call leaves the field out, where that face differs (an
   * agent does not know to ask again); the schema still publishes `def`. */
  const char *tool_def;
  bool nullable; /* results: null is a value too */
  bool open;     /* objects with props: other keys are allowed (results always allow them) */
  bool expert;   /* accepted, but left out of an MCP tool's listed schema (its tokens are paid in
                  * every conversation; docs/protocol.md lists every argument) */
};

/* Compound literals in macros: clang-format would spread each over four lines. */
/* clang-format off */
/* A numeric constant as a default's text: .def = UPK_STRINGIFY(UPK_CONDENSE_DEFAULT_BUDGET). */
#define UPK_STRINGIFY_(x) #x
#define UPK_STRINGIFY(x) UPK_STRINGIFY_(x)
#define UPK_MIN(lo) .has_min = 1, .min = (lo)
#define UPK_MAX(hi) .has_max = 1, .max = (hi)
#define UPK_RANGE(lo, hi) UPK_MIN(lo), UPK_MAX(hi)
/* [lo, hi): a fraction, say */
#define UPK_RANGE_BELOW(lo, hi) UPK_MIN(lo), UPK_MAX(hi), .below_max = 1
#define UPK_ONE_OF(...) .choices = (const char *const[]){__VA_ARGS__, NULL}
/* Items of one plain type: UPK_ITEMS(UPK_T_STRING). */
#define UPK_ITEMS(t) .items = &(const upk_param){.type = (t)}
/* Items described in full: UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = file_fields). */
#define UPK_ITEMS_OF(...) .items = &(const upk_param){__VA_ARGS__}
/* UPK_T_ANY that is one of these: UPK_ANY_OF({.type = UPK_T_STRING}, {.type = ...}). */
#define UPK_ANY_OF(...)                                                                            \
  .alts = (const upk_param[]){__VA_ARGS__},                                                        \
  .n_alts = sizeof((const upk_param[]){__VA_ARGS__}) / sizeof(upk_param)
/* clang-format on */

/** Check `params` (an object, or NULL for none) against `spec`.
 *
 * Returns 0, or -1 with a message such as "params.ms: expected integer, got
 * string", "params.limit: must be between 1 and 100, got 500", "params.mode:
 * expected one of strict, lenient" or "params.agents[1]: expected string, got
 * integer" in `err`. Protocol keys (`_meta`, `workDoneToken`,
 * `partialResultToken`) are allowed at the top; other unknown keys are errors
 * so that typos are caught rather than silently ignored.
 */
int upk_params_check(const json_t *params, const upk_param *spec, char *err, size_t errlen);

/** A JSON Schema object (`type: object`, no other keys) describing `spec`: MCP's inputSchema. */
json_t *upk_params_schema(const upk_param *spec);
/** The schema an MCP tool lists: as upk_params_schema, with the tool's defaults, each
 * description cut to its first sentence, expert arguments left out (still accepted), and no
 * additionalProperties or boolean default of false: the list costs every conversation its
 * tokens, and upk_params_check still refuses an unknown name, with the nearest known one. */
json_t *upk_params_tool_schema(const upk_param *spec);

/** A JSON Schema for a result: `fields` describes a success; `refusal`, when not NULL, the
 * data a failure carries (an MCP isError result's structuredContent), and the schema is then
 * `anyOf` the two. Other keys are allowed at every level: results grow. */
json_t *upk_result_schema(const upk_param *fields, const upk_param *refusal);

/** The params a handler receives: a shallow copy of `params` (NULL: none) in which every
 * top-level field of `spec` that has a default and is absent holds that default (`tool_def`
 * when `tool` and it is set, else `def`). Call it after upk_params_check: the handler reads
 * the fields as they are, with nothing left to check. New reference. */
json_t *upk_params_defaulted(json_t *params, const upk_param *spec, bool tool);

/** The entry named `name` in `spec`, or NULL. */
const upk_param *upk_param_find(const upk_param *spec, const char *name);
/** params[name] as an integer, else its default in `spec` (0 when it has none). */
json_int_t upk_param_int(const json_t *params, const upk_param *spec, const char *name);
/** params[name] as a number, else its default in `spec` (`none` when it has none). */
double upk_param_num(const json_t *params, const upk_param *spec, const char *name, double none);
/** params[name] as a boolean, else its default in `spec` (false when it has none). */
bool upk_param_bool(const json_t *params, const upk_param *spec, const char *name);
/** params[name] as a string, else its default in `spec` (NULL when it has none). */
const char *upk_param_str(const json_t *params, const upk_param *spec, const char *name);

/** The JSON type name of a value, for messages ("string", "integer", ...). */
const char *upk_json_type_name(const json_t *v);

#endif
