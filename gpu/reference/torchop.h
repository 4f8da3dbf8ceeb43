/** The torch ops a kernel-builder project declares (docs/gpu.md, "A torch
 * op of torch-ext/"): the schemas of `ops.def("name(Tensor! out, Tensor x,
 * float eps) -> ()")` in `torch-ext/torch_binding.cpp` (and the other C++
 * sources of build.toml's [torch] src), read without Python or a compiler.
 *
 * A schema is PyTorch's function-schema grammar:
 *   name[.overload](Type name[=default], ..., [*,] ...) -> Ret
 * Type: Tensor, Tensor!, Tensor(a!), Tensor?, Tensor[], int, SymInt, float,
 * bool, str, Scalar, ScalarType, ... with [] / [N] (a list) and ? (optional).
 * Ret: (), a type, or a parenthesised list of types with optional names.
 * Plain C; no JSON; blocking file I/O in upk_torchop_load only. */
#ifndef UPK_GPU_TORCHOP_H
#define UPK_GPU_TORCHOP_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

#define UPK_TORCHOP_NAME_MAX 127
#define UPK_TORCHOP_MAX_ARGS 64

typedef enum {
  UPK_TOP_TENSOR,      /* Tensor (also Tensor? and Tensor!) */
  UPK_TOP_TENSOR_LIST, /* Tensor[] / Tensor?[] */
  UPK_TOP_INT,         /* int, SymInt */
  UPK_TOP_FLOAT,       /* float */
  UPK_TOP_BOOL,
  UPK_TOP_STR,
  UPK_TOP_SCALAR, /* Scalar: a number */
  UPK_TOP_OTHER   /* ScalarType, Generator, Device, Layout, ...: only None or a default */
} upk_torchop_kind;

typedef struct upk_torchop_arg {
  char name[64];
  char type[64]; /* as written: "Tensor(a!)?" */
  upk_torchop_kind kind;
  bool list;     /* int[], float[2], ... (not Tensor[]: its own kind) */
  bool written;  /* Tensor! / Tensor(a!): the op writes it (an output) */
  bool optional; /* Type? */
  bool has_default;
  bool kwonly;  /* after `*` */
  char def[48]; /* the default as written ("None", "1e-5", "False") */
} upk_torchop_arg;

typedef struct upk_torchop {
  char name[UPK_TORCHOP_NAME_MAX + 1];
  char overload[64];
  upk_torchop_arg *args;
  size_t n_args;
  size_t n_ret_tensors; /* returned Tensors: -> Tensor is 1, -> (Tensor, Tensor) is 2 */
  bool ret_list;        /* -> Tensor[]: a list of unknown length */
  char *schema;         /* the text as declared */
  char *file;           /* where: the file and zero-based line of its literal */
  int line;
} upk_torchop;

typedef struct upk_torchop_set {
  upk_torchop *ops;
  size_t n;
  size_t n_files;    /* C++ sources read */
  char package[128]; /* build.toml's [general] name, '-' as '_': torch-ext/<package>/ */
  char **inferred;   /* names of `.def("name", fn)`: a schema torch infers from C++ */
  size_t n_inferred;
} upk_torchop_set;

/** Parse one schema into `out`. Returns 0, -EINVAL with `err` saying where
 * and what ("at column 14: expected ',' or ')'"), or -ENOMEM. */
int upk_torchop_parse(const char *schema, upk_torchop *out, char *err, size_t err_len);
void upk_torchop_free(upk_torchop *op);

/** Every `.def("<schema>")` of `len` bytes of C++ `text` (adjacent string
 * literals joined, comments skipped) into `set`; a name declared twice (an
 * #if branch per backend) is kept once, the first. A schema that does not
 * parse is a warning "torchop/bad-schema" in `diags` at its line (`path`
 * names the file). A `.def("name", fn)` without a schema is kept by name
 * only (`inferred`).
 * Returns 0 or -ENOMEM. */
int upk_torchop_scan(const char *text, size_t len, const char *path, upk_torchop_set *set,
                     upk_diags *diags);

/** The ops of the kernel-builder project in `dir` (its build.toml's [torch]
 * src C++ files; torch-ext/torch_binding.cpp when it lists none). Returns 0,
 * -ENOENT with `err` when no C++ source of torch-ext/ can be read, -ENOMEM. */
int upk_torchop_load(const char *dir, upk_torchop_set *set, upk_diags *diags, char *err,
                     size_t err_len);

const upk_torchop *upk_torchop_find(const upk_torchop_set *set, const char *name);
void upk_torchop_set_free(upk_torchop_set *set);

/** "Tensor", "float", ...: the kind's name in messages. */
const char *upk_torchop_kind_name(upk_torchop_kind k);

#endif
