/** Launch sites read from CUDA source without a compiler: every
 * `kernel<<<grid, block, smem, stream>>>` and `cudaLaunchKernel` /
 * `cudaLaunchCooperativeKernel` / `cudaLaunchKernelEx` call, with the block and
 * dynamic shared memory it launches with where the source fixes them at compile
 * time: integer literals and arithmetic, `dim3(x, y, z)`, `sizeof` of built-in
 * types, `const`/`constexpr` values and variables the file never changes,
 * object-like macros (the file's and the request's `-D`), `dim3 threads(32, 32)`,
 * and the value an `if (n == 16)` or a `case 16:` of `switch (n)` gives a name.
 * Anything else is unknown, with the reason: a figure is never guessed.
 *
 * One forward pass over the lexer's tokens plus a bounded evaluation per launch
 * (a step budget, a depth limit), so hostile input costs bounded time. */
#ifndef UPK_GPU_LAUNCHES_H
#define UPK_GPU_LAUNCHES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_launch {
  char *kernel;    /* as written, blanks removed: "matrixMul", "reduce4<T,512>" */
  const char *via; /* static: "<<<>>>", "cudaLaunchKernel", "cudaLaunchKernelEx", ... */
  int line, col;   /* zero-based position of the kernel's name */
  int block[3];    /* the block's dimensions when block_known */
  bool block_known;
  long smem; /* dynamic shared memory per block, bytes, when smem_known */
  bool smem_known;
  char *block_text, *smem_text; /* the expressions as written (NULL: not given, so 0) */
  char *why;                    /* when something is unknown: why, for a person */
  int cond_line;                /* inside an #if this scan cannot decide: its line; else -1 */
} upk_launch;

typedef struct upk_launches {
  upk_launch *v;
  size_t n, cap;
  bool truncated; /* more launches than the scan keeps (MAX_LAUNCHES), or too many tokens */
  char **dyn;     /* kernels whose body declares extern __shared__ */
  size_t n_dyn, cap_dyn;
  bool dyn_outside; /* extern __shared__ outside any kernel (a helper): any kernel may use it */
} upk_launches;

enum { UPK_MAX_LAUNCHES = 1000 };

/** The text ahead of the file: the request's -D ("N=128", "X") and the headers it includes
 * (their #defines and conditionals are read, their code is not). */
typedef struct upk_launch_prelude {
  const char *const *defines;
  size_t n_defines;
  const char *const *headers; /* texts */
  const size_t *header_lens;
  size_t n_headers;
} upk_launch_prelude;

/** Scan `len` bytes of `src` after `pre` (NULL: none). Returns 0 or -ENOMEM. */
int upk_launches_scan(const char *src, size_t len, const upk_launch_prelude *pre,
                      upk_launches *out);
void upk_launches_free(upk_launches *l);

/** Whether launch kernel text `written` ("reduce4<T,512>") can be compiled kernel `name`
 * ("reduce4<int, 512u>", "void reduce4<int, 512u>"): the base names are equal and each
 * template argument written as a literal equals the compiled one (others match anything). */
bool upk_launch_matches(const char *written, const char *name);

/** The block size of a known launch (x*y*z), or 0. */
int upk_launch_threads(const upk_launch *l);

#endif
