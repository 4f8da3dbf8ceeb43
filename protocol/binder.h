/** Parameter specifications shared by both protocol faces of a method.
 *
 * A method declares its parameters once, as a NULL-terminated array of
 * upk_param. The same array checks incoming params (giving a -32602 message
 * that names the field) and generates the JSON Schema that MCP `tools/list`
 * publishes, so the two can never disagree.
 */
#ifndef UPK_BINDER_H
#define UPK_BINDER_H

#include <jansson.h>
#include <stddef.h>

typedef enum {
  UPK_T_STRING,
  UPK_T_INTEGER,
  UPK_T_NUMBER,
  UPK_T_BOOLEAN,
  UPK_T_OBJECT,
  UPK_T_ARRAY,
  UPK_T_ANY,  /* checked by the handler (e.g. a path string or an object) */
  UPK_T_TEXT, /* a string that may hold any character, NUL included (source text);
                 plain UPK_T_STRING params refuse NUL so C string handling never truncates */
} upk_ptype;

typedef struct upk_param {
  const char *name;
  upk_ptype type;
  int required;
  const char *description;
} upk_param;

/** Check `params` (an object, or NULL for none) against `spec`.
 *
 * Returns 0, or -1 with a message such as "params.ms: expected integer, got
 * string" in `err`. Protocol keys (`_meta`, `workDoneToken`,
 * `partialResultToken`) are allowed everywhere; other unknown keys are errors
 * so that typos are caught rather than silently ignored.
 */
int upk_params_check(const json_t *params, const upk_param *spec, char *err, size_t errlen);

/** A JSON Schema object (`type: object`) describing `spec`. */
json_t *upk_params_schema(const upk_param *spec);

/** The JSON type name of a value, for messages ("string", "integer", ...). */
const char *upk_json_type_name(const json_t *v);

#endif
