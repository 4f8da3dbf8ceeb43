/* kernel/validate (MCP tool `validate_kernel`): check params on the loop,
 * resolve paths against the workspace, hand the work to the kernel service
 * (cache, then a worker), answer its result. Every failure of the kernel or
 * of the worker is a diagnostic in an ok:false result, not a JSON-RPC error:
 * agents act on diagnostics. Only malformed params are -32602. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag_json.h"
#include "common/env_options.h"
#include "common/xalloc.h"
#include "daemon/core/guard.h"
#include "daemon/core/jobs.h"
#include "daemon/core/tool_results.h"
#include "daemon/kernels/kernel_brief.h"
#include "daemon/kernels/kernel_methods.h"
#include "daemon/kernels/kernel_service.h"
#include "daemon/kernels/workers.h"
#include "daemon/lsp/documents.h"
#include "gpu/run/runspec.h"
#include "gpu/worker/wire.h"

enum {
  SOURCE_CAP = 16 << 20, /* bytes of inline source (the worker caps files alike) */
  TIMEOUT_MAX = 600000,  /* ms: the longest hard stop for a compile (default: the table's) */
};

#define STRINGS UPK_ITEMS(UPK_T_STRING)

/* clang-format off */
/* What a compile takes: validate_kernel's params, and run_kernel's with its `run`. Expert ones
 * are accepted but not listed in the tool's schema (x: listed for validate_kernel, not for
 * run_kernel, whose listing would repeat validate_kernel's). */
#define COMPILE_PARAMS(x)                                                                             \
  {"source", UPK_T_TEXT, 0, "CUDA source text (device code or a whole file)."},   \
  {"path", UPK_T_STRING, 0, "A .cu file instead of source (relative to the workspace)."},         \
  {"project", UPK_T_STRING, 0,                                                                     \
   "A kernel-builder project directory (build.toml). Every [kernel.*] source is compiled for "     \
   "each of its cuda-capabilities.", .expert = x},                                                                      \
  {"backend", UPK_T_STRING, 0,                                                                     \
   "auto: nvcc for files with host code, else nvrtc.",                                              \
   UPK_ONE_OF("auto", "nvrtc", "nvcc"), .def = "auto", .expert = 1},                                            \
  {"fileName", UPK_T_STRING, 0, "Name for inline source in diagnostics.", .def = "kernel.cu", .expert = 1},     \
  {"names", UPK_T_ARRAY, 0, "Kernels to report, e.g. [\"scale<float>\"] (default: all).",         \
   STRINGS, .expert = x},                                                                                       \
  {"arch", UPK_T_STRING, 0, "Target, default sm_90a (H100); any NVRTC -arch value.", .expert = 1},             \
  {"std", UPK_T_STRING, 0, "C++ dialect, default c++17.", .expert = 1},                                         \
  {"defines", UPK_T_ARRAY, 0, "Macros: [\"N=128\", \"USE_TMA\"].", STRINGS, .expert = x},                       \
  {"includes", UPK_T_ARRAY, 0, "Extra include directories (relative to the workspace).", STRINGS, .expert = x}, \
  {"options", UPK_T_ARRAY, 0, "Extra NVRTC options, e.g. [\"-maxrregcount=64\"].", STRINGS, .expert = x},      \
  {"blockSize", UPK_T_INTEGER, 0, "Threads per block for occupancy.", UPK_RANGE(1, 1024), .expert = 1},        \
  {"blockSizes", UPK_T_ARRAY, 0, "Several block sizes: occupancy for each.",                       \
   UPK_ITEMS_OF(.type = UPK_T_INTEGER, UPK_RANGE(1, 1024)), .expert = 1},                                       \
  {"dynamicSharedBytes", UPK_T_INTEGER, 0, "Dynamic shared memory per block, bytes.", UPK_MIN(0), .expert = 1}, \
  {"perKernel", UPK_T_OBJECT, 0,                                                                   \
   "Per kernel (a name, or one instantiation): {\"matrixMul\": {\"blockSize\": 1024, "             \
   "\"dynamicSharedBytes\": 4096}}; ahead of blockSize and dynamicSharedBytes.", .expert = 1},     \
  {"timeoutMs", UPK_T_INTEGER, 0, "Hard limit for the compile.", UPK_RANGE(1, TIMEOUT_MAX),        \
   .def = "60000", .expert = 1},                                                                                \
  {"cache", UPK_T_BOOLEAN, 0, "false: compile again even when an identical result is cached.",     \
   .def = "true", .expert = 1},                                                                                \
  {"dependencies", UPK_T_BOOLEAN, 0, "List the headers reached, not only their count.",          \
   .def = "false", .expert = x}
#define RUN_PARAM(required)                                                                        \
  {"run", UPK_T_OBJECT, required,                                                                  \
   "The launch and its check: {kernel, grid, block, sharedBytes, args, reference, "  \
   "atol, rtol, trials, warmup, iterations, timeoutMs, sanitizer}. A reference {pytorch: {path | "   \
   "source}} checks it against a KernelBench-style PyTorch problem, {pytorch: {op, args, "         \
   "project?}} against a torch op of a kernel-builder project's torch-ext/ (docs/gpu.md)."}
/* clang-format on */

/* kernel/validate (LSP, upskillctl): a compile, and a run when `run` is given. */
static const upk_param validate_params[] = {COMPILE_PARAMS(0), RUN_PARAM(0), {0}};
/* validate_kernel: a compile only, so that agents may approve it as read-only. */
static const upk_param compile_params[] = {COMPILE_PARAMS(0), {0}};
/* run_kernel: a compile and a run. */
static const upk_param run_params[] = {COMPILE_PARAMS(1), RUN_PARAM(1), {0}};

static int bad(upk_job *job, const char *fmt, const char *what) {
  upk_job_fail(job, UPK_RPC_INVALID_PARAMS, fmt, what);
  return -1;
}

/* A path from a client: relative ones are relative to the workspace. */
static json_t *abs_path(const upk_server *s, const char *p) {
  char buf[PATH_MAX];
  if (p[0] == '/' || !upk_session_workspace(s))
    return json_string(p);
  snprintf(buf, sizeof buf, "%s/%s", upk_session_workspace(s), p);
  return json_string(buf);
}

/* What a request's wire form holds beyond the client's params, alive until the check is sent:
 * the absolute paths made here, the vectors, the run as the worker gets it. */
typedef struct kreq_store {
  json_t *keep; /* the strings made here */
  const char **v[5];
  json_int_t *blocks;
  json_int_t dsb;
  json_t *places, *run;
} kreq_store;

static void kreq_store_free(kreq_store *st) {
  for (size_t i = 0; i < 5; i++)
    free(st->v[i]);
  free(st->blocks);
  json_decref(st->keep);
  json_decref(st->places);
  json_decref(st->run);
}

static const char *abs_str(kreq_store *st, const upk_server *s, const char *p) {
  json_t *a = abs_path(s, p);
  json_array_append_new(st->keep, a);
  return json_string_value(a);
}

/* params[key]'s strings (the table checked each is one; paths made absolute) and `extra` when
 * not NULL, in vector `slot`: never NULL, so the key is always sent. */
static const char **strv(kreq_store *st, const upk_server *s, json_t *params, const char *key,
                         size_t slot, const char *extra, size_t *n) {
  json_t *a = json_object_get(params, key), *x;
  const char **v = st->v[slot] = upk_xcalloc(json_array_size(a) + 2, sizeof *v);
  size_t i;
  *n = 0;
  json_array_foreach(a, i, x) v[(*n)++] =
      slot == 0 ? abs_str(st, s, json_string_value(x)) : json_string_value(x);
  if (extra)
    v[(*n)++] = extra;
  return v;
}

/* blockSize and blockSizes together; the table checked their range. */
static json_int_t *block_sizes(kreq_store *st, json_t *params, size_t *n) {
  json_t *one = json_object_get(params, "blockSize"), *many = json_object_get(params, "blockSizes");
  json_t *x;
  size_t i;
  st->blocks = upk_xcalloc(json_array_size(many) + 2, sizeof *st->blocks);
  *n = 0;
  if (one)
    st->blocks[(*n)++] = json_integer_value(one);
  json_array_foreach(many, i, x) st->blocks[(*n)++] = json_integer_value(x);
  return st->blocks;
}

static int source_or_path(upk_job *job, json_t *params, upk_kernel_req *r, kreq_store *st) {
  json_t *src = json_object_get(params, "source"), *path = json_object_get(params, "path");
  json_t *project = json_object_get(params, "project");
  if ((src != NULL) + (path != NULL) + (project != NULL) != 1)
    return bad(job, "params: give exactly one of %s", "source, path or project");
  if (project) { /* a kernel-builder project: a directory holding build.toml */
    r->project = abs_str(st, job->server, json_string_value(project));
    return 0;
  }
  if (path) {
    r->path = abs_str(st, job->server, json_string_value(path));
    r->wire.project_includes = true; /* a real file may include what its project holds */
    return 0;
  }
  r->source = json_string_value(src);
  r->source_len = json_string_length(src);
  r->file_name = json_string_value(json_object_get(params, "fileName"));
  return 0;
}

/* perKernel: at most PER_KERNEL_MAX names of at most PER_KERNEL_NAME bytes (a kernel's name, not
 * a megabyte echoed back), each value an object of blockSize (1..1024) and dynamicSharedBytes
 * (>= 0). */
enum { PER_KERNEL_MAX = 1024, PER_KERNEL_NAME = 512 }; /* as the messages say */
static int per_kernel(upk_job *job, json_t *params, upk_kernel_req *r) {
  json_t *per = json_object_get(params, "perKernel"), *v, *x;
  const char *name, *key;
  if (!per)
    return 0;
  if (json_object_size(per) > PER_KERNEL_MAX)
    return bad(job, "params.perKernel: at most 1024 kernels%s", "");
  json_object_foreach(per, name, v) {
    if (strlen(name) > PER_KERNEL_NAME)
      return bad(job, "params.perKernel: a kernel's name is at most 512 bytes ('%.40s...')", name);
    if (!json_is_object(v) || !*name)
      return bad(job, "params.perKernel.%s must be {blockSize?, dynamicSharedBytes?}", name);
    json_object_foreach(v, key, x) {
      bool block = !strcmp(key, "blockSize"), smem = !strcmp(key, "dynamicSharedBytes");
      json_int_t n = json_integer_value(x);
      if (!(block || smem) || !json_is_integer(x) || n < (block ? 1 : 0) ||
          n > (block ? 1024 : 1 << 30))
        return bad(job,
                   "params.perKernel.%s: blockSize is 1 to 1024, dynamicSharedBytes 0 or more "
                   "bytes; nothing else",
                   name);
    }
  }
  r->per_kernel = per;
  return 0;
}

/* The compile's flags as the worker gets them; auto, the table's default backend, is the
 * worker's too: left out, the cache key stays that of a request that does not say
 * (documents.c's). */
static void flags(kreq_store *st, const upk_server *s, json_t *params, upk_kernel_req *r) {
  r->includes = strv(st, s, params, "includes", 0, upk_session_workspace(s), &r->n_includes);
  r->defines = strv(st, s, params, "defines", 1, NULL, &r->n_defines);
  r->options = strv(st, s, params, "options", 2, NULL, &r->n_options);
  r->names = strv(st, s, params, "names", 3, NULL, &r->n_names);
  r->block_sizes = block_sizes(st, params, &r->n_block_sizes);
  r->arch = json_string_value(json_object_get(params, "arch"));
  r->std = json_string_value(json_object_get(params, "std"));
  json_t *dsb = json_object_get(params, "dynamicSharedBytes");
  st->dsb = json_integer_value(dsb);
  r->dynamic_shared_bytes = dsb ? &st->dsb : NULL;
  const char *backend = json_string_value(json_object_get(params, "backend"));
  r->backend = strcmp(backend, "auto") ? backend : NULL;
}

/* The worker's request: everything resolved, nothing left to the worker's cwd. -1 once the job
 * has failed. */
static int wire_req(upk_job *job, json_t *params, upk_kernel_req *r, kreq_store *st) {
  upk_server *s = job->server;
  st->keep = json_array();
  if (source_or_path(job, params, r, st) || per_kernel(job, params, r))
    return -1;
  flags(st, s, params, r);
  /* Includes may come from the workspace and the directories the user's --agent-path gives
   * agents: the places of guard.h that need no config (those an agent may also write). */
  st->places = upk_guard_places(upk_session_workspace(s), upk_session_options(s), NULL, true);
  size_t n = json_array_size(st->places);
  const char **allowed = st->v[4] = upk_xcalloc(n + 1, sizeof *allowed);
  for (size_t i = 0; i < n; i++)
    allowed[i] = json_string_value(json_array_get(st->places, i));
  r->wire.allowed = n ? allowed : NULL;
  r->wire.n_allowed = n;
  r->wire.cuda_path = upk_kernels_cuda_path(s);
  r->wire.pch = true;
  return 0;
}

/* One check in flight: the job, the check (to cancel it) and, for a run, its spec. */
typedef struct vcheck {
  upk_job *job;
  upk_kcheck *check;
  json_t *run;
  bool brief, deps; /* an agent's tool call: the answer within its budget (kernel_brief.h) */
} vcheck;

static void on_result(void *arg, json_t *result) {
  vcheck *v = arg;
  upk_job *job = v->job;
  job->data = NULL;
  if (v->run) /* an open document shows the run's time in its kernel's lens */
    upk_docs_note_run(job->server, json_string_value(json_object_get(result, "file")), v->run,
                      result);
  bool brief = v->brief, deps = v->deps;
  json_decref(v->run);
  free(v);
  upk_job_reply(job, brief ? upk_kernel_brief(result, deps) : json_incref(result));
}

static void on_cancel(upk_job *job) {
  vcheck *v = job->data;
  job->data = NULL;
  upk_kcheck_cancel(v->check); /* on_result will not run: release the job here */
  json_decref(v->run);
  free(v);
  upk_job_fail(job, UPK_RPC_REQUEST_CANCELLED, "request cancelled");
}

static void too_large(upk_job *job, size_t len) {
  upk_diags d = {0};
  upk_diags_add(&d, UPK_SEV_ERROR, "kernel/source-too-large", "upskilld", upk_range_line(0, 0, 0),
                "the source is %.1f MB, over the %d MB limit for one kernel source",
                len / 1048576.0, SOURCE_CAP >> 20);
  upk_job_reply(job,
                json_pack("{s:b,s:o,s:[]}", "ok", 0, "diagnostics", upk_diags_json(&d), "kernels"));
  upk_diags_free(&d);
}

/* A run's files, each read by the worker: a reference kernel's source (reference.path), the
 * expected output (reference.file) and inputs (args[i].init.file). fn(arg, key's holder, key,
 * what) for each that is a string; false stops. */
static bool each_run_file(json_t *run, bool (*fn)(void *, json_t *, const char *, const char *),
                          void *arg) {
  json_t *ref = json_object_get(run, "reference"), *a;
  static const char *const keys[] = {"path", "file"};
  for (size_t k = 0; k < 2; k++)
    if (json_is_string(json_object_get(ref, keys[k])) &&
        !fn(arg, ref, keys[k], k ? "run.reference.file" : "run.reference.path"))
      return false;
  size_t i;
  json_array_foreach(json_object_get(run, "args"), i, a) {
    json_t *init = json_object_get(a, "init");
    char what[64];
    snprintf(what, sizeof what, "run.args[%zu].init.file", i);
    if (json_is_string(json_object_get(init, "file")) && !fn(arg, init, "file", what))
      return false;
  }
  return true;
}

static bool guard_run_file(void *job, json_t *holder, const char *key, const char *what) {
  return upk_guard_path(job, json_string_value(json_object_get(holder, key)), false, what);
}

/* An agent's run reads only files in its places, as eval_skill's guard has it (guard.h). */
static bool run_files_guarded(upk_job *job, json_t *run) {
  return each_run_file(run, guard_run_file, job);
}

/* The worker reads a run's files where the guard looked: relative ones in the workspace. */
static bool absolute_run_file(void *server, json_t *holder, const char *key, const char *what) {
  json_object_set_new(holder, key,
                      abs_path(server, json_string_value(json_object_get(holder, key))));
  return true;
}

/* The run as the worker gets it: a PyTorch problem's path resolved against
 * the workspace, and the python3 to run its helper with. */
static json_t *wire_run(upk_job *job, json_t *run, upk_kernel_req *r) {
  const upk_server *s = job->server;
  json_t *copy = json_deep_copy(run);
  each_run_file(copy, absolute_run_file, (void *)s);
  json_t *py = json_object_get(json_object_get(copy, "reference"), "pytorch");
  const char *path = json_string_value(json_object_get(py, "path"));
  const char *python =
      upk_session_options(s)->python ? upk_session_options(s)->python : upk_env_opts()->python;
  const char *project = json_string_value(json_object_get(py, "project"));
  if (path)
    json_object_set_new(py, "path", abs_path(s, path));
  if (project) /* a torch op's kernel-builder project */
    json_object_set_new(py, "project", abs_path(s, project));
  if (py && python && *python)
    r->python = python;
  return copy;
}

/* An agent's paths stay in its places, and a PyTorch reference (Python it names, run on the
 * host) needs the user's --agent-allow=python (guard.h). False once the job has failed. */
static bool guarded(upk_job *job, json_t *params) {
  static const char *const one[] = {"path", "project"};
  for (size_t i = 0; i < 2; i++) {
    const char *p = json_string_value(json_object_get(params, one[i]));
    char what[32];
    snprintf(what, sizeof what, "params.%s", one[i]);
    if (p && !upk_guard_path(job, p, false, what))
      return false;
  }
  json_t *x;
  size_t i;
  json_array_foreach(json_object_get(params, "includes"), i, x) {
    if (!upk_guard_path(job, json_string_value(x), false, "params.includes"))
      return false;
  }
  if (!run_files_guarded(job, json_object_get(params, "run")))
    return false;
  json_t *py =
      json_object_get(json_object_get(json_object_get(params, "run"), "reference"), "pytorch");
  if (!py)
    return true;
  if (!upk_guard_allow(job, UPK_AGENT_ALLOW_PYTHON, "run.reference.pytorch (Python on the host)"))
    return false;
  const char *path = json_string_value(json_object_get(py, "path"));
  const char *project = json_string_value(json_object_get(py, "project"));
  return (!path || upk_guard_path(job, path, false, "run.reference.pytorch.path")) &&
         (!project || upk_guard_path(job, project, false, "run.reference.pytorch.project"));
}

static void validate_handler(upk_job *job, json_t *params) {
  if (!guarded(job, params))
    return;
  json_t *src = json_object_get(params, "source");
  if (src && json_string_length(src) > SOURCE_CAP) {
    too_large(job, json_string_length(src));
    return;
  }
  json_int_t timeout = json_integer_value(json_object_get(params, "timeoutMs"));
  json_t *run = json_object_get(params, "run");
  char why[512];
  if (run && upk_runspec_check(run, why, sizeof why)) {
    upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params.%s", why);
    return;
  }
  upk_kernel_req r = {0};
  kreq_store st = {0};
  if (wire_req(job, params, &r, &st)) {
    kreq_store_free(&st);
    return;
  }
  if (run) /* a run is never cached; the pool's deadline covers the compile and the run */
    r.run = st.run = wire_run(job, run, &r);
  bool use_cache = !run && json_is_true(json_object_get(params, "cache"));
  r.wire.no_cache = !use_cache; /* the worker's disk cache is skipped too */
  vcheck *v = upk_xcalloc(1, sizeof *v);
  v->job = job;
  v->run = json_incref(run);
  v->brief = job->face->as_tool;
  v->deps = json_is_true(json_object_get(params, "dependencies"));
  upk_job_on_cancel(job, on_cancel, NULL);
  /* on_result runs later, from the loop, even for a cache hit */
  v->check = upk_kernels_check(job->server, &r, (unsigned)timeout, use_cache, on_result, v);
  kreq_store_free(&st);
  job->data = v;
}

/* ---- test-only: drive the worker pool directly (fault injection) ---- */

static void on_raw(void *arg, int status, json_t *result, const char *error) {
  upk_job *job = arg;
  job->data = NULL;
  upk_job_reply(job, json_pack("{s:s,s:O?,s:s?}", "status", status ? uv_err_name(status) : "ok",
                               "result", result, "error", error));
}

static void raw_cancel(upk_job *job) {
  upk_wreq *r = job->data;
  job->data = NULL;
  if (r)
    upk_wreq_cancel(r);
}

static void worker_handler(upk_job *job, json_t *params) {
  upk_server *s = job->server;
  if (upk_kernels_start(s) || !upk_session_services(s)->kernels) {
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "the kernel service is not available");
    return;
  }
  json_t *p = json_object_get(params, "params");
  upk_job_on_cancel(job, raw_cancel, NULL);
  upk_wreq *r = upk_workers_submit(
      upk_kernels_pool(s), json_string_value(json_object_get(params, "op")),
      p ? json_incref(p) : json_object(),
      (unsigned)json_integer_value(json_object_get(params, "timeoutMs")), on_raw, job);
  if (r)
    job->data = r;
  else
    upk_job_fail(job, UPK_RPC_INTERNAL_ERROR, "the worker pool refused the request");
}

static const upk_param worker_params[] = {
    {"op", UPK_T_STRING, 1, "Worker op: hello, echo, sleep, crash, hang, garbage, exit."},
    {"params", UPK_T_OBJECT, 0, "The op's params."},
    {"timeoutMs", UPK_T_INTEGER, 0, "Deadline (0: the pool's default)."},
    {0},
};

const upk_method upk_kernel_methods[] = {
    /* The editor's and upskillctl's method: a compile, or with `run` a run. Not a tool: an
     * agent gets the two halves below, each with its honest annotations. */
    {"kernel/validate", NULL, "Validate a CUDA kernel for H100",
     "Compile CUDA code (and with `run`, run it on the GPU): diagnostics, resources, occupancy "
     "and H100 lint.",
     validate_params, validate_handler, UPK_METHOD_DESTRUCTIVE | UPK_METHOD_OPEN_WORLD,
     .result = upk_result_validate_kernel},
    /* Read-only: a compile runs no code of the kernel's (nvcc runs the host compiler on it, and
     * writes only the daemon's compile cache), so a client may approve it without asking. */
    {"kernel/compile", "validate_kernel", "Compile a CUDA kernel for H100",
     "Call after writing or editing CUDA code: compiles it for H100 (no GPU needed); errors "
     "with line and column, registers, spills, shared memory, occupancy, lint.",
     compile_params, validate_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_validate_kernel,
     .moved = {"run", "validate_kernel only compiles; to run the kernel, call run_kernel with the "
                      "same arguments and run"}},
    /* Not read-only: it runs the kernel on the GPU and a PyTorch reference, Python code that
     * may do anything the user could (gpu/reference/pyref.h). */
    {"kernel/run", "run_kernel", "Run a CUDA kernel on the GPU and check it",
     "Call to run a compiled kernel on the GPU: checks its results against a reference and "
     "times it.",
     run_params, validate_handler, UPK_METHOD_DESTRUCTIVE | UPK_METHOD_OPEN_WORLD,
     .result = upk_result_validate_kernel},
    {"upskilld/worker", NULL, "Worker op (test only)",
     "Send one op to the worker pool; for fault-injection tests.", worker_params, worker_handler,
     UPK_METHOD_TEST_ONLY},
};

const size_t upk_kernel_methods_count = sizeof upk_kernel_methods / sizeof *upk_kernel_methods;
