/** Kernel facts read from a cubin (an ELF64 image for one SM architecture).
 *
 * Why: the ptxas `-v` report can be empty. NVRTC 13 keeps a compile cache in
 * the CUDA driver; on a hit it skips ptxas and prints nothing, which made every
 * check after the first one of a source list no kernels on GPU machines. The
 * cubin always holds its kernels, so the kernel list and every resource the
 * cubin records come from here; the report adds what the cubin lacks (spill
 * counts). Layout, as observed with ptxas 13.0 for sm_80/90/90a/100:
 * - entry functions: `.symtab` symbols of type FUNC with STO_CUDA_ENTRY (0x10)
 *   in st_other;
 * - `.nv.info` (global): attributes keyed by symbol index: REGCOUNT (0x2f),
 *   FRAME_SIZE (0x11; with indirect calls it also covers the callees, so it
 *   can exceed ptxas's "stack frame", whose figure wins when there is a
 *   report), MIN_STACK_SIZE (0x12, ptxas's "cumulative stack");
 * - `.nv.info.<kernel>`: MAX_THREADS (0x05, __launch_bounds__), REQNTID (0x10),
 *   CTA_PER_CLUSTER (0x3d, __cluster_dims__), NUM_BARRIERS (0x4c);
 * - `.nv.shared.<kernel>`: static shared memory, plus the 1 KiB the hardware
 *   reserves per block where the image references `.nv.reservedSmem.offset0`
 *   (sm_90 and newer); absent when a kernel uses none;
 * - `.nv.constant0.<kernel>`: the parameter bank (cmem[0]).
 * Attribute records are `{u8 format, u8 attr, ...}`: format 1 (no value, 4
 * bytes), 2 (byte value), 3 (u16 value), 4 (u16 size, then size bytes).
 * Pure functions over bytes: no NVRTC, no driver; every length is checked.
 */
#ifndef UPK_GPU_CUBIN_H
#define UPK_GPU_CUBIN_H

#include <stddef.h>

#include "common/diag.h"
#include "gpu/compile/kernel.h"

/** Bytes of shared memory sm_90+ reserves per block inside `.nv.shared.*`. */
#define UPK_CUBIN_RESERVED_SMEM 1024

/** Every entry function of `cubin`, in symbol-table order: mangled name,
 * registers, barriers, stack frame, cumulative stack, static shared memory
 * (without the reserved 1 KiB), cmem[0], and max threads / cluster dims when
 * the image records them. name is NULL, line/col -1, spill counts 0 (the
 * cubin does not record them). `*kernels` is NULL when there are none.
 * Returns 0, -EINVAL (not a well-formed ELF64 cubin) or -ENOMEM. */
int upk_cubin_kernels(const void *cubin, size_t size, upk_kernel_info **kernels, size_t *n);

/** The size of section `name`, or -1 when absent or the image is malformed. */
long upk_cubin_section_size(const void *cubin, size_t size, const char *name);

/** Merge ptxas's `-v` report into kernels read from the cubin: spill counts
 * (and any resource the cubin lacked) are taken from the report entry with
 * the same mangled name. Kernels the report omits keep the cubin's figures.
 * Returns how many cubin kernels had no report entry. */
size_t upk_cubin_merge_report(upk_kernel_info *kernels, size_t n, const upk_kernel_info *report,
                              size_t n_report);

/** A compile's kernel facts: the cubin's kernels (upk_cubin_kernels) with the
 * ptxas `-v` report of `log` merged in (upk_cubin_merge_report). A kernel the
 * report omits (an empty log: a compiler cache hit) gets one
 * "kernel/no-ptxas-report" warning in `diags`, since its spill counts are
 * unknown; an unreadable cubin falls back to the report alone with a
 * "kernel/bad-cubin" warning. Returns 0 or -ENOMEM. */
int upk_cubin_facts(const void *cubin, size_t size, const char *log, upk_kernel_info **kernels,
                    size_t *n, upk_diags *diags);

#endif
