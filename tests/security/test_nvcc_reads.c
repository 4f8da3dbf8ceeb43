/* What nvcc reads where there is no sandbox (gpu/compile/nvccbox.h, docs/security.md
 * "Sandbox"): nvcc reads what its own headers include, so a cloned project's include directory
 * with `stdlib.h` linked to a file in HOME is reached from cuda_runtime.h, which the include
 * check does not read, and nvcc quotes each line it cannot parse into its log. What nvcc read
 * (-MD) is checked against the places the sandbox would show: refused, the log withheld, the
 * file's text in no answer; the same project without the link compiles. Through the real daemon
 * (LSP: the user's own request, on a project the user did not write). */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/landlock.h"
#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

TestSuite(nvccreads, .timeout = 300);

static void need_nvcc(void) {
  const char *cuda = getenv("CUDA_PATH");
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/bin/nvcc", cuda && *cuda ? cuda : "/usr/local/cuda");
  if (access(p, X_OK))
    cr_skip_test("no nvcc in the CUDA toolkit on this machine");
}

/* nvcc without bubblewrap, confined by Landlock (the link's target is never opened) or, without
 * it, its dependency list checked (the file was read, the output is withheld). */
static void link_out(bool landlock) {
  char dir[64], home[64], p[PATH_MAX], link[PATH_MAX], inc[PATH_MAX];
  fsx_mkdtemp(dir, "nvccreads");
  fsx_mkdtemp(home, "nvccreads-home");
  snprintf(p, sizeof p, "%s/secret.txt", home);
  fsx_write(p, "SECRET-MARKER-4242 is the key 'abc\n");
  snprintf(inc, sizeof inc, "%s/inc", dir);
  cr_assert_eq(mkdir(inc, 0755), 0);
  snprintf(link, sizeof link, "%s/stdlib.h", inc);
  cr_assert_eq(symlink(p, link), 0);
  snprintf(p, sizeof p, "%s/k.cu", dir);
  fsx_write(p, "#include <cstdio>\n__global__ void k(int *x) { x[0] = 1; }\n"
               "int main() { k<<<1, 1>>>(0); return 0; }\n");
  setenv("UPK_TEST_NO_SANDBOX", "1", 1);
  if (!landlock)
    setenv("UPK_TEST_NO_LANDLOCK", "1", 1);
  hx *d = hx_lsp_session(HX_NOARGS);
  unsetenv("UPK_TEST_NO_SANDBOX");
  unsetenv("UPK_TEST_NO_LANDLOCK");
  for (int round = 0; round < 2; round++) {
    json_t *resp = hx_callf(d,
                            "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\","
                            "\"params\":{\"path\":\"%s\",\"includes\":[\"%s\"],"
                            "\"backend\":\"nvcc\",\"cache\":false}}",
                            70 + round, p, inc);
    const char *all = hx_dump(resp);
    cr_expect_null(strstr(all, "SECRET-MARKER"), "round %d: the file's text came back: %s", round,
                   all);
    if (round == 0)
      cr_expect(strstr(all, "kernel/include-outside") && strstr(all, "stdlib.h") &&
                    strstr(all, landlock ? "Landlock refused it" : "bubblewrap"),
                "Landlock %d: the link out was not refused: %s", landlock, all);
    else
      cr_expect(!strstr(all, "kernel/include-outside") && strstr(all, "\"ok\":true"),
                "without the link it must compile: %s", all);
    json_decref(resp);
    unlink(link);
  }
  hx_finish(d, 0);
  fsx_rm_rf(dir);
  fsx_rm_rf(home);
}

Test(nvccreads, without_a_sandbox_what_nvcc_read_is_checked) {
  HX_NEED_TOOLKIT();
  need_nvcc();
  link_out(false);
  if (upk_landlock_abi() > 0)
    link_out(true);
  else
    cr_log_warn("no Landlock in this kernel: only the dependency check ran");
}

/* nvcc reads "-I/a,/b" as two directories: two allowed ones joined by a comma are two places,
 * each bound into the sandbox (a header in the second is found), while an allowed one cannot
 * carry another in with it (tests/security/test_kernel_options.c: ",/etc" refused). */
Test(nvccreads, a_comma_joins_two_include_directories_as_nvcc_splits_them) {
  HX_NEED_TOOLKIT();
  need_nvcc();
  char dir[64], p[PATH_MAX], incs[2 * PATH_MAX];
  fsx_mkdtemp(dir, "nvccreads-comma");
  for (int i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/inc%d", dir, i);
    cr_assert_eq(mkdir(p, 0755), 0);
  }
  snprintf(p, sizeof p, "%s/inc1/scale.h", dir);
  fsx_write(p, "#define SCALE 2.0f\n");
  snprintf(p, sizeof p, "%s/k.cu", dir);
  fsx_write(p, "#include <scale.h>\n__global__ void k(float *x) { x[0] *= SCALE; }\n"
               "int main() { k<<<1, 1>>>(0); return 0; }\n");
  snprintf(incs, sizeof incs, "%s/inc0,%s/inc1", dir, dir);
  hx *d = hx_lsp_session(HX_NOARGS);
  json_t *resp = hx_callf(d,
                          "{\"jsonrpc\":\"2.0\",\"id\":80,\"method\":\"kernel/validate\","
                          "\"params\":{\"path\":\"%s\",\"includes\":[\"%s\"],"
                          "\"backend\":\"nvcc\",\"cache\":false}}",
                          p, incs);
  cr_expect(strstr(hx_dump(resp), "\"ok\":true"), "-I/a,/b, both allowed: %s", hx_dump(resp));
  json_decref(resp);
  hx_finish(d, 0);
  fsx_rm_rf(dir);
}
