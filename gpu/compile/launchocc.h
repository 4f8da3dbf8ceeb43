/** Occupancy where the kernels are launched: each compiled kernel gets the
 * distinct launches of it the source makes (launches.h) with the occupancy at
 * each known block, and is judged at the request's block (per kernel, then for
 * all), else at its launch with the lowest occupancy, else at its
 * __launch_bounds__, else at 256 threads (assumed). Dynamic shared memory: the
 * request's, else the launch's; a kernel that declares `extern __shared__` (or
 * whose file does outside any kernel) with neither is counted as 0 and marked
 * unknown. */
#ifndef UPK_GPU_LAUNCHOCC_H
#define UPK_GPU_LAUNCHOCC_H

#include "gpu/compile/kernel.h"
#include "gpu/compile/launches.h"

struct upk_kvalidate_req;

/** Fill each kernel's `occupancy` and `launches`. Returns 0 or -ENOMEM. */
int upk_launch_judge(upk_kernel_info *k, size_t n, const upk_launches *l,
                     const struct upk_kvalidate_req *req);

#endif
