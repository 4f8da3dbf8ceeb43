/* check-kernel's tables for one file: the kernels (templates folded into one row
 * unless every instantiation is asked for) and the launches the file makes. */
#ifndef UPK_CLIENTS_KERNEL_TABLE_H
#define UPK_CLIENTS_KERNEL_TABLE_H

#include <jansson.h>
#include <stdbool.h>

/* The `kernels` and `unmatchedLaunches` of a kernel/validate result. */
void ctl_print_kernels(json_t *result, bool all_instantiations);

#endif
