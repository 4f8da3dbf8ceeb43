/** A kernel's parameter types from its mangled symbol (C++ kernels; extern
 * "C" symbols carry none), to check a run's arguments against what the
 * kernel takes before it is launched: `__half const*` is not an f32 buffer. */
#ifndef UPK_GPU_KSIG_H
#define UPK_GPU_KSIG_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/run/runspec.h"

#define UPK_KSIG_MAX_PARAMS 64

typedef struct upk_ksig_param {
  char text[96]; /* as demangled: "float const*" */
  bool pointer;
  bool known;      /* `dtype` is meaningful (a scalar or pointee type this maps) */
  upk_dtype dtype; /* float f32, __half f16, __nv_bfloat16 bf16, double f64, (signed) char i8,
                      int i32, long / long long i64, unsigned char u8, unsigned int u32 */
} upk_ksig_param;

/** Parameters of `mangled` into `out` (up to UPK_KSIG_MAX_PARAMS). Returns
 * 0 with *n set, or -ENOENT when the symbol carries no parameter types
 * (extern "C", or not demangled), -ENOMEM. */
int upk_ksig_params(const char *mangled, upk_ksig_param *out, size_t *n);

/** Check `s`'s arguments against the parameters of `mangled`: their number,
 * buffer against pointer, and each known dtype. Returns 0 (also when the
 * symbol has no types), or -EINVAL with `err` naming the argument, what the
 * spec (or its tensor) gives and what the kernel's parameter is. */
int upk_ksig_check(const char *mangled, const upk_run_spec *s, char *err, size_t err_len);

#endif
