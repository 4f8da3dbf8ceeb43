/* The rotation plan (runplan.h): pure arithmetic over the spec. */
#include "gpu/run/runplan.h"
#include "gpu/run/mutant.h"

#include <math.h>
#include <stdio.h>

static bool holds_input(const upk_run_arg *a) {
  return a->is_buffer && a->role != UPK_ROLE_OUT;
}

void upk_run_plan_of(const upk_run_spec *v, size_t budget, upk_run_plan *out) {
  *out = (upk_run_plan){.timed = v->iterations, .hashed = v->iterations};
  for (size_t i = 0; i < v->n_args; i++) {
    const upk_run_arg *a = &v->args[i];
    size_t bytes = a->is_buffer ? a->count * upk_dtype_size(a->dtype) : 0;
    out->shape_bytes += bytes;
    /* A set keeps its inputs, and for each result the expected output; an
     * inout buffer is both. */
    out->set_bytes += holds_input(a) ? bytes : 0;
    out->set_bytes += a->is_buffer && a->role != UPK_ROLE_IN ? bytes : 0;
    out->hash_bytes += a->is_buffer && a->role != UPK_ROLE_IN ? bytes : 0;
  }
  size_t fit = out->set_bytes ? budget / out->set_bytes : v->iterations;
  out->sets = fit < v->iterations ? (unsigned)fit : v->iterations;
  if (out->sets > UPK_RUN_MAX_SETS)
    out->sets = UPK_RUN_MAX_SETS;
  /* An expected-output file fits one set of inputs; a PyTorch reference's
   * tensors come per trial from the helper, the last trial's stay. */
  if (out->sets < 1 || v->ref.kind == UPK_REF_FILE || v->ref.kind == UPK_REF_PYTORCH ||
      upk_mutant("rotation"))
    out->sets = 1;
  out->trials = out->sets > v->trials ? out->sets : v->trials;
  out->inputs_hashed = out->sets < v->iterations ? out->sets : v->iterations;
}

bool upk_run_inputs_hashed_at(unsigned timed, unsigned sets, unsigned n) {
  return n < timed && (size_t)n + (sets ? sets : 1) >= timed;
}

uint64_t upk_run_set_seed(const upk_run_spec *s, const upk_run_arg *a, unsigned set) {
  return upk_trial_seed(upk_run_input_seed(s, a->init.seed), upk_mutant("fresh-inputs") ? 0 : set);
}

double upk_run_set_value(const upk_run_arg *a, unsigned set) {
  double v = a->init.value;
  if (!set || upk_mutant("value-vary"))
    return v;
  if (upk_dtype_is_float(a->dtype))
    return v + set * 0.25 * fmax(1.0, fabs(v));
  return upk_dtype_holds(a->dtype, v + set) ? v + set : v - set;
}

static json_t *dims_json(const unsigned d[3]) {
  return json_pack("[I,I,I]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

/* {name: count | [dims] | value} of the arguments at this shape. */
static json_t *args_json(const upk_run_spec *v) {
  json_t *o = json_object();
  for (size_t i = 0; o && i < v->n_args; i++) {
    const upk_run_arg *a = &v->args[i];
    json_t *x;
    if (!a->is_buffer) {
      x = upk_dtype_is_float(a->dtype) ? json_real(a->value) : json_integer((json_int_t)a->value);
    } else if (!a->rank) {
      x = json_integer((json_int_t)a->count);
    } else {
      x = json_array();
      for (int d = 0; x && d < a->rank; d++)
        json_array_append_new(x, json_integer((json_int_t)a->shape[d]));
    }
    json_object_set_new(o, a->name, x);
  }
  return o;
}

static json_t *shape_json(const upk_run_spec *s, size_t k, size_t budget) {
  upk_run_spec v;
  upk_run_plan p;
  upk_runspec_at(s, k, &v);
  upk_run_plan_of(&v, budget, &p);
  json_t *j = json_pack(
      "{s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "args", args_json(&v), "grid", dims_json(v.grid),
      "block", dims_json(v.block), "bufferSets", (json_int_t)p.sets, "trials", (json_int_t)p.trials,
      "setBytes", (json_int_t)p.set_bytes, "timedLaunches", (json_int_t)p.timed, "hashedLaunches",
      (json_int_t)p.hashed, "hashBytesPerLaunch", (json_int_t)p.hash_bytes, "inputsHashedLaunches",
      (json_int_t)p.inputs_hashed);
  if (j && s->shapes[k].odd) {
    json_object_set_new(j, "odd", json_integer(s->shapes[k].odd));
    json_object_set_new(j, "of", json_integer((json_int_t)s->shapes[k].of));
  }
  return j;
}

json_t *upk_run_plan_json(const upk_run_spec *s, size_t budget) {
  json_t *shapes = json_array(), *inputs = json_object();
  for (size_t k = 0; shapes && k < s->n_shapes; k++)
    json_array_append_new(shapes, shape_json(s, k, budget));
  for (size_t i = 0; inputs && i < s->n_args; i++)
    if (holds_input(&s->args[i]) && s->args[i].init.kind == UPK_INIT_RANDOM) {
      char hex[24]; /* 64 bits: a JSON integer holds only 63 */
      snprintf(hex, sizeof hex, "%016llx",
               (unsigned long long)upk_run_input_seed(s, s->args[i].init.seed));
      json_object_set_new(inputs, s->args[i].name, json_string(hex));
    }
  return json_pack("{s:I,s:b,s:o,s:o}", "seed", (json_int_t)s->seed, "seedGiven", s->seed_given,
                   "shapes", shapes, "inputs", inputs);
}
