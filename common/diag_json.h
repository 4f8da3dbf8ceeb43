/** Diagnostics as LSP Diagnostic objects (the one JSON shape for every check). */
#ifndef UPK_DIAG_JSON_H
#define UPK_DIAG_JSON_H

#include <jansson.h>

#include "common/diag.h"

/** `{range:{start:{line,character},end:{...}}, severity, code, source, message, file?}` */
json_t *upk_diag_json(const upk_diag *d);
/** An array of the above. */
json_t *upk_diags_json(const upk_diags *d);

#endif
