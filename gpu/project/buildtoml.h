/** kernel-builder's `build.toml` (edition 5), read with toml++ behind a C
 * interface (gpu/project/buildtoml.cc is the project's only C++).
 *
 * The schema is huggingface/kernels' `kernels-data/src/config/v5.rs`
 * (serde `deny_unknown_fields`, kebab-case): see
 * ../shared/reference/cuda-validation.md §2. Everything the builder would
 * refuse — a TOML syntax error, an unknown key, a missing required key, a
 * wrong type, an edition other than 5, a capability string not of the form
 * "<major>.<minor>[a][+PTX]", a `src` file that does not exist — is a
 * diagnostic at its line and column in build.toml (`file` set to its path),
 * and what could be read is still returned, so one mistake does not hide
 * the rest of the project. Plain C; no JSON, no libuv; blocking file I/O.
 */
#ifndef UPK_GPU_BUILDTOML_H
#define UPK_GPU_BUILDTOML_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "common/diag.h"

/** A string value and where it is written (zero-based; end_col exclusive). */
typedef struct upk_bt_str {
  char *s;
  int line, col, end_col;
} upk_bt_str;

/** A list of strings; line/col is the key's position (-1 when absent). */
typedef struct upk_bt_list {
  upk_bt_str *v;
  size_t n;
  int line, col;
} upk_bt_list;

/** One entry of `cuda-capabilities`: "9.0", "9.0a", "9.0+PTX", "9.0a+PTX". */
typedef struct upk_bt_cap {
  int major, minor;
  bool arch_specific; /* the 'a' suffix: sm_90a */
  bool ptx;           /* "+PTX": a PTX image besides the cubin */
  upk_bt_str text;    /* as written, with its position */
} upk_bt_cap;

/** One `[kernel.<name>]` table. */
typedef struct upk_bt_kernel {
  char *name;    /* <name> */
  int line;      /* zero-based line of its table header */
  char *backend; /* "cuda", "rocm", ...; NULL when missing (a diagnostic says so) */
  upk_bt_list src, include, depends, cuda_flags, cxx_flags;
  upk_bt_cap *caps; /* only well-formed capabilities */
  size_t n_caps;
  bool caps_given; /* `cuda-capabilities` present (the builder uses all it supports when not) */
} upk_bt_kernel;

typedef struct upk_buildtoml {
  char *path;      /* build.toml's path as given */
  char *dir;       /* its directory: `src` and `include` are relative to it */
  char *name;      /* [general] name; NULL when missing */
  long version;    /* [general] version */
  long edition;    /* 5 for a file this reads in full */
  char *framework; /* "torch", "torch-noarch" or "tvm-ffi"; NULL when none */
  upk_bt_list backends, torch_src, torch_include;
  upk_bt_kernel *kernels; /* in file order */
  size_t n_kernels;
  upk_diags diags;     /* codes "buildtoml/..." (docs/diagnostics.md) */
  char trust_hash[65]; /* upk_buildtoml_load: the project's config hash (common/trust.h) over
                          the very bytes parsed here; "" when it could not be made */
} upk_buildtoml;

/** Parse `len` bytes of `text` as the build.toml at `path` (used for the
 * diagnostics' file and to check that `src` files exist). Always fills `out`.
 * Returns 0 whether or not the file has errors (see out->diags), or -ENOMEM. */
int upk_buildtoml_parse(const char *text, size_t len, const char *path, upk_buildtoml *out);

/** Read and parse `path` (a build.toml, or a directory holding one). An
 * unreadable file is one "buildtoml/unreadable" diagnostic. Returns 0 or -ENOMEM. */
int upk_buildtoml_load(const char *path, upk_buildtoml *out);

void upk_buildtoml_free(upk_buildtoml *b);

/** Parse one capability string ("9.0a+PTX"); true when well-formed and known
 * to kernel-builder (7.0 ... 12.1). */
bool upk_bt_cap_parse(const char *s, upk_bt_cap *out);

#ifdef __cplusplus
}
#endif

#endif
