/** Kernel names as the reports group them: a template's instantiations under one name. */
#ifndef UPK_REPORT_KERNEL_NAME_H
#define UPK_REPORT_KERNEL_NAME_H

#include <stddef.h>

/** Where a kernel's name without its template arguments or return type starts, and its length
 * in *n: "void reduce4<int, 512u>(int *)" -> "reduce4", 7. */
const char *upk_kernel_base_name(const char *name, size_t *n);

#endif
