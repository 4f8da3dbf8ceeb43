/* The editor texts (daemon/lsp/lsp_text.c, lsp_fix.c) on kernel/validate-shaped results: the GPU
 * run's part of a lens (no GPU here: the run objects are written as docs/gpu.md documents
 * them), template instances in a hover, and the edits of the mechanical fixes. */
#include <criterion/criterion.h>
#include <string.h>

#include "daemon/lsp/lsp_fix.h"
#include "daemon/lsp/lsp_text.h"

static json_t *kernel(const char *name, int regs, int spill) {
  return json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:{s:i,s:i,s:i,s:f,s:s,s:b}}", "name", name,
                   "line", 3, "registers", regs, "spillStores", spill, "spillLoads", spill,
                   "sharedStatic", 4096, "constant", 0, "barriers", 1, "occupancy", "blockSize",
                   256, "blocksPerSM", 2, "activeWarps", 16, "percent", 25.0, "limiter",
                   "registers", "assumed", 0);
}

Test(lsp_text, lens_shows_resources_then_the_run) {
  json_t *k = kernel("scale<float>", 128, 0);
  char *t = upk_kernel_lens_title(k, NULL);
  cr_assert_str_eq(t, "scale<float>: 128 regs · no spills · smem 4096 B · occupancy 25% at 256 "
                      "threads (registers-bound)");
  free(t);
  json_t *run =
      json_pack("{s:b,s:{s:f},s:f}", "ok", 1, "timeMs", "median", 0.0041, "speedup", 1.05);
  t = upk_kernel_lens_title(k, run);
  cr_assert(strstr(t, "· 0.0041 ms, 1.05x the reference"), "%s", t);
  free(t);
  json_object_set_new(
      run, "limits",
      json_pack("{s:s}", "summary", "92% of HBM peak: memory-bound, near the limit"));
  t = upk_kernel_lens_title(k, run);
  cr_assert(strstr(t, "1.05x the reference · 92% of HBM peak: memory-bound, near the limit"), "%s",
            t);
  free(t);
  json_object_set_new(run, "ok", json_false());
  t = upk_kernel_lens_title(k, run);
  cr_assert(strstr(t, "· GPU run failed"), "%s", t);
  free(t);
  json_decref(run);
  json_decref(k);
  k = kernel("fat", 255, 24);
  t = upk_kernel_lens_title(k, NULL);
  cr_assert(strstr(t, "spills 24/24 B"), "%s", t);
  free(t);
  json_decref(k);
}

Test(lsp_text, hover_covers_every_template_instance) {
  json_t *r = json_pack("{s:s,s:s,s:[o,o,o]}", "arch", "sm_90a", "backend", "nvrtc", "kernels",
                        kernel("scale<float>", 16, 0), kernel("scale<double>", 20, 0),
                        kernel("scaled", 8, 0));
  char *md = upk_kernel_hover(r, NULL, "scale", -1);
  cr_assert(md && strstr(md, "**scale<float>**") && strstr(md, "**scale<double>**"), "%s", md);
  cr_assert_null(strstr(md, "**scaled**"), "%s", md);
  cr_assert(strstr(md, "| 1024 |") && strstr(md, "| 256 (judged) |"), "%s", md);
  free(md);
  cr_assert_null(upk_kernel_hover(r, NULL, "threadIdx", -1));
  json_decref(r);
}

/* On a launch line the hover starts with that launch's figures, once for a template's
 * instances; on another line, or for a launch whose block is not known, it says so. */
Test(lsp_text, hover_at_a_launch_line_gives_that_launch) {
  json_t *k = kernel("mm<32>", 40, 0), *k2 = kernel("mm<16>", 30, 0);
  json_t *launch = json_pack("{s:[i],s:[i,i,i],s:i,s:i,s:{s:f,s:s}}", "lines", 41, "block", 32, 32,
                             1, "blockSize", 1024, "dynamicSharedBytes", 0, "occupancy", "percent",
                             50.0, "limiter", "registers");
  json_object_set_new(k, "launches", json_pack("[o]", launch));
  json_object_set_new(k2, "launches",
                      json_pack("[{s:[i],s:s}]", "lines", 50, "unknown", "block size not known"));
  json_t *r =
      json_pack("{s:s,s:s,s:[o,o]}", "arch", "sm_90a", "backend", "nvrtc", "kernels", k, k2);
  char *md = upk_kernel_hover(r, NULL, "mm", 41);
  cr_assert(md && strstr(md, "**At this line** — launch: 32x32x1 = 1024 threads, 0 B dynamic "
                             "smem: 50% occupancy (registers)"),
            "%s", md);
  cr_assert_eq(strstr(strstr(md, "At this line") + 1, "At this line"), NULL, "once: %s", md);
  free(md);
  md = upk_kernel_hover(r, NULL, "mm", 50);
  cr_assert(md && strstr(md, "**At this line** — launch: block size not known"), "%s", md);
  free(md);
  md = upk_kernel_hover(r, NULL, "mm", 7);
  cr_assert(md && !strstr(md, "At this line"), "%s", md);
  free(md);
  json_decref(r);
}

Test(lsp_text, launch_bounds_fix_inserts_before_the_name) {
  json_t *d =
      json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s,s:s}", "range", "start", "line", 4, "character",
                16, "end", "line", 4, "character", 19, "code", "h100/low-occupancy", "message",
                "kernel 'fat' reaches 12.5% ...; 128 or fewer reach 25% "
                "(__launch_bounds__(256, 2) or -maxrregcount=128)");
  json_t *a = upk_lint_fix("file:///k.cu", "", 0, d);
  cr_assert(a);
  cr_assert_str_eq(json_string_value(json_object_get(a, "title")), "Add __launch_bounds__(256, 2)");
  json_t *e = json_array_get(
      json_object_get(json_object_get(json_object_get(a, "edit"), "changes"), "file:///k.cu"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(e, "newText")), "__launch_bounds__(256, 2) ");
  json_decref(a);
  json_object_set_new(d, "message", json_string("limited by shared memory: use less"));
  cr_assert_null(upk_lint_fix("file:///k.cu", "", 0, d), "no numbers, no fix");
  json_decref(d);
}

Test(lsp_text, skill_keys) {
  const char *t = "---\nname: x\ndescription: y\n---\nbody\n";
  json_t *c = upk_skill_key_completions(t, strlen(t), 2);
  cr_assert_eq(json_array_size(c), 4, "the 4 optional keys: %zu", json_array_size(c));
  json_decref(c);
  c = upk_skill_key_completions(t, strlen(t), 4);
  cr_assert_eq(json_array_size(c), 0);
  json_decref(c);
  char *h = upk_skill_key_hover(t, strlen(t), 1, "name");
  cr_assert(h && strstr(h, "1–64"), "%s", h);
  free(h);
  cr_assert_null(upk_skill_key_hover(t, strlen(t), 4, "body"));
}
