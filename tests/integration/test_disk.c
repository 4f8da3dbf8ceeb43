/* Full, read-only and forbidden disks under the install, index and kernel-cache paths: a clear
 * error naming the path, nothing half-written left, and the daemon keeps serving.
 *
 * The real conditions need root: each test moves into its own mount namespace (unshare) and
 * mounts a read-only bind or a tiny tmpfs there (gone with the test process); EACCES comes
 * from a 0555 directory once CAP_DAC_OVERRIDE is out of the capability bounding set, so that
 * even root's daemon is refused. Without those privileges the real tests are skipped, saying
 * why, and the same paths are still covered by injected errors (UPSKILLD_FAULT). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

TestSuite(disk, .timeout = 300);

#define NAME "disk-demo"
#define SKILL_MD                                                                                   \
  "---\nname: " NAME "\ndescription: Checks disk errors. Use when testing upskilld on a full "     \
  "disk.\n---\n# Disk demo\n\nRead [the data](data.txt).\n"
#define KERNEL "__global__ void k(float *y) { y[threadIdx.x] = 2.0f; }"

static char why_not[256];

/* A private mount namespace for this test process and the daemons it starts. */
static bool isolate(void) {
  if (geteuid() != 0) {
    snprintf(why_not, sizeof why_not, "needs root (uid %d) for mounts", (int)geteuid());
    return false;
  }
  if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
    snprintf(why_not, sizeof why_not, "cannot make a private mount namespace: %s", strerror(errno));
    return false;
  }
  return true;
}

static void mount_ro(const char *dir) {
  cr_assert_eq(mount(dir, dir, NULL, MS_BIND, NULL), 0, "bind %s: %s", dir, strerror(errno));
  cr_assert_eq(mount(NULL, dir, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL), 0,
               "remount %s read-only: %s", dir, strerror(errno));
}

/* A tmpfs of `size` over dir, filled with `fill` bytes. */
static void mount_small(const char *dir, const char *size, size_t fill) {
  cr_assert_eq(mount("tmpfs", dir, "tmpfs", 0, size), 0, "tmpfs on %s: %s", dir, strerror(errno));
  if (!fill)
    return;
  char p[512], *buf = calloc(1, fill + 1);
  memset(buf, 'x', fill);
  snprintf(p, sizeof p, "%s/filler", dir);
  fsx_write(p, buf);
  free(buf);
}

/* Root's daemons lose the power to ignore file modes (kept out of the bounding set, which
 * exec turns into their permitted set). */
static void deny_dac(void) {
  cr_assert_eq(prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0), 0, "%s", strerror(errno));
  cr_assert_eq(prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0), 0, "%s", strerror(errno));
  cr_assert_eq(prctl(PR_CAPBSET_DROP, CAP_FOWNER, 0, 0, 0), 0, "%s", strerror(errno));
}

typedef struct box {
  char dir[64], proj[128], src[128];
} box;

/* A project and a skill source whose data.txt has `data_len` bytes. */
static void box_init(box *b, size_t data_len) {
  fsx_mkdtemp(b->dir, "disk");
  snprintf(b->proj, sizeof b->proj, "%s/proj", b->dir);
  snprintf(b->src, sizeof b->src, "%s/src/" NAME, b->dir);
  cr_assert_eq(mkdir(b->proj, 0755), 0);
  char p[256], *data = calloc(1, data_len + 1);
  memset(data, 'd', data_len);
  snprintf(p, sizeof p, "%s/SKILL.md", b->src);
  fsx_write(p, SKILL_MD);
  snprintf(p, sizeof p, "%s/data.txt", b->src);
  fsx_write(p, data);
  free(data);
}

static hx *start(const box *b, const char *fault) {
  if (fault)
    setenv("UPSKILLD_FAULT", fault, 1);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  unsetenv("UPSKILLD_FAULT");
  return d;
}

static void init(hx *d, const box *b) {
  char uri[200];
  snprintf(uri, sizeof uri, "file://%s", b->proj);
  json_decref(hx_lsp_init(d, uri));
}

/* skills/install from the box's source; returns the response (caller owns). */
static json_t *install(hx *d, const box *b, const char *scope) {
  return hx_callf(d,
                  "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"skills/install\",\"params\":"
                  "{\"from\":\"%s\",\"force\":true,\"scope\":\"%s\"}}",
                  b->src, scope);
}

/* The install failed with a message naming `path` and the errno's text. */
static void assert_refused(json_t *r, const char *path, int err) {
  const char *msg = hx_assert_error(r, "5", -32803);
  cr_assert(strstr(msg, path), "the error does not name %s: %s", path, msg);
  cr_assert(strstr(msg, strerror(err)), "the error does not say '%s': %s", strerror(err), msg);
}

/* Nothing half-written in the project's skills directories: no staging directory, no
 * manifest temp file, and the skill either absent or whole with `want_data` bytes of data. */
static void assert_nothing_half(const box *b, long want_data) {
  static const char *const roots[] = {".agents/skills", ".claude/skills"};
  for (int i = 0; i < 2; i++) {
    char root[256], p[320];
    snprintf(root, sizeof root, "%s/%s", b->proj, roots[i]);
    cr_assert_eq(fsx_count_prefix(root, ".upskilld-tmp."), 0, "a staging dir is left in %s", root);
    snprintf(p, sizeof p, "%s/.upskilld-lock.json.tmp", root);
    cr_assert_not(fsx_exists(p), "%s is left", p);
    snprintf(p, sizeof p, "%s/" NAME "/data.txt", root);
    struct stat st;
    if (want_data < 0) {
      snprintf(p, sizeof p, "%s/" NAME, root);
      cr_assert_not(fsx_exists(p), "%s exists after a failed install", p);
    } else {
      cr_assert_eq(stat(p, &st), 0, "%s is gone", p);
      cr_assert_eq(st.st_size, want_data, "%s is half-written", p);
    }
  }
}

/* Everything else still works: ping, listing, a kernel check, an install elsewhere. */
static void still_serving(hx *d, const box *b) {
  hx_ping(d);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"skills/list\"}");
  hx_assert_result(r, "20");
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"kernel/validate\",\"params\":"
                 "{\"source\":\"" KERNEL "\"}}");
  hx_assert_result(r, "21");
  json_decref(r);
  r = install(d, b, "user"); /* $HOME is on a healthy disk */
  hx_assert_result(r, "5");
  json_decref(r);
}

static void box_free(box *b) {
  umount2(b->proj, MNT_DETACH);
  chmod(b->proj, 0755);
  fsx_rm_rf(b->dir);
}

/* ---- install paths ---- */

/* The project made unwritable by `spoil`: the install is refused with `err`, naming the
 * project, nothing is left, and the daemon serves on. */
static void install_refused(void (*spoil)(const box *b), int err) {
  if (!isolate())
    cr_skip_test("%s", why_not);
  box b;
  box_init(&b, 100);
  spoil(&b);
  hx *d = start(&b, NULL);
  init(d, &b);
  json_t *r = install(d, &b, "project");
  assert_refused(r, b.proj, err);
  json_decref(r);
  assert_nothing_half(&b, -1);
  still_serving(d, &b);
  hx_finish(d, 0);
  box_free(&b);
}

static void read_only(const box *b) {
  mount_ro(b->proj);
}

static void forbidden(const box *b) {
  cr_assert_eq(chmod(b->proj, 0555), 0);
  deny_dac();
}

Test(disk, install_on_a_read_only_project) {
  install_refused(read_only, EROFS);
}

Test(disk, install_into_a_forbidden_project) {
  install_refused(forbidden, EACCES);
}

/* A version that fits, then one that does not: the first stays whole and recorded. */
Test(disk, install_on_a_full_disk) {
  if (!isolate())
    cr_skip_test("%s", why_not);
  box b;
  box_init(&b, 1000);
  mount_small(b.proj, "size=256k", 0);
  hx *d = start(&b, NULL);
  init(d, &b);
  json_t *r = install(d, &b, "project");
  hx_assert_result(r, "5");
  json_decref(r);
  char p[256];
  snprintf(p, sizeof p, "%s/data.txt", b.src);
  char *big = calloc(1, 300001);
  memset(big, 'D', 300000);
  fsx_write(p, big); /* more than the whole disk */
  free(big);
  r = install(d, &b, "project");
  assert_refused(r, b.proj, ENOSPC);
  json_decref(r);
  assert_nothing_half(&b, 1000);
  still_serving(d, &b);
  hx_finish(d, 0);
  box_free(&b);
}

/* The same failures injected where no mount is possible (or wanted): ENOSPC in the middle of
 * a file, EACCES and EROFS creating the skills directory, ENOSPC renaming the manifest. */
static void injected(const char *fault, int err, long want_data, bool first_ok) {
  box b;
  box_init(&b, 1000);
  if (first_ok) {
    hx *d = start(&b, NULL);
    init(d, &b);
    json_t *r = install(d, &b, "project");
    hx_assert_result(r, "5");
    json_decref(r);
    hx_finish(d, 0);
    char p[256], data[1001];
    memset(data, 'e', 1000); /* a new version of the same size */
    data[1000] = 0;
    snprintf(p, sizeof p, "%s/data.txt", b.src);
    fsx_write(p, data);
  }
  hx *d = start(&b, fault);
  init(d, &b);
  json_t *r = install(d, &b, "project");
  assert_refused(r, b.proj, err);
  json_decref(r);
  assert_nothing_half(&b, want_data);
  hx_ping(d);
  hx_finish(d, 0);
  box_free(&b);
}

Test(disk, injected_install_errors) {
  injected("fs.write:1:ENOSPC", ENOSPC, -1, false);
  injected("fs.mkdir:1:EACCES", EACCES, -1, false);
  injected("fs.mkdir:1:EROFS", EROFS, -1, false);
  injected("install.staged:1:ENOSPC", ENOSPC, 1000, true);
  injected("fs.write:1:EIO", EIO, 1000, true);
}

/* ---- the skill index and the kernel cache (both under $XDG_CACHE_HOME) ---- */

/* The cache directory is unusable: lookups are served from an in-memory index (with a warning
 * naming the file), kernel checks still answer and say why their result was not cached. */
static void cache_unusable(hx *d, const box *b, const char *errtext) {
  init(d, b);
  json_t *r = hx_lookup_settled(d, 30, "write a CUDA kernel for H100");
  json_t *res = hx_assert_result(r, "30");
  cr_assert(json_array_size(json_object_get(res, "results")) > 0, "no skill found: %s",
            hx_dump(res));
  json_decref(r);
  char cache[128], *err = hx_stderr(d);
  snprintf(cache, sizeof cache, "%s/cache/upskilld/index-", hx_home(d));
  cr_assert(strstr(err, cache) && strstr(err, "in-memory index") && strstr(err, errtext),
            "no warning naming the index file and '%s':\n%s", errtext, err);
  free(err);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"kernel/validate\",\"params\":"
                 "{\"source\":\"" KERNEL "\"}}");
  res = hx_assert_result(r, "31");
  const char *why = json_string_value(json_object_get(res, "diskCacheError"));
  snprintf(cache, sizeof cache, "%s/cache/upskilld/kernels-v4", hx_home(d));
  cr_assert(why && strstr(why, cache) && strstr(why, errtext), "diskCacheError: %s", hx_dump(res));
  json_decref(r);
  hx_ping(d);
}

static char *cache_dir(hx *d) {
  static char p[128];
  snprintf(p, sizeof p, "%s/cache", hx_home(d));
  mkdir(p, 0755);
  return p;
}

Test(disk, cache_on_a_read_only_disk) {
  if (!isolate())
    cr_skip_test("%s", why_not);
  box b;
  box_init(&b, 10);
  hx *d = start(&b, NULL);
  mount_ro(cache_dir(d)); /* before initialize opens anything there */
  cache_unusable(d, &b, strerror(EROFS));
  hx_finish(d, 0);
  box_free(&b);
}

Test(disk, cache_on_a_forbidden_disk) {
  if (!isolate())
    cr_skip_test("%s", why_not);
  box b;
  box_init(&b, 10);
  deny_dac();
  hx *d = start(&b, NULL);
  cr_assert_eq(chmod(cache_dir(d), 0555), 0);
  cache_unusable(d, &b, strerror(EACCES));
  hx_finish(d, 0);
  box_free(&b);
}

/* A full cache disk: nothing half-written is left in the kernel cache. */
Test(disk, cache_on_a_full_disk) {
  if (!isolate())
    cr_skip_test("%s", why_not);
  box b;
  box_init(&b, 10);
  hx *d = start(&b, NULL);
  char *dir = cache_dir(d), kc[160];
  mount_small(dir, "size=4k", 4096);
  cache_unusable(d, &b, strerror(ENOSPC));
  snprintf(kc, sizeof kc, "%s/upskilld/kernels-v4", dir);
  cr_assert_eq(fsx_count_prefix(kc, ""), 2, "something is left in %s", kc);
  hx_finish(d, 0);
  umount2(dir, MNT_DETACH);
  box_free(&b);
}

Test(disk, injected_cache_errors) {
  box b;
  box_init(&b, 10);
  hx *d = start(&b, "index.exec:1:EROFS,kcache.rename:1:ENOSPC");
  init(d, &b);
  json_t *r = hx_lookup_settled(d, 30, "write a CUDA kernel for H100");
  json_t *res = hx_assert_result(r, "30");
  cr_assert(json_array_size(json_object_get(res, "results")) > 0, "%s", hx_dump(res));
  json_decref(r);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"kernel/validate\",\"params\":"
                 "{\"source\":\"" KERNEL "\"}}");
  res = hx_assert_result(r, "31");
  const char *why = json_string_value(json_object_get(res, "diskCacheError"));
  cr_assert(why && strstr(why, strerror(ENOSPC)) && strstr(why, "kernels-v4/"), "%s", hx_dump(res));
  char kc[160];
  snprintf(kc, sizeof kc, "%s/cache/upskilld/kernels-v4", hx_home(d));
  cr_assert_eq(fsx_count_prefix(kc, ""), 2, "a temporary file is left in %s", kc);
  json_decref(r);
  char *err = hx_stderr(d);
  cr_assert(strstr(err, "in-memory index"), "%s", err);
  free(err);
  hx_finish(d, 0);
  box_free(&b);
}

/* A kernel-cache write killed between its temporary file and the rename leaves that file
 * behind; the next store (by a later worker) deletes it. */
Test(disk, stale_cache_temp_files_are_swept) {
  box b;
  box_init(&b, 10);
  hx *d = start(&b, NULL);
  char kc[160], p[256];
  snprintf(kc, sizeof kc, "%s/cache/upskilld/kernels-v4", hx_home(d));
  snprintf(p, sizeof p, "%s/0123abcd.json.999999999.tmp", kc); /* no such process */
  fsx_write(p, "{\"half\":");
  init(d, &b);
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"kernel/validate\",\"params\":"
                         "{\"source\":\"" KERNEL "\"}}");
  hx_assert_result(r, "31");
  json_decref(r);
  cr_assert_not(fsx_exists(p), "%s was not swept", p);
  cr_assert_eq(fsx_count_prefix(kc, ""), 3, "expected one cache entry in %s", kc);
  hx_finish(d, 0);
  box_free(&b);
}

/* The worker keeps its temporary files in the user's cache (upskilld/tmp): NVRTC's precompiled
 * headers, nvcc's scratch directories. Removed while the worker runs (a cache cleaner, rm -rf
 * ~/.cache), the next compile makes them again: NVRTC failed "invalid PCH directory" and nvcc
 * "cannot make a temporary directory" on every later compile. */
Test(disk, a_removed_temporary_directory_is_made_again) {
  HX_NEED_TOOLKIT();
  const char *cuda = getenv("CUDA_PATH");
  char nvcc[512], cmd[512];
  snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", cuda && *cuda ? cuda : "/usr/local/cuda");
  bool have_nvcc = access(nvcc, X_OK) == 0;
  hx *d = hx_lsp_session(HX_NOARGS);
  static const char *const backend[] = {"nvrtc", "nvrtc", "nvcc"};
  for (int round = 0; round < (have_nvcc ? 3 : 2); round++) {
    json_t *resp = hx_callf(
        d,
        "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"kernel/validate\",\"params\":{\"source\":"
        "\"#include <cuda_fp16.h>\\n__global__ void k(float *x) { x[0] *= %d.0f; }\\n\","
        "\"backend\":\"%s\",\"cache\":false}}",
        70 + round, round + 2, backend[round]);
    char id[8];
    snprintf(id, sizeof id, "%d", 70 + round);
    json_t *r = hx_assert_result(resp, id);
    cr_assert(json_is_true(json_object_get(r, "ok")), "round %d (%s): %s", round, backend[round],
              hx_dump(r));
    json_decref(resp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/cache/upskilld/tmp'", hx_home(d));
    cr_assert_eq(system(cmd), 0);
  }
  hx_finish(d, 0);
}
