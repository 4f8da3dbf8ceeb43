/* A torch op of a kernel-builder project as the PyTorch reference (pyref.h,
 * upk_pyref_op_plan): the project found, the op's schema read from its
 * torch-ext C++ sources (torchop.h), the spec's op arguments and {"from"}
 * buffers checked against it before any Python starts, and the call plan
 * written for the helper: each schema argument in order, a tensor to draw
 * or preallocate, a value, None, or left to its default.
 *
 * input<N> is the N-th tensor the op reads (schema order); output<N> the
 * N-th tensor it writes (Tensor!), then the tensors it returns. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/project/projroot.h"
#include "gpu/reference/pyref.h"
#include "gpu/reference/torchop.h"

enum { PROJECT_LEVELS = 64, LIST_MAX = 900 };

typedef struct plan {
  upk_pyref *p;
  const upk_run_spec *s;
  const upk_torchop *op;
  json_t *args;                 /* the plan's argument list */
  const char *in[64], *out[64]; /* schema names of input<N>, output<N> */
  json_t *in_t[64], *out_t[64]; /* their tensor specs (NULL: a returned tensor) */
  size_t n_in, n_out;
} plan;

static int find_project(upk_pyref *p, const upk_run_spec *s, const char *hint) {
  static const char *const marker[] = {"build.toml"};
  char probe[PATH_MAX + 16], dir[PATH_MAX];
  if (s->ref.py.project) {
    snprintf(probe, sizeof probe, "%s/build.toml", s->ref.py.project);
    if (access(probe, R_OK))
      return upk_pyref_diag(p, "run/pytorch-op-project",
                            "run.reference.pytorch.project: %s holds no build.toml (a "
                            "kernel-builder project's directory is expected)",
                            s->ref.py.project);
    snprintf(p->project, sizeof p->project, "%s", s->ref.py.project);
    return 0;
  }
  snprintf(dir, sizeof dir, "%s", hint ? hint : "");
  char *slash = strrchr(dir, '/');
  struct stat st;
  if (slash && !(hint && !stat(hint, &st) && S_ISDIR(st.st_mode))) /* a file: its directory */
    *slash = '\0';
  if (hint && upk_find_up(dir, marker, 1, PROJECT_LEVELS, p->project))
    return 0;
  return upk_pyref_diag(p, "run/pytorch-op-project",
                        "op '%s': no kernel-builder project (build.toml) above %s; set "
                        "run.reference.pytorch.project to the project's directory",
                        s->ref.py.op, hint ? hint : "inline source");
}

static int op_args_diag(plan *pl, const upk_torchop_arg *a, const char *what) {
  return upk_pyref_diag(
      pl->p, "run/pytorch-op-args", "op '%s' (%s:%d) argument '%s' (%s): %s; the schema is \"%s\"",
      pl->op->name, pl->op->file, pl->op->line + 1, a->name, a->type, what, pl->op->schema);
}

static bool value_fits(const upk_torchop_arg *a, json_t *v) {
  json_t *x;
  size_t i;
  if (a->list) {
    json_array_foreach(v, i, x) {
      if (a->kind == UPK_TOP_INT    ? !json_is_integer(x)
          : a->kind == UPK_TOP_BOOL ? !json_is_boolean(x)
                                    : !json_is_number(x))
        return false;
    }
    return json_is_array(v);
  }
  switch (a->kind) {
  case UPK_TOP_INT:
    return json_is_integer(v);
  case UPK_TOP_FLOAT:
  case UPK_TOP_SCALAR:
    return json_is_number(v);
  case UPK_TOP_BOOL:
    return json_is_boolean(v);
  case UPK_TOP_STR:
    return json_is_string(v);
  default:
    return false;
  }
}

/* One schema argument into the plan. */
static int plan_arg(plan *pl, const upk_torchop_arg *a, json_t *v) {
  json_t *e = json_pack("{s:s,s:s,s:b}", "name", a->name, "type", a->type, "written", a->written);
  json_array_append_new(pl->args, e);
  if (!v && (a->has_default || a->optional)) {
    json_object_set_new(e, "kind", json_string(a->has_default ? "default" : "none"));
    return 0;
  }
  if (!v)
    return op_args_diag(pl, a,
                        a->kind == UPK_TOP_TENSOR
                            ? "needs {\"dtype\", \"shape\"} in run.reference.pytorch.args"
                            : "needs a value in run.reference.pytorch.args");
  if (json_is_null(v)) {
    json_object_set_new(e, "kind", json_string("none"));
    return a->optional ? 0 : op_args_diag(pl, a, "is not optional; null does not fit");
  }
  if (a->kind == UPK_TOP_TENSOR) {
    if (!json_is_object(v))
      return op_args_diag(pl, a, "is a tensor: give {\"dtype\", \"shape\"}, not a value");
    json_object_set_new(e, "kind", json_string("tensor"));
    json_object_update(e, v);
    if (pl->n_in == 64 || pl->n_out == 64)
      return op_args_diag(pl, a, "over 64 tensors");
    if (a->written)
      pl->out_t[pl->n_out] = v, pl->out[pl->n_out++] = a->name;
    else
      pl->in_t[pl->n_in] = v, pl->in[pl->n_in++] = a->name;
    return 0;
  }
  if (a->kind == UPK_TOP_TENSOR_LIST || a->kind == UPK_TOP_OTHER)
    return op_args_diag(pl, a,
                        "takes only null or its default here (Tensor[], ScalarType, Generator "
                        "and the like are not drawn by a run)");
  if (!value_fits(a, v))
    return op_args_diag(pl, a,
                        json_is_object(v) ? "is not a tensor: give a value, not {dtype, shape}"
                                          : "the value given does not fit its type");
  json_object_set_new(e, "kind", json_string("value"));
  json_object_set(e, "value", v);
  return 0;
}

/* "input0 = 'x', input1 = 'w'" or "output0 = 'out', output1 = its return 0" */
static void list_names(const plan *pl, bool out, char *buf, size_t len) {
  size_t n = 0, k = out ? pl->n_out : pl->n_in;
  buf[0] = '\0';
  for (size_t i = 0; i < k && n + 1 < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s%zu = '%s'", i ? ", " : "",
                          out ? "output" : "input", i, out ? pl->out[i] : pl->in[i]);
  for (size_t r = 0; out && r < pl->op->n_ret_tensors && n + 1 < len; r++)
    n +=
        (size_t)snprintf(buf + n, len - n, "%soutput%zu = its return %zu", n ? ", " : "", k + r, r);
  if (!n)
    snprintf(buf, len, "none");
}

static void tensor_text(json_t *t, char *buf, size_t len) {
  size_t shape[UPK_RUN_MAX_RANK], i;
  json_t *d;
  upk_dtype dt = UPK_DT_F32;
  upk_dtype_parse(json_string_value(json_object_get(t, "dtype")), &dt);
  json_array_foreach(json_object_get(t, "shape"), i, d) shape[i] = (size_t)json_integer_value(d);
  upk_pyref_describe(dt, shape, (int)json_array_size(json_object_get(t, "shape")), buf, len);
}

/* A {"from"} buffer against the op: the tensor exists, and a dtype or shape
 * the run gives is the one run.reference.pytorch.args gives it. */
static int check_from(plan *pl, size_t i, const upk_run_arg *a) {
  char from[300], have[LIST_MAX], spec[200], mine[200];
  bool out = a->from == UPK_FROM_OUTPUT;
  size_t n = out ? pl->n_out + pl->op->n_ret_tensors : pl->n_in;
  upk_pyref_from_name(a, from, sizeof from);
  if (a->from == UPK_FROM_PARAM)
    return upk_pyref_diag(pl->p, "run/pytorch-mismatch",
                          "run.args[%zu] '%s' is {\"from\": \"%s\"}, but op '%s' has no "
                          "parameters; name its tensors as input<N> and output<N>",
                          i, a->name, from, pl->op->name);
  if (a->from_index >= n && !(out && pl->op->ret_list)) {
    list_names(pl, out, have, sizeof have);
    return upk_pyref_diag(pl->p, "run/pytorch-mismatch",
                          "run.args[%zu] '%s' is {\"from\": \"%s\"}, which op '%s' (%s:%d) does "
                          "not have; it %s: %s",
                          i, a->name, from, pl->op->name, pl->op->file, pl->op->line + 1,
                          out ? "writes" : "reads", have);
  }
  json_t *t = a->from_index < (out ? pl->n_out : pl->n_in)
                  ? (out ? pl->out_t : pl->in_t)[a->from_index]
                  : NULL; /* NULL: a returned tensor */
  if (a->role == UPK_ROLE_INOUT && !t)
    return upk_pyref_diag(pl->p, "run/pytorch-mismatch",
                          "run.args[%zu] '%s' is inout (from %s), but op '%s' returns that "
                          "tensor: only an argument it writes in place has contents before",
                          i, a->name, from, pl->op->name);
  if (a->role == UPK_ROLE_INOUT && !json_object_get(t, "low") && !json_object_get(t, "high"))
    return upk_pyref_diag(pl->p, "run/pytorch-mismatch",
                          "run.args[%zu] '%s' is inout (from %s), but op '%s' gets it "
                          "preallocated with zeros: give run.reference.pytorch.args.%s low and "
                          "high so its contents are drawn before the op writes it in place",
                          i, a->name, from, pl->op->name, pl->out[a->from_index]);
  if (!t || (!a->dtype_given && !a->rank && !a->count))
    return 0; /* a returned tensor: its shape is known once the op ran */
  tensor_text(t, spec, sizeof spec);
  upk_pyref_describe(a->dtype, a->shape, a->rank, mine, sizeof mine);
  if (!a->rank) /* a dtype alone: "f16", not "f16 []" */
    snprintf(mine, sizeof mine, "%s", upk_dtype_name(a->dtype));
  else if (!a->dtype_given) /* a shape alone */
    memmove(mine, strchr(mine, '['), strlen(strchr(mine, '[')) + 1);
  upk_dtype dt = UPK_DT_F32;
  upk_dtype_parse(json_string_value(json_object_get(t, "dtype")), &dt);
  json_t *shape = json_object_get(t, "shape");
  bool differs = a->dtype_given && a->dtype != dt;
  for (int d = 0; a->rank && d < a->rank; d++)
    differs |= (int)json_array_size(shape) != a->rank ||
               (size_t)json_integer_value(json_array_get(shape, (size_t)d)) != a->shape[d];
  if (!differs)
    return 0;
  return upk_pyref_diag(pl->p, "run/pytorch-mismatch",
                        "run.args[%zu] '%s' (from %s = op '%s' argument '%s'): the run spec says "
                        "%s, run.reference.pytorch.args.%s says %s",
                        i, a->name, from, pl->op->name,
                        out ? pl->out[a->from_index] : pl->in[a->from_index], mine,
                        out ? pl->out[a->from_index] : pl->in[a->from_index], spec);
}

static int unknown_keys(plan *pl) {
  const char *k;
  json_t *v;
  json_object_foreach(pl->s->ref.py.op_args, k, v) {
    bool known = false;
    for (size_t i = 0; i < pl->op->n_args && !known; i++)
      known = !strcmp(pl->op->args[i].name, k);
    if (!known)
      return upk_pyref_diag(pl->p, "run/pytorch-op-args",
                            "run.reference.pytorch.args.%s: op '%s' has no argument '%s'; its "
                            "schema (%s:%d) is \"%s\"",
                            k, pl->op->name, k, pl->op->file, pl->op->line + 1, pl->op->schema);
  }
  return 0;
}

static int build(plan *pl) {
  int rc = unknown_keys(pl);
  for (size_t i = 0; !rc && i < pl->op->n_args; i++) {
    const upk_torchop_arg *a = &pl->op->args[i];
    rc = plan_arg(pl, a, json_object_get(pl->s->ref.py.op_args, a->name));
  }
  for (size_t i = 0; !rc && i < pl->s->n_args; i++)
    if (pl->s->args[i].from)
      rc = check_from(pl, i, &pl->s->args[i]);
  return rc;
}

static void op_list(const upk_torchop_set *set, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < set->n && n + 1 < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", set->ops[i].name);
  if (!set->n)
    snprintf(buf, len, "none");
}

static int write_plan(plan *pl, const upk_torchop_set *set, char *path, size_t len) {
  json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:s,s:O,s:I,s:b}", "op", pl->op->name, "overload",
                        pl->op->overload, "package", set->package, "project", pl->p->project,
                        "schema", pl->op->schema, "args", pl->args, "returns",
                        (json_int_t)pl->op->n_ret_tensors, "returnsList", pl->op->ret_list);
  snprintf(path, len, "%s/op.json", pl->p->dir);
  int rc = j ? json_dump_file(j, path, JSON_COMPACT) : -1;
  json_decref(j);
  return rc ? upk_pyref_diag(pl->p, "run/pytorch-failed", "cannot write the op's plan to %s", path)
            : 0;
}

int upk_pyref_op_plan(upk_pyref *p, const upk_run_spec *s, const char *hint, char *path,
                      size_t len) {
  upk_torchop_set set;
  upk_diags warn = {0};
  char err[PATH_MAX + 200], ops[LIST_MAX];
  int rc = find_project(p, s, hint);
  if (rc)
    return rc;
  if ((rc = upk_torchop_load(p->project, &set, &warn, err, sizeof err)) == -ENOENT)
    rc = upk_pyref_diag(p, "run/pytorch-op-project", "op '%s': %s", s->ref.py.op, err);
  plan pl = {.p = p, .s = s, .args = json_array()};
  for (size_t i = 0; !rc && !upk_torchop_find(&set, s->ref.py.op) && i < set.n_inferred; i++)
    if (!strcmp(set.inferred[i], s->ref.py.op))
      rc = upk_pyref_diag(p, "run/pytorch-op-unknown",
                          "op '%s' of %s is declared without a schema (.def(\"%s\", fn): torch "
                          "infers it from the C++ function), so its arguments cannot be read; "
                          "declare it with one, e.g. ops.def(\"%s(Tensor! out, Tensor x) -> ()\")",
                          s->ref.py.op, p->project, s->ref.py.op, s->ref.py.op);
  if (!rc && !(pl.op = upk_torchop_find(&set, s->ref.py.op))) {
    op_list(&set, ops, sizeof ops);
    upk_diags_take(p->diags, &warn); /* a schema that did not parse may be the one */
    rc = upk_pyref_diag(p, "run/pytorch-op-unknown",
                        "op '%s' is not declared in %s's torch-ext sources (ops.def(\"...\") in "
                        "torch-ext/torch_binding.cpp); it declares: %s",
                        s->ref.py.op, p->project, ops);
  }
  if (!rc && pl.op) {
    snprintf(p->schema, sizeof p->schema, "%s", pl.op->schema);
    rc = pl.args ? build(&pl) : -ENOMEM;
  }
  if (!rc)
    rc = write_plan(&pl, &set, path, len);
  json_decref(pl.args);
  upk_diags_free(&warn);
  upk_torchop_set_free(&set);
  return rc;
}
