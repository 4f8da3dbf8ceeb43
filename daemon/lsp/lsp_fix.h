/** Mechanical fixes of lint findings as LSP quickfixes (lsp_fix.c). */
#ifndef UPK_LSP_FIX_H
#define UPK_LSP_FIX_H

#include <jansson.h>
#include <stddef.h>

/** The mechanical fix of lint diagnostic `diag` (an LSP Diagnostic) as a quickfix CodeAction
 * with a WorkspaceEdit for `uri`, or NULL when it has none. */
json_t *upk_lint_fix(const char *uri, const char *text, size_t len, json_t *diag);

#endif
