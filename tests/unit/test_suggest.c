/* upk_suggest: the typos people make find their word; unrelated words find nothing. */
#include <stddef.h>

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
