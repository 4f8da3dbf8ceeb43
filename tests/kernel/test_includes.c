/* The include policy on real directory trees: nested headers, `..`, absolute
 * paths, symlinks out, angled vs quoted lookup, toolkit headers, cycles and
 * the depth limit. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/compile/includes.h"
#include "gpu/project/projroot.h"

static char base[PATH_MAX], ws[PATH_MAX], out[PATH_MAX], tk[PATH_MAX];

static void put(const char *rel, const char *text) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", base, rel);
  FILE *f = fopen(p, "w");
  cr_assert(f, "cannot write %s", p);
  fputs(text, f);
  fclose(f);
}

static void dir(const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", base, rel);
  cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
}

static void link_to(const char *target, const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", base, rel);
  cr_assert_eq(symlink(target, p), 0);
}

static void setup(void) {
  char tmpl[] = "/tmp/upk-inc-XXXXXX";
  cr_assert(mkdtemp(tmpl));
  cr_assert(realpath(tmpl, base)); /* /tmp may itself be a link */
  dir("ws"), dir("ws/sub"), dir("ws/inc"), dir("out"), dir("tk"), dir("tk/include");
  snprintf(ws, sizeof ws, "%s/ws", base);
  snprintf(out, sizeof out, "%s/out", base);
  snprintf(tk, sizeof tk, "%s/tk/include", base);
  put("ws/a.cuh", "#pragma once\n#include \"sub/b.cuh\"\n#include \"c.cuh\"\n");
  put("ws/sub/b.cuh", "// b\n#include \"../c.cuh\"\n");
  put("ws/c.cuh", "#define C 1\n");
  put("ws/inc/x.h", "#define X 1\n");
  put("out/secret.h", "#define SECRET 1\n");
  put("ws/bad.cuh", "#pragma once\n\n  #include \"../out/secret.h\"\n");
  put("ws/cyc1.cuh", "#include \"cyc2.cuh\"\n");
  put("ws/cyc2.cuh", "#include \"cyc1.cuh\"\n#include \"sub/../cyc1.cuh\"\n");
  put("tk/include/tk.h", "#include \"/etc/passwd\"\n");
  link_to("../out/secret.h", "ws/esc.cuh");
  link_to(out, "ws/outlink");
  link_to("c.cuh", "ws/alias.cuh");
}

static void teardown(void) {
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(includes, .init = setup, .fini = teardown);

typedef struct run {
  upk_diags d;
  upk_include_deps deps;
} run;

/* Check `src` as a file of ws/, with ws/inc then the toolkit dirs to search. */
static run check(const char *src, const char *file_dir) {
  const char *search[] = {ws, tk, "/usr/local/cuda/include"};
  const char *allowed[] = {ws};
  const char *toolkit[] = {tk, "/usr/local/cuda/include"};
  char inc[PATH_MAX];
  snprintf(inc, sizeof inc, "%s/inc", ws);
  search[0] = inc;
  upk_include_policy p = {.file_dir = file_dir,
                          .search = search,
                          .n_search = 3,
                          .allowed = allowed,
                          .n_allowed = 1,
                          .toolkit = toolkit,
                          .n_toolkit = 2};
  run r = {{0}, {0}};
  cr_assert_eq(upk_includes_check(src, strlen(src), &p, &r.d, &r.deps), 0);
  return r;
}

static void done(run *r) {
  upk_diags_free(&r->d);
  upk_include_deps_free(&r->deps);
}

static bool has_dep(const run *r, const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", base, rel);
  for (size_t i = 0; i < r->deps.n; i++)
    if (!strcmp(r->deps.paths[i], p))
      return true;
  return false;
}

static const upk_diag *only_error(const run *r, const char *code) {
  cr_assert_eq(r->d.len, 1, "want one diagnostic, got %zu", r->d.len);
  const upk_diag *d = &r->d.items[0];
  cr_assert_eq(d->severity, UPK_SEV_ERROR);
  cr_assert_str_eq(d->code, code);
  return d;
}

Test(includes, nested_allowed_headers_are_followed_and_listed_once) {
  run r = check("#include \"a.cuh\"\n#include \"c.cuh\"\n", ws);
  cr_assert_eq(r.d.len, 0, "%s", r.d.len ? r.d.items[0].message : "");
  cr_assert_eq(r.deps.n, 3, "got %zu deps", r.deps.n);
  cr_assert(has_dep(&r, "ws/a.cuh") && has_dep(&r, "ws/sub/b.cuh") && has_dep(&r, "ws/c.cuh"));
  done(&r);
}

Test(includes, absolute_path_outside_is_refused_at_its_range) {
  run r = check("// k\n#include \"/etc/passwd\"\n__global__ void k() {}\n", ws);
  const upk_diag *d = only_error(&r, "kernel/include-outside");
  cr_assert_eq(d->range.line, 1);
  cr_assert_eq(d->range.col, 10);
  cr_assert_eq(d->range.end_line, 1);
  cr_assert_eq(d->range.end_col, 21);
  cr_assert_null(d->file, "the main file has no file name");
  cr_assert(strstr(d->message, "/etc/passwd"), "%s", d->message);
  cr_assert(strstr(d->message, ws), "the allowed roots are named: %s", d->message);
  cr_assert_eq(r.deps.n, 0);
  done(&r);
}

Test(includes, dotdot_escape_is_refused) {
  run r = check("#include \"../out/secret.h\"\n", ws);
  const upk_diag *d = only_error(&r, "kernel/include-outside");
  char want[PATH_MAX];
  snprintf(want, sizeof want, "%s/secret.h", out);
  cr_assert(strstr(d->message, want), "%s", d->message);
  done(&r);
}

Test(includes, symlinks_out_are_refused) {
  run r =
      check("#include \"esc.cuh\"\n#include \"outlink/secret.h\"\n#include \"alias.cuh\"\n", ws);
  cr_assert_eq(r.d.len, 2, "got %zu", r.d.len);
  cr_assert_str_eq(r.d.items[0].code, "kernel/include-outside");
  cr_assert_eq(r.d.items[0].range.line, 0);
  cr_assert_eq(r.d.items[1].range.line, 1);
  cr_assert(has_dep(&r, "ws/c.cuh"), "a link that stays inside is fine");
  done(&r);
}

Test(includes, refusal_inside_a_header_names_that_header) {
  run r = check("#include \"bad.cuh\"\n", ws);
  const upk_diag *d = only_error(&r, "kernel/include-outside");
  char want[PATH_MAX];
  snprintf(want, sizeof want, "%s/bad.cuh", ws);
  cr_assert_not_null(d->file);
  cr_assert_str_eq(d->file, want);
  cr_assert_eq(d->range.line, 2);
  cr_assert_eq(d->range.col, 12);
  cr_assert(has_dep(&r, "ws/bad.cuh"));
  done(&r);
}

Test(includes, angled_looks_only_in_the_search_dirs) {
  run r = check("#include <x.h>\n#include <c.cuh>\n#include \"x.h\"\n", ws);
  cr_assert_eq(r.d.len, 0);
  cr_assert(has_dep(&r, "ws/inc/x.h"));
  cr_assert_not(has_dep(&r, "ws/c.cuh"), "<c.cuh> is not looked up next to the file");
  done(&r);
  r = check("#include \"c.cuh\"\n", NULL); /* inline source: no directory of its own */
  cr_assert_eq(r.deps.n, 0);
  done(&r);
}

Test(includes, toolkit_headers_are_allowed_and_not_followed) {
  run r = check("#include <tk.h>\n#include <cuda_fp16.h>\n#include <cuda/std/cstdint>\n", ws);
  cr_assert_eq(r.d.len, 0, "%s", r.d.len ? r.d.items[0].message : "");
  cr_assert_eq(r.deps.n, 0);
  done(&r);
}

Test(includes, unresolvable_and_directories_are_left_to_the_compiler) {
  run r = check("#include \"nope.h\"\n#include <nope/nope.h>\n#include \"sub\"\n", ws);
  cr_assert_eq(r.d.len, 0);
  cr_assert_eq(r.deps.n, 0);
  done(&r);
}

/* `#define F "/etc/passwd"` then `#include F` would open any file: a name the policy cannot
 * read is refused (issue 44), as is a __has_include of a macro. */
Test(includes, computed_includes_are_refused) {
  run r = check("#define F \"/etc/passwd\"\n#include F\n", ws);
  cr_assert_eq(r.d.len, 1);
  cr_assert_str_eq(r.d.items[0].code, "kernel/include-unchecked");
  cr_assert(strstr(r.d.items[0].message, "#include F"), "%s", r.d.items[0].message);
  done(&r);
  r = check("#define F \"/etc/passwd\"\n#if __has_include(F)\n#endif\n", ws);
  cr_assert_eq(r.d.len, 1);
  cr_assert_str_eq(r.d.items[0].code, "kernel/include-unchecked");
  done(&r);
}

Test(includes, cycles_terminate) {
  run r = check("#include \"cyc1.cuh\"\n", ws);
  cr_assert_eq(r.d.len, 0);
  cr_assert_eq(r.deps.n, 2);
  cr_assert(has_dep(&r, "ws/cyc1.cuh") && has_dep(&r, "ws/cyc2.cuh"));
  done(&r);
}

static void chain(int n) {
  for (int i = 0; i < n; i++) {
    char name[64], text[64];
    snprintf(name, sizeof name, "ws/d%d.cuh", i);
    snprintf(text, sizeof text, i + 1 < n ? "#include \"d%d.cuh\"\n" : "// end %d\n", i + 1);
    put(name, text);
  }
}

Test(includes, nesting_within_the_limit_is_followed) {
  chain(30);
  run r = check("#include \"d0.cuh\"\n", ws);
  cr_assert_eq(r.d.len, 0, "%s", r.d.len ? r.d.items[0].message : "");
  cr_assert_eq(r.deps.n, 30);
  done(&r);
}

Test(includes, nesting_past_the_limit_refuses_the_compile) {
  chain(40);
  run r = check("#include \"d0.cuh\"\n", ws);
  const upk_diag *d = only_error(&r, "kernel/include-unchecked");
  cr_assert_not_null(d->file, "reported in the header that goes too deep");
  cr_assert(strstr(d->message, "d32.cuh"), "%s", d->message);
  done(&r);
}

/* ---- the project a file belongs to (projroot.h) ---- */

Test(includes, project_root_is_the_nearest_marked_directory) {
  char got[PATH_MAX], want[PATH_MAX];
  dir("ws/proj"), dir("ws/proj/src"), dir("ws/proj/src/deep"), dir("ws/proj/sub");
  put("ws/proj/CMakeLists.txt", "project(p)\n");
  put("ws/proj/sub/pyproject.toml", "[project]\n");
  snprintf(want, sizeof want, "%s/proj", ws);
  snprintf(got, sizeof got, "%s/proj/src/deep", ws);
  cr_assert(upk_project_root(got, got));
  cr_assert_str_eq(got, want);
  snprintf(got, sizeof got, "%s/proj/src/../sub", ws); /* made real first */
  cr_assert(upk_project_root(got, got));
  snprintf(want, sizeof want, "%s/proj/sub", ws);
  cr_assert_str_eq(got, want);
  dir("ws/proj/src/deep/.git"); /* .git marks a repository's root */
  snprintf(got, sizeof got, "%s/proj/src/deep", ws);
  snprintf(want, sizeof want, "%s/proj/src/deep", ws);
  cr_assert(upk_project_root(got, got));
  cr_assert_str_eq(got, want);
}

Test(includes, no_marker_no_project_root) {
  char got[PATH_MAX];
  snprintf(got, sizeof got, "%s/sub", ws);
  /* Nothing above base is marked on a test machine's /tmp; "/" would never count. */
  cr_assert_not(upk_project_root(got, got), "found %s", got);
  cr_assert_not(upk_project_root("/", got));
  cr_assert_not(upk_project_root("/nonexistent/dir", got));
}
