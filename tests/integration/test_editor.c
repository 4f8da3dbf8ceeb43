/* Real source trees through the real daemon (issue 14): a file given by path, or open in the
 * editor, may include what its own project holds (`#include "../inc/x.h"` from src/, the way
 * NVIDIA's cuda-samples are laid out), opened from a workspace elsewhere; inline source keeps the
 * strict policy; errors land on the compiler's lines. The tree is generated here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(editor, .timeout = 240);

static bool have_toolkit(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[512];
  snprintf(p, sizeof p, "%s/include/nvrtc.h", cuda && *cuda ? cuda : "/usr/local/cuda");
  return access(p, R_OK) == 0;
}

#define NEED_TOOLKIT()                                                                             \
  do {                                                                                             \
    if (!have_toolkit())                                                                           \
      cr_skip_test("no CUDA toolkit (NVRTC) on this machine");                                     \
  } while (0)

typedef struct tree {
  char base[64];  /* the temporary directory holding both */
  char proj[128]; /* the project: CMakeLists.txt, inc/, src/ */
  char ws[128];   /* a workspace elsewhere */
} tree;

static void put(const char *dir, const char *rel, const char *text) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, rel);
  FILE *f = fopen(p, "w");
  cr_assert(f, "cannot write %s", p);
  fputs(text, f);
  fclose(f);
}

static void mkdirs(const char *dir, const char *rel) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, rel);
  cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
}

/* The kernel of src/scale.cu: line 4 (0-based 3) is where a planted error goes. */
static const char *const SCALE_CU = "// scale.cu\n"
                                    "#include \"../inc/scale.h\"\n"
                                    "__global__ void scale(float *y, int n) {\n"
                                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "  if (i < n) y[i] = scaled(y[i]);\n"
                                    "}\n";

/* proj/{CMakeLists.txt (when `marked`), inc/scale.h, src/scale.cu}, and ws/ beside it. */
static void make_tree(tree *t, bool marked) {
  snprintf(t->base, sizeof t->base, "/tmp/upk-tree-XXXXXX");
  cr_assert(mkdtemp(t->base));
  snprintf(t->proj, sizeof t->proj, "%s/proj", t->base);
  snprintf(t->ws, sizeof t->ws, "%s/ws", t->base);
  mkdirs(t->base, "proj"), mkdirs(t->base, "ws"), mkdirs(t->proj, "inc"), mkdirs(t->proj, "src");
  if (marked)
    put(t->proj, "CMakeLists.txt", "project(scale LANGUAGES CUDA)\n");
  put(t->proj, "inc/scale.h",
      "#pragma once\n__device__ inline float scaled(float x) { return 2.0f * x; }\n");
  put(t->proj, "src/scale.cu", SCALE_CU);
}

static void rm_tree(const tree *t) {
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->base);
  cr_assert_eq(system(cmd), 0);
}

static hx *session_in(const char *ws) {
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s", ws);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_decref(hx_lsp_init(d, uri));
  return d;
}

static json_t *validate(hx *d, json_t **resp, json_t *params) {
  static int id = 100;
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", ++id);
  json_t *req = json_pack("{s:s,s:i,s:s,s:o}", "jsonrpc", "2.0", "id", id, "method",
                          "kernel/validate", "params", params);
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  *resp = hx_call(d, text);
  free(text);
  return hx_assert_result(*resp, idtxt);
}

static json_t *diag_with_code(json_t *diags, const char *code) {
  size_t i;
  json_t *x;
  json_array_foreach(diags, i, x) {
    const char *c = json_string_value(json_object_get(x, "code"));
    if (c && !strcmp(c, code))
      return x;
  }
  return NULL;
}

static int start_line(json_t *diag) {
  return (int)json_integer_value(
      json_object_get(json_object_get(json_object_get(diag, "range"), "start"), "line"));
}

static bool has_dependency(json_t *result, const char *suffix) {
  size_t i, n = strlen(suffix);
  json_t *x;
  json_array_foreach(json_object_get(result, "dependencies"), i, x) {
    const char *p = json_string_value(json_object_get(x, "path"));
    if (p && strlen(p) >= n && !strcmp(p + strlen(p) - n, suffix))
      return true;
  }
  return false;
}

Test(editor, a_file_includes_from_its_project_when_given_by_path) {
  NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  char path[300];
  snprintf(path, sizeof path, "%s/src/scale.cu", t.proj);
  json_t *resp, *r = validate(d, &resp, json_pack("{s:s,s:b}", "path", path, "cache", 0));
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  cr_assert_eq(json_array_size(json_object_get(r, "kernels")), 1, "%s", hx_dump(r));
  cr_assert(has_dependency(r, "/proj/inc/scale.h"), "%s", hx_dump(r));
  json_decref(resp);
  /* A planted error lands on its own line (the 4th), as nvcc reports it. */
  put(t.proj, "src/scale.cu",
      "// scale.cu\n#include \"../inc/scale.h\"\n__global__ void scale(float *y, int n) {\n"
      "  int i = planted_error;\n  if (i < n) y[i] = scaled(y[i]);\n}\n");
  r = validate(d, &resp, json_pack("{s:s,s:b}", "path", path, "cache", 0));
  cr_assert(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_t *diags = json_object_get(r, "diagnostics");
  cr_assert_null(diag_with_code(diags, "kernel/include-outside"), "%s", hx_dump(r));
  cr_assert_eq(json_array_size(diags), 1, "%s", hx_dump(r));
  cr_assert_eq(start_line(json_array_get(diags, 0)), 3, "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}

Test(editor, inline_source_keeps_the_strict_policy) {
  NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  json_t *resp, *r = validate(d, &resp, json_pack("{s:s}", "source", SCALE_CU));
  /* Inline source has no directory: the include resolves nowhere and the compiler says so. */
  cr_assert(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  /* Found through a given dir that is not allowed for inline source: refused, never opened. */
  char src[400];
  snprintf(src, sizeof src, "#include \"%s/inc/scale.h\"\n__global__ void k() {}\n", t.proj);
  r = validate(d, &resp, json_pack("{s:s}", "source", src));
  json_t *x = diag_with_code(json_object_get(r, "diagnostics"), "kernel/include-outside");
  cr_assert(x, "%s", hx_dump(r));
  cr_assert_eq(start_line(x), 0);
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}

Test(editor, no_project_marker_means_no_project) {
  NEED_TOOLKIT();
  tree t;
  make_tree(&t, false);
  hx *d = session_in(t.ws);
  char path[300];
  snprintf(path, sizeof path, "%s/src/scale.cu", t.proj);
  json_t *resp, *r = validate(d, &resp, json_pack("{s:s,s:b}", "path", path, "cache", 0));
  json_t *x = diag_with_code(json_object_get(r, "diagnostics"), "kernel/include-outside");
  cr_assert(x, "without a project root ../inc is outside: %s", hx_dump(r));
  cr_assert_eq(start_line(x), 1, "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}

/* ---- LSP ---- */

static json_t *next_publish(hx *d, const char *uri) {
  json_t *m;
  while ((m = hx_next(d, HX_TIMEOUT * 4))) {
    const char *method = json_string_value(json_object_get(m, "method"));
    json_t *p = json_object_get(m, "params");
    if (method && !strcmp(method, "textDocument/publishDiagnostics") &&
        !strcmp(json_string_value(json_object_get(p, "uri")), uri))
      return m;
    json_decref(m);
  }
  return NULL;
}

static void did_open(hx *d, const char *uri, const char *text) {
  json_t *m = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                        "textDocument/didOpen", "params", "textDocument", "uri", uri, "languageId",
                        "cuda-cpp", "version", 1, "text", text);
  char *s = json_dumps(m, JSON_COMPACT);
  json_decref(m);
  hx_send(d, s);
  free(s);
}

Test(editor, an_open_file_includes_from_its_project) {
  NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/scale.cu", t.proj);
  did_open(d, uri,
           "// scale.cu\n#include \"../inc/scale.h\"\n__global__ void scale(float *y, int n) {\n"
           "  int i = planted_error;\n  if (i < n) y[i] = scaled(y[i]);\n}\n");
  json_t *m = next_publish(d, uri);
  cr_assert(m, "no publishDiagnostics after didOpen");
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  cr_assert_eq(json_array_size(diags), 1, "%s", hx_dump(m));
  cr_assert_eq(start_line(json_array_get(diags, 0)), 3, "%s", hx_dump(m));
  cr_assert(strstr(json_string_value(json_object_get(json_array_get(diags, 0), "message")),
                   "planted_error"),
            "%s", hx_dump(m));
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(&t);
}
