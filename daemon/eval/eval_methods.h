/** The evaluation methods: skills/eval (MCP `eval_skill`), skills/generate
 * (MCP `generate_skill`), runs/list (MCP `list_runs`) and runs/show (MCP
 * `show_run`). Params are checked on the loop; configuration, skills, tests
 * and traces are read on the thread pool; the work itself runs in
 * eval_service.h and gen_service.h. */
#ifndef UPK_EVAL_METHODS_H
#define UPK_EVAL_METHODS_H

#include <stddef.h>

#include "daemon/core/jobs.h"

extern const upk_method upk_eval_methods[];
extern const size_t upk_eval_methods_count;

/** Where runs live: config runs_dir (relative to the workspace), else
 * $XDG_STATE_HOME/upskilld/runs, else ~/.local/state/upskilld/runs. malloc'd. */
char *upk_eval_runs_dir(const char *configured, const char *workspace);

#endif
