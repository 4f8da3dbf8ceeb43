/* A kernel check's answer as an agent's tool call gets it: within a model's context budget. */
#ifndef UPK_KERNEL_BRIEF_H
#define UPK_KERNEL_BRIEF_H

#include <jansson.h>
#include <stdbool.h>

enum { UPK_KERNEL_BRIEF_BUDGET = 2048 }; /* bytes of compact JSON, for a clean compile */

/** `result` (kernel/validate's, not changed) as validate_kernel and run_kernel answer it: a
 * one-line `summary` first; kernels by their demangled names only (`mangled` dropped where a
 * name is known, null and empty fields dropped); `dependencyCount` for `dependencies` unless
 * `deps`; and kernels, then diagnostics, cut from the end until the whole fits in
 * UPK_KERNEL_BRIEF_BUDGET (at least one kernel and three diagnostics stay), with
 * `kernelsOmitted` / `diagnosticsOmitted` and `more` saying how to ask for the rest. New
 * reference. */
json_t *upk_kernel_brief(const json_t *result, bool deps);

#endif
