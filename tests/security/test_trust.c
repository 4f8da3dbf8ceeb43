/* The user's store of trusted projects (issue 44, point 3; common/trust.h; docs/security.md
 * "Trusting a project"): grant, check, revoke; a config file that is a link or a FIFO fails the
 * hash closed (never trusted, never blocking); the store is the user's alone (mode 0600 in a
 * 0700 directory); `upskillctl trust|untrust|trust --list` print what they did; and no method or
 * MCP tool of the daemon writes the store: an agent can never trust a project. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/trust.h"
#include "gpu/project/buildtoml.h"
#include "tests/integration/harness.h"

static char root[PATH_MAX], proj[PATH_MAX + 16], state[PATH_MAX + 16];

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert(f, "%s: %s", path, strerror(errno));
  fputs(text, f);
  fclose(f);
}

static void scratch(void) {
  snprintf(root, sizeof root, "/tmp/upk-sec-trust-XXXXXX");
  cr_assert(mkdtemp(root));
  snprintf(proj, sizeof proj, "%s/proj", root);
  snprintf(state, sizeof state, "%s/state", root);
  mkdir(proj, 0755);
  setenv("XDG_STATE_HOME", state, 1);
  setenv("UPK_TEST_STATE_HOME", state, 1);
  char p[PATH_MAX * 2];
  snprintf(p, sizeof p, "%s/upskill.config.yaml", proj);
  put(p, "model: sonnet\n");
}

static void cleanup(void) {
  char cmd[PATH_MAX + 32];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", root);
}

TestSuite(trust, .init = scratch, .fini = cleanup, .timeout = 120);

static void grant_ok(void) {
  char real[PATH_MAX], hex[65], err[256];
  cr_assert_eq(upk_trust_grant(proj, real, hex, err, sizeof err), 0, "%s", err);
}

Test(trust, grant_check_revoke) {
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO);
  char real[PATH_MAX], hex[65], err[256];
  cr_assert_eq(upk_trust_grant(proj, real, hex, err, sizeof err), 0, "%s", err);
  cr_assert_eq(strlen(hex), 64);
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_YES);
  /* by another spelling of the same directory */
  char other[PATH_MAX * 2];
  snprintf(other, sizeof other, "%s/../proj/.", proj);
  cr_assert_eq(upk_trust_check(other), UPK_TRUST_YES);
  json_t *list = upk_trust_list();
  cr_assert(json_object_get(list, real), "%s", hx_dump(list));
  json_decref(list);
  /* edited: changed; build.toml appearing counts too */
  char p[PATH_MAX * 2];
  snprintf(p, sizeof p, "%s/upskill.config.yaml", proj);
  put(p, "model: opus\n");
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_CHANGED);
  grant_ok();
  snprintf(p, sizeof p, "%s/build.toml", proj);
  put(p, "[general]\nname = \"k\"\n");
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_CHANGED);
  grant_ok();
  cr_assert_eq(upk_trust_revoke(proj, err, sizeof err), 0, "%s", err);
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO);
  /* revoking what is not trusted is no error */
  cr_assert_eq(upk_trust_revoke(proj, err, sizeof err), 0, "%s", err);
}

/* What is judged trusted is what was parsed: build.toml's trust hash is taken over the bytes
 * its parser read (upk_buildtoml_load), and the store is asked about exactly that hash, so a
 * build.toml swapped between the daemon's check and the worker's parse is not trusted. */
Test(trust, the_hash_is_of_the_bytes_parsed) {
  char p[PATH_MAX * 2], hex[65];
  const char *toml = "[general]\nname = \"t\"\nbackends = [\"cuda\"]\n";
  snprintf(p, sizeof p, "%s/build.toml", proj);
  put(p, toml);
  grant_ok();
  upk_buildtoml bt;
  cr_assert_eq(upk_buildtoml_load(p, &bt), 0);
  cr_expect_str_not_empty(bt.trust_hash);
  cr_expect(upk_trust_matches(proj, bt.trust_hash), "the parsed bytes are the trusted ones");
  upk_buildtoml_free(&bt);
  /* A parser that read other bytes (the file swapped after the check) gets another hash. */
  const char *evil = "[general]\nname = \"t\"\nbackends = [\"cuda\"]\n# -ccbin tools\n";
  upk_trust_bytes given = {"build.toml", evil, strlen(evil)};
  char real[PATH_MAX];
  cr_assert(realpath(proj, real));
  cr_assert_eq(upk_trust_hash_with(real, &given, hex), 0);
  cr_expect(!upk_trust_matches(proj, hex), "other bytes than the trusted ones matched");
  given.text = toml, given.len = strlen(toml);
  cr_assert_eq(upk_trust_hash_with(real, &given, hex), 0);
  cr_expect(upk_trust_matches(proj, hex));
  /* And the file on disk changed: the store's standing says so too. */
  put(p, evil);
  cr_assert_eq(upk_buildtoml_load(p, &bt), 0);
  cr_expect(!upk_trust_matches(proj, bt.trust_hash));
  upk_buildtoml_free(&bt);
}

Test(trust, store_is_the_users_alone) {
  grant_ok();
  char path[PATH_MAX];
  cr_assert(upk_trust_store_path(path, sizeof path));
  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0600, "store mode %o", st.st_mode & 0777);
  char dir[PATH_MAX * 2];
  snprintf(dir, sizeof dir, "%s/upskilld", state);
  cr_assert_eq(stat(dir, &st), 0);
  cr_assert_eq(st.st_mode & 077, 0, "store directory mode %o", st.st_mode & 0777);
}

Test(trust, symlinked_config_fails_closed) {
  char p[PATH_MAX * 2], target[PATH_MAX * 2];
  snprintf(target, sizeof target, "%s/elsewhere.yaml", root);
  put(target, "model: sonnet\n");
  snprintf(p, sizeof p, "%s/upskill.config.yaml", proj);
  unlink(p);
  cr_assert_eq(symlink(target, p), 0);
  char real[PATH_MAX], hex[65], err[256] = "";
  cr_assert_neq(upk_trust_grant(proj, real, hex, err, sizeof err), 0,
                "a symlinked config was trusted");
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO);
  /* trusted first, then replaced by a link to the same bytes: not trusted */
  unlink(p);
  put(p, "model: sonnet\n");
  grant_ok();
  unlink(p);
  cr_assert_eq(symlink(target, p), 0);
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO, "a link replacing a trusted config passed");
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

Test(trust, fifo_config_fails_closed_without_blocking) {
  grant_ok();
  char p[PATH_MAX * 2];
  snprintf(p, sizeof p, "%s/upskill.config.yaml", proj);
  unlink(p);
  cr_assert_eq(mkfifo(p, 0600), 0);
  alarm(20); /* a blocked open would hang here: fail instead */
  double t0 = now_s();
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO);
  char real[PATH_MAX], hex[65], err[256] = "";
  cr_assert_neq(upk_trust_grant(proj, real, hex, err, sizeof err), 0, "a FIFO config was trusted");
  cr_assert_lt(now_s() - t0, 10.0);
  alarm(0);
}

static int ctl(const char *args, char *out, size_t outlen) {
  char cmd[PATH_MAX * 3];
  const char *exe = getenv("UPSKILLCTL");
  cr_assert(exe, "UPSKILLCTL is not set (run the tests through meson test)");
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", exe, args);
  FILE *p = popen(cmd, "r");
  size_t n = fread(out, 1, outlen - 1, p);
  out[n] = '\0';
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(trust, upskillctl_trust_list_untrust) {
  char args[PATH_MAX * 2], out[8192], real[PATH_MAX], hex[65];
  cr_assert(realpath(proj, real));
  snprintf(args, sizeof args, "trust '%s'", proj);
  cr_assert_eq(ctl(args, out, sizeof out), 0, "%s", out);
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_YES);
  cr_assert_eq(upk_trust_hash(real, hex), 0);
  cr_assert(strstr(out, real), "the real path is not printed: %s", out);
  cr_assert(strstr(out, hex), "the hash is not printed: %s", out);
  cr_assert(strstr(out, "upskill.config.yaml") && strstr(out, "build.toml"),
            "the files covered are not named: %s", out);
  cr_assert_eq(ctl("trust --list", out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, real) && strstr(out, "trusted"), "%s", out);
  /* --json */
  snprintf(args, sizeof args, "--json trust '%s'", proj);
  cr_assert_eq(ctl(args, out, sizeof out), 0, "%s", out);
  json_t *j = json_loads(out, 0, NULL);
  cr_assert(j, "not JSON: %s", out);
  cr_assert_str_eq(json_string_value(json_object_get(j, "path")), real);
  cr_assert_str_eq(json_string_value(json_object_get(j, "sha256")), hex);
  json_decref(j);
  /* default: the current directory */
  char cwd[PATH_MAX];
  cr_assert(getcwd(cwd, sizeof cwd));
  cr_assert_eq(chdir(proj), 0);
  cr_assert_eq(ctl("untrust", out, sizeof out), 0, "%s", out);
  cr_assert_eq(chdir(cwd), 0);
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO, "%s", out);
  cr_assert(strstr(out, real), "%s", out);
  /* a file is no project */
  snprintf(args, sizeof args, "trust '%s/upskill.config.yaml'", proj);
  cr_assert_neq(ctl(args, out, sizeof out), 0, "%s", out);
  /* in the command table: help, completion, man */
  cr_assert_eq(ctl("trust --help", out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, "--list"), "%s", out);
  cr_assert_eq(ctl("completion bash", out, sizeof out), 0);
  cr_assert(strstr(out, "untrust"), "completion lacks untrust");
}

/* Every way an agent or an editor reaches the daemon: none writes the store. */
Test(trust, no_daemon_method_or_tool_writes_trust) {
  hx *d = hx_mcp_session(HX_NOARGS);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
  json_t *tools = json_object_get(hx_assert_result(r, "1"), "tools");
  cr_assert(json_array_size(tools) > 0);
  size_t i;
  json_t *t;
  json_array_foreach(tools, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    cr_assert_null(strstr(name, "trust"), "an agent's tool touches trust: %s", name);
  }
  json_decref(r);
  static const char *const tries[] = {"trust", "upskilld/trust", "skills/trust", "trust/grant",
                                      NULL};
  for (int k = 0; tries[k]; k++) {
    r = hx_callf(d,
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"%s\",\"arguments\":{\"path\":\"%s\"}}}",
                 10 + k, tries[k], proj);
    json_decref(r);
    r = hx_callf(d,
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":{\"path\":\"%s\"}}",
                 20 + k, tries[k], proj);
    cr_assert(json_object_get(r, "error"), "%s answered: %s", tries[k], hx_dump(r));
    json_decref(r);
  }
  hx_finish(d, 0);
  char path[PATH_MAX];
  cr_assert(upk_trust_store_path(path, sizeof path));
  cr_assert_neq(access(path, F_OK), 0, "the daemon wrote the trust store");
  cr_assert_eq(upk_trust_check(proj), UPK_TRUST_NO);
}
