/* The form of run.reference.pytorch.args (runspec.h): each of a torch op's
 * arguments by its schema name, a tensor {dtype, shape, low?, high?} or a
 * value (number, bool, string, list of numbers, null). Whether the names
 * and kinds fit the op is checked on the worker, which reads the schema
 * (pyref_op.c); this is the pure part the daemon's loop can afford. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpu/run/runspec.h"

enum { MAX_OP_ARGS = 64 };

static int bad(char *err, size_t len, const char *name, const char *what) {
  snprintf(err, len, "run.reference.pytorch.args.%s: %s", name, what);
  return -EINVAL;
}

static int tensor_form(const char *name, json_t *t, char *err, size_t len) {
  json_t *dt = json_object_get(t, "dtype"), *shape = json_object_get(t, "shape"), *d;
  const char *k;
  json_t *v;
  size_t i;
  upk_dtype dtype;
  json_object_foreach(t, k, v) {
    if (strcmp(k, "dtype") && strcmp(k, "shape") && strcmp(k, "low") && strcmp(k, "high"))
      return bad(err, len, name, "a tensor is {dtype, shape, low?, high?}; unknown key");
    if ((!strcmp(k, "low") || !strcmp(k, "high")) && !json_is_number(v))
      return bad(err, len, name, "low and high must be numbers");
  }
  if (!json_is_string(dt) || upk_dtype_parse(json_string_value(dt), &dtype))
    return bad(err, len, name,
               "dtype is required: one of f32, f16, bf16, f64, i8, i32, i64, u8, u32");
  if (!json_is_array(shape) || json_array_size(shape) > UPK_RUN_MAX_RANK)
    return bad(err, len, name, "shape is required: an array of up to 8 sizes");
  unsigned long long bytes = upk_dtype_size(dtype);
  json_array_foreach(shape, i, d) {
    json_int_t n = json_integer_value(d);
    if (!json_is_integer(d) || n < 1 || (unsigned long long)n > UPK_RUN_MAX_BUFFER_BYTES / bytes)
      return bad(err, len, name, "every size of shape is a positive integer within the 16 GiB cap");
    bytes *= (unsigned long long)n;
  }
  double lo = json_number_value(json_object_get(t, "low")),
         hi = json_number_value(json_object_get(t, "high"));
  if (json_object_get(t, "low") && json_object_get(t, "high") && !(lo < hi))
    return bad(err, len, name, "low must be below high");
  return 0;
}

static int value_form(const char *name, json_t *v, char *err, size_t len) {
  json_t *x;
  size_t i;
  if (json_is_object(v))
    return tensor_form(name, v, err, len);
  if (!json_is_array(v))
    return 0; /* number, bool, string, null: the schema says which fits */
  json_array_foreach(v, i, x) {
    if (!json_is_number(x) && !json_is_boolean(x))
      return bad(err, len, name, "a list value holds numbers (int[] / float[]) or booleans");
  }
  return 0;
}

int upk_runspec_op_args(json_t *args, char *err, size_t err_len) {
  const char *k;
  json_t *v;
  if (!json_is_object(args)) {
    snprintf(err, err_len,
             "run.reference.pytorch.args: must be an object of the op's arguments by name, e.g. "
             "{\"out\": {\"dtype\": \"f16\", \"shape\": [16, 4096]}, \"eps\": 1e-6}");
    return -EINVAL;
  }
  if (json_object_size(args) > MAX_OP_ARGS) {
    snprintf(err, err_len, "run.reference.pytorch.args: over %d arguments", MAX_OP_ARGS);
    return -EINVAL;
  }
  json_object_foreach(args, k, v) {
    if (strlen(k) > 63)
      return bad(err, err_len, "(name)", "an argument name is at most 63 characters");
    if (value_form(k, v, err, err_len))
      return -EINVAL;
  }
  return 0;
}
