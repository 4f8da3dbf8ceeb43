/* The Driver API through dlopen (see cudrv.h). */
#include "gpu/run/cudrv.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/env_options.h"

enum { ABI_VERSION = 12000 }; /* the signatures in cudrv.h are CUDA 12.0's */

typedef upk_cu_result (*get_proc_fn)(const char *sym, void **pfn, int version,
                                     unsigned long long flags, int *status);

/* Base name (for cuGetProcAddress), the exported symbol with that ABI (for
 * dlsym on drivers older than 12.0), and where the pointer goes. */
static const struct entry {
  const char *base, *symbol;
  size_t offset;
} ENTRIES[] = {
#define E(base, sym, field)                                                                        \
  { base, sym, offsetof(upk_cu_api, field) }
    E("cuInit", "cuInit", Init),
    E("cuDriverGetVersion", "cuDriverGetVersion", DriverGetVersion),
    E("cuDeviceGet", "cuDeviceGet", DeviceGet),
    E("cuDeviceGetName", "cuDeviceGetName", DeviceGetName),
    E("cuDeviceGetAttribute", "cuDeviceGetAttribute", DeviceGetAttribute),
    E("cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain", DevicePrimaryCtxRetain),
    E("cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", DevicePrimaryCtxRelease),
    E("cuCtxSetCurrent", "cuCtxSetCurrent", CtxSetCurrent),
    E("cuCtxSynchronize", "cuCtxSynchronize", CtxSynchronize),
    E("cuModuleLoadDataEx", "cuModuleLoadDataEx", ModuleLoadDataEx),
    E("cuModuleUnload", "cuModuleUnload", ModuleUnload),
    E("cuModuleGetFunction", "cuModuleGetFunction", ModuleGetFunction),
    E("cuFuncGetAttribute", "cuFuncGetAttribute", FuncGetAttribute),
    E("cuFuncSetAttribute", "cuFuncSetAttribute", FuncSetAttribute),
    E("cuMemAlloc", "cuMemAlloc_v2", MemAlloc),
    E("cuMemFree", "cuMemFree_v2", MemFree),
    E("cuMemcpyHtoD", "cuMemcpyHtoD_v2", MemcpyHtoD),
    E("cuMemcpyDtoH", "cuMemcpyDtoH_v2", MemcpyDtoH),
    E("cuMemcpyDtoD", "cuMemcpyDtoD_v2", MemcpyDtoD),
    E("cuMemGetInfo", "cuMemGetInfo_v2", MemGetInfo),
    E("cuMemsetD8", "cuMemsetD8_v2", MemsetD8),
    E("cuMemsetD8Async", "cuMemsetD8Async", MemsetD8Async),
    E("cuLaunchKernel", "cuLaunchKernel", LaunchKernel),
    E("cuEventCreate", "cuEventCreate", EventCreate),
    E("cuEventRecord", "cuEventRecord", EventRecord),
    E("cuEventQuery", "cuEventQuery", EventQuery),
    E("cuEventSynchronize", "cuEventSynchronize", EventSynchronize),
    E("cuEventElapsedTime", "cuEventElapsedTime", EventElapsedTime),
    E("cuEventDestroy", "cuEventDestroy_v2", EventDestroy),
    E("cuStreamSynchronize", "cuStreamSynchronize", StreamSynchronize),
    E("cuGetErrorName", "cuGetErrorName", GetErrorName),
    E("cuGetErrorString", "cuGetErrorString", GetErrorString),
#undef E
};

static int resolve(upk_cudrv *d, char *err, size_t err_len) {
  get_proc_fn gpa = (get_proc_fn)dlsym(d->lib, "cuGetProcAddress_v2");
  for (size_t i = 0; i < sizeof ENTRIES / sizeof *ENTRIES; i++) {
    void *p = NULL;
    int status = 0;
    if (!gpa || gpa(ENTRIES[i].base, &p, ABI_VERSION, 0, &status) != UPK_CU_SUCCESS || !p)
      p = dlsym(d->lib, ENTRIES[i].symbol);
    if (!p) {
      snprintf(err, err_len, "the NVIDIA driver lacks %s (too old for this upskilld?)",
               ENTRIES[i].symbol);
      return -ENOSYS;
    }
    memcpy((char *)&d->cu + ENTRIES[i].offset, &p, sizeof p);
  }
  return 0;
}

int upk_cudrv_load(upk_cudrv *d, char *err, size_t err_len) {
  memset(d, 0, sizeof *d);
  const char *name = upk_env_opts()->libcuda ? upk_env_opts()->libcuda : "libcuda.so.1";
  d->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!d->lib) {
    const char *e = dlerror();
    snprintf(err, err_len, "no NVIDIA driver: %s", e ? e : name);
    return -ENOENT;
  }
  int rc = resolve(d, err, err_len);
  if (rc) {
    dlclose(d->lib);
    d->lib = NULL;
  }
  return rc;
}

static int attr(upk_cudrv *d, int which) {
  int v = 0;
  return d->cu.DeviceGetAttribute(&v, which, d->device) == UPK_CU_SUCCESS ? v : 0;
}

static void read_properties(upk_cudrv *d) {
  if (d->cu.DeviceGetName(d->name, (int)sizeof d->name, d->device) != UPK_CU_SUCCESS)
    snprintf(d->name, sizeof d->name, "CUDA device %d", d->device);
  d->cu.DriverGetVersion(&d->driver_version);
  d->sm_major = attr(d, UPK_CU_DEV_CC_MAJOR);
  d->sm_minor = attr(d, UPK_CU_DEV_CC_MINOR);
  d->sm_count = attr(d, UPK_CU_DEV_SM_COUNT);
  d->l2_bytes = attr(d, UPK_CU_DEV_L2_CACHE_SIZE);
  d->max_threads_per_block = attr(d, UPK_CU_DEV_MAX_THREADS_PER_BLOCK);
  d->smem_per_block = attr(d, UPK_CU_DEV_MAX_SHARED_PER_BLOCK);
  d->smem_optin = attr(d, UPK_CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN);
  d->clock_khz = attr(d, UPK_CU_DEV_CLOCK_RATE);
  d->memory_clock_khz = attr(d, UPK_CU_DEV_MEMORY_CLOCK_RATE);
  d->bus_width_bits = attr(d, UPK_CU_DEV_GLOBAL_MEMORY_BUS_WIDTH);
}

/* A failed call during open: say which, with the driver's words. */
static int open_failed(upk_cudrv *d, const char *what, upk_cu_result e, char *err, size_t len) {
  char why[256];
  upk_cu_describe(d, e, why, sizeof why);
  snprintf(err, len, "%s failed: %s", what, why);
  return e == UPK_CU_NO_DEVICE || !d->initialised ? -ENODEV : -EIO;
}

int upk_cudrv_open(upk_cudrv *d, int ordinal, char *err, size_t err_len) {
  int rc = upk_cudrv_load(d, err, err_len);
  if (rc)
    return rc;
  upk_cu_result e = d->cu.Init(0);
  if (e != UPK_CU_SUCCESS)
    return open_failed(d, "cuInit", e, err, err_len);
  d->initialised = true;
  if ((e = d->cu.DeviceGet(&d->device, ordinal)) != UPK_CU_SUCCESS)
    return open_failed(d, "cuDeviceGet", e, err, err_len);
  if ((e = d->cu.DevicePrimaryCtxRetain(&d->ctx, d->device)) != UPK_CU_SUCCESS)
    return open_failed(d, "cuDevicePrimaryCtxRetain", e, err, err_len);
  d->ctx_retained = true;
  if ((e = d->cu.CtxSetCurrent(d->ctx)) != UPK_CU_SUCCESS)
    return open_failed(d, "cuCtxSetCurrent", e, err, err_len);
  read_properties(d);
  return 0;
}

void upk_cudrv_close(upk_cudrv *d) {
  if (d->ctx_retained)
    d->cu.DevicePrimaryCtxRelease(d->device);
  /* Unloading libcuda after cuInit is not supported by the driver. */
  if (d->lib && !d->initialised)
    dlclose(d->lib);
  memset(d, 0, sizeof *d);
}

static const struct {
  upk_cu_result code;
  const char *name, *text;
} ERRORS[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain"},
    {226, "CUDA_ERROR_CONTAINED", "a hardware error was contained"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE",
     "operation not supported on global/shared address space"},
    {718, "CUDA_ERROR_INVALID_PC", "invalid program counter"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE", "an error from an external device"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

bool upk_cu_is_sticky(upk_cu_result e) {
  switch (e) {
  case 226:
  case 700:
  case 702:
  case 710:
  case 714:
  case 715:
  case 716:
  case 717:
  case 718:
  case 719:
  case 911:
    return true;
  default:
    return false;
  }
}

const char *upk_cu_error_name(upk_cu_result e) {
  for (size_t i = 0; i < sizeof ERRORS / sizeof *ERRORS; i++)
    if (ERRORS[i].code == e)
      return ERRORS[i].name;
  return NULL;
}

void upk_cu_describe(const upk_cudrv *d, upk_cu_result e, char *buf, size_t len) {
  const char *name = NULL, *text = NULL;
  if (d && d->lib && d->cu.GetErrorName && d->cu.GetErrorName(e, &name) != UPK_CU_SUCCESS)
    name = NULL;
  if (d && d->lib && d->cu.GetErrorString && d->cu.GetErrorString(e, &text) != UPK_CU_SUCCESS)
    text = NULL;
  for (size_t i = 0; i < sizeof ERRORS / sizeof *ERRORS && (!name || !text); i++) {
    if (ERRORS[i].code != e)
      continue;
    name = name ? name : ERRORS[i].name;
    text = text ? text : ERRORS[i].text;
  }
  snprintf(buf, len, "%s (%d): %s", name ? name : "CUDA error", e, text ? text : "no description");
}

int64_t upk_cu_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

upk_cu_result upk_cu_wait(const upk_cudrv *d, upk_cu_handle event, int64_t deadline_ns) {
  /* Poll with a short sleep that grows to 1 ms: fast kernels answer in
   * microseconds, a hung one costs little CPU until the deadline. */
  long sleep_ns = 2000;
  for (;;) {
    upk_cu_result e = d->cu.EventQuery(event);
    if (e != UPK_CU_NOT_READY)
      return e;
    if (upk_cu_now_ns() >= deadline_ns)
      return UPK_CU_NOT_READY;
    struct timespec ts = {0, sleep_ns};
    nanosleep(&ts, NULL);
    if (sleep_ns < 1000000)
      sleep_ns *= 2;
  }
}
