/** The `run` object of kernel/validate: how to launch a kernel, with what
 * arguments, against what reference, and how hard to check it (docs/gpu.md).
 *
 * upk_runspec_parse turns the JSON into plain C structs and rejects every
 * bad field with a message naming its path ("run.args[2].dtype: unknown
 * dtype 'f8'; expected one of f32, ..."). upk_runspec_check is the same
 * validation without keeping the result: pure, cheap, safe on the daemon's
 * loop before any worker is used. */
#ifndef UPK_GPU_RUNSPEC_H
#define UPK_GPU_RUNSPEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/run/runcheck.h"

/** Limits: the sum of all buffer bytes, the dimensions CUDA allows. */
#define UPK_RUN_MAX_BUFFER_BYTES ((size_t)16 << 30)
#define UPK_RUN_MAX_BLOCK_THREADS 1024
#define UPK_RUN_MAX_SHARED_BYTES (227 * 1024) /* H100's opt-in maximum per block */
#define UPK_RUN_MAX_RANK 8
#define UPK_RUN_TIMEOUT_DEFAULT_MS 10000     /* run.timeoutMs when absent */
#define UPK_RUN_PY_TIMEOUT_DEFAULT_MS 300000 /* run.reference.pytorch.timeoutMs when absent */
/* How long a run waits for device memory other runs hold before it reports
 * run/out-of-memory; the kernel deadline moves by the time waited. Below the
 * pool's compile budget (60 s), which also covers the run. */
#define UPK_RUN_MEM_WAIT_MS 30000

typedef enum { UPK_ROLE_IN, UPK_ROLE_OUT, UPK_ROLE_INOUT } upk_run_role;
/* UPK_INIT_FEED: filled per trial by the run's feed (device.h), the PyTorch
 * reference's tensors (pyref.h). */
typedef enum { UPK_INIT_RANDOM, UPK_INIT_VALUE, UPK_INIT_FILE, UPK_INIT_FEED } upk_run_init_kind;
typedef enum { UPK_REF_NONE, UPK_REF_KERNEL, UPK_REF_FILE, UPK_REF_PYTORCH } upk_run_ref_kind;
/* Where a buffer's tensor comes from with a PyTorch reference: {"from": "input0"},
 * {"from": "output"} (= output0), {"from": "param:conv2d.weight"}. */
typedef enum { UPK_FROM_NONE, UPK_FROM_INPUT, UPK_FROM_OUTPUT, UPK_FROM_PARAM } upk_run_from;
typedef enum {
  UPK_SAN_NONE,
  UPK_SAN_MEMCHECK,
  UPK_SAN_RACECHECK,
  UPK_SAN_INITCHECK,
  UPK_SAN_SYNCCHECK
} upk_run_sanitizer;

/** How a buffer is filled before each trial. */
typedef struct upk_run_init {
  upk_run_init_kind kind;
  uint64_t seed;    /* random: trial t uses upk_trial_seed(seed, t) */
  double low, high; /* random: floats in [low, high), integers in [low, high] */
  double value;     /* value */
  char *file;       /* file: raw little-endian elements, count * dtype size bytes */
} upk_run_init;

/** One kernel argument, in parameter order: a device buffer or a scalar. */
typedef struct upk_run_arg {
  bool is_buffer;
  char *name; /* as given, or "arg<i>" */
  upk_dtype dtype;
  /* Buffers. */
  size_t count; /* elements (the product of shape when shape is given) */
  size_t shape[UPK_RUN_MAX_RANK];
  int rank; /* 0: given as count */
  upk_run_role role;
  upk_run_init init; /* in and inout only (out buffers are poisoned) */
  /* With a PyTorch reference: the tensor this buffer is. dtype, count and
   * shape are then the tensor's (upk_pyref_resolve); given ones must agree. */
  upk_run_from from;
  unsigned from_index; /* input<N>, output<N> */
  char *from_name;     /* param:<name> */
  bool dtype_given;
  /* Scalars. */
  double value;
} upk_run_arg;

/** What the output is compared with. */
typedef struct upk_run_ref {
  upk_run_ref_kind kind;
  char *source;     /* another source's text (kernel kind); NULL: see path */
  char *path;       /* another source file (kernel kind); both NULL: the same source */
  char *name;       /* the reference kernel's name (kernel kind) */
  char *file;       /* expected output, raw elements of the one out/inout buffer (file kind) */
  unsigned grid[3]; /* the reference's own launch shape; zeros: the candidate's */
  unsigned block[3];
  size_t shared_bytes;
  bool has_launch;
  /* pytorch kind: a KernelBench-style problem (class Model, get_inputs, get_init_inputs). */
  struct {
    char *path, *source;         /* the problem file, or its text */
    char *model, *inputs, *init; /* names: Model, get_inputs, get_init_inputs */
    char *globals;               /* module-level overrides as a JSON object text, or NULL */
    bool compile;                /* also time torch.compile */
    uint64_t seed;               /* the model's seed; trial t's inputs: upk_trial_seed(seed, t) */
    unsigned timeout_ms;         /* the helper's limit (import, build, trials, timing) */
    /* Or a torch op of a kernel-builder project's torch-ext/ (pyref_op.c). */
    char *op;        /* "silu_and_mul"; NULL: a problem file */
    char *project;   /* the project's directory; NULL: found above the kernel's file */
    json_t *op_args; /* {schema arg name: {dtype, shape, low?, high?} | value}, checked for form */
  } py;
} upk_run_ref;

/** One shape set of a sweep (run.shapes, runshape.c): the arguments as the
 * kernel sees them at this shape (buffer extents, scalar values) and the
 * launch. `args` is a shallow copy of the spec's: names and file paths are
 * the spec's own; only the array belongs to the shape. */
typedef struct upk_run_shape {
  upk_run_arg *args;
  unsigned grid[3], block[3];
  unsigned ref_grid[3]; /* the reference's own grid when it has one */
  int odd;              /* 0: given; +1 / -1: the odd sizes above / below shape `of` */
  bool own;             /* the spec's own sizes (no run.shapes): its args as they are by then */
  size_t of;
} upk_run_shape;

typedef struct upk_run_spec {
  char *kernel; /* NULL: the source's only kernel */
  unsigned grid[3], block[3];
  size_t shared_bytes; /* dynamic shared memory per block */
  upk_run_arg *args;
  size_t n_args;
  upk_run_ref ref;
  double atol, rtol; /* < 0: the default for each output's dtype (upk_runspec_tolerance) */
  unsigned trials, warmup, iterations;
  unsigned timeout_ms;
  upk_run_sanitizer sanitizer;
  unsigned forbid; /* libraries the submission may not use: UPK_FORBID_* (static_checks.h) */
  double flops;    /* floating-point operations a launch does (run.flops, or 2mnk of run.gemm);
                      < 0: not given */
  /* The sweep: shapes[0] is the spec's own launch and args when run.shapes is
   * absent, else run.shapes[0]; the odd sizes (oddSizes, default on) follow
   * the given ones. Never empty after a parse. */
  upk_run_shape *shapes;
  size_t n_shapes, n_given_shapes;
  bool odd_sizes;
  /* run.seed, or one drawn from getrandom per parse: every random input's
   * seed is mixed with it (upk_run_input_seed), so the caller does not pick
   * the contents. Reported with the result; `seed` reproduces them. */
  uint64_t seed;
  bool seed_given;
} upk_run_spec;

/** Parse and validate. Returns 0, or -EINVAL with `err` naming the field
 * ("run.grid[1]: ..."), or -ENOMEM. On failure `out` holds nothing to free. */
int upk_runspec_parse(json_t *run, upk_run_spec *out, char *err, size_t err_len);
void upk_runspec_free(upk_run_spec *s);

/** The form of run.reference.pytorch.args (an op's arguments by schema
 * name; runspec_op.c): 0, or -EINVAL with `err` naming the field. */
int upk_runspec_op_args(json_t *args, char *err, size_t err_len);

/** The pure validator for the daemon's loop: 0 or -EINVAL (or -ENOMEM) with `err`. */
int upk_runspec_check(json_t *run, char *err, size_t err_len);

/** run.shapes, run.oddSizes (runshape.c; called by upk_runspec_parse once
 * args, reference and counts are parsed). */
int upk_runspec_shapes(json_t *run, upk_run_spec *s, char *err, size_t err_len);
void upk_runspec_shapes_free(upk_run_spec *s);

/** `s` as it runs at shape k: a copy sharing everything with `s` but the
 * arguments and launch (shape k's). Nothing to free. */
void upk_runspec_at(const upk_run_spec *s, size_t k, upk_run_spec *view);

/** The odd sizes of a dimension d at block width b: d + 13 or d - 7 (a
 * small prime each way), moved on by 2 until it is not a multiple of b.
 * Returns 0 when d is below 16 (a channel count or a filter, not a size)
 * or the result would be below 1. */
size_t upk_run_odd_size(size_t d, unsigned b, int dir);

/** The seed a random input with init seed `arg_seed` uses in this run. */
uint64_t upk_run_input_seed(const upk_run_spec *s, uint64_t arg_seed);

/** Bytes of every buffer of `args` together. */
size_t upk_run_args_bytes(const upk_run_arg *args, size_t n);

/** Tolerances for an output of dtype t: the spec's when given, else
 * KernelBench's (f32 1e-4, f16/bf16 1e-2, f64 1e-8, integers exact). */
void upk_runspec_tolerance(const upk_run_spec *s, upk_dtype t, double *atol, double *rtol);

/** "memcheck", ...; NULL for UPK_SAN_NONE. */
const char *upk_run_sanitizer_name(upk_run_sanitizer s);

#endif
