/** What each MCP tool answers: the fields of its result (its `structuredContent`), as
 * upk_param tables that binder.c turns into the tool's `outputSchema`.
 *
 * The tables describe what the handlers build (read them beside the handler:
 * skills_methods.c, kernel_methods.c, ...). Required fields are those every
 * answer has; other keys may appear (results grow), so the schemas allow them.
 * A `refusal` table describes the data a failure carries where that differs
 * from the result (MCP clients validate an isError result's structuredContent
 * too). The conformance test tests/conformance/schemas.test.mjs checks real
 * answers against them.
 */
#ifndef UPK_TOOL_RESULTS_H
#define UPK_TOOL_RESULTS_H

#include "protocol/binder.h"

extern const upk_param upk_result_status[];
extern const upk_param upk_result_sleep[];

extern const upk_param upk_result_find_skill[];
extern const upk_param upk_result_list_skills[];
extern const upk_param upk_result_get_skill[];
extern const upk_param upk_result_skills_prompt[];
extern const upk_param upk_result_validate_skill[];
extern const upk_param upk_result_install[];
extern const upk_param upk_result_restore[];
extern const upk_param upk_result_audit[];
extern const upk_param upk_result_check[]; /* install_skill and remove_skill, refusals too */

extern const upk_param upk_result_validate_kernel[];

extern const upk_param upk_result_complete[];
extern const upk_param upk_refusal_complete[];

extern const upk_param upk_result_eval[];
extern const upk_param upk_refusal_eval[];
extern const upk_param upk_result_generate[]; /* failures carry the same base fields */
extern const upk_param upk_result_condense[];
extern const upk_param upk_refusal_condense[];
extern const upk_param upk_result_list_runs[];
extern const upk_param upk_result_show_run[];
extern const upk_param upk_result_report_run[];

#endif
