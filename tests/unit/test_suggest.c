/* upk_suggest: the typos people make find their word; unrelated words find nothing. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/suggest.h"
#include "tests/unit/unit.h"

static const char *const cmds[] = {"lookup", "check-kernel", "install",  "remove", "list",
                                   "status", "ping",         "validate", "audit",  "eval"};
#define NCMDS (sizeof cmds / sizeof *cmds)

UTest(suggest, distance_counts_a_swap_as_one_edit) {
  cr_assert_eq(upk_edit_distance("lokup", "lookup"), 1);
  cr_assert_eq(upk_edit_distance("check-kernal", "check-kernel"), 1);
  cr_assert_eq(upk_edit_distance("isntall", "install"), 1);
  cr_assert_eq(upk_edit_distance("", "abc"), 3);
  cr_assert_eq(upk_edit_distance("Status", "status"), 0);
}

UTest(suggest, typos_find_their_command) {
  cr_assert_str_eq(upk_suggest("lokup", cmds, NCMDS), "lookup");
  cr_assert_str_eq(upk_suggest("check-kernal", cmds, NCMDS), "check-kernel");
  cr_assert_str_eq(upk_suggest("isntall", cmds, NCMDS), "install");
  cr_assert_str_eq(upk_suggest("staus", cmds, NCMDS), "status");
}

UTest(suggest, unrelated_or_known_words_find_nothing) {
  cr_assert_null(upk_suggest("frobnicate", cmds, NCMDS));
  cr_assert_null(upk_suggest("x", cmds, NCMDS));
  cr_assert_null(upk_suggest("lookup", cmds, NCMDS));
  cr_assert_null(upk_suggest("", cmds, NCMDS));
  cr_assert_null(upk_suggest("lookup", NULL, 0));
}

/* A path typed wrong is mended a component at a time, from what exists; nothing above the
 * named path is listed, and a mend that names nothing that exists is no answer. */
UTest(suggest, a_missing_path_is_mended_from_what_exists) {
  char root[] = "/tmp/upk-suggest-XXXXXX", p[PATH_MAX], out[PATH_MAX];
  cr_assert(mkdtemp(root));
  snprintf(p, sizeof p, "%s/skills", root);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/skills/my-skill", root);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/skills/my-skill/SKILL.md", root);
  fclose(fopen(p, "w"));
  snprintf(p, sizeof p, "%s/skils/my-skil/SKILL.md", root);
  cr_assert(upk_suggest_path(p, out, sizeof out), "%s", p);
  snprintf(p, sizeof p, "%s/skills/my-skill/SKILL.md", root);
  cr_assert_str_eq(out, p);
  snprintf(p, sizeof p, "%s/skills/my-skill/README.md", root); /* nothing near: no answer */
  cr_assert_not(upk_suggest_path(p, out, sizeof out));
  snprintf(p, sizeof p, "%s/skills/../skils", root); /* never mended above what was named */
  cr_assert_not(upk_suggest_path(p, out, sizeof out));
  cr_assert_not(upk_suggest_path("relative/path", out, sizeof out));
  snprintf(p, sizeof p, "%s/skills", root); /* it exists: nothing to mend */
  cr_assert_not(upk_suggest_path(p, out, sizeof out));
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  cr_assert_eq(system(cmd), 0);
}

static void touch(const char *root, const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  FILE *f = fopen(p, "w");
  cr_assert(f, "%s", p);
  fclose(f);
}

static void dir(const char *root, const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
}

/* gain.cu named at the workspace's top is found where it is, src/kernels/gain.cu (the shallowest
 * first); what sits only behind a link or in a hidden directory is never offered. */
UTest(suggest, a_file_named_in_the_wrong_directory_is_found_below) {
  char root[] = "/tmp/upk-suggest-XXXXXX", away[] = "/tmp/upk-suggest-away-XXXXXX";
  char p[PATH_MAX], want[PATH_MAX], out[PATH_MAX];
  cr_assert(mkdtemp(root) && mkdtemp(away));
  dir(root, "src"), dir(root, "src/kernels"), dir(root, "deep"), dir(root, "deep/a");
  dir(root, "deep/a/b"), dir(root, ".git");
  touch(root, "src/kernels/gain.cu"), touch(root, "deep/a/b/gain.cu"), touch(root, ".git/hid.cu");
  touch(away, "secret.cu");
  snprintf(p, sizeof p, "%s/linked", root);
  cr_assert_eq(symlink(away, p), 0);
  snprintf(p, sizeof p, "%s/gain.cu", root);
  cr_assert(upk_suggest_path(p, out, sizeof out), "%s", p);
  snprintf(want, sizeof want, "%s/src/kernels/gain.cu", root);
  cr_assert_str_eq(out, want);
  snprintf(p, sizeof p, "%s/secret.cu", root); /* only behind the link: not offered */
  cr_assert_not(upk_suggest_path(p, out, sizeof out), "%s", out);
  snprintf(p, sizeof p, "%s/hid.cu", root); /* only in a hidden directory */
  cr_assert_not(upk_suggest_path(p, out, sizeof out), "%s", out);
  snprintf(p, sizeof p, "%s/nosuch/gain.cu", root); /* a missing directory: not searched below */
  cr_assert_not(upk_suggest_path(p, out, sizeof out), "%s", out);
  char cmd[2 * PATH_MAX];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, away);
  cr_assert_eq(system(cmd), 0);
}
