/* Crash consistency: the daemon is SIGKILLed (UPSKILLD_FAULT=POINT:N) at every hit of every
 * fault point inside skills/install, skills/remove, the manifest and index writes, and each
 * time the disk must hold each skill directory wholly old or wholly new; the next daemon must
 * start clean: it repairs what was left (and says so), after which the manifest agrees with
 * the disk and the next install works. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

TestSuite(crash, .timeout = 900);

#define NAME "crash-demo"
#define MAX_HITS 60
/* No toolkit: no warm kernel worker loading NVRTC in each of the many daemons. */
#define NO_CUDA HX_ARGS("--cuda-path=/nonexistent")

static const char *const roots[] = {".agents/skills", ".claude/skills"};

typedef struct version {
  const char *files[4][2]; /* path, content; ends with {NULL, NULL} */
} version;

static const version versions[3] = {
    {{{NULL, NULL}}},
    {{{"SKILL.md", "---\nname: " NAME "\ndescription: Checks crash consistency of installs, "
                   "first version. Use when testing upskilld.\n---\n# Crash demo, first "
                   "version\n\nRead [the reference](ref.md).\n"},
      {"ref.md", "first reference\n"},
      {NULL, NULL}}},
    {{{"SKILL.md", "---\nname: " NAME "\ndescription: Checks crash consistency of installs, "
                   "second version. Use when testing upskilld.\n---\n# Crash demo, second "
                   "version\n\nRead [the reference](ref.md) and [the notes](notes.md).\n"},
      {"ref.md", "second reference, a little longer than the first one was\n"},
      {"notes.md", "only in the second version\n"},
      {NULL, NULL}}},
};

typedef struct world {
  char dir[64];
  char proj[128], state[128], src[3][128]; /* state: every daemon's XDG_STATE_HOME */
  char hash[3][80];                        /* "sha256:<hex>" of versions 1 and 2 as installed */
} world;

static void path_of(char *out, size_t len, const world *w, int root, const char *rest) {
  snprintf(out, len, "%s/%s%s%s", w->proj, roots[root], rest ? "/" : "", rest ? rest : "");
}

/* 0: absent, 1 or 2: exactly that version's files, -1: anything else (a mix, half a file). */
static int which_version(const char *dir) {
  if (!fsx_exists(dir))
    return 0;
  for (int v = 1; v <= 2; v++) {
    size_t n = 0;
    bool same = true;
    for (; versions[v].files[n][0]; n++) {
      char p[512];
      snprintf(p, sizeof p, "%s/%s", dir, versions[v].files[n][0]);
      char *got = fsx_read(p);
      same &= got && !strcmp(got, versions[v].files[n][1]);
      free(got);
    }
    if (same && fsx_count_prefix(dir, "") == n + 2) /* and nothing else besides . and .. */
      return v;
  }
  return -1;
}

static void world_init(world *w) {
  fsx_mkdtemp(w->dir, "crash");
  snprintf(w->proj, sizeof w->proj, "%s/proj", w->dir);
  snprintf(w->state, sizeof w->state, "%s/state", w->dir);
  setenv("UPK_TEST_STATE_HOME", w->state, 1); /* manifests outlive each daemon's HOME */
  for (int v = 1; v <= 2; v++) {
    char src[sizeof w->src[v]]; /* not into w directly: GCC -O1 sees w->dir as a maybe-overlap */
    snprintf(src, sizeof src, "%s/v%d/" NAME, w->dir, v);
    memcpy(w->src[v], src, sizeof src);
    for (size_t i = 0; versions[v].files[i][0]; i++) {
      char p[512];
      snprintf(p, sizeof p, "%s/%s", w->src[v], versions[v].files[i][0]);
      fsx_write(p, versions[v].files[i][1]);
    }
  }
}

static void world_reset(world *w) {
  fsx_rm_rf(w->proj);
  fsx_rm_rf(w->state);
  cr_assert_eq(mkdir(w->proj, 0755), 0);
  cr_assert_eq(mkdir(w->state, 0700), 0);
}

/* The project as it is now is kept as <dir>/base; world_restore brings it back (cheaper than
 * a daemon installing it again for every kill). */
static void world_keep(const world *w) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s/base' && mkdir '%s/base' && cp -a '%s' '%s' '%s/base/'",
           w->dir, w->dir, w->proj, w->state, w->dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static void world_restore(const world *w) {
  char cmd[512];
  fsx_rm_rf(w->proj);
  fsx_rm_rf(w->state);
  snprintf(cmd, sizeof cmd, "cp -a '%s/base/proj' '%s/base/state' '%s/'", w->dir, w->dir, w->dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
}

#define REQ_ID 7

static void send_init(hx *d, const world *w) {
  hx_sendf(d,
           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
           "\"rootUri\":\"file://%s\",\"capabilities\":{}}}",
           w->proj);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
}

static void send_op(hx *d, const world *w, const char *op, int version) {
  if (!strcmp(op, "remove"))
    hx_sendf(d,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/remove\",\"params\":"
             "{\"name\":\"" NAME "\"}}",
             REQ_ID);
  else
    hx_sendf(d,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/install\",\"params\":"
             "{\"from\":\"%s\",\"force\":true}}",
             REQ_ID, w->src[version]);
}

/* The answer to REQ_ID, or NULL when the daemon's output ended first. */
static json_t *answer(hx *d) {
  json_t *m;
  while ((m = hx_response(d, 4 * HX_TIMEOUT))) {
    json_t *id = json_object_get(m, "id");
    if (json_is_integer(id) && json_integer_value(id) == REQ_ID)
      return m;
    json_decref(m);
  }
  return NULL;
}

/* Start a daemon on the project with UPSKILLD_FAULT=fault (NULL: none) and send `op`.
 * Returns its answer (the daemon is finished), or NULL when the fault killed it. */
static json_t *run_op(const world *w, const char *fault, const char *op, int version) {
  if (fault)
    setenv("UPSKILLD_FAULT", fault, 1);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, NO_CUDA);
  unsetenv("UPSKILLD_FAULT");
  send_init(d, w);
  send_op(d, w, op, version);
  json_t *r = answer(d);
  if (r) {
    hx_finish(d, 0);
    return r;
  }
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 128 + SIGKILL,
               "with UPSKILLD_FAULT=%s the daemon neither answered %s nor "
               "was killed (status %d)",
               fault, op, rc);
  hx_assert_clean_stderr(d);
  hx_free(d);
  return NULL;
}

static void install_ok(world *w, int version) {
  json_t *r = run_op(w, NULL, "install", version);
  json_t *res = hx_assert_result(r, "7");
  const char *h = json_string_value(json_object_get(res, "hash"));
  cr_assert_not_null(h, "%s", hx_dump(res));
  snprintf(w->hash[version], sizeof w->hash[version], "sha256:%s", h);
  json_decref(r);
}

/* The manifest of root i (skills/install.h: in the state directory, recording its root), and
 * whether a manifest's temporary file is there. NULL when it has none. */
static json_t *manifest_of(const world *w, int i, bool *tmp_left) {
  char dir[256], root[256];
  snprintf(dir, sizeof dir, "%s/upskilld/installs", w->state);
  path_of(root, sizeof root, w, i, NULL);
  *tmp_left = false;
  DIR *dp = opendir(dir);
  json_t *found = NULL;
  struct dirent *e;
  while (dp && (e = readdir(dp))) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".tmp"))
      *tmp_left = true;
    if (found || n < 5 || strcmp(e->d_name + n - 5, ".json"))
      continue;
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    json_t *m = json_load_file(p, 0, NULL);
    if (m && !strcmp(json_string_value(json_object_get(m, "root"))
                         ? json_string_value(json_object_get(m, "root"))
                         : "",
                     root))
      found = m;
    else
      json_decref(m);
  }
  if (dp)
    closedir(dp);
  return found;
}

/* What a killed run may leave in root i: staging dirs, a manifest's temp file, or a
 * manifest that disagrees with the directory. */
static bool root_dirty(const world *w, int i) {
  char root[256], dir[256];
  bool tmp_left;
  path_of(root, sizeof root, w, i, NULL);
  json_t *m = manifest_of(w, i, &tmp_left);
  if (fsx_count_prefix(root, ".upskilld-tmp.") || tmp_left) {
    json_decref(m);
    return true;
  }
  path_of(dir, sizeof dir, w, i, NAME);
  int v = which_version(dir);
  const char *h = json_string_value(
      json_object_get(json_object_get(json_object_get(m, "skills"), NAME), "hash"));
  bool dirty = v > 0 ? !h || strcmp(h, w->hash[v]) : h != NULL;
  json_decref(m);
  return dirty;
}

/* Each copy is one of the `allowed` versions (bit v; bit 0: absent). */
static void check_whole(const world *w, unsigned allowed, const char *when) {
  for (int i = 0; i < 2; i++) {
    char dir[256];
    path_of(dir, sizeof dir, w, i, NAME);
    int v = which_version(dir);
    cr_assert(v >= 0 && (allowed >> v & 1), "%s: %s is %s", when, dir,
              v < 0 ? "a mix of versions or has half a file"
              : v   ? "the wrong version"
                    : "gone");
  }
}

/* After a kill at `fault`: whole copies; a clean daemon repairs (and says so when there was
 * something to repair); then the manifests agree with the disk and the next install works. */
static void check_after_kill(world *w, const char *fault, unsigned before, unsigned after) {
  check_whole(w, before, fault);
  bool dirty = root_dirty(w, 0) || root_dirty(w, 1);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, NO_CUDA);
  send_init(d, w);
  hx_sendf(d, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/list\"}", REQ_ID);
  json_t *r = answer(d); /* the skills queue ran the repair before this */
  hx_assert_result(r, "7");
  json_decref(r);
  char *err = hx_stderr(d);
  cr_assert(!dirty || strstr(err, "repaired"), "%s: leftovers were not reported:\n%s", fault, err);
  free(err);
  char when[128];
  snprintf(when, sizeof when, "%s, repaired", fault);
  check_whole(w, after, when);
  for (int i = 0; i < 2; i++)
    cr_assert_not(root_dirty(w, i), "%s: %s still disagrees with the disk", when, roots[i]);
  send_op(d, w, "install", 2); /* the same daemon goes on to install */
  r = answer(d);
  cr_assert_str_eq(json_string_value(json_object_get(hx_assert_result(r, "7"), "hash")),
                   w->hash[2] + strlen("sha256:"));
  json_decref(r);
  hx_finish(d, 0);
  check_whole(w, 1u << 2, "the install after the repair");
  for (int i = 0; i < 2; i++)
    cr_assert_not(root_dirty(w, i), "after the next install: %s", roots[i]);
}

/* Kill `op` at hit 1, 2, ... of each point until the op completes without reaching it. */
static void crash_each(const char *op, int from, const char *const *points, const char *extra,
                       unsigned before, unsigned after) {
  world w = {0};
  world_init(&w);
  world_reset(&w);
  install_ok(&w, 2); /* learn version 2's hash */
  world_reset(&w);
  if (from)
    install_ok(&w, from);
  world_keep(&w);
  int kills = 0;
  for (const char *const *pt = points; *pt; pt++) {
    int n;
    for (n = 1; n <= MAX_HITS; n++) {
      world_restore(&w);
      char fault[160];
      snprintf(fault, sizeof fault, "%s:%d%s%s", *pt, n, extra ? "," : "", extra ? extra : "");
      json_t *r = run_op(&w, fault, op, 2);
      if (r) { /* fewer than n hits: the op ran to the end */
        hx_assert_result(r, "7");
        json_decref(r);
        break;
      }
      kills++;
      check_after_kill(&w, fault, before, after);
    }
    cr_assert_gt(n, 1, "%s was never reached by %s", *pt, op);
    cr_assert_leq(n, MAX_HITS, "%s is hit more than %d times", *pt, MAX_HITS);
  }
  cr_log_info("%s from version %d%s: %d kills checked", op, from, extra ? " (fallback)" : "",
              kills);
  fsx_rm_rf(w.dir);
}

#define OLD_OR_NEW ((1u << 1) | (1u << 2))

Test(crash, replace_killed_anywhere) {
  static const char *const points[] = {"install.staged",
                                       "install.committed",
                                       "install.recorded",
                                       "manifest.rename",
                                       "fs.write",
                                       "fs.unlink",
                                       NULL};
  crash_each("install", 1, points, NULL, OLD_OR_NEW, OLD_OR_NEW);
}

/* Without RENAME_EXCHANGE the old copy is set aside first: a kill there leaves no copy for a
 * moment, and the repair puts the old one back. */
Test(crash, replace_without_exchange_killed_anywhere) {
  static const char *const points[] = {"install.aside", "install.committed", NULL};
  crash_each("install", 1, points, "install.exchange:1:EINVAL", OLD_OR_NEW | 1u, OLD_OR_NEW);
}

Test(crash, fresh_install_killed_anywhere) {
  static const char *const points[] = {"fs.mkdir", "fs.write", "install.staged",
                                       "install.committed", NULL};
  crash_each("install", 0, points, NULL, 1u | (1u << 2), 1u | (1u << 2));
}

Test(crash, remove_killed_anywhere) {
  /* The last skill out: its manifest is deleted, not rewritten (no manifest.rename, fs.write). */
  static const char *const points[] = {"remove.moved", "remove.recorded", "manifest.unlink",
                                       "fs.unlink", NULL};
  crash_each("remove", 1, points, NULL, 1u | (1u << 1), 1u | (1u << 1));
}

/* The skill index (a SQLite file shared by the daemons through UPSKILLD_INDEX) killed at each
 * statement of its set-up and scan: the next daemon opens it and finds the skill. */
/* After a kill at `fault`: a fresh daemon opens the index file and finds the skill. */
static void check_index_recovered(world *w, const char *fault) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, NO_CUDA);
  send_init(d, w);
  json_decref(hx_response(d, HX_TIMEOUT)); /* the initialize answer */
  json_t *r = hx_lookup_settled(d, REQ_ID, "crash consistency of installs");
  json_t *res = hx_assert_result(r, "7");
  cr_assert(strstr(hx_dump(res), NAME), "%s: the skill is not found after the kill: %s", fault,
            hx_dump(res));
  json_decref(r);
  char *err = hx_stderr(d);
  cr_assert_null(strstr(err, "in-memory index"), "%s: the index file was unusable:\n%s", fault,
                 err);
  free(err);
  hx_finish(d, 0);
}

Test(crash, index_killed_mid_scan) {
  world w = {0};
  world_init(&w);
  world_reset(&w);
  install_ok(&w, 1);
  char db[128];
  snprintf(db, sizeof db, "%s/index.sqlite", w.dir);
  setenv("UPSKILLD_INDEX", db, 1);
  int n, kills = 0;
  size_t len = 0;
  for (n = 1; n <= MAX_HITS; n++) {
    char fault[64];
    snprintf(fault, sizeof fault, "index.exec:%d", n);
    setenv("UPSKILLD_FAULT", fault, 1);
    hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, NO_CUDA);
    unsetenv("UPSKILLD_FAULT");
    send_init(d, &w);
    json_t *r = NULL;
    char *list = hx_frame(d, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"skills/list\"}", &len);
    do { /* until the first scan is done (answers meanwhile say `indexing`) or the kill */
      json_decref(r);
      r = hx_try_write(d, list, len) ? answer(d) : NULL;
    } while (r && json_object_get(json_object_get(r, "result"), "indexing") && !usleep(20000));
    free(list);
    bool scanned = r != NULL;
    json_decref(r);
    if (scanned) /* the scan ran to the end; the index may still write once on the way out */
      hx_close_stdin(d);
    int st = hx_wait(d, HX_TIMEOUT);
    cr_assert(st == 128 + SIGKILL || (scanned && st == 0), "%s: the daemon exited with %d", fault,
              st);
    if (st == 0)
      hx_assert_clean_stderr(d);
    hx_free(d);
    if (st) {
      kills++;
      check_index_recovered(&w, fault);
    }
    if (scanned)
      break;
  }
  cr_assert_gt(kills, 2, "index.exec was hit only %d times", kills);
  cr_log_info("index: %d kills checked", kills);
  unsetenv("UPSKILLD_INDEX");
  fsx_rm_rf(w.dir);
}
