/** The rotation plan of a run at one shape (docs/gpu.md "Shapes, seeds and
 * rotation"): how many input sets rotate over the timed launches, so that no
 * two consecutive timed launches see the same input contents and a kernel
 * that caches its result (by pointer or by value) fails; which launches are
 * checked (all: each timed launch's outputs are hashed on the device and
 * compared with the hash its set gave in the correctness run, so counting
 * launches to cheat on unchecked ones gains nothing); the seeds of each set.
 *
 * Set j is correctness trial j: its inputs are the ones trial j fills
 * (upk_run_set_seed, upk_run_set_value), its expected outputs the
 * reference's for them, and the candidate's outputs were compared with those
 * before any timing, so a set's output hash is known good. Pure: the no-GPU
 * answer reports the plan, and tests assert it. */
#ifndef UPK_GPU_RUNPLAN_H
#define UPK_GPU_RUNPLAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/run/runspec.h"

/** The most input sets a run rotates: each costs a full correctness trial
 * (the reference and two candidate runs), so the 64 Mi-element verdict stays
 * within its time; 8 sets still give consecutive launches different inputs
 * and leave a cache keyed by value 8 full outputs to hold. */
#define UPK_RUN_MAX_SETS 8u
/** The most device memory rotation sets may take when no device says less. */
#define UPK_RUN_ROTATION_MAX_BYTES ((size_t)4 << 30)

typedef struct upk_run_plan {
  unsigned sets;          /* input sets rotating over the timed launches (>= 1) */
  unsigned trials;        /* correctness trials: max(run.trials, sets) */
  size_t set_bytes;       /* device bytes a set keeps: in and inout inputs, expected outputs */
  size_t shape_bytes;     /* the shape's own buffers (the candidate's arguments) */
  unsigned timed;         /* timed launches (run.iterations) */
  unsigned hashed;        /* timed launches whose outputs are hashed and compared: all */
  size_t hash_bytes;      /* output bytes hashed after each timed launch */
  unsigned inputs_hashed; /* timed launches whose inputs are hashed too: each set's last */
} upk_run_plan;

/** The plan of `view` (upk_runspec_at) when rotation sets may use `budget`
 * bytes: sets = min(iterations, budget / set_bytes, UPK_RUN_MAX_SETS), at least 1 (then every
 * timed launch sees the same contents, which the result says). One set
 * with an expected-output file or a PyTorch reference. */
void upk_run_plan_of(const upk_run_spec *view, size_t budget, upk_run_plan *out);

/** Whether timed launch `n` of `timed`, rotating over `sets` sets, has its
 * inputs hashed as well as its outputs: each set's last launch. Every launch
 * gets its inputs afresh, so an input written while timed cannot change a
 * later launch; hashing the inputs once per set still sees a kernel that
 * writes them, at a fraction of the bandwidth (the outputs, which a cheat
 * would change, are hashed after every launch). */
bool upk_run_inputs_hashed_at(unsigned timed, unsigned sets, unsigned n);

/** The seed random input `a` uses in set (= trial) j. */
uint64_t upk_run_set_seed(const upk_run_spec *s, const upk_run_arg *a, unsigned set);

/** The constant an init.value input holds in set j: its value in set 0; a
 * different one in every later set (integers: value + j, or value - j where
 * that does not fit; floats: value + j/4 of max(1, |value|)), so a kernel that
 * hard-codes the constant instead of reading the buffer fails there. */
double upk_run_set_value(const upk_run_arg *a, unsigned set);

/** {seed, seedGiven, shapes: [{args, grid, block, odd?, of?, bufferSets,
 * trials, setBytes, timedLaunches, hashedLaunches, hashBytesPerLaunch,
 * inputsHashedLaunches}],
 * inputs: {name: seed}} for every shape of `s`, planned with `budget`. NULL
 * on allocation failure. */
json_t *upk_run_plan_json(const upk_run_spec *s, size_t budget);

#endif
