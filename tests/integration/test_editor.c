/* Real source trees through the real daemon (issue 14): a file given by path, or open in the
 * editor, may include what its own project holds (`#include "../inc/x.h"` from src/, the way
 * NVIDIA's cuda-samples are laid out), opened from a workspace elsewhere; inline source keeps the
 * strict policy; errors land on the compiler's lines. The tree is generated here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/harness.h"

TestSuite(editor, .timeout = 240);

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

/* One LSP request; its result (owned by *resp). */
static json_t *lsp(hx *d, json_t **resp, const char *method, json_t *params) {
  static int id = 500;
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", ++id);
  json_t *req = json_pack("{s:s,s:i,s:s,s:o}", "jsonrpc", "2.0", "id", id, "method", method,
                          "params", params);
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  *resp = hx_call(d, text);
  free(text);
  return hx_assert_result(*resp, idtxt);
}

static json_t *validate(hx *d, json_t **resp, json_t *params) {
  return lsp(d, resp, "kernel/validate", params);
}

/* The first object of `arr` whose string `key` starts with `prefix`. */
static json_t *find_by(json_t *arr, const char *key, const char *prefix) {
  size_t i;
  json_t *x;
  json_array_foreach(arr, i, x) {
    const char *v = json_string_value(json_object_get(x, key));
    if (v && !strncmp(v, prefix, strlen(prefix)))
      return x;
  }
  return NULL;
}

static json_t *diag_with_code(json_t *diags, const char *code) {
  return find_by(diags, "code", code);
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
  HX_NEED_TOOLKIT();
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
  HX_NEED_TOOLKIT();
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
  HX_NEED_TOOLKIT();
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

static void did_open_as(hx *d, const char *uri, const char *language, const char *text) {
  json_t *m = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                        "textDocument/didOpen", "params", "textDocument", "uri", uri, "languageId",
                        language, "version", 1, "text", text);
  char *s = json_dumps(m, JSON_COMPACT);
  json_decref(m);
  hx_send(d, s);
  free(s);
}

static void did_open(hx *d, const char *uri, const char *text) {
  did_open_as(d, uri, "cuda-cpp", text);
}

static void did_change(hx *d, const char *uri, int version, const char *text) {
  json_t *ch = json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                         "textDocument/didChange", "params", "textDocument", "uri", uri, "version",
                         version, "contentChanges", "text", text);
  char *s = json_dumps(ch, JSON_COMPACT);
  json_decref(ch);
  hx_send(d, s);
  free(s);
}

Test(editor, an_open_file_includes_from_its_project) {
  HX_NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/scale.cu", t.proj);
  did_open(d, uri,
           "// scale.cu\n#include \"../inc/scale.h\"\n__global__ void scale(float *y, int n) {\n"
           "  int i = planted_error;\n  if (i < n) y[i] = scaled(y[i]);\n}\n");
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4);
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

/* ---- kernel facts in the code: lenses, hovers, code actions, commands ---- */

static json_t *at(const char *uri, int line, int character) {
  return json_pack("{s:{s:s},s:{s:i,s:i}}", "textDocument", "uri", uri, "position", "line", line,
                   "character", character);
}

/* Checks the kernel service ran (cache hits and misses): a lens or hover must not add one. */
static json_int_t checks_so_far(hx *d) {
  json_t *resp, *r = lsp(d, &resp, "upskilld/status", json_object());
  json_t *cache = json_object_get(json_object_get(r, "kernels"), "cache");
  json_int_t n = json_integer_value(json_object_get(cache, "hits")) +
                 json_integer_value(json_object_get(cache, "misses"));
  json_decref(resp);
  return n;
}

/* heavy() is register-bound at 256 threads; line 8 calls the deprecated __shfl_down. */
static const char *const HEAVY_CU =
    "// heavy.cu\n"
    "__global__ void heavy(float *y) {\n"
    "  float acc[64];\n"
    "#pragma unroll\n"
    "  for (int j = 0; j < 64; j++) acc[j] = y[threadIdx.x + j] * j;\n"
    "  float s = 0;\n"
    "#pragma unroll\n"
    "  for (int j = 0; j < 64; j++) s += acc[j] * acc[(j * 7) % 64];\n"
    "  y[threadIdx.x] = s;\n"
    "}\n"
    "template <typename T> __global__ void scale(T *y, T a) { y[threadIdx.x] *= a; }\n"
    "template __global__ void scale<float>(float *, float);\n"
    "void launch(float *y) { heavy<<<1, 256>>>(y); }\n";

Test(editor, capabilities_are_advertised) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *res = hx_lsp_init(d, NULL);
  json_t *caps = json_object_get(res, "capabilities");
  cr_assert(json_is_object(json_object_get(caps, "codeLensProvider")), "%s", hx_dump(caps));
  cr_assert(json_is_true(json_object_get(caps, "hoverProvider")), "%s", hx_dump(caps));
  cr_assert(json_is_object(json_object_get(caps, "codeActionProvider")), "%s", hx_dump(caps));
  cr_assert(json_is_object(json_object_get(caps, "completionProvider")), "%s", hx_dump(caps));
  json_t *cmds = json_object_get(json_object_get(caps, "executeCommandProvider"), "commands");
  cr_assert_eq(json_array_size(cmds), 3, "%s", hx_dump(caps));
  json_decref(res);
  hx_finish(d, 0);
}

Test(editor, lenses_and_hovers_answer_from_the_last_check) {
  HX_NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  put(t.proj, "src/heavy.cu", HEAVY_CU);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/heavy.cu", t.proj);
  did_open(d, uri, HEAVY_CU);
  /* Asked at once, the lenses come with the first check (not an empty list before it). */
  json_t *resp, *r = lsp(d, &resp, "textDocument/codeLens",
                         json_pack("{s:{s:s}}", "textDocument", "uri", uri));
  cr_assert_eq(json_array_size(r), 3, "one lens per kernel and per launch: %s", hx_dump(r));
  json_decref(resp);
  json_int_t checks = checks_so_far(d);
  r = lsp(d, &resp, "textDocument/codeLens", json_pack("{s:{s:s}}", "textDocument", "uri", uri));
  cr_assert_eq(json_array_size(r), 3, "one lens per kernel and per launch: %s", hx_dump(r));
  size_t i;
  json_t *l;
  bool saw_heavy = false, saw_scale = false, saw_launch = false;
  json_array_foreach(r, i, l) {
    int line = start_line(l);
    const char *title = json_string_value(json_object_get(json_object_get(l, "command"), "title"));
    if (line == 12) { /* heavy<<<1, 256>>>: the launch's own figures */
      saw_launch = title && strstr(title, "launch: 256x1x1 = 256 threads") &&
                   strstr(title, "occupancy (registers)");
      continue;
    }
    cr_assert(title && strstr(title, "regs") && strstr(title, "occupancy"), "%s", hx_dump(l));
    if (line == 1) {
      saw_heavy = true;
      cr_assert(strstr(title, "heavy: ") && strstr(title, "registers-bound"), "%s", title);
    } else if (line == 10) {
      saw_scale = strstr(title, "scale<float>: ") != NULL;
    }
  }
  cr_assert(saw_heavy && saw_scale && saw_launch, "%s", hx_dump(r));
  json_decref(resp);
  /* Hover on the definition and on the launch: the table, occupancy by block size, the limit. */
  int spots[][2] = {{1, 18}, {12, 26}};
  for (int s = 0; s < 2; s++) {
    r = lsp(d, &resp, "textDocument/hover", at(uri, spots[s][0], spots[s][1]));
    const char *md = json_string_value(json_object_get(json_object_get(r, "contents"), "value"));
    cr_assert(md && strstr(md, "**heavy**") && strstr(md, "| 1024 |") && strstr(md, "| 64 |") &&
                  strstr(md, "Binding limit at 256 threads") && strstr(md, "**registers**"),
              "%s", hx_dump(r));
    /* At the launch line, that launch's own figures come first; at the definition, none. */
    bool launch = md && strstr(md, "**At this line** — launch: 256x1x1 = 256 threads");
    cr_assert(s ? launch : !launch, "%s", hx_dump(r));
    json_decref(resp);
  }
  r = lsp(d, &resp, "textDocument/hover", at(uri, 4, 30)); /* "threadIdx": not a kernel */
  cr_assert(json_is_null(r), "%s", hx_dump(r));
  json_decref(resp);
  cr_assert_eq(checks_so_far(d), checks, "a lens or hover compiled again");
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(&t);
}

/* Apply LSP TextEdits (one line each, sorted by the caller's order reversed) to `line`. */
static void apply_on_line(char *line, size_t cap, json_t *edits) {
  for (size_t i = json_array_size(edits); i-- > 0;) {
    json_t *e = json_array_get(edits, i);
    int a = (int)json_integer_value(
            json_object_get(json_object_get(json_object_get(e, "range"), "start"), "character")),
        b = (int)json_integer_value(
            json_object_get(json_object_get(json_object_get(e, "range"), "end"), "character"));
    const char *nt = json_string_value(json_object_get(e, "newText"));
    char tail[256];
    snprintf(tail, sizeof tail, "%s", line + b);
    snprintf(line + a, cap - (size_t)a, "%s%s", nt, tail);
  }
}

static json_t *action_titled(json_t *actions, const char *prefix) {
  return find_by(actions, "title", prefix);
}

/* Code actions for `diag`; the one titled `title` applied to `line` (the diagnostic's). Returns
 * the actions (owned by *resp). */
static json_t *apply_fix(hx *d, json_t **resp, const char *uri, json_t *diag, const char *title,
                         char *line, size_t cap) {
  json_t *r = lsp(d, resp, "textDocument/codeAction",
                  json_pack("{s:{s:s},s:O,s:{s:[O]}}", "textDocument", "uri", uri, "range",
                            json_object_get(diag, "range"), "context", "diagnostics", diag));
  json_t *fix = action_titled(r, title);
  cr_assert(fix, "%s", hx_dump(r));
  apply_on_line(line, cap,
                json_object_get(json_object_get(json_object_get(fix, "edit"), "changes"), uri));
  return r;
}

Test(editor, code_actions_fix_lint_and_find_a_skill) {
  HX_NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  const char *src = "__global__ void k(float *y) {\n"
                    "  float s = y[threadIdx.x];\n"
                    "  s += __shfl_down(s, 1);\n"
                    "  y[threadIdx.x] = s;\n"
                    "}\n";
  put(t.proj, "src/k.cu", src);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/k.cu", t.proj);
  did_open(d, uri, src);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4), *resp, *r;
  cr_assert(m);
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics");
  json_t *lint = diag_with_code(diags, "h100/deprecated-warp-intrinsic");
  cr_assert(lint, "%s", hx_dump(m));
  char line[256] = "  s += __shfl_down(s, 1);";
  r = apply_fix(d, &resp, uri, lint, "Use __shfl_down_sync", line, sizeof line);
  cr_assert_str_eq(line, "  s += __shfl_down_sync(0xffffffff, s, 1);");
  json_t *find = action_titled(r, "Find a skill for this");
  cr_assert(find, "%s", hx_dump(r));
  json_t *cmd = json_object_get(find, "command");
  cr_assert_str_eq(json_string_value(json_object_get(cmd, "command")), "upskilld.findSkill");
  json_t *exec = json_pack("{s:O,s:O}", "command", json_object_get(cmd, "command"), "arguments",
                           json_object_get(cmd, "arguments"));
  json_decref(m);
  json_t *resp2, *found = lsp(d, &resp2, "workspace/executeCommand", exec);
  json_t *results = json_object_get(found, "results");
  cr_assert_geq(json_array_size(results), 1, "%s", hx_dump(found));
  /* The follow-up: install what was found (a builtin skill) into the workspace. */
  json_t *first = json_array_get(results, 0);
  char dirpath[512];
  snprintf(dirpath, sizeof dirpath, "%s", json_string_value(json_object_get(first, "path")));
  char *slash = strrchr(dirpath, '/');
  if (slash && !strcmp(slash, "/SKILL.md"))
    *slash = '\0';
  json_t *resp3, *inst = lsp(d, &resp3, "workspace/executeCommand",
                             json_pack("{s:s,s:[{s:s}]}", "command", "upskilld.installSkill",
                                       "arguments", "from", dirpath));
  cr_assert(json_is_array(json_object_get(inst, "targets")), "%s", hx_dump(inst));
  char installed[512];
  snprintf(installed, sizeof installed, "%s/.claude/skills/%s/SKILL.md", t.ws,
           json_string_value(json_object_get(first, "name")));
  cr_assert_eq(access(installed, R_OK), 0, "not installed at %s: %s", installed, hx_dump(inst));
  json_decref(resp), json_decref(resp2), json_decref(resp3);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"workspace/executeCommand\","
                 "\"params\":{\"command\":\"upskilld.nope\"}}");
  cr_assert(strstr(hx_assert_error(r, "9", -32602), "unknown command"));
  json_decref(r);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(&t);
}

/* ---- SKILL.md ---- */

Test(editor, skill_files_get_key_hovers_completion_and_a_token_lens) {
  tree t;
  make_tree(&t, false);
  mkdirs(t.ws, "gpu-notes");
  const char *text = "---\nname: gpu-notes\ndescription: Notes on GPUs. Use when tuning.\n\n---\n"
                     "# GPU notes\n\nKeep occupancy high.\n";
  put(t.ws, "gpu-notes/SKILL.md", text);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/gpu-notes/SKILL.md", t.ws);
  did_open_as(d, uri, "markdown", text);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4);
  cr_assert(m);
  json_decref(m);
  json_t *resp, *r;
  r = lsp(d, &resp, "textDocument/codeLens", json_pack("{s:{s:s}}", "textDocument", "uri", uri));
  cr_assert_eq(json_array_size(r), 1, "%s", hx_dump(r));
  const char *title =
      json_string_value(json_object_get(json_object_get(json_array_get(r, 0), "command"), "title"));
  cr_assert(title && strstr(title, "tokens") && strstr(title, "always loaded"), "%s", hx_dump(r));
  cr_assert_eq(start_line(json_array_get(r, 0)), 0);
  json_decref(resp);
  r = lsp(d, &resp, "textDocument/hover", at(uri, 2, 3));
  const char *md = json_string_value(json_object_get(json_object_get(r, "contents"), "value"));
  cr_assert(md && strstr(md, "**description**") && strstr(md, "1024"), "%s", hx_dump(r));
  json_decref(resp);
  r = lsp(d, &resp, "textDocument/hover", at(uri, 7, 2)); /* the body: nothing */
  cr_assert(json_is_null(r), "%s", hx_dump(r));
  json_decref(resp);
  r = lsp(d, &resp, "textDocument/completion", at(uri, 3, 0));
  bool license = false, name = false;
  size_t i;
  json_t *it;
  json_array_foreach(r, i, it) {
    const char *label = json_string_value(json_object_get(it, "label"));
    license |= !strcmp(label, "license");
    name |= !strcmp(label, "name");
  }
  cr_assert(license && !name, "missing keys offered, present ones not: %s", hx_dump(r));
  json_decref(resp);
  r = lsp(d, &resp, "textDocument/completion", at(uri, 6, 0)); /* the body: none */
  cr_assert_eq(json_array_size(r), 0, "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}

/* The document is checked with its path, as `upskillctl validate` checks the file: a name that
 * is not its directory's shows in the editor too (unsaved text, the file on disk is fine). */
Test(editor, skill_files_are_checked_with_their_directory) {
  tree t;
  make_tree(&t, false);
  mkdirs(t.ws, "gpu-notes");
  put(t.ws, "gpu-notes/SKILL.md",
      "---\nname: gpu-notes\ndescription: Notes. Use when tuning.\n---\n");
  const char *text =
      "---\nname: gpu-tips\ndescription: Notes on GPUs. Use when tuning.\n---\n# T\n";
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/gpu-notes/SKILL.md", t.ws);
  did_open_as(d, uri, "markdown", text);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4);
  cr_assert(m);
  cr_assert(strstr(hx_dump(m), "skill/name-dir-mismatch"), "%s", hx_dump(m));
  json_decref(m);
  hx_finish(d, 0);
  rm_tree(&t);
}

/* 160 live floats: about 254 registers, 12.5% occupancy at 256 threads, register-bound. */
static const char *const FAT_CU =
    "__global__ void fat(const float *x, float *y) {\n"
    "  float v[160];\n"
    "#pragma unroll\n"
    "  for (int j = 0; j < 160; j++) v[j] = x[j * 1024 + threadIdx.x];\n"
    "  float s = 0;\n"
    "#pragma unroll\n"
    "  for (int j = 0; j < 160; j++) s += v[j] * v[159 - j] * v[(j * 13) % 160];\n"
    "#pragma unroll\n"
    "  for (int j = 0; j < 160; j++) y[j * 1024 + threadIdx.x] = v[j] * s;\n"
    "}\n";

Test(editor, the_launch_bounds_fix_lifts_occupancy) {
  HX_NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/fat.cu", t.proj);
  did_open(d, uri, FAT_CU);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4), *resp, *r;
  cr_assert(m);
  json_t *low = diag_with_code(json_object_get(json_object_get(m, "params"), "diagnostics"),
                               "h100/low-occupancy");
  cr_assert(low, "%s", hx_dump(m));
  char line[256] = "__global__ void fat(const float *x, float *y) {";
  apply_fix(d, &resp, uri, low, "Add __launch_bounds__(256, 2)", line, sizeof line);
  cr_assert_str_eq(line,
                   "__global__ void __launch_bounds__(256, 2) fat(const float *x, float *y) {");
  json_decref(resp);
  json_decref(m);
  /* The edited text is checked again: the finding is gone, the lens shows the new occupancy. */
  static char text[4096];
  snprintf(text, sizeof text, "%s\n%s", line, strchr(FAT_CU, '\n') + 1);
  did_change(d, uri, 2, text);
  m = hx_next_publish(d, uri, HX_TIMEOUT * 4);
  cr_assert(m);
  cr_assert_null(diag_with_code(json_object_get(json_object_get(m, "params"), "diagnostics"),
                                "h100/low-occupancy"),
                 "%s", hx_dump(m));
  json_decref(m);
  r = lsp(d, &resp, "textDocument/codeLens", json_pack("{s:{s:s}}", "textDocument", "uri", uri));
  const char *title =
      json_string_value(json_object_get(json_object_get(json_array_get(r, 0), "command"), "title"));
  cr_assert(title && strstr(title, "occupancy 25%"), "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}

static const char *lens_title(json_t *lenses, int line) {
  size_t i;
  json_t *l;
  json_array_foreach(lenses, i, l) if (start_line(l) == line) return json_string_value(
      json_object_get(json_object_get(l, "command"), "title"));
  return NULL;
}

/* A typo mid-edit keeps each kernel's last good figures, marked stale, at its new line; a
 * kernel new since then says why it has none; the lens's table is still there, marked stale. */
Test(editor, lenses_survive_a_typo) {
  HX_NEED_TOOLKIT();
  tree t;
  make_tree(&t, true);
  hx *d = session_in(t.ws);
  char uri[300];
  snprintf(uri, sizeof uri, "file://%s/src/heavy.cu", t.proj);
  did_open(d, uri, HEAVY_CU);
  json_decref(hx_next_publish(d, uri, HX_TIMEOUT * 4));
  static char broken[4096];
  snprintf(broken, sizeof broken,
           "// a line added above\n%s__global__ void fresh(float *y) { y[0] = }\n", HEAVY_CU);
  did_change(d, uri, 2, broken);
  json_t *m = hx_next_publish(d, uri, HX_TIMEOUT * 4);
  cr_assert(m);
  json_decref(m);
  json_t *resp, *r = lsp(d, &resp, "textDocument/codeLens",
                         json_pack("{s:{s:s}}", "textDocument", "uri", uri));
  const char *heavy = lens_title(r, 2), *fresh = lens_title(r, 14);
  cr_assert(heavy && !strncmp(heavy, "(stale) heavy: ", 15) && strstr(heavy, "regs"), "%s",
            hx_dump(r));
  cr_assert(fresh && strstr(fresh, "fresh: no figures yet (compile error at line 15)"), "%s",
            hx_dump(r));
  json_decref(resp);
  r = lsp(d, &resp, "workspace/executeCommand",
          json_pack("{s:s,s:[s,s]}", "command", "upskilld.kernelInfo", "arguments", uri, "heavy"));
  const char *md = json_string_value(json_object_get(r, "markdown"));
  cr_assert(md && strstr(md, "Stale") && strstr(md, "**heavy**"), "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
  rm_tree(&t);
}
