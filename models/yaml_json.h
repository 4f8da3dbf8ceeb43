/** YAML to JSON for the config files (yaml_json.c). */
#ifndef UPK_MODELS_YAML_JSON_H
#define UPK_MODELS_YAML_JSON_H

#include <jansson.h>
#include <stddef.h>

/** Parse a YAML text into JSON (mappings, sequences, scalars typed as YAML 1.2
 * core: null, booleans, integers, floats, strings). Returns NULL with
 * "LINE:COL: problem" in `err`. */
json_t *upk_yaml_to_json(const char *text, size_t len, char *err, size_t errlen);

#endif
