/* The run op's answer when no device can run the kernel (gpu/worker/no_device.h). */
#include "gpu/worker/no_device.h"

#include <stdbool.h>
#include <string.h>

#include "gpu/run/cudrv.h"

/* No device: the compile's answer stands, and the message names the ways to a remote GPU. */
void upk_no_device(upk_diags *diags, upk_range at, const char *why) {
  upk_diags_add(diags, UPK_SEV_ERROR, "run/no-device", "upskilld-run", at,
                "no CUDA device: %s; the compile checks still ran, the kernel did not. A "
                "cluster's GPU can run it: UPSKILLD_WORKER_COMMAND=\"srun --gres=gpu:1 "
                "--time=00:05:00\" upskillctl check-kernel ... (the variable is read where the "
                "daemon starts), or upskilld --worker-command=\"srun --gres=gpu:1\" for an "
                "editor's or agent's daemon; docs/gpu.md, \"On a cluster\"",
                why);
}

/* The reference found no torch (diagnostics from `mark` on): where there is no device either,
 * that comes first, so nobody installs torch only to learn that no GPU can run the kernel. */
void upk_no_device_before_no_torch(upk_diags *diags, size_t mark, upk_range at) {
  bool no_torch = false;
  for (size_t i = mark; i < diags->len; i++)
    no_torch |= !strcmp(diags->items[i].code, "run/no-torch");
  if (!no_torch)
    return;
  upk_cudrv drv;
  char why[512];
  memset(&drv, 0, sizeof drv);
  int rc = upk_cudrv_open(&drv, 0, why, sizeof why);
  upk_cudrv_close(&drv);
  if (!rc)
    return;
  upk_no_device(diags, at, why);
  upk_diag first = diags->items[diags->len - 1];
  memmove(&diags->items[mark + 1], &diags->items[mark],
          (diags->len - 1 - mark) * sizeof diags->items[0]);
  diags->items[mark] = first;
}
