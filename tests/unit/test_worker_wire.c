/* gpu/worker/wire.h: the daemon's keys of a worker request and a worker's answer survive
 * encode -> JSON text -> decode field for field; a key of the wrong type is refused, by the
 * decoder and by the worker's own parser (upk_kernel_validate_json) before any compile. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/compile/validate.h"
#include "gpu/run/runspec.h"
#include "gpu/worker/wire.h"
#include "tests/unit/unit.h"

/* Through text, as the pipe carries it. */
static json_t *through_text(json_t *v) {
  char *text = json_dumps(v, JSON_COMPACT);
  cr_assert_not_null(text);
  json_t *back = json_loads(text, 0, NULL);
  cr_assert_not_null(back, "not JSON: %s", text);
  free(text);
  json_decref(v);
  return back;
}

static void same_strv(const char **got, size_t n_got, const char *const *want, size_t n) {
  cr_assert_eq(n_got, n);
  for (size_t i = 0; i < n; i++)
    cr_assert_str_eq(got[i], want[i]);
}

UTest(worker_wire, request_round_trip) {
  const char *allowed[] = {"/w", "/w/k"}, *allow_options[] = {"-maxrregcount=*"},
             *trusted[] = {"/p"};
  upk_wire_req in = {.cuda_path = "/opt/cuda",
                     .pch = true,
                     .project_aware = true,
                     .project_includes = true,
                     .no_cache = true,
                     .allowed = allowed,
                     .n_allowed = 2,
                     .allow_options = allow_options,
                     .n_allow_options = 1,
                     .trusted_projects = trusted,
                     .n_trusted_projects = 1};
  json_t *p = json_pack("{s:s}", "source", "__global__ void k() {}");
  cr_assert_eq(upk_wire_req_encode(&in, p), 0);
  p = through_text(p);
  cr_assert_str_eq(json_string_value(json_object_get(p, "source")), "__global__ void k() {}",
                   "the request's own keys are kept");
  upk_wire_req out;
  char err[128] = "";
  cr_assert_eq(upk_wire_req_decode(p, &out, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(out.cuda_path, "/opt/cuda");
  cr_assert(out.pch && out.project_aware && out.project_includes && out.no_cache);
  same_strv(out.allowed, out.n_allowed, allowed, 2);
  same_strv(out.allow_options, out.n_allow_options, allow_options, 1);
  same_strv(out.trusted_projects, out.n_trusted_projects, trusted, 1);
  upk_wire_req_free(&out);
  json_decref(p);
}

/* What is left unset is not sent, and reads back unset; an empty list set is sent empty. */
UTest(worker_wire, unset_and_empty) {
  const char *none[1];
  upk_wire_req in = {.allowed = none};
  json_t *p = through_text(json_object());
  cr_assert_eq(upk_wire_req_encode(&in, p), 0);
  cr_assert_eq(json_object_size(p), 1, "only allowed, empty");
  cr_assert_eq(json_array_size(json_object_get(p, "allowed")), 0);
  upk_wire_req out;
  cr_assert_eq(upk_wire_req_decode(p, &out, NULL, 0), 0);
  cr_assert(!out.cuda_path && !out.pch && !out.project_aware && !out.project_includes &&
            !out.no_cache && !out.allow_options && !out.trusted_projects);
  cr_assert_not_null(out.allowed);
  cr_assert_eq(out.n_allowed, 0);
  upk_wire_req_free(&out);
  cr_assert_eq(upk_wire_req_encode(&in, NULL), -EINVAL, "a request must be an object");
  json_decref(p);
}

/* Each key with a wrong type: refused, naming the key. */
UTest(worker_wire, wrong_types_refused) {
  static const struct {
    const char *json, *says;
  } bad[] = {
      {"{\"cudaPath\": 12}", "params.cudaPath must be a string"},
      {"{\"pch\": \"yes\"}", "params.pch must be true or false"},
      {"{\"projectAware\": 1}", "params.projectAware must be true or false"},
      {"{\"projectIncludes\": null}", "params.projectIncludes must be true or false"},
      {"{\"noCache\": \"true\"}", "params.noCache must be true or false"},
      {"{\"allowed\": \"/w\"}", "params.allowed must be an array of strings"},
      {"{\"allowed\": [\"/w\", 3]}", "params.allowed must be an array of strings"},
      {"{\"allowOptions\": {}}", "params.allowOptions must be an array of strings"},
      {"{\"trustedProjects\": [null]}", "params.trustedProjects must be an array of strings"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    json_t *p = json_loads(bad[i].json, 0, NULL);
    upk_wire_req out;
    char err[128] = "";
    cr_assert_eq(upk_wire_req_decode(p, &out, err, sizeof err), -EINVAL, "%s", bad[i].json);
    cr_assert_str_eq(err, bad[i].says);
    cr_assert_null(out.allowed, "nothing is left to free after a refusal");
    /* The worker's parser refuses it too, before compiling anything. */
    json_object_set_new(p, "source", json_string("__global__ void k() {}"));
    err[0] = '\0';
    json_t *r = upk_kernel_validate_json(p, err, sizeof err);
    cr_assert_null(r, "%s was compiled", bad[i].json);
    cr_assert_str_eq(err, bad[i].says);
    json_decref(p);
  }
}

UTest(worker_wire, answer_round_trip) {
  json_t *id = json_integer(7), *result = json_pack("{s:b}", "ok", 1);
  json_t *msg = through_text(upk_wire_result_encode(id, &(upk_wire_result){result, NULL}));
  upk_wire_result r;
  cr_assert_eq(upk_wire_result_decode(msg, 7, &r), 0);
  cr_assert(json_equal(r.result, result));
  cr_assert_null(r.error);
  cr_assert_eq(upk_wire_result_decode(msg, 8, &r), -EPROTO, "another request's answer");
  json_decref(msg);
  msg = through_text(upk_wire_result_encode(id, &(upk_wire_result){NULL, "no toolkit"}));
  cr_assert_eq(upk_wire_result_decode(msg, 7, &r), 0);
  cr_assert_null(r.result);
  cr_assert_str_eq(r.error, "no toolkit");
  json_decref(msg);
  static const char *const bad[] = {"{\"id\": 7}", "{\"id\": \"7\", \"result\": {}}",
                                    "{\"id\": 7, \"result\": {}, \"error\": {\"message\": \"x\"}}",
                                    "{\"id\": 7, \"error\": {\"message\": 3}}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    msg = json_loads(bad[i], 0, NULL);
    cr_assert_eq(upk_wire_result_decode(msg, 7, &r), -EPROTO, "%s", bad[i]);
    json_decref(msg);
  }
  json_decref(id);
  json_decref(result);
}

/* The kernel request's one encoder: every field under its key, through text; a vector left NULL
 * sends no key and one of no items an empty array (each caller's cache key depends on which). */
UTest(worker_wire, kernel_request_encodes_every_key) {
  const char *inc[] = {"/w/inc"}, *def[] = {"N=4"}, *opt[] = {"-lineinfo"}, *names[] = {"k"};
  const json_int_t blocks[] = {128, 256}, dsb = 4096;
  json_t *per = json_pack("{s:{s:i}}", "k", "blockSize", 64);
  json_t *run = json_pack("{s:s}", "kernel", "k");
  upk_kernel_req r = {.source = "__global__ void k() {}\nXX",
                      .source_len = 22, /* the text before "\nXX" */
                      .file_name = "k.cu",
                      .file_dir = "/w",
                      .includes = inc,
                      .n_includes = 1,
                      .defines = def,
                      .n_defines = 1,
                      .options = opt,
                      .n_options = 1,
                      .names = names,
                      .n_names = 1,
                      .block_sizes = blocks,
                      .n_block_sizes = 2,
                      .dynamic_shared_bytes = &dsb,
                      .arch = "sm_90a",
                      .std = "c++17",
                      .backend = "nvcc",
                      .per_kernel = per,
                      .run = run,
                      .python = "/usr/bin/python3",
                      .wire = {.cuda_path = "/opt/cuda", .pch = true}};
  json_t *p = through_text(upk_kernel_req_encode(&r));
  json_t *want = json_pack(
      "{s:s,s:s,s:s,s:[s],s:[s],s:[s],s:[s],s:[i,i],s:i,s:s,s:s,s:s,s:O,s:O,s:s,s:s,s:b}", "source",
      "__global__ void k() {}", "fileName", "k.cu", "fileDir", "/w", "includes", "/w/inc",
      "defines", "N=4", "options", "-lineinfo", "names", "k", "blockSizes", 128, 256,
      "dynamicSharedBytes", 4096, "arch", "sm_90a", "std", "c++17", "backend", "nvcc", "perKernel",
      per, "run", run, "python", "/usr/bin/python3", "cudaPath", "/opt/cuda", "pch", 1);
  char *got = json_dumps(p, JSON_SORT_KEYS | JSON_COMPACT);
  cr_assert(json_equal(p, want), "encoded: %s", got);
  free(got);
  json_decref(want);
  json_decref(p);

  static const char *none[1];
  upk_kernel_req bare = {.path = "/w/k.cu", .includes = none};
  p = upk_kernel_req_encode(&bare);
  want = json_pack("{s:s,s:[]}", "path", "/w/k.cu", "includes");
  cr_assert(json_equal(p, want), "a NULL vector sent a key, or an empty one none");
  json_decref(want);
  json_decref(p);
  json_decref(per);
  json_decref(run);
}

/* A run's deadline is computed in one place: its timeoutMs (or the default), its PyTorch
 * helper's before it (or that default), and a second for the worker to stop a hung kernel. */
UTest(worker_wire, kernel_request_run_deadline) {
  upk_kernel_req r = {.source = "x"};
  cr_assert_eq(upk_kernel_req_run_ms(&r), 0, "no run, no time past the compile");
  r.run = json_pack("{s:i}", "timeoutMs", 500);
  cr_assert_eq(upk_kernel_req_run_ms(&r), 1500);
  json_object_set_new(r.run, "reference", json_pack("{s:{s:i}}", "pytorch", "timeoutMs", 2000));
  cr_assert_eq(upk_kernel_req_run_ms(&r), 3500);
  json_object_del(r.run, "timeoutMs");
  json_object_set_new(r.run, "reference", json_pack("{s:{}}", "pytorch"));
  cr_assert_eq(upk_kernel_req_run_ms(&r),
               UPK_RUN_TIMEOUT_DEFAULT_MS + UPK_RUN_PY_TIMEOUT_DEFAULT_MS + 1000);
  json_decref(r.run);
}
