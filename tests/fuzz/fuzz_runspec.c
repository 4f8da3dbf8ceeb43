/* libFuzzer target: the `run` object of kernel/validate (gpu/run/runspec.c), from JSON text as a
 * client sends it. The daemon checks it on its loop (upk_runspec_check) and the worker parses it
 * again to allocate buffers and launch.
 * Invariants: check and parse agree; a failure names the field; an accepted spec stays inside
 * the limits the worker relies on (total buffer bytes, block threads, shared memory, shape
 * product == count), so no client can make a worker allocate past them. */
#include "tests/fuzz/fuzz_util.h"
#include "gpu/run/runcheck.h"
#include "gpu/run/runspec.h"

/* Every shape of the sweep (given and odd) within the same limits (issue 50). */
static void check_shapes(const upk_run_spec *s) {
  CHECK(s->n_shapes >= 1 && s->n_given_shapes >= 1 && s->n_shapes <= 3 * s->n_given_shapes);
  for (size_t k = 0; k < s->n_shapes; k++) {
    const upk_run_shape *sh = &s->shapes[k];
    CHECK((uint64_t)sh->block[0] * sh->block[1] * sh->block[2] <= UPK_RUN_MAX_BLOCK_THREADS);
    CHECK(sh->grid[0] >= 1 && sh->grid[1] >= 1 && sh->grid[2] >= 1);
    CHECK(sh->grid[1] <= 65535 && sh->grid[2] <= 65535 && sh->grid[0] <= 2147483647u);
    unsigned __int128 total = 0;
    for (size_t i = 0; i < s->n_args; i++) {
      const upk_run_arg *a = &sh->args[i];
      if (!a->is_buffer)
        continue;
      CHECK(a->count > 0 && a->rank >= 0 && a->rank <= UPK_RUN_MAX_RANK);
      total += (unsigned __int128)a->count * upk_dtype_size(a->dtype);
    }
    CHECK(total <= UPK_RUN_MAX_BUFFER_BYTES);
  }
}

static void check_spec(const upk_run_spec *s) {
  check_shapes(s);
  CHECK((uint64_t)s->block[0] * s->block[1] * s->block[2] <= UPK_RUN_MAX_BLOCK_THREADS);
  CHECK(s->shared_bytes <= UPK_RUN_MAX_SHARED_BYTES);
  size_t total = 0;
  for (size_t i = 0; i < s->n_args; i++) {
    const upk_run_arg *a = &s->args[i];
    CHECK(a->name && fuzz_utf8(a->name));
    if (!a->is_buffer)
      continue;
    CHECK(a->count > 0 && a->rank >= 0 && a->rank <= UPK_RUN_MAX_RANK);
    if (a->rank) {
      unsigned __int128 p = 1;
      for (int k = 0; k < a->rank; k++)
        p *= a->shape[k];
      CHECK(p == a->count);
    }
    size_t es = upk_dtype_size(a->dtype);
    CHECK(es > 0 && a->count <= UPK_RUN_MAX_BUFFER_BYTES / es);
    total += a->count * es;
    CHECK(total <= UPK_RUN_MAX_BUFFER_BYTES);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_t *run = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
  if (!run)
    return 0;
  char e1[512] = "", e2[512] = "";
  int c = upk_runspec_check(run, e1, sizeof e1);
  upk_run_spec s;
  int p = upk_runspec_parse(run, &s, e2, sizeof e2);
  CHECK(c == p && (c == 0 || c == -EINVAL));
  if (p == 0) {
    check_spec(&s);
    upk_runspec_free(&s);
  } else {
    CHECK(e1[0] && strcmp(e1, e2) == 0);
    if (!fuzz_utf8(e1)) {
      fprintf(stderr, "fuzz: run spec error not valid UTF-8: %s\n", e1);
      abort();
    }
  }
  json_decref(run);
  return 0;
}
