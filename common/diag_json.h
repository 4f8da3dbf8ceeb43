/** Diagnostics as LSP Diagnostic objects (the one JSON shape for every check). */
#ifndef UPK_DIAG_JSON_H
#define UPK_DIAG_JSON_H

#include <jansson.h>

#include "common/diag.h"

/** `{range:{start:{line,character},end:{...}}, severity, code, source, message, file?}` */
json_t *upk_diag_json(const upk_diag *d);
/** An array of the above. */
json_t *upk_diags_json(const upk_diags *d);
/** How many of an array of the above have this severity (1 error .. 4 hint). */
size_t upk_diags_json_count(const json_t *diags, json_int_t severity);

#endif
