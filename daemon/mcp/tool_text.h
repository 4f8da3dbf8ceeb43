/** Tool results as text a model can act on.
 *
 * Some MCP clients show a model only a tool result's text, not its
 * structuredContent. A refusal or a failed check must then still say what is
 * wrong and where: each diagnostic becomes a line such as
 * "SKILL.md:2:7 error skill/name-uppercase: Skill name 'Bad_Name' must be lowercase"
 * (one-based line and column, as compilers print them). jobs.c adds these lines
 * to the text of every tool result that failed with diagnostics.
 */
#ifndef UPK_TOOL_TEXT_H
#define UPK_TOOL_TEXT_H

#include <jansson.h>

/** `headline` followed by one line per diagnostic of `structured` (its `diagnostics`, and
 * those of a kernel project's `rows`); a diagnostic without a `file` is in `structured`'s
 * `file`, else in `default_file`. NULL when there are no diagnostics. malloc'd. */
char *upk_tool_diag_text(const json_t *structured, const char *headline, const char *default_file);

/** The text for a successful tool result that reports a failed check (`ok: false` with
 * diagnostics, as skills/validate and kernel/validate answer), else NULL. malloc'd. */
char *upk_tool_failed_check_text(const json_t *result, const char *default_file);

#endif
