/** The CUDA Driver API, opened with dlopen("libcuda.so.1") and never linked,
 * so upskilld builds and runs on machines without a GPU and a missing
 * driver is one clean error carrying dlopen's own message.
 *
 * Entry points are resolved through cuGetProcAddress_v2 at the CUDA 12.0
 * ABI (the signatures declared below), falling back to dlsym of the
 * versioned symbol names (cuMemAlloc_v2, ...) on older drivers. Types and
 * constants are declared here with the values of CUDA 13's cuda.h, so the
 * toolkit's headers are not needed to build.
 *
 * Sticky errors (upk_cu_is_sticky) leave the CUDA context unusable: the
 * process must end. Call everything here in a worker process only. */
#ifndef UPK_GPU_CUDRV_H
#define UPK_GPU_CUDRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int upk_cu_result;             /* CUresult */
typedef unsigned long long upk_cu_ptr; /* CUdeviceptr */
typedef struct upk_cu_opaque
    *upk_cu_handle; /* CUcontext, CUmodule, CUfunction, CUevent, CUstream */

/** CUresult values the callers act on. */
enum {
  UPK_CU_SUCCESS = 0,
  UPK_CU_INVALID_VALUE = 1,
  UPK_CU_OUT_OF_MEMORY = 2,
  UPK_CU_NO_DEVICE = 100,
  UPK_CU_NO_BINARY_FOR_GPU = 209,
  UPK_CU_INVALID_PTX = 218,
  UPK_CU_UNSUPPORTED_PTX_VERSION = 222,
  UPK_CU_NOT_FOUND = 500,
  UPK_CU_NOT_READY = 600,
  UPK_CU_ILLEGAL_ADDRESS = 700,
  UPK_CU_LAUNCH_OUT_OF_RESOURCES = 701,
  UPK_CU_LAUNCH_TIMEOUT = 702,
  UPK_CU_LAUNCH_FAILED = 719,
};

/** CUdevice_attribute / CUfunction_attribute / CUjit_option values used. */
enum {
  UPK_CU_DEV_MAX_THREADS_PER_BLOCK = 1,
  UPK_CU_DEV_MAX_SHARED_PER_BLOCK = 8,
  UPK_CU_DEV_CLOCK_RATE = 13,
  UPK_CU_DEV_SM_COUNT = 16,
  UPK_CU_DEV_MEMORY_CLOCK_RATE = 36,
  UPK_CU_DEV_GLOBAL_MEMORY_BUS_WIDTH = 37,
  UPK_CU_DEV_L2_CACHE_SIZE = 38,
  UPK_CU_DEV_CC_MAJOR = 75,
  UPK_CU_DEV_CC_MINOR = 76,
  UPK_CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN = 97,
  UPK_CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
  UPK_CU_FUNC_SHARED_SIZE_BYTES = 1,
  UPK_CU_FUNC_LOCAL_SIZE_BYTES = 3,
  UPK_CU_FUNC_NUM_REGS = 4,
  UPK_CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  UPK_CU_JIT_INFO_LOG_BUFFER = 3,
  UPK_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  UPK_CU_JIT_ERROR_LOG_BUFFER = 5,
  UPK_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/** The entry points, CUDA 12.0 ABI. */
typedef struct upk_cu_api {
  upk_cu_result (*Init)(unsigned flags);
  upk_cu_result (*DriverGetVersion)(int *v);
  upk_cu_result (*DeviceGet)(int *dev, int ordinal);
  upk_cu_result (*DeviceGetName)(char *name, int len, int dev);
  upk_cu_result (*DeviceGetAttribute)(int *v, int attr, int dev);
  upk_cu_result (*DevicePrimaryCtxRetain)(upk_cu_handle *ctx, int dev);
  upk_cu_result (*DevicePrimaryCtxRelease)(int dev);
  upk_cu_result (*CtxSetCurrent)(upk_cu_handle ctx);
  upk_cu_result (*CtxSynchronize)(void);
  upk_cu_result (*ModuleLoadDataEx)(upk_cu_handle *mod, const void *image, unsigned n, int *opts,
                                    void **vals);
  upk_cu_result (*ModuleUnload)(upk_cu_handle mod);
  upk_cu_result (*ModuleGetFunction)(upk_cu_handle *fn, upk_cu_handle mod, const char *name);
  upk_cu_result (*FuncGetAttribute)(int *v, int attr, upk_cu_handle fn);
  upk_cu_result (*FuncSetAttribute)(upk_cu_handle fn, int attr, int v);
  upk_cu_result (*MemAlloc)(upk_cu_ptr *p, size_t bytes);
  upk_cu_result (*MemFree)(upk_cu_ptr p);
  upk_cu_result (*MemcpyHtoD)(upk_cu_ptr dst, const void *src, size_t bytes);
  upk_cu_result (*MemcpyDtoH)(void *dst, upk_cu_ptr src, size_t bytes);
  upk_cu_result (*MemcpyDtoD)(upk_cu_ptr dst, upk_cu_ptr src, size_t bytes);
  upk_cu_result (*MemGetInfo)(size_t *free_bytes, size_t *total_bytes);
  upk_cu_result (*MemsetD8)(upk_cu_ptr dst, unsigned char v, size_t n);
  upk_cu_result (*MemsetD8Async)(upk_cu_ptr dst, unsigned char v, size_t n, upk_cu_handle stream);
  upk_cu_result (*LaunchKernel)(upk_cu_handle fn, unsigned gx, unsigned gy, unsigned gz,
                                unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                upk_cu_handle stream, void **params, void **extra);
  upk_cu_result (*EventCreate)(upk_cu_handle *ev, unsigned flags);
  upk_cu_result (*EventRecord)(upk_cu_handle ev, upk_cu_handle stream);
  upk_cu_result (*EventQuery)(upk_cu_handle ev);
  upk_cu_result (*EventSynchronize)(upk_cu_handle ev);
  upk_cu_result (*EventElapsedTime)(float *ms, upk_cu_handle start, upk_cu_handle end);
  upk_cu_result (*EventDestroy)(upk_cu_handle ev);
  upk_cu_result (*StreamSynchronize)(upk_cu_handle stream);
  upk_cu_result (*GetErrorName)(upk_cu_result e, const char **s);
  upk_cu_result (*GetErrorString)(upk_cu_result e, const char **s);
} upk_cu_api;

/** An opened driver with device 0's primary context current. */
typedef struct upk_cudrv {
  void *lib;
  upk_cu_api cu;
  bool initialised; /* cuInit succeeded: libcuda stays loaded for the process's life */
  bool ctx_retained;
  int device;
  upk_cu_handle ctx;
  char name[256]; /* "NVIDIA H100 80GB HBM3" */
  int sm_major, sm_minor;
  int driver_version; /* 13000 for 13.0 */
  int sm_count, l2_bytes, max_threads_per_block, smem_per_block, smem_optin;
  int clock_khz, memory_clock_khz, bus_width_bits; /* the peaks (roofline.h) */
} upk_cudrv;

/** dlopen libcuda ($UPSKILLD_LIBCUDA, else "libcuda.so.1") and resolve every
 * entry point; no cuInit. Returns 0, or -ENOENT with dlopen's message in
 * `err` ("no NVIDIA driver: libcuda.so.1: cannot open shared object file..."),
 * or -ENOSYS naming a missing entry point. */
int upk_cudrv_load(upk_cudrv *d, char *err, size_t err_len);

/** Load, cuInit, device `ordinal`, retain and make current its primary
 * context, read its properties. Returns 0, -ENOENT (no driver), -ENODEV (no
 * device, or cuInit failed; `err` names the CUDA error) or -EIO. */
int upk_cudrv_open(upk_cudrv *d, int ordinal, char *err, size_t err_len);

/** Release the context; unload libcuda when cuInit never ran. */
void upk_cudrv_close(upk_cudrv *d);

/** Whether a CUresult leaves the context unusable (the process must end):
 * 700, 702, 710, 714, 715, 716, 717, 718, 719, and 226 / 911 (contained
 * or external-device errors), as documented in cuda.h. */
bool upk_cu_is_sticky(upk_cu_result e);

/** "CUDA_ERROR_ILLEGAL_ADDRESS" for the codes this project names (a static
 * table, so it works with no driver); NULL for others. */
const char *upk_cu_error_name(upk_cu_result e);

/** "CUDA_ERROR_X (N): the driver's description" into buf; the driver is
 * asked when `d` is loaded, the static table otherwise. */
void upk_cu_describe(const upk_cudrv *d, upk_cu_result e, char *buf, size_t len);

/** Monotonic clock, nanoseconds. */
int64_t upk_cu_now_ns(void);

/** Wait for `event` by polling cuEventQuery until `deadline_ns`
 * (upk_cu_now_ns clock), so a hung kernel cannot block the worker past its
 * deadline. Returns the event's CUresult, or UPK_CU_NOT_READY when the
 * deadline passed first. */
upk_cu_result upk_cu_wait(const upk_cudrv *d, upk_cu_handle event, int64_t deadline_ns);

#endif
