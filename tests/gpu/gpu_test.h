/* What both GPU test programs need: skip without a device (with the driver's
 * reason), find a diagnostic by code, and read run.ok. */
#ifndef UPK_TESTS_GPU_TEST_H
#define UPK_TESTS_GPU_TEST_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "cudrv.h"

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

static inline bool run_ok(json_t *r) {
  return json_is_true(json_object_get(json_object_get(r, "run"), "ok"));
}

#endif
