/** The worker wire (wire.c): what the daemon adds to a kernel request before a worker
 * compiles or runs it, as a struct with its JSON encoding, so that the daemon's callers
 * (kernel_methods.c, documents.c, eval_service.c, eval_exec.c) fill a struct and the worker's
 * parsers (validate_op.c, run_op.c) read one, instead of each spelling the keys. The request's own
 * fields (source, path, includes, defines, options, names, run, ...) stay the client's JSON,
 * checked by the daemon's parameter specs. Trust: the daemon builds these keys itself; a
 * client's params never reach them (docs/security.md). */
#ifndef UPK_WORKER_WIRE_H
#define UPK_WORKER_WIRE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** The daemon's keys of a worker request. A string left NULL and a flag left false are not
 * sent, so a request without them reads back as this struct zeroed. */
typedef struct upk_wire_req {
  const char *cuda_path; /* "cudaPath": the toolkit to compile with; NULL: the worker's default */
  bool pch;              /* "pch": use the precompiled CUDA header where it can */
  bool project_aware;    /* "projectAware": a file a build.toml builds gets its kernel's flags */
  bool project_includes; /* "projectIncludes": the file is on disk, in its project */
  bool no_cache;         /* "noCache": neither read nor trust the worker's disk cache */
  /* "allowed": the directories includes may come from; NULL: no key, else sent even when
   * empty. Decoded: points into the JSON (valid while it lives), freed by upk_wire_req_free. */
  const char **allowed;
  size_t n_allowed;
  /* "allowOptions": the user's --allow-kernel-option globs; "trustedProjects": the projects
   * (real paths) the user's trust store trusts. Both as `allowed`. */
  const char **allow_options;
  size_t n_allow_options;
  const char **trusted_projects;
  size_t n_trusted_projects;
} upk_wire_req;

/** Set `req`'s keys on the request object `params` (existing keys are replaced). 0, or
 * -EINVAL when `params` is not an object, -ENOMEM. */
int upk_wire_req_encode(const upk_wire_req *req, json_t *params);
/** Read the keys back from `params` into `req` (strings borrowed from `params`). 0, or
 * -EINVAL with the reason in `err` (may be NULL) when one has the wrong type. */
int upk_wire_req_decode(const json_t *params, upk_wire_req *req, char *err, size_t err_len);
/** Free what upk_wire_req_decode allocated (the string vectors; the strings and flags stay). */
void upk_wire_req_free(upk_wire_req *req);

/** A kernel request as the daemon sends it to a worker, the one place its keys are spelt
 * (upk_kernel_req_encode): kernel/validate (kernel_methods.c), an editor's open document
 * (documents.c) and eval's kernel checks (eval_service.c, eval_exec.c) fill one. Strings and
 * JSON values are borrowed until the encoder returns. A pointer left NULL sends no key: a
 * vector or `block_sizes` set (even to zero items) sends an array, so that each caller's cache
 * key stays what it was. */
typedef struct upk_kernel_req {
  const char *source;    /* "source": the kernel's text (exactly one of source, path, project) */
  size_t source_len;     /* its length; 0: up to its NUL */
  const char *file_name; /* "fileName": the name diagnostics give an inline source */
  const char *file_dir;  /* "fileDir": the directory of an editor's file on disk */
  const char *path;      /* "path": a .cu file, absolute */
  const char *project;   /* "project": a kernel-builder project (holds build.toml), absolute */
  const char **includes; /* "includes": -I directories, absolute */
  size_t n_includes;
  const char **defines; /* "defines": -D NAME[=VALUE] */
  size_t n_defines;
  const char **options; /* "options": nvcc options (gpu/compile/options.h decides) */
  size_t n_options;
  const char **names; /* "names": the kernels to report; none: all */
  size_t n_names;
  const json_int_t *block_sizes; /* "blockSizes": the block sizes to report occupancy for */
  size_t n_block_sizes;
  const json_int_t *dynamic_shared_bytes; /* "dynamicSharedBytes": per block */
  const char *arch;    /* "arch": sm_90a and the like; NULL: the worker's default */
  const char *std;     /* "std": the C++ standard */
  const char *backend; /* "backend": NULL for auto, the worker's default */
  json_t *per_kernel;  /* "perKernel": {name: {blockSize?, dynamicSharedBytes?}}, checked */
  json_t *run;         /* "run": a run spec (gpu/run/runspec.h), checked, paths absolute */
  const char *python;  /* "python": the python3 a run's PyTorch reference runs with */
  upk_wire_req wire;   /* the daemon's own keys */
} upk_kernel_req;

/** `req` as the worker's params object: a new reference, NULL when out of memory. */
json_t *upk_kernel_req_encode(const upk_kernel_req *req);
/** How long the worker may take past the compile: the run's own deadline (gpu/run/runspec.h's
 * default when it names none), its PyTorch helper's before it, and one second for the worker to
 * stop a hung kernel before the pool kills it. 0 without a run. */
unsigned upk_kernel_req_run_ms(const upk_kernel_req *req);

/** A worker's answer to one request: a result or an error message, never both. */
typedef struct upk_wire_result {
  json_t *result;    /* the validation or run result (borrowed); NULL with an error */
  const char *error; /* why not (borrowed); NULL with a result */
} upk_wire_result;

/** The answer line's object for request `id` (any JSON, null for a request that had none):
 * {"id", "result"} or {"id", "error": {"message"}}. A new reference; NULL when out of memory. */
json_t *upk_wire_result_encode(json_t *id, const upk_wire_result *res);
/** Read an answer to request `id` into `res` (borrowing from `msg`). 0, or -EPROTO when `msg`
 * is not exactly one answer to `id`. */
int upk_wire_result_decode(const json_t *msg, json_int_t id, upk_wire_result *res);

#endif
