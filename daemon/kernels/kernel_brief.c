/* validate_kernel's and run_kernel's answers within a budget (kernel_brief.h). */
#include "daemon/kernels/kernel_brief.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag_json.h"

enum {
  KERNELS_FIRST = 16, /* tried first; then one fewer until the answer fits */
  DIAGS_FIRST = 16,
  DIAGS_MIN = 3,
  /* what is added after the cut: the summary (at most 320 bytes), the counts left out, `more` */
  FIT_BUDGET = UPK_KERNEL_BRIEF_BUDGET - 512,
};

static size_t dumped_size(const json_t *j) {
  char *t = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
  size_t n = t ? strlen(t) : 0;
  free(t);
  return n;
}

/* A shallow copy of kernel `k` without what a model cannot use. */
static json_t *kernel_entry(const json_t *k) {
  static const char *const unset[] = {"launchBounds", "clusterDims", "launches"};
  json_t *c = json_copy((json_t *)k);
  if (json_is_string(json_object_get(c, "name")))
    json_object_del(c, "mangled");
  for (size_t i = 0; i < sizeof unset / sizeof *unset; i++) {
    json_t *v = json_object_get(c, unset[i]);
    if (json_is_null(v) || (json_is_array(v) && !json_array_size(v)))
      json_object_del(c, unset[i]);
  }
  return c;
}

/* The first `keep` of `all`, each as kernel_entry makes it (kernels) or as it is. */
static json_t *first(const json_t *all, size_t keep, bool kernels) {
  json_t *out = json_array();
  for (size_t i = 0; i < keep && i < json_array_size(all); i++) {
    json_t *x = json_array_get(all, i);
    json_array_append_new(out, kernels ? kernel_entry(x) : json_incref(x));
  }
  return out;
}

/* `key` of `out` cut from the end of `all` until `out` fits (not below `least`); how many
 * were left out. */
static size_t fit(json_t *out, const char *key, const json_t *all, size_t start, size_t least,
                  bool kernels) {
  size_t n = json_array_size(all), keep = n < start ? n : start;
  json_object_set_new(out, key, first(all, keep, kernels));
  while (keep > least && dumped_size(out) > FIT_BUDGET)
    json_object_set_new(out, key, first(all, --keep, kernels));
  return n - keep;
}

static void summarize(json_t *out, const json_t *result, size_t left_k, size_t left_d) {
  const json_t *diags = json_object_get(result, "diagnostics");
  size_t nk = json_array_size(json_object_get(result, "kernels"));
  size_t errors = upk_diags_json_count(diags, 1), warnings = upk_diags_json_count(diags, 2);
  char line[320];
  int n = snprintf(line, sizeof line, "%s: %zu kernel%s for %s (%s), %zu error%s, %zu warning%s.",
                   json_is_true(json_object_get(result, "ok")) ? "ok" : "not ok", nk,
                   nk == 1 ? "" : "s", json_string_value(json_object_get(result, "arch")) ?: "?",
                   json_string_value(json_object_get(result, "backend")) ?: "?", errors,
                   errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  if (left_k || left_d)
    snprintf(line + n, sizeof line - (size_t)n, " Shown: %zu kernels, %zu diagnostics.",
             nk - left_k, json_array_size(diags) - left_d);
  json_object_set_new(out, "summary", json_string(line));
}

json_t *upk_kernel_brief(const json_t *result, bool deps) {
  json_t *out = json_object(), *v;
  const char *key;
  json_object_set_new(out, "summary", json_string("")); /* first: set again below */
  json_object_foreach((json_t *)result, key, v) {
    if (!strcmp(key, "dependencies") && !deps)
      json_object_set_new(out, "dependencyCount", json_integer((json_int_t)json_array_size(v)));
    else if (strcmp(key, "kernels") && strcmp(key, "diagnostics"))
      json_object_set(out, key, v);
  }
  const json_t *kernels = json_object_get(result, "kernels");
  const json_t *diags = json_object_get(result, "diagnostics");
  /* kernels fitted beside the fewest diagnostics kept, then diagnostics in the room left */
  json_object_set_new(out, "diagnostics", first(diags, DIAGS_MIN, false));
  size_t left_k = 0, left_d = 0;
  if (kernels)
    left_k = fit(out, "kernels", kernels, KERNELS_FIRST, 1, true);
  if (diags)
    left_d = fit(out, "diagnostics", diags, DIAGS_FIRST, DIAGS_MIN, false);
  if (left_k)
    json_object_set_new(out, "kernelsOmitted", json_integer((json_int_t)left_k));
  if (left_d)
    json_object_set_new(out, "diagnosticsOmitted", json_integer((json_int_t)left_d));
  if (left_k || left_d)
    json_object_set_new(out, "more",
                        json_string("names: [\"kernel\", ...] reports the kernels named; the "
                                    "first diagnostics are the first in the file"));
  summarize(out, result, left_k, left_d);
  return out;
}
