/** A PyTorch reference for a run (docs/gpu.md, "PyTorch reference"): the
 * Python helper (gpu/reference/pyref_helper.py, installed as upskilld-pyref.py next to
 * the worker) loads a KernelBench-style problem, draws each trial's inputs,
 * runs the model and times it; it hands the tensors to the worker as files
 * in a private directory, one per trial, in the small binary format below
 * (never JSON). The worker maps them (pyref_fmt.c), resolves the run's
 * {"from": ...} buffers against them and feeds the device engine
 * (device.h's feed hook).
 *
 * The format, little-endian throughout:
 *   file:   "UPKTENS1" (8 bytes), u32 version (1), u32 record count
 *   record: "UPKR", u32 kind, u32 index, u32 dtype, u32 rank, u32 name bytes,
 *           u64 shape[8] (unused dimensions 0), u64 data bytes   (96 bytes)
 *           then the name, then the data, each zero-padded to 8 bytes.
 * kind: 1 input (get_inputs()[index]), 2 output (the model's result
 * [index]), 3 parameter or buffer (by name), 4 eager timings, 5
 * torch.compile timings (f64 milliseconds, one per timed run), 6 an output's
 * contents before a torch op wrote it in place (index: the output's). dtype: the
 * upk_dtype value (0 f32, 1 f16, 2 bf16, 3 f64, 4 i8, 5 i32, 6 i64, 7 u8,
 * 8 u32). Data is the tensor's contiguous bytes; rank 0 holds one element. */
#ifndef UPK_GPU_PYREF_H
#define UPK_GPU_PYREF_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/diag.h"
#include "gpu/run/runcheck.h"
#include "gpu/run/runspec.h"

#define UPK_PYREF_MAGIC "UPKTENS1"
#define UPK_PYREF_VERSION 1
#define UPK_PYREF_NAME_MAX 255
#define UPK_PYREF_MAX_RECORDS 4096

typedef enum {
  UPK_PYT_INPUT = 1,
  UPK_PYT_OUTPUT = 2,
  UPK_PYT_PARAM = 3,
  UPK_PYT_TIME_EAGER = 4,
  UPK_PYT_TIME_COMPILE = 5,
  UPK_PYT_OUTPUT_INIT = 6 /* an output's contents before the op ran (in-place ops) */
} upk_pyref_kind;

/** One record; `data` points into the mapped file. */
typedef struct upk_pyref_tensor {
  upk_pyref_kind kind;
  unsigned index;
  char name[UPK_PYREF_NAME_MAX + 1];
  upk_dtype dtype;
  int rank;
  size_t shape[UPK_RUN_MAX_RANK];
  size_t count; /* elements: the product of shape (1 for rank 0) */
  const void *data;
  size_t bytes;
} upk_pyref_tensor;

typedef struct upk_pyref_file {
  void *map;
  size_t map_len;
  upk_pyref_tensor *t;
  size_t n;
} upk_pyref_file;

/** Map and check a handoff file. Returns 0, or -EINVAL (malformed: `err`
 * says where), -ENOENT, -ENOMEM. */
int upk_pyref_file_read(const char *path, upk_pyref_file *out, char *err, size_t err_len);
void upk_pyref_file_close(upk_pyref_file *f);
/** The record a {"from"} buffer names (NULL: none). */
const upk_pyref_tensor *upk_pyref_find(const upk_pyref_file *f, upk_run_from from, unsigned index,
                                       const char *name);
/** The record of `kind` (timings), or NULL. */
const upk_pyref_tensor *upk_pyref_find_kind(const upk_pyref_file *f, upk_pyref_kind kind);
/** Write records (name, dtype, rank, shape, data, bytes used) as one file.
 * The stand-in producer of the tests uses it; the helper writes the same. */
int upk_pyref_write(FILE *f, const upk_pyref_tensor *t, size_t n);
/** "f32 [4096, 4096]" */
void upk_pyref_describe(upk_dtype t, const size_t *shape, int rank, char *buf, size_t len);
/** "input0", "output1", "param:conv.weight" */
void upk_pyref_from_name(const upk_run_arg *a, char *buf, size_t len);

/** Where the helper comes from: `python` runs `helper`. */
typedef struct upk_pyref_cfg {
  const char *python; /* NULL: $UPSKILLD_PYTHON, else python3 from PATH */
  const char *helper; /* NULL: $UPSKILLD_PYREF_HELPER, else upskilld-pyref.py beside the worker */
  const char *hint;   /* an op's project is found above this path (the kernel's file) */
} upk_pyref_cfg;

/** One reference session: the helper's directory and what it produced. */
typedef struct upk_pyref {
  char dir[PATH_MAX]; /* removed with its files by upk_pyref_close */
  const upk_run_spec *s;
  upk_diags *diags;
  upk_range at;
  upk_pyref_file cur; /* the trial file mapped now */
  int cur_trial;      /* -1: none */
  upk_stats eager, compiled;
  bool has_eager, has_compiled;
  bool resolved; /* every {"from"} buffer has its tensor's dtype and shape */
  /* A torch op of torch-ext/ (pyref_op.c): its project and schema. */
  char project[PATH_MAX];
  char schema[512];
} upk_pyref;

/** Run the helper for spec `s` (reference kind pytorch) into a fresh private
 * directory. Every failure is one diagnostic: run/no-python, run/no-torch,
 * run/no-device, run/pytorch-helper-missing, run/pytorch-failed,
 * run/pytorch-timeout, run/pytorch-op-unavailable (an op's extension does
 * not import), and those of upk_pyref_op_plan. Returns 0 or a negative errno. */
int upk_pyref_run(upk_pyref *p, const upk_run_spec *s, const upk_pyref_cfg *cfg, upk_diags *diags,
                  upk_range at);
/** An error diagnostic of the reference at its range; returns -EINVAL. */
int upk_pyref_diag(upk_pyref *p, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** For an op reference (s->ref.py.op): find the kernel-builder project
 * (run.reference.pytorch.project, else the nearest build.toml above `hint`),
 * read the op's schema from its torch-ext C++ sources, check the spec's op
 * arguments and {"from"} buffers against it, and write the helper's call
 * plan (JSON of arguments, no tensors) to `plan`. One diagnostic on
 * failure: run/pytorch-op-project, run/pytorch-op-unknown,
 * run/pytorch-op-args, run/pytorch-mismatch. Returns 0 or -EINVAL/-ENOMEM. */
int upk_pyref_op_plan(upk_pyref *p, const upk_run_spec *s, const char *hint, char *plan,
                      size_t len);
/** Give every {"from"} buffer of `s` the dtype, count and shape of its tensor
 * in trial 0 and read the timings. A given dtype or shape that differs, a
 * tensor that does not exist or a dtype the kernel cannot take is a
 * diagnostic naming both sides (run/pytorch-mismatch; run/pytorch-handoff
 * for a malformed file). Returns 0 or -EINVAL. */
int upk_pyref_resolve(upk_pyref *p, upk_run_spec *s);
/** The device engine's feed (device.h): copies trial `trial`'s tensor of
 * argument `arg` (its input, or with `expected` its expected output) into
 * `dst` of `bytes`. Returns 0, or -EINVAL after a diagnostic. */
int upk_pyref_feed(void *ctx, unsigned trial, size_t arg, void *dst, size_t bytes, bool expected);
void upk_pyref_close(upk_pyref *p);
/** The run result's "pytorch" object: problem, seed, the tensors the buffers
 * are, and eager (and torch.compile) medians when the helper timed them. */
json_t *upk_pyref_json(const upk_pyref *p, const upk_run_spec *s);

#endif
