/* What both GPU test programs need: skip without a device (with the driver's
 * reason), find a diagnostic by code, and read run.ok. */
#ifndef UPK_TESTS_GPU_TEST_H
#define UPK_TESTS_GPU_TEST_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/run/cudrv.h"

static inline void need_device(void) {
  upk_cudrv d;
  char why[512];
  if (upk_cudrv_open(&d, 0, why, sizeof why))
    cr_skip_test("no CUDA device: %s", why);
  upk_cudrv_close(&d);
}

/* The first diagnostic of a result with this code, or NULL. */
static inline json_t *diag(json_t *r, const char *code) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    if (c && !strcmp(c, code))
      return d;
  }
  return NULL;
}

/* A diagnostic of `code` whose message holds `text`, or NULL. */
static inline json_t *diag_saying(json_t *r, const char *code, const char *text) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(r, "diagnostics"), i, d) {
    const char *c = json_string_value(json_object_get(d, "code"));
    const char *m = json_string_value(json_object_get(d, "message"));
    if (c && m && !strcmp(c, code) && strstr(m, text))
      return d;
  }
  return NULL;
}

/* A device, and a python3 (UPSKILLD_PYTHON, else python3) whose torch sees it. */
static inline void need_gpu_and_torch(void) {
  need_device();
  const char *py = getenv("UPSKILLD_PYTHON");
  char cmd[1200];
  snprintf(cmd, sizeof cmd,
           "'%s' -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' "
           ">/dev/null 2>&1",
           py && *py ? py : "python3");
  if (system(cmd) != 0)
    cr_skip_test("no python3 with CUDA torch (set UPSKILLD_PYTHON)");
}

static inline bool run_ok(json_t *r) {
  return json_is_true(json_object_get(json_object_get(r, "run"), "ok"));
}

#endif
