/* The installer under attack and under failure: planted symlinks, two
 * installs at once, SIGKILL in the middle, and recovery afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "skills/fsutil.h"
#include "skills/install.h"
#include "tests/skills/install_test.h"

/* ---- planted symlinks ----------------------------------------------------- */

UTest(safety, symlink_as_skill_dir_not_followed) {
  char *p = tmpdir(), *out = tmpdir(), *src = tmpdir();
  make_skill(src, "target", "v1");
  write_file(out, "victim/keep.txt", "precious\n");
  mkdirs(path_of(p, ".claude/skills"));
  cr_assert_eq(symlink(path_of(out, "victim"), path_of(p, ".claude/skills/target")), 0);
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "target"), "claude", false, &res), -EEXIST);
  cr_assert_eq(count_entries(path_of(out, "victim")), 1, "nothing written through the link");
  upk_install_result_free(&res);
  /* With force the link itself is replaced by a real directory; its target
   * is not touched. */
  cr_assert_eq(install_path(p, path_of(src, "target"), "claude", true, &res), 0);
  struct stat st;
  cr_assert_eq(lstat(path_of(p, ".claude/skills/target"), &st), 0);
  cr_assert(S_ISDIR(st.st_mode));
  cr_assert_eq(count_entries(path_of(out, "victim")), 1);
  cr_assert_str_eq(read_file(path_of(out, "victim/keep.txt")), "precious\n");
  cr_assert_eq(count_entries(out), 1);
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(out);
  rmrf(src);
}

/* A link at `link_rel` inside the project pointing to an empty outside dir. */
static void planted_dir_link(const char *link_rel, const char *agent) {
  char *p = tmpdir(), *out = tmpdir(), *src = tmpdir();
  make_skill(src, "escape", "v1");
  char *link = path_of(p, link_rel), *slash = strrchr(link, '/');
  *slash = 0;
  mkdirs(link);
  *slash = '/';
  cr_assert_eq(symlink(out, link), 0);
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "escape"), agent, true, &res), -ELOOP, "%s", link_rel);
  cr_assert(has_code(&res.diags, "install/symlink-in-path"));
  cr_assert_eq(count_entries(out), 0, "nothing written outside through %s", link_rel);
  upk_install_result_free(&res);
  /* remove does not go through it either. */
  write_file(out, "skills/escape/SKILL.md", "x");
  write_file(out, "escape/SKILL.md", "x");
  const char *ids[] = {agent};
  upk_remove_req rr = {.name = "escape",
                       .agents = ids,
                       .n_agents = 1,
                       .scope = UPK_SCOPE_PROJECT,
                       .project_root = p};
  cr_assert_eq(upk_remove(&rr, &res), -ELOOP);
  cr_assert(exists(path_of(out, "skills/escape/SKILL.md")));
  cr_assert(exists(path_of(out, "escape/SKILL.md")));
  upk_install_result_free(&res);
  rmrf(p);
  rmrf(out);
  rmrf(src);
}

UTest(safety, symlink_as_agent_dir_not_followed) {
  planted_dir_link(".claude", "claude");
}

UTest(safety, symlink_as_skills_dir_not_followed) {
  planted_dir_link(".agents/skills", "codex");
}

UTest(safety, symlinked_lock_and_manifest_not_written_through) {
  char *p = tmpdir(), *out = tmpdir(), *src = tmpdir();
  make_skill(src, "locky", "v1");
  write_file(out, "manifest", "outside manifest\n");
  write_file(out, "tmp", "outside tmp\n");
  write_file(out, "lock", "outside lock\n");
  char *root = path_of(p, ".claude/skills"), *m = manifest_path(root);
  mkdirs(root);
  const char *slash = m ? strrchr(m, '/') : NULL;
  cr_assert_not_null(slash, "no manifest path under %s", root);
  mkdirs(fmt("%.*s", (int)(slash - m), m ? m : ""));
  cr_assert_eq(symlink(path_of(out, "manifest"), m), 0);
  cr_assert_eq(symlink(path_of(out, "tmp"), fmt("%s.tmp", m)), 0);
  /* An older upskilld's names in the directory, planted as links: removed, never followed. */
  cr_assert_eq(symlink(path_of(out, "lock"), path_of(root, UPK_LEGACY_LOCKFILE)), 0);
  cr_assert_eq(symlink(path_of(out, "manifest"), path_of(root, UPK_LEGACY_MANIFEST)), 0);
  upk_install_result res;
  int rc = install_path(p, path_of(src, "locky"), "claude", false, &res);
  cr_assert_eq(rc, 0, "rc %d: %s", rc, first_msg(&res.diags));
  cr_assert_str_eq(read_file(path_of(out, "manifest")), "outside manifest\n");
  cr_assert_str_eq(read_file(path_of(out, "tmp")), "outside tmp\n");
  cr_assert_str_eq(read_file(path_of(out, "lock")), "outside lock\n");
  cr_assert_not(exists(path_of(root, UPK_LEGACY_LOCKFILE)));
  cr_assert_not(exists(path_of(root, UPK_LEGACY_MANIFEST)));
  json_t *e = manifest_entry(root, "locky");
  cr_assert_not_null(e, "a real manifest replaced the link");
  json_decref(e);
  upk_install_result_free(&res);
  unlink(m);
  unlink(fmt("%s.bad", m));
  rmrf(p);
  rmrf(out);
  rmrf(src);
}

/* ---- concurrency ------------------------------------------------------------ */

/* A skill of `files` files of `size` bytes whose content depends on variant. */
static void make_big_skill(const char *dir, const char *name, const char *variant, int files,
                           size_t size) {
  make_skill(dir, name, variant);
  char *buf = malloc(size + 1);
  for (int i = 0; i < files; i++) {
    memset(buf, 'a' + (variant[0] + i) % 26, size);
    buf[size] = 0;
    write_file(dir, fmt("%s/data/%03d.txt", name, i), buf);
  }
  free(buf);
}

/* Fork a child that waits on `gate`, installs and exits with 0 (done),
 * 1 (-EEXIST) or 2 (anything else). */
static pid_t spawn_install(int gate, int gate_w, const char *root, const char *from, bool force) {
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid)
    return pid;
  /* The child must not hold the write end itself, or its read never sees EOF. */
  if (gate_w >= 0)
    close(gate_w);
  char c;
  if (gate >= 0)
    (void)!read(gate, &c, 1);
  upk_install_result res;
  int rc = install_path(root, from, "claude", force, &res);
  _exit(rc == 0 ? 0 : rc == -EEXIST ? 1 : 2);
}

static int wait_code(pid_t pid) {
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

/* The manifest's hash for name equals what is on disk. */
static void manifest_matches(const char *root, const char *name) {
  json_t *e = manifest_entry(root, name);
  cr_assert_not_null(e, "no manifest entry for %s", name);
  cr_assert_str_eq(json_string_value(json_object_get(e, "hash")),
                   fmt("sha256:%s", tree_hash(path_of(root, name))));
  json_decref(e);
}

static void race(bool force) {
  char *src = tmpdir();
  make_big_skill(path_of(src, "a"), "same", "A", 40, 8192);
  make_big_skill(path_of(src, "b"), "same", "B", 40, 8192);
  const char *ha = tree_hash(path_of(src, "a/same")), *hb = tree_hash(path_of(src, "b/same"));
  for (int round = 0; round < 4; round++) {
    char *p = tmpdir(), *root = path_of(p, ".claude/skills");
    int gate[2];
    cr_assert_eq(pipe(gate), 0);
    pid_t a = spawn_install(gate[0], gate[1], p, path_of(src, "a/same"), force);
    pid_t b = spawn_install(gate[0], gate[1], p, path_of(src, "b/same"), force);
    close(gate[0]);
    close(gate[1]); /* both start now */
    int ca = wait_code(a), cb = wait_code(b);
    const char *got = tree_hash(path_of(root, "same"));
    cr_assert(strcmp(got, ha) == 0 || strcmp(got, hb) == 0, "round %d: a mix of both", round);
    if (force) {
      cr_assert(ca == 0 && cb == 0, "round %d: exits %d %d", round, ca, cb);
    } else {
      cr_assert((ca == 0 && cb == 1) || (ca == 1 && cb == 0), "round %d: %d %d", round, ca, cb);
      cr_assert_str_eq(got, ca == 0 ? ha : hb, "the one that succeeded is installed");
    }
    cr_assert_not(has_tmp(root));
    manifest_matches(root, "same");
    rmrf(p);
  }
  rmrf(src);
}

UTest(safety, concurrent_installs_with_force, .timeout = 60) {
  race(true);
}

UTest(safety, concurrent_installs_without_force, .timeout = 60) {
  race(false);
}

/* ---- SIGKILL mid-install ------------------------------------------------------ */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Kill installs of a big new version over an old one at random moments.
 * After each kill the skill is the old or the new version, whole (or absent,
 * only while the rename-aside fallback is between its two renames); the next
 * install recovers: no staging left, the old copy back if it was set aside,
 * and a manifest that matches the disk. */
static void kill_rounds(bool fallback, int rounds) {
  upk_install_test_no_exchange = fallback;
  char *src = tmpdir();
  make_skill(path_of(src, "old"), "big", "old");
  make_big_skill(path_of(src, "new"), "big", "new", 200, 32768);
  make_skill(src, "other", "v1");
  const char *h_old = tree_hash(path_of(src, "old/big")),
             *h_new = tree_hash(path_of(src, "new/big"));
  /* How long one install takes here, to spread the kills over it. */
  char *scratch = tmpdir();
  upk_install_result res;
  double t0 = now_s();
  cr_assert_eq(install_path(scratch, path_of(src, "new/big"), "claude", true, &res), 0);
  double span = now_s() - t0;
  upk_install_result_free(&res);
  rmrf(scratch);
  unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL);
  srand(seed);
  int seen_old = 0, seen_new = 0;
  for (int i = 0; i < rounds; i++) {
    char *p = tmpdir(), *root = path_of(p, ".claude/skills");
    cr_assert_eq(install_path(p, path_of(src, "old/big"), "claude", false, &res), 0);
    upk_install_result_free(&res);
    pid_t pid = spawn_install(-1, -1, p, path_of(src, "new/big"), true);
    useconds_t delay = (useconds_t)(span * 1.2e6 * (rand() / (double)RAND_MAX));
    usleep(delay);
    kill(pid, SIGKILL);
    wait_code(pid);
    const char *got = tree_hash(path_of(root, "big"));
    bool ok = !strcmp(got, h_old) || !strcmp(got, h_new) || (fallback && !*got);
    cr_assert(ok, "seed %u round %d (%u us of %.0f): a partial skill", seed, i, delay, span * 1e6);
    /* Any later install or remove in this root recovers first. */
    cr_assert_eq(install_path(p, path_of(src, "other"), "claude", false, &res), 0);
    upk_install_result_free(&res);
    got = tree_hash(path_of(root, "big"));
    cr_assert(!strcmp(got, h_old) || !strcmp(got, h_new), "seed %u round %d: after recovery", seed,
              i);
    seen_old += !strcmp(got, h_old);
    seen_new += !strcmp(got, h_new);
    cr_assert_not(has_tmp(root), "seed %u round %d: staging left", seed, i);
    manifest_matches(root, "big");
    rmrf(p);
  }
  cr_log_info("kills: %d old, %d new (install takes %.1f ms)", seen_old, seen_new, span * 1e3);
  rmrf(src);
}

UTest(safety, killed_install_leaves_old_or_new, .timeout = 100) {
  kill_rounds(false, 10);
}

UTest(safety, killed_fallback_install_recovers, .timeout = 100) {
  kill_rounds(true, 10);
}

/* ---- recovery of staged states, made by hand --------------------------------- */

/* Stage `variant` of skill `name` in root as a killed install would leave it. */
static char *fake_staging(const char *root, const char *name, const char *variant,
                          const char **hash) {
  char *tmp = path_of(root, UPK_TMP_PREFIX "4242.deadbeef0000");
  mkdirs(tmp);
  make_skill(tmp, name, variant);
  *hash = tree_hash(path_of(tmp, name));
  json_t *intent = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s}}", "name", name, "hash", *hash,
                             "entry", "source", "fake", "sourceType", "path", "hash",
                             fmt("sha256:%s", *hash), "updatedAt", "2030-01-01T00:00:00Z");
  cr_assert_eq(json_dump_file(intent, path_of(tmp, ".intent.json"), 0), 0);
  json_decref(intent);
  return tmp;
}

static void trigger_recovery(const char *p) {
  char *src = tmpdir();
  make_skill(src, "trigger", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "trigger"), "claude", false, &res), 0);
  cr_assert(has_code(&res.diags, "install/recovered"));
  upk_install_result_free(&res);
  rmrf(src);
}

UTest(safety, recovery_restores_old_copy_set_aside) {
  char *p = tmpdir(), *src = tmpdir(), *root = path_of(p, ".claude/skills");
  make_skill(src, "aside", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "aside"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  const char *h1 = tree_hash(path_of(root, "aside")), *h2;
  /* Killed between "old aside" and "new in". */
  char *tmp = fake_staging(root, "aside", "v2", &h2);
  cr_assert_eq(rename(path_of(root, "aside"), path_of(tmp, ".old")), 0);
  trigger_recovery(p);
  cr_assert_str_eq(tree_hash(path_of(root, "aside")), h1);
  cr_assert_not(has_tmp(root));
  manifest_matches(root, "aside");
  rmrf(p);
  rmrf(src);
}

UTest(safety, recovery_records_committed_swap) {
  char *p = tmpdir(), *src = tmpdir(), *root = path_of(p, ".claude/skills");
  make_skill(src, "swapped", "v1");
  upk_install_result res;
  cr_assert_eq(install_path(p, path_of(src, "swapped"), "claude", false, &res), 0);
  upk_install_result_free(&res);
  const char *h2;
  /* Killed after the exchange, before the manifest was written. */
  char *tmp = fake_staging(root, "swapped", "v2", &h2);
  cr_assert_eq(renameat2(AT_FDCWD, path_of(tmp, "swapped"), AT_FDCWD, path_of(root, "swapped"),
                         RENAME_EXCHANGE),
               0);
  trigger_recovery(p);
  cr_assert_str_eq(tree_hash(path_of(root, "swapped")), h2);
  manifest_matches(root, "swapped");
  json_t *e = manifest_entry(root, "swapped");
  cr_assert_str_eq(json_string_value(json_object_get(e, "source")), "fake");
  json_decref(e);
  cr_assert_not(has_tmp(root));
  rmrf(p);
  rmrf(src);
}

UTest(safety, recovery_drops_unfinished_staging) {
  char *p = tmpdir(), *root = path_of(p, ".claude/skills");
  write_file(root, UPK_TMP_PREFIX "1.abc/half/SKILL.md", "---\nname: half\n");
  write_file(root, UPK_TMP_PREFIX "2.def", "a stray file");
  trigger_recovery(p);
  cr_assert_not(has_tmp(root));
  cr_assert_not(exists(path_of(root, "half")));
  rmrf(p);
}
