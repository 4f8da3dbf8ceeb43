/* Hostile compiler options (issue 44, docs/security.md "Compiler options"): a cloned
 * kernel-builder project's build.toml `cuda-flags`, an agent's `options` and an editor's
 * request are checked against gpu/compile/options.h's allowlist. A host compiler, a file written, a
 * plugin or library loaded, a pre-include, an options file, an include directory outside the
 * include policy, an unknown option: each is refused with `kernel/option-refused` naming the
 * option, its rule and how the user allows it, and nothing is compiled with it: no program runs, no
 * file is written, no file outside is read. `__has_include` cannot probe for files outside either.
 * A trusted project (`upskillctl trust`) and the user's own `--allow-kernel-option` regain the
 * power. Everything runs through the real daemon, its worker, NVRTC and nvcc. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/sandbox.h"
#include "common/trust.h"
#include "tests/integration/harness.h"

TestSuite(kopts, .timeout = 300);

static const char *KERNEL = "__global__ void k(float *y) { y[0] = 1.f; }\n";

/* ---- helpers ---- */

static bool have_nvcc(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/bin/nvcc", cuda && *cuda ? cuda : "/usr/local/cuda");
  return access(p, X_OK) == 0;
}

#define NEED_NVCC()                                                                                \
  do {                                                                                             \
    HX_NEED_TOOLKIT();                                                                             \
    if (!have_nvcc())                                                                              \
      cr_skip_test("no nvcc in the CUDA toolkit on this machine");                                 \
  } while (0)

/* nvcc with options an agent or an untrusted project wrote runs only in the sandbox
 * (docs/security.md "Sandbox"); where there is none it is refused (kernel/no-sandbox). */
#define NEED_SANDBOX()                                                                             \
  do {                                                                                             \
    char why_[600];                                                                                \
    if (!upk_sandbox_available(why_, sizeof why_))                                                 \
      cr_skip_test("no sandbox here, so nvcc runs no agent's options: %s", why_);                  \
  } while (0)

static void write_file(const char *path, const char *text, mode_t mode) {
  FILE *f = fopen(path, "wb");
  cr_assert(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
  chmod(path, mode);
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static void rm_tree(const char *dir) {
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

static char *make_tmp(void) {
  char *t = strdup("/tmp/upk-kopts-XXXXXX");
  cr_assert(t && mkdtemp(t));
  return t;
}

/* An MCP session whose agent may read `dir` (the user's --agent-path: the project is theirs). */
static hx *agent_in(const char *dir) {
  char flag[PATH_MAX + 16];
  snprintf(flag, sizeof flag, "--agent-path=%s", dir);
  return hx_mcp_session(HX_ARGS(flag));
}

/* A host "compiler" at dir/tools/gcc that leaves dir/MARKER and then compiles with gcc,
 * defining PLANTED_RAN (seen by the device compile too: it runs inside the sandbox, where
 * the marker cannot be written). */
static void plant_compiler(const char *dir) {
  char p[PATH_MAX], script[PATH_MAX * 2];
  snprintf(p, sizeof p, "%s/tools", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/tools/gcc", dir);
  snprintf(script, sizeof script,
           "#!/bin/sh\ntouch '%s/MARKER' 2>/dev/null\nexec /usr/bin/gcc \"$@\" -DPLANTED_RAN\n",
           dir);
  write_file(p, script, 0755);
}

/* A kernel that compiles only through the planted compiler. */
static const char *PLANTED_KERNEL = "#ifndef PLANTED_RAN\n#error the planted compiler did not run\n"
                                    "#endif\n__global__ void k(float *y) { y[0] = 1.f; }\n";

static bool marker(const char *dir) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/MARKER", dir);
  return exists(p);
}

/* tools/call validate_kernel with `args` (JSON object, stolen); the structured result (owned
 * by *resp). */
static json_t *tool(hx *d, json_t **resp, json_t *args) {
  static int id = 10;
  char idtxt[16];
  snprintf(idtxt, sizeof idtxt, "%d", ++id);
  json_t *req = json_pack("{s:s,s:i,s:s,s:{s:s,s:o}}", "jsonrpc", "2.0", "id", id, "method",
                          "tools/call", "params", "name", "validate_kernel", "arguments", args);
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  *resp = hx_call(d, text);
  free(text);
  json_t *r = hx_assert_result(*resp, idtxt);
  json_t *sc = json_object_get(r, "structuredContent");
  cr_assert(sc, "%s", hx_dump(r));
  return sc;
}

/* Every diagnostic of a result, a project's rows' included, into one array (borrowed items). */
static json_t *all_diags(json_t *r) {
  json_t *out = json_array(), *x, *row;
  size_t i, k;
  json_array_extend(out, json_object_get(r, "diagnostics"));
  json_array_foreach(json_object_get(r, "rows"), k, row) {
    json_array_foreach(json_object_get(row, "diagnostics"), i, x) json_array_append(out, x);
  }
  return out;
}

/* The refusal naming `option`: code kernel/option-refused, the option, a trust/ rule. */
static bool refused(json_t *r, const char *option) {
  json_t *diags = all_diags(r), *x;
  size_t i;
  bool found = false;
  json_array_foreach(diags, i, x) {
    const char *code = json_string_value(json_object_get(x, "code"));
    const char *msg = json_string_value(json_object_get(x, "message"));
    if (code && msg && !strcmp(code, "kernel/option-refused") && strstr(msg, option) &&
        strstr(msg, "trust/") && json_integer_value(json_object_get(x, "severity")) == 1)
      found = true;
  }
  json_decref(diags);
  return found;
}

static bool has_code(json_t *r, const char *code) {
  json_t *diags = all_diags(r), *x;
  size_t i;
  bool found = false;
  json_array_foreach(diags, i, x) {
    const char *c = json_string_value(json_object_get(x, "code"));
    found |= c && !strcmp(c, code);
  }
  json_decref(diags);
  return found;
}

/* Validate KERNEL with `options` (a JSON array, stolen) through `backend`; require a refusal
 * naming `option`, ok:false, and no trace of `leak` (NULL: none) anywhere in the answer. */
static void expect_refused(hx *d, const char *backend, json_t *options, const char *option,
                           const char *leak) {
  json_t *resp;
  char *opts = json_dumps(options, JSON_COMPACT);
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:s,s:o,s:b}", "source", KERNEL, "backend", backend, "options",
                             options, "cache", 0));
  cr_expect(refused(r, option), "%s %s: no kernel/option-refused naming '%s': %s", backend, opts,
            option, hx_dump(r));
  cr_expect(json_is_false(json_object_get(r, "ok")), "%s %s compiled: %s", backend, opts,
            hx_dump(r));
  if (leak)
    cr_expect(!strstr(hx_dump(resp), leak), "%s %s: the answer holds '%s': %s", backend, opts, leak,
              hx_dump(resp));
  free(opts);
  json_decref(resp);
}

static json_t *strs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  json_t *a = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(a, json_string(va_arg(ap, const char *)));
  va_end(ap);
  return a;
}

/* A kernel-builder project at dir: kernel_src/k.cu built with `flags` (TOML array text). */
static void plant_project(const char *dir, const char *flags) {
  char p[PATH_MAX], toml[4096];
  snprintf(p, sizeof p, "%s/kernel_src", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(toml, sizeof toml,
           "[general]\nname = \"evil\"\nversion = 1\nedition = 5\nlicense = \"MIT\"\nbackends = "
           "[\"cuda\"]\n\n"
           "[kernel.k]\nbackend = \"cuda\"\nsrc = [\"kernel_src/k.cu\"]\n"
           "cuda-capabilities = [\"9.0a\"]\ncuda-flags = %s\n",
           flags);
  snprintf(p, sizeof p, "%s/build.toml", dir);
  write_file(p, toml, 0644);
  snprintf(p, sizeof p, "%s/kernel_src/k.cu", dir);
  write_file(p, KERNEL, 0644);
}

/* ---- a cloned project's build.toml ---- */

/* The attack as found: `-ccbin tools` with kernel_src/tools/gcc, validated by an agent. */
Test(kopts, project_ccbin_tools_runs_nothing_from_an_agent) {
  NEED_NVCC();
  char *dir = make_tmp(), src[PATH_MAX];
  plant_project(dir, "[\"-ccbin\", \"tools\"]");
  snprintf(src, sizeof src, "%s/kernel_src", dir);
  plant_compiler(src);
  hx *d = agent_in(dir);
  json_t *resp;
  json_t *r = tool(d, &resp, json_pack("{s:s,s:b}", "project", dir, "cache", 0));
  cr_expect(!marker(src), "the project's tools/gcc ran");
  cr_expect(refused(r, "-ccbin"), "%s", hx_dump(r));
  cr_expect(strstr(hx_dump(r), "upskillctl trust"), "no way to allow it: %s", hx_dump(r));
  cr_expect(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* The same project opened in an editor: its k.cu is checked as build.toml builds it. */
Test(kopts, project_ccbin_tools_runs_nothing_in_the_editor) {
  NEED_NVCC();
  char *dir = make_tmp(), src[PATH_MAX], uri[PATH_MAX + 16];
  plant_project(dir, "[\"-ccbin\", \"tools\"]");
  snprintf(src, sizeof src, "%s/kernel_src", dir);
  plant_compiler(src);
  snprintf(uri, sizeof uri, "file://%s/kernel_src/k.cu", dir);
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *open = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                           "textDocument/didOpen", "params", "textDocument", "uri", uri,
                           "languageId", "cuda-cpp", "version", 1, "text", KERNEL);
  char *msg = json_dumps(open, JSON_COMPACT);
  json_decref(open);
  hx_send(d, msg);
  free(msg);
  json_t *m = hx_next_publish(d, uri, 120000);
  cr_assert(m, "no publishDiagnostics after didOpen");
  cr_expect(!marker(src), "opening k.cu ran the project's tools/gcc");
  json_t *diags = json_object_get(json_object_get(m, "params"), "diagnostics"), *x;
  size_t i;
  bool found = false;
  json_array_foreach(diags, i, x) {
    const char *code = json_string_value(json_object_get(x, "code"));
    const char *text = json_string_value(json_object_get(x, "message"));
    found |= code && !strcmp(code, "kernel/option-refused") && text && strstr(text, "-ccbin") &&
             strstr(text, "upskillctl trust");
  }
  cr_expect(found, "%s", hx_dump(m));
  json_decref(m);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* Trust gives the power back: a trusted project's -ccbin (an absolute path) runs, and a changed
 * build.toml is untrusted again. */
Test(kopts, trusted_project_may_name_its_host_compiler) {
  NEED_NVCC();
  char *dir = make_tmp(), *state = make_tmp(), flags[PATH_MAX + 64], p[PATH_MAX];
  plant_compiler(dir);
  snprintf(flags, sizeof flags, "[\"-ccbin\", \"%s/tools/gcc\"]", dir);
  plant_project(dir, flags);
  snprintf(p, sizeof p, "%s/kernel_src/k.cu", dir);
  write_file(p, PLANTED_KERNEL, 0644); /* compiles only through the planted compiler */
  setenv("XDG_STATE_HOME", state, 1);
  setenv("UPK_TEST_STATE_HOME", state, 1); /* the daemon reads the same store */
  char real[PATH_MAX], hex[65], err[256];
  cr_assert_eq(upk_trust_grant(dir, real, hex, err, sizeof err), 0, "%s", err);
  hx *d = agent_in(dir);
  json_t *resp;
  json_t *r = tool(d, &resp, json_pack("{s:s,s:b}", "project", dir, "cache", 0));
  cr_expect(!has_code(r, "kernel/option-refused"), "a trusted project was refused: %s", hx_dump(r));
  json_t *row = json_array_get(json_object_get(r, "rows"), 0); /* build.toml has notes of its own */
  cr_expect(json_is_true(json_object_get(row, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  /* The config changes: untrusted until trusted again. */
  snprintf(p, sizeof p, "%s/MARKER", dir);
  unlink(p);
  snprintf(p, sizeof p, "%s/build.toml", dir);
  FILE *f = fopen(p, "ab");
  cr_assert(f);
  fputs("# changed\n", f);
  fclose(f);
  r = tool(d, &resp, json_pack("{s:s,s:b}", "project", dir, "cache", 0));
  cr_expect(refused(r, "-ccbin"), "a changed project kept its trust: %s", hx_dump(r));
  cr_expect(!marker(dir), "the changed project's compiler ran");
  json_decref(resp);
  hx_finish(d, 0);
  unsetenv("UPK_TEST_STATE_HOME");
  unsetenv("XDG_STATE_HOME");
  rm_tree(dir);
  rm_tree(state);
  free(dir);
  free(state);
}

/* ---- an agent's options ---- */

/* Every spelling of the host compiler, each pointing at a planted compiler. */
Test(kopts, host_compiler_spellings_are_refused) {
  NEED_NVCC();
  char *dir = make_tmp(), cc[PATH_MAX], eq[PATH_MAX + 32], bindir[PATH_MAX + 32], tools[PATH_MAX];
  plant_compiler(dir);
  snprintf(cc, sizeof cc, "%s/tools/gcc", dir);
  snprintf(tools, sizeof tools, "%s/tools", dir);
  hx *d = hx_mcp_session(HX_NOARGS);
  snprintf(eq, sizeof eq, "-ccbin=%s", cc);
  expect_refused(d, "nvcc", strs(1, eq), "-ccbin", NULL);
  expect_refused(d, "nvcc", strs(2, "-ccbin", cc), "-ccbin", NULL);
  expect_refused(d, "nvcc", strs(2, "-ccbin", tools), "-ccbin", NULL);
  snprintf(bindir, sizeof bindir, "--compiler-bindir=%s", tools);
  expect_refused(d, "nvcc", strs(1, bindir), "--compiler-bindir", NULL);
  expect_refused(d, "nvcc", strs(2, "--compiler-bindir", tools), "--compiler-bindir", NULL);
  snprintf(bindir, sizeof bindir, "-ccbin%s", cc); /* joined, as some parsers take it */
  expect_refused(d, "nvcc", strs(1, bindir), "-ccbin", NULL);
  expect_refused(d, "nvrtc", strs(2, "-ccbin", cc), "-ccbin", NULL);
  cr_expect(!marker(dir), "a planted host compiler ran");
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* -MD -MF writes a dependency file anywhere; --keep-dir, -o, -odir, -save-temps write too. */
Test(kopts, options_that_write_files_are_refused) {
  NEED_NVCC();
  char *dir = make_tmp(), out[PATH_MAX], eq[PATH_MAX + 16];
  snprintf(out, sizeof out, "%s/out", dir);
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *backends[] = {"nvcc", "nvrtc"};
  for (int b = 0; b < 2; b++) {
    expect_refused(d, backends[b], strs(3, "-MD", "-MF", out), "-M", NULL);
    snprintf(eq, sizeof eq, "-MF=%s", out);
    expect_refused(d, backends[b], strs(2, "-MD", eq), "-M", NULL);
    snprintf(eq, sizeof eq, "--dependency-output=%s", out);
    expect_refused(d, backends[b], strs(2, "-MD", eq), "-MD", NULL);
    expect_refused(d, backends[b], strs(2, "--keep-dir", out), "--keep-dir", NULL);
    expect_refused(d, backends[b], strs(2, "-o", out), "-o", NULL);
    snprintf(eq, sizeof eq, "--output-directory=%s", out);
    expect_refused(d, backends[b], strs(1, eq), "--output-directory", NULL);
    snprintf(eq, sizeof eq, "--fdevice-time-trace=%s", out);
    expect_refused(d, backends[b], strs(1, eq), "--fdevice-time-trace", NULL);
    expect_refused(d, backends[b], strs(1, "-save-temps"), "-save-temps", NULL);
    expect_refused(d, backends[b], strs(1, "--keep"), "--keep", NULL);
    cr_expect(!exists(out), "%s wrote %s", backends[b], out);
  }
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* Plugins and libraries, through the host compiler and the linker, in every spelling. */
Test(kopts, plugins_and_libraries_are_refused) {
  NEED_NVCC();
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", "-fplugin=/tmp/upk-evil.so"), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(1, "-Xcompiler=-fplugin=/tmp/upk-evil.so"), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", "-fplugin /tmp/upk-evil.so"), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", "-fPIC,-fplugin=/tmp/upk-evil.so"), "-fplugin",
                 NULL);
  expect_refused(d, "nvcc", strs(2, "--compiler-options", "-fplugin=/tmp/upk-evil.so"),
                 "--compiler-options", NULL);
  expect_refused(d, "nvcc", strs(1, "--compiler-options=-B/tmp"), "--compiler-options", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xlinker", "--plugin=/tmp/upk-evil.so"), "-Xlinker", NULL);
  expect_refused(d, "nvcc", strs(1, "--linker-options=-rpath=/tmp"), "--linker-options", NULL);
  expect_refused(d, "nvcc", strs(1, "-l/tmp/upk-evil"), "-l", NULL);
  expect_refused(d, "nvcc", strs(2, "-L", "/tmp"), "-L", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xnvlink", "-o=/tmp/x"), "-Xnvlink", NULL);
  expect_refused(d, "nvrtc", strs(1, "-Xcompiler=-fplugin=/tmp/upk-evil.so"), "-Xcompiler", NULL);
  hx_ping(d);
  hx_finish(d, 0);
}

/* A pre-include reads any file; its tokens would come back in errors. */
Test(kopts, pre_includes_are_refused) {
  NEED_NVCC();
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *backends[] = {"nvrtc", "nvcc"};
  for (int b = 0; b < 2; b++) {
    expect_refused(d, backends[b], strs(1, "--pre-include=/etc/passwd"), "--pre-include", "root:");
    expect_refused(d, backends[b], strs(2, "--pre-include", "/etc/passwd"), "--pre-include",
                   "root:");
    expect_refused(d, backends[b], strs(2, "-include", "/etc/passwd"), "-include", "root:");
    expect_refused(d, backends[b], strs(1, "-include=/etc/passwd"), "-include", "root:");
    expect_refused(d, backends[b], strs(2, "--include", "/etc/passwd"), "--include", "root:");
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* Include directories outside the include policy's roots, as options and as `includes`. */
Test(kopts, include_dirs_outside_are_refused) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_refused(d, "nvrtc", strs(1, "-I/"), "-I/", NULL);
  expect_refused(d, "nvrtc", strs(1, "-I/etc"), "-I/etc", NULL);
  expect_refused(d, "nvrtc", strs(2, "-I", "/etc"), "/etc", NULL);
  expect_refused(d, "nvrtc", strs(1, "--include-path=/etc"), "--include-path", NULL);
  expect_refused(d, "nvrtc", strs(2, "-isystem", "/etc"), "-isystem", NULL);
  expect_refused(d, "nvrtc", strs(1, "-I/tmp/../etc"), "-I/tmp/../etc", NULL);
  /* `includes` adds -I directories too: /etc may not become an allowed root that way. */
  json_t *resp;
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:[s],s:b}", "source", "#include \"passwd\"\n", "includes",
                             "/etc", "cache", 0));
  cr_expect(!json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  cr_expect(!strstr(hx_dump(resp), "root:"), "/etc/passwd leaked: %s", hx_dump(resp));
  /* refused by the agent guard (trust/read) or, past it, by the include policy */
  cr_expect(has_code(r, "trust/read") || has_code(r, "kernel/include-outside") ||
                has_code(r, "kernel/option-refused"),
            "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* An options file or response file hides any option from the check. */
Test(kopts, options_files_are_refused) {
  NEED_NVCC();
  char *dir = make_tmp(), f[PATH_MAX], at[PATH_MAX + 2], eq[PATH_MAX + 32];
  snprintf(f, sizeof f, "%s/opts", dir);
  write_file(f, "-ccbin /bin/false\n", 0644);
  hx *d = hx_mcp_session(HX_NOARGS);
  snprintf(eq, sizeof eq, "--options-file=%s", f);
  expect_refused(d, "nvcc", strs(1, eq), "--options-file", NULL);
  expect_refused(d, "nvcc", strs(2, "-optf", f), "-optf", NULL);
  snprintf(at, sizeof at, "@%s", f);
  expect_refused(d, "nvcc", strs(1, at), "@", NULL);
  expect_refused(d, "nvrtc", strs(1, eq), "--options-file", NULL);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* Default deny: an option not on the allowlist is refused, whatever it is. */
Test(kopts, unknown_options_are_refused) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_refused(d, "nvrtc", strs(1, "--frobnicate"), "--frobnicate", NULL);
  expect_refused(d, "nvrtc", strs(1, "-Wl,-rpath,/tmp"), "-Wl,-rpath", NULL);
  expect_refused(d, "nvrtc", strs(2, "-Xptxas", "-o=/tmp/upk-x"), "-Xptxas", NULL);
  expect_refused(d, "nvrtc", strs(1, "-arch=sm_90a;touch"), "-arch", NULL);
  hx_ping(d);
  hx_finish(d, 0);
}

/* nvcc runs its steps through a shell that expands $(...) and backquotes inside its quoting:
 * no option, define or dialect may carry one to it. */
Test(kopts, nvcc_shell_cannot_be_reached) {
  NEED_NVCC();
  char *dir = make_tmp(), cmd[PATH_MAX + 64], def[PATH_MAX + 64], tick[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "X=$(touch %s/MARKER)", dir);
  snprintf(def, sizeof def, "-D%s", cmd);
  snprintf(tick, sizeof tick, "-DX=`touch %s/MARKER`", dir);
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_refused(d, "nvcc", strs(1, def), "-DX=$(touch", NULL);
  expect_refused(d, "nvcc", strs(1, tick), "-DX=`touch", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", def), "-Xcompiler", NULL);
  json_t *resp;
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:s,s:[s],s:b}", "source", KERNEL, "backend", "nvcc", "defines",
                             cmd, "cache", 0));
  cr_expect(has_code(r, "nvcc/unsafe-argument"), "%s", hx_dump(r));
  json_decref(resp);
  snprintf(cmd, sizeof cmd, "c++17$(touch %s/MARKER)", dir);
  r = tool(
      d, &resp,
      json_pack("{s:s,s:s,s:s,s:b}", "source", KERNEL, "backend", "nvcc", "std", cmd, "cache", 0));
  cr_expect(has_code(r, "nvcc/unsafe-argument"), "%s", hx_dump(r));
  json_decref(resp);
  cr_expect(!marker(dir), "nvcc's shell ran a command");
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* nvcc pastes -Xcompiler values into its `sh -c` line unquoted: a -std= past its first 31
 * characters, or a macro holding `>`, reached that shell. Each host option is typed now (a known
 * standard checked whole, an identifier and a value of characters the shell reads as
 * themselves), through MCP options and through a project's build.toml opened in an editor. */
static const char *STD_PAD = "-std=c++17aaaaaaaaaaaaaaaaaaaaaaaaaa;touch %s/MARKER;";

Test(kopts, host_option_shell_syntax_is_refused) {
  NEED_NVCC();
  char *dir = make_tmp(), std[PATH_MAX + 64], redir[PATH_MAX + 32], out[PATH_MAX];
  snprintf(std, sizeof std, STD_PAD, dir);
  snprintf(out, sizeof out, "%s/FILE", dir);
  snprintf(redir, sizeof redir, "-D_X>%s", out);
  hx *d = hx_mcp_session(HX_NOARGS);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", std), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", redir), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", "-fPIC,-DX=1|true"), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(2, "-Xcompiler", "-std=c++17 -fplugin=x"), "-Xcompiler", NULL);
  expect_refused(d, "nvcc", strs(1, "-std=c++17;true"), "-std", NULL);
  cr_expect(!marker(dir), "nvcc's shell ran the -std= payload");
  cr_expect(!exists(out), "nvcc's shell created %s", out);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

Test(kopts, host_option_shell_syntax_in_build_toml_runs_nothing_in_the_editor) {
  NEED_NVCC();
  char *dir = make_tmp(), flags[PATH_MAX * 2], std[PATH_MAX + 64], out[PATH_MAX],
       uri[PATH_MAX + 16], p[PATH_MAX];
  snprintf(std, sizeof std, STD_PAD, dir);
  snprintf(out, sizeof out, "%s/FILE", dir);
  snprintf(flags, sizeof flags, "[\"-Xcompiler\", \"%s\", \"-Xcompiler\", \"-D_X>%s\"]", std, out);
  plant_project(dir, flags);
  /* host code: the editor's check takes nvcc */
  const char *text = "__global__ void k(float *y) { y[0] = 1.f; }\n"
                     "void launch(float *y) { k<<<1, 1>>>(y); }\n";
  snprintf(p, sizeof p, "%s/kernel_src/k.cu", dir);
  write_file(p, text, 0644);
  snprintf(uri, sizeof uri, "file://%s", p);
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *open = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                           "textDocument/didOpen", "params", "textDocument", "uri", uri,
                           "languageId", "cuda-cpp", "version", 1, "text", text);
  char *msg = json_dumps(open, JSON_COMPACT);
  json_decref(open);
  hx_send(d, msg);
  free(msg);
  json_t *m = hx_next_publish(d, uri, 120000);
  cr_assert(m, "no publishDiagnostics after didOpen");
  cr_expect(!marker(dir), "opening k.cu ran the build.toml's -std= payload");
  cr_expect(!exists(out), "opening k.cu created %s", out);
  cr_expect(strstr(hx_dump(m), "kernel/option-refused") && strstr(hx_dump(m), "-Xcompiler"), "%s",
            hx_dump(m));
  json_decref(m);
  hx_ping(d); /* answers at once */
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* The sandbox alone: with the option check turned off (UPK_TEST_UNCHECKED_OPTIONS=1 in this
 * daemon's environment only), a payload reaches nvcc's shell and runs, and still cannot read a
 * file in HOME or write outside nvcc's scratch directory. */
Test(kopts, the_sandbox_holds_an_injection_past_the_check) {
  NEED_NVCC();
  NEED_SANDBOX();
  char *dir = make_tmp(), secret[PATH_MAX], payload[PATH_MAX * 3];
  setenv("UPK_TEST_UNCHECKED_OPTIONS", "1", 1);
  hx *d = hx_mcp_session(HX_NOARGS);
  unsetenv("UPK_TEST_UNCHECKED_OPTIONS");
  snprintf(secret, sizeof secret, "%s/.ssh", hx_home(d));
  mkdir(secret, 0700);
  snprintf(secret, sizeof secret, "%s/.ssh/id_upk", hx_home(d));
  write_file(secret, "SECRET_in_home_upk\n", 0600);
  snprintf(payload, sizeof payload,
           "-std=c++17;echo injected_ran_upk|tr a-z A-Z;cat %s;touch %s/MARKER;echo x "
           ">%s/.bashrc;exit 1;",
           secret, dir, hx_home(d));
  json_t *resp;
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:s,s:[s,s],s:b}", "source", KERNEL, "backend", "nvcc",
                             "options", "-Xcompiler", payload, "cache", 0));
  /* upper-cased by the payload: the answer quoting the option back would not match */
  cr_expect(strstr(hx_dump(resp), "INJECTED_RAN_UPK"), "the payload did not run: %s",
            hx_dump(resp));
  cr_expect(!has_code(r, "kernel/option-refused"), "%s", hx_dump(r));
  cr_expect(!strstr(hx_dump(resp), "SECRET_in_home_upk"), "HOME was read: %s", hx_dump(resp));
  cr_expect(!marker(dir), "the payload wrote outside the scratch directory");
  char rc[PATH_MAX];
  snprintf(rc, sizeof rc, "%s/.bashrc", hx_home(d));
  cr_expect(!exists(rc), "the payload wrote into HOME");
  cr_expect(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* Without a sandbox (UPK_TEST_NO_SANDBOX=1 makes the probe say none) nvcc never runs options an
 * agent wrote: refused with what to do; the user's own compile (no options) still runs, and
 * status says why. */
Test(kopts, without_a_sandbox_agent_options_are_refused) {
  NEED_NVCC();
  setenv("UPK_TEST_NO_SANDBOX", "1", 1);
  hx *d = hx_mcp_session(HX_NOARGS);
  unsetenv("UPK_TEST_NO_SANDBOX");
  json_t *resp;
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:s,s:[s],s:b}", "source", KERNEL, "backend", "nvcc", "options",
                             "-DX=1", "cache", 0));
  cr_expect(has_code(r, "kernel/no-sandbox"), "%s", hx_dump(r));
  cr_expect(strstr(hx_dump(r), "bubblewrap") && strstr(hx_dump(r), "upskillctl trust"), "%s",
            hx_dump(r));
  cr_expect(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  r = tool(d, &resp, json_pack("{s:s,s:s,s:b}", "source", KERNEL, "backend", "nvcc", "cache", 0));
  cr_expect(json_is_true(json_object_get(r, "ok")), "no options, no sandbox needed: %s",
            hx_dump(r));
  json_decref(resp);
  resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":90,\"method\":\"upskilld/status\"}");
  json_t *box = json_object_get(hx_assert_result(resp, "90"), "sandbox");
  cr_expect(json_is_false(json_object_get(box, "available")), "%s", hx_dump(resp));
  cr_expect(strstr(hx_dump(box), "UPK_TEST_NO_SANDBOX"), "%s", hx_dump(box));
  json_decref(resp);
  hx_finish(d, 0);
}

/* __has_include cannot probe for a file outside: refused whether it exists or not. */
Test(kopts, has_include_cannot_probe_outside) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *probes[] = {
      "#if __has_include(\"/etc/shadow\")\n#error yes\n#endif\n",
      "#if __has_include(\"/etc/no-such-file-upk\")\n#error yes\n#endif\n",
      "#if __has_include(</etc/hostname>)\n#error yes\n#endif\n",
      "#if defined(__has_include) && __has_include(\"../../../../../../../etc/hostname\")\n"
      "#error yes\n#endif\n",
      "#ifdef __has_include\n#elif __has_include_next(\"/etc/hostname\")\n#endif\n",
      "#include \"/etc/no-such-file-upk\"\n",
  };
  for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
    json_t *resp;
    char src[512];
    snprintf(src, sizeof src, "%s%s", probes[i], KERNEL);
    json_t *r = tool(d, &resp, json_pack("{s:s,s:b}", "source", src, "cache", 0));
    cr_expect(has_code(r, "kernel/include-outside"), "probe %zu was not refused: %s", i,
              hx_dump(r));
    cr_expect(json_is_false(json_object_get(r, "ok")), "probe %zu compiled: %s", i, hx_dump(r));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* A header named through a macro reaches any file unless refused. */
Test(kopts, computed_includes_read_nothing) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *srcs[] = {"#define F \"/etc/passwd\"\n#include F\n",
                        "#define F </etc/passwd>\n#include F\n",
                        "#define F \"/etc/hostname\"\n#if __has_include(F)\n#error yes\n#endif\n"};
  for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
    json_t *resp;
    char src[512];
    snprintf(src, sizeof src, "%s%s", srcs[i], KERNEL);
    json_t *r = tool(d, &resp, json_pack("{s:s,s:b}", "source", src, "cache", 0));
    cr_expect(has_code(r, "kernel/include-unchecked"), "%zu: %s", i, hx_dump(r));
    cr_expect(!strstr(hx_dump(r), "\"file\":\"/etc/"), "%zu: NVRTC read it: %s", i, hx_dump(r));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* Spellings of #include the compiler reads and a plain lexer would not: the digraph `%:`
 * (every standard), the trigraphs `??=` (#) and `??/` (a line splice) before C++17. NVRTC opens
 * an absolute name itself, so each must be seen (refused) or the file's text shows in errors. */
Test(kopts, other_spellings_of_include_read_nothing) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *srcs[] = {"%:include \"/etc/hostname\"\n", "  %:  include </etc/hostname>\n",
                        "?\?=include \"/etc/hostname\"\n", "// ?\?/\n#include \"/etc/hostname\"\n"};
  const char *codes[] = {"kernel/include-outside", "kernel/include-outside",
                         "kernel/include-unchecked", "kernel/include-unchecked"};
  for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
    json_t *resp;
    char src[512];
    snprintf(src, sizeof src, "%s%s", srcs[i], KERNEL);
    json_t *r = tool(
        d, &resp, json_pack("{s:s,s:[s],s:b}", "source", src, "options", "-std=c++14", "cache", 0));
    cr_expect(has_code(r, codes[i]), "%zu: %s", i, hx_dump(r));
    cr_expect(!strstr(hx_dump(r), "\"file\":\"/etc/"), "%zu: NVRTC read it: %s", i, hx_dump(r));
    cr_expect(json_is_false(json_object_get(r, "ok")), "%zu: %s", i, hx_dump(r));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* An agent names inline source after a file elsewhere: NVRTC would look for its "..." includes
 * beside that name (and nvcc would compile there); the include policy never looked there. */
Test(kopts, a_chosen_file_name_opens_nothing_beside_it) {
  HX_NEED_TOOLKIT();
  char *dir = make_tmp(), p[PATH_MAX], name[PATH_MAX];
  snprintf(p, sizeof p, "%s/secret.h", dir);
  write_file(p, "#error SECRET_TOKEN_upk\n", 0644);
  snprintf(name, sizeof name, "%s/k.cu", dir);
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *backends[] = {"nvrtc", "nvcc"};
  for (int b = 0; b < (have_nvcc() ? 2 : 1); b++) {
    json_t *resp;
    char src[256];
    snprintf(src, sizeof src, "#include \"secret.h\"\n%s", KERNEL);
    write_file(name, src, 0644); /* nvcc compiles a file in place when its text is the same */
    json_t *r = tool(d, &resp,
                     json_pack("{s:s,s:s,s:s,s:b}", "source", src, "fileName", name, "backend",
                               backends[b], "cache", 0));
    cr_expect(!strstr(hx_dump(resp), "SECRET_TOKEN_upk"), "%s read %s: %s", backends[b], p,
              hx_dump(resp));
    cr_expect(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* A header swapped for a link to a file outside after the include policy read it: NVRTC gets the
 * bytes that were checked, never the file the link names. The worker pauses between the check
 * and the compile (fault point kernel.compile, its second hit: the first request starts the
 * worker) while a child process swaps the header. */
static void swap_later(const char *link, const char *target, int ms) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid)
    return;
  char tmp[PATH_MAX];
  usleep((useconds_t)ms * 1000);
  snprintf(tmp, sizeof tmp, "%s.swap", link);
  _exit(symlink(target, tmp) || rename(tmp, link) ? 1 : 0);
}

Test(kopts, a_header_swapped_after_the_check_is_not_compiled) {
  HX_NEED_TOOLKIT();
  char *dir = make_tmp(), *away = make_tmp(), p[PATH_MAX], h[PATH_MAX], secret[PATH_MAX];
  snprintf(secret, sizeof secret, "%s/secret.h", away);
  write_file(secret, "#error SECRET_TOKEN_swapped\n", 0644);
  snprintf(h, sizeof h, "%s/h.h", dir);
  write_file(h, "#define SCALE 2.f\n", 0644);
  snprintf(p, sizeof p, "%s/k.cu", dir);
  write_file(p, "#include \"h.h\"\n__global__ void k(float *y) { y[0] = SCALE; }\n", 0644);
  setenv("UPSKILLD_FAULT", "kernel.compile:2:sleep3000", 1);
  hx *d = agent_in(dir);
  unsetenv("UPSKILLD_FAULT");
  json_t *resp, *args = json_pack("{s:s,s:s,s:b}", "path", p, "backend", "nvrtc", "cache", 0);
  json_t *r = tool(d, &resp, json_deep_copy(args));
  cr_assert(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  swap_later(h, secret, 1000);
  r = tool(d, &resp, args);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  int status = -1;
  cr_assert(wait(&status) > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  cr_assert(t1.tv_sec - t0.tv_sec >= 2, "the worker did not pause at kernel.compile");
  cr_expect(!strstr(hx_dump(resp), "SECRET_TOKEN_swapped"), "NVRTC read %s: %s", secret,
            hx_dump(resp));
  cr_expect(json_is_true(json_object_get(r, "ok")), "the checked header compiles: %s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  rm_tree(away);
  free(dir);
  free(away);
}

/* NVRTC takes headers by the name an #include spells: one name for two files is refused, not
 * compiled with either. */
Test(kopts, one_header_name_for_two_files_is_refused) {
  HX_NEED_TOOLKIT();
  char *dir = make_tmp(), p[PATH_MAX];
  snprintf(p, sizeof p, "%s/sub", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/util.h", dir);
  write_file(p, "#define A 1\n", 0644);
  snprintf(p, sizeof p, "%s/sub/util.h", dir);
  write_file(p, "#define B 1\n", 0644);
  snprintf(p, sizeof p, "%s/sub/b.h", dir);
  write_file(p, "#include \"util.h\"\n", 0644);
  snprintf(p, sizeof p, "%s/k.cu", dir);
  char src[256];
  snprintf(src, sizeof src, "#include \"util.h\"\n#include \"sub/b.h\"\n%s", KERNEL);
  write_file(p, src, 0644);
  hx *d = agent_in(dir);
  json_t *resp;
  json_t *r = tool(d, &resp, json_pack("{s:s,s:s,s:b}", "path", p, "backend", "nvrtc", "cache", 0));
  cr_expect(has_code(r, "kernel/include-unchecked"), "%s", hx_dump(r));
  cr_expect(strstr(hx_dump(r), "one name cannot stand for two files"), "%s", hx_dump(r));
  cr_expect(json_is_false(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* An include directory the allowlist lets through (-I under the file's directory) is searched
 * by the include policy too: a header found there cannot reach /etc/passwd. */
Test(kopts, headers_found_through_option_dirs_are_checked) {
  HX_NEED_TOOLKIT();
  char *dir = make_tmp(), p[PATH_MAX], inc[PATH_MAX + 8];
  snprintf(p, sizeof p, "%s/sub", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/sub/x.h", dir);
  write_file(p, "#include \"/etc/passwd\"\n", 0644);
  snprintf(p, sizeof p, "%s/k.cu", dir);
  char src[256];
  snprintf(src, sizeof src, "#include <x.h>\n%s", KERNEL);
  write_file(p, src, 0644);
  snprintf(inc, sizeof inc, "-I%s/sub", dir);
  hx *d = agent_in(dir);
  json_t *resp;
  json_t *r = tool(
      d, &resp,
      json_pack("{s:s,s:[s],s:s,s:b}", "path", p, "options", inc, "backend", "nvrtc", "cache", 0));
  cr_expect(!strstr(hx_dump(r), "\"file\":\"/etc/passwd\""), "NVRTC read /etc/passwd: %s",
            hx_dump(r));
  cr_expect(has_code(r, "kernel/include-outside"), "%s", hx_dump(r));
  cr_expect(!has_code(r, "kernel/option-refused"), "-I under the file's directory: %s", hx_dump(r));
  json_decref(resp);
  /* nvcc reads "-I/a,/b" as two directories: the allowed one cannot carry /etc in with it. */
  char comma[PATH_MAX + 16];
  snprintf(comma, sizeof comma, "%s,/etc", inc);
  r = tool(d, &resp,
           json_pack("{s:s,s:[s],s:s,s:b}", "path", p, "options", comma, "backend", "nvrtc",
                     "cache", 0));
  cr_expect(refused(r, ",/etc"), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* ---- what stays allowed ---- */

Test(kopts, allowed_options_still_compile) {
  HX_NEED_TOOLKIT();
  hx *d = hx_mcp_session(HX_NOARGS);
  const char *backends[] = {"nvrtc", "nvcc"};
  char why[600];
  int backends_here = have_nvcc() && upk_sandbox_available(why, sizeof why) ? 2 : 1;
  for (int b = 0; b < backends_here; b++) {
    json_t *resp;
    json_t *opts = strs(13, "-maxrregcount=32", "-DX=1", "--use_fast_math", "-std=c++17", "-Xptxas",
                        "-v", "--ptxas-options=-v", "-lineinfo", "-UNDEBUG", "--define-macro",
                        "Y=2", "-arch=sm_90a", "--extra-device-vectorization");
    if (b == 1) { /* nvcc's own: NVRTC 13 has neither */
      json_array_append_new(opts, json_string("-O3"));
      json_array_append_new(opts, json_string("--expt-relaxed-constexpr"));
      json_array_append_new(opts, json_string("-Xcompiler=-fPIC,-Wall"));
    }
    json_t *r = tool(d, &resp,
                     json_pack("{s:s,s:s,s:o,s:b}", "source",
                               "#if X != 1 || Y != 2\n#error defines\n#endif\n"
                               "__global__ void k(float *y) { y[0] = 1.f; }\n",
                               "backend", backends[b], "options", opts, "cache", 0));
    cr_expect(json_is_true(json_object_get(r, "ok")), "%s: %s", backends[b], hx_dump(r));
    cr_expect(!has_code(r, "kernel/option-refused"), "%s: %s", backends[b], hx_dump(r));
    json_decref(resp);
  }
  hx_ping(d);
  hx_finish(d, 0);
}

/* What public kernel-builder projects put in cuda-flags (every distinct kind of flag in
 * huggingface/kernels-community's 52 build.toml files, read 2026-11-25), and flags of public
 * setup.py files kept apart from them (vllm's -static-global-template-stub): none may be
 * refused, or trusting a project would be the only way to check a real one. */
Test(kopts, real_projects_flags_pass) {
  NEED_NVCC();
  NEED_SANDBOX();
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *resp;
  json_t *opts = strs(
      30, "--use_fast_math", "-O3", "-std=c++17", "-DNDEBUG", "--expt-relaxed-constexpr",
      "--expt-extended-lambda", "--ftemplate-backtrace-limit=0", "-U__CUDA_NO_HALF_OPERATORS__",
      "-U__CUDA_NO_HALF_CONVERSIONS__", "-DCUTLASS_ENABLE_GDC_FOR_SM90", "-diag-suppress=174",
      "-Xptxas=-v", "-U__CUDA_NO_BFLOAT16_CONVERSIONS__", "--threads=1",
      "-DCUTLASS_DEBUG_TRACE_LEVEL=0", "-Xfatbin=-compress-all", "-Wno-deprecated-declarations",
      "--extended-lambda", "-D_USE_MATH_DEFINES", "-DTmax=1024", "-res-usage", "-lineinfo",
      "-DCUDA_HAS_FP16=1", "--ptxas-options=--verbose,--warn-on-local-memory-usage",
      "--extra-device-vectorization", "-D__CUDA_NO_HALF2_OPERATORS__", "-DENABLE_NVFP4_SM100=1",
      "-U__CUDA_NO_BFLOAT162_CONVERSIONS__", "-static-global-template-stub=false",
      "-use_fast_math");
  json_t *r =
      tool(d, &resp,
           json_pack("{s:s,s:s,s:o,s:b}", "source", "__global__ void k(float *y) { y[0] = 1.f; }\n",
                     "backend", "nvcc", "options", opts, "cache", 0));
  cr_expect(!has_code(r, "kernel/option-refused"), "%s", hx_dump(r));
  cr_expect(json_is_true(json_object_get(r, "ok")), "%s", hx_dump(r));
  json_decref(resp);
  hx_ping(d);
  hx_finish(d, 0);
}

/* The user's own flag allows an option from anyone: the query-driver model. */
Test(kopts, the_users_flag_allows_a_host_compiler) {
  NEED_NVCC();
  NEED_SANDBOX();
  char *dir = make_tmp(), cc[PATH_MAX], flag[PATH_MAX + 64];
  plant_compiler(dir);
  snprintf(cc, sizeof cc, "%s/tools/gcc", dir);
  snprintf(flag, sizeof flag, "--allow-kernel-option=-ccbin=%s", cc);
  hx *d = hx_mcp_session(HX_ARGS(flag));
  json_t *resp;
  json_t *r = tool(d, &resp,
                   json_pack("{s:s,s:s,s:[s,s],s:b}", "source", PLANTED_KERNEL, "backend", "nvcc",
                             "options", "-ccbin", cc, "cache", 0));
  cr_expect(json_is_true(json_object_get(r, "ok")), "the allowed compiler did not run: %s",
            hx_dump(r));
  json_decref(resp);
  /* Another compiler is still refused. */
  expect_refused(d, "nvcc", strs(2, "-ccbin", "/usr/bin/gcc"), "-ccbin", NULL);
  hx_finish(d, 0);
  rm_tree(dir);
  free(dir);
}

/* A compile runs no code of the kernel's, so validate_kernel says it is read-only (agents may
 * approve it without asking); running one is run_kernel, which says it is not. */
Test(kopts, only_run_kernel_is_not_read_only) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}");
  json_t *tools = json_object_get(hx_assert_result(resp, "5"), "tools"), *t;
  size_t i;
  int seen = 0;
  json_array_foreach(tools, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    json_t *a = json_object_get(t, "annotations");
    if (!strcmp(name, "validate_kernel")) {
      seen++;
      cr_expect(json_is_true(json_object_get(a, "readOnlyHint")), "%s", hx_dump(a));
      cr_expect(json_is_false(json_object_get(a, "destructiveHint")), "%s", hx_dump(a));
      cr_expect_null(
          json_object_get(json_object_get(json_object_get(t, "inputSchema"), "properties"), "run"));
    } else if (!strcmp(name, "run_kernel")) {
      seen++;
      cr_expect(json_is_false(json_object_get(a, "readOnlyHint")), "%s", hx_dump(a));
      cr_expect(json_is_true(json_object_get(a, "destructiveHint")), "%s", hx_dump(a));
    }
  }
  cr_expect_eq(seen, 2);
  json_decref(resp);
  /* validate_kernel with a run says where runs went. */
  resp = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{"
                    "\"name\":\"validate_kernel\",\"arguments\":{\"path\":\"k.cu\",\"run\":{}}}}");
  json_t *r = hx_assert_result(resp, "6");
  cr_expect(json_is_true(json_object_get(r, "isError")), "%s", hx_dump(r));
  cr_expect(strstr(hx_dump(r), "call run_kernel"), "%s", hx_dump(r));
  json_decref(resp);
  hx_finish(d, 0);
}
