/** The kernel methods: kernel/validate (MCP tool validate_kernel) and the
 * test-only upskilld/worker. */
#ifndef UPK_KERNEL_METHODS_H
#define UPK_KERNEL_METHODS_H

#include "daemon/core/jobs.h"

extern const upk_method upk_kernel_methods[];
extern const size_t upk_kernel_methods_count;

#endif
