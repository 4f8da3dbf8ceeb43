/* The worker wire's encoding (wire.h): one place that spells the keys the daemon adds
 * to a kernel request and the shape of a worker's answer. */
#include "gpu/worker/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "gpu/run/runspec.h"

static int set_flag(json_t *p, const char *key, bool on) {
  return on ? json_object_set_new(p, key, json_true()) : 0;
}

/* A string vector: NULL sends no key, else an array, even an empty one. */
static int set_strv(json_t *p, const char *key, const char *const *v, size_t n) {
  if (!v)
    return 0;
  json_t *a = json_array();
  int rc = a ? 0 : -1;
  for (size_t i = 0; a && i < n; i++)
    rc |= json_array_append_new(a, json_string(v[i]));
  return rc | json_object_set_new(p, key, a);
}

int upk_wire_req_encode(const upk_wire_req *req, json_t *params) {
  if (!json_is_object(params))
    return -EINVAL;
  int rc = 0;
  if (req->cuda_path)
    rc |= json_object_set_new(params, "cudaPath", json_string(req->cuda_path));
  rc |= set_flag(params, "pch", req->pch);
  rc |= set_flag(params, "projectAware", req->project_aware);
  rc |= set_flag(params, "projectIncludes", req->project_includes);
  rc |= set_flag(params, "noCache", req->no_cache);
  rc |= set_strv(params, "allowed", req->allowed, req->n_allowed);
  rc |= set_strv(params, "allowOptions", req->allow_options, req->n_allow_options);
  rc |= set_strv(params, "trustedProjects", req->trusted_projects, req->n_trusted_projects);
  return rc ? -ENOMEM : 0;
}

static int set_str(json_t *p, const char *key, const char *v) {
  return v ? json_object_set_new(p, key, json_string(v)) : 0;
}

static int set_ints(json_t *p, const char *key, const json_int_t *v, size_t n) {
  if (!v)
    return 0;
  json_t *a = json_array();
  int rc = a ? 0 : -1;
  for (size_t i = 0; a && i < n; i++)
    rc |= json_array_append_new(a, json_integer(v[i]));
  return rc | json_object_set_new(p, key, a);
}

/* The kernel's text, its name and where it is. */
static int set_what(json_t *p, const upk_kernel_req *req) {
  int rc = 0;
  if (req->source)
    rc |= json_object_set_new(
        p, "source",
        json_stringn(req->source, req->source_len ? req->source_len : strlen(req->source)));
  rc |= set_str(p, "fileName", req->file_name);
  rc |= set_str(p, "fileDir", req->file_dir);
  rc |= set_str(p, "path", req->path);
  rc |= set_str(p, "project", req->project);
  return rc;
}

json_t *upk_kernel_req_encode(const upk_kernel_req *req) {
  json_t *p = json_object();
  if (!p)
    return NULL;
  int rc = set_what(p, req);
  rc |= set_strv(p, "includes", req->includes, req->n_includes);
  rc |= set_strv(p, "defines", req->defines, req->n_defines);
  rc |= set_strv(p, "options", req->options, req->n_options);
  rc |= set_strv(p, "names", req->names, req->n_names);
  rc |= set_ints(p, "blockSizes", req->block_sizes, req->n_block_sizes);
  if (req->dynamic_shared_bytes)
    rc |= json_object_set_new(p, "dynamicSharedBytes", json_integer(*req->dynamic_shared_bytes));
  rc |= set_str(p, "arch", req->arch);
  rc |= set_str(p, "std", req->std);
  rc |= set_str(p, "backend", req->backend);
  if (req->per_kernel)
    rc |= json_object_set(p, "perKernel", req->per_kernel);
  if (req->run)
    rc |= json_object_set(p, "run", req->run);
  rc |= set_str(p, "python", req->python);
  if (rc || upk_wire_req_encode(&req->wire, p)) {
    json_decref(p);
    return NULL;
  }
  return p;
}

unsigned upk_kernel_req_run_ms(const upk_kernel_req *req) {
  if (!req->run)
    return 0;
  json_t *t = json_object_get(req->run, "timeoutMs");
  json_t *py = json_object_get(json_object_get(req->run, "reference"), "pytorch");
  json_t *pt = json_object_get(py, "timeoutMs");
  unsigned ms = json_is_integer(t) ? (unsigned)json_integer_value(t) : UPK_RUN_TIMEOUT_DEFAULT_MS;
  if (py) /* the helper runs first, under its own limit */
    ms += json_is_integer(pt) ? (unsigned)json_integer_value(pt) : UPK_RUN_PY_TIMEOUT_DEFAULT_MS;
  return ms + 1000;
}

static int wrong(char *err, size_t err_len, const char *key, const char *what) {
  if (err && err_len)
    snprintf(err, err_len, "params.%s must be %s", key, what);
  return -EINVAL;
}

/* A flag: absent is false, else it must be a boolean. */
static int get_flag(const json_t *p, const char *key, bool *out, char *err, size_t err_len) {
  json_t *v = json_object_get(p, key);
  if (v && !json_is_boolean(v))
    return wrong(err, err_len, key, "true or false");
  *out = json_is_true(v);
  return 0;
}

/* A string vector: absent leaves it NULL, else it must be an array of strings. */
static int get_strv(const json_t *p, const char *key, const char ***v, size_t *n, char *err,
                    size_t err_len) {
  json_t *a = json_object_get(p, key), *x;
  size_t i;
  if (!a)
    return 0;
  if (!json_is_array(a))
    return wrong(err, err_len, key, "an array of strings");
  *v = upk_xcalloc(json_array_size(a) + 1, sizeof **v);
  json_array_foreach(a, i, x) {
    if (!json_is_string(x))
      return wrong(err, err_len, key, "an array of strings");
    (*v)[(*n)++] = json_string_value(x);
  }
  return 0;
}

int upk_wire_req_decode(const json_t *params, upk_wire_req *req, char *err, size_t err_len) {
  *req = (upk_wire_req){0};
  json_t *cuda = json_object_get(params, "cudaPath");
  int rc = 0;
  if (cuda && !json_is_string(cuda))
    rc = wrong(err, err_len, "cudaPath", "a string");
  req->cuda_path = json_string_value(cuda);
  if (!rc && !(rc = get_flag(params, "pch", &req->pch, err, err_len)) &&
      !(rc = get_flag(params, "projectAware", &req->project_aware, err, err_len)) &&
      !(rc = get_flag(params, "projectIncludes", &req->project_includes, err, err_len)) &&
      !(rc = get_flag(params, "noCache", &req->no_cache, err, err_len)) &&
      !(rc = get_strv(params, "allowed", &req->allowed, &req->n_allowed, err, err_len)) &&
      !(rc = get_strv(params, "allowOptions", &req->allow_options, &req->n_allow_options, err,
                      err_len)))
    rc = get_strv(params, "trustedProjects", &req->trusted_projects, &req->n_trusted_projects, err,
                  err_len);
  if (rc)
    upk_wire_req_free(req);
  return rc;
}

void upk_wire_req_free(upk_wire_req *req) {
  free(req->allowed);
  free(req->allow_options);
  free(req->trusted_projects);
  req->allowed = req->allow_options = req->trusted_projects = NULL;
  req->n_allowed = req->n_allow_options = req->n_trusted_projects = 0;
}

json_t *upk_wire_result_encode(json_t *id, const upk_wire_result *res) {
  return res->result ? json_pack("{s:O,s:O}", "id", id, "result", res->result)
                     : json_pack("{s:O,s:{s:s}}", "id", id, "error", "message",
                                 res->error ? res->error : "");
}

int upk_wire_result_decode(const json_t *msg, json_int_t id, upk_wire_result *res) {
  json_t *jid = json_object_get(msg, "id");
  if (!json_is_integer(jid) || json_integer_value(jid) != id)
    return -EPROTO;
  res->result = json_object_get(msg, "result");
  res->error = json_string_value(json_object_get(json_object_get(msg, "error"), "message"));
  return (res->result != NULL) != (res->error != NULL) ? 0 : -EPROTO;
}
